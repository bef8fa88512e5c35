package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// hitKind says why a target matters.
type hitKind uint8

const (
	hitCatastrophic hitKind = 1 << iota // paths.IsCatastrophic (or a glob over one)
	hitCritical                         // a critical system file (/etc/passwd, the SAM hive)
	hitDisk                             // a disk device (/dev/sda, \\.\PhysicalDrive0)
	hitDevice                           // any device but the harmless ones (dd of=)
	hitUnknown                          // starts with an unknown variable (see unknownHit)
	hitSysrq                            // /proc/sysrq-trigger
	hitRepo                             // a git repository's history (cmdfacts.GitHistoryPath)
	hitProject                          // the project root or a directory holding it (asked with hitRepo)
)

// hit is one target that matters.
type hit struct {
	kind      hitKind
	shown     string // the normalised target, as messages name it
	label     string // why (a paths label or one of ours), "" for unknown
	fromInput bool   // derived from the items xargs or $(...) feed in
}

// Labels of our own, besides the paths.Label* ones.
const (
	labelCritical = "critical system file"
	labelDisk     = "disk device"
	labelDevice   = "" // the messages about devices say so already
	labelSysrq    = "kernel SysRq trigger"
	// labelLiteralTilde: rm -rf "~" (see literalTildeHits). Messages keep
	// it whatever their length: without it the target reads as home.
	labelLiteralTilde = "a directory named ~ here, not home"
	labelProject      = "the project root"
	labelHoldsProject = "holds the project root"
)

// targets judges words as targets of the command: which of the kinds in
// want they hit. Both the shell-resolved value and the raw text (when it
// keeps Windows backslashes or %VARS%) are tried; relative ones are
// resolved against the command's directory. Results are de-duplicated.
//
// Cost: linear in the words (de-duplication goes through a map once there
// are more than a few hits).
func (v *cmdv) targets(words []ir.Word, want hitKind) []hit {
	type hitKey struct {
		kind  hitKind
		shown string
	}
	var out []hit
	var seen map[hitKey]bool
	for _, w := range words {
		for _, h := range v.wordHits(w, want) {
			k := hitKey{h.kind, h.shown}
			if seen == nil && len(out) >= 8 {
				seen = make(map[hitKey]bool, 2*len(out))
				for _, o := range out {
					seen[hitKey{o.kind, o.shown}] = true
				}
			}
			dup := false
			if seen != nil {
				dup = seen[k]
				seen[k] = true
			} else {
				for _, o := range out {
					if o.shown == h.shown && o.kind == h.kind {
						dup = true
						break
					}
				}
			}
			if !dup {
				out = append(out, h)
			}
		}
	}
	return out
}

// wordHits judges one word.
func (v *cmdv) wordHits(w ir.Word, want hitKind) []hit {
	if want&hitRepo != 0 && v.findItemWord(w) {
		// find -exec's {} stands for what find's tests pick below its
		// start paths, judged as the start paths themselves: the project
		// root there is no delete of the whole project (find . -name
		// node_modules -prune -exec rm -rf {} +); what the find lists is
		// judged by listingHits. xargs -I{} and parallel get the items
		// their lister prints (inputHits).
		hs := v.wordHitsAll(w, want)
		out := hs[:0]
		for _, h := range hs {
			if h.kind != hitProject {
				out = append(out, h)
			}
		}
		return out
	}
	return v.wordHitsAll(w, want)
}

// findItemWord reports a word that stands for what a find -exec lists:
// {} itself (not as xargs's or parallel's replace string), or one of
// the find's start paths reached through a parameter of a shell -exec
// runs (find . -exec sh -c 'rm -rf "$1"' _ {} \;).
func (v *cmdv) findItemWord(w ir.Word) bool {
	if k := v.viaLast().Kind; strings.Contains(w.Raw, "{}") && k != ir.ViaXargs && k != ir.ViaParallel {
		return true
	}
	k, ok := v.findExecThroughShell()
	return ok && v.findRootWord(k, w)
}

// wordHitsAll is wordHits without its find -exec exception.
func (v *cmdv) wordHitsAll(w ir.Word, want hitKind) []hit {
	if isInputWord(w) || v.isReplaceWord(w) {
		hs := v.inputHits(w, want)
		// $(...)/* with unknown output: empty, it is /*. A bare $(...)
		// is a list of items, judged by what lists them.
		if len(hs) == 0 && want&hitUnknown != 0 && isInputWord(w) && substTail(w.Value) != "" && v.unknownStart(w) {
			hs = []hit{{kind: hitUnknown, shown: shownRaw(w)}}
		}
		return hs
	}
	if w.Unknown {
		if p, ok := v.j.tildeUser(w.Value); ok {
			return v.pathHits(p, want)
		}
		if h, ok := wellKnownVar(w.Raw); ok && want&hitCatastrophic != 0 {
			return []hit{h}
		}
		if want&hitUnknown != 0 && v.unknownStart(w) {
			return []hit{{kind: hitUnknown, shown: shownRaw(w)}}
		}
		return nil
	}
	if v.c.Dialect == ir.Bash && w.LiteralTilde() {
		return v.literalTildeHits(w, want)
	}
	var out []hit
	out = append(out, v.textHits(w.Value, want)...)
	if w.Raw == analysis.InputPlaceholder {
		// A known item of xargs's input (echo / | xargs rm -rf).
		for i := range out {
			out[i].fromInput = true
		}
		return out
	}
	if raw, ok := rawPath(w); ok {
		out = append(out, v.textHits(raw, want)...)
	}
	return out
}

// literalTildeHits judges a word whose leading ~ the shell kept ("~",
// '~/x'): the file is ./~ in the command's directory. What that names is
// judged; and where reading ~ as home would be catastrophic, the careful
// reading still asks, naming the real target and saying it is a directory
// literally named ~ in the working directory, not home (an agent that
// wrote rm -rf "~" may have meant either). The fence names the full path.
func (v *cmdv) literalTildeHits(w ir.Word, want hitKind) []hit {
	here := v.textHits("./"+w.Value, want)
	if want&hitCatastrophic == 0 || len(pick(here, hitCatastrophic)) > 0 {
		return here
	}
	if len(pick(v.textHits(w.Value, hitCatastrophic), hitCatastrophic)) == 0 {
		return here
	}
	return append(here, hit{kind: hitCatastrophic, shown: "./" + w.Value, label: labelLiteralTilde})
}

// textHits judges one candidate path string.
func (v *cmdv) textHits(s string, want hitKind) []hit {
	if s == "" {
		return nil
	}
	p := v.j.plat.Normalize(s)
	if p.Kind == paths.Unresolved {
		if tp, ok := v.j.tildeUser(s); ok {
			return v.pathHits(tp, want)
		}
		if h, ok := wellKnownVar(s); ok && want&hitCatastrophic != 0 {
			return []hit{h}
		}
		return nil
	}
	if p.Kind == paths.Relative {
		base, unknown := v.baseDir()
		if !base.IsAbs() {
			if unknown && want&hitUnknown != 0 && wholeDir(p.Norm) {
				return []hit{{kind: hitUnknown, shown: base.Raw + "/" + p.Norm}}
			}
			return nil
		}
		p = v.j.plat.Join(base, p)
	}
	return v.pathHits(p, want)
}

// pathHits judges a normalised absolute path.
func (v *cmdv) pathHits(p paths.Path, want hitKind) []hit {
	if !p.IsAbs() {
		return nil
	}
	var out []hit
	if want&hitCatastrophic != 0 {
		if ok, label := v.j.catastrophic(p); ok {
			out = append(out, hit{kind: hitCatastrophic, shown: p.Norm, label: label})
		}
	}
	if want&hitCritical != 0 && v.j.critical(p) {
		out = append(out, hit{kind: hitCritical, shown: p.Norm, label: labelCritical})
	}
	if want&hitDisk != 0 && isDisk(p) {
		out = append(out, hit{kind: hitDisk, shown: p.Norm, label: labelDisk})
	}
	if want&hitDevice != 0 && isDevice(p) {
		out = append(out, hit{kind: hitDevice, shown: p.Norm, label: labelDevice})
	}
	if want&hitSysrq != 0 && p.Kind == paths.Unix && p.Norm == "/proc/sysrq-trigger" {
		out = append(out, hit{kind: hitSysrq, shown: p.Norm, label: labelSysrq})
	}
	if want&hitRepo != 0 && cmdfacts.GitHistoryPath(p.Norm) && !v.j.strayDotGlob(p) {
		out = append(out, hit{kind: hitRepo, shown: p.Norm})
	}
	if want&hitRepo != 0 && v.j.project.IsAbs() && v.j.plat.Contains(p, v.j.project) {
		label := labelProject
		if !v.j.plat.Contains(v.j.project, p) {
			label = labelHoldsProject
		}
		out = append(out, hit{kind: hitProject, shown: p.Norm, label: label})
	}
	return out
}

// strayDotGlob reports a path whose last segment is a glob over every dot
// entry (.*, .[!.]*, .??*) in a directory that neither is nor holds the
// project root: emptying the dot files of dist/ or build/ deletes a
// repository's history only if that directory is one, which nothing says
// (deleting the directory itself is silent too). A glob aimed at .git
// (.g*, .gi?) still counts anywhere, and so does any glob when the
// project root is unknown.
func (j *judge) strayDotGlob(p paths.Path) bool {
	dir, last := splitLast(p.Norm)
	if dir == "" || !j.project.IsAbs() {
		return false
	}
	if _, dots := cmdfacts.GlobCovers(last, false); !dots {
		return false
	}
	return !j.plat.Contains(j.plat.Clean(dir), j.project)
}

// catastrophic is paths.IsCatastrophic, plus a hidden-file or all-glob
// last segment over a catastrophic directory (~/.*, /etc/.[!.]*).
func (j *judge) catastrophic(p paths.Path) (bool, string) {
	if ok, label := j.plat.IsCatastrophic(p); ok {
		return true, label
	}
	if d, ok := wslDrive(p); ok {
		if ok, label := j.plat.IsCatastrophic(j.plat.Clean(d)); ok {
			return true, label
		}
	}
	dir, last := splitLast(p.Norm)
	if dir == "" || !strings.ContainsAny(last, "*?[") || strings.Trim(last, "*?.[]!^") != "" {
		return false, ""
	}
	return j.plat.IsCatastrophic(j.plat.Clean(dir))
}

// wslDrive maps a WSL drive mount (/mnt/c/Users/alice) to the Windows path
// it is (C:\Users\alice).
//
// Known core/paths gap: IsCatastrophic sees /mnt/c as a mounted volume
// but not what lies on it (a whole profile, the Windows directory).
func wslDrive(p paths.Path) (string, bool) {
	rest, ok := strings.CutPrefix(p.Norm, "/mnt/")
	if p.Kind != paths.Unix || !ok || rest == "" || !isNameByte(rest[0]) || rest[0] == '_' || len(rest) > 1 && rest[1] != '/' {
		return "", false
	}
	return string(rest[0]) + ":\\" + strings.ReplaceAll(strings.TrimPrefix(rest[1:], "/"), "/", `\`), true
}

// splitLast splits a normalised absolute path into its parent (with the
// root's separator kept) and its last segment.
func splitLast(norm string) (dir, last string) {
	i := strings.LastIndexAny(norm, `/\`)
	if i < 0 || i == len(norm)-1 {
		return "", ""
	}
	dir = norm[:i]
	if dir == "" || strings.HasSuffix(dir, ":") {
		dir = norm[:i+1]
	}
	return dir, norm[i+1:]
}

// wholeDir reports whether a relative path names its whole base directory
// or everything in it: ".", "*", ".*", "./*", "..", "../*".
func wholeDir(rel string) bool {
	for _, seg := range strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg != "." && seg != ".." && strings.Trim(seg, "*?.[]!^") != "" {
			return false
		}
	}
	return true
}

// unknownStart reports whether an unknown word is a target nobody can
// judge and that easily becomes a catastrophe:
//
//   - it is nothing but unknown values ("$D", "$1", ${X}): never safe by
//     emptiness, it may hold anything;
//   - with its unknown variables empty, or at their defaults, it is
//     catastrophic ($X/ and $X/* are / and /*, ${X:-/} is /, $DIR/bin is
//     /bin);
//   - it is a catastrophic directory followed by unknown text (/$X, ~/$X).
//
// $TMPDIR/scratch and ${TMPDIR:-/tmp}/x are not: empty or at its default
// the target is an ordinary directory, and whatever the variable holds it
// is a subdirectory of it.
func (v *cmdv) unknownStart(w ir.Word) bool {
	form, ok := emptyForm(w.Value)
	if !ok || strings.TrimSpace(form) == "" {
		return true
	}
	if v.catastrophicText(form) {
		return true
	}
	kp := w.KnownPrefix
	if kp == "" || !strings.HasSuffix(kp, "/") && !strings.HasSuffix(kp, `\`) {
		return false
	}
	return v.catastrophicText(kp)
}

// catastrophicText reports whether a path string, resolved against the
// command's directory, is catastrophic (a glob over one included).
func (v *cmdv) catastrophicText(s string) bool {
	p := v.j.plat.Normalize(s)
	if p.Kind == paths.Relative {
		base, _ := v.baseDir()
		if !base.IsAbs() {
			return false
		}
		p = v.j.plat.Join(base, p)
	}
	if !p.IsAbs() {
		return false
	}
	ok, _ := v.j.catastrophic(p)
	return ok
}

// maxEmptyFormDepth bounds the nesting of ${X:-${Y:-...}} defaults.
const maxEmptyFormDepth = 8

// emptyForm returns a word's value (unknown parts kept as source text)
// with every unknown expansion taken as empty, or as its default for
// ${X:-d} and ${X:=d}: $X, ${X}, $1, $@, $(...), `...`, PowerShell
// $env:X and ${env:X}, cmd %X%. ok is false when the text cannot be
// delimited (an unclosed ${ or $( ).
func emptyForm(s string) (string, bool) { return emptyFormDepth(s, 0) }

func emptyFormDepth(s string, depth int) (string, bool) {
	if depth > maxEmptyFormDepth || !strings.ContainsAny(s, "$`%") {
		return s, depth <= maxEmptyFormDepth
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`':
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				return "", false
			}
			i += end + 1
		case c == '%' && i+1 < len(s):
			end := strings.IndexByte(s[i+1:], '%')
			if end <= 0 || !isVarName(s[i+1:i+1+end]) {
				sb.WriteByte(c)
				continue
			}
			i += end + 1
		case c == '$' && i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '('):
			end := matchClose(s, i+1)
			if end < 0 {
				return "", false
			}
			if s[i+1] == '{' {
				inner := s[i+2 : end]
				if def, ok := paramDefault(inner); ok {
					d, ok := emptyFormDepth(def, depth+1)
					if !ok {
						return "", false
					}
					sb.WriteString(d)
				}
			}
			i = end
		case c == '$' && i+1 < len(s):
			j := i + 1
			if strings.HasPrefix(strings.ToLower(s[j:]), "env:") {
				j += len("env:")
			}
			switch {
			case isNameByte(s[j]):
				for j < len(s) && isNameByte(s[j]) {
					j++
				}
			case strings.IndexByte("@*#?$!-0123456789", s[j]) >= 0:
				j++
			default:
				sb.WriteByte(c)
				continue
			}
			i = j - 1
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String(), true
}

// matchClose returns the index of the bracket closing the one at s[open]
// ({ or (), or -1.
func matchClose(s string, open int) int {
	o, c := s[open], byte('}')
	if o == '(' {
		c = ')'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case o:
			depth++
		case c:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// paramDefault returns the default of a ${...} body NAME:-d, NAME-d,
// NAME:=d or NAME=d.
func paramDefault(inner string) (string, bool) {
	i := 0
	for i < len(inner) && isNameByte(inner[i]) {
		i++
	}
	rest := inner[i:]
	for _, op := range []string{":-", ":=", "-", "="} {
		if d, ok := strings.CutPrefix(rest, op); ok && i > 0 {
			return d, true
		}
	}
	return "", false
}

// isVarName: a cmd.exe variable name (letters, digits, _, parentheses).
func isVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) && s[i] != '(' && s[i] != ')' {
			return false
		}
	}
	return s != ""
}

// isInputWord reports whether w stands for items another command feeds
// in: the xargs/parallel input placeholder, or a $(...) / `...`
// substitution.
func isInputWord(w ir.Word) bool {
	if !w.Unknown {
		return false
	}
	return w.Value == analysis.InputPlaceholder || strings.HasPrefix(w.Value, "$(") || strings.HasPrefix(w.Value, "`")
}

// isReplaceWord reports a word of a command run by xargs -I, parallel or
// fd -x that starts with the replace string ({}, %, {/}): unknown to the
// analysis, with no shell expansion in it.
func (v *cmdv) isReplaceWord(w ir.Word) bool {
	if !w.Unknown || w.KnownPrefix != "" || strings.ContainsAny(w.Value, "$`") {
		return false
	}
	return v.viaArgs()
}

// inputHits judges the items fed into w: the children of every directory a
// lister upstream lists (find /, ls ~, Get-ChildItem C:\), and the paths a
// producer prints (echo /, pwd, dirname "$PWD"), followed by what the word
// has after its substitution ("$(pwd)/build" is the cwd's build). For fd
// -x the lister is the fd command itself.
func (v *cmdv) inputHits(w ir.Word, want hitKind) []hit {
	if want&(hitCatastrophic|hitCritical) == 0 {
		return nil
	}
	wantFeed, tail := ir.FeedArgs, ""
	switch {
	case strings.HasPrefix(w.Value, "$(") || strings.HasPrefix(w.Value, "`"):
		wantFeed, tail = ir.FeedSubst, substTail(w.Value)
	case w.Value != analysis.InputPlaceholder:
		if i := strings.IndexAny(w.Value, `/\`); i >= 0 {
			tail = w.Value[i:] // {}/x: what follows the replace string
		}
	}
	if v.viaLast().Kind == ir.ViaFdExec && v.c.Parent >= 0 {
		var out []hit
		for _, h := range v.j.listedHits(v.c.Parent, want, tail) {
			h.fromInput = true
			out = append(out, h)
		}
		return out
	}
	var out []hit
	v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
		if kind != wantFeed {
			return true
		}
		for _, h := range v.j.listedHits(k, want, tail) {
			h.fromInput = true
			out = append(out, h)
		}
		return len(out) == 0
	})
	return out
}

// substTail returns what follows the leading $(...) or `...` of a word's
// value ("" when the substitution is the whole word, or cannot be
// delimited).
func substTail(v string) string {
	if strings.HasPrefix(v, "`") {
		if i := strings.IndexByte(v[1:], '`'); i >= 0 {
			return v[i+2:]
		}
		return ""
	}
	depth := 0
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return v[i+1:]
			}
		}
	}
	return ""
}

// listedHits judges what command k outputs as items: the children of its
// directory operands for a lister (find, ls, dir, Get-ChildItem), the
// paths printed by echo, printf, pwd, dirname, realpath and readlink.
// tail is appended to printed paths; a lister's children only count when
// tail does not narrow them (empty, "/", "/*").
func (j *judge) listedHits(k int, want hitKind, tail string) []hit {
	lv := j.view(k)
	var roots []ir.Word
	switch lv.name {
	case "find":
		roots = cmdfacts.ParseFind(lv.args).Roots
	case "fd", "fdfind":
		roots = cmdfacts.FdRoots(lv.args)
	case "ls", "dir", "get-childitem", "tree":
		roots = cmdfacts.Operands(lv.args)
		if lv.c.Dialect == ir.PowerShell {
			pc := winshell.ParsePowerShellCommand(lv.c.Args)
			roots = append(append(append([]ir.Word(nil), pc.Named["path"]...), pc.Named["literalpath"]...), pc.Positional...)
		}
		if len(roots) == 0 {
			roots = []ir.Word{cmdfacts.Literal(".")}
		}
	case "echo", "printf":
		text, ok := literalOutput(lv)
		if !ok {
			return nil
		}
		var out []hit
		for _, f := range strings.Fields(text) {
			out = append(out, lv.textHits(f+tail, want)...)
		}
		return out
	case "pwd":
		base, _ := lv.baseDir()
		if !base.IsAbs() {
			return nil
		}
		return lv.textHits(base.Norm+tail, want)
	case "dirname", "realpath", "readlink":
		var out []hit
		for _, w := range cmdfacts.Operands(lv.args) {
			if w.Unknown {
				continue
			}
			s := w.Value
			if lv.name == "dirname" {
				s += "/.."
			}
			out = append(out, lv.textHits(s+tail, want)...)
		}
		return out
	default:
		return nil
	}
	if strings.Trim(tail, `/\*`) != "" {
		return nil
	}
	out := lv.childHits(roots, want)
	if want&hitRepo != 0 && lv.name == "ls" && (cmdfacts.HasShort(lv.args, "aA") || cmdfacts.HasLong(lv.args, "--all", "--almost-all")) {
		// ls -A lists the dot entries too, .git among them: fed to rm -r,
		// every entry of the project root goes (as rm -rf * .* does).
		out = append(out, repoOnly(lv.targets(roots, hitCatastrophic|hitRepo), hitProject)...)
	}
	return out
}

// childHits judges "everything below" each root: ROOT/*.
func (v *cmdv) childHits(roots []ir.Word, want hitKind) []hit {
	var out []hit
	for _, r := range roots {
		if r.Unknown {
			if h, ok := wellKnownVar(r.Raw); ok && want&hitCatastrophic != 0 {
				out = append(out, h)
			}
			continue
		}
		p := v.j.plat.Normalize(r.Value)
		if p.Kind == paths.Relative {
			base, _ := v.baseDir()
			if !base.IsAbs() {
				continue
			}
			p = v.j.plat.Join(base, p)
		}
		if !p.IsAbs() {
			continue
		}
		if ok, label := v.j.plat.IsCatastrophic(p); ok && want&hitCatastrophic != 0 {
			out = append(out, hit{kind: hitCatastrophic, shown: p.Norm, label: label})
		}
		if want&hitRepo != 0 && cmdfacts.GitHistoryPath(p.Norm) {
			out = append(out, hit{kind: hitRepo, shown: p.Norm})
		}
	}
	return out
}

// rawPath returns the word's raw text as a second path candidate, when it
// differs from the value in a way that matters: POSIX quoting dropped the
// backslashes of a Windows path (C:\Users\x became C:Usersx), or it holds
// %VAR% references. Quote characters are removed; text with shell
// expansions ($, `) is left to the value.
func rawPath(w ir.Word) (string, bool) {
	r := w.Raw
	if r == w.Value || !strings.ContainsAny(r, `\%`) || strings.ContainsAny(r, "$`") {
		return "", false
	}
	r = strings.NewReplacer(`'`, "", `"`, "").Replace(r)
	if r == w.Value || r == "" {
		return "", false
	}
	return r, true
}

// shownRaw is how an unknown word is named in messages: as written, quotes
// removed.
func shownRaw(w ir.Word) string {
	s := strings.NewReplacer(`'`, "", `"`, "").Replace(w.Raw)
	if s == "" {
		s = w.Value
	}
	return s
}

// tildeUser maps ~NAME and ~NAME/rest (which paths reports as Unresolved)
// to NAME's profile directory: a sibling of the home directory
// (/home/NAME, /Users/NAME, C:\Users\NAME), /root for ~root on Unix.
func (j *judge) tildeUser(s string) (paths.Path, bool) {
	if len(s) < 2 || s[0] != '~' {
		return paths.Path{}, false
	}
	end := 1
	for end < len(s) && (isNameByte(s[end]) || s[end] == '.' || s[end] == '-') {
		end++
	}
	if end == 1 || (end < len(s) && s[end] != '/' && s[end] != '\\') {
		return paths.Path{}, false
	}
	name, rest := s[1:end], s[end:]
	if name == "root" && j.plat.OS != "windows" {
		return j.plat.Clean("/root" + rest), true
	}
	parent := ""
	if home := j.plat.Clean(j.plat.Home); home.IsAbs() {
		if up := j.plat.Join(home, j.plat.Clean("..")); up.IsAbs() && up.Norm != home.Norm {
			parent = up.Norm
		}
	}
	if parent == "" {
		switch j.plat.OS {
		case "windows":
			parent = `C:\Users`
		case "darwin":
			parent = "/Users"
		default:
			parent = "/home"
		}
	}
	sep := "/"
	if strings.Contains(parent, `\`) {
		sep = `\`
	}
	p := j.plat.Clean(strings.TrimRight(parent, `/\`) + sep + name + rest)
	return p, p.IsAbs()
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// wellKnownVar recognises a reference to a Windows variable that names a
// catastrophic directory (%USERPROFILE%, $env:SystemRoot, $HOME, ...),
// optionally followed by a separator and a glob, for when the variable is
// not defined where the layer runs.
func wellKnownVar(s string) (hit, bool) {
	t := strings.NewReplacer(`'`, "", `"`, "").Replace(s)
	name, rest := "", ""
	lower := strings.ToLower(t)
	switch {
	case strings.HasPrefix(lower, "%homedrive%%homepath%"):
		name, rest = "userprofile", t[len("%homedrive%%homepath%"):]
	case strings.HasPrefix(t, "%"):
		if end := strings.IndexByte(t[1:], '%'); end > 0 {
			name, rest = strings.ToLower(t[1:end+1]), t[end+2:]
		}
	case strings.HasPrefix(lower, "${env:"):
		if end := strings.IndexByte(t, '}'); end > 0 {
			name, rest = lower[len("${env:"):end], t[end+1:]
		}
	case strings.HasPrefix(lower, "$env:"):
		end := len("$env:")
		for end < len(t) && (isNameByte(t[end]) || t[end] == '(' || t[end] == ')') {
			end++
		}
		name, rest = lower[len("$env:"):end], t[end:]
	case lower == "$home" || strings.HasPrefix(lower, "$home/") || strings.HasPrefix(lower, `$home\`):
		name, rest = "userprofile", t[len("$home"):]
	case strings.HasPrefix(lower, "${home}"):
		name, rest = "userprofile", t[len("${home}"):]
	}
	label := ""
	switch name {
	case "userprofile", "home", "homepath":
		label = paths.LabelHome
	case "systemdrive", "homedrive":
		label = paths.LabelDriveRoot
	case "systemroot", "windir", "programfiles", "programfiles(x86)", "programw6432", "programdata", "allusersprofile":
		label = paths.LabelSystem
	case "public":
		label = paths.LabelProfile
	default:
		return hit{}, false
	}
	if strings.Trim(rest, `/\*`) != "" {
		return hit{}, false
	}
	return hit{kind: hitCatastrophic, shown: t, label: label}, true
}

// criticalUnix and criticalWindows list the files whose loss or corruption
// locks everyone out or stops the machine from booting.
var (
	criticalUnix = []string{
		"/etc/passwd", "/etc/shadow", "/etc/gshadow", "/etc/group", "/etc/sudoers", "/etc/fstab",
		"/etc/master.passwd",
		"/private/etc/passwd", "/private/etc/master.passwd", "/private/etc/group", "/private/etc/sudoers",
		"/private/etc/fstab",
	}
	criticalWindows = []string{
		`Windows\System32\config\SAM`, `Windows\System32\config\SYSTEM`,
		`Windows\System32\config\SECURITY`, `Windows\System32\config\SOFTWARE`,
	}
)

// critical reports whether p is a critical system file.
func (j *judge) critical(p paths.Path) bool {
	switch p.Kind {
	case paths.Unix:
		for _, f := range criticalUnix {
			if p.Norm == f || (j.plat.OS == "darwin" || j.plat.OS == "windows") && strings.EqualFold(p.Norm, f) {
				return true
			}
		}
	case paths.Drive:
		if len(p.Norm) > 3 {
			for _, f := range criticalWindows {
				if strings.EqualFold(p.Norm[3:], f) {
					return true
				}
			}
		}
	}
	return false
}

// diskPrefixes are the /dev names of disks and partitions (Linux, BSD,
// macOS), device-mapper and loop devices included.
var diskPrefixes = []string{
	"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "loop", "mapper/",
	"nbd", "sr", "mtd", "zd", "ada", "da", "nvd", "wd", "zvol/", "bcache", "rbd", "vg",
}

// isDisk reports whether p names a disk or partition: /dev/sda1,
// /dev/disk2, /dev/mapper/x, /dev/disk/by-id/..., \\.\PhysicalDrive0,
// \\.\C: (a raw volume).
func isDisk(p paths.Path) bool {
	switch p.Kind {
	case paths.Unix:
		name, ok := strings.CutPrefix(p.Norm, "/dev/")
		if !ok {
			return false
		}
		for _, pre := range diskPrefixes {
			if strings.HasPrefix(name, pre) {
				return true
			}
		}
	case paths.UNC, paths.Drive:
		n := strings.ToLower(p.Raw)
		n = strings.ReplaceAll(n, "/", `\`)
		return strings.HasPrefix(n, `\\.\physicaldrive`) || strings.HasPrefix(n, `\\?\physicaldrive`) ||
			strings.HasPrefix(n, `\\.\harddisk`) || isRawVolume(n)
	}
	return false
}

// isRawVolume: \\.\C: (without a path after it).
func isRawVolume(n string) bool {
	rest, ok := strings.CutPrefix(n, `\\.\`)
	if !ok {
		return false
	}
	rest = strings.TrimRight(rest, `\`)
	return len(rest) == 2 && rest[1] == ':' && rest[0] >= 'a' && rest[0] <= 'z'
}

// harmlessDevices are the /dev entries writing to does no damage.
var harmlessDevices = []string{
	"null", "zero", "full", "random", "urandom", "stdout", "stderr", "stdin", "tty", "console", "ptmx",
	"fd/", "pts/", "shm/", "mqueue/", "log", "kmsg",
	// terminals and serial lines (tty1, ttyS0, ttyUSB0), sound devices,
	// bash's network redirections
	"tty*", "dsp*", "audio*", "mixer*", "snd/", "tcp/", "udp/",
}

// isDevice reports whether p is a device other than the harmless ones
// (the disks, and also memory, ports and the like).
func isDevice(p paths.Path) bool {
	if isDisk(p) {
		return true
	}
	if p.Kind != paths.Unix {
		return false
	}
	name, ok := strings.CutPrefix(p.Norm, "/dev/")
	if !ok || name == "" {
		return false
	}
	for _, h := range harmlessDevices {
		if name == h || strings.HasSuffix(h, "/") && strings.HasPrefix(name, h) ||
			strings.HasSuffix(h, "*") && strings.HasPrefix(name, h[:len(h)-1]) {
			return false
		}
	}
	return true
}
