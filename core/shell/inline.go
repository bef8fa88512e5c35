package shell

import (
	"strings"
	"sync"
)

// This file finds interpreter one-liners in a command (node -e, python -c,
// perl -e, awk programs, ...) and scans their code for the files they
// delete or write and the shell commands they run. Both the danger gate and
// the project fence use it.
//
// The scan is lexical, per language: string literals, comments, regex
// literals and interpolation are told apart so that data (a regex
// /rm -rf/, a printed string) never counts, and a call's arguments are
// evaluated only when they are literals (or single-assignment variables,
// joins and home-directory expressions built from literals). It never
// panics and does linear work, on at most inlMaxCode bytes of code.

// Inline is one interpreter one-liner found in a command.
type Inline struct {
	// Lang is the language: "node", "python", "perl", "ruby", "php",
	// "awk", "osascript" (AppleScript), "jxa" (osascript -l JavaScript),
	// "deno" or "bun". Pass it to ScriptEffects.
	Lang string
	// Code is the script text (the Word.Value of the code argument, the
	// -e arguments of perl/ruby/osascript joined with newlines, or the
	// command's Stdin).
	Code string
	// Via says where the code came from: the command name and switch as
	// written ("python3 -c", "node --eval", "perl -e", "deno eval", "awk",
	// "python3 stdin" for a heredoc or here-string).
	Via string
	// Unknown is set when the code argument contains unresolved shell
	// expansions ($VAR, $(...)); Code then holds their source text.
	Unknown bool
	// FromStdin is set when Code is the command's Stdin.
	FromStdin bool
	// InPlace is set for in-place editing (perl -i, ruby -i, gawk -i
	// inplace): the program rewrites the files in Files.
	InPlace bool
	// Files are the operands after the program (the files perl -n/-p/-i,
	// ruby -n/-p/-i and awk read, or edit when InPlace), without awk's
	// var=value operands.
	Files []Word
}

// InlineScripts returns the one-liners command c runs: node/nodejs
// -e/--eval/-p/--print (also --eval=CODE), python/python3/pythonX.Y/py/pypy
// -c (also -cCODE and bundled -Bc), perl -e/-E (bundled: -ne, -lane, -pie),
// ruby -e, php -r/-B/-R/-E, deno eval (and repl --eval), bun -e/--eval/-p,
// awk/gawk/mawk/nawk's program (the first operand unless -f or -e/--source
// is given; -F, -v, -i... are skipped), osascript -e (every occurrence).
// An interpreter given no code and no script file takes its Stdin (a
// heredoc or here-string) as code; awk never does (its input is data).
// Option parsing stops at the first operand, as the interpreters do, so
// `node app.js -e x` has no one-liner. c.Name must be the normalised name
// (Command.Name). Cost: linear in the arguments.
func InlineScripts(c *Command) []Inline {
	if c == nil || len(c.Args) == 0 {
		return nil
	}
	r := &inlRunner{c: c, lang: inlLangOf(c.Name)}
	args := c.Args[1:]
	switch r.lang {
	case "node":
		r.node(args)
	case "bun":
		r.bun(args)
	case "deno":
		r.deno(args)
	case "python":
		r.python(args)
	case "perl":
		r.perl(args)
	case "ruby":
		r.ruby(args)
	case "php":
		r.php(args)
	case "awk":
		r.awk(args)
	case "osascript":
		r.osascript(args)
	}
	return r.out
}

// inlLangOf maps a normalised command name to its language, or "".
func inlLangOf(name string) string {
	switch name {
	case "nodejs":
		return "node"
	case "py", "pypy", "pypy3":
		return "python"
	case "deno", "bun", "osascript":
		return name
	case "awk", "gawk", "mawk", "nawk", "goawk":
		return "awk"
	}
	for _, base := range []string{"python", "perl", "ruby", "php", "node"} {
		if strings.HasPrefix(name, base) && inlVersionSuffix(name[len(base):]) {
			return base
		}
	}
	return ""
}

// inlVersionSuffix accepts "", "3", "3.12", "3.13t", "5.36.0", "w".
func inlVersionSuffix(s string) bool {
	if len(s) > 0 {
		if c := s[len(s)-1]; c >= 'a' && c <= 'z' {
			s = s[:len(s)-1]
		}
	}
	if s == "" {
		return true
	}
	if s[0] < '0' || s[0] > '9' {
		return false
	}
	return strings.Trim(s, "0123456789.") == ""
}

type inlRunner struct {
	c    *Command
	lang string
	out  []Inline
}

func (r *inlRunner) add(code Word, via string) {
	r.out = append(r.out, Inline{Lang: r.lang, Code: code.Value, Via: r.c.Name + " " + via, Unknown: code.Unknown})
}

// attached returns the code glued to a switch ("--eval=CODE", "-cCODE").
func inlAttached(w Word, code string) Word {
	return Word{Value: code, Raw: code, Unknown: w.Unknown, KnownPrefix: code}
}

func (r *inlRunner) stdinCode() {
	if r.c.Stdin == "" {
		return
	}
	r.out = append(r.out, Inline{Lang: r.lang, Code: r.c.Stdin, Via: r.c.Name + " stdin", FromStdin: true})
}

func inlOneOf(v, list string) bool {
	for _, f := range strings.Fields(list) {
		if v == f {
			return true
		}
	}
	return false
}

func (r *inlRunner) node(args []Word) {
	const evalOpts = "-e --eval -p --print -pe -ep"
	const valueOpts = "-r --require --import --loader --experimental-loader -C --conditions --input-type --title " +
		"--env-file --inspect-port --redirect-warnings --openssl-config --icu-data-dir --disable-warning --watch-path " +
		"--stack-size --diagnostic-dir --report-dir --report-directory --cpu-prof-dir --heap-prof-dir --test-reporter " +
		"--test-reporter-destination"
	script := false
loop:
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case inlOneOf(v, evalOpts):
			if i+1 < len(args) {
				i++
				r.add(args[i], v)
			}
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
			flag, code, _ := strings.Cut(v, "=")
			r.add(inlAttached(args[i], code), flag)
		case v == "-":
			break loop
		case v == "--":
			script = i+1 < len(args)
			break loop
		case inlOneOf(v, valueOpts):
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			script = true
			break loop
		}
	}
	if len(r.out) == 0 && !script {
		r.stdinCode()
	}
}

func (r *inlRunner) bun(args []Word) {
	const valueOpts = "--cwd -r --preload --config -c --env-file --tsconfig-override --define -d --loader -l " +
		"--port --conditions --main-fields --extension-order --jsx-factory --jsx-fragment --jsx-import-source " +
		"--jsx-runtime --origin"
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case inlOneOf(v, "-e --eval -p --print"):
			if i+1 < len(args) {
				i++
				r.add(args[i], v)
			}
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
			flag, code, _ := strings.Cut(v, "=")
			r.add(inlAttached(args[i], code), flag)
		case inlOneOf(v, valueOpts):
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			return // a subcommand or a script file
		}
	}
}

func (r *inlRunner) deno(args []Word) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if strings.HasPrefix(v, "-") {
			if v == "-L" || v == "--log-level" {
				i++
			}
			continue
		}
		rest := args[i+1:]
		switch v {
		case "eval":
			const valueOpts = "--ext --config -c --import-map --cert --location --seed"
			for j := 0; j < len(rest); j++ {
				w := rest[j].Value
				switch {
				case inlOneOf(w, valueOpts):
					j++
				case strings.HasPrefix(w, "-") && len(w) > 1:
				default:
					r.add(rest[j], "eval")
					return
				}
			}
		case "repl":
			for j := 0; j < len(rest); j++ {
				w := rest[j].Value
				switch {
				case w == "--eval" && j+1 < len(rest):
					r.add(rest[j+1], "repl --eval")
					j++
				case strings.HasPrefix(w, "--eval="):
					r.add(inlAttached(rest[j], w[len("--eval="):]), "repl --eval")
				}
			}
		case "run":
			for _, w := range rest {
				if w.Value == "-" {
					r.stdinCode()
					return
				}
				if !strings.HasPrefix(w.Value, "-") {
					return
				}
			}
		}
		return
	}
}

func (r *inlRunner) python(args []Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case v == "-":
			r.stdinCode()
			return
		case v == "--":
			if i+1 == len(args) {
				r.stdinCode()
			}
			return
		case strings.HasPrefix(v, "--"):
			if v == "--check-hash-based-pycs" {
				i++
			}
		case len(v) > 1 && v[0] == '-':
			if r.c.Name == "py" && (v[1] >= '0' && v[1] <= '9' || strings.HasPrefix(v, "-V:")) {
				continue // launcher version switch: -3, -3.12, -V:3.12
			}
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'c':
					if j+1 < len(v) {
						r.add(inlAttached(a, v[j+1:]), "-c")
					} else if i+1 < len(args) {
						r.add(args[i+1], "-c")
					}
					return
				case 'm':
					return // a module runs; no inline code
				case 'W', 'X', 'Q':
					if j+1 == len(v) {
						i++
					}
					j = len(v)
				}
			}
		default:
			return // a script file
		}
	}
	r.stdinCode()
}

// bundled scans perl/ruby style bundled switches (-lane, -pie, -rjson).
// valueNext lists the switches whose value is the rest of the bundle or,
// when that is empty, the next argument; valueRest those whose value is
// only the rest of the bundle; digits those followed by optional digits.
func (r *inlRunner) bundled(args []Word, valueNext, valueRest, digits string) {
	var codes []string
	unknown, inPlace, script := false, false, false
	via := "-e"
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case v == "--":
			i++
			script = len(codes) == 0 && i < len(args)
			break loop
		case v == "-":
			i++
			if len(codes) == 0 {
				r.stdinCode()
				return
			}
			break loop
		case strings.HasPrefix(v, "--"):
			if inlOneOf(v, "--encoding --external-encoding --internal-encoding") {
				i++
			}
			continue
		case len(v) < 2 || v[0] != '-':
			script = len(codes) == 0
			break loop
		}
		for j := 1; j < len(v); j++ {
			ch := v[j]
			switch {
			case ch == 'e' || ch == 'E' && r.lang == "perl":
				code, cw := v[j+1:], a
				if code == "" && i+1 < len(args) {
					i++
					cw = args[i]
					code = cw.Value
				}
				codes = append(codes, code)
				unknown = unknown || cw.Unknown
				via = "-" + string(ch)
				j = len(v)
			case ch == 'i':
				inPlace = true
				if rest := v[j+1:]; rest != "e" && rest != "E" {
					j = len(v) // -i.bak: the rest is the backup suffix; -pie means -p -i -e
				}
			case strings.IndexByte(valueNext, ch) >= 0:
				if j+1 == len(v) {
					i++
				}
				j = len(v)
			case strings.IndexByte(valueRest, ch) >= 0:
				j = len(v)
			case strings.IndexByte(digits, ch) >= 0:
				for j+1 < len(v) && (v[j+1] >= '0' && v[j+1] <= '9' || v[j+1] >= 'a' && v[j+1] <= 'f' || v[j+1] == 'x') {
					j++
				}
			}
		}
	}
	if len(codes) == 0 {
		if !script {
			r.stdinCode()
		}
		return
	}
	in := Inline{Lang: r.lang, Code: strings.Join(codes, "\n"), Via: r.c.Name + " " + via, Unknown: unknown, InPlace: inPlace}
	if i < len(args) {
		in.Files = args[i:]
	}
	r.out = append(r.out, in)
}

func (r *inlRunner) perl(args []Word) { r.bundled(args, "", "IMmxdDCFV", "l0") }

func (r *inlRunner) ruby(args []Word) { r.bundled(args, "rICXE", "FxKTW", "0") }

func (r *inlRunner) php(args []Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case inlOneOf(v, "-r -B -R -E --run --process-begin --process-code --process-end"):
			if i+1 < len(args) {
				i++
				r.add(args[i], v)
			}
		case len(v) > 2 && strings.HasPrefix(v, "-r"):
			r.add(inlAttached(a, v[2:]), "-r")
		case inlOneOf(v, "-c -d -z -t -S -F --rf --rc --re --rz --ri -A"):
			i++
		case v == "-f" || v == "--":
			return
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			return // a script file
		}
	}
	if len(r.out) == 0 {
		r.stdinCode()
	}
}

func (r *inlRunner) awk(args []Word) {
	var sources []Word
	hasFile, inPlace := false, false
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case v == "--":
			i++
			break loop
		case len(v) < 2 || v[0] != '-':
			break loop
		case v == "-f" || v == "--file" || v == "-E" || v == "--exec":
			hasFile = true
			i++
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--exec="):
			hasFile = true
		case v == "-e" || v == "--source":
			if i+1 < len(args) {
				i++
				sources = append(sources, args[i])
			}
		case strings.HasPrefix(v, "--source="):
			sources = append(sources, inlAttached(a, v[len("--source="):]))
		case v == "-i" || v == "--include":
			if i+1 < len(args) {
				i++
				inPlace = inPlace || inlInplaceLib(args[i].Value)
			}
		case strings.HasPrefix(v, "--include="):
			inPlace = inPlace || inlInplaceLib(v[len("--include="):])
		case inlOneOf(v, "-F -v -l -W --load --field-separator --assign"):
			i++
		case strings.HasPrefix(v, "-f"):
			hasFile = true
		case strings.HasPrefix(v, "-i"):
			inPlace = inPlace || inlInplaceLib(v[2:])
		}
	}
	rest := args[min(i, len(args)):]
	codes := sources
	if len(sources) == 0 && !hasFile && len(rest) > 0 {
		codes = []Word{rest[0]}
		rest = rest[1:]
	}
	if len(codes) == 0 {
		return
	}
	in := Inline{Lang: "awk", Via: r.c.Name, InPlace: inPlace}
	var parts []string
	for _, w := range codes {
		parts = append(parts, w.Value)
		in.Unknown = in.Unknown || w.Unknown
	}
	in.Code = strings.Join(parts, "\n")
	for _, w := range rest {
		if eq := strings.IndexByte(w.Value, '='); eq > 0 && inlAwkName(w.Value[:eq]) {
			continue // var=value operand
		}
		in.Files = append(in.Files, w)
	}
	r.out = append(r.out, in)
}

func inlInplaceLib(v string) bool { return v == "inplace" || v == "inplace.awk" }

func inlAwkName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func (r *inlRunner) osascript(args []Word) {
	var codes []string
	unknown, script := false, false
	lang := "osascript"
loop:
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e":
			if i+1 < len(args) {
				i++
				codes = append(codes, args[i].Value)
				unknown = unknown || args[i].Unknown
			}
		case v == "-l":
			if i+1 < len(args) {
				i++
				if strings.EqualFold(args[i].Value, "JavaScript") {
					lang = "jxa"
				}
			}
		case v == "-s":
			i++
		case v == "-":
			break loop
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			script = true
			break loop
		}
	}
	r.lang = lang
	if len(codes) == 0 {
		if !script {
			r.stdinCode()
		}
		return
	}
	r.out = append(r.out, Inline{Lang: lang, Code: strings.Join(codes, "\n"), Via: r.c.Name + " -e", Unknown: unknown})
}

// ---------------------------------------------------------------------------
// Lexing one-liner code

// Language families of the code scanner.
const (
	inlJS     = 'j' // node, deno, bun, jxa
	inlPython = 'p'
	inlPerl   = 'l'
	inlRuby   = 'r'
	inlPHP    = 'h'
	inlAwk    = 'a'
	inlOSA    = 'o' // AppleScript
)

// inlFamily maps an Inline.Lang to its family, 0 when unknown.
func inlFamily(lang string) byte {
	switch lang {
	case "node", "deno", "bun", "jxa", "js", "javascript":
		return inlJS
	case "python":
		return inlPython
	case "perl":
		return inlPerl
	case "ruby":
		return inlRuby
	case "php":
		return inlPHP
	case "awk":
		return inlAwk
	case "osascript", "applescript":
		return inlOSA
	}
	return 0
}

// Token kinds.
const (
	tkIdent  = 'i'
	tkString = 's' // a string literal; parts hold interpolations
	tkExec   = 'x' // backticks, qx//, %x(): a shell command
	tkWords  = 'w' // qw(), %w(): a list of strings
	tkNumber = 'n'
	tkPunct  = 'p'
	tkLine   = 'l' // one or more line breaks
	tkRegex  = 'r'
)

type inlTok struct {
	kind  byte
	text  string    // identifier, punctuation, number; for strings the text when there is no interpolation
	parts []inlPart // string and exec tokens
	items []string  // word lists
	space bool      // whitespace before the token
	tmpl  bool      // a JS template literal
}

// inlPart is a piece of a string literal: text, or the source of an
// interpolated expression (expr set).
type inlPart struct {
	text string
	expr bool
}

type inlLexer struct {
	fam   byte
	s     string
	i     int
	space bool
	toks  []inlTok
}

// inlLex splits code into tokens. Comments are dropped; unterminated
// strings and comments run to the end of the text.
func inlLex(fam byte, code string) []inlTok {
	l := &inlLexer{fam: fam, s: code, toks: make([]inlTok, 0, len(code)/4+4)}
	if fam == inlJS && strings.HasPrefix(code, "#!") {
		l.skipLine()
	}
	for l.i < len(l.s) {
		l.next()
	}
	return l.toks
}

func (l *inlLexer) emit(t inlTok) {
	t.space = l.space
	l.space = false
	l.toks = append(l.toks, t)
}

func (l *inlLexer) skipLine() {
	for l.i < len(l.s) && l.s[l.i] != '\n' {
		l.i++
	}
}

func (l *inlLexer) skipTo(end string) {
	if k := strings.Index(l.s[l.i:], end); k >= 0 {
		l.i += k + len(end)
	} else {
		l.i = len(l.s)
	}
	l.space = true
}

func inlIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func inlIdentChar(c byte) bool { return inlIdentStart(c) || c >= '0' && c <= '9' }

func (l *inlLexer) peek(k int) byte {
	if l.i+k >= 0 && l.i+k < len(l.s) {
		return l.s[l.i+k]
	}
	return 0
}

func (l *inlLexer) next() {
	s, c := l.s, l.s[l.i]
	switch {
	case c == '\n':
		if n := len(l.toks); n == 0 || l.toks[n-1].kind != tkLine {
			l.emit(inlTok{kind: tkLine, text: "\n"})
		}
		l.i++
		l.space = true
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		l.i++
		l.space = true
	case c == '\\' && (l.peek(1) == '\n' || l.peek(1) == '\r' && l.peek(2) == '\n') && l.fam != inlPerl:
		l.i += 2
		l.space = true
	case l.comment():
	case c == '$' && (l.fam == inlPerl || l.fam == inlPHP || l.fam == inlRuby), c == '@' && (l.fam == inlPerl || l.fam == inlRuby):
		l.sigil()
	case c == '%' && l.fam == inlPerl && inlIdentStart(l.peek(1)) && l.operand():
		l.sigil()
	case c == '\'' || c == '"' || c == '`':
		l.quote()
	case c >= '0' && c <= '9':
		start := l.i
		for l.i < len(s) && (inlIdentChar(s[l.i]) || s[l.i] == '.' && l.i+1 < len(s) && s[l.i+1] != '.') {
			l.i++
		}
		l.emit(inlTok{kind: tkNumber, text: s[start:l.i]})
	case inlIdentStart(c) || c == '$' && l.fam == inlJS:
		l.ident()
	case c == '/' && (l.fam == inlJS || l.fam == inlPerl || l.fam == inlRuby || l.fam == inlAwk) && l.operand():
		if !l.regex() {
			l.punct()
		}
	case c == '%' && l.fam == inlRuby && l.operand() && l.rubyPercent():
	case c == ':' && l.fam == inlRuby && inlIdentStart(l.peek(1)) && l.operand() && l.peek(-1) != ':':
		start := l.i + 1
		l.i++
		for l.i < len(s) && inlIdentChar(s[l.i]) {
			l.i++
		}
		l.emit(inlTok{kind: tkString, text: s[start:l.i]}) // a symbol
	case l.fam == inlPHP && strings.HasPrefix(s[l.i:], "<<<"):
		l.phpHeredoc()
	case l.fam == inlPHP && strings.HasPrefix(s[l.i:], "<?php"):
		l.i += 5
		l.space = true
	case l.fam == inlPHP && strings.HasPrefix(s[l.i:], "<?="):
		l.i += 3
		l.space = true
	case l.fam == inlPHP && strings.HasPrefix(s[l.i:], "?>"):
		l.i += 2
		l.space = true
	default:
		l.punct()
	}
}

// comment skips a comment at l.i and reports whether there was one.
func (l *inlLexer) comment() bool {
	c, d := l.s[l.i], l.peek(1)
	switch {
	case c == '/' && d == '/' && (l.fam == inlJS || l.fam == inlPHP):
		l.skipLine()
	case c == '/' && d == '*' && (l.fam == inlJS || l.fam == inlPHP):
		l.i += 2
		l.skipTo("*/")
	case c == '#' && l.fam != inlJS && !(l.fam == inlPHP && d == '['):
		l.skipLine()
	case c == '-' && d == '-' && l.fam == inlOSA:
		l.skipLine()
	case c == '(' && d == '*' && l.fam == inlOSA:
		l.i += 2
		l.skipTo("*)")
	case c == '=' && l.fam == inlRuby && strings.HasPrefix(l.s[l.i:], "=begin") && (l.i == 0 || l.s[l.i-1] == '\n'):
		l.skipTo("\n=end")
		l.skipLine()
	default:
		return false
	}
	return true
}

// operand reports whether the position is where a value may start (so /
// begins a regex, % a Ruby literal), judged from the previous token.
func (l *inlLexer) operand() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tkLine:
		return true
	case tkPunct:
		return t.text != ")" && t.text != "]" && t.text != "}"
	case tkIdent:
		if inlRegexAfter[t.text] {
			return true
		}
		// `grep /x/` in Perl, `x.match /re/` in Ruby: a space before the
		// slash and none after it.
		return (l.fam == inlPerl || l.fam == inlRuby) && l.space && l.peek(1) != ' ' && l.peek(1) != '='
	}
	return false
}

// inlRegexAfter lists keywords after which / starts a regex literal.
var inlRegexAfter = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
	"if": true, "unless": true, "and": true, "or": true, "not": true, "while": true, "until": true,
	"split": true, "grep": true, "map": true, "join": true, "when": true, "print": true, "push": true,
	"unshift": true, "x": true, "eq": true, "ne": true, "lt": true, "gt": true, "le": true, "ge": true,
	"cmp": true, "match": true, "scan": true, "sub": true, "gsub": true, "elsif": true, "then": true,
}

func (l *inlLexer) ident() {
	s := l.s
	start := l.i
	for l.i < len(s) && (inlIdentChar(s[l.i]) || s[l.i] == '$' && l.fam == inlJS) {
		l.i++
	}
	if l.fam == inlRuby && l.i < len(s) && (s[l.i] == '?' || s[l.i] == '!') && l.peek(1) != '=' {
		l.i++
	}
	name := s[start:l.i]
	switch l.fam {
	case inlPython:
		if q := l.peek(0); (q == '\'' || q == '"') && len(name) <= 2 && strings.Trim(strings.ToLower(name), "rbuf") == "" {
			l.pyString(strings.ToLower(name))
			return
		}
	case inlPerl:
		if l.perlQuote(name) {
			return
		}
	}
	l.emit(inlTok{kind: tkIdent, text: name})
}

// sigil lexes $x, @x, %x (Perl), $x (PHP), @x, @@x, $x (Ruby).
func (l *inlLexer) sigil() {
	s := l.s
	start := l.i
	l.i++
	for l.i < len(s) && (s[l.i] == '@' || s[l.i] == '$') && l.i-start < 2 {
		l.i++ // @@x, $$x
	}
	if l.i < len(s) && s[l.i] == '#' && l.fam == inlPerl {
		l.i++ // $#array
	}
	if l.i < len(s) && inlIdentStart(s[l.i]) {
		for l.i < len(s) && inlIdentChar(s[l.i]) {
			l.i++
		}
		for l.fam == inlPerl && l.i+2 < len(s) && s[l.i] == ':' && s[l.i+1] == ':' && inlIdentStart(s[l.i+2]) {
			l.i += 2
			for l.i < len(s) && inlIdentChar(s[l.i]) {
				l.i++
			}
		}
	} else if l.i < len(s) && l.i == start+1 && s[l.i] != '{' && s[l.i] != ' ' && s[l.i] != '\n' && s[l.i] < 0x80 {
		l.i++ // $_ $0 $! $@ $/ ...
	}
	l.emit(inlTok{kind: tkIdent, text: s[start:l.i]})
}

var inlPuncts = []string{
	"<<<", "===", "!==", "**=", "...", "<<=", ">>=", "<=>", "||=", "&&=", "//=", "??=",
	"=>", "->", "::", "?.", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=",
	".=", "%=", "|=", "&=", "^=", "**", "<<", ">>", "=~", "!~", "..", ":=", "//", "??",
}

// inlPunctsBy lists the multi-character operators by their first byte.
var inlPunctsBy = func() map[byte][]string {
	m := map[byte][]string{}
	for _, p := range inlPuncts {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}()

func (l *inlLexer) punct() {
	rest := l.s[l.i:]
	for _, p := range inlPunctsBy[rest[0]] {
		if strings.HasPrefix(rest, p) {
			if p == "//" && l.fam != inlPerl && l.fam != inlPython {
				break
			}
			l.i += len(p)
			l.emit(inlTok{kind: tkPunct, text: p})
			return
		}
	}
	r := winRuneAt(l.s, l.i)
	l.i += len(r)
	l.emit(inlTok{kind: tkPunct, text: r})
}

// regex lexes a /.../flags literal; false when no closing slash is on the
// line (then / is division).
func (l *inlLexer) regex() bool {
	s := l.s
	j, class := l.i+1, false
	for ; j < len(s) && s[j] != '\n'; j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '/':
			if !class {
				j++
				for j < len(s) && s[j] >= 'a' && s[j] <= 'z' {
					j++
				}
				l.emit(inlTok{kind: tkRegex, text: s[l.i:j]})
				l.i = j
				return true
			}
		}
	}
	return false
}

func (l *inlLexer) quote() {
	c := l.s[l.i]
	mode := byte(0)
	switch l.fam {
	case inlJS:
		mode = map[byte]byte{'\'': 'e', '"': 'e', '`': 't'}[c]
	case inlPython:
		if c != '`' {
			l.pyString("")
			return
		}
	case inlPerl:
		mode = map[byte]byte{'\'': 'q', '"': 'p', '`': 'p'}[c]
	case inlRuby:
		mode = map[byte]byte{'\'': 'q', '"': 'r', '`': 'r'}[c]
	case inlPHP:
		mode = map[byte]byte{'\'': 'q', '"': 'h', '`': 'h'}[c]
	case inlAwk, inlOSA:
		if c == '"' {
			mode = 'e'
		}
	}
	if mode == 0 {
		l.punct()
		return
	}
	l.i++
	parts := l.body(c, c, mode, false)
	kind := byte(tkString)
	if c == '`' && l.fam != inlJS {
		kind = tkExec
	}
	l.emitString(kind, parts, c == '`' && l.fam == inlJS)
}

func (l *inlLexer) emitString(kind byte, parts []inlPart, tmpl bool) {
	t := inlTok{kind: kind, parts: parts, tmpl: tmpl}
	if len(parts) == 0 {
		t.parts = nil
	} else if len(parts) == 1 && !parts[0].expr {
		t.text, t.parts = parts[0].text, nil
	}
	l.emit(t)
}

// pyString lexes a Python string with the given prefix letters at l.i.
func (l *inlLexer) pyString(prefix string) {
	q := l.s[l.i]
	triple := strings.HasPrefix(l.s[l.i:], string([]byte{q, q, q}))
	if triple {
		l.i += 3
	} else {
		l.i++
	}
	raw := strings.Contains(prefix, "r")
	mode := byte('e')
	switch {
	case strings.Contains(prefix, "f") && raw:
		mode = 'F'
	case strings.Contains(prefix, "f"):
		mode = 'f'
	case raw:
		mode = 'P'
	}
	l.emitString(tkString, l.body(q, q, mode, triple), false)
}

// body scans string contents after the opening delimiter up to the closing
// one (open != close nests, as in q{a{b}}), decoding escapes and noting
// interpolations by mode:
//
//	e: backslash escapes        q: only \\ and \<delim> (single quotes)
//	P: Python raw               t: JS template, ${...}
//	f: Python f-string, {...}   F: raw f-string
//	p: Perl "...", $x @x        h: PHP "...", $x {$x}
//	r: Ruby "...", #{...}       n: no escapes at all
func (l *inlLexer) body(open, close byte, mode byte, triple bool) []inlPart {
	s := l.s
	var parts []inlPart
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			parts = append(parts, inlPart{text: b.String()})
			b.Reset()
		}
	}
	expr := func(e string) {
		flush()
		parts = append(parts, inlPart{text: e, expr: true})
	}
	nest := 0
	for l.i < len(s) {
		c := s[l.i]
		if c == close && nest == 0 {
			if !triple {
				l.i++
				break
			}
			if strings.HasPrefix(s[l.i:], string([]byte{c, c, c})) {
				l.i += 3
				break
			}
		}
		if open != close {
			if c == open {
				nest++
			} else if c == close {
				nest--
			}
		}
		if c == '\\' && l.i+1 < len(s) && mode != 'n' {
			d := s[l.i+1]
			switch mode {
			case 'q':
				if d == '\\' || d == close || d == open {
					b.WriteByte(d)
				} else {
					b.WriteByte('\\')
					b.WriteByte(d)
				}
				l.i += 2
			case 'P', 'F':
				b.WriteByte('\\')
				b.WriteByte(d)
				l.i += 2
			default:
				l.i++
				l.escape(&b)
			}
			continue
		}
		switch {
		case mode == 't' && c == '$' && l.peek(1) == '{',
			mode == 'r' && c == '#' && l.peek(1) == '{',
			mode == 'h' && c == '{' && l.peek(1) == '$':
			start := l.i + 2
			if mode == 'h' {
				start = l.i + 1
			}
			end := inlBrace(s, start)
			expr(s[start:end])
			l.i = min(end+1, len(s))
			continue
		case (mode == 'f' || mode == 'F') && c == '{':
			if l.peek(1) == '{' {
				b.WriteByte('{')
				l.i += 2
				continue
			}
			end := inlBrace(s, l.i+1)
			expr(inlFormatField(s[l.i+1 : end]))
			l.i = min(end+1, len(s))
			continue
		case (mode == 'f' || mode == 'F') && c == '}' && l.peek(1) == '}':
			b.WriteByte('}')
			l.i += 2
			continue
		case mode == 'r' && c == '#' && (l.peek(1) == '@' || l.peek(1) == '$'):
			start := l.i
			l.i += 2
			for l.i < len(s) && (inlIdentChar(s[l.i]) || s[l.i] == '@') {
				l.i++
			}
			expr(s[start+1 : l.i])
			continue
		case (mode == 'p' || mode == 'h') && c == '$' || mode == 'p' && c == '@':
			if e, n := inlInterpVar(s[l.i:], mode); n > 0 {
				expr(e)
				l.i += n
				continue
			}
		}
		r := winRuneAt(s, l.i)
		b.WriteString(r)
		l.i += len(r)
	}
	flush()
	return parts
}

// escape decodes a backslash escape whose letter is at l.i.
func (l *inlLexer) escape(b *strings.Builder) {
	s := l.s
	c := s[l.i]
	l.i++
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '0':
		b.WriteByte(0)
	case 'a':
		b.WriteByte('\a')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case 'e':
		b.WriteByte(0x1b)
	case '\n':
	case '\r':
		if l.i < len(s) && s[l.i] == '\n' {
			l.i++
		}
	case 'x', 'u':
		n := 2
		if c == 'u' {
			n = 4
		}
		if l.i < len(s) && s[l.i] == '{' {
			if k := strings.IndexByte(s[l.i:], '}'); k > 1 && k <= 9 {
				if r, ok := inlHex(s[l.i+1 : l.i+k]); ok {
					b.WriteRune(r)
					l.i += k + 1
					return
				}
			}
		}
		if l.i+n <= len(s) {
			if r, ok := inlHex(s[l.i : l.i+n]); ok {
				b.WriteRune(r)
				l.i += n
				return
			}
		}
		b.WriteByte(c)
	default:
		r := winRuneAt(s, l.i-1)
		b.WriteString(r)
		l.i += len(r) - 1
	}
}

func inlHex(h string) (rune, bool) {
	var r rune
	for i := 0; i < len(h); i++ {
		d := strings.IndexByte("0123456789abcdef", h[i]|0x20)
		if d < 0 {
			return 0, false
		}
		r = r*16 + rune(d)
	}
	return r, r <= 0x10FFFF
}

// inlBrace returns the index of the } closing a brace group whose inside
// starts at i, skipping nested braces and quoted text; len(s) when none.
func inlBrace(s string, i int) int {
	level := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '{':
			level++
		case '}':
			if level == 0 {
				return i
			}
			level--
		case '\'', '"', '`':
			if k := strings.IndexByte(s[i+1:], s[i]); k >= 0 && !strings.Contains(s[i+1:i+1+k], "\n") {
				i += k + 1
			}
		}
	}
	return len(s)
}

// inlFormatField strips a Python format field's conversion and spec
// ({x!r:>10} → x).
func inlFormatField(f string) string {
	level := 0
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '(', '[', '{':
			level++
		case ')', ']', '}':
			level--
		case '!', ':':
			if level == 0 && !(f[i] == '!' && i+1 < len(f) && f[i+1] == '=') {
				return f[:i]
			}
		}
	}
	return strings.TrimSuffix(strings.TrimSpace(f), "=")
}

// inlInterpVar measures a Perl or PHP variable interpolated in a double-
// quoted string at the start of s ($x, ${x}, $x{k}, $x[0], $x->[0],
// $x->y, @x); it returns the expression and its length, or 0 when the $ or
// @ is literal.
func inlInterpVar(s string, mode byte) (string, int) {
	if len(s) < 2 {
		return "", 0
	}
	sig := s[0]
	if s[1] == '{' {
		end := inlBrace(s, 2)
		inner := strings.TrimSpace(s[2:min(end, len(s))])
		return string(sig) + inner, min(end+1, len(s))
	}
	if !inlIdentStart(s[1]) {
		if mode == 'p' && sig == '$' && strings.IndexByte("&`'+_./,;!0123456789", s[1]) >= 0 {
			return s[:2], 2 // a Perl special variable
		}
		return "", 0
	}
	i := 1
	for i < len(s) && (inlIdentChar(s[i]) || mode == 'p' && s[i] == ':' && i+2 < len(s) && s[i+1] == ':' && inlIdentStart(s[i+2])) {
		if s[i] == ':' {
			i++
		}
		i++
	}
	for i < len(s) {
		switch {
		case s[i] == '[' || s[i] == '{' && mode == 'p':
			closer := byte(']')
			if s[i] == '{' {
				closer = '}'
			}
			k := strings.IndexByte(s[i:], closer)
			if k < 0 {
				return s[:i], i
			}
			i += k + 1
		case strings.HasPrefix(s[i:], "->") && i+2 < len(s) && (s[i+2] == '[' || s[i+2] == '{' || mode == 'h' && inlIdentStart(s[i+2])):
			i += 2
			if mode == 'h' {
				for i < len(s) && inlIdentChar(s[i]) {
					i++
				}
				return s[:i], i
			}
		default:
			return s[:i], i
		}
	}
	return s[:i], i
}

// inlDelims returns the closing delimiter for a quote-like opener.
func inlDelims(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return open
}

// perlQuote lexes q qq qw qx m qr s tr y with any delimiter; false when name
// is not one of them or is not used as a quote operator here.
func (l *inlLexer) perlQuote(name string) bool {
	switch name {
	case "q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y":
	default:
		return false
	}
	if n := len(l.toks); n > 0 && (l.toks[n-1].text == "->" || l.toks[n-1].text == "{" && l.peek(0) == '}') {
		return false
	}
	j := l.i
	for j < len(l.s) && (l.s[j] == ' ' || l.s[j] == '\t') {
		j++
	}
	if j >= len(l.s) {
		return false
	}
	d := l.s[j]
	if inlIdentChar(d) || d == ' ' || d == '\n' || d == '=' && j+1 < len(l.s) && l.s[j+1] == '>' || strings.IndexByte(",;)", d) >= 0 ||
		j > l.i && strings.IndexByte("({[</'\"|!", d) < 0 {
		return false
	}
	closer := inlDelims(d)
	l.i = j + 1
	switch name {
	case "q":
		l.emitString(tkString, l.body(d, closer, 'q', false), false)
	case "qq":
		l.emitString(tkString, l.body(d, closer, 'p', false), false)
	case "qx":
		mode := byte('p')
		if d == '\'' {
			mode = 'q'
		}
		l.emitString(tkExec, l.body(d, closer, mode, false), false)
	case "qw":
		parts := l.body(d, closer, 'n', false)
		var text string
		if len(parts) > 0 {
			text = parts[0].text
		}
		l.emit(inlTok{kind: tkWords, items: strings.Fields(text)})
	default: // m qr s tr y: patterns, never data we judge
		start := j
		l.body(d, closer, 'n', false)
		if name == "s" || name == "tr" || name == "y" {
			if closer != d {
				for l.i < len(l.s) && (l.s[l.i] == ' ' || l.s[l.i] == '\t' || l.s[l.i] == '\n') {
					l.i++
				}
				if l.i < len(l.s) {
					d2 := l.s[l.i]
					l.i++
					l.body(d2, inlDelims(d2), 'n', false)
				}
			} else {
				l.body(d, closer, 'n', false)
			}
		}
		for l.i < len(l.s) && l.s[l.i] >= 'a' && l.s[l.i] <= 'z' {
			l.i++
		}
		l.emit(inlTok{kind: tkRegex, text: l.s[start:l.i]})
	}
	return true
}

// rubyPercent lexes %q() %Q() %() %w() %i() %x() %r{} %s(); false when the
// % is an operator.
func (l *inlLexer) rubyPercent() bool {
	s := l.s
	j := l.i + 1
	kind := byte('Q')
	if j < len(s) && strings.IndexByte("qQwWiIxrs", s[j]) >= 0 && j+1 < len(s) && !inlIdentChar(s[j+1]) && s[j+1] != ' ' {
		kind = s[j]
		j++
	}
	if j >= len(s) || inlIdentChar(s[j]) || strings.IndexByte(" \t\n=", s[j]) >= 0 {
		return false
	}
	d := s[j]
	l.i = j + 1
	closer := inlDelims(d)
	switch kind {
	case 'q':
		l.emitString(tkString, l.body(d, closer, 'q', false), false)
	case 'Q', 's':
		l.emitString(tkString, l.body(d, closer, 'r', false), false)
	case 'x':
		l.emitString(tkExec, l.body(d, closer, 'r', false), false)
	case 'w', 'W', 'i', 'I':
		parts := l.body(d, closer, 'n', false)
		var text string
		if len(parts) > 0 {
			text = parts[0].text
		}
		l.emit(inlTok{kind: tkWords, items: strings.Fields(text)})
	case 'r':
		start := l.i - 1
		l.body(d, closer, 'n', false)
		for l.i < len(s) && s[l.i] >= 'a' && s[l.i] <= 'z' {
			l.i++
		}
		l.emit(inlTok{kind: tkRegex, text: s[start:l.i]})
	}
	return true
}

// phpHeredoc lexes <<<ID, <<<"ID" (interpolating) and <<<'ID' (nowdoc).
func (l *inlLexer) phpHeredoc() {
	s := l.s
	j := l.i + 3
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	quote := byte(0)
	if j < len(s) && (s[j] == '\'' || s[j] == '"') {
		quote = s[j]
		j++
	}
	start := j
	for j < len(s) && inlIdentChar(s[j]) {
		j++
	}
	id := s[start:j]
	nl := strings.IndexByte(s[j:], '\n')
	if id == "" || nl < 0 {
		l.i += 3
		l.emit(inlTok{kind: tkPunct, text: "<<<"})
		return
	}
	bodyStart := j + nl + 1
	end, next := len(s), len(s)
	for k := bodyStart; k < len(s); {
		line := s[k:]
		if e := strings.IndexByte(line, '\n'); e >= 0 {
			line = line[:e]
		}
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, id) && (len(t) == len(id) || !inlIdentChar(t[len(id)])) {
			end, next = max(k-1, bodyStart), k+len(line)-len(t)+len(id)
			break
		}
		k += len(line) + 1
	}
	text := s[bodyStart:end]
	mode := byte('h')
	if quote == '\'' {
		mode = 'n'
	}
	sub := &inlLexer{fam: l.fam, s: text}
	l.emitString(tkString, sub.body(0, 0, mode, false), false)
	l.i = next
}

// ---------------------------------------------------------------------------
// Effects

// Effect is one thing a script does that a layer may judge.
type Effect struct {
	// Op is "delete", "write" or "exec".
	Op string
	// Path is the file or directory deleted or written, when the call
	// names it with a literal (or a value built only from literals: a
	// single-assignment variable, path.join / os.path.join / File.join of
	// literals, ~ for the home directory from os.homedir(), Path.home(),
	// $ENV{HOME}, ...). "" when the path is built at run time: the target is
	// unknown. Environment variables other than HOME/USERPROFILE appear as
	// "$NAME".
	Path string
	// Command is the shell command line an exec effect runs. A literal
	// argument list is joined with POSIX quoting (['rm','-rf','/'] gives
	// "rm -rf /"); parts built at run time appear as ScriptDynamic. "" when
	// the whole command is unknown.
	Command string
	// API names the call: "fs.rmSync", "shutil.rmtree", "os.system",
	// "Path().unlink", "open", "backticks", "print >", "do shell script".
	API string
}

// ScriptDynamic stands for the run-time parts of an Effect.Command; parsed
// as a shell word it is an unset (unknown) variable.
const ScriptDynamic = "$ZF_DYNAMIC"

// Limits of the code scanner.
const (
	inlMaxCode    = 256 << 10 // bytes of code scanned
	inlMaxEffects = 256       // effects reported per script
	inlMaxEval    = 12        // expression evaluation depth
	inlMaxNest    = 3         // eval("...") and interpolation re-scans
	inlHole       = "\x00"    // an unknown part inside a string value
	// inlWorkPerToken bounds the scanner's steps (token visits and
	// evaluations) per token of code, so that no shape of code (Perl list
	// operators nested without end, calls nested 100,000 deep) makes the
	// work more than linear. Past the budget the rest is not judged.
	inlWorkPerToken = 16
	inlWorkMin      = 1 << 14
)

// ScriptEffects scans code in language lang (an Inline.Lang) and returns
// the files it deletes and writes and the shell commands it runs, in
// source order, de-duplicated:
//
//   - JS (node, deno, bun, jxa): fs.rm/rmSync/rmdir/unlink/writeFile/
//     appendFile/copyFile/cp/rename/truncate/mkdir/createWriteStream/open
//     and their Sync, fs.promises and fs-extra forms; child_process
//     exec/execSync/execFile/spawn/spawnSync; shelljs; execa; Deno.remove/
//     writeTextFile/writeFile/rename/mkdir/open, new Deno.Command, Deno.run;
//     Bun.write, Bun.file(p).delete(), Bun.spawn, Bun.$`...`; eval.
//   - Python: shutil.rmtree/move/copy*, os.remove/unlink/rmdir/removedirs/
//     rename/replace/truncate/mkdir/makedirs/open/system/popen/exec*/spawn*,
//     pathlib Path(p).unlink/rmdir/write_text/write_bytes/touch/mkdir/
//     rename/open, open(p, 'w'/'a'/'x'/'+'), subprocess.run/call/
//     check_call/check_output/Popen (string or list), exec(code).
//   - Perl: unlink, rmdir, rmtree/remove_tree, mkdir, make_path, rename,
//     File::Copy, open with > >> +< |- modes (2 and 3 arguments), sysopen,
//     system, exec, backticks, qx, eval "code".
//   - Ruby: File.delete/unlink/write/binwrite/rename/open, FileUtils.rm*/
//     remove*/mv/cp*/install/touch/mkdir_p, Dir.rmdir/mkdir, Pathname,
//     IO.write/popen, Open3, system/exec/spawn, backticks, %x().
//   - PHP: unlink, rmdir, file_put_contents, fopen (w a x c +), rename,
//     copy, mkdir, touch, system/exec/shell_exec/passthru/popen/proc_open,
//     backticks, eval.
//   - awk: system(), print/printf > and >> "file", print | "cmd" (with the
//     printed text as a command when cmd is a shell), "cmd" | getline.
//   - AppleScript: do shell script, Finder delete (POSIX file / file
//     paths), empty trash.
//
// Reads (open(p), fs.readFileSync) are not effects. Calls whose argument is
// built at run time are still reported, with Path or Command "". Unknown
// lang gives nil. Cost: linear in len(code), which is cut at 256 KiB.
func ScriptEffects(lang, code string) []Effect {
	return inlEffects(lang, code, 0, nil)
}

// ScriptExecs returns the Command of every exec effect of code that is not
// entirely unknown: the shell command lines the script runs, to be analysed
// in turn (they use ScriptDynamic for run-time parts).
func ScriptExecs(lang, code string) []string {
	var out []string
	for _, e := range ScriptEffects(lang, code) {
		if e.Op == "exec" && e.Command != "" {
			out = append(out, e.Command)
		}
	}
	return out
}

func inlEffects(lang, code string, depth int, work *int) []Effect {
	fam := inlFamily(lang)
	if fam == 0 || strings.TrimSpace(code) == "" {
		return nil
	}
	if len(code) > inlMaxCode {
		code = code[:inlMaxCode]
	}
	code = strings.ReplaceAll(code, "\x00", " ")
	p := newInlParser(fam, lang, code, depth, map[string]inlVal{}, work)
	p.prepass()
	switch fam {
	case inlAwk:
		p.awk()
	case inlOSA:
		p.osa()
	default:
		p.scan()
	}
	return p.effects
}

// inlVal is the value of an expression as far as the scanner knows it.
type inlVal struct {
	str    bool // a string; s holds it with inlHole for unknown parts
	s      string
	isList bool
	list   []inlVal
	obj    map[string]inlVal // an object / dict / hash literal
	mod    string            // a module or function reference (require('fs'), import aliases)
	ctor   string            // made by a path constructor: "Path()", "Pathname()", "Bun.file()", "path()"
}

func (v inlVal) known() bool { return v.str && !strings.Contains(v.s, inlHole) }

func inlStr(s string) inlVal { return inlVal{str: true, s: s} }

type inlArg struct {
	a, b int
	kw   string
}

type inlLink struct {
	name  string
	call  bool
	args  []inlArg
	index bool
	idx   []inlArg
}

type inlParser struct {
	work    *int // steps left, shared with nested scans
	fam     byte
	lang    string
	depth   int
	toks    []inlTok
	match   []int
	vars    map[string]inlVal
	star    []string // Python `from M import *`
	effects []Effect
	seen    map[Effect]bool
}

func newInlParser(fam byte, lang, code string, depth int, vars map[string]inlVal, work *int) *inlParser {
	p := &inlParser{fam: fam, lang: lang, depth: depth, vars: vars, seen: map[Effect]bool{}, work: work}
	p.toks = inlLex(fam, code)
	p.match = inlMatch(p.toks)
	if p.work == nil {
		n := max(len(p.toks)*inlWorkPerToken, inlWorkMin)
		p.work = &n
	}
	return p
}

// done reports that the work budget or the effect cap is used up.
func (p *inlParser) done() bool {
	return *p.work <= 0 || len(p.effects) >= inlMaxEffects
}

// inlMatch pairs brackets: match[i] is the index of the partner of an
// opener or closer, len(toks) for an unclosed opener, -1 otherwise.
func inlMatch(toks []inlTok) []int {
	m := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		m[i] = -1
		if t.kind != tkPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			open := "("
			switch t.text {
			case "]":
				open = "["
			case "}":
				open = "{"
			}
			for k := len(stack) - 1; k >= 0 && k >= len(stack)-8; k-- {
				if toks[stack[k]].text == open {
					m[stack[k]], m[i] = i, stack[k]
					stack = stack[:k]
					break
				}
			}
		}
	}
	for _, o := range stack {
		m[o] = len(toks)
	}
	return m
}

func (p *inlParser) is(i int, punct string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tkPunct && p.toks[i].text == punct
}

func (p *inlParser) isOpener(i int) bool {
	return i < len(p.toks) && p.toks[i].kind == tkPunct && (p.toks[i].text == "(" || p.toks[i].text == "[" || p.toks[i].text == "{")
}

// skip returns the index after the group opened at i (i+1 for
// non-openers); every call spends one step of the work budget, and once
// it is spent skip returns len(toks), ending every scanning loop.
func (p *inlParser) skip(i int) int {
	*p.work--
	if *p.work <= 0 {
		return len(p.toks)
	}
	if p.isOpener(i) {
		return p.match[i] + 1
	}
	return i + 1
}

func inlMemberOp(t inlTok) bool {
	return t.kind == tkPunct && (t.text == "." || t.text == "::" || t.text == "->" || t.text == "?.")
}

// memberOp reports a member-access operator of the family (in Perl and PHP
// "." concatenates).
func (p *inlParser) memberOp(i int) bool {
	if i < 0 || i >= len(p.toks) || !inlMemberOp(p.toks[i]) {
		return false
	}
	return p.toks[i].text != "." || p.fam != inlPerl && p.fam != inlPHP
}

func inlAssignOp(t inlTok) bool {
	if t.kind != tkPunct || !strings.HasSuffix(t.text, "=") {
		return false
	}
	switch t.text {
	case "==", "!=", "<=", ">=", "===", "!==", "=~":
		return false
	}
	return true
}

// emit records an effect once.
func (p *inlParser) emit(e Effect) {
	if len(p.effects) >= inlMaxEffects || p.seen[e] {
		return
	}
	p.seen[e] = true
	p.effects = append(p.effects, e)
}

// path records a delete or write of v (each element of a list).
func (p *inlParser) path(op string, v inlVal, api string) {
	if v.isList && len(v.list) > 0 {
		for _, e := range v.list {
			p.path(op, e, api)
		}
		return
	}
	e := Effect{Op: op, API: api}
	if v.known() {
		e.Path = v.s
	}
	p.emit(e)
}

// exec records a command run: a string is a shell command line, a list an
// argv.
func (p *inlParser) exec(v inlVal, api string) {
	e := Effect{Op: "exec", API: api}
	switch {
	case v.isList:
		e.Command = inlJoinArgv(v.list)
	case v.str && strings.Trim(v.s, inlHole+" ") != "":
		e.Command = strings.ReplaceAll(v.s, inlHole, ScriptDynamic)
	}
	p.emit(e)
}

// inlJoinArgv renders an argv as a POSIX shell command line.
func inlJoinArgv(list []inlVal) string {
	var words []string
	for _, v := range list {
		if !v.str {
			words = append(words, `"`+ScriptDynamic+`"`)
			continue
		}
		pieces := strings.Split(v.s, inlHole)
		var b strings.Builder
		for i, piece := range pieces {
			if i > 0 {
				b.WriteString(`"` + ScriptDynamic + `"`)
			}
			if piece != "" || len(pieces) == 1 {
				b.WriteString(inlQuote(piece))
			}
		}
		words = append(words, b.String())
	}
	return strings.Join(words, " ")
}

func inlQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_@%+=:,./-", c) >= 0) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// splitArgs splits the tokens [a,b) of an argument list at top-level
// commas (and Perl's =>), noting Python name= and Ruby name: keywords.
func (p *inlParser) splitArgs(a, b int) []inlArg {
	var out []inlArg
	b = min(b, len(p.toks))
	start := a
	add := func(end int) {
		x, y := start, end
		for x < y && p.toks[x].kind == tkLine {
			x++
		}
		for y > x && p.toks[y-1].kind == tkLine {
			y--
		}
		if x >= y {
			return
		}
		arg := inlArg{a: x, b: y}
		if y-x >= 3 && p.toks[x].kind == tkIdent && (p.fam == inlPython && p.is(x+1, "=") || p.fam == inlRuby && p.is(x+1, ":")) {
			arg.kw, arg.a = p.toks[x].text, x+2
		}
		out = append(out, arg)
	}
	for k := a; k < b; {
		if p.is(k, ",") || p.is(k, "=>") && p.fam == inlPerl {
			add(k)
			start = k + 1
			k++
			continue
		}
		k = p.skip(k)
	}
	add(min(b, len(p.toks)))
	return out
}

// positional returns the arguments that are not keywords.
func inlPositional(args []inlArg) []inlArg {
	var out []inlArg
	for _, a := range args {
		if a.kw == "" {
			out = append(out, a)
		}
	}
	return out
}

// arg evaluates the n-th positional argument, or the first keyword among
// kws; present is false when there is neither.
func (p *inlParser) arg(args []inlArg, n int, kws ...string) (v inlVal, present bool) {
	pos := inlPositional(args)
	if n < len(pos) {
		return p.eval(pos[n].a, pos[n].b, 0), true
	}
	for _, a := range args {
		for _, k := range kws {
			if a.kw == k {
				return p.eval(a.a, a.b, 0), true
			}
		}
	}
	return inlVal{}, false
}

// ---- evaluation

// eval evaluates the expression in tokens [a,b).
func (p *inlParser) eval(a, b, depth int) inlVal {
	b = min(b, len(p.toks))
	for a < b && p.toks[a].kind == tkLine {
		a++
	}
	for b > a && p.toks[b-1].kind == tkLine {
		b--
	}
	*p.work--
	if a >= b || depth > inlMaxEval || *p.work <= 0 {
		return inlVal{}
	}
	for p.is(a, "(") && p.match[a] == b-1 && b-a > 2 {
		a, b = a+1, b-1
	}
	if b-a == 1 {
		return p.evalTok(a, depth)
	}
	switch {
	case p.is(a, "[") && p.match[a] == b-1:
		return p.evalList(a+1, b-1, depth)
	case p.is(a, "{") && p.match[a] == b-1:
		return p.evalObj(a+1, b-1, depth)
	case p.is(a, "(") && p.match[a] == b-1 && p.fam == inlPerl:
		return p.evalList(a+1, b-1, depth)
	case p.fam == inlPHP && p.toks[a].kind == tkIdent && strings.EqualFold(p.toks[a].text, "array") && p.is(a+1, "(") && p.match[a+1] == b-1:
		return p.evalList(a+2, b-1, depth)
	}
	spans, ops, ok := p.operands(a, b)
	if !ok {
		return inlVal{}
	}
	if len(spans) == 1 {
		return p.evalOperand(spans[0][0], spans[0][1], depth)
	}
	var sb strings.Builder
	any := false
	var left inlVal
	for i, sp := range spans {
		v := p.eval(sp[0], sp[1], depth+1)
		if i > 0 {
			switch ops[i-1] {
			case "/": // pathlib: Path(x) / 'y'
				if left.ctor == "" {
					return inlVal{}
				}
				sb.WriteString("/")
			case "%": // Python 'fmt %s' % args
				if !left.str {
					return inlVal{}
				}
				return inlVal{str: true, s: inlPercentHoles(left.s)}
			}
		}
		if v.str {
			sb.WriteString(v.s)
			any = true
		} else {
			sb.WriteString(inlHole)
		}
		if i == 0 {
			left = v
		}
	}
	if !any {
		return inlVal{}
	}
	return inlVal{str: true, s: sb.String(), ctor: left.ctor}
}

// operands splits [a,b) at the language's concatenation operators. ok is
// false when another operator appears at top level (a ternary, a
// comparison, arithmetic): the value is then unknown.
func (p *inlParser) operands(a, b int) (spans [][2]int, ops []string, ok bool) {
	if p.fam == inlAwk {
		return p.awkOperands(a, b)
	}
	start := a
	for k := a; k < b; {
		t := p.toks[k]
		if t.kind == tkPunct && !p.isOpener(k) && !p.memberOp(k) {
			if p.concatOp(t.text) && k > start {
				spans = append(spans, [2]int{start, k})
				ops = append(ops, t.text)
				start = k + 1
				k++
				continue
			}
			if !(t.text == "!" && p.fam == inlRuby) && !(t.text == "\\" && p.fam == inlPerl) {
				return nil, nil, false
			}
		}
		if t.kind == tkIdent && k > start && inlOperatorWord[t.text] {
			return nil, nil, false
		}
		k = p.skip(k)
	}
	if start >= b {
		return nil, nil, false
	}
	spans = append(spans, [2]int{start, b})
	return spans, ops, true
}

func (p *inlParser) concatOp(op string) bool {
	switch p.fam {
	case inlJS, inlRuby:
		return op == "+"
	case inlPython:
		return op == "+" || op == "/" || op == "%"
	case inlPerl, inlPHP:
		return op == "."
	case inlOSA:
		return op == "&"
	}
	return false
}

// inlOperatorWord lists words that are operators or keywords inside an
// expression: a value around them is not a plain concatenation.
var inlOperatorWord = map[string]bool{
	"if": true, "else": true, "unless": true, "and": true, "or": true, "not": true, "in": true, "is": true,
	"for": true, "x": true, "eq": true, "ne": true, "lt": true, "gt": true, "le": true, "ge": true,
	"cmp": true, "instanceof": true, "typeof": true, "then": true, "do": true, "end": true, "lambda": true,
}

// awkOperands splits an awk expression into juxtaposed operands (awk
// concatenates by juxtaposition); any operator makes it unknown.
func (p *inlParser) awkOperands(a, b int) (spans [][2]int, ops []string, ok bool) {
	for k := a; k < b; {
		start := k
		for p.is(k, "$") {
			k++
		}
		if k >= b {
			return nil, nil, false
		}
		t := p.toks[k]
		switch {
		case t.kind == tkIdent && (p.is(k+1, "(") || p.is(k+1, "[")):
			k = p.skip(k + 1)
		case p.is(k, "("):
			k = p.skip(k)
		case t.kind == tkString || t.kind == tkNumber || t.kind == tkIdent:
			k++
		default:
			return nil, nil, false
		}
		spans = append(spans, [2]int{start, min(k, b)})
		if len(spans) > 1 {
			ops = append(ops, "")
		}
	}
	return spans, ops, len(spans) > 0
}

func (p *inlParser) evalList(a, b, depth int) inlVal {
	v := inlVal{isList: true}
	for _, arg := range p.splitArgs(a, b) {
		e := p.eval(arg.a, arg.b, depth+1)
		if e.isList && p.fam == inlPerl {
			v.list = append(v.list, e.list...) // Perl lists flatten
			continue
		}
		v.list = append(v.list, e)
	}
	return v
}

func (p *inlParser) evalObj(a, b, depth int) inlVal {
	v := inlVal{obj: map[string]inlVal{}}
	for _, arg := range p.splitArgs(a, b) {
		if arg.kw != "" { // Ruby name: value
			v.obj[arg.kw] = p.eval(arg.a, arg.b, depth+1)
			continue
		}
		for k := arg.a; k < arg.b; k = p.skip(k) {
			if p.is(k, ":") || p.is(k, "=>") {
				key := p.eval(arg.a, k, depth+1)
				name := ""
				if key.known() {
					name = key.s
				} else if k == arg.a+1 && p.toks[arg.a].kind == tkIdent {
					name = p.toks[arg.a].text
				}
				if name != "" {
					v.obj[name] = p.eval(k+1, arg.b, depth+1)
				}
				break
			}
		}
	}
	return v
}

// evalTok evaluates one token.
func (p *inlParser) evalTok(i, depth int) inlVal {
	t := p.toks[i]
	switch t.kind {
	case tkString:
		return p.strValue(t, depth)
	case tkWords:
		v := inlVal{isList: true}
		for _, w := range t.items {
			v.list = append(v.list, inlStr(w))
		}
		return v
	case tkNumber:
		return inlStr(t.text)
	case tkExec:
		return inlVal{str: true, s: inlHole} // the command's output
	case tkIdent:
		return p.evalIdent(t.text)
	}
	return inlVal{}
}

// strValue evaluates the text of a string or command token, evaluating
// its interpolations.
func (p *inlParser) strValue(t inlTok, depth int) inlVal {
	if t.parts == nil {
		return inlStr(t.text)
	}
	var sb strings.Builder
	for _, part := range t.parts {
		if !part.expr {
			sb.WriteString(part.text)
			continue
		}
		if v := p.evalText(part.text, depth); v.str {
			sb.WriteString(v.s)
		} else {
			sb.WriteString(inlHole)
		}
	}
	return inlVal{str: true, s: sb.String()}
}

// evalIdent evaluates a variable, constant or module name.
func (p *inlParser) evalIdent(name string) inlVal {
	key := name
	if p.fam == inlOSA {
		key = strings.ToLower(name)
	}
	if v, ok := p.vars[key]; ok {
		return v
	}
	switch key {
	case "true", "false", "True", "False":
		return inlStr(key)
	case "home":
		if p.fam == inlOSA {
			return inlStr("~")
		}
	}
	if p.fam == inlPerl && (name == "$ENV" || name == "%ENV") {
		return inlVal{}
	}
	return inlVal{mod: name}
}

// evalText evaluates the source of an interpolated expression.
func (p *inlParser) evalText(text string, depth int) inlVal {
	if depth+1 > inlMaxEval || p.depth >= inlMaxNest || len(text) > 4096 {
		return inlVal{}
	}
	sub := newInlParser(p.fam, p.lang, text, p.depth+1, p.vars, p.work)
	return sub.eval(0, len(sub.toks), depth+1)
}

// evalOperand evaluates a single operand: an access chain, or a method
// call on a literal ('sep'.join(list), '{}'.format(x), [..].join(' ')).
func (p *inlParser) evalOperand(a, b, depth int) inlVal {
	t := p.toks[a]
	if p.fam == inlOSA && b-a >= 4 && strings.EqualFold(t.text, "quoted") && strings.EqualFold(p.toks[a+1].text, "form") &&
		strings.EqualFold(p.toks[a+2].text, "of") {
		if v := p.eval(a+3, b, depth+1); v.known() {
			return inlStr("'" + strings.ReplaceAll(v.s, "'", `'\''`) + "'")
		}
		return inlVal{}
	}
	if t.kind == tkIdent {
		links, end := p.chain(a, b)
		if end < b {
			if (p.fam == inlPerl || p.fam == inlRuby) && !links[len(links)-1].call {
				links[len(links)-1].call = true
				links[len(links)-1].args = p.splitArgs(end, b)
				return p.chainValue(links, depth)
			}
			return inlVal{}
		}
		return p.chainValue(links, depth)
	}
	if (t.kind == tkString || p.is(a, "[")) && a+2 < b {
		recvEnd := p.skip(a)
		if recvEnd+1 < b && p.is(recvEnd, ".") && p.toks[recvEnd+1].kind == tkIdent && p.is(recvEnd+2, "(") {
			recv := p.eval(a, recvEnd, depth+1)
			args := p.splitArgs(recvEnd+3, p.match[recvEnd+2])
			switch p.toks[recvEnd+1].text {
			case "join":
				if len(args) == 1 {
					if recv.str && p.fam == inlPython {
						lst := p.eval(args[0].a, args[0].b, depth+1)
						return inlJoinList(lst, recv)
					}
					if recv.isList {
						return inlJoinList(recv, p.eval(args[0].a, args[0].b, depth+1))
					}
				}
			case "format":
				if recv.str {
					return inlVal{str: true, s: inlFormatHoles(recv.s)}
				}
			}
		}
	}
	return inlVal{}
}

// inlPercentHoles replaces the %s-style fields of a printf template with
// holes (%% stays a percent sign).
func inlPercentHoles(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '(' { // %(name)s
			if k := strings.IndexByte(s[j:], ')'); k >= 0 {
				j += k + 1
			}
		}
		for j < len(s) && strings.IndexByte("-#0 +.*0123456789", s[j]) >= 0 {
			j++
		}
		if j < len(s) && strings.IndexByte("sdifrxXoeEgGcab", s[j]) >= 0 {
			b.WriteString(inlHole)
			i = j
			continue
		}
		b.WriteByte('%')
	}
	return b.String()
}

func inlJoinList(list, sep inlVal) inlVal {
	if !list.isList {
		return inlVal{}
	}
	s := inlHole
	if sep.str {
		s = sep.s
	}
	var parts []string
	for _, e := range list.list {
		if e.str {
			parts = append(parts, e.s)
		} else {
			parts = append(parts, inlHole)
		}
	}
	return inlVal{str: true, s: strings.Join(parts, s)}
}

// inlFormatHoles replaces the {...} fields of a str.format template with
// holes.
func inlFormatHoles(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			b.WriteByte('{')
			i++
		case strings.HasPrefix(s[i:], "}}"):
			b.WriteByte('}')
			i++
		case s[i] == '{':
			if k := strings.IndexByte(s[i:], '}'); k >= 0 {
				b.WriteString(inlHole)
				i += k
				continue
			}
			b.WriteByte('{')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// chain parses an access chain starting at identifier i and ending before
// b: name, .name, ::name, ->name, (args), [index] (and Perl {key}).
func (p *inlParser) chain(i, b int) ([]inlLink, int) {
	links := []inlLink{{name: p.toks[i].text}}
	j := i + 1
	for j < b && len(links) < 64 {
		last := &links[len(links)-1]
		switch {
		case p.is(j, "(") && !last.call && !last.index:
			end := min(p.match[j], b)
			last.call, last.args = true, p.splitArgs(j+1, end)
			j = end + 1
		case p.is(j, "[") && !(p.fam == inlPerl && p.toks[j].space),
			p.is(j, "{") && p.fam == inlPerl && !p.toks[j].space && (strings.HasPrefix(last.name, "$") || last.name == "->"):
			end := min(p.match[j], b)
			if last.call || last.index {
				links = append(links, inlLink{name: "[]"})
				last = &links[len(links)-1]
			}
			last.index, last.idx = true, p.splitArgs(j+1, end)
			j = end + 1
		case j+1 < b && p.memberOp(j) && p.toks[j+1].kind == tkIdent:
			links = append(links, inlLink{name: p.toks[j+1].text})
			j += 2
		case p.fam == inlPerl && p.is(j, "->") && (p.is(j+1, "[") || p.is(j+1, "{")):
			j++
			links = append(links, inlLink{name: "->"})
		default:
			return links, j
		}
	}
	return links, min(j, b)
}

// inlImportFuncs are the calls that load a module by its name.
var inlImportFuncs = map[string]bool{"require": true, "__import__": true, "import": true, "import_module": true}

// fold returns the canonical name of what links[:k] denote and its value.
func (p *inlParser) fold(links []inlLink, k, depth int) (string, inlVal) {
	base, self := "", inlVal{}
	for j := 0; j < k; j++ {
		l := links[j]
		if j == 0 {
			if l.call && inlImportFuncs[l.name] {
				if v, ok := p.arg(l.args, 0); ok && v.known() {
					base = p.canonModule(v.s)
					self = inlVal{mod: base}
					continue
				}
			}
			base = l.name
			if p.fam == inlPHP {
				base = strings.ToLower(strings.TrimPrefix(base, `\`))
			}
			if v, ok := p.vars[l.name]; ok {
				switch {
				case v.mod != "":
					base = v.mod
				case v.ctor != "":
					base, self = v.ctor, v
				case v.str || v.isList:
					base, self = "str", v
				}
			}
		} else {
			base = base + "." + l.name
		}
		base = p.canon(base)
		switch {
		case l.call:
			self = p.pure(base, self, l.args, depth)
			if self.ctor != "" {
				base = self.ctor
			} else {
				base += "()"
			}
		case l.index:
			self = p.pureIndex(base, l.idx, depth)
			base += "[]"
		case j > 0 && p.fam == inlRuby:
			self = p.pure(base, self, nil, depth) // Ruby calls without parentheses
			if self.ctor != "" {
				base = self.ctor
			}
		case j > 0:
			self = p.member(base)
		}
	}
	return base, self
}

// key returns the canonical name of the function links[k] calls.
func (p *inlParser) key(links []inlLink, k, depth int) (string, inlVal) {
	if k == 0 {
		name := links[0].name
		if v, ok := p.vars[name]; ok && v.mod != "" {
			return p.canon(v.mod), inlVal{}
		}
		if p.fam == inlPHP {
			name = strings.ToLower(strings.TrimPrefix(name, `\`))
		}
		return p.canon(name), inlVal{}
	}
	base, self := p.fold(links, k, depth)
	return p.canon(base + "." + links[k].name), self
}

// canon applies a family's name equivalences (fs.promises is fs,
// pathlib.Path is Path, Kernel.system is system, ...).
func (p *inlParser) canon(key string) string {
	for _, r := range inlCanon[p.fam] {
		if strings.HasPrefix(key, r[0]) && (len(key) == len(r[0]) || key[len(r[0])] == '.' || key[len(r[0])] == '(') {
			key = r[1] + key[len(r[0]):]
		}
	}
	return key
}

var inlCanon = map[byte][][2]string{
	inlJS: {{"fs.promises", "fs"}, {"fsPromises", "fs"}, {"fse", "fs"}, {"child_process.promises", "child_process"},
		{"cp", "child_process"}, {"childProcess", "child_process"}},
	inlPython: {{"pathlib.Path", "Path"}, {"pathlib.PurePath", "Path"}, {"pathlib.PosixPath", "Path"},
		{"pathlib.WindowsPath", "Path"}, {"PosixPath", "Path"}, {"WindowsPath", "Path"}, {"PurePath", "Path"},
		{"PurePosixPath", "Path"}, {"builtins", ""}},
	inlRuby: {{"Pathname.new", "Pathname"}, {"Kernel", ""}, {"::FileUtils", "FileUtils"}, {"::File", "File"}},
	inlPerl: {{"CORE", ""}, {"CORE.GLOBAL", ""}, {"Path.Tiny.path", "path"}},
}

// canonModule canonicalises a module name given to require/import.
func (p *inlParser) canonModule(m string) string {
	m = strings.TrimPrefix(m, "node:")
	switch m {
	case "fs/promises", "fs-extra", "graceful-fs", "fs-extra/esm":
		return "fs"
	case "child_process/promises":
		return "child_process"
	case "bun":
		return "Bun"
	}
	return m
}

// inlEnv gives the value scripts see for an environment variable: ~ for
// the home directory, "$NAME" for the others.
func inlEnv(name inlVal) inlVal {
	if !name.known() {
		return inlVal{}
	}
	switch name.s {
	case "HOME", "USERPROFILE":
		return inlStr("~")
	}
	return inlStr("$" + name.s)
}

// pure evaluates calls whose result the scanner can compute: path joins,
// home-directory lookups, identity functions and path constructors.
func (p *inlParser) pure(key string, self inlVal, args []inlArg, depth int) inlVal {
	all := func(sep string) inlVal {
		var parts []string
		known := true
		for _, a := range inlPositional(args) {
			v := p.eval(a.a, a.b, depth+1)
			if !v.str {
				known = false
				parts = append(parts, inlHole)
				continue
			}
			if strings.HasPrefix(v.s, "/") || strings.HasPrefix(v.s, "~") {
				parts = parts[:0] // an absolute part restarts the path
			}
			parts = append(parts, v.s)
		}
		if len(parts) == 0 || !known && len(parts) == 1 {
			return inlVal{}
		}
		return inlVal{str: true, s: inlJoinPath(parts, sep)}
	}
	first := func() inlVal {
		v, _ := p.arg(args, 0)
		return v
	}
	switch p.fam {
	case inlJS:
		switch key {
		case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve":
			return all("/")
		case "path.win32.join", "path.win32.resolve":
			return all(`\`)
		case "path.normalize", "String", "path.posix.normalize":
			return first()
		case "os.homedir":
			return inlStr("~")
		case "Deno.env.get":
			return inlEnv(first())
		case "Bun.file":
			v := first()
			v.ctor = "Bun.file()"
			return v
		}
	case inlPython:
		switch key {
		case "os.path.join":
			return all("/")
		case "os.path.expanduser", "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.path.expandvars",
			"os.fspath", "str", "glob.glob", "glob.iglob", "os.path.normcase":
			return first()
		case "Path":
			v := all("/")
			if len(args) == 0 {
				v = inlStr(".")
			}
			v.ctor = "Path()"
			return v
		case "Path.home", "Path.cwd":
			if key == "Path.cwd" {
				return inlVal{ctor: "Path()"}
			}
			return inlVal{str: true, s: "~", ctor: "Path()"}
		case "Path().expanduser", "Path().resolve", "Path().absolute":
			return self
		case "Path().joinpath":
			v := all("/")
			if self.str && v.str {
				return inlVal{str: true, s: inlJoinPath([]string{self.s, v.s}, "/"), ctor: "Path()"}
			}
			return inlVal{ctor: "Path()"}
		case "os.getenv", "os.environ.get":
			return inlEnv(first())
		case "importlib.import_module", "__import__":
			if v := first(); v.known() {
				return inlVal{mod: v.s}
			}
		}
	case inlRuby:
		switch key {
		case "File.join":
			return all("/")
		case "File.expand_path", "File.absolute_path", "File.realpath", "Dir.glob", "String":
			return first()
		case "Dir.home":
			return inlStr("~")
		case "ENV.fetch":
			return inlEnv(first())
		case "Pathname":
			v := first()
			v.ctor = "Pathname()"
			return v
		}
	case inlPerl:
		switch key {
		case "glob":
			return first()
		case "File.Spec.catfile", "File.Spec.catdir":
			return all("/")
		case "File.HomeDir.my_home":
			return inlStr("~")
		case "path":
			v := first()
			v.ctor = "path()"
			return v
		}
	case inlPHP:
		switch key {
		case "getenv":
			return inlEnv(first())
		case "realpath", "glob":
			return first()
		}
	}
	return inlVal{}
}

func inlJoinPath(parts []string, sep string) string {
	out := parts[0]
	for _, part := range parts[1:] {
		if !strings.HasSuffix(out, "/") && !strings.HasSuffix(out, `\`) {
			out += sep
		}
		out += strings.TrimLeft(part, `/\`)
	}
	return out
}

// pureIndex evaluates environment lookups by subscript (os.environ['HOME'],
// ENV['HOME'], $ENV{HOME}, $_SERVER['HOME'], process.env['HOME'], Dir['/x']).
func (p *inlParser) pureIndex(key string, idx []inlArg, depth int) inlVal {
	if len(idx) != 1 {
		return inlVal{}
	}
	a := idx[0]
	v := p.eval(a.a, a.b, depth+1)
	if key == "$ENV" && a.b-a.a == 1 && p.toks[a.a].kind == tkIdent {
		v = inlStr(p.toks[a.a].text) // $ENV{HOME}: a bare word key
	}
	switch key {
	case "os.environ", "ENV", "$ENV", "$_SERVER", "$_ENV", "process.env", "Bun.env":
		return inlEnv(v)
	case "Dir":
		return v
	}
	return inlVal{}
}

// member evaluates property reads such as process.env.HOME.
func (p *inlParser) member(key string) inlVal {
	for _, prefix := range []string{"process.env.", "Bun.env.", "Deno.env."} {
		if strings.HasPrefix(key, prefix) {
			return inlEnv(inlStr(key[len(prefix):]))
		}
	}
	if p.fam == inlPython && key == "Path().parent" {
		return inlVal{ctor: "Path()"}
	}
	return inlVal{}
}

// chainValue evaluates an access chain used as a value.
func (p *inlParser) chainValue(links []inlLink, depth int) inlVal {
	if len(links) == 1 && !links[0].call && !links[0].index {
		return p.evalIdent(links[0].name)
	}
	_, v := p.fold(links, len(links), depth)
	return v
}

// ---- declarations: imports, aliases and single-assignment literals

// prepass records module aliases (const fs = require('fs'), import shutil
// as sh, from os import remove) and variables assigned exactly once
// (d = '/etc'), so calls can be resolved. A name assigned more than once,
// or bound by a loop, stays unknown.
func (p *inlParser) prepass() {
	n := len(p.toks)
	count := map[string]int{}
	for i := 0; i < n; i++ {
		t := p.toks[i]
		if t.kind != tkIdent {
			continue
		}
		if i+1 < n && inlAssignOp(p.toks[i+1]) && !p.memberOp(i-1) {
			count[p.varKey(t.text)]++
		}
		switch strings.ToLower(t.text) {
		case "for", "foreach", "each", "repeat", "with", "as", "catch", "except":
			// Names bound by loops and handlers: the next identifiers.
			for j := i + 1; j < n && j <= i+4; j++ {
				if p.toks[j].kind == tkIdent {
					count[p.varKey(p.toks[j].text)] += 2
				}
			}
		case "set":
			if p.fam == inlOSA && i+2 < n && strings.EqualFold(p.toks[i+2].text, "to") {
				count[p.varKey(p.toks[i+1].text)]++
			}
		}
		if p.fam == inlRuby && p.is(i-1, "|") { // block parameters |x, y|
			count[t.text] += 2
		}
	}
	level := 0
	for i := 0; i < n; i++ {
		t := p.toks[i]
		if t.kind == tkPunct {
			switch t.text {
			case "(", "[":
				level++
			case ")", "]":
				level = max(level-1, 0)
			}
			continue
		}
		if t.kind != tkIdent {
			continue
		}
		switch {
		case p.fam == inlJS && t.text == "import" && !p.is(i+1, "(") && level == 0:
			p.jsImport(i)
		case p.fam == inlJS && (t.text == "const" || t.text == "let" || t.text == "var") && p.is(i+1, "{"):
			p.jsDestructure(i+1, count)
		case p.fam == inlPython && (t.text == "import" || t.text == "from") && (i == 0 || p.toks[i-1].kind == tkLine || p.is(i-1, ";")):
			p.pyImport(i)
		case p.fam == inlOSA && strings.EqualFold(t.text, "set") && i+2 < n && strings.EqualFold(p.toks[i+2].text, "to"):
			if key := p.varKey(p.toks[i+1].text); count[key] == 1 {
				end := p.exprEnd(i + 3)
				if v := p.eval(i+3, end, 0); v.str || v.isList {
					p.vars[key] = v
				}
			}
		}
		if level == 0 && p.is(i+1, "=") && !p.memberOp(i-1) && !p.is(i-1, ",") &&
			count[p.varKey(t.text)] == 1 {
			end := p.exprEnd(i + 2)
			if v := p.eval(i+2, end, 0); v.str || v.isList || v.mod != "" || v.ctor != "" || v.obj != nil {
				p.vars[p.varKey(t.text)] = v
			}
		}
	}
}

func (p *inlParser) varKey(name string) string {
	if p.fam == inlOSA {
		return strings.ToLower(name)
	}
	return name
}

// exprEnd returns the end of the expression starting at j: a statement
// separator, a comma, a closer, or a low-precedence keyword.
func (p *inlParser) exprEnd(j int) int {
	n := len(p.toks)
	for k := j; k < n; {
		t := p.toks[k]
		switch {
		case t.kind == tkLine:
			return k
		case t.kind == tkPunct && (t.text == ";" || t.text == "," || t.text == ")" || t.text == "]" || t.text == "}"):
			return k
		case t.kind == tkIdent && k > j && (t.text == "or" || t.text == "and" || t.text == "if" || t.text == "unless") &&
			(p.fam == inlPerl || p.fam == inlRuby):
			return k
		}
		k = p.skip(k)
	}
	return n
}

// jsImport handles import X from 'm', import * as X from 'm', import {a,
// b as c} from 'm'.
func (p *inlParser) jsImport(i int) {
	n := len(p.toks)
	end := i + 1
	for end < n && p.toks[end].kind != tkLine && !p.is(end, ";") {
		end++
	}
	mod := ""
	for k := i + 1; k+1 < end; k++ {
		if p.toks[k].kind == tkIdent && p.toks[k].text == "from" && p.toks[k+1].kind == tkString {
			mod = p.canonModule(p.toks[k+1].text)
		}
	}
	if mod == "" {
		return
	}
	for k := i + 1; k < end; k++ {
		t := p.toks[k]
		switch {
		case p.is(k, "{"):
			close := min(p.match[k], end)
			for _, a := range p.splitArgs(k+1, close) {
				if p.toks[a.a].kind != tkIdent {
					continue
				}
				name, local := p.toks[a.a].text, p.toks[a.b-1].text
				p.vars[local] = inlVal{mod: mod + "." + name}
			}
			k = close
		case p.is(k, "*") && k+2 < end && p.toks[k+1].text == "as":
			p.vars[p.toks[k+2].text] = inlVal{mod: mod}
			k += 2
		case t.kind == tkIdent && t.text != "from" && t.text != "type" && k == i+1:
			p.vars[t.text] = inlVal{mod: mod}
		}
	}
}

// jsDestructure handles const { a, b: c } = require('m').
func (p *inlParser) jsDestructure(open int, count map[string]int) {
	close := p.match[open]
	if close >= len(p.toks) || !p.is(close+1, "=") {
		return
	}
	v := p.eval(close+2, p.exprEnd(close+2), 0)
	if v.mod == "" {
		return
	}
	for _, a := range p.splitArgs(open+1, close) {
		if p.toks[a.a].kind != tkIdent {
			continue
		}
		name, local := p.toks[a.a].text, p.toks[a.b-1].text
		if p.toks[a.b-1].kind == tkIdent && count[local] == 0 {
			p.vars[local] = inlVal{mod: v.mod + "." + name}
		}
	}
}

// pyImport handles import a.b as c, d and from m import x as y, z / *.
func (p *inlParser) pyImport(i int) {
	n := len(p.toks)
	end := i + 1
	for end < n && p.toks[end].kind != tkLine && !p.is(end, ";") {
		end++
	}
	dotted := func(k int) (string, int) {
		var parts []string
		for k < end && p.toks[k].kind == tkIdent {
			parts = append(parts, p.toks[k].text)
			if !p.is(k+1, ".") {
				k++
				break
			}
			k += 2
		}
		return strings.Join(parts, "."), k
	}
	k := i + 1
	from := ""
	if p.toks[i].text == "from" {
		from, k = dotted(k)
		if k >= end || p.toks[k].text != "import" {
			return
		}
		k++
	}
	for k < end {
		if p.is(k, "(") || p.is(k, ")") || p.is(k, ",") {
			k++
			continue
		}
		if p.is(k, "*") && from != "" {
			p.star = append(p.star, from)
			k++
			continue
		}
		name, next := dotted(k)
		if name == "" {
			k++
			continue
		}
		local := name
		if next+1 < end && p.toks[next].text == "as" {
			local = p.toks[next+1].text
			next += 2
		}
		switch {
		case from != "":
			p.vars[local] = inlVal{mod: from + "." + name}
		case local != name:
			p.vars[local] = inlVal{mod: name}
		}
		k = next
	}
}

// ---- calls

// scan visits every call in a JS, Python, Perl, Ruby or PHP script.
func (p *inlParser) scan() {
	for i := 0; i < len(p.toks) && !p.done(); i++ {
		*p.work--
		t := p.toks[i]
		switch t.kind {
		case tkExec:
			p.exec(p.strValue(t, 0), "backticks")
		case tkIdent:
			if p.memberOp(i - 1) {
				continue
			}
			p.chainAt(i)
		case tkPunct:
			if t.text == ")" && p.match[i] >= 0 && p.grouping(p.match[i]) && p.memberOp(i+1) && i+3 < len(p.toks) &&
				p.toks[i+2].kind == tkIdent && p.is(i+3, "(") {
				p.groupCall(p.match[i], i)
			}
		}
	}
}

// chainAt judges the calls of the access chain starting at i.
func (p *inlParser) chainAt(i int) {
	n := len(p.toks)
	links, end := p.chain(i, n)
	for k := range links {
		if links[k].call {
			key, self := p.key(links, k, 0)
			p.call(key, self, links[k].args)
		}
	}
	last := len(links) - 1
	if p.fam == inlRuby && last > 0 && !links[last].call && !links[last].index &&
		(end >= n || !p.toks[end].space || !p.argStart(end)) {
		key, self := p.key(links, last, 0)
		if spec, _ := p.spec(key, 0); strings.HasPrefix(spec, "self") {
			p.call(key, self, nil) // a method called without arguments: .rmtree
		}
	}
	if links[last].call || links[last].index || end >= n {
		return
	}
	next := p.toks[end]
	if p.fam == inlJS && next.kind == tkString && next.tmpl && !next.space {
		key, _ := p.key(links, last, 0)
		switch key {
		case "$", "Bun.$", "zx.$", "execa.$", "$.sync", "execa.$.sync":
			p.exec(p.evalTok(end, 0), key)
		}
		return
	}
	if (p.fam == inlPerl || p.fam == inlRuby) && next.space && p.argStart(end) {
		key, self := p.key(links, last, 0)
		if spec, _ := p.spec(key, 0); spec != "" {
			p.call(key, self, p.splitArgs(end, p.stmtEnd(end)))
		}
	}
}

// grouping reports whether the ( at open groups an expression rather
// than opening a call's arguments.
func (p *inlParser) grouping(open int) bool {
	if open == 0 {
		return true
	}
	prev := p.toks[open-1]
	switch prev.kind {
	case tkIdent:
		return inlOperatorWord[prev.text] || prev.text == "return" || prev.text == "await"
	case tkPunct:
		return prev.text != ")" && prev.text != "]"
	case tkString, tkNumber, tkWords, tkExec:
		return false
	}
	return true
}

// groupCall judges (expr).method(args): the group [open, close] is the
// receiver.
func (p *inlParser) groupCall(open, close int) {
	recv := p.eval(open, close+1, 0)
	base := recv.ctor
	if base == "" {
		if !recv.str {
			return
		}
		base = "str"
	}
	m := close + 3
	key := p.canon(base + "." + p.toks[close+2].text)
	p.call(key, recv, p.splitArgs(m+1, p.match[m]))
}

// argStart reports whether token j can start a paren-less argument list.
func (p *inlParser) argStart(j int) bool {
	t := p.toks[j]
	switch t.kind {
	case tkString, tkExec, tkWords, tkNumber:
		return true
	case tkIdent:
		return !inlOperatorWord[t.text] && t.text != "while" && t.text != "until" && t.text != "foreach" &&
			t.text != "rescue" && t.text != "elsif"
	case tkPunct:
		return t.text == "[" || t.text == "\\" || t.text == "("
	}
	return false
}

// stmtEnd returns the end of a paren-less argument list starting at j.
func (p *inlParser) stmtEnd(j int) int {
	n := len(p.toks)
	for k := j; k < n; {
		t := p.toks[k]
		switch {
		case t.kind == tkLine:
			return k
		case t.kind == tkPunct:
			switch t.text {
			case ";", ")", "]", "}", "||", "&&", "//", "or", "and":
				return k
			case "{":
				if p.fam == inlRuby {
					return k // a block
				}
			}
		case t.kind == tkIdent:
			switch t.text {
			case "or", "and", "if", "unless", "while", "until", "for", "foreach", "do", "then", "rescue":
				return k
			}
		}
		k = p.skip(k)
	}
	return n
}

// spec finds the API spec of a call, trying star imports, the modules of
// unqualified calls and the receiver-independent names; nargs is the number
// of arguments. It returns the spec and the name found.
func (p *inlParser) spec(key string, nargs int) (string, string) {
	table := inlAPIs()[p.fam]
	if s, ok := table[key]; ok {
		return s, key
	}
	name := key
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		name = key[i+1:]
	}
	if !strings.Contains(key, ".") {
		for _, m := range append(p.star, inlBareModules[p.fam]...) {
			if s, ok := table[m+"."+key]; ok {
				return s, m + "." + key
			}
		}
	}
	if s, ok := inlAnyReceiver()[p.fam][name]; ok {
		if strings.HasPrefix(s, "self") && nargs > 0 && (name == "unlink" || name == "rmdir") {
			return "", ""
		}
		return s, key
	}
	return "", ""
}

// call applies the API spec of key to a call's arguments.
func (p *inlParser) call(key string, self inlVal, args []inlArg) {
	spec, key := p.spec(key, len(args))
	if spec == "" {
		return
	}
	role, n := spec, 0
	if i := strings.IndexByte(spec, ':'); i >= 0 {
		role = spec[:i]
		n = int(spec[i+1] - '0')
	}
	api := key
	pos := inlPositional(args)
	switch role {
	case "delete", "write":
		v, _ := p.arg(args, n, "path", "file", "src", "dst", "name", "filename", "filepath")
		if n == 1 {
			v, _ = p.arg(args, 1, "dst", "dest", "destination", "target")
		}
		p.path(role, v, api)
	case "deleteall", "writeall":
		op := strings.TrimSuffix(role, "all")
		if len(pos) == 0 {
			p.path(op, inlVal{}, api)
		}
		for _, a := range pos {
			if v := p.eval(a.a, a.b, 0); !(v.obj != nil) {
				p.path(op, v, api)
			}
		}
	case "move":
		src, _ := p.arg(args, 0, "src", "source", "old", "from")
		dst, _ := p.arg(args, 1, "dst", "dest", "destination", "new", "to", "target")
		p.path("delete", src, api)
		p.path("write", dst, api)
	case "open":
		mode, present := p.arg(args, n, "mode", "flags")
		if !present || mode.known() && !p.writeMode(mode.s) {
			return
		}
		if !mode.known() && p.readFlags(args, n) {
			return
		}
		v, _ := p.arg(args, 0, "file", "path", "filename")
		p.path("write", v, api)
	case "osopen":
		if len(pos) > n+1 && p.writeFlags(pos[n+1]) {
			p.path("write", p.eval(pos[n].a, pos[n].b, 0), api)
		}
	case "denoopen":
		opts, present := p.arg(args, 1)
		if !present {
			return
		}
		if opts.obj != nil {
			w := false
			for _, k := range []string{"write", "append", "create", "truncate", "createNew"} {
				w = w || opts.obj[k].s == "true"
			}
			if !w {
				return
			}
		}
		v, _ := p.arg(args, 0)
		p.path("write", v, api)
	case "exec":
		v, _ := p.arg(args, n, "args", "command", "cmd")
		p.exec(v, api)
	case "execprog":
		prog, _ := p.arg(args, 0, "file", "command", "cmd")
		rest, _ := p.arg(args, 1, "args")
		if rest.isList {
			p.exec(inlVal{isList: true, list: append([]inlVal{prog}, rest.list...)}, api)
		} else {
			p.exec(prog, api)
		}
	case "execall":
		var list []inlVal
		for _, a := range pos {
			v := p.eval(a.a, a.b, 0)
			if v.obj != nil {
				continue // an environment hash or options
			}
			if v.isList && len(pos) == 1 {
				list = v.list
				break
			}
			list = append(list, v)
		}
		if len(list) == 1 && !list[0].isList {
			p.exec(list[0], api)
		} else {
			p.exec(inlVal{isList: true, list: list}, api)
		}
	case "execvar":
		var list []inlVal
		for _, a := range pos[min(n, len(pos)):] {
			list = append(list, p.eval(a.a, a.b, 0))
		}
		p.exec(inlVal{isList: true, list: list}, api)
	case "execlist":
		v, _ := p.arg(args, n)
		p.exec(v, api)
	case "objcmd":
		v, _ := p.arg(args, 0)
		if v.obj != nil {
			v = v.obj["cmd"]
		}
		p.exec(v, api)
	case "denocmd":
		prog, _ := p.arg(args, 0)
		opts, _ := p.arg(args, 1)
		list := []inlVal{prog}
		if a := opts.obj["args"]; a.isList {
			list = append(list, a.list...)
		}
		p.exec(inlVal{isList: true, list: list}, api)
	case "code":
		if v, ok := p.arg(args, 0); ok && v.known() && p.depth < inlMaxNest {
			for _, e := range inlEffects(p.lang, v.s, p.depth+1, p.work) {
				p.emit(e)
			}
		}
	case "shrm", "shwrite", "shmv", "shcp":
		var ops []inlVal
		for _, a := range pos {
			v := p.eval(a.a, a.b, 0)
			if v.known() && strings.HasPrefix(v.s, "-") {
				continue
			}
			ops = append(ops, v)
		}
		switch role {
		case "shrm":
			for _, v := range ops {
				p.path("delete", v, api)
			}
		case "shwrite":
			for _, v := range ops {
				p.path("write", v, api)
			}
		default:
			if len(ops) > 0 {
				if role == "shmv" {
					for _, v := range ops[:len(ops)-1] {
						p.path("delete", v, api)
					}
				}
				p.path("write", ops[len(ops)-1], api)
			}
		}
	case "self":
		op := "delete"
		if n == 1 {
			op = "write"
		}
		p.path(op, self, api)
	case "selfmove":
		dst, _ := p.arg(args, 0, "target")
		p.path("delete", self, api)
		p.path("write", dst, api)
	case "selfopen":
		mode, present := p.arg(args, 0, "mode")
		if present && !(mode.known() && !p.writeMode(mode.s)) {
			p.path("write", self, api)
		}
	case "perlopen":
		p.perlOpen(pos, api)
	case "rubyopen":
		v, _ := p.arg(args, 0)
		if v.str && strings.HasPrefix(v.s, "|") {
			p.exec(inlVal{str: true, s: v.s[1:]}, api)
			return
		}
		mode, present := p.arg(args, 1, "mode")
		if present && !(mode.known() && !p.writeMode(mode.s)) {
			p.path("write", v, api)
		}
	}
}

// writeMode reports whether an open mode string writes.
func (p *inlParser) writeMode(m string) bool {
	if strings.ContainsAny(m, "wax+") {
		return true
	}
	return p.fam == inlPHP && strings.Contains(m, "c")
}

// readFlags reports a non-literal open mode made only of read flags
// (O_RDONLY, File::RDONLY, fs.constants.O_RDONLY).
func (p *inlParser) readFlags(args []inlArg, n int) bool {
	pos := inlPositional(args)
	if n >= len(pos) {
		return false
	}
	a := pos[n]
	ro := false
	for k := a.a; k < a.b; k++ {
		if t := p.toks[k]; t.kind == tkIdent {
			switch t.text {
			case "O_RDONLY", "RDONLY":
				ro = true
			case "O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND":
				return false
			}
		}
	}
	return ro
}

// writeFlags reports open(2)-style flags that write.
func (p *inlParser) writeFlags(a inlArg) bool {
	for k := a.a; k < a.b; k++ {
		if t := p.toks[k]; t.kind == tkIdent {
			switch strings.TrimPrefix(t.text, "O_") {
			case "WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND":
				return true
			}
		}
	}
	v := p.eval(a.a, a.b, 0)
	return !v.known() && a.b-a.a == 1 && p.toks[a.a].kind != tkIdent
}

// perlOpen judges open(FH, MODE, PATH...) and open(FH, EXPR).
func (p *inlParser) perlOpen(pos []inlArg, api string) {
	switch {
	case len(pos) >= 3:
		mode := p.eval(pos[1].a, pos[1].b, 0)
		m := strings.TrimSpace(mode.s)
		switch {
		case !mode.known():
			p.path("write", p.eval(pos[2].a, pos[2].b, 0), api)
		case strings.HasPrefix(m, "|-") || strings.HasPrefix(m, "-|"):
			if len(pos) == 3 {
				p.exec(p.eval(pos[2].a, pos[2].b, 0), api)
				return
			}
			var list []inlVal
			for _, a := range pos[2:] {
				list = append(list, p.eval(a.a, a.b, 0))
			}
			p.exec(inlVal{isList: true, list: list}, api)
		case strings.HasPrefix(m, ">") || strings.HasPrefix(m, "+<") || strings.HasPrefix(m, "+>"):
			p.path("write", p.eval(pos[2].a, pos[2].b, 0), api)
		}
	case len(pos) == 2:
		e := p.eval(pos[1].a, pos[1].b, 0)
		if !e.str {
			return
		}
		t := strings.TrimLeft(e.s, " \t")
		switch {
		case strings.HasPrefix(t, "|"):
			p.exec(inlStr(strings.TrimSpace(t[1:])), api)
		case strings.HasPrefix(t, ">") || strings.HasPrefix(t, "+<") || strings.HasPrefix(t, "+>"):
			target := strings.TrimLeft(t, "+<> \t")
			p.path("write", inlVal{str: true, s: target}, api)
		case strings.HasSuffix(strings.TrimRight(t, " \t"), "|"):
			p.exec(inlStr(strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(t, " \t"), "|"))), api)
		}
	}
}

// inlTable builds an API table from (spec, space-separated keys) pairs.
func inlTable(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		for _, k := range strings.Fields(pairs[i+1]) {
			m[k] = pairs[i]
		}
	}
	return m
}

// API specs: "delete:N"/"write:N" (argument N is the path), "deleteall" /
// "writeall" (every argument), "move" (0 deleted, 1 written), "open:N"
// (argument N is the mode), "osopen:N" (path N, flags N+1), "exec:N"
// (argument N is a command string or argv list), "execprog" (program and
// argument list), "execall" (all arguments form the command), "execvar:N"
// (arguments from N form the argv), "execlist:N", "objcmd" ({cmd: [...]}),
// "denocmd", "code" (the argument is code in the same language), "shrm"
// "shwrite" "shmv" "shcp" (shelljs), "self:0" / "self:1" (the receiver is
// deleted / written), "selfmove", "selfopen", "perlopen", "rubyopen",
// "denoopen".
var inlAPIs = sync.OnceValue(func() map[byte]map[string]string {
	return map[byte]map[string]string{
		inlJS: inlTable(
			"delete:0", "fs.rm fs.rmSync fs.rmdir fs.rmdirSync fs.unlink fs.unlinkSync fs.remove fs.removeSync "+
				"fs.emptyDir fs.emptyDirSync fs.emptydir fs.emptydirSync fs.lchmod Deno.remove Deno.removeSync "+
				"$.NSFileManager.defaultManager.removeItemAtPathError",
			"write:0", "fs.writeFile fs.writeFileSync fs.appendFile fs.appendFileSync fs.truncate fs.truncateSync "+
				"fs.mkdir fs.mkdirSync fs.createWriteStream fs.outputFile fs.outputFileSync fs.writeJson fs.writeJsonSync "+
				"fs.writeJSON fs.writeJSONSync fs.outputJson fs.outputJsonSync fs.outputJSON fs.ensureDir fs.ensureDirSync "+
				"fs.mkdirp fs.mkdirpSync fs.mkdirs fs.mkdirsSync fs.ensureFile fs.ensureFileSync fs.mkdtemp fs.mkdtempSync "+
				"fs.utimes fs.utimesSync fs.chmod fs.chmodSync fs.chown fs.chownSync "+
				"Deno.writeTextFile Deno.writeTextFileSync Deno.writeFile Deno.writeFileSync Deno.truncate Deno.truncateSync "+
				"Deno.mkdir Deno.mkdirSync Deno.create Deno.createSync Deno.chmod Deno.chmodSync Bun.write",
			"write:1", "fs.copyFile fs.copyFileSync fs.cp fs.cpSync fs.copy fs.copySync fs.symlink fs.symlinkSync "+
				"fs.link fs.linkSync fs.ensureSymlink fs.ensureLink Deno.copyFile Deno.copyFileSync Deno.symlink "+
				"Deno.symlinkSync Deno.link Deno.linkSync",
			"move", "fs.rename fs.renameSync fs.move fs.moveSync Deno.rename Deno.renameSync",
			"open:1", "fs.open fs.openSync",
			"denoopen", "Deno.open Deno.openSync",
			"exec:0", "child_process.exec child_process.execSync execa.execaCommand execa.execaCommandSync "+
				"shelljs.exec Application().doShellScript",
			"execprog", "child_process.execFile child_process.execFileSync child_process.spawn child_process.spawnSync "+
				"execa.execa execa.execaSync execa execaSync",
			"objcmd", "Bun.spawn Bun.spawnSync Deno.run",
			"denocmd", "Deno.Command",
			"shrm", "shelljs.rm",
			"shmv", "shelljs.mv",
			"shcp", "shelljs.cp",
			"shwrite", "shelljs.mkdir shelljs.touch",
			"self:0", "Bun.file().delete Bun.file().unlink",
			"self:1", "Bun.file().write",
			"code", "eval vm.runInThisContext vm.runInNewContext vm.runInContext",
		),
		inlPython: inlTable(
			"delete:0", "shutil.rmtree os.remove os.unlink os.rmdir os.removedirs",
			"write:0", "os.truncate os.mkdir os.makedirs os.mkfifo os.mknod os.chmod os.chown os.utime",
			"write:1", "shutil.copy shutil.copy2 shutil.copyfile shutil.copytree shutil.copymode shutil.copystat "+
				"os.symlink os.link",
			"move", "shutil.move os.rename os.renames os.replace",
			"open:1", "open io.open codecs.open",
			"osopen:0", "os.open",
			"exec:0", "os.system os.popen subprocess.run subprocess.call subprocess.check_call subprocess.check_output "+
				"subprocess.Popen subprocess.getoutput subprocess.getstatusoutput commands.getoutput "+
				"commands.getstatusoutput pty.spawn asyncio.create_subprocess_shell",
			"execall", "asyncio.create_subprocess_exec",
			"execlist:1", "os.execv os.execve os.execvp os.execvpe",
			"execvar:1", "os.execl os.execle os.execlp os.execlpe",
			"execlist:2", "os.spawnv os.spawnve os.spawnvp os.spawnvpe",
			"execvar:2", "os.spawnl os.spawnle os.spawnlp os.spawnlpe",
			"self:0", "Path().unlink Path().rmdir",
			"self:1", "Path().write_text Path().write_bytes Path().touch Path().mkdir Path().symlink_to Path().hardlink_to "+
				"Path().chmod",
			"selfmove", "Path().rename Path().replace",
			"selfopen", "Path().open",
			"code", "exec eval",
		),
		inlPerl: inlTable(
			"deleteall", "unlink rmtree remove_tree File.Path.rmtree File.Path.remove_tree",
			"delete:0", "rmdir path().remove path().remove_tree",
			"writeall", "mkpath make_path File.Path.mkpath File.Path.make_path chmod chown utime",
			"write:0", "mkdir truncate write_file File.Slurp.write_file",
			"self:1", "path().spew path().spew_utf8 path().spew_raw path().append path().append_utf8 path().touch path().mkpath",
			"write:1", "copy cp File.Copy.copy File.Copy.cp symlink link",
			"move", "rename move mv File.Copy.move File.Copy.mv",
			"perlopen", "open",
			"osopen:1", "sysopen",
			"execall", "system exec",
			"exec:0", "readpipe",
			"code", "eval",
		),
		inlRuby: inlTable(
			"deleteall", "File.delete File.unlink FileUtils.rm FileUtils.rm_r FileUtils.rm_rf FileUtils.rm_f "+
				"FileUtils.remove FileUtils.remove_dir FileUtils.remove_entry FileUtils.remove_entry_secure "+
				"FileUtils.remove_file FileUtils.rmtree FileUtils.rmdir FileUtils.safe_unlink Dir.rmdir Dir.delete Dir.unlink",
			"write:0", "File.write File.binwrite IO.write IO.binwrite File.truncate Dir.mkdir File.chmod File.chown",
			"writeall", "FileUtils.touch FileUtils.mkdir FileUtils.mkdir_p FileUtils.makedirs FileUtils.mkpath "+
				"FileUtils.chmod FileUtils.chmod_R FileUtils.chown FileUtils.chown_R",
			"write:1", "FileUtils.cp FileUtils.copy FileUtils.cp_r FileUtils.copy_entry FileUtils.copy_file FileUtils.cp_lr "+
				"FileUtils.install FileUtils.ln FileUtils.ln_s FileUtils.ln_sf FileUtils.symlink FileUtils.link "+
				"File.symlink File.link",
			"move", "File.rename FileUtils.mv FileUtils.move",
			"open:1", "File.open File.new IO.sysopen",
			"rubyopen", "open",
			"execall", "system exec spawn Process.spawn Process.exec IO.popen Open3.capture2 Open3.capture2e "+
				"Open3.capture3 Open3.popen2 Open3.popen2e Open3.popen3 Open3.pipeline",
			"self:0", "Pathname().delete Pathname().unlink Pathname().rmtree Pathname().rmdir",
			"self:1", "Pathname().write Pathname().binwrite Pathname().mkpath Pathname().mkdir",
			"selfmove", "Pathname().rename",
			"code", "eval instance_eval class_eval",
		),
		inlPHP: inlTable(
			"delete:0", "unlink rmdir",
			"write:0", "file_put_contents mkdir touch chmod chown",
			"write:1", "copy symlink link",
			"move", "rename",
			"open:1", "fopen",
			"exec:0", "system exec shell_exec passthru popen proc_open",
			"execprog", "pcntl_exec",
			"code", "eval",
		),
	}
})

// inlBareModules are tried for unqualified calls (destructured imports
// that were not seen).
var inlBareModules = map[byte][]string{
	inlJS: {"fs", "child_process"},
}

// inlAnyReceiver lists method names distinctive enough to count whatever
// the receiver (an alias the scanner could not follow).
var inlAnyReceiver = sync.OnceValue(func() map[byte]map[string]string {
	return map[byte]map[string]string{
		inlJS: inlTable(
			"delete:0", "rmSync rmdirSync unlinkSync removeSync emptyDirSync removeItemAtPathError",
			"write:0", "writeFileSync appendFileSync truncateSync mkdirSync createWriteStream outputFileSync "+
				"writeTextFile writeTextFileSync",
			"write:1", "copyFileSync cpSync",
			"move", "renameSync",
			"exec:0", "execSync doShellScript",
			"execprog", "execFileSync spawnSync",
		),
		inlPython: inlTable(
			"delete:0", "rmtree",
			"self:0", "unlink rmdir",
			"self:1", "write_text write_bytes",
			"exec:0", "check_output check_call",
		),
		inlRuby: inlTable(
			"deleteall", "rm_rf rm_r rm_f remove_dir remove_entry remove_entry_secure",
			"writeall", "mkdir_p",
			"write:1", "cp_r",
		),
	}
})

// ---- awk

// inlShells are the programs whose input is a shell script.
var inlShells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true,
	"/bin/sh": true, "/bin/bash": true, "/usr/bin/sh": true, "/usr/bin/bash": true, "/bin/zsh": true, "/bin/dash": true}

// awk judges system(), print/printf redirections and command | getline.
func (p *inlParser) awk() {
	n := len(p.toks)
	for i := 0; i < n && !p.done(); i++ {
		*p.work--
		t := p.toks[i]
		if t.kind != tkIdent {
			continue
		}
		switch t.text {
		case "system":
			if p.is(i+1, "(") {
				args := p.splitArgs(i+2, p.match[i+1])
				v, _ := p.arg(args, 0)
				p.exec(v, "system")
			}
		case "print", "printf":
			end := p.awkStmtEnd(i + 1)
			for k := i + 1; k < end; k = p.skip(k) {
				if !(p.is(k, ">") || p.is(k, ">>") || p.is(k, "|")) {
					continue
				}
				target := p.eval(k+1, end, 0)
				if p.is(k, "|") {
					p.exec(target, t.text+" |")
					if target.known() && inlShells[strings.TrimSpace(target.s)] {
						printed := p.eval(i+1, k, 0)
						if p.is(i+1, "(") && p.match[i+1] == k-1 {
							args := p.splitArgs(i+2, k-1)
							printed, _ = p.arg(args, 0)
						}
						p.exec(printed, t.text+" | "+strings.TrimSpace(target.s))
					}
				} else {
					p.path("write", target, t.text+" "+p.toks[k].text)
				}
				break
			}
		case "getline":
			if i >= 2 && p.is(i-1, "|") {
				start := i - 2
				for start > 0 && (p.toks[start-1].kind == tkString || p.toks[start-1].kind == tkIdent) &&
					!inlAwkKeyword[p.toks[start-1].text] {
					start--
				}
				p.exec(p.eval(start, i-1, 0), "getline")
			}
		}
	}
}

var inlAwkKeyword = map[string]bool{"print": true, "printf": true, "if": true, "while": true, "return": true,
	"in": true, "getline": true, "do": true, "else": true, "for": true}

// awkStmtEnd returns the end of an awk statement starting at j.
func (p *inlParser) awkStmtEnd(j int) int {
	n := len(p.toks)
	for k := j; k < n; {
		t := p.toks[k]
		if t.kind == tkLine || t.kind == tkPunct && (t.text == ";" || t.text == "}" || t.text == ")") {
			return k
		}
		k = p.skip(k)
	}
	return n
}

// ---- AppleScript

// osa judges do shell script, Finder delete and empty trash.
func (p *inlParser) osa() {
	n := len(p.toks)
	finder := false
	for i := 0; i+1 < n; i++ {
		if strings.EqualFold(p.toks[i].text, "application") && p.toks[i+1].kind == tkString &&
			strings.EqualFold(p.toks[i+1].text, "Finder") {
			finder = true
		}
	}
	word := func(i int, w string) bool {
		return i < n && p.toks[i].kind == tkIdent && strings.EqualFold(p.toks[i].text, w)
	}
	for i := 0; i < n && !p.done(); i++ {
		*p.work--
		switch {
		case word(i, "do") && word(i+1, "shell") && word(i+2, "script"):
			end := p.osaEnd(i + 3)
			p.exec(p.eval(i+3, end, 0), "do shell script")
		case word(i, "delete") && (finder || p.osaHasPOSIX(i+1, p.osaEnd(i+1))):
			end := p.osaEnd(i + 1)
			p.path("delete", p.osaObject(i+1, end), "Finder delete")
		case word(i, "empty") && (word(i+1, "trash") || word(i+1, "the") && word(i+2, "trash")):
			p.emit(Effect{Op: "delete", API: "Finder empty trash"})
		}
	}
}

// osaEnd returns the end of an AppleScript command's direct parameter.
func (p *inlParser) osaEnd(j int) int {
	n := len(p.toks)
	for k := j; k < n; {
		t := p.toks[k]
		if t.kind == tkLine || t.kind == tkPunct && t.text == ")" {
			return k
		}
		if t.kind == tkIdent && k > j {
			switch strings.ToLower(t.text) {
			case "with", "without", "user", "password", "administrator", "altering", "given", "returning", "then", "end":
				return k
			}
		}
		k = p.skip(k)
	}
	return n
}

func (p *inlParser) osaHasPOSIX(a, b int) bool {
	for k := a; k < b; k++ {
		if strings.EqualFold(p.toks[k].text, "POSIX") {
			return true
		}
	}
	return false
}

// osaObject finds the file a Finder command names: POSIX file "/x", or
// file/folder/alias "Disk:Users:x" (an HFS path, turned into /Users/x).
func (p *inlParser) osaObject(a, b int) inlVal {
	for k := a; k+1 < b; k++ {
		t := p.toks[k]
		if t.kind != tkIdent {
			continue
		}
		switch strings.ToLower(t.text) {
		case "posix":
			if k+2 < b && strings.EqualFold(p.toks[k+1].text, "file") {
				return p.eval(k+2, p.osaOperandEnd(k+2, b), 0)
			}
		case "file", "folder", "alias", "item":
			v := p.eval(k+1, p.osaOperandEnd(k+1, b), 0)
			if v.known() && strings.Contains(v.s, ":") && !strings.Contains(v.s, "/") {
				parts := strings.Split(strings.TrimSuffix(v.s, ":"), ":")
				return inlStr("/" + strings.Join(parts[1:], "/"))
			}
			if v.str {
				return v
			}
		}
	}
	return inlVal{}
}

func (p *inlParser) osaOperandEnd(j, b int) int {
	for k := j; k < b; k = p.skip(k) {
		if t := p.toks[k]; t.kind == tkIdent && (strings.EqualFold(t.text, "as") || strings.EqualFold(t.text, "of")) {
			return k
		}
	}
	return b
}
