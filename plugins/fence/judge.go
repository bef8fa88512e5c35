package fence

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/protect"
	"github.com/zcode-fence/zcode-fence/core/shell/cdchain"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// judge holds one Decide call: the platform, the roots, the call's cwd and
// the reasons found so far.
type judge struct {
	ctx  context.Context
	p    paths.Platform
	call *core.Call
	en   bool

	cwd  paths.Path // the call's cwd (absolute), or the project root
	root string     // the project root as shown in messages

	// lexRoots are the writable roots as given, realRoots their real
	// paths; a target inside either counts.
	lexRoots, realRoots []paths.Path
	// homes are home as given and real: a system temp root that holds it
	// (HOME under /tmp) does not cover it (carvedOut).
	homes []paths.Path

	// dirs resolves the commands' cd chains, each distinct one once.
	dirs *cdchain.Cache[paths.Path]
	// steps is the call's work budget (see StepBudget); every file-system
	// call and path operation is counted.
	steps *steps.Counter
	// reals caches the real path of each distinct target: realPath by
	// the lexical path, realNoFollow by "-" + the lexical path.
	reals map[string]paths.Path

	planned []plannedLink // symlinks made by the script itself

	// noRoots: no project root, or enable_fence off: only protected paths
	// are judged (see protected.go).
	noRoots bool
	prot    *protect.Set // resolved on first use (protectedSet)
	cur     int          // index of the command being judged

	seen    map[string]bool
	reasons []core.Reason
	more    int           // distinct targets beyond maxReasons
	extra   []core.Reason // FN-INCOMPLETE, after the targets
}

// maxReasons bounds the reasons of one verdict; the rest are counted in
// the last message.
const maxReasons = 4

// newJudge prepares a judge. Without an absolute project root, or with
// enable_fence off, it judges protected paths only (noRoots).
func newJudge(ctx context.Context, p paths.Platform, c *core.Call, budget *steps.Counter) *judge {
	project := p.CleanRoot(strings.TrimSpace(c.ProjectRoot))
	if eval := p.EvalSymlinks; eval != nil {
		// Every symlink walk is counted: one step per component.
		p.EvalSymlinks = func(path string) (string, error) {
			budget.Spend(steps.FS(path))
			return eval(path)
		}
	}
	j := &judge{ctx: ctx, p: p, call: c, en: c.Language() == core.English, root: project.Norm, steps: budget}
	if !project.IsAbs() || c.Option(Enable.Key, Enable.Default) != "true" {
		// Protected paths only, relative targets against the call's cwd.
		j.noRoots = true
		if j.root == "" {
			j.root = "-"
		}
		j.cwd = p.Clean(strings.TrimSpace(c.Cwd))
		return j
	}
	j.addRoot(project)
	roots := c.WritableRoots
	if len(roots) == 0 {
		// The host always fills them; compute the defaults if it did not.
		for _, r := range p.WritableRoots(c.ProjectRoot, "") {
			j.addRoot(r)
		}
	}
	for _, r := range roots {
		// Real paths already (core.Call's contract): no second walk.
		if x := p.Clean(strings.TrimSpace(r)); x.IsAbs() {
			j.lexRoots = append(j.lexRoots, x)
			j.realRoots = append(j.realRoots, x)
		}
	}
	if home := p.Clean(strings.TrimSpace(p.Home)); home.IsAbs() {
		j.homes = []paths.Path{home, p.RealPath(home)}
	}
	j.cwd = p.Clean(strings.TrimSpace(c.Cwd))
	if !j.cwd.IsAbs() {
		j.cwd = project
	}
	return j
}

func (j *judge) addRoot(x paths.Path) {
	if !x.IsAbs() {
		return
	}
	j.lexRoots = append(j.lexRoots, x)
	j.realRoots = append(j.realRoots, j.p.RealPath(x))
}

// within reports whether x lies inside one of the roots, as given or real.
// Without a project root every path is: only protected paths are judged.
func (j *judge) within(x paths.Path) bool {
	return j.noRoots || j.anyRoot(func(r paths.Path) bool { return j.p.Contains(r, x) && !j.carvedOut(r, x) })
}

// carvedOut reports whether x lies in home while r is a system temp dir
// that holds home (a HOME under /tmp: test machines, sandboxes). /tmp stays
// a writable root then, but home does not become one through it: a write
// to ~/x still answers to the fence (the project, the memory dir and extra
// roots inside home are roots of their own).
func (j *judge) carvedOut(r, x paths.Path) bool {
	if len(j.homes) == 0 || !j.p.IsSystemTemp(r) {
		return false
	}
	for _, h := range j.homes {
		if h.IsAbs() && j.p.Contains(r, h) && j.p.Contains(h, x) {
			return true
		}
	}
	return false
}

// anyRoot reports whether f holds for one of the roots, as given or real.
func (j *judge) anyRoot(f func(root paths.Path) bool) bool {
	for _, r := range j.realRoots {
		if f(r) {
			return true
		}
	}
	for _, r := range j.lexRoots {
		if f(r) {
			return true
		}
	}
	return false
}

// outcome is what a target turned out to be.
type outcome uint8

const (
	inside       outcome = iota // in a writable root, or a null/stream device
	outside                     // outside every root
	escape                      // inside as written, outside after symlinks
	unresolved                  // unknown: a variable, substitution or directory
	protectedHit                // a protected path (core/protect), or a directory holding one
	linkOutside                 // a hard link to a file outside every root
)

// result is a judged target: the outcome, the target as shown (normalised,
// or as written when unresolved) and, for escape, its real path.
type result struct {
	kind  outcome
	shown string
	real  string
	// abs and realp are the absolute target and its real path, when the
	// target was a path (protected.go judges them again).
	abs, realp paths.Path
	// what says which protected path a protected target reaches.
	what string
	// bulk: an extraction or copy of unknown members into the target.
	bulk bool
	// place: the target can create or replace a protected place below it
	// (places.go).
	place bool
}

// check judges one normalised target. A Relative x is joined onto base
// first. del means the command removes x itself (rm, mv's source): a
// symlink as the last component is then not followed, since removing a
// link leaves what it points to alone. Cost: string work plus RealPath.
func (j *judge) check(x, base paths.Path, del bool) result {
	switch x.Kind {
	case paths.Empty, paths.Null:
		return result{kind: inside}
	case paths.Unresolved:
		return result{kind: unresolved, shown: shownRaw(x)}
	case paths.Relative:
		rel := x
		x = j.p.Join(base, x)
		switch x.Kind {
		case paths.Unresolved:
			if base.Kind == paths.Unresolved && base.Norm != "" {
				// Show the unknown directory too: $X/a, not a.
				dir := base.Norm
				if !strings.ContainsAny(dir, "$`%") {
					dir = "<" + dir + ">" // cd -, popd, ~: say it is a placeholder
				}
				return result{kind: unresolved, shown: strings.TrimRight(dir, `/\`) + "/" + shownRaw(rel)}
			}
			return result{kind: unresolved, shown: shownRaw(x)}
		case paths.Null, paths.Empty:
			return result{kind: inside}
		}
	}
	if !x.IsAbs() {
		return result{kind: inside}
	}
	if x.Kind == paths.Unix && (strings.HasPrefix(x.Norm, "/dev/") && j.p.IsWritable(x, nil) || isProcFd(x.Norm)) {
		return result{kind: inside} // /dev/stdout, /dev/stderr, /dev/tty, /dev/fd/N, /proc/self/fd/N
	}
	through := j.throughPlannedLink(x)
	var real paths.Path
	if del && through.Norm == x.Norm {
		real = j.cachedReal("-", x, j.realNoFollow)
	} else {
		real = j.cachedReal("", through, j.realPath)
	}
	if real.Kind == paths.Null {
		return result{kind: inside}
	}
	if j.within(real) {
		return result{kind: inside, abs: x, realp: real}
	}
	if j.within(x) {
		return result{kind: escape, shown: x.Norm, real: real.Norm, abs: x, realp: real}
	}
	return result{kind: outside, shown: x.Norm, abs: x, realp: real}
}

// isProcFd reports whether p is /proc/self/fd/N (or /proc/thread-self/fd/N):
// one of the process's own descriptors, like /dev/fd/N.
func isProcFd(p string) bool {
	for _, pre := range [...]string{"/proc/self/fd/", "/proc/thread-self/fd/"} {
		if n, ok := strings.CutPrefix(p, pre); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return false
}

// plannedLink is a symlink an earlier command of the same script creates
// (ln -s TARGET LINK): it does not exist yet when the layer looks, so the
// real-path walk cannot see through it.
type plannedLink struct {
	after int        // index of the command that creates it
	link  paths.Path // where the link will be
	to    paths.Path // what it will point to
}

// throughPlannedLink rewrites x when it lies below a link an earlier
// command of the script creates; otherwise it returns x.
func (j *judge) throughPlannedLink(x paths.Path) paths.Path {
	for _, l := range j.planned {
		if j.cur <= l.after || x.Kind != l.link.Kind || !j.p.Contains(l.link, x) {
			continue
		}
		rest := strings.TrimLeft(x.Norm[len(l.link.Norm):], `/\`)
		if rest == "" {
			return l.to
		}
		sep := "/"
		if l.to.Kind != paths.Unix {
			sep = `\`
		}
		return j.p.Clean(strings.TrimRight(l.to.Norm, `/\`) + sep + rest)
	}
	return x
}

func shownRaw(x paths.Path) string {
	if x.Raw != "" {
		return x.Raw
	}
	return x.Norm
}

// cachedReal returns real(x), computed once per distinct x (and kind of
// walk, tag) in this call: a script naming one target many times, or many
// targets in one directory, walks the file system once per target.
func (j *judge) cachedReal(tag string, x paths.Path, real func(paths.Path) paths.Path) paths.Path {
	key := tag + string(rune('0'+x.Kind)) + x.Lexical()
	if r, ok := j.reals[key]; ok {
		return r
	}
	r := real(x)
	if j.reals == nil {
		j.reals = map[string]paths.Path{}
	}
	j.reals[key] = r
	return r
}

// maxDangling bounds how many dangling symlinks realPath follows in a row.
const maxDangling = 8

// realPath is p.RealPath(x) that also follows a dangling symlink: RealPath
// stops at the deepest existing ancestor, but a link there whose target
// does not exist yet (proj/new -> /outside/new) makes a write create that
// target. Only on the real file system (EvalSymlinks set). Cost: one Lstat
// for an existing target, one per missing trailing component otherwise.
func (j *judge) realPath(x paths.Path) paths.Path {
	real := j.p.RealPath(x)
	for range maxDangling {
		next, ok := j.dangling(real)
		if !ok {
			return real
		}
		real = j.p.RealPath(next)
	}
	return real
}

// dangling looks at the deepest existing component of real (a real path
// as RealPath returns it): when it is a symlink (RealPath resolves every
// live one, so this one is dangling), it returns the path through the
// link's target. Cost: one Lstat per missing trailing component (at most
// maxDanglingWalk), each counted in steps; the ancestors are cut out of
// real in place, never copied.
func (j *judge) dangling(real paths.Path) (paths.Path, bool) {
	if j.p.EvalSymlinks == nil || !real.IsAbs() || real.Kind == paths.UNC || (real.Kind == paths.Drive) != (j.p.OS == "windows") {
		return paths.Path{}, false
	}
	norm := real.Norm
	rootLen := 1 // "/"
	if real.Kind == paths.Drive {
		rootLen = 3 // "C:\"
	}
	end := len(norm)
	for range maxDanglingWalk {
		cur := norm[:end]
		j.steps.Spend(steps.FS(cur))
		fi, err := os.Lstat(cur)
		if err == nil {
			if fi.Mode()&os.ModeSymlink == 0 {
				return paths.Path{}, false
			}
			to, err := os.Readlink(cur)
			if err != nil || to == "" {
				return paths.Path{}, false
			}
			if !filepath.IsAbs(to) {
				to = filepath.Join(filepath.Dir(cur), to)
			}
			next := j.p.Clean(to + norm[end:])
			if !next.IsAbs() {
				return paths.Path{}, false
			}
			return next, true
		}
		if end <= rootLen {
			return paths.Path{}, false
		}
		// The parent: cut the last component (Norm is clean: no trailing
		// or doubled separator).
		k := strings.LastIndexAny(cur, `/\`)
		if k < rootLen {
			k = rootLen
		}
		end = k
	}
	return paths.Path{}, false
}

// maxDanglingWalk bounds the components dangling climbs.
const maxDanglingWalk = 128

// realNoFollow is the real path of x's parent directory plus x's last
// name: what rm or mv acts on when x is itself a symlink. Paths holding
// ".." or ending in a separator are resolved in full (the kernel follows
// them).
func (j *judge) realNoFollow(x paths.Path) paths.Path {
	if x.Kind == paths.UNC || strings.Contains(x.Raw, "..") || strings.HasSuffix(x.Raw, "/") || strings.HasSuffix(x.Raw, `\`) {
		return j.realPath(x)
	}
	sep := byte('\\')
	rootLen := 3 // C:\
	if x.Kind == paths.Unix {
		sep, rootLen = '/', 1
	}
	i := strings.LastIndexByte(x.Norm, sep)
	if i < 0 || len(x.Norm) <= rootLen {
		return j.realPath(x)
	}
	parent := x.Norm[:max(i, rootLen)]
	name := x.Norm[i+1:]
	rp := j.realPath(j.p.Clean(parent))
	if !rp.IsAbs() {
		return j.realPath(x)
	}
	s := rp.Norm
	if s[len(s)-1] != sep && s[len(s)-1] != '/' && s[len(s)-1] != '\\' {
		s += string(sep)
	}
	return j.p.Clean(s + name)
}

// resolved is one candidate reading of a written target: a normalised
// path (Relative ones are joined onto the command's directory by check)
// and, when the target was only partly known, the text to show instead.
type resolved struct {
	p     paths.Path
	shown string
}

// resolve reads a target word. A known word gives its value and, in bash,
// also its raw text when that holds backslashes the shell would remove
// (the agent wrote C:\Users\x and meant the Windows path). An unknown word
// goes through resolveUnknown. Nil means "not a file" (a process
// substitution, a PowerShell provider path, "-").
func (j *judge) resolve(w ir.Word, base paths.Path, d ir.Dialect) []resolved {
	if w.Unknown {
		return j.resolveUnknown(w, base)
	}
	v := w.Value
	if v == "" || v == "-" {
		return nil
	}
	if d == ir.PowerShell {
		var ok bool
		if v, ok = fileSystemPath(v); !ok {
			return nil
		}
	}
	if d == ir.Bash && w.LiteralTilde() {
		return []resolved{{p: j.p.Normalize("./" + v)}} // rm -rf "~": a directory named ~ here
	}
	out := []resolved{{p: j.p.Normalize(v)}}
	if d == ir.Bash && strings.IndexByte(w.Raw, '\\') >= 0 && !strings.ContainsAny(w.Raw, "$`") {
		raw := strings.NewReplacer(`"`, "", `'`, "").Replace(w.Raw)
		if raw != v && raw != "" {
			if x := j.p.Normalize(raw); x.Norm != out[0].p.Norm || x.Kind != out[0].p.Kind {
				out = append(out, resolved{p: x})
			}
		}
	}
	return out
}

// resolveUnknown reads a word with unknown parts:
//   - a process substitution <(...) / >(...) is a pipe, not a file: nil;
//   - $(pwd), $(mktemp ...) and $(git rev-parse --show-toplevel) at the
//     start are replaced by the directory they print;
//   - a known prefix ending in a separator (/tmp/$X, build/$(date)) is
//     judged by that directory (the unknown tail is assumed not to climb
//     out with "..");
//   - a known prefix that starts a plain relative name (log-$X.txt) lies
//     in the command's directory;
//   - anything else ($X, "$X/etc", C$X) is unresolved.
func (j *judge) resolveUnknown(w ir.Word, base paths.Path) []resolved {
	v := w.Value
	if strings.HasPrefix(w.Raw, "<(") || strings.HasPrefix(w.Raw, ">(") || strings.HasPrefix(v, "<(") || strings.HasPrefix(v, ">(") {
		return nil
	}
	if x, ok := j.substPath(v, base); ok {
		return []resolved{{p: x, shown: v}}
	}
	kp := w.KnownPrefix
	if i := strings.LastIndexAny(kp, `/\`); i >= 0 {
		dir := kp[:i+1]
		if x := j.p.Normalize(dir); x.Kind != paths.Unresolved {
			return []resolved{{p: x, shown: v}}
		}
	} else if plainName(kp) {
		return []resolved{{p: j.p.Clean("."), shown: v}}
	}
	return []resolved{{p: paths.Path{Kind: paths.Unresolved, Norm: v, Raw: v}}}
}

// plainName reports whether a known prefix can only begin a relative name:
// not empty, not a root, drive, home, variable or one lone letter (C$X
// may be C:...).
func plainName(kp string) bool {
	if len(kp) < 2 {
		return false
	}
	switch kp[0] {
	case '/', '\\', '~', '$', '%', '-':
		return false
	}
	return !(isASCIILetter(kp[0]) && kp[1] == ':')
}

// substPath resolves a word that starts with a command substitution whose
// output the layer knows: $(pwd) (the directory), $(mktemp ...) (see
// mktempDir) and $(git rev-parse --show-toplevel) (the enclosing work
// tree, found on the real file system only). The rest of the word must be
// literal text.
func (j *judge) substPath(v string, base paths.Path) (paths.Path, bool) {
	var inner, rest string
	switch {
	case strings.HasPrefix(v, "$("):
		end := strings.IndexByte(v, ')')
		if end < 0 {
			return paths.Path{}, false
		}
		inner, rest = v[2:end], v[end+1:]
	case strings.HasPrefix(v, "`"):
		end := strings.IndexByte(v[1:], '`')
		if end < 0 {
			return paths.Path{}, false
		}
		inner, rest = v[1:1+end], v[2+end:]
	default:
		return paths.Path{}, false
	}
	if strings.ContainsAny(rest, "$`%") {
		return paths.Path{}, false
	}
	f := strings.Fields(inner)
	if len(f) == 0 {
		return paths.Path{}, false
	}
	var dir paths.Path
	switch f[0] {
	case "pwd":
		for _, a := range f[1:] {
			if a != "-L" && a != "-P" {
				return paths.Path{}, false
			}
		}
		dir = base
	case "mktemp":
		dir = j.mktempDir(f[1:], base)
	case "git":
		if len(f) != 3 || f[1] != "rev-parse" || f[2] != "--show-toplevel" {
			return paths.Path{}, false
		}
		dir = j.gitTop(base)
	default:
		return paths.Path{}, false
	}
	if !dir.IsAbs() {
		return paths.Path{}, false
	}
	if rest == "" {
		return dir, true
	}
	sep := "/"
	if dir.Kind != paths.Unix {
		sep = `\`
	}
	return j.p.Clean(strings.TrimRight(dir.Norm, `/\`) + sep + strings.TrimLeft(rest, `/\`)), true
}

// mktempDir is the directory mktemp creates its file in, from its
// arguments: -p DIR / --tmpdir=DIR; the temp dir for --tmpdir, -t or no
// template; the template's own directory; else base (GNU mktemp puts a
// bare template in the current directory).
func (j *judge) mktempDir(args []string, base paths.Path) paths.Path {
	var dir, tmpl string
	haveDir, temp := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-p" && i+1 < len(args):
			i++
			dir, haveDir = args[i], true
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			dir, haveDir = a[2:], true
		case strings.HasPrefix(a, "--tmpdir="):
			dir, haveDir = a[len("--tmpdir="):], true
		case a == "--tmpdir" || a == "-t":
			temp = true
		case strings.HasPrefix(a, "-"):
		default:
			tmpl = a
		}
	}
	switch {
	case haveDir:
		return j.p.Join(base, j.p.Normalize(dir))
	case temp || tmpl == "":
		return j.tempDir()
	}
	if i := strings.LastIndexAny(tmpl, `/\`); i >= 0 {
		return j.p.Join(base, j.p.Normalize(tmpl[:i+1]))
	}
	return base
}

// tempDir is the directory mktemp uses: TMPDIR (else /tmp) on Unix, TEMP
// (else TMP) on Windows.
func (j *judge) tempDir() paths.Path {
	names := []string{"TMPDIR"}
	if j.p.OS == "windows" {
		names = []string{"TEMP", "TMP"}
	}
	for _, n := range names {
		if j.p.Lookup == nil {
			break
		}
		if v, ok := j.p.Lookup(n); ok && strings.TrimSpace(v) != "" {
			if x := j.p.Clean(strings.TrimSpace(v)); x.IsAbs() {
				return x
			}
		}
	}
	if j.p.OS == "windows" {
		return paths.Path{}
	}
	return j.p.Clean("/tmp")
}

// gitTop finds the work tree enclosing dir (the nearest ancestor holding a
// .git entry). Only on the real file system (EvalSymlinks set), at most 64
// levels; the zero Path when not found.
func (j *judge) gitTop(dir paths.Path) paths.Path {
	if j.p.EvalSymlinks == nil || !dir.IsAbs() || dir.Kind == paths.UNC {
		return paths.Path{}
	}
	d := dir.Norm
	for range 64 {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return j.p.Clean(d)
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return paths.Path{}
}

// fileSystemPath strips a PowerShell FileSystem provider qualifier
// (Microsoft.PowerShell.Core\FileSystem::C:\x) and reports false for
// other providers (HKLM:\x, Env:X, Cert:\, Registry::...), which are not
// files.
func fileSystemPath(v string) (string, bool) {
	if i := strings.Index(v, "::"); i >= 0 {
		prov := strings.ToLower(v[:i])
		if !strings.HasSuffix(prov, "filesystem") {
			return "", false
		}
		return v[i+2:], true
	}
	i := strings.IndexByte(v, ':')
	if i >= 2 && !strings.ContainsAny(v[:i], `/\.`) {
		return "", false // a drive name longer than one letter: a provider drive
	}
	return v, true
}

// dirOf follows command c's cd chain from the call's cwd. Each distinct
// chain is resolved once, and a chain that extends the one resolved last
// reuses its prefix (cdchain): a script with n cds costs O(n) steps, not
// O(n²).
func (j *judge) dirOf(c *ir.Command) paths.Path {
	if len(c.Cd) == 0 {
		return j.cwd
	}
	if j.dirs == nil {
		j.dirs = cdchain.New(j.cwd, j.step, j.steps)
	}
	return j.dirs.Dir(c.Cd, c.Dialect)
}

// step applies one cd step (or one tar -C / git -C / curl --output-dir
// directory) to cur. An unknown step gives an Unresolved directory, so
// later relative targets are unresolved, until an absolute step; a step
// known only up to a directory (cd /tmp/$X) uses that directory, and
// find -execdir's step uses the start path it stands under.
func (j *judge) step(cur paths.Path, w ir.Word, d ir.Dialect) paths.Path {
	j.steps.Spend(steps.Path(len(w.Value)+len(w.Raw)) + steps.Path(len(cur.Norm)+len(w.Value)))
	if w.Unknown && (w.Raw == "-execdir" || w.Raw == "-okdir") && w.Value != "" {
		w = cmdfacts.Literal(w.Value)
	}
	rs := j.resolve(w, cur, d)
	if len(rs) == 0 {
		return paths.Path{Kind: paths.Unresolved, Norm: w.Value, Raw: w.Value}
	}
	x := rs[0].p
	for _, r := range rs[1:] { // prefer the raw reading when only it is absolute
		if !x.IsAbs() && r.p.IsAbs() {
			x = r.p
		}
	}
	switch x.Kind {
	case paths.Empty:
		return cur
	case paths.Null:
		return paths.Path{Kind: paths.Unresolved, Norm: w.Value, Raw: w.Value}
	}
	return j.p.Join(cur, x)
}
