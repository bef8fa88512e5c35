package analysis

import (
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
// ARGS (uutils) and coreutils --coreutils-prog=NAME ARGS (GNU).
func stripCoreutils(a *analyzer, ws []xword) unwrap {
	if len(ws) > 1 {
		if v, ok := ws[1].lit(); ok && strings.HasPrefix(v, "--coreutils-prog=") {
			name := strings.TrimPrefix(v, "--coreutils-prog=")
			if name == "" {
				return unwrap{}
			}
			return unwrap{rest: append([]xword{knownWord(name, name)}, ws[2:]...)}
		}
	}
	return stripBusybox(a, ws)
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
	return subRunner(wrapperOf("uv"))(a, ws)
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

// stripArch handles macOS's arch [-x86_64 | -arm64 | -arch NAME ...]
// [-e VAR=VALUE] [-d VAR] PROG ARGS (plain arch prints the architecture).
func stripArch(_ *analyzer, ws []xword) unwrap {
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		switch {
		case !ok:
			return unwrap{rest: ws[i:]}
		case v == "-arch" || v == "-e" || v == "-d":
			i++
		case v == "-h":
			return unwrap{}
		case len(v) > 1 && v[0] == '-':
		default:
			return unwrap{rest: ws[i:]}
		}
	}
	return unwrap{}
}

// stripBwrap handles bwrap [OPTIONS] COMMAND: options take zero to three
// words (cmdfacts.BwrapValues); the first other word is the command.
func stripBwrap(_ *analyzer, ws []xword) unwrap {
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return unwrap{rest: ws[i:]}
		}
		switch {
		case v == "--":
			return unwrap{rest: ws[i+1:]}
		case v == "--help" || v == "--version":
			return unwrap{}
		case len(v) > 1 && v[0] == '-':
			i += cmdfacts.BwrapValues(v)
		default:
			return unwrap{rest: ws[i:]}
		}
	}
	return unwrap{}
}

// sgCmd: sg [-] GROUP [-c] COMMAND runs COMMAND through /bin/sh -c with
// GROUP as its group (sg with no command starts a shell).
func (a *analyzer) sgCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	i := 1
	if i < len(ws) {
		if v, ok := ws[i].lit(); ok && v == "-" {
			i++
		}
	}
	i++ // the group
	if i < len(ws) {
		if v, ok := ws[i].lit(); ok && v == "-c" {
			i++
		}
	}
	if i < len(ws) {
		a.nestedWords(c, st.child(a, ex.env), ws[i:], ir.Bash, "sg", ex.idx)
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
// vg/lv is lvremove vg/lv); lvm alone or with an option is its shell.
func stripLvm(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 2 {
		return unwrap{}
	}
	sub, ok := ws[1].lit()
	if !ok || len(sub) < 3 || !(strings.HasPrefix(sub, "lv") || strings.HasPrefix(sub, "vg") || strings.HasPrefix(sub, "pv")) {
		return unwrap{}
	}
	return unwrap{rest: ws[1:], via: "lvm"}
}

// stripCmakeE: cmake -E rm ARGS removes files like rm (its options -r,
// -f are rm's), cmake -E remove FILES like rm -f, cmake -E
// remove_directory DIRS like rm -rf; the rest of cmake -E and cmake
// itself run no command this layer can name.
func stripCmakeE(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 3 {
		return unwrap{}
	}
	if e, ok := ws[1].lit(); !ok || e != "-E" {
		return unwrap{}
	}
	sub, ok := ws[2].lit()
	if !ok {
		return unwrap{}
	}
	var head []xword
	switch sub {
	case "rm":
		head = []xword{knownWord("rm", "rm")}
	case "remove":
		head = []xword{knownWord("rm", "rm"), knownWord("-f", "-f")}
	case "remove_directory":
		head = []xword{knownWord("rm", "rm"), knownWord("-rf", "-rf")}
	default:
		return unwrap{}
	}
	return unwrap{rest: append(head, ws[3:]...), via: "cmake -E " + sub}
}
