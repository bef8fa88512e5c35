package analysis

import (
	"path"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"

	"mvdan.cc/sh/v3/syntax"
)

// Deferred and indirect execution: what a command makes run later or
// elsewhere, reported as commands of their own one level deeper with a
// Via saying how.
//
//   - Shell aliases: `alias x='rm -rf /'; x` — an unquoted command word
//     naming an alias defined earlier is replaced by its text (also the
//     next word after an alias ending in a blank), Via "alias x". zsh
//     expands aliases in scripts, bash with expand_aliases: the analysis
//     expands them always.
//   - source / . of a process substitution printing literal text, of
//     /dev/stdin (a heredoc, a here-string, literal text piped in), in
//     the same shell.
//   - A shell given a process substitution as its script (bash <(echo ...)).
//   - Programs that run commands given in their own syntax
//     (cmdfacts.Payloads: sqlite3 .shell, tmux, screen, at, make -f -, ...)
//     and git's command-valued settings, options and aliases written with
//     git config (cmdfacts.GitPayloads).
//   - Variables whose value programs run as a command (GIT_SSH_COMMAND,
//     PAGER, EDITOR ...; cmdfacts.CommandVar), wherever they are assigned.
//   - $SHELL, ${SHELL}, $BASH as a command word: a shell.

// plainLit returns the text of a word made of one unquoted literal
// without backslashes (the only form bash expands as an alias).
func plainLit(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) != 1 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || lit.Value == "" || strings.ContainsAny(lit.Value, "\\") {
		return "", false
	}
	return lit.Value, true
}

// aliasFor returns the alias text for a command word, if it names an
// alias not being expanded already.
func (a *analyzer) aliasFor(st *state, w *syntax.Word) (name, text string, ok bool) {
	if len(st.aliases) == 0 {
		return "", "", false
	}
	name, ok = plainLit(w)
	if !ok {
		return "", "", false
	}
	text, ok = st.aliases[name]
	if !ok || text == "" {
		return "", "", false
	}
	for _, n := range a.aliasing {
		if n == name {
			return "", "", false
		}
	}
	return name, text, true
}

// expandAlias analyses a simple command whose command word is an alias:
// the alias text followed by the rest of the command as written.
func (a *analyzer) expandAlias(c ctx, st *state, ce *syntax.CallExpr, redirs []*syntax.Redirect, name, text string) bool {
	src := c.src
	var sb strings.Builder
	for _, as := range ce.Assigns {
		sb.WriteString(nodeText(src, as))
		sb.WriteByte(' ')
	}
	names := []string{name}
	sb.WriteString(text)
	rest := ce.Args[1:]
	for strings.HasSuffix(text, " ") || strings.HasSuffix(text, "\t") {
		if len(rest) == 0 {
			break
		}
		n, t, ok := a.aliasFor(st, rest[0])
		if !ok {
			break
		}
		names = append(names, n)
		sb.WriteString(t)
		text = t
		rest = rest[1:]
	}
	for _, w := range rest {
		sb.WriteByte(' ')
		sb.WriteString(nodeText(src, w))
	}
	var bodies []string
	for _, r := range redirs {
		sb.WriteByte(' ')
		if r.Hdoc == nil {
			sb.WriteString(nodeText(src, r))
			continue
		}
		if r.N != nil {
			sb.WriteString(r.N.Value)
		}
		sb.WriteString(r.Op.String())
		sb.WriteString(nodeText(src, r.Word))
		delim := strings.NewReplacer(`'`, "", `"`, "", `\`, "").Replace(nodeText(src, r.Word))
		bodies = append(bodies, nodeText(src, r.Hdoc)+delim)
	}
	for _, b := range bodies {
		sb.WriteByte('\n')
		sb.WriteString(b)
	}
	if a.full() {
		return true
	}
	idx := len(a.out.Commands)
	a.out.Commands = append(a.out.Commands, ir.Command{
		Name: ir.CommandName(name), NameIfEmpty: ir.CommandName(name),
		Args:    []ir.Word{{Value: name, Raw: name, KnownPrefix: name}},
		Dialect: c.dialect, Depth: c.depth, Via: c.via, Parent: c.parent, FeedsInto: -1, Background: c.bg,
		Cd: st.cd, Origin: c.origin(),
	})
	a.last = lastRun{idx: idx}
	saved := len(a.aliasing)
	a.aliasing = append(a.aliasing, names...)
	nc := c
	nc.redirs = nil
	a.nestedText(nc, st, sb.String(), ir.Bash, "alias "+name, idx)
	a.aliasing = a.aliasing[:saved]
	return true
}

// aliasBuiltin applies alias NAME=TEXT... and unalias [-a] NAME...
func (a *analyzer) aliasBuiltin(st *state, ex exec) {
	ws := ex.words
	switch ex.name {
	case "alias":
		for _, w := range ws[1:] {
			v := w.value()
			name, text, ok := strings.Cut(v, "=")
			if !ok || name == "" || strings.HasPrefix(name, "-") {
				continue
			}
			if !w.known() {
				text = "" // an alias we cannot read: not expanded
			}
			st.setAlias(name, text)
		}
	case "unalias":
		for _, w := range ws[1:] {
			v := w.value()
			if v == "-a" {
				for n := range st.aliases {
					st.setAlias(n, "")
				}
				continue
			}
			st.setAlias(v, "")
		}
	}
}

// stdinPaths are the files through which a program reads its stdin.
func isStdinPath(v string) bool {
	switch v {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// sourceCmd: source FILE / . FILE, where FILE is /dev/stdin (a heredoc, a
// here-string, literal text piped in) or a process substitution printing
// literal text: the text runs in this shell.
func (a *analyzer) sourceCmd(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash || len(ex.words) < 2 {
		return
	}
	i := 1
	for i < len(ex.words) {
		v, ok := ex.words[i].lit()
		if !ok || v != "--" && v != "-p" {
			break
		}
		if v == "-p" {
			i++
		}
		i++
	}
	if i >= len(ex.words) {
		return
	}
	if text, via, ok := a.fileText(c, st, ex.words[i]); ok {
		a.nestedWord(c, st, text, ir.Bash, ex.name+" "+via, ex.idx)
		return
	}
	a.sourceFileCmd(c, st, ex, i)
}

// fileText returns the text a program reads from the file named by w when
// the analysis knows it: /dev/stdin and its aliases give the command's
// stdin text; a process substitution whose command prints literal text
// gives that text.
func (a *analyzer) fileText(c ctx, st *state, w xword) (xword, string, bool) {
	if v, ok := w.lit(); ok && isStdinPath(v) {
		switch {
		case c.stdin != nil:
			return *c.stdin, v, true
		case c.piped != nil:
			return c.piped.posix, v, true
		}
		return xword{}, "", false
	}
	if t, ok := a.procSubstText(st, w); ok {
		return t, "<()", true
	}
	if t, ok := writtenText(st, w); ok {
		return t, w.value(), true
	}
	return xword{}, "", false
}

// procSubstText returns what the process substitution w (<(...), as
// written) prints, when its body is one echo, printf or cat of a heredoc
// or here-string.
func (a *analyzer) procSubstText(st *state, w xword) (xword, bool) {
	raw := w.raw
	if !strings.HasPrefix(raw, "<(") || !strings.HasSuffix(raw, ")") {
		return xword{}, false
	}
	inner := raw[2 : len(raw)-1]
	a.nestedBytes += len(inner)
	if a.nestedBytes > a.maxNested {
		a.out.Truncated = true
		return xword{}, false
	}
	f, err := a.parse(inner)
	if err != nil || len(f.Stmts) != 1 {
		return xword{}, false
	}
	s := f.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || s.Background || s.Negated {
		return xword{}, false
	}
	scratch := st.clone()
	var words []xword
	for _, arg := range ce.Args {
		words = a.appendFields(words, scratch, inner, arg)
		if len(words) > maxBraceFields {
			return xword{}, false
		}
	}
	_, stdin, _ := a.redirects(scratch, inner, s.Redirs)
	name := nameOf(words[0])
	if t, ok := catWritten(st, name, words); ok {
		return t, true
	}
	return literalOutput(name, words, stdin, a.maxNested-a.nestedBytes, ir.Bash)
}

// payloads analyses the commands ex makes other programs run
// (cmdfacts.Payloads, the Lisp evaluators' oneliner.LispPayloads,
// cmdfacts.GitPayloads), each in a child shell one
// level deeper, and git aliases written earlier in the script.
func (a *analyzer) payloads(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash {
		return
	}
	// Read in place: Commands grows only once the payloads are run (and
	// in gitAliases after it has read the command), and what is read here
	// (name, words, assignments) lives outside the Commands array. A copy
	// cost an allocation per command.
	cmd := &a.out.Commands[ex.idx]
	var stdin *ir.Word
	switch {
	case c.stdin != nil:
		w := c.stdin.word()
		stdin = &w
	case c.piped != nil:
		w := c.piped.posix.word()
		stdin = &w
	}
	ps := cmdfacts.Payloads(cmd, stdin)
	for _, code := range cmdfacts.LispCodes(cmd) {
		ps = append(ps, oneliner.LispPayloads(code)...)
	}
	if g, ok := cmdfacts.GitCommand(cmd); ok {
		if env := a.gitEnviron(st, ex, g); len(env) > 0 {
			// exported earlier: git sees them too (prefix assignments win)
			g = cmdfacts.ParseGit(cmd.Args[1:], append(env, cmd.Assigns...))
		}
		ps = append(ps, cmdfacts.GitPayloads(g)...)
		a.gitAliases(c, st, ex, cmd, g)
	}
	for _, p := range ps {
		a.runPayload(c, st, ex, p)
	}
}

// runPayload analyses one payload.
func (a *analyzer) runPayload(c ctx, st *state, ex exec, p cmdfacts.Payload) {
	switch {
	case p.Line != nil:
		a.nestedWord(c, st.child(a, ex.env), wordToX(*p.Line), ir.Bash, p.Via, ex.idx)
	case len(p.Argv) > 0:
		ws := make([]xword, len(p.Argv))
		for i, w := range p.Argv {
			ws[i] = wordToX(w)
		}
		a.nestedArgv(c, st.child(a, ex.env), ws, p.Via, ex.idx)
	case p.Stdin || p.File != nil:
		var text xword
		switch {
		case p.File != nil:
			t, _, ok := a.fileText(c, st, wordToXRaw(*p.File))
			if !ok {
				return
			}
			text = t
		case c.stdin != nil:
			text = *c.stdin
		case c.piped != nil:
			text = c.piped.posix
		default:
			return
		}
		if p.Lang != "make" {
			a.nestedWord(c, st.child(a, ex.env), text, ir.Bash, p.Via, ex.idx)
			return
		}
		a.makeText(c, st, ex, text, p.Via)
	}
}

// makeText analyses the recipes of a makefile's text, each as a command
// line run by a child shell.
func (a *analyzer) makeText(c ctx, st *state, ex exec, text xword, via string) {
	w := text.word()
	for _, l := range cmdfacts.MakeCommands(w.Value) {
		lw := cmdfacts.Piece(w, 0, len(w.Value), l)
		a.nestedWord(c, st.child(a, ex.env), wordToX(lw), ir.Bash, via, ex.idx)
	}
}

// wordToXRaw is wordToX keeping the raw text (a process substitution is
// recognised by it).
func wordToXRaw(w ir.Word) xword {
	x := wordToX(w)
	x.raw = w.Raw
	return x
}

// gitEnviron returns, as assignments, the variables of git's environment
// that carry settings for one invocation (cmdfacts.GitConfigVar, and
// those g's --config-env options read) exported earlier in the script
// and not assigned by the command itself (export X=...; git
// --config-env=core.pager=X log). A variable whose value is not known
// is an unknown word.
func (a *analyzer) gitEnviron(st *state, ex exec, g cmdfacts.Git) []ir.Assign {
	names := g.ConfigEnv
	for name := range st.vars {
		if cmdfacts.GitConfigVar(name) {
			names = append(names[:len(names):len(names)], name)
		}
	}
	var out []ir.Assign
	for _, name := range names {
		v, ok := st.vars[name]
		if !ok || !v.exported {
			continue
		}
		if _, own := ex.env[name]; own {
			continue
		}
		val := ir.Word{Value: name, Raw: "$" + name, Unknown: true}
		if !v.opaque && !v.isArr {
			val = xword{parts: v.val}.word()
		}
		out = append(out, ir.Assign{Name: name, Value: val})
	}
	return out
}

// gitAliases records the aliases a `git config alias.NAME VALUE` writes
// and expands one written earlier when ex uses it: `git NAME ...` runs
// `git VALUE ...` (or the shell command of a "!" alias), Via "git alias
// NAME". Aliases given on the command line (-c, GIT_CONFIG_*) are read by
// cmdfacts.ParseGit wherever git is judged. cmd may point into Commands:
// it is read before anything is analysed.
func (a *analyzer) gitAliases(c ctx, st *state, ex exec, cmd *ir.Command, g cmdfacts.Git) {
	if g.Sub == "config" {
		if w, ok := cmdfacts.ParseGitConfigWrite(g.Args); ok {
			if name, isAlias := strings.CutPrefix(w.Name, "alias."); isAlias && name != "" {
				val := w.Value.Value
				if w.Unset || w.Value.Unknown {
					val = ""
				}
				st.setGitAlias(strings.ToLower(name), val)
			}
		}
		return
	}
	if g.Alias != "" || len(st.gitAliases) == 0 || cmd.Name != "git" {
		return
	}
	var files []cmdfacts.GitConfig
	for name, v := range st.gitAliases {
		if v != "" {
			files = append(files, cmdfacts.GitConfig{Name: "alias." + name, Value: v})
		}
	}
	g2 := cmdfacts.ParseGitWith(cmd.Args[1:], cmd.Assigns, files)
	if g2.Alias == "" {
		return
	}
	via := "git alias " + g2.Alias
	if sh := g2.ShellCommand(); sh != "" {
		a.nestedText(c, st.child(a, ex.env), sh, ir.Bash, via, ex.idx)
		return
	}
	if g2.Sub == "" {
		return
	}
	words := []xword{knownWord("git", "git"), knownWord(g2.Sub, g2.Sub)}
	for _, w := range g2.Args {
		words = append(words, wordToX(w))
	}
	a.nestedArgv(c, st.child(a, ex.env), words, via, ex.idx)
}

// commandVarPayloads analyses the values assigned to variables that
// programs run as commands (GIT_SSH_COMMAND='...' git fetch, export
// PAGER=...), one level under the command that assigns them.
func (a *analyzer) commandVarPayloads(c ctx, st *state, idx int, assigns []ir.Assign) {
	if c.dialect != ir.Bash {
		return
	}
	for _, as := range assigns {
		if cmdfacts.CommandVar(as.Name) {
			a.nestedWord(c, st.child(a, nil), wordToX(as.Value), ir.Bash, as.Name, idx)
		}
	}
}

// shellVarWord reports a command word that is a reference to a variable
// holding a shell ($SHELL, "${SHELL}", ${SHELL:-/bin/sh}, $BASH) whose
// value the analysis does not know.
func shellVarWord(w xword) bool {
	if w.known() {
		return false
	}
	r := strings.Trim(w.raw, `"`)
	if !strings.HasPrefix(r, "$") {
		return false
	}
	r = r[1:]
	if strings.HasPrefix(r, "{") {
		end := strings.IndexAny(r, "}:-=")
		if end < 0 {
			return false
		}
		r = r[1:end]
	}
	return cmdfacts.ShellVar(r)
}

// containerFS maps the paths a container's command names to the host: a
// bind-mounted directory to its host directory; any other absolute path
// to a harmless relative name (the container's own file system), except
// /dev when the container has the host's devices.
type containerFS struct {
	mounts  []cmdfacts.ContainerMount // read-write bind mounts, targets cleaned
	devices bool
}

// containerRoot stands for the container's own file system in a mapped
// path: a relative name, judged harmless where the command runs.
const containerRoot = ".container-fs"

// mapWord maps one word the container's command sees.
func (fs *containerFS) mapWord(w xword) xword {
	v, ok := w.lit()
	if !ok || !strings.HasPrefix(v, "/") {
		return w
	}
	clean := path.Clean(v)
	best := -1
	for i, m := range fs.mounts {
		t := m.Target.Value
		if clean == t || t == "/" || strings.HasPrefix(clean, t+"/") {
			if best < 0 || len(t) > len(fs.mounts[best].Target.Value) {
				best = i
			}
		}
	}
	if best >= 0 {
		m := fs.mounts[best]
		rest := strings.TrimPrefix(clean, m.Target.Value)
		host := wordToX(m.Host)
		if rest = strings.TrimPrefix(rest, "/"); rest != "" {
			if !strings.HasSuffix(m.Host.Value, "/") {
				rest = "/" + rest
			}
			host.parts = appendPart(slices.Clone(host.parts), part{text: rest})
		}
		host.raw, host.glob = w.raw, w.glob
		return host
	}
	if fs.devices && strings.HasPrefix(clean, "/dev/") {
		return w
	}
	out := knownWord(containerRoot+clean, w.raw)
	out.glob = w.glob
	return out
}

// containerCmd: docker / podman / nerdctl run (or container run) with a
// command: the command is analysed one level deeper as the container
// runs it, its paths mapped to the host (containerFS): only what a
// read-write bind mount exposes (and, with --privileged or --device, the
// host's /dev) reaches the host.
func (a *analyzer) containerCmd(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash {
		return
	}
	ws := shellWords(ex.words[1:])
	k := cmdfacts.ContainerSub(ws)
	if k < 0 {
		return
	}
	r, ok := cmdfacts.ParseContainerRun(ws[k:])
	if !ok || len(r.Cmd) == 0 {
		return
	}
	fs := &containerFS{devices: r.HostDevices}
	for _, m := range r.Mounts {
		if m.ReadOnly || m.Target.Unknown || !strings.HasPrefix(m.Target.Value, "/") {
			continue
		}
		m.Target = cmdfacts.Literal(path.Clean(m.Target.Value))
		fs.mounts = append(fs.mounts, m)
	}
	wd := knownWord("/", "")
	if r.Workdir != nil {
		wd = wordToX(*r.Workdir)
	}
	child := newState()
	child.chdir(fs.mapWord(wd).word(), ir.Bash)
	nc := c
	nc.container = fs
	words := make([]xword, len(r.Cmd))
	for i, w := range r.Cmd {
		words[i] = wordToX(w)
	}
	a.containers++
	a.nestedArgv(nc, child, words, ex.name+" run", ex.idx)
	a.containers--
}
