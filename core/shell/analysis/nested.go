package analysis

import (
	"reflect"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// Nested handlers analyse what a command runs in turn: the script of
// bash -c, eval, trap, watch, su -c, powershell -Command, cmd /c; the
// command line of xargs, parallel, find -exec and fd -x. Each result sits
// one level deeper, with the handling command as its Parent.

type nestedHandler func(a *analyzer, c ctx, st *state, ex exec)

var nestedHandlers map[string]nestedHandler

func init() {
	nestedHandlers = map[string]nestedHandler{
		"eval":       (*analyzer).evalCmd,
		"source":     (*analyzer).sourceCmd,
		".":          (*analyzer).sourceCmd,
		"trap":       (*analyzer).trapCmd,
		"xargs":      (*analyzer).xargsCmd,
		"parallel":   (*analyzer).parallelCmd,
		"sem":        (*analyzer).parallelCmd,
		"docker":     (*analyzer).containerCmd,
		"podman":     (*analyzer).containerCmd,
		"nerdctl":    (*analyzer).containerCmd,
		"find":       (*analyzer).findCmd,
		"fd":         (*analyzer).fdCmd,
		"fdfind":     (*analyzer).fdCmd,
		"watch":      (*analyzer).watchCmd,
		"su":         (*analyzer).suCmd,
		"runuser":    (*analyzer).suCmd,
		"sg":         (*analyzer).sgCmd,
		"forfiles":   (*analyzer).forfilesCmd,
		"flock":      (*analyzer).flockCmd,
		"script":     (*analyzer).scriptCmd,
		"nix-shell":  (*analyzer).nixShellCmd,
		"wsl":        (*analyzer).wslCmd,
		"powershell": (*analyzer).powershellCmd,
		"[system.management.automation.scriptblock]::create": (*analyzer).scriptBlockCreate,
		"pwsh":          (*analyzer).powershellCmd,
		"cmd":           (*analyzer).cmdCmd,
		"start":         (*analyzer).startProcessCmd,
		"start-process": (*analyzer).startProcessCmd,
		"saps":          (*analyzer).startProcessCmd,
	}
	for _, sh := range cmdfacts.Shells() {
		nestedHandlers[sh] = (*analyzer).shellCmd
	}
}

// shellCmd handles bash/sh/zsh/... : -c SCRIPT (also inside -lc, -ec,
// -euxo pipefail -c ...), and a shell reading its program from stdin (no
// operand, or -s) fed by a heredoc or here-string.
func (a *analyzer) shellCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	cmdMode, stdinMode := false, false
	var scripts []xword // fish --init-command, -C
	var payload *xword
	i := 1
loop:
	for i < len(ws) {
		v, ok := ws[i].lit()
		if !ok {
			break
		}
		switch {
		case v == "-" || v == "--":
			i++
			break loop
		case strings.HasPrefix(v, "--"):
			name, val, eq := strings.Cut(v[2:], "=")
			switch name {
			case "rcfile", "init-file":
				if !eq {
					i++
				}
			case "command", "init-command":
				var w *xword
				if eq {
					k := knownWord(val, val)
					w = &k
				} else if i+1 < len(ws) {
					i++
					w = &ws[i]
				}
				if w != nil && name == "command" {
					cmdMode, payload = true, w
				} else if w != nil {
					scripts = append(scripts, *w)
				}
			}
			i++
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'c':
					cmdMode = cmdMode || v[0] == '-'
				case 's':
					stdinMode = stdinMode || v[0] == '-'
				case 'o', 'O':
					i++
				case 'C':
					if ex.name == "fish" && i+1 < len(ws) {
						i++
						scripts = append(scripts, ws[i])
					}
				}
			}
			i++
		default:
			break loop
		}
	}
	child := st.child(a, ex.env)
	var via string
	switch {
	case cmdMode:
		if payload == nil {
			if i >= len(ws) {
				return
			}
			payload = &ws[i]
			i++
		}
		if i < len(ws) {
			arg0 := ws[i]
			child.arg0 = &arg0
			i++
		}
		child.pos, child.posKnown = slices.Clone(ws[min(i, len(ws)):]), true
		via = ex.name + " -c"
	case stdinMode || i >= len(ws):
		switch {
		case c.stdin != nil:
			payload = c.stdin
			via = ex.name + " " + c.stdinOp
		case c.piped != nil:
			p := c.piped.text(ir.Bash)
			payload = &p
			via = c.piped.from + " | " + ex.name
		default:
			return
		}
		child.pos, child.posKnown = slices.Clone(ws[min(i, len(ws)):]), true
	default:
		// A script file: analysed only when it is a process substitution
		// printing literal text (bash <(echo ...)).
		t, ok := a.procSubstText(st, ws[i])
		via = ex.name + " <()"
		if !ok {
			if t, ok = writtenText(st, ws[i]); !ok {
				a.shellFileCmd(c, child, ex, i)
				return
			}
			via = ex.name + " " + ws[i].value()
		}
		payload = &t
		child.pos, child.posKnown = slices.Clone(ws[min(i+1, len(ws)):]), true
	}
	for _, s := range scripts {
		a.nestedWord(c, child.clone(), s, ir.Bash, ex.name+" -C", ex.idx)
	}
	a.nestedWord(c, child, *payload, ir.Bash, via, ex.idx)
}

// nestedWord analyses the value of one word as a nested script.
func (a *analyzer) nestedWord(c ctx, st *state, w xword, d ir.Dialect, via string, parent int) {
	text, known := a.joinText([]xword{w}, d != ir.Bash)
	if known {
		a.nestedText(c, st, text, d, via, parent)
	}
}

// nestedWords joins words with spaces and analyses them as a nested script.
func (a *analyzer) nestedWords(c ctx, st *state, ws []xword, d ir.Dialect, via string, parent int) {
	text, known := a.joinText(ws, d != ir.Bash)
	if known {
		a.nestedText(c, st, text, d, via, parent)
	}
}

// evalCmd: eval joins its arguments and runs them in the same shell, so cd
// and assignments inside carry on.
func (a *analyzer) evalCmd(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash {
		return
	}
	ws := ex.words[1:]
	if len(ws) > 0 {
		if v, ok := ws[0].lit(); ok && v == "--" {
			ws = ws[1:]
		}
	}
	a.nestedWords(c, st, ws, ir.Bash, "eval", ex.idx)
}

// trapCmd: trap ACTION SIGNAL... runs ACTION later, in this shell. The
// ACTION text is fixed now (a double-quoted $x expands here); the
// variables it reads are those of when it runs. For EXIT and signals the
// action is judged when the text that set it ends (see flushTraps): with
// the variables of that moment, and with those of now completed by the
// ones assigned later, so trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d)
// reads the temp dir, and x=/tmp/a; trap 'rm -rf "$x"' EXIT; x=/ reads /
// too. DEBUG, ERR and RETURN actions, which run between any two commands,
// and signals not known are judged here, with the variables of now.
func (a *analyzer) trapCmd(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash {
		return
	}
	t := cmdfacts.ShellOptions("trap")
	i, o := readOpts(ex.words, 1, t.Spec)
	if o.has(t.NoRun...) || i+1 >= len(ex.words) {
		return
	}
	if v, ok := ex.words[i].lit(); ok && (v == "-" || v == "") {
		return
	}
	later := true
	for _, w := range ex.words[i+1:] {
		sig, ok := w.lit()
		sig = strings.TrimPrefix(strings.ToUpper(sig), "SIG")
		if !ok || sig == "DEBUG" || sig == "ERR" || sig == "RETURN" || sig == "" {
			later = false
		}
	}
	if !later {
		a.nestedWord(c, st.clone(), ex.words[i], ir.Bash, "trap", ex.idx)
		return
	}
	a.traps = append(a.traps, pendingTrap{c: c, st: st.clone(), action: ex.words[i], parent: ex.idx})
}

// pendingTrap is a trap action judged when its text ends (flushTraps).
type pendingTrap struct {
	c      ctx
	st     *state // the state when the trap was set
	action xword
	parent int
}

// flushTraps judges the trap actions set since start, now that the text
// that set them ends in state end: once with the variables of when the
// trap was set, completed by the variables first assigned and the
// functions first defined afterwards (a signal can come any time after),
// and once more with end's variables when one
// the action could read changed in between (what EXIT reads). Cost: one
// or two nested analyses per trap, O(variables) to compare.
func (a *analyzer) flushTraps(start int, end *state) {
	for i := start; i < len(a.traps) && !a.full(); i++ {
		t := a.traps[i]
		then := t.st.clone()
		changed := false
		for name, v := range end.vars {
			old, set := then.vars[name]
			switch {
			case !set && !then.varsFull:
				then.setVar(name, v)
			case set && !reflect.DeepEqual(old, v):
				changed = true
			}
		}
		for name, def := range end.funcs {
			if _, ok := then.funcs[name]; !ok {
				then.setFunc(name, def) // trap cleanup EXIT; cleanup() { ... }
			}
		}
		a.nestedWord(t.c, then, t.action, ir.Bash, "trap", t.parent)
		if changed && !a.full() {
			a.nestedWord(t.c, end.clone(), t.action, ir.Bash, "trap", t.parent)
		}
	}
	a.traps = a.traps[:start]
}

// watchCmd: watch runs its arguments through sh -c (watch -x is a wrapper).
func (a *analyzer) watchCmd(c ctx, st *state, ex exec) {
	i, _ := readOpts(ex.words, 1, wrapperOf("watch").Spec)
	a.nestedWords(c, st.child(a, ex.env), ex.words[i:], ir.Bash, "watch", ex.idx)
}

// suCmd: su [opts] [-] [USER] -c COMMAND (also runuser without -u).
func (a *analyzer) suCmd(c ctx, st *state, ex exec) {
	su := cmdfacts.ShellOptions("su")
	var cmds []*xword
	for i := 1; i < len(ex.words); {
		j, o := readOpts(ex.words, i, su.Spec)
		if o.has(su.Exec...) {
			return // runuser -u: a wrapper
		}
		o.each(su.Script, func(w *xword) { cmds = append(cmds, w) })
		i = j + 1 // skip "-" or the user name
	}
	for _, w := range cmds {
		a.nestedWord(c, st.child(a, nil), *w, ir.Bash, ex.name+" -c", ex.idx)
	}
}

// flockCmd: flock [opts] FILE -c COMMAND.
func (a *analyzer) flockCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	f := wrapperOf("flock")
	i, o := readOpts(ws, 1, f.Spec)
	w := o.val(f.Script...)
	if w == nil && i+f.Operands < len(ws) {
		_, after := readOpts(ws, i+f.Operands, f.Spec) // flock FILE -c COMMAND
		w = after.val(f.Script...)
	}
	if w != nil {
		a.nestedWord(c, st.child(a, ex.env), *w, ir.Bash, "flock -c", ex.idx)
	}
}

// scriptCmd: script [opts] -c COMMAND [file].
func (a *analyzer) scriptCmd(c ctx, st *state, ex exec) {
	sc := cmdfacts.ShellOptions("script")
	_, o := readOpts(ex.words, 1, sc.Spec)
	if w := o.val(sc.Script...); w != nil {
		a.nestedWord(c, st.child(a, ex.env), *w, ir.Bash, "script -c", ex.idx)
	}
}

// nixShellCmd: nix-shell [opts] --run|--command SCRIPT runs SCRIPT with
// bash inside the shell's environment. Its options are cmdfacts'
// (ShellOptions("nix-shell")), read in GNU order: they may follow the
// packages and paths.
func (a *analyzer) nixShellCmd(c ctx, st *state, ex exec) {
	ns := cmdfacts.ShellOptions("nix-shell")
	o := parseOpts(ex.words, 1, len(ex.words), ns.Spec)
	for _, op := range o.args.Opts {
		if op.Val != nil && slices.Contains(ns.Script, op.Name) {
			a.nestedWord(c, st.child(a, ex.env), *o.word(op), ir.Bash, "nix-shell --"+op.Name, ex.idx)
		}
	}
}

// wslCmd: wsl [opts] [--] COMMAND LINE runs the line in the default Linux
// shell. Its options are cmdfacts' (WrapperOf("wsl"), read without
// regard to case); with an Exec option it is a wrapper (stripWslExec),
// with a NoRun one (--install, --list, ...) it runs no command line.
func (a *analyzer) wslCmd(c ctx, st *state, ex exec) {
	w := wrapperOf("wsl")
	i, o := readOpts(foldOptions(w, ex.words), 1, w.Spec)
	if o.has(w.Exec...) || o.has(w.NoRun...) || i >= len(ex.words) {
		return
	}
	a.nestedWords(c, newState(), ex.words[i:], ir.Bash, "wsl", ex.idx)
}

// powershellCmd: powershell/pwsh -Command TEXT..., -EncodedCommand BASE64,
// -Command - (stdin), or an implicit command after the switches; the
// command line is read by winshell.PowerShellPayload.
func (a *analyzer) powershellCmd(c ctx, st *state, ex exec) {
	h, ok := winshell.PowerShellPayload(a.hostArgs(ex.words[1:]))
	if !ok {
		return
	}
	via := strings.Replace(h.Via, "powershell", ex.name, 1)
	switch {
	case h.Stdin && c.stdin != nil:
		a.nestedWord(c, st.process(), *c.stdin, ir.PowerShell, via+" -", ex.idx)
	case h.Stdin && c.piped != nil:
		a.nestedWord(c, st.process(), c.piped.text(ir.PowerShell), ir.PowerShell, c.piped.from+" | "+via+" -", ex.idx)
	case h.Code != "" && a.hasKnownText(h.Code):
		a.nestedText(c, st.process(), h.Code, ir.PowerShell, via, ex.idx)
	}
}

// scriptBlockCreate: [scriptblock]::Create('TEXT') makes TEXT a block
// that is then run (& $sb, .Invoke(), Invoke-Command): TEXT is analysed
// as PowerShell in this session.
func (a *analyzer) scriptBlockCreate(c ctx, st *state, ex exec) {
	if c.dialect != ir.PowerShell || len(ex.words) < 2 || !a.hasKnownText(ex.words[1].value()) {
		return
	}
	a.nestedWord(c, st.process(), ex.words[1], ir.PowerShell, "[scriptblock]::Create", ex.idx)
}

// cmdCmd: cmd [/s] [/q] ... /c|/k TEXT: the rest is cmd.exe text (read by
// winshell.CmdPayload).
// Without /c, /k or /r cmd reads its commands from stdin (a heredoc, a
// here-string or piped literal text).
func (a *analyzer) cmdCmd(c ctx, st *state, ex exec) {
	args := a.hostArgs(ex.words[1:])
	h, ok := winshell.CmdPayload(args)
	if !ok {
		if !allSwitches(args) {
			return
		}
		switch {
		case c.stdin != nil:
			a.nestedWord(c, st.process(), *c.stdin, ir.Cmd, "cmd "+c.stdinOp, ex.idx)
		case c.piped != nil:
			a.nestedWord(c, st.process(), c.piped.text(ir.Cmd), ir.Cmd, c.piped.from+" | cmd", ex.idx)
		}
		return
	}
	if !a.hasKnownText(h.Code) {
		return
	}
	a.nestedText(c, st.process(), h.Code, ir.Cmd, h.Via, ex.idx)
}

// allSwitches reports whether every argument is a /switch (/q, /d, /v:on).
func allSwitches(args []string) bool {
	for _, s := range args {
		if !strings.HasPrefix(s, "/") {
			return false
		}
	}
	return true
}

// hostArgs turns words into the argument strings a Windows program
// receives, unknown parts as holes, backslashes lost to POSIX quoting kept.
func (a *analyzer) hostArgs(ws []xword) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i], _ = a.joinText([]xword{w}, true)
	}
	return out
}

// hasKnownText reports whether text has something but blanks outside holes.
func (a *analyzer) hasKnownText(text string) bool {
	for _, p := range a.splitHoles(text) {
		if !p.unknown && strings.TrimSpace(p.text) != "" {
			return true
		}
	}
	return false
}

// maxInputItems bounds how many known input items (from a heredoc, a
// here-string, literal text piped in, an argument file or a ::: list)
// become words or separate runs.
const maxInputItems = 16

// xargsCmd: xargs [opts] [COMMAND [ARGS]] runs COMMAND (default echo) with
// the items read from its input (cmdfacts.ParseXargs): an Unknown
// InputPlaceholder word, or the items themselves when a heredoc, a
// here-string, literal text piped in, or an -a file that is a process
// substitution of literal text gives them. -I/-i replace a string in
// every word, once per item; BSD -J puts the items in place of one word.
func (a *analyzer) xargsCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	x := cmdfacts.ParseXargs(shellWords(ws[1:]))
	if x.NoRun {
		return
	}
	inner := slices.Clone(ws[1+x.Cmd:])
	if len(inner) == 0 {
		inner = []xword{knownWord("echo", "")}
	}
	var text *xword
	if x.ArgFile != nil {
		if t, _, ok := a.fileText(c, st, wordToXRaw(*x.ArgFile)); ok {
			text = &t
		}
	} else {
		text = stdinText(c)
	}
	delim := ""
	if x.Delim != nil && !x.Delim.Unknown && x.Delim.Value != "" {
		delim = decodeANSIC(x.Delim.Value)
	}
	items := inputItems(text, x.Null, delim, x.Lines, text != c.stdin)
	if x.Insert != "" && x.Replace == "" {
		for k, w := range inner {
			if v, ok := w.lit(); ok && v == x.Insert {
				fill := items
				if fill == nil {
					fill = []xword{inputWord()}
				}
				inner = append(append(slices.Clip(inner[:k]), fill...), inner[k+1:]...)
				a.runWithItems(c, st, ex.idx, inner, []xword{}, "", false, "xargs")
				return
			}
		}
	}
	a.runWithItems(c, st, ex.idx, inner, items, x.Replace, x.Replace != "", "xargs")
}

// shellWords converts working words to public ones.
func shellWords(ws []xword) []ir.Word {
	out := make([]ir.Word, len(ws))
	for i, w := range ws {
		out[i] = w.word()
	}
	return out
}

// stdinText is the text a command reads on stdin when the analysis knows
// it: its heredoc or here-string, or literal text piped in.
func stdinText(c ctx) *xword {
	switch {
	case c.stdin != nil:
		return c.stdin
	case c.piped != nil:
		p := c.piped.posix
		return &p
	}
	return nil
}

// inputItems splits known input text into xargs items
// (cmdfacts.XargsItems); nil means "unknown input". Items another command
// printed (fed) have the Raw InputPlaceholder; those of the command's own
// heredoc or here-string are written as they are.
func inputItems(text *xword, nul bool, delim string, lines, fed bool) []xword {
	if text == nil || !text.known() {
		return nil
	}
	items := cmdfacts.XargsItems(text.value(), nul, delim, lines)
	if len(items) == 0 || len(items) > maxInputItems {
		return nil
	}
	out := make([]xword, 0, len(items))
	for _, it := range items {
		raw := it
		if fed {
			raw = InputPlaceholder
		}
		out = append(out, knownWord(it, raw))
	}
	return out
}

func inputWord() xword { return unknownWord(InputPlaceholder, InputPlaceholder) }

// runWithItems runs an xargs-style inner command: with a replace string,
// once per item (or once with the string marked unknown); else once with
// the items (or the input placeholder) appended; items empty but not nil:
// once as it is.
func (a *analyzer) runWithItems(c ctx, st *state, idx int, inner, items []xword, replace string, hasReplace bool, via string) {
	child := st.child(a, nil)
	first := -1
	record := func(k int) {
		if first < 0 && k >= 0 {
			first = k
		}
	}
	switch {
	case hasReplace && replace != "" && len(items) > 0:
		for _, it := range items {
			record(a.nestedArgv(c, child.clone(), replaceIn(inner, replace, []xword{it}), via, idx))
		}
	case hasReplace && replace != "":
		record(a.nestedArgv(c, child, replaceIn(inner, replace, nil), via, idx))
	case items != nil:
		record(a.nestedArgv(c, child, append(inner, items...), via, idx))
	default:
		record(a.nestedArgv(c, child, append(inner, inputWord()), via, idx))
	}
	if first >= 0 {
		if a.argsInner == nil {
			a.argsInner = make(map[int]int)
		}
		a.argsInner[idx] = first
	}
}

// replaceIn replaces every occurrence of token inside the words by the
// values (one word per value for a whole-word match), or by an unknown
// part when values is nil. Raw keeps the token as written.
func replaceIn(ws []xword, token string, values []xword) []xword {
	out := make([]xword, 0, len(ws))
	for _, w := range ws {
		v, ok := w.lit()
		if !ok || !strings.Contains(v, token) {
			out = append(out, w)
			continue
		}
		if v == token && len(values) > 0 {
			for _, val := range values {
				r := val
				if r.raw != InputPlaceholder { // an item fed by another command stays marked
					r.raw = w.raw
				}
				out = append(out, r)
			}
			continue
		}
		var nw xword
		nw.raw, nw.glob = w.raw, w.glob
		pieces := strings.Split(v, token)
		for k, p := range pieces {
			if p != "" {
				nw.parts = appendPart(nw.parts, part{text: p})
			}
			if k == len(pieces)-1 {
				break
			}
			if len(values) == 0 {
				nw.parts = appendPart(nw.parts, part{text: token, unknown: true})
			} else {
				for _, vp := range values[0].parts {
					nw.parts = appendPart(nw.parts, vp)
				}
			}
		}
		out = append(out, nw)
	}
	return out
}

func appendPart(ps []part, p part) []part {
	if n := len(ps); n > 0 && ps[n-1].unknown == p.unknown {
		ps[n-1].text += p.text
		return ps
	}
	return append(ps, p)
}

// parallelCmd: GNU parallel [opts] [COMMAND] [::: ITEMS... | :::: FILES...]
// and sem (cmdfacts.ParseParallel): the command line, with the
// replacement strings filled per job (cmdfacts.ParallelCommand), is run
// by a shell; with no command the items (or stdin lines) are the command
// lines. Items come from ::: lists, files (-a, ::::) that are process
// substitutions of literal text, or stdin (a heredoc, a here-string,
// literal text piped in); unknown items are holes. Without -q the words
// are joined as shell text, as parallel does; the quoted reading (what
// the writer meant) is analysed too when it differs.
func (a *analyzer) parallelCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	p := cmdfacts.ParseParallel(shellWords(ws[1:]), ex.name == "sem")
	if p.DryRun || p.NoRun {
		return
	}
	inner := ws[1+p.CmdFrom : 1+p.CmdTo]
	delim := ""
	if p.Delim != nil && !p.Delim.Unknown && p.Delim.Value != "" {
		delim = decodeANSIC(p.Delim.Value)
	}
	var lists [][]xword // nil entry: an unknown source
	for _, src := range p.Sources {
		if src.File == nil {
			list := make([]xword, 0, len(src.Words))
			for _, w := range src.Words {
				list = append(list, wordToX(w))
			}
			lists = append(lists, list)
			continue
		}
		var items []xword
		if t, _, ok := a.fileText(c, st, wordToXRaw(*src.File)); ok {
			items = inputItems(&t, p.Null, delim, true, true)
		}
		lists = append(lists, items)
	}
	if len(p.Sources) == 0 && !p.Pipe && !p.Semaphore {
		lists = append(lists, inputItems(stdinText(c), p.Null, delim, true, true))
	}
	jobs := parallelJobs(lists)
	child := st.child(a, ex.env)
	start := len(a.out.Commands)
	run := func(text string) {
		a.nestedText(c, child.clone(), text, ir.Bash, ex.name, ex.idx)
	}
	itemText := func(job []xword) []string {
		out := make([]string, len(job))
		for k, it := range job {
			if it.known() {
				out[k] = it.value()
			} else {
				out[k] = a.newHole(it.raw)
			}
		}
		return out
	}
	quote := func(s string) string {
		if strings.HasPrefix(s, "${"+holePrefix) {
			return s
		}
		return shellQuote(s)
	}
	if len(inner) == 0 {
		for _, job := range jobs {
			if t := strings.Join(itemText(job), " "); a.hasKnownText(t) {
				run(t)
			}
		}
	} else {
		var templates []string
		if !p.Quote {
			if t, known := a.joinText(inner, false); known {
				templates = append(templates, t)
			}
		}
		if q, known := a.quotedText(inner); known && (len(templates) == 0 || templates[0] != q) {
			templates = append(templates, q)
		}
		for _, t := range templates {
			if p.Pipe || p.Semaphore {
				run(t)
				continue
			}
			for _, job := range jobs {
				run(cmdfacts.ParallelCommand(t, p.Replace, itemText(job), quote))
			}
		}
	}
	if len(a.out.Commands) > start {
		if a.argsInner == nil {
			a.argsInner = make(map[int]int)
		}
		a.argsInner[ex.idx] = start
	}
}

// parallelJobs combines the input sources as parallel does (every
// combination, first source slowest), at most maxInputItems jobs; an
// unknown source, or too many jobs, gives one job of placeholders.
func parallelJobs(lists [][]xword) [][]xword {
	jobs := [][]xword{{}}
	for _, l := range lists {
		if len(l) == 0 || len(jobs)*len(l) > maxInputItems {
			return [][]xword{placeholders(len(lists))}
		}
		var next [][]xword
		for _, j := range jobs {
			for _, it := range l {
				next = append(next, append(slices.Clip(j), it))
			}
		}
		jobs = next
	}
	return jobs
}

func placeholders(n int) []xword {
	out := make([]xword, max(n, 1))
	for i := range out {
		out[i] = inputWord()
	}
	return out
}

// quotedText joins words into shell text, each known argument quoted so
// that it stays one word (the command word is taken as it is); unknown
// parts become holes.
func (a *analyzer) quotedText(ws []xword) (string, bool) {
	var sb strings.Builder
	known := false
	for i, w := range ws {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if v, ok := w.lit(); ok {
			if i > 0 && (strings.ContainsAny(v, " \t\n;&|<>()$`'\"\\*?[#~") || v == "") {
				v = shellQuote(v)
			}
			sb.WriteString(v)
			known = known || strings.TrimSpace(v) != ""
			continue
		}
		t, k := a.joinText([]xword{w}, false)
		sb.WriteString(t)
		known = known || k
	}
	return sb.String(), known
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]{}~#!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// findCmd: find [-H -L -P -D x -Olevel] PATH... EXPR, where every -exec,
// -execdir, -ok, -okdir COMMAND ... ; (or {} +) runs COMMAND with {}
// standing for the files found: their start paths (Raw keeps "{}").
func (a *analyzer) findCmd(c ctx, st *state, ex exec) {
	ws := ex.words[1:]
	lit := func(i int) (string, bool) { return ws[i].lit() }
	from, to := cmdfacts.FindStart(len(ws), lit)
	roots := ws[from:to:to]
	if from == to {
		roots = []xword{knownWord(".", "")}
	}
	for i := to; i < len(ws); {
		v, ok := ws[i].lit()
		i++
		if !ok || !cmdfacts.IsFindExec(v) {
			continue
		}
		end := cmdfacts.FindExecEnd(len(ws), i, lit)
		inner := slices.Clone(ws[i:end])
		i = end + 1
		inner = replaceIn(inner, "{}", roots)
		child := st.child(a, nil)
		if v == "-execdir" || v == "-okdir" {
			for _, r := range roots {
				step := r.word()
				step.Unknown = true
				step.Raw = v
				child.chdir(step, ir.Bash)
				break
			}
		}
		a.nestedArgv(c, child, inner, "find "+v, ex.idx)
	}
}

// fdCmd: fd [opts] [pattern] [path...] -x|-X COMMAND...: the command runs
// on every match; the placeholders stand for unknown file names.
func (a *analyzer) fdCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok || !cmdfacts.IsFdExec(v) {
			continue
		}
		var inner []xword
		for i++; i < len(ws); i++ {
			if t, tok := ws[i].lit(); tok && t == ";" {
				break
			}
			inner = append(inner, ws[i])
		}
		if len(inner) == 0 {
			return
		}
		has := false
		for _, w := range inner {
			if strings.Contains(w.value(), "{") {
				has = true
			}
		}
		if has {
			for _, tok := range []string{"{//}", "{/.}", "{/}", "{.}", "{}"} {
				inner = replaceIn(inner, tok, nil)
			}
		} else {
			inner = append(inner, inputWord())
		}
		a.nestedArgv(c, st.child(a, nil), inner, "fd "+v, ex.idx)
	}
}
