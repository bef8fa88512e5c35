package oneliner

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Lisp: the code given to emacs --eval, guile -c, racket -e, sbcl --eval,
// clisp -x and the Clojures (bb, clojure -e). Which argument holds the
// code and which calls run programs or delete files are command facts
// (cmdfacts.LispCodes, cmdfacts.LookupLispCall, cmdfacts.ElispShellCommands);
// this file reads the code: a call's string arguments, quoted lists,
// Clojure vectors and the nested Clojure forms whose value is a known
// path. Unlike Effects, the result keeps the shell-word form: each call
// is a cmdfacts.Payload (a shell line or an argv, as known as the
// expression it comes from), which the shell analysis runs as a command of
// its own.

// LispPayloads returns the commands code's expression runs: the command
// lines of Emacs's shell-command family, and every call of
// cmdfacts.LookupLispCall(code.Dialect, ...) as the shell command it
// amounts to (a program run, a delete as rm -f / rm -rf / rmdir), Via
// naming the evaluator and the call ("emacs delete-file", "bb sh").
// Cost: linear in the expression's length for code without known calls;
// each known call reads its form once, nested Clojure forms to a depth of
// maxClojureNest.
func LispPayloads(code cmdfacts.LispCode) []cmdfacts.Payload {
	p := &lispReader{name: code.Name}
	expr := code.Expr
	if code.Dialect == "elisp" {
		for _, fn := range cmdfacts.ElispShellCommands {
			for _, s := range lispCallStrings(expr.Value, fn) {
				p.line(cmdfacts.Piece(expr, 0, len(expr.Value), s), code.Name+" "+fn)
			}
		}
	}
	p.forms(expr, code.Dialect)
	return p.out
}

// lispReader collects the payloads of one evaluator's expression.
type lispReader struct {
	name string
	out  []cmdfacts.Payload
}

func (p *lispReader) line(w ir.Word, via string) {
	if strings.TrimSpace(w.Value) == "" {
		return
	}
	p.out = append(p.out, cmdfacts.Payload{Via: via, Line: &w})
}

func (p *lispReader) argv(ws []ir.Word, via string) {
	if len(ws) > 0 {
		p.out = append(p.out, cmdfacts.Payload{Via: via, Argv: ws})
	}
}

// lispCallStrings returns the first string argument of each (fn "..." ...)
// in s (Emacs Lisp strings: \n and \t are a newline and a tab, another
// escaped character stands for itself).
func lispCallStrings(s, fn string) []string {
	var out []string
	tok := "(" + fn
	for i := 0; i <= len(s); {
		at := strings.Index(s[i:], tok)
		if at < 0 {
			break
		}
		k := i + at
		i = k + len(tok)
		j := i
		if j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
			continue
		}
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			j++
		}
		if j < len(s) && s[j] == '"' {
			if text, _, ok := readLispString(s[j:], true); ok {
				out = append(out, text)
			}
		}
	}
	return out
}

// forms reads every call of cmdfacts.LookupLispCall(dialect, ...) in
// expr's text.
func (p *lispReader) forms(expr ir.Word, dialect string) {
	s := expr.Value
	for k := 0; k < len(s); k++ {
		if s[k] != '(' {
			continue
		}
		name := lispName(s[k+1:], dialect)
		call, ok := cmdfacts.LookupLispCall(dialect, name)
		if !ok {
			continue // only known calls are read: the scan stays linear for other code
		}
		_, args := lispForm(s[k+1:], dialect)
		via := p.name + " " + name
		switch {
		case call.Shell && len(args) > 0 && args[0].str:
			p.line(cmdfacts.Piece(expr, 0, len(s), args[0].text), via)
		case call.Words && len(args) == 1 && args[0].str:
			var ws []ir.Word
			for _, f := range strings.Fields(args[0].text) {
				ws = append(ws, cmdfacts.Piece(expr, 0, len(s), f))
			}
			p.argv(ws, via)
		case (call.Argv || call.Words) && dialect == "clojure" && call.Prog < len(args) && args[call.Prog].str:
			// An argv; as a shell line (quoted words, ~ left to the
			// shell) when a word is the home directory.
			var line []string
			var ws []ir.Word
			home := false
			for _, x := range args[call.Prog:] {
				if !x.str {
					line = nil // a value computed at run time
					break
				}
				home = home || x.home
				line = append(line, shellPath(x.text, x.home))
				ws = append(ws, cmdfacts.Piece(expr, 0, len(s), x.text))
			}
			switch {
			case line == nil:
			case home:
				p.line(cmdfacts.Piece(expr, 0, len(s), strings.Join(line, " ")), via)
			default:
				p.argv(ws, via)
			}
		case call.Argv && call.Prog < len(args) && args[call.Prog].str:
			var ws []ir.Word
			for _, x := range args[call.Prog:] {
				if x.str {
					ws = append(ws, cmdfacts.Piece(expr, 0, len(s), x.text))
				}
			}
			if call.Prog == 0 && dialect == "elisp" && len(args) >= 4 {
				ws = ws[:1] // call-process PROGRAM INFILE DESTINATION DISPLAY ARGS...
				for _, x := range args[4:] {
					if x.str {
						ws = append(ws, cmdfacts.Piece(expr, 0, len(s), x.text))
					}
				}
			}
			p.argv(ws, via)
		case call.Rm != "" && len(args) > 0 && args[0].str:
			rm := call.Rm
			if call.RmRecursive != "" && len(args) > 1 && args[1].text != "nil" {
				rm = call.RmRecursive
			}
			p.line(cmdfacts.Piece(expr, 0, len(s), rm+" -- "+shellPath(args[0].text, dialect == "elisp" || args[0].home)), via)
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
			text, n, ok := readLispString(s[i:], false)
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

// readLispString reads a "..." literal at the start of s: its value and
// length. A backslash escapes the next character; with escapes, \n and \t
// are a newline and a tab (Emacs Lisp), else every escaped character
// stands for itself.
func readLispString(s string, escapes bool) (string, int, bool) {
	var sb strings.Builder
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return sb.String(), j + 1, true
		case c == '\\' && j+1 < len(s):
			j++
			switch {
			case escapes && s[j] == 'n':
				sb.WriteByte('\n')
			case escapes && s[j] == 't':
				sb.WriteByte('\t')
			default:
				sb.WriteByte(s[j])
			}
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
			text, n, ok := readLispString(s[i:], false)
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
			_, n, ok := readLispString(s[i:], false)
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
