package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// More programs that run a command for their caller: lldb (the program
// after "--", and `platform shell` / `shell` commands given with -o),
// hyperfine (each benchmarked command and its setup, prepare, conclude
// and cleanup commands run by sh -c), nodemon (--exec CMD, run by a
// shell).

// addToolPayloadReaders adds this file's readers (called by the init that
// builds payloadReaders).
func addToolPayloadReaders() {
	payloadReaders["lldb"] = (*payloads).lldb
	payloadReaders["hyperfine"] = (*payloads).hyperfine
	payloadReaders["nodemon"] = (*payloads).nodemon
}

// lldbCommandOpts are lldb's options whose value is an lldb command.
var lldbCommandOpts = []string{"-o", "--one-line", "-O", "--one-line-before-file", "-k", "--one-line-on-crash"}

// lldbValued are lldb's other options that take a value.
var lldbValued = []string{"-s", "--source", "-S", "--source-before-file", "-K", "--source-on-crash", "-a", "--arch",
	"-c", "--core", "-p", "--attach-pid", "-n", "--attach-name", "-l", "--script-language", "-f", "--file", "-r", "--repl-language"}

func (p *payloads) lldb() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		switch {
		case a.Unknown:
			continue
		case a.Value == "--":
			p.argv(p.args[i+1:], "lldb --")
			return
		case containsStr(lldbCommandOpts, a.Value) && i+1 < len(p.args):
			i++
			p.lldbCommand(p.args[i])
		case containsStr(lldbValued, a.Value):
			i++
		}
	}
}

// lldbCommand reads one lldb command: `platform shell CMD` and its alias
// `shell CMD` run CMD through the shell.
func (p *payloads) lldbCommand(w ir.Word) {
	t := strings.TrimLeft(w.Value, " \t")
	off := len(w.Value) - len(t)
	for _, prefix := range []string{"platform shell ", "shell "} {
		if strings.HasPrefix(t, prefix) {
			p.line(restFrom(w, off+len(prefix)), "lldb "+strings.TrimSpace(prefix))
			return
		}
	}
}

// hyperfineValued are hyperfine's options that take values, and how many.
var hyperfineValued = map[string]int{
	"-w": 1, "--warmup": 1, "-m": 1, "--min-runs": 1, "-M": 1, "--max-runs": 1, "-r": 1, "--runs": 1,
	"-P": 3, "--parameter-scan": 3, "-D": 1, "--parameter-step-size": 1, "-L": 2, "--parameter-list": 2,
	"-S": 1, "--shell": 1, "-u": 1, "--time-unit": 1, "--export-asciidoc": 1, "--export-csv": 1,
	"--export-json": 1, "--export-markdown": 1, "--export-orgmode": 1, "--output": 1, "--input": 1,
	"-n": 1, "--command-name": 1, "--sort": 1, "--style": 1, "--reference": 1, "--min-benchmarking-time": 1,
}

// hyperfineCommandOpts are hyperfine's options whose value is a command.
var hyperfineCommandOpts = []string{"-s", "--setup", "-p", "--prepare", "-c", "--cleanup", "-C", "--conclude"}

func (p *payloads) hyperfine() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		v := a.Value
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			p.line(a, "hyperfine")
		case containsStr(hyperfineCommandOpts, v) && i+1 < len(p.args):
			i++
			p.line(p.args[i], "hyperfine "+v)
		case strings.HasPrefix(v, "--") && strings.Contains(v, "="):
			name, val, _ := strings.Cut(v, "=")
			if containsStr(hyperfineCommandOpts, name) {
				p.line(SubWord(a, len(v)-len(val)), "hyperfine "+name)
			}
		case hyperfineValued[v] > 0:
			i += hyperfineValued[v]
		case len(v) > 1 && v[0] == '-':
		default:
			p.line(a, "hyperfine")
		}
	}
}

func (p *payloads) nodemon() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		switch {
		case a.Unknown:
		case (a.Value == "--exec" || a.Value == "-x") && i+1 < len(p.args):
			i++
			p.line(p.args[i], "nodemon --exec")
		case strings.HasPrefix(a.Value, "--exec="):
			p.line(SubWord(a, len("--exec=")), "nodemon --exec")
		}
	}
}
