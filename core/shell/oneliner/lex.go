package oneliner

import (
	"strings"
	"unicode/utf8"
)

// ---------------------------------------------------------------------------
// Lexing one-liner code

// Language families of the code scanner.
const (
	famJS      = 'j' // node, deno, bun, jxa
	famPython  = 'p'
	famPerl    = 'l'
	famRuby    = 'r'
	famPHP     = 'h'
	famAwk     = 'a'
	famOSA     = 'o' // AppleScript
	famLua     = 'u'
	famR       = 'R'
	famTcl     = 't' // Tcl and expect: scanned by tcl.go, not lexed
	famJulia   = 'J'
	famElixir  = 'E'
	famErlang  = 'e'
	famGroovy  = 'g' // Groovy and Scala: the JVM scripting languages (Java library calls)
	famHaskell = 'H'
)

// family maps an Inline.Lang to its family, 0 when unknown.
func family(lang string) byte {
	switch lang {
	case "node", "deno", "bun", "jxa", "js", "javascript":
		return famJS
	case "python":
		return famPython
	case "perl":
		return famPerl
	case "ruby", "crystal":
		return famRuby
	case "php":
		return famPHP
	case "awk":
		return famAwk
	case "osascript", "applescript":
		return famOSA
	case "lua":
		return famLua
	case "r":
		return famR
	case "tcl":
		return famTcl
	case "julia":
		return famJulia
	case "elixir":
		return famElixir
	case "erlang":
		return famErlang
	case "groovy", "scala":
		return famGroovy
	case "haskell":
		return famHaskell
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

type token struct {
	kind  byte
	text  string    // identifier, punctuation, number; for strings the text when there is no interpolation
	parts []strPart // string and exec tokens
	items []string  // word lists
	space bool      // whitespace before the token
	tmpl  bool      // a JS template literal
}

// strPart is a piece of a string literal: text, or the source of an
// interpolated expression (expr set).
type strPart struct {
	text string
	expr bool
}

type lexer struct {
	fam   byte
	s     string
	i     int
	space bool
	toks  []token
}

// lex splits code into tokens. Comments are dropped; unterminated
// strings and comments run to the end of the text.
func lex(fam byte, code string) []token {
	l := &lexer{fam: fam, s: code, toks: make([]token, 0, len(code)/4+4)}
	if fam == famJS && strings.HasPrefix(code, "#!") {
		l.skipLine()
	}
	for l.i < len(l.s) {
		l.next()
	}
	return l.toks
}

func (l *lexer) emit(t token) {
	t.space = l.space
	l.space = false
	l.toks = append(l.toks, t)
}

func (l *lexer) skipLine() {
	for l.i < len(l.s) && l.s[l.i] != '\n' {
		l.i++
	}
}

func (l *lexer) skipTo(end string) {
	if k := strings.Index(l.s[l.i:], end); k >= 0 {
		l.i += k + len(end)
	} else {
		l.i = len(l.s)
	}
	l.space = true
}

func identStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func identChar(c byte) bool { return identStart(c) || c >= '0' && c <= '9' }

func (l *lexer) peek(k int) byte {
	if l.i+k >= 0 && l.i+k < len(l.s) {
		return l.s[l.i+k]
	}
	return 0
}

func (l *lexer) next() {
	s, c := l.s, l.s[l.i]
	switch {
	case c == '\n':
		if n := len(l.toks); n == 0 || l.toks[n-1].kind != tkLine {
			l.emit(token{kind: tkLine, text: "\n"})
		}
		l.i++
		l.space = true
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		l.i++
		l.space = true
	case c == '\\' && (l.peek(1) == '\n' || l.peek(1) == '\r' && l.peek(2) == '\n') && l.fam != famPerl:
		l.i += 2
		l.space = true
	case l.comment():
	case c == '$' && (l.fam == famPerl || l.fam == famPHP || l.fam == famRuby), c == '@' && (l.fam == famPerl || l.fam == famRuby):
		l.sigil()
	case c == '%' && l.fam == famPerl && identStart(l.peek(1)) && l.operand():
		l.sigil()
	case c == '[' && l.fam == famLua && l.luaLong():
	case c == '~' && l.fam == famElixir && l.sigil2():
	case c == ':' && l.fam == famElixir && identStart(l.peek(1)) && l.peek(-1) != ':':
		l.elixirAtom()
	case c == '$' && l.fam == famErlang && l.i+1 < len(s):
		l.i += 2 // a character literal: $a, $\"
		if s[l.i-1] == '\\' && l.i < len(s) {
			l.i++
		}
		l.emit(token{kind: tkNumber, text: s[l.i-2 : l.i]})
	case c == '\'' || c == '"' || c == '`':
		l.quote()
	case c >= '0' && c <= '9':
		start := l.i
		for l.i < len(s) && (identChar(s[l.i]) || s[l.i] == '.' && l.i+1 < len(s) && s[l.i+1] != '.') {
			l.i++
		}
		l.emit(token{kind: tkNumber, text: s[start:l.i]})
	case identStart(c) || c == '$' && l.fam == famJS:
		l.ident()
	case c == '/' && (l.fam == famJS || l.fam == famPerl || l.fam == famRuby || l.fam == famAwk) && l.operand():
		if !l.regex() {
			l.punct()
		}
	case c == '%' && l.fam == famRuby && l.operand() && l.rubyPercent():
	case c == ':' && l.fam == famRuby && identStart(l.peek(1)) && l.operand() && l.peek(-1) != ':':
		start := l.i + 1
		l.i++
		for l.i < len(s) && identChar(s[l.i]) {
			l.i++
		}
		l.emit(token{kind: tkString, text: s[start:l.i]}) // a symbol
	case l.fam == famPHP && strings.HasPrefix(s[l.i:], "<<<"):
		l.phpHeredoc()
	case l.fam == famPHP && strings.HasPrefix(s[l.i:], "<?php"):
		l.i += 5
		l.space = true
	case l.fam == famPHP && strings.HasPrefix(s[l.i:], "<?="):
		l.i += 3
		l.space = true
	case l.fam == famPHP && strings.HasPrefix(s[l.i:], "?>"):
		l.i += 2
		l.space = true
	default:
		l.punct()
	}
}

// comment skips a comment at l.i and reports whether there was one.
func (l *lexer) comment() bool {
	c, d := l.s[l.i], l.peek(1)
	switch {
	case c == '/' && d == '/' && (l.fam == famJS || l.fam == famPHP || l.fam == famGroovy):
		l.skipLine()
	case c == '/' && d == '*' && (l.fam == famJS || l.fam == famPHP || l.fam == famGroovy):
		l.i += 2
		l.skipTo("*/")
	case c == '%' && l.fam == famErlang:
		l.skipLine()
	case c == '-' && d == '-' && l.fam == famHaskell && l.peek(2) != '>':
		l.skipLine()
	case c == '{' && d == '-' && l.fam == famHaskell:
		l.i += 2
		l.skipTo("-}")
	case c == '-' && d == '-' && l.fam == famLua:
		l.i += 2
		if eq, ok := luaLongOpen(l.s[l.i:]); ok {
			l.i += eq + 2
			l.skipTo("]" + strings.Repeat("=", eq) + "]")
		} else {
			l.skipLine()
		}
	case c == '#' && l.fam != famJS && l.fam != famLua && !(l.fam == famPHP && d == '[') && l.fam != famErlang && l.fam != famHaskell &&
		!(l.fam == famGroovy && (l.i > 0 || d != '!')):
		l.skipLine()
	case c == '-' && d == '-' && l.fam == famOSA:
		l.skipLine()
	case c == '(' && d == '*' && l.fam == famOSA:
		l.i += 2
		l.skipTo("*)")
	case c == '=' && l.fam == famRuby && strings.HasPrefix(l.s[l.i:], "=begin") && (l.i == 0 || l.s[l.i-1] == '\n'):
		l.skipTo("\n=end")
		l.skipLine()
	default:
		return false
	}
	return true
}

// operand reports whether the position is where a value may start (so /
// begins a regex, % a Ruby literal), judged from the previous token.
func (l *lexer) operand() bool {
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
		if regexAfter[t.text] {
			return true
		}
		// `grep /x/` in Perl, `x.match /re/` in Ruby: a space before the
		// slash and none after it.
		return (l.fam == famPerl || l.fam == famRuby) && l.space && l.peek(1) != ' ' && l.peek(1) != '='
	}
	return false
}

// regexAfter lists keywords after which / starts a regex literal.
var regexAfter = map[string]bool{
	"return": true, "typeof": true, "instanceof": true, "in": true, "of": true, "new": true, "delete": true,
	"void": true, "throw": true, "case": true, "do": true, "else": true, "yield": true, "await": true,
	"if": true, "unless": true, "and": true, "or": true, "not": true, "while": true, "until": true,
	"split": true, "grep": true, "map": true, "join": true, "when": true, "print": true, "push": true,
	"unshift": true, "x": true, "eq": true, "ne": true, "lt": true, "gt": true, "le": true, "ge": true,
	"cmp": true, "match": true, "scan": true, "sub": true, "gsub": true, "elsif": true, "then": true,
}

func (l *lexer) ident() {
	s := l.s
	start := l.i
	for l.i < len(s) && (identChar(s[l.i]) || s[l.i] == '$' && l.fam == famJS) {
		l.i++
	}
	if (l.fam == famRuby || l.fam == famElixir) && l.i < len(s) && (s[l.i] == '?' || s[l.i] == '!') && l.peek(1) != '=' {
		l.i++
	}
	for l.fam == famHaskell && l.i < len(s) && s[l.i] == '\'' {
		l.i++ // x', foldl'
	}
	name := s[start:l.i]
	switch l.fam {
	case famPython:
		if q := l.peek(0); (q == '\'' || q == '"') && len(name) <= 2 && strings.Trim(strings.ToLower(name), "rbuf") == "" {
			l.pyString(strings.ToLower(name))
			return
		}
	case famPerl:
		if l.perlQuote(name) {
			return
		}
	}
	l.emit(token{kind: tkIdent, text: name})
}

// sigil lexes $x, @x, %x (Perl), $x (PHP), @x, @@x, $x (Ruby).
func (l *lexer) sigil() {
	s := l.s
	start := l.i
	l.i++
	for l.i < len(s) && (s[l.i] == '@' || s[l.i] == '$') && l.i-start < 2 {
		l.i++ // @@x, $$x
	}
	if l.i < len(s) && s[l.i] == '#' && l.fam == famPerl {
		l.i++ // $#array
	}
	if l.i < len(s) && identStart(s[l.i]) {
		for l.i < len(s) && identChar(s[l.i]) {
			l.i++
		}
		for l.fam == famPerl && l.i+2 < len(s) && s[l.i] == ':' && s[l.i+1] == ':' && identStart(s[l.i+2]) {
			l.i += 2
			for l.i < len(s) && identChar(s[l.i]) {
				l.i++
			}
		}
	} else if l.i < len(s) && l.i == start+1 && s[l.i] != '{' && s[l.i] != ' ' && s[l.i] != '\n' && s[l.i] < 0x80 {
		l.i++ // $_ $0 $! $@ $/ ...
	}
	l.emit(token{kind: tkIdent, text: s[start:l.i]})
}

var puncts = []string{
	"<<<", "===", "!==", "**=", "...", "<<=", ">>=", "<=>", "||=", "&&=", "//=", "??=",
	"=>", "->", "::", "?.", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=",
	".=", "%=", "|=", "&=", "^=", "**", "<<", ">>", "=~", "!~", "..", ":=", "//", "??",
}

// punctsByByte lists the multi-character operators by their first byte.
var punctsByByte = func() map[byte][]string {
	m := map[byte][]string{}
	for _, p := range puncts {
		m[p[0]] = append(m[p[0]], p)
	}
	return m
}()

// familyPuncts are operators of one family that would split wrongly
// with the shared list: Elixir's <> (concatenation) and |> (pipe),
// Haskell's =<< and <- (binds) and <$>.
var familyPuncts = map[byte][]string{
	famElixir:  {"<>", "|>"},
	famHaskell: {"=<<", "<-", "<$>"},
}

func (l *lexer) punct() {
	rest := l.s[l.i:]
	for _, p := range familyPuncts[l.fam] {
		if strings.HasPrefix(rest, p) {
			l.i += len(p)
			l.emit(token{kind: tkPunct, text: p})
			return
		}
	}
	for _, p := range punctsByByte[rest[0]] {
		if strings.HasPrefix(rest, p) {
			if p == "//" && l.fam != famPerl && l.fam != famPython {
				break
			}
			l.i += len(p)
			l.emit(token{kind: tkPunct, text: p})
			return
		}
	}
	r := runeAt(l.s, l.i)
	l.i += len(r)
	l.emit(token{kind: tkPunct, text: r})
}

// regex lexes a /.../flags literal; false when no closing slash is on the
// line (then / is division).
func (l *lexer) regex() bool {
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
				l.emit(token{kind: tkRegex, text: s[l.i:j]})
				l.i = j
				return true
			}
		}
	}
	return false
}

func (l *lexer) quote() {
	c := l.s[l.i]
	mode := byte(0)
	switch l.fam {
	case famJS:
		mode = map[byte]byte{'\'': 'e', '"': 'e', '`': 't'}[c]
	case famPython:
		if c != '`' {
			l.pyString("")
			return
		}
	case famPerl:
		mode = map[byte]byte{'\'': 'q', '"': 'p', '`': 'p'}[c]
	case famRuby:
		mode = map[byte]byte{'\'': 'q', '"': 'r', '`': 'r'}[c]
	case famPHP:
		mode = map[byte]byte{'\'': 'q', '"': 'h', '`': 'h'}[c]
	case famAwk, famOSA:
		if c == '"' {
			mode = 'e'
		}
	case famLua, famR:
		if c != '`' {
			mode = 'e'
		}
	case famJulia:
		// "..." strings; `...` command literals (run(`make`)); '
		// is a character literal or the adjoint operator.
		mode = map[byte]byte{'"': 'e', '`': 'n'}[c]
	case famElixir:
		// "..." strings and '...' charlists, both with #{...}.
		mode = map[byte]byte{'\'': 'r', '"': 'r'}[c]
	case famErlang, famHaskell:
		// Erlang: "..." strings, '...' quoted atoms; Haskell: "..."
		// strings, 'c' characters.
		mode = map[byte]byte{'\'': 'e', '"': 'e'}[c]
	case famGroovy:
		// '...' plain strings, "..." GStrings with ${...}.
		mode = map[byte]byte{'\'': 'q', '"': 't'}[c]
	}
	if mode == 0 {
		l.punct()
		return
	}
	l.i++
	parts := l.body(c, c, mode, false)
	kind := byte(tkString)
	if c == '`' && l.fam != famJS {
		kind = tkExec
	}
	l.emitString(kind, parts, c == '`' && l.fam == famJS)
}

func (l *lexer) emitString(kind byte, parts []strPart, tmpl bool) {
	t := token{kind: kind, parts: parts, tmpl: tmpl}
	if len(parts) == 0 {
		t.parts = nil
	} else if len(parts) == 1 && !parts[0].expr {
		t.text, t.parts = parts[0].text, nil
	}
	l.emit(t)
}

// pyString lexes a Python string with the given prefix letters at l.i.
func (l *lexer) pyString(prefix string) {
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
func (l *lexer) body(open, close byte, mode byte, triple bool) []strPart {
	s := l.s
	var parts []strPart
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			parts = append(parts, strPart{text: b.String()})
			b.Reset()
		}
	}
	expr := func(e string) {
		flush()
		parts = append(parts, strPart{text: e, expr: true})
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
			end := braceEnd(s, start)
			expr(s[start:end])
			l.i = min(end+1, len(s))
			continue
		case (mode == 'f' || mode == 'F') && c == '{':
			if l.peek(1) == '{' {
				b.WriteByte('{')
				l.i += 2
				continue
			}
			end := braceEnd(s, l.i+1)
			expr(formatField(s[l.i+1 : end]))
			l.i = min(end+1, len(s))
			continue
		case (mode == 'f' || mode == 'F') && c == '}' && l.peek(1) == '}':
			b.WriteByte('}')
			l.i += 2
			continue
		case mode == 'r' && c == '#' && (l.peek(1) == '@' || l.peek(1) == '$'):
			start := l.i
			l.i += 2
			for l.i < len(s) && (identChar(s[l.i]) || s[l.i] == '@') {
				l.i++
			}
			expr(s[start+1 : l.i])
			continue
		case (mode == 'p' || mode == 'h') && c == '$' || mode == 'p' && c == '@':
			if e, n := interpVar(s[l.i:], mode); n > 0 {
				expr(e)
				l.i += n
				continue
			}
		}
		r := runeAt(s, l.i)
		b.WriteString(r)
		l.i += len(r)
	}
	flush()
	return parts
}

// escape decodes a backslash escape whose letter is at l.i.
func (l *lexer) escape(b *strings.Builder) {
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
				if r, ok := hexRune(s[l.i+1 : l.i+k]); ok {
					b.WriteRune(r)
					l.i += k + 1
					return
				}
			}
		}
		if l.i+n <= len(s) {
			if r, ok := hexRune(s[l.i : l.i+n]); ok {
				b.WriteRune(r)
				l.i += n
				return
			}
		}
		b.WriteByte(c)
	default:
		r := runeAt(s, l.i-1)
		b.WriteString(r)
		l.i += len(r) - 1
	}
}

func hexRune(h string) (rune, bool) {
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

// braceEnd returns the index of the } closing a brace group whose inside
// starts at i, skipping nested braces and quoted text; len(s) when none.
func braceEnd(s string, i int) int {
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

// formatField strips a Python format field's conversion and spec
// ({x!r:>10} → x).
func formatField(f string) string {
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

// interpVar measures a Perl or PHP variable interpolated in a double-
// quoted string at the start of s ($x, ${x}, $x{k}, $x[0], $x->[0],
// $x->y, @x); it returns the expression and its length, or 0 when the $ or
// @ is literal.
func interpVar(s string, mode byte) (string, int) {
	if len(s) < 2 {
		return "", 0
	}
	sig := s[0]
	if s[1] == '{' {
		end := braceEnd(s, 2)
		inner := strings.TrimSpace(s[2:min(end, len(s))])
		return string(sig) + inner, min(end+1, len(s))
	}
	if !identStart(s[1]) {
		if mode == 'p' && sig == '$' && strings.IndexByte("&`'+_./,;!0123456789", s[1]) >= 0 {
			return s[:2], 2 // a Perl special variable
		}
		return "", 0
	}
	i := 1
	for i < len(s) && (identChar(s[i]) || mode == 'p' && s[i] == ':' && i+2 < len(s) && s[i+1] == ':' && identStart(s[i+2])) {
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
		case strings.HasPrefix(s[i:], "->") && i+2 < len(s) && (s[i+2] == '[' || s[i+2] == '{' || mode == 'h' && identStart(s[i+2])):
			i += 2
			if mode == 'h' {
				for i < len(s) && identChar(s[i]) {
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

// closingDelim returns the closing delimiter for a quote-like opener.
func closingDelim(open byte) byte {
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
func (l *lexer) perlQuote(name string) bool {
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
	if identChar(d) || d == ' ' || d == '\n' || d == '=' && j+1 < len(l.s) && l.s[j+1] == '>' || strings.IndexByte(",;)", d) >= 0 ||
		j > l.i && strings.IndexByte("({[</'\"|!", d) < 0 {
		return false
	}
	closer := closingDelim(d)
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
		l.emit(token{kind: tkWords, items: strings.Fields(text)})
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
					l.body(d2, closingDelim(d2), 'n', false)
				}
			} else {
				l.body(d, closer, 'n', false)
			}
		}
		for l.i < len(l.s) && l.s[l.i] >= 'a' && l.s[l.i] <= 'z' {
			l.i++
		}
		l.emit(token{kind: tkRegex, text: l.s[start:l.i]})
	}
	return true
}

// rubyPercent lexes %q() %Q() %() %w() %i() %x() %r{} %s(); false when the
// % is an operator.
func (l *lexer) rubyPercent() bool {
	s := l.s
	j := l.i + 1
	kind := byte('Q')
	if j < len(s) && strings.IndexByte("qQwWiIxrs", s[j]) >= 0 && j+1 < len(s) && !identChar(s[j+1]) && s[j+1] != ' ' {
		kind = s[j]
		j++
	}
	if j >= len(s) || identChar(s[j]) || strings.IndexByte(" \t\n=", s[j]) >= 0 {
		return false
	}
	d := s[j]
	l.i = j + 1
	closer := closingDelim(d)
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
		l.emit(token{kind: tkWords, items: strings.Fields(text)})
	case 'r':
		start := l.i - 1
		l.body(d, closer, 'n', false)
		for l.i < len(s) && s[l.i] >= 'a' && s[l.i] <= 'z' {
			l.i++
		}
		l.emit(token{kind: tkRegex, text: s[start:l.i]})
	}
	return true
}

// phpHeredoc lexes <<<ID, <<<"ID" (interpolating) and <<<'ID' (nowdoc).
func (l *lexer) phpHeredoc() {
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
	for j < len(s) && identChar(s[j]) {
		j++
	}
	id := s[start:j]
	nl := strings.IndexByte(s[j:], '\n')
	if id == "" || nl < 0 {
		l.i += 3
		l.emit(token{kind: tkPunct, text: "<<<"})
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
		if strings.HasPrefix(t, id) && (len(t) == len(id) || !identChar(t[len(id)])) {
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
	sub := &lexer{fam: l.fam, s: text}
	l.emitString(tkString, sub.body(0, 0, mode, false), false)
	l.i = next
}

// runeAt returns the UTF-8 character starting at s[i] (one byte when s[i]
// does not start a valid one).
func runeAt(s string, i int) string {
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i : i+n]
}

// luaLongOpen reports a Lua long bracket at the start of s ([[, [=[, ...)
// and its level (the number of =).
func luaLongOpen(s string) (int, bool) {
	if !strings.HasPrefix(s, "[") {
		return 0, false
	}
	eq := 0
	for eq+1 < len(s) && s[eq+1] == '=' {
		eq++
	}
	return eq, eq+1 < len(s) && s[eq+1] == '['
}

// luaLong lexes a Lua long string [[...]] (or [==[...]==]) as a literal.
func (l *lexer) luaLong() bool {
	eq, ok := luaLongOpen(l.s[l.i:])
	if !ok {
		return false
	}
	start := l.i + eq + 2
	end := strings.Index(l.s[start:], "]"+strings.Repeat("=", eq)+"]")
	text := ""
	if end < 0 {
		text, l.i = l.s[start:], len(l.s)
	} else {
		text, l.i = l.s[start:start+end], start+end+eq+2
	}
	text = strings.TrimPrefix(text, "\n")
	l.emit(token{kind: tkString, text: text})
	return true
}

// sigil2 lexes an Elixir sigil at l.i: ~c"..." and ~s(...) are strings
// (charlist or binary) with #{...}, ~C and ~S strings without escapes,
// ~w(...) and ~W a word list, any other letter (~r regex, ~D date ...)
// an opaque literal; modifier letters after the closer are skipped. It
// reports false when no sigil starts here (~ is then an operator).
func (l *lexer) sigil2() bool {
	letter, open := l.peek(1), l.peek(2)
	if !(letter >= 'a' && letter <= 'z' || letter >= 'A' && letter <= 'Z') || strings.IndexByte(`"'([{</|`, open) < 0 || open == 0 {
		return false
	}
	l.i += 3
	mode := byte('r')
	if letter >= 'A' && letter <= 'Z' {
		mode = 'n'
	}
	parts := l.body(open, closingDelim(open), mode, false)
	for l.i < len(l.s) && (l.s[l.i] >= 'a' && l.s[l.i] <= 'z' || l.s[l.i] >= 'A' && l.s[l.i] <= 'Z') {
		l.i++
	}
	switch letter {
	case 'c', 's', 'C', 'S':
		l.emitString(tkString, parts, false)
	case 'w', 'W':
		var text strings.Builder
		for _, part := range parts {
			if !part.expr {
				text.WriteString(part.text)
			}
		}
		l.emit(token{kind: tkWords, items: strings.Fields(text.String())})
	default:
		l.emit(token{kind: tkRegex, text: "~" + string(letter)})
	}
	return true
}

// elixirAtom lexes :name. An atom naming an Erlang module before a call
// (:os.cmd, :file.del_dir_r) is an identifier ":os"; any other atom is a
// string holding its name, as a Ruby symbol is.
func (l *lexer) elixirAtom() {
	start := l.i + 1
	l.i++
	for l.i < len(l.s) && identChar(l.s[l.i]) {
		l.i++
	}
	if l.i+1 < len(l.s) && l.s[l.i] == '.' && identStart(l.s[l.i+1]) {
		l.emit(token{kind: tkIdent, text: l.s[start-1 : l.i]})
		return
	}
	l.emit(token{kind: tkString, text: l.s[start:l.i]})
}
