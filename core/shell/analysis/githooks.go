package analysis

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// gitHooksCmd: a git command runs the hooks of the active hooks directory
// (cmdfacts.GitHooksRun: pre-commit, pre-push, post-checkout ...): the
// directory is core.hooksPath — from -c, else the repository's config,
// else the user's (~/.gitconfig, $XDG_CONFIG_HOME/git/config or
// ~/.config/git/config) — relative to the work tree's top, else the hooks
// directory of the repository (the common dir of a linked worktree). Each
// hook that exists and is executable is read and judged as a program run
// from the top of the work tree ($0 its path).
func (a *analyzer) gitHooksCmd(c ctx, st *state, ex exec) {
	cmd := a.out.Commands[ex.idx]
	g, ok := cmdfacts.GitCommand(&cmd)
	if !ok || g.Unknown || g.Sub == "" {
		return
	}
	hooks := cmdfacts.GitHooksRun(g)
	if len(hooks) == 0 || len(g.GitDir) > 0 || len(g.WorkTree) > 0 {
		return
	}
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	for _, d := range g.Dirs {
		if d.Unknown {
			return
		}
		dir = joinDir(dir, d.Value)
	}
	r := a.opts.Files
	repo, ok := ondisk.FindGitRepo(r, dir)
	if !ok {
		return
	}
	hooksDir := path.Join(repo.Common, "hooks")
	if hp, ok := a.hooksPath(g, repo); ok {
		if hp == "" {
			return // set but not known: not judged
		}
		if !strings.HasPrefix(hp, "/") {
			hp = path.Join(repo.Top, hp)
		}
		hooksDir = path.Clean(hp)
	}
	if !a.enter("git hooks " + hooksDir + " " + g.Sub) {
		return
	}
	defer a.leave()
	for _, h := range hooks {
		p := path.Join(hooksDir, h)
		info, err := r.Stat(p)
		if err != nil || info.Mode&0o111 == 0 && info.Mode.IsRegular() || info.Mode.IsDir() {
			continue // absent, or a file git would not run
		}
		a.runHook(c, st, ex, p, repo.Top, h)
	}
}

// hooksPath returns core.hooksPath as git would see it; ok is false when
// it is not set (known "" when set but unknown).
func (a *analyzer) hooksPath(g cmdfacts.Git, repo ondisk.GitRepo) (string, bool) {
	val, set := "", false
	for _, cfg := range g.Config {
		if strings.EqualFold(cfg.Name, "core.hookspath") {
			val, set = cfg.Value, true
			if cfg.Unknown {
				val = ""
			}
		}
	}
	if set {
		return val, true
	}
	files := []string{path.Join(repo.Common, "config")}
	if h := a.home(); h != "" {
		files = append([]string{path.Join(h, ".gitconfig")}, files...)
		xdg := path.Join(h, ".config")
		if a.opts.Lookup != nil {
			if v, ok := a.opts.Lookup("XDG_CONFIG_HOME"); ok && strings.HasPrefix(v, "/") {
				xdg = v
			}
		}
		files = append([]string{path.Join(xdg, "git", "config")}, files...)
	}
	for _, f := range files {
		if _, err := a.opts.Files.Stat(f); err != nil {
			continue
		}
		text, status := a.opts.Files.Read(f)
		if status != ondisk.Read {
			continue
		}
		if v, ok := ondisk.GitConfigValue(text, "core.hookspath"); ok {
			val, set = v, true
			if strings.HasPrefix(val, "~/") {
				val = path.Join(a.home(), val[2:])
			}
		}
	}
	return val, set
}

// runHook judges the hook at p, run by git from top.
func (a *analyzer) runHook(c ctx, st *state, ex exec, p, top, name string) {
	d, ok := a.readAbs(p)
	if !ok {
		return
	}
	if !a.readWhole(ex, d) {
		return
	}
	if ondisk.Binary(d.text) {
		return
	}
	hst := a.runnerState(st, ex, top, nil)
	arg0 := knownWord(p, p)
	sb, has := ondisk.ParseShebang(d.text)
	if !has || cmdfacts.IsShell(sb.Prog) {
		scriptState(hst, arg0, nil)
		hst.posKnown = false // git passes arguments the analysis does not know
		a.withFile(d.abs, func() {
			a.analyseFile(c, hst, &fileOrigin{shown: d.shown, text: d.text}, "git hook "+name, ex.idx)
		})
		return
	}
	if !interpFileLang(sb.Prog) {
		return
	}
	words := []xword{knownWord(sb.Prog, sb.Prog)}
	for _, arg := range sb.Args {
		words = append(words, knownWord(arg, arg))
	}
	a.withFile(d.abs, func() {
		a.interpFile(c, hst, ex, words, d)
	})
}
