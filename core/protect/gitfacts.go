package protect

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/paths"
)

// The places of the project's repository that only the file system can
// tell (the GitDir, GitHooks and GitInclude anchors): where a .git file
// points, the active hooks directory and the files git configuration
// includes. Read on the real file system only, once per call, bounded:
// at most maxGitFiles configuration files of at most maxGitFile bytes.

const (
	maxGitFiles = 16
	maxGitFile  = 256 << 10
)

// repoFacts are the discovered places, as absolute paths.
type repoFacts struct {
	gitDirs, hooks, includes []paths.Path
}

// of returns the places of a discovered anchor.
func (f repoFacts) of(a Anchor) []paths.Path {
	switch a {
	case GitDir:
		return f.gitDirs
	case GitHooks:
		return f.hooks
	case GitInclude:
		return f.includes
	}
	return nil
}

// discover finds the repository's places for the project proj: the gitdir
// of a .git file and the commondir of the git dir; then, in the order git
// reads them, the user's configuration (~/.gitconfig, the XDG one) and the
// repository's (config, config.worktree, the common dir's config), with
// every file they include: each core.hooksPath found (relative to the
// project root; a last element "_", husky's layout, adds its parent) and
// each included file. Nothing without a real file system (p.EvalSymlinks
// nil). Cost: a few Lstat and small reads.
func discover(p paths.Platform, proj, home, config paths.Path) repoFacts {
	var f repoFacts
	if p.EvalSymlinks == nil {
		return f
	}
	var files []string
	if home.IsAbs() {
		files = append(files, filepath.Join(home.Norm, ".gitconfig"))
	}
	if config.IsAbs() {
		files = append(files, filepath.Join(config.Norm, "git", "config"))
	}
	if proj.IsAbs() {
		for _, d := range gitDirsOf(filepath.Join(proj.Norm, ".git")) {
			if d.pointed {
				f.gitDirs = append(f.gitDirs, p.Clean(d.dir))
			}
			files = append(files, filepath.Join(d.dir, "config"), filepath.Join(d.dir, "config.worktree"))
		}
	}
	r := configReader{p: p, home: home}
	for _, file := range files {
		r.read(file, 0)
	}
	for _, h := range r.hooks {
		x := expandHome(p, h, home)
		if !x.IsAbs() && proj.IsAbs() {
			x = p.Join(proj, x)
		}
		if !x.IsAbs() {
			continue
		}
		f.hooks = append(f.hooks, x)
		if filepath.Base(x.Norm) == "_" { // husky: .husky/_/pre-commit runs .husky/pre-commit
			f.hooks = append(f.hooks, p.Join(x, p.Clean("..")))
		}
	}
	f.includes = r.includes
	return f
}

// gitDir is a repository directory of the project: the .git directory
// itself (pointed false), or one a gitdir: file or a commondir file
// names (pointed true: outside the fixed .git entry).
type gitDir struct {
	dir     string
	pointed bool
}

// gitDirsOf returns the git dirs behind dotGit: the directory itself, or
// the one its gitdir: line names (relative to its directory), and the
// common dir either names in its commondir file.
func gitDirsOf(dotGit string) []gitDir {
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return nil
	}
	var out []gitDir
	switch {
	case fi.IsDir():
		out = append(out, gitDir{dir: dotGit})
	case fi.Mode().IsRegular():
		line := firstLine(dotGit)
		target, ok := strings.CutPrefix(line, "gitdir:")
		if !ok || strings.TrimSpace(target) == "" {
			return nil
		}
		out = append(out, gitDir{dir: relTo(filepath.Dir(dotGit), strings.TrimSpace(target)), pointed: true})
	default:
		return nil
	}
	if c := firstLine(filepath.Join(out[0].dir, "commondir")); c != "" {
		out = append(out, gitDir{dir: relTo(out[0].dir, c), pointed: true})
	}
	return out
}

// relTo is path rel made absolute against dir (unchanged when absolute).
func relTo(dir, rel string) string {
	if filepath.IsAbs(rel) {
		return filepath.Clean(rel)
	}
	return filepath.Join(dir, rel)
}

// firstLine is the first line of a small file, trimmed ("" when it cannot
// be read).
func firstLine(file string) string {
	fh, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer fh.Close()
	line, _ := bufio.NewReader(io.LimitReader(fh, 4096)).ReadString('\n')
	return strings.TrimSpace(line)
}

// expandHome reads a git path value: ~/x under home, else as written.
func expandHome(p paths.Platform, v string, home paths.Path) paths.Path {
	if rest, ok := strings.CutPrefix(v, "~/"); ok && home.IsAbs() {
		return p.Join(home, p.Clean(rest))
	}
	return p.Clean(v)
}

// configReader collects core.hooksPath values and included files from git
// configuration files.
type configReader struct {
	p        paths.Platform
	home     paths.Path
	files    int
	hooks    []string
	includes []paths.Path
}

// read parses one configuration file and, depth-first, the files it
// includes (at most maxGitFiles files in all, includes nested up to 5
// deep, as git bounds them).
func (r *configReader) read(file string, depth int) {
	if r.files >= maxGitFiles || depth > 5 {
		return
	}
	fh, err := os.Open(file)
	if err != nil {
		return
	}
	r.files++
	data, err := io.ReadAll(io.LimitReader(fh, maxGitFile))
	fh.Close()
	if err != nil {
		return
	}
	for _, kv := range cmdfacts.ParseGitConfig(data) {
		switch {
		case kv.Key == "core.hookspath" && kv.Value != "":
			r.hooks = append(r.hooks, kv.Value)
		case (kv.Key == "include.path" || strings.HasPrefix(kv.Key, "includeif.") && strings.HasSuffix(kv.Key, ".path")) && kv.Value != "":
			x := expandHome(r.p, kv.Value, r.home)
			if !x.IsAbs() {
				x = r.p.Join(r.p.Clean(filepath.Dir(file)), x)
			}
			if x.IsAbs() {
				r.includes = append(r.includes, x)
				r.read(x.Norm, depth+1)
			}
		}
	}
}
