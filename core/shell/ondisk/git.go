package ondisk

import (
	"path"
	"strings"
)

// GitRepo is a repository found from a directory: its top-level work tree,
// its git dir, and the common dir holding hooks and config (the git dir,
// or for a linked worktree the main repository's).
type GitRepo struct {
	Top, GitDir, Common string
}

// FindGitRepo looks for the repository holding dir: a .git directory, or
// a .git file ("gitdir: PATH", as worktrees and submodules have), in dir
// or a directory above it. Cost: a Stat per directory walked (at most 64),
// a read of a .git file and of commondir.
func FindGitRepo(r *Reader, dir string) (GitRepo, bool) {
	for i := 0; i < 64 && strings.HasPrefix(dir, "/"); i++ {
		p := path.Join(dir, ".git")
		if info, err := r.Stat(p); err == nil {
			repo := GitRepo{Top: dir, GitDir: p}
			if info.Mode.IsRegular() {
				text, st := r.Read(p)
				gd, ok := strings.CutPrefix(strings.TrimSpace(text), "gitdir:")
				if st != Read || !ok {
					return GitRepo{}, false
				}
				gd = strings.TrimSpace(gd)
				if !strings.HasPrefix(gd, "/") {
					gd = path.Join(dir, gd)
				}
				repo.GitDir = path.Clean(gd)
			} else if !info.Mode.IsDir() {
				return GitRepo{}, false
			}
			repo.Common = repo.GitDir
			if _, err := r.Stat(path.Join(repo.GitDir, "commondir")); err == nil {
				if text, st := r.Read(path.Join(repo.GitDir, "commondir")); st == Read {
					c := strings.TrimSpace(text)
					if !strings.HasPrefix(c, "/") {
						c = path.Join(repo.GitDir, c)
					}
					repo.Common = path.Clean(c)
				}
			}
			return repo, true
		}
		if dir == "/" {
			break
		}
		dir = path.Dir(dir)
	}
	return GitRepo{}, false
}

// GitConfigValue returns the last value of section.key ("core.hookspath",
// case-insensitive section and key, no subsection) in a git config file's
// text; ok is false when it is not set there. Quotes and the escapes \",
// \\ are removed; an include is not followed.
func GitConfigValue(text, name string) (string, bool) {
	sec, key, _ := strings.Cut(strings.ToLower(name), ".")
	cur := ""
	val, found := "", false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				continue
			}
			cur = strings.ToLower(strings.TrimSpace(l[1:end]))
			if strings.ContainsAny(cur, " \"") {
				cur = "" // a subsection: not what is asked for
			}
			l = strings.TrimSpace(l[end+1:])
			if l == "" {
				continue
			}
		}
		if cur != sec {
			continue
		}
		k, v, _ := strings.Cut(l, "=")
		if strings.ToLower(strings.TrimSpace(k)) != key {
			continue
		}
		val, found = unquoteGit(strings.TrimSpace(v)), true
	}
	return val, found
}

// unquoteGit removes a git config value's quotes, escapes and comment.
func unquoteGit(v string) string {
	var sb strings.Builder
	inQ := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			inQ = !inQ
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			default:
				sb.WriteByte(v[i])
			}
		case (c == '#' || c == ';') && !inQ:
			return strings.TrimSpace(sb.String())
		default:
			sb.WriteByte(c)
		}
	}
	return strings.TrimSpace(sb.String())
}
