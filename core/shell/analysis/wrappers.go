package analysis

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// Wrappers are commands that run another command given as their remaining
// arguments (sudo rm ..., nice -n 5 rm ...). Analyze strips them with their
// options so the Command is the inner one, and records them in Via. Which
// commands are wrappers, their options and what comes before the command
// they run are cmdfacts' (cmdfacts.WrapperOf); how one is stripped is
// this package's.

// unwrap is the result of stripping one wrapper.
type unwrap struct {
	rest    []xword     // the inner argv; empty: not used as a wrapper here
	assigns []ir.Assign // NAME=value the wrapper sets (env, sudo)
	cd      []ir.Word   // directory the wrapper changes to (env -C, sudo -D)
	via     string      // Via label; "" means the wrapper's name
}

type wrapper struct {
	posix bool // a shell builtin: only in the Bash dialect, same process
	// custom is the wrapper's own strip function (stripFuncs); nil: the
	// form its cmdfacts entry gives (stripByEntry).
	custom func(a *analyzer, ws []xword) unwrap
}

// strip strips the wrapper called name off ws.
func (w wrapper) strip(a *analyzer, name string, ws []xword) unwrap {
	if w.custom != nil {
		return w.custom(a, ws)
	}
	return stripByEntry(wrapperOf(name), ws)
}

// stripByEntry strips a wrapper by the form its cmdfacts entry gives: a
// mark, a run subcommand, operands before the command, or options only.
// The entry is looked up per strip rather than kept by the analysis: a
// copy per wrapper would be resident for the process's life, scanned by
// every garbage collection.
func stripByEntry(w cmdfacts.Wrapper, ws []xword) unwrap {
	switch {
	case len(w.Mark) > 0:
		return afterMark(&w, ws)
	case len(w.Subs) > 0:
		return subRunner(&w, ws)
	case w.Operands > 0:
		return thenOperands(&w, ws)
	}
	return simpleWrapper(&w, ws)
}

// opts are a wrapper's options as cmdfacts' getopt read them (readOpts),
// with the words their values came from.
type opts struct {
	args  cmdfacts.Args
	ws    []xword
	start int
}

// readOpts reads the options of ws[start:] by spec with cmdfacts.ParseArgs
// in POSIX order (the first operand ends them; "--" is consumed) and
// returns the index of the first operand. A word whose value is not
// wholly known is handed to the getopt as an operand: it ends the options
// unless an option takes it as its value (sudo -u "$U" CMD), so an
// option of unknown text never hides the command behind it. Only the
// option words are handed over, with the word after each that takes it
// as its value (spec.Takes), up to "--" or the first operand: a long
// command costs no more than its wrapper's options. Cost: ParseArgs's
// on those words (held on the stack up to 8 of them).
func readOpts(ws []xword, start int, spec cmdfacts.Spec) (int, opts) {
	if start >= len(ws) {
		return len(ws), opts{}
	}
	n, value := 0, false
	for _, w := range ws[start:] {
		v, ok := w.lit()
		if value {
			n, value = n+1, false
			continue
		}
		if !ok || len(v) < 2 || v[0] != '-' {
			break
		}
		n, value = n+1, spec.Takes(v)
		if v == "--" {
			break
		}
	}
	spec.POSIX = true
	o := parseOpts(ws, start, start+n, spec)
	return start + n - len(o.args.Operands), o
}

// parseOpts reads ws[start:end] by spec with cmdfacts.ParseArgs (in the
// order spec gives: GNU permutation unless spec.POSIX). A word whose
// value is not wholly known is handed over as an unknown word, an
// operand unless an option takes it as its value. Cost: ParseArgs's on
// those words (held on the stack up to 8 of them).
func parseOpts(ws []xword, start, end int, spec cmdfacts.Spec) opts {
	var buf [8]ir.Word
	args := buf[:0]
	if end-start > len(buf) {
		args = make([]ir.Word, 0, end-start)
	}
	for _, w := range ws[start:end] {
		if v, ok := w.lit(); ok {
			args = append(args, ir.Word{Value: v, KnownPrefix: v})
		} else {
			args = append(args, ir.Word{Unknown: true})
		}
	}
	return opts{args: cmdfacts.ParseArgs(args, spec), ws: ws, start: start}
}

// has reports whether any of names (no dashes) was given.
func (o opts) has(names ...string) bool { return o.args.Has(names...) }

// val returns the value of the last of names given with one, nil when
// none is: the word itself, or for a value attached to its option
// (-uroot, --user=root) the known text after the option.
func (o opts) val(names ...string) *xword {
	var last *xword
	o.each(names, func(w *xword) { last = w })
	return last
}

// each calls f with the value of every option in names, in order.
func (o opts) each(names []string, f func(*xword)) {
	for _, op := range o.args.Opts {
		if op.Val != nil && slices.Contains(names, op.Name) {
			f(o.word(op))
		}
	}
}

// word returns the value of op (one of o.args.Opts, with a value): the
// word it was read from, or the known text after the option for a value
// attached to it (-uroot, --user=root).
func (o opts) word(op cmdfacts.Opt) *xword {
	w := &o.ws[o.start+op.At]
	if v, _ := w.lit(); len(v) != len(op.Val.Value) {
		x := knownWord(op.Val.Value, op.Val.Value)
		return &x
	}
	return w
}

// foldOptions returns ws with its option words in lower case when w
// reads its options without regard to case (Wrapper.Fold), for reading
// them only: the command it runs is taken from ws.
func foldOptions(w cmdfacts.Wrapper, ws []xword) []xword {
	if !w.Fold {
		return ws
	}
	out := slices.Clone(ws)
	for i, x := range out {
		if v, ok := x.lit(); ok && strings.HasPrefix(v, "-") && strings.ToLower(v) != v {
			l := strings.ToLower(v)
			out[i] = knownWord(l, l)
		}
	}
	return out
}

// simpleWrapper strips the options of w; its NoRun options mean it runs
// no command (sudo -l, command -v).
func simpleWrapper(w *cmdfacts.Wrapper, ws []xword) unwrap {
	i, o := readOpts(ws, 1, w.Spec)
	if o.has(w.NoRun...) {
		return unwrap{}
	}
	return unwrap{rest: ws[i:]}
}

// thenOperands strips options, then w.Operands operands (timeout's
// DURATION, chroot's NEWROOT), then runs the rest.
func thenOperands(w *cmdfacts.Wrapper, ws []xword) unwrap {
	i, o := readOpts(ws, 1, w.Spec)
	if o.has(w.NoRun...) || i+w.Operands > len(ws) {
		return unwrap{}
	}
	return unwrap{rest: ws[i+w.Operands:]}
}

// leadingAssigns takes NAME=value words off the front of ws.
func leadingAssigns(ws []xword) ([]ir.Assign, []xword) {
	var out []ir.Assign
	for len(ws) > 0 {
		v := ws[0].value()
		eq := strings.IndexByte(v, '=')
		if eq <= 0 || !isName(v[:eq]) || !partsKnownPrefix(ws[0], eq+1) {
			break
		}
		val := ws[0]
		val.parts = trimPartsPrefix(val.parts, eq+1)
		out = append(out, ir.Assign{Name: v[:eq], Value: val.word()})
		ws = ws[1:]
	}
	return out, ws
}

// partsKnownPrefix reports whether the first n bytes of w are known text.
func partsKnownPrefix(w xword, n int) bool {
	for _, p := range w.parts {
		if p.unknown {
			return false
		}
		if len(p.text) >= n {
			return true
		}
		n -= len(p.text)
	}
	return n == 0
}

func trimPartsPrefix(ps []part, n int) []part {
	out := make([]part, 0, len(ps))
	for _, p := range ps {
		if n > 0 {
			if len(p.text) <= n {
				n -= len(p.text)
				continue
			}
			p.text = p.text[n:]
			n = 0
		}
		out = append(out, p)
	}
	return out
}

// stripSudo: sudo [OPTIONS] [NAME=value...] COMMAND. -h takes a host
// (sudo -h HOST CMD); plain sudo -h is help and runs nothing, which an
// empty rest already means.
func stripSudo(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("sudo")
	i, o := readOpts(ws, 1, w.Spec)
	if o.has(w.NoRun...) {
		return unwrap{}
	}
	assigns, rest := leadingAssigns(ws[i:])
	u := unwrap{rest: rest, assigns: assigns}
	if d := o.val(w.Dir...); d != nil {
		u.cd = append(u.cd, d.word())
	}
	return u
}

// stripEnv handles env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=value]...
// COMMAND. The -S string is split into words and analysed as argv.
func stripEnv(a *analyzer, ws []xword) unwrap {
	var u unwrap
	i := 1
	var split []xword
	w := wrapperOf("env")
	for {
		j, o := readOpts(ws, i, w.Spec)
		for _, op := range o.args.Opts {
			switch {
			case op.Val == nil:
			case slices.Contains(w.Dir, op.Name):
				u.cd = append(u.cd, o.word(op).word())
			case slices.Contains(w.Split, op.Name):
				split = append(split, a.splitWords(*o.word(op))...)
			}
		}
		i = j
		if i < len(ws) {
			if v, ok := ws[i].lit(); ok && v == "-" {
				i++
				continue
			}
		}
		break
	}
	assigns, rest := leadingAssigns(ws[i:])
	u.assigns = assigns
	if len(split) > 0 {
		// The split string may itself start with NAME=value words.
		more, srest := leadingAssigns(split)
		u.assigns = append(u.assigns, more...)
		rest = append(slices.Clip(srest), rest...)
	}
	u.rest = rest
	return u
}

// stripFlock handles flock [opts] FILE COMMAND...; the -c form runs a shell
// string and is handled as a nested script.
func stripFlock(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("flock")
	i, o := readOpts(ws, 1, w.Spec)
	if o.has(w.Script...) || i+w.Operands >= len(ws) {
		return unwrap{}
	}
	if _, after := readOpts(ws, i+w.Operands, w.Spec); after.has(w.Script...) {
		return unwrap{} // flock FILE -c COMMAND
	}
	return unwrap{rest: ws[i+w.Operands:]}
}

// stripRunuser handles runuser -u USER [--] COMMAND... (without -u,
// runuser runs a shell: the su handler).
func stripRunuser(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("runuser")
	i, o := readOpts(ws, 1, w.Spec)
	if !o.has(w.Exec...) || o.has(w.Script...) {
		return unwrap{}
	}
	return unwrap{rest: ws[i:]}
}

// stripWslExec handles wsl [opts] -e|--exec COMMAND...; other forms run a
// shell command line (see the wsl handler).
func stripWslExec(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("wsl")
	i, o := readOpts(foldOptions(w, ws), 1, w.Spec)
	if !o.has(w.Exec...) {
		return unwrap{}
	}
	return unwrap{rest: ws[i:], via: "wsl -e"}
}

func stripBusybox(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 2 {
		return unwrap{}
	}
	if v, ok := ws[1].lit(); !ok || strings.HasPrefix(v, "-") {
		return unwrap{}
	}
	return unwrap{rest: ws[1:]}
}

// stripWatchExec handles watch -x (argv, no shell); the default form runs
// its arguments through sh -c (see the watch handler).
func stripWatchExec(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("watch")
	i, o := readOpts(ws, 1, w.Spec)
	if !o.has(w.Exec...) {
		return unwrap{}
	}
	return unwrap{rest: ws[i:], via: "watch -x"}
}

// subRunner strips a tool's run subcommand, which runs its operands as a
// command inside the tool's environment (poetry run, uv run, bundle exec,
// conda run -n ENV, direnv exec DIR): ws[1] must be one of subs, then
// options by spec, then n operands, then the command. A subcommand not in
// subs (poetry install) runs nothing. The Via label is "NAME SUB".
func subRunner(w *cmdfacts.Wrapper, ws []xword) unwrap {
	if len(ws) < 2 {
		return unwrap{}
	}
	sub, ok := ws[1].lit()
	if !ok || !slices.Contains(w.Subs, sub) {
		return unwrap{}
	}
	i, _ := readOpts(ws, 2, w.Spec)
	if i+w.Operands >= len(ws) {
		return unwrap{}
	}
	return unwrap{rest: ws[i+w.Operands:], via: nameOf(ws[0]) + " " + sub}
}

// afterMark strips a runner whose command follows the first of w.Mark
// ("--") after one of w.Subs, or after the wrapper's name when it has no
// Subs (mise exec node@20 -- CMD, doppler run -- CMD, nsjail [OPTIONS]
// -- CMD): the words before the mark are the runner's own (tool specs,
// options too many to tell apart from the command). With no mark the
// call runs no command this layer can name.
func afterMark(w *cmdfacts.Wrapper, ws []xword) unwrap {
	from, via := 1, ""
	if len(w.Subs) > 0 {
		if len(ws) < 2 {
			return unwrap{}
		}
		sub, ok := ws[1].lit()
		if !ok || !slices.Contains(w.Subs, sub) {
			return unwrap{}
		}
		from, via = 2, nameOf(ws[0])+" "+sub
	}
	for i := from; i+1 < len(ws); i++ {
		if v, ok := ws[i].lit(); ok && slices.Contains(w.Mark, v) {
			return unwrap{rest: ws[i+1:], via: via}
		}
	}
	return unwrap{}
}

// wrappers are the wrappers the analysis strips: every cmdfacts wrapper
// (cmdfacts.WrapperNames), by the form its entry gives, or by its own
// strip function (stripFuncs).
var wrappers map[string]wrapper

// wrapperOf returns the cmdfacts entry of a wrapper this package strips
// by name.
func wrapperOf(name string) cmdfacts.Wrapper {
	w, ok := cmdfacts.WrapperOf(name)
	if !ok {
		panic("analysis: no cmdfacts wrapper " + name)
	}
	return w
}

// stripFuncs are the wrappers whose stripping the cmdfacts forms (Subs,
// Operands, Mark) do not describe.
func stripFuncs() map[string]func(*analyzer, []xword) unwrap {
	return map[string]func(*analyzer, []xword) unwrap{
		"sudo": stripSudo, "env": stripEnv, "flock": stripFlock,
		"runuser": stripRunuser, "wsl": stripWslExec, "busybox": stripBusybox, "toybox": stripBusybox,
		"watch": stripWatchExec, "nix": stripNix, "lvm": stripLvm, "cmake": stripCmakeE, "uv": stripUv,
		"setarch": stripSetarch, "bwrap": stripBwrap, "mpirun": stripMPI,
		"mpiexec": stripMPI, "orterun": stripMPI, "machinectl": stripMachinectl, "coreutils": stripCoreutils,
	}
}

func init() {
	funcs := stripFuncs()
	wrappers = make(map[string]wrapper, len(cmdfacts.WrapperNames()))
	for _, name := range cmdfacts.WrapperNames() {
		custom := funcs[name]
		delete(funcs, name)
		wrappers[name] = wrapper{posix: wrapperOf(name).Builtin, custom: custom}
	}
	for name := range funcs {
		panic("analysis: strip function for " + name + ", which is no cmdfacts wrapper")
	}
}

// splitWords splits a string into argv the way env -S does: blanks
// separate, quotes group. Unknown parts stay unknown.
func (a *analyzer) splitWords(w xword) []xword {
	text, known := a.joinText([]xword{w}, false)
	if !known {
		return []xword{w}
	}
	var out []xword
	f, err := a.parse(text)
	if err == nil && len(f.Stmts) == 1 {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(f.Stmts[0].Redirs) == 0 && len(call.Assigns) == 0 {
			st := newState()
			for _, arg := range call.Args {
				out = a.appendFields(out, st, text, arg)
			}
			return out
		}
	}
	for _, f := range strings.Fields(text) {
		var b fieldBuilder
		a.addText(&b, f)
		out = append(out, b.single(f))
	}
	return out
}
