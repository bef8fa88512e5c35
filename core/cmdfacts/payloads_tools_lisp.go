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

// addToolAndLispPayloadReaders adds this file's readers (called by the init that
// builds payloadReaders).
func addToolAndLispPayloadReaders() {
	payloadReaders["lldb"] = (*payloads).lldb
	payloadReaders["hyperfine"] = (*payloads).hyperfine
	payloadReaders["nodemon"] = (*payloads).nodemon
	for name := range lispEvalOpts {
		if name != "emacs" {
			payloadReaders[name] = (*payloads).lispEval
		}
	}
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

// Lisp evaluators given code on the command line: emacs --eval, guile -c,
// racket -e, sbcl --eval, clisp -x, and the Clojures: bb -e/--eval (or
// an expression as bb's first operand), clojure/clj -e/--eval (clojure.
// main's, after -M). Their calls that run programs or delete files are
// read as the shell commands they amount to.

// lispCall is how one Lisp function runs a program or deletes files.
type lispCall struct {
	// shell: the first argument is a shell command line.
	shell bool
	// prog is the index of the program in the arguments, the strings after
	// it being its arguments (argv), when argv is set.
	argv bool
	prog int
	// rm is the delete the call amounts to ("rm -f", "rm -rf", "rmdir");
	// rmRecursive applies when the second argument is non-nil
	// (delete-directory DIR t).
	rm, rmRecursive string
	// words: a single string is split at blanks into an argv, run
	// without a shell (babashka.process's shell and process); several
	// strings are the argv.
	words bool
	// anyNS: the call counts under any namespace alias (sh/sh,
	// shell/sh, clojure.java.shell/sh); a Clojure name is looked up as
	// written, then by its part after "/" when anyNS.
	anyNS bool
}

// lispCalls are the calls read, by dialect: "elisp" (emacs; file names
// are expanded, ~ is the home directory) and "scheme", which holds the
// calls of guile, racket and the Common Lisps (sbcl's uiop, clisp's ext):
// their names do not collide.
var lispCalls = map[string]map[string]lispCall{
	"elisp": {
		"delete-directory": {rm: "rmdir", rmRecursive: "rm -rf"},
		"delete-file":      {rm: "rm -f"},
		"call-process":     {argv: true, prog: 0},
		"process-lines":    {argv: true, prog: 0},
		"start-process":    {argv: true, prog: 2},
	},
	"scheme": {
		"system":                     {shell: true},
		"system*":                    {argv: true, prog: 0},
		"process":                    {shell: true},
		"process*":                   {argv: true, prog: 0},
		"delete-file":                {rm: "rm -f"},
		"delete-directory/files":     {rm: "rm -rf"},
		"delete-directory":           {rm: "rmdir"},
		"open-input-pipe":            {shell: true},
		"open-output-pipe":           {shell: true},
		"shell-command":              {shell: true},
		"run-shell-command":          {shell: true},
		"uiop:run-program":           {shell: true},
		"uiop:launch-program":        {shell: true},
		"ext:shell":                  {shell: true},
		"ext:run-shell-command":      {shell: true},
		"uiop:delete-file-if-exists": {rm: "rm -f"},
	},
	"clojure": {
		"sh":                           {argv: true, prog: 0, anyNS: true},
		"shell":                        {words: true, anyNS: true},
		"process":                      {words: true, anyNS: true},
		"delete-tree":                  {rm: "rm -rf", anyNS: true},
		"fs/delete":                    {rm: "rm -f"},
		"babashka.fs/delete":           {rm: "rm -f"},
		"fs/delete-if-exists":          {rm: "rm -f"},
		"babashka.fs/delete-if-exists": {rm: "rm -f"},
		"delete-file":                  {rm: "rm -f", anyNS: true},
	},
}

// lispDialect is the dialect of evaluator name's code.
func lispDialect(name string) string {
	switch name {
	case "emacs":
		return "elisp"
	case "bb", "clojure", "clj":
		return "clojure"
	}
	return "scheme"
}

// lispLookup finds the call named name in dialect.
func lispLookup(dialect, name string) (lispCall, bool) {
	calls := lispCalls[dialect]
	if c, ok := calls[name]; ok {
		return c, true
	}
	if dialect == "clojure" {
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			if c, ok := calls[name[k+1:]]; ok && c.anyNS {
				return c, true
			}
		}
	}
	return lispCall{}, false
}

// lispEvalOpts are the options whose value is code, by evaluator; the
// dialect is "elisp" for emacs and "scheme" for the others (their
// program-running calls share names).
var lispEvalOpts = map[string][]string{
	"emacs":   {"--eval", "-eval"},
	"guile":   {"-c"},
	"racket":  {"-e", "--eval"},
	"sbcl":    {"--eval"},
	"clisp":   {"-x"},
	"bb":      {"-e", "--eval"},
	"clojure": {"-e", "--eval"},
	"clj":     {"-e", "--eval"},
}

// lispEval reads the code options of a Lisp evaluator.
func (p *payloads) lispEval() {
	opts := lispEvalOpts[p.name]
	dialect := lispDialect(p.name)
	operand := false
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		var expr *ir.Word
		switch {
		case a.Unknown:
		case containsStr(opts, a.Value) && i+1 < len(p.args):
			i++
			expr = &p.args[i]
		case p.name == "bb" && !operand && !strings.HasPrefix(a.Value, "-"):
			operand = true // bb's first operand: an expression when it is a form
			if strings.HasPrefix(strings.TrimSpace(a.Value), "(") {
				expr = &p.args[i]
			}
		case strings.HasPrefix(a.Value, "--eval="):
			w := SubWord(a, len("--eval="))
			expr = &w
		}
		if expr != nil {
			p.lispForms(*expr, dialect)
		}
	}
}

// lispForms reads every call of lispCalls[dialect] in expr's text.
func (p *payloads) lispForms(expr ir.Word, dialect string) {
	s := expr.Value
	for k := 0; k < len(s); k++ {
		if s[k] != '(' {
			continue
		}
		name := lispName(s[k+1:], dialect)
		call, ok := lispLookup(dialect, name)
		if !ok {
			continue // only known calls are read: the scan stays linear for other code
		}
		_, args := lispForm(s[k+1:], dialect)
		via := p.name + " " + name
		switch {
		case call.shell && len(args) > 0 && args[0].str:
			p.line(Piece(expr, 0, len(s), args[0].text), via)
		case call.words && len(args) == 1 && args[0].str:
			var ws []ir.Word
			for _, f := range strings.Fields(args[0].text) {
				ws = append(ws, Piece(expr, 0, len(s), f))
			}
			p.argv(ws, via)
		case (call.argv || call.words) && dialect == "clojure" && call.prog < len(args) && args[call.prog].str:
			// An argv; as a shell line (quoted words, ~ left to the
			// shell) when a word is the home directory.
			var line []string
			var ws []ir.Word
			home := false
			for _, x := range args[call.prog:] {
				if !x.str {
					line = nil // a value computed at run time
					break
				}
				home = home || x.home
				line = append(line, shellPath(x.text, x.home))
				ws = append(ws, Piece(expr, 0, len(s), x.text))
			}
			switch {
			case line == nil:
			case home:
				p.line(Piece(expr, 0, len(s), strings.Join(line, " ")), via)
			default:
				p.argv(ws, via)
			}
		case call.argv && call.prog < len(args) && args[call.prog].str:
			var ws []ir.Word
			for _, x := range args[call.prog:] {
				if x.str {
					ws = append(ws, Piece(expr, 0, len(s), x.text))
				}
			}
			if call.prog == 0 && dialect == "elisp" && len(args) >= 4 {
				ws = ws[:1] // call-process PROGRAM INFILE DESTINATION DISPLAY ARGS...
				for _, x := range args[4:] {
					if x.str {
						ws = append(ws, Piece(expr, 0, len(s), x.text))
					}
				}
			}
			p.argv(ws, via)
		case call.rm != "" && len(args) > 0 && args[0].str:
			rm := call.rm
			if call.rmRecursive != "" && len(args) > 1 && args[1].text != "nil" {
				rm = call.rmRecursive
			}
			p.line(Piece(expr, 0, len(s), rm+" -- "+shellPath(args[0].text, dialect == "elisp" || args[0].home)), via)
		}
	}
}

// lispArg is one argument of a Lisp form: a string literal (str, its
// value), a symbol or number (its text), or a nested form ("(…)").
// home marks a Clojure value computed from the home directory (text then
// starts with "~", which the shell line reads as the home).
type lispArg struct {
	text string
	str  bool
	home bool
}

// lispForm reads the form whose text follows its "(": the function name
// and its arguments up to the matching ")" (a quoted list '("a" "b") is
// flattened into its strings). In Clojure a vector [...] is flattened
// too, a map {...} is skipped, and a nested form is evaluated when
// clojureValue knows it (the home directory, a path join), else an
// argument computed at run time.
func lispForm(s, dialect string) (string, []lispArg) {
	if dialect == "clojure" {
		return clojureForm(s, 0)
	}
	i := 0
	word := func() string {
		j := i
		for i < len(s) && !strings.ContainsRune(" \t\n()\"'", rune(s[i])) {
			i++
		}
		return s[j:i]
	}
	name := word()
	var args []lispArg
	depth := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\'' || c == '`':
			i++
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth == 0 {
				return name, args
			}
			depth--
			i++
		case c == '"':
			text, n, ok := lispString(s[i:])
			if !ok {
				return name, args
			}
			args = append(args, lispArg{text: text, str: true})
			i += n
		default:
			w := word()
			if w == "" {
				i++
				continue
			}
			if depth == 0 {
				args = append(args, lispArg{text: w})
			}
		}
	}
	return name, args
}

// lispString reads a "..." literal at the start of s: its value and length.
func lispString(s string) (string, int, bool) {
	var sb strings.Builder
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return sb.String(), j + 1, true
		case c == '\\' && j+1 < len(s):
			j++
			sb.WriteByte(s[j])
		default:
			sb.WriteByte(c)
		}
	}
	return "", 0, false
}

// shellPath quotes a file name for a shell command line; with tilde, a
// leading ~ or ~/ stays unquoted so the shell reads it as the home
// directory, as the program would.
func shellPath(name string, tilde bool) string {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	switch {
	case tilde && name == "~":
		return "~"
	case tilde && strings.HasPrefix(name, "~/"):
		if len(name) == 2 {
			return "~/"
		}
		return "~/" + quote(name[2:])
	}
	return quote(name)
}

// clojureStops end a Clojure symbol.
const clojureStops = " \t\n,()[]{}\"'"

// maxClojureNest bounds how deep clojureForm evaluates nested forms
// (deeper ones are values computed at run time), so that the work stays
// linear in the text times this bound.
const maxClojureNest = 4

// lispName returns the function name of the form whose text follows its
// "(".
func lispName(s, dialect string) string {
	stops := " \t\n()\"'"
	if dialect == "clojure" {
		stops = clojureStops
	}
	i := 0
	for i < len(s) && !strings.ContainsRune(stops, rune(s[i])) {
		i++
	}
	return s[:i]
}

// clojureForm is lispForm for Clojure, evaluating nested forms up to
// depth maxClojureNest.
func clojureForm(s string, depth int) (string, []lispArg) {
	i := 0
	word := func() string {
		j := i
		for i < len(s) && !strings.ContainsRune(clojureStops, rune(s[i])) {
			i++
		}
		return s[j:i]
	}
	name := word()
	var args []lispArg
	for i < len(s) {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == ',' || c == '\'' || c == '`' || c == '#' || c == '[' || c == ']':
			i++ // a vector's strings are flattened into the arguments
		case c == ')':
			return name, args
		case c == '{':
			i = lispFormEnd(s, i)
		case c == '(':
			end := lispFormEnd(s, i)
			v, ok := lispArg{}, false
			if depth < maxClojureNest {
				inner, innerArgs := clojureForm(s[i+1:max(end-1, i+1)], depth+1)
				v, ok = clojureValue(inner, innerArgs)
			}
			if !ok {
				v = lispArg{text: s[i:end]}
			}
			args = append(args, v)
			i = end
		case c == '"':
			text, n, ok := lispString(s[i:])
			if !ok {
				return name, args
			}
			args = append(args, lispArg{text: text, str: true})
			i += n
		default:
			if w := word(); w == "" {
				i++
			} else {
				args = append(args, lispArg{text: w})
			}
		}
	}
	return name, args
}

// lispFormEnd returns the index after the bracket group opened at s[i]
// (strings skipped), or len(s) when it is not closed.
func lispFormEnd(s string, i int) int {
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			_, n, ok := lispString(s[i:])
			if !ok {
				return len(s)
			}
			i += n
			continue
		}
		i++
	}
	return len(s)
}

// clojureValue evaluates the Clojure forms whose value is a known path:
// the home directory ((System/getProperty "user.home"), (System/getenv
// "HOME"), (fs/home)), the working directory ("user.dir", (fs/cwd)), and
// joins of known parts ((io/file a b), (fs/path a b), (str a b)).
func clojureValue(name string, args []lispArg) (lispArg, bool) {
	first := func() (lispArg, bool) {
		if len(args) == 1 && args[0].str {
			return args[0], true
		}
		return lispArg{}, false
	}
	home := lispArg{text: "~", str: true, home: true}
	switch name {
	case "System/getProperty":
		switch v, _ := first(); v.text {
		case "user.home":
			return home, true
		case "user.dir":
			return lispArg{text: ".", str: true}, true
		}
	case "System/getenv":
		if v, _ := first(); v.text == "HOME" {
			return home, true
		}
	case "fs/home", "babashka.fs/home":
		if len(args) == 0 {
			return home, true
		}
	case "fs/cwd", "babashka.fs/cwd":
		return lispArg{text: ".", str: true}, true
	case "fs/expand-home", "babashka.fs/expand-home", "fs/absolutize", "babashka.fs/absolutize",
		"fs/canonicalize", "babashka.fs/canonicalize", "fs/normalize", "babashka.fs/normalize":
		if v, ok := first(); ok {
			v.home = v.home || strings.HasPrefix(name, "fs/expand") || strings.HasPrefix(name, "babashka.fs/expand")
			v.home = v.home && (v.text == "~" || strings.HasPrefix(v.text, "~/"))
			return v, true
		}
	case "str", "io/file", "clojure.java.io/file", "fs/path", "babashka.fs/path", "fs/file", "babashka.fs/file",
		"java.io.File.", "File.":
		sep := "/"
		if name == "str" {
			sep = ""
		}
		if len(args) == 0 {
			return lispArg{}, false
		}
		out := lispArg{str: true}
		for _, a := range args {
			if !a.str {
				return lispArg{}, false
			}
			switch {
			case out.text == "" || sep != "" && strings.HasPrefix(a.text, "/"):
				out.text, out.home = a.text, a.home
			case sep != "" && !strings.HasSuffix(out.text, sep):
				out.text += sep + a.text
			default:
				out.text += a.text
			}
		}
		return out, true
	}
	return lispArg{}, false
}
