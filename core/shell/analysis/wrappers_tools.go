package analysis

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The strip functions of the tool runners, launchers and multi-call
// binaries (uv tool run, nix, mpirun, machinectl, coreutils, setarch,
// macOS's arch, bwrap, lvm, cmake -E): their names and options are
// cmdfacts wrappers (core/cmdfacts/wrappers.go); each runs its operands
// as a command, which the analysis strips like sudo or nice, records in
// Via, and every layer judges.

// argWords returns the shell.Words of ws (for the cmdfacts parsers).
func argWords(ws []xword) []ir.Word {
	out := make([]ir.Word, len(ws))
	for i, w := range ws {
		out[i] = w.word()
	}
	return out
}

// stripNix handles nix develop / shell INSTALLABLES -c CMD and nix run
// INSTALLABLE [--] ARGS, which runs the installable's program
// (cmdfacts.ParseNixCommand): the program name is put before ARGS.
func stripNix(_ *analyzer, ws []xword) unwrap {
	n, ok := cmdfacts.ParseNixCommand(argWords(ws[1:]))
	if !ok {
		return unwrap{}
	}
	rest := ws[1+n.From:]
	if n.Program != "" {
		rest = append([]xword{knownWord(n.Program, n.Program)}, rest...)
	} else if len(rest) == 0 {
		return unwrap{}
	}
	return unwrap{rest: rest, via: "nix " + n.Sub}
}

// stripMPI handles mpirun / mpiexec [OPTIONS] PROGRAM ARGS
// (cmdfacts.MPIProgram); only the first application context is named.
func stripMPI(_ *analyzer, ws []xword) unwrap {
	i, ok := cmdfacts.MPIProgram(argWords(ws[1:]))
	if !ok {
		return unwrap{}
	}
	return unwrap{rest: ws[1+i:]}
}

// stripMachinectl handles machinectl shell [USER@].host PATH ARGS (or no
// machine name): PATH runs on this host (cmdfacts.MachineShell).
func stripMachinectl(_ *analyzer, ws []xword) unwrap {
	m, ok := cmdfacts.MachineShell(argWords(ws[1:]))
	if !ok || !m.Host || 1+m.Cmd >= len(ws) {
		return unwrap{}
	}
	return unwrap{rest: ws[1+m.Cmd:], via: "machinectl shell"}
}

// stripCoreutils handles a multi-call coreutils binary: coreutils NAME
// ARGS (uutils) and coreutils --coreutils-prog=NAME ARGS (GNU): the
// program is the value of a Program option of cmdfacts' entry, the words
// after it its arguments; without one, the first operand.
func stripCoreutils(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("coreutils")
	i, o := readOpts(ws, 1, w.Spec)
	for _, op := range o.args.Opts {
		switch {
		case slices.Contains(w.NoRun, op.Name):
			return unwrap{}
		case op.Val != nil && slices.Contains(w.Program, op.Name):
			p := o.word(op)
			if v, ok := p.lit(); ok && v == "" {
				return unwrap{}
			}
			return unwrap{rest: append([]xword{*p}, ws[o.start+op.At+1:]...)}
		}
	}
	return unwrap{rest: ws[i:]}
}

// stripUv handles uv run and uv tool run (uvx).
func stripUv(a *analyzer, ws []xword) unwrap {
	if len(ws) > 2 {
		if sub, ok := ws[1].lit(); ok && sub == "tool" {
			if run, ok := ws[2].lit(); ok && run == "run" {
				i, _ := readOpts(ws, 3, wrapperOf("uvx").Spec)
				return unwrap{rest: ws[i:], via: "uv tool run"}
			}
		}
	}
	w := wrapperOf("uv")
	return subRunner(&w, ws)
}

// stripSetarch handles setarch ARCH [options] [COMMAND]: the architecture
// comes first; with no command setarch runs a shell.
func stripSetarch(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 3 {
		return unwrap{}
	}
	if v, ok := ws[1].lit(); !ok || len(v) > 0 && v[0] == '-' {
		return unwrap{}
	}
	i, _ := readOpts(ws, 2, wrapperOf("setarch").Spec)
	return unwrap{rest: ws[i:]}
}

// stripBwrap handles bwrap [OPTIONS] COMMAND: options take zero to three
// words (cmdfacts.BwrapValues); the first other word is the command. A
// NoRun option of its cmdfacts entry (--help, --version) runs none.
func stripBwrap(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("bwrap")
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return unwrap{rest: ws[i:]}
		}
		switch {
		case v == "--":
			return unwrap{rest: ws[i+1:]}
		case len(v) > 1 && v[0] == '-':
			if slices.Contains(w.NoRun, strings.TrimLeft(v, "-")) {
				return unwrap{}
			}
			i += cmdfacts.BwrapValues(v)
		default:
			return unwrap{rest: ws[i:]}
		}
	}
	return unwrap{}
}

// sgCmd: sg [-] GROUP [-c] COMMAND runs COMMAND through /bin/sh -c with
// GROUP as its group (sg with no command starts a shell). Its options
// and the GROUP operand are cmdfacts' (ShellOptions("sg")); the command
// is the Script option's value with the words after it, or the words
// after GROUP.
func (a *analyzer) sgCmd(c ctx, st *state, ex exec) {
	sg := cmdfacts.ShellOptions("sg")
	ws := ex.words
	i, _ := readOpts(ws, 1, sg.Spec)
	if i < len(ws) {
		if v, ok := ws[i].lit(); ok && v == "-" {
			i++ // sg - GROUP: a login environment
		}
	}
	i, o := readOpts(ws, min(i+sg.Operands, len(ws)), sg.Spec)
	cmd := ws[i:]
	if w := o.val(sg.Script...); w != nil {
		cmd = append([]xword{*w}, cmd...)
	}
	if len(cmd) > 0 {
		a.nestedWords(c, st.child(a, ex.env), cmd, ir.Bash, "sg", ex.idx)
	}
}

// forfilesCmd: forfiles /P DIR /M MASK /C COMMAND runs COMMAND (a program
// and its arguments, cmd.exe-style) once per file found, the @path-like
// placeholders standing for DIR\MASK (cmdfacts.Forfiles).
func (a *analyzer) forfilesCmd(c ctx, st *state, ex exec) {
	args := make([]ir.Word, 0, len(ex.words))
	for _, w := range ex.words[1:] {
		args = append(args, w.word())
	}
	if text, ok := cmdfacts.Forfiles(args); ok {
		a.nestedText(c, st.child(a, ex.env), text, ir.Cmd, "forfiles", ex.idx)
	}
}

// stripLvm: lvm COMMAND ARGS runs the LVM tool of that name (lvm lvremove
// vg/lv is lvremove vg/lv): a name starting with one of its cmdfacts
// entry's Tools prefixes; lvm alone or with an option is its shell.
func stripLvm(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 2 {
		return unwrap{}
	}
	w := wrapperOf("lvm")
	sub, ok := ws[1].lit()
	if !ok || !slices.ContainsFunc(w.Tools, func(p string) bool { return len(sub) > len(p) && strings.HasPrefix(sub, p) }) {
		return unwrap{}
	}
	return unwrap{rest: ws[1:], via: nameOf(ws[0])}
}

// stripCmakeE: cmake -E COMMAND ARGS does what cmdfacts' entry says
// COMMAND does (Wrapper.Runs: cmake -E rm is rm, remove is rm -f,
// remove_directory is rm -rf, chdir DIR CMD is env -C DIR CMD); the
// other -E commands, and cmake without -E, run no command this layer can
// name. The Via label is the words read: "cmake -E rm".
func stripCmakeE(_ *analyzer, ws []xword) unwrap {
	w := wrapperOf("cmake")
	i, o := readOpts(ws, 1, w.Spec)
	if !o.has(w.Exec...) || i >= len(ws) {
		return unwrap{}
	}
	sub, ok := ws[i].lit()
	head, runs := w.Runs[sub]
	if !ok || !runs {
		return unwrap{}
	}
	rest := make([]xword, 0, len(head)+len(ws)-i-1)
	for _, h := range head {
		rest = append(rest, knownWord(h, h))
	}
	via := nameOf(ws[0])
	for _, x := range ws[1 : i+1] {
		via += " " + x.value()
	}
	return unwrap{rest: append(rest, ws[i+1:]...), via: via}
}
