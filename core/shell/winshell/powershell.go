package winshell

import (
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// ---------------------------------------------------------------------------
// PowerShell

type psSplitter struct {
	src    string
	pos    int
	lookup func(string) (string, bool)
	// vars holds variables assigned earlier in the text, keyed by lower-case
	// name without scope; a nil value means "assigned something unknown".
	vars  map[string]*string
	out   *segOutput
	level int // Invoke-Expression nesting
}

// psSpace returns the byte length of PowerShell whitespace at i, or 0.
func psSpace(s string, i int) int {
	switch s[i] {
	case ' ', '\t', '\f', '\v':
		return 1
	case 0xC2:
		if i+1 < len(s) && s[i+1] == 0xA0 { // no-break space
			return 2
		}
	}
	return 0
}

// psQuoteAt reports a quote character at i: '\” for ' and the typographic
// single quotes, '"' for " and the typographic double quotes (PowerShell
// accepts both), with its byte length.
func psQuoteAt(s string, i int) (byte, int) {
	if i >= len(s) {
		return 0, 0
	}
	switch s[i] {
	case '\'':
		return '\'', 1
	case '"':
		return '"', 1
	case 0xE2:
		if i+2 < len(s) && s[i+1] == 0x80 {
			switch s[i+2] {
			case 0x98, 0x99, 0x9A, 0x9B:
				return '\'', 3
			case 0x9C, 0x9D, 0x9E:
				return '"', 3
			}
		}
	}
	return 0, 0
}

// psContinuation returns the length of a backtick line continuation at i
// (backtick, optional CR, LF), 1 for a backtick at the end of the text, or 0.
func psContinuation(s string, i int) int {
	if s[i] != '`' {
		return 0
	}
	j := i + 1
	if j == len(s) {
		return 1
	}
	if s[j] == '\r' {
		j++
	}
	if j < len(s) && s[j] == '\n' {
		return j + 1 - i
	}
	return 0
}

func psNameChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func psNameStart(c byte) bool {
	return psNameChar(c) && !(c >= '0' && c <= '9') || c == '_'
}

// psQuoteLen is the byte length of a quote character at i, or 0.
func psQuoteLen(s string, i int) int {
	_, n := psQuoteAt(s, i)
	return n
}

// psNameEnd returns the end of the variable name starting at i; a
// typographic quote ends it.
func psNameEnd(s string, i int) int {
	for i < len(s) && psNameChar(s[i]) && psQuoteLen(s, i) == 0 {
		i++
	}
	return i
}

func (p *psSplitter) block(depth, parent int, via string, closer byte) {
	prev := -1
	for p.pos < len(p.src) && !p.out.stop {
		idx, closed := p.statement(depth, parent, via, closer, prev)
		if idx >= 0 {
			prev = idx
		}
		if closed {
			return
		}
	}
}

func (p *psSplitter) statement(depth, parent int, via string, closer byte, prev int) (int, bool) {
	idx := p.out.reserve(depth, parent, via)
	var words []ir.Word
	var redirs []ir.Redirect
	call, closed := false, false
	assign, plainAssign := "", false
	sep := ""
	s := p.src
scan:
	for p.pos < len(s) && !p.out.stop {
		if n := psSpace(s, p.pos); n > 0 {
			p.pos += n
			continue
		}
		c := s[p.pos]
		first := len(words) == 0 && len(redirs) == 0 && !call
		switch {
		case c == '`' && psContinuation(s, p.pos) > 0:
			p.pos += psContinuation(s, p.pos)
		case c == '\r' || c == '\n':
			p.pos = skipNewline(s, p.pos)
			sep = "\n"
			break scan
		case c == ';':
			p.pos++
			sep = ";"
			break scan
		case c == '|':
			sep = two(s, p.pos, '|')
			p.pos += len(sep)
			break scan
		case c == '&':
			if p.pos+1 < len(s) && s[p.pos+1] == '&' {
				p.pos += 2
				sep = "&&"
				break scan
			}
			p.pos++
			if first {
				call = true
				continue
			}
			sep = "&"
			break scan
		case closer != 0 && c == closer:
			p.pos++
			closed = true
			break scan
		case c == ')' || c == '}':
			p.pos++ // stray closer: PowerShell would refuse the text; skip it
		case c == '#':
			p.skipLine()
		case c == '<' && p.pos+1 < len(s) && s[p.pos+1] == '#':
			p.skipBlockComment()
		case c == '>' || (c >= '1' && c <= '9' || c == '*') && p.pos+1 < len(s) && s[p.pos+1] == '>':
			redirs = append(redirs, p.redirect(depth, idx))
		case c == '<':
			p.pos++ // reserved by PowerShell; a word break here
		case c == ',':
			p.pos++
			words = append(words, literalWord(","))
		case first && assign == "" && c == '$' && p.assignmentLen() > 0:
			var n int
			n, assign, plainAssign = p.assignmentAt()
			p.pos += n
		case first && c == '.' && (p.pos+1 == len(s) || psSpace(s, p.pos+1) > 0):
			p.pos++ // dot-source operator
			call = true
		default:
			w := p.word(depth, idx)
			if w.Raw == "--%" {
				words = append(words, p.stopParsing()...)
				continue
			}
			if w.Raw == "" { // cannot happen; guarantees progress
				p.pos++
				continue
			}
			words = append(words, w)
		}
	}
	if p.out.finish(idx, prev, words, redirs, sep) < 0 {
		if assign != "" {
			p.vars[assign] = nil
		}
		return -1, closed
	}
	seg := &p.out.segs[idx]
	seg.Expression = !call && psIsExpression(words)
	if assign != "" {
		p.assignVar(assign, plainAssign, seg.Words, seg.Expression)
	}
	if prev >= 0 && p.out.segs[prev].FeedsInto == idx {
		p.pipeLiterals(prev, idx)
	}
	if !seg.Expression {
		p.invokeExpression(idx, prev, depth)
	}
	return idx, closed
}

func skipNewline(s string, i int) int {
	if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
		return i + 2
	}
	return i + 1
}

// two returns the operator c or cc at i.
func two(s string, i int, c byte) string {
	if i+1 < len(s) && s[i+1] == c {
		return string([]byte{c, c})
	}
	return string(c)
}

func (p *psSplitter) skipLine() {
	for p.pos < len(p.src) && p.src[p.pos] != '\n' && p.src[p.pos] != '\r' {
		p.pos++
	}
}

func (p *psSplitter) skipBlockComment() {
	if i := strings.Index(p.src[p.pos+2:], "#>"); i >= 0 {
		p.pos += 2 + i + 2
	} else {
		p.pos = len(p.src)
	}
}

// psIsExpression reports whether a statement starting with words[0] is an
// expression rather than a command invocation.
func psIsExpression(words []ir.Word) bool {
	if len(words) == 0 {
		return false
	}
	raw := words[0].Raw
	if raw == "" {
		return false
	}
	if q, _ := psQuoteAt(raw, 0); q != 0 {
		return true
	}
	switch raw[0] {
	case '$', '@', '(', '[', '{', '-', ',':
		return true
	}
	return psNumberLike(raw)
}

// psNumberLike reports a PowerShell numeric literal or range (1, 0x1F, 2.5,
// 10kb, 1..10).
func psNumberLike(s string) bool {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		return len(s) > 2 && strings.Trim(s[2:], "0123456789abcdefABCDEF") == ""
	}
	t := strings.TrimRight(strings.ToLower(s), "kmgtpb")
	return strings.Trim(t, "0123456789.") == ""
}

// assignmentAt recognises a variable-assignment head ("$x = ",
// "${a b} += ") at the current position. It returns its length (0 when
// there is none), the variable's key and whether the operator is a plain =.
func (p *psSplitter) assignmentAt() (n int, key string, plain bool) {
	s, i := p.src, p.pos
	j := i + 1
	var name string
	if j < len(s) && s[j] == '{' {
		k := strings.IndexByte(s[j:], '}')
		if k < 0 {
			return 0, "", false
		}
		name = s[j+1 : j+k]
		j += k + 1
	} else {
		k := j
		for k < len(s) && (psNameChar(s[k]) || s[k] == ':') {
			k++
		}
		if k == j {
			return 0, "", false
		}
		name = s[j:k]
		j = k
	}
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	switch {
	case j < len(s) && s[j] == '=' && (j+1 == len(s) || s[j+1] != '='):
		return j + 1 - i, psVarKey(name), true
	case j+1 < len(s) && strings.IndexByte("+-*/%", s[j]) >= 0 && s[j+1] == '=':
		return j + 2 - i, psVarKey(name), false
	case j+2 < len(s) && s[j] == '?' && s[j+1] == '?' && s[j+2] == '=':
		return j + 3 - i, psVarKey(name), false
	}
	return 0, "", false
}

func (p *psSplitter) assignmentLen() int {
	n, _, _ := p.assignmentAt()
	return n
}

// psVarKey is the map key of a variable name: lower case, scope removed.
func psVarKey(name string) string {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		switch strings.ToLower(name[:i]) {
		case "global", "script", "local", "private", "using":
			name = name[i+1:]
		}
	}
	return strings.ToLower(name)
}

func (p *psSplitter) assignVar(key string, plain bool, rhs []ir.Word, expression bool) {
	if plain && expression && len(rhs) == 1 && !rhs[0].Unknown {
		v := rhs[0].Value
		p.vars[key] = &v
		return
	}
	p.vars[key] = nil
}

// resolve returns the value of a variable when it is known.
func (p *psSplitter) resolve(name string) (string, bool) {
	key := psVarKey(name)
	if v, ok := p.vars[key]; ok {
		if v == nil {
			return "", false
		}
		return *v, true
	}
	switch key {
	case "null":
		return "", true
	case "true":
		return "True", true
	case "false":
		return "False", true
	case "home":
		return lookupEnv(p.lookup, "HOME", "USERPROFILE")
	case "pwd":
		return lookupEnv(p.lookup, "PWD")
	}
	if strings.HasPrefix(key, "env:") {
		return lookupEnv(p.lookup, name[strings.LastIndexByte(name, ':')+1:])
	}
	return "", false
}

// word scans one argument starting at p.pos.
func (p *psSplitter) word(depth, idx int) ir.Word {
	s := p.src
	start := p.pos
	var w wordBuilder
loop:
	for p.pos < len(s) && !p.out.stop {
		if psSpace(s, p.pos) > 0 {
			break
		}
		c := s[p.pos]
		atStart := p.pos == start
		switch c {
		case '\r', '\n', ';', ',', '|', '&', ')', '}', '>', '<':
			break loop
		case '(':
			if !atStart {
				break loop
			}
			p.pos++
			p.group(depth, idx, "()", ')')
			w.dyn(s[start:p.pos])
		case '{':
			if !atStart {
				w.lit("{")
				p.pos++
				continue
			}
			p.pos++
			p.group(depth, idx, "{}", '}')
			w.dyn(s[start:p.pos])
		case '$':
			p.dollar(&w, depth, idx, false)
		case '@':
			if atStart && p.at(depth, idx, &w) {
				continue
			}
			w.lit("@")
			p.pos++
		case '`':
			if psContinuation(s, p.pos) > 0 {
				if p.pos+1 == len(s) {
					p.pos++
				}
				break loop
			}
			p.pos++
			r := runeAt(s, p.pos)
			w.lit(r)
			p.pos += len(r)
		default:
			switch q, _ := psQuoteAt(s, p.pos); q {
			case '\'':
				p.single(&w)
			case '"':
				p.double(&w, depth, idx)
			default:
				r := runeAt(s, p.pos)
				w.lit(r)
				p.pos += len(r)
			}
		}
	}
	return w.word(s[start:p.pos], "*?[")
}

// at handles '@' at the start of a word: @( ), @{ }, here-strings and
// splatting. It reports false when '@' is an ordinary character.
func (p *psSplitter) at(depth, idx int, w *wordBuilder) bool {
	s := p.src
	start := p.pos
	if start+1 >= len(s) {
		return false
	}
	switch c := s[start+1]; {
	case c == '(':
		p.pos += 2
		p.group(depth, idx, "@()", ')')
		w.dyn(s[start:p.pos])
		return true
	case c == '{':
		p.pos += 2
		p.group(depth, idx, "@{}", '}')
		w.dyn(s[start:p.pos])
		return true
	case c == '\'' || c == '"':
		return p.hereString(w, depth, idx)
	case psNameChar(c) && psQuoteLen(s, start+1) == 0:
		j := psNameEnd(s, start+1)
		p.pos = j
		w.dyn(s[start:j]) // splatting: arguments from a variable
		return true
	}
	return false
}

// hereString scans @'...'@ or @"..."@ at p.pos; false when the header is
// not followed by a line break (then '@' is an ordinary character).
func (p *psSplitter) hereString(w *wordBuilder, depth, idx int) bool {
	s := p.src
	q := s[p.pos+1]
	j := p.pos + 2
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if j < len(s) && s[j] == '\r' {
		j++
	}
	if j >= len(s) || s[j] != '\n' {
		return false
	}
	body := j + 1
	var content string
	if k := strings.Index(s[j:], "\n"+string(q)+"@"); k >= 0 {
		end := j + k
		content = strings.TrimSuffix(s[body:max(body, end)], "\r")
		p.pos = end + 3
	} else {
		content = s[body:]
		p.pos = len(s)
	}
	if q == '\'' {
		w.lit(content)
		return true
	}
	sub := &psSplitter{src: content, lookup: p.lookup, vars: p.vars, out: p.out, level: p.level}
	sub.expandable(w, depth, idx, false)
	return true
}

func (p *psSplitter) single(w *wordBuilder) {
	_, n := psQuoteAt(p.src, p.pos)
	p.pos += n
	for p.pos < len(p.src) {
		if q, n := psQuoteAt(p.src, p.pos); q == '\'' {
			if q2, n2 := psQuoteAt(p.src, p.pos+n); q2 == '\'' {
				w.lit("'")
				p.pos += n + n2
				continue
			}
			p.pos += n
			return
		}
		r := runeAt(p.src, p.pos)
		w.lit(r)
		p.pos += len(r)
	}
}

func (p *psSplitter) double(w *wordBuilder, depth, idx int) {
	_, n := psQuoteAt(p.src, p.pos)
	p.pos += n
	p.expandable(w, depth, idx, true)
}

// expandable scans the inside of an expandable string: variables, $( )
// subexpressions and backtick escapes. With quoted set it ends at the
// closing double quote ("" being an escaped quote); else at the end of text.
func (p *psSplitter) expandable(w *wordBuilder, depth, idx int, quoted bool) {
	s := p.src
	for p.pos < len(s) && !p.out.stop {
		if quoted {
			if q, n := psQuoteAt(s, p.pos); q == '"' {
				if q2, n2 := psQuoteAt(s, p.pos+n); q2 == '"' {
					w.lit(`"`)
					p.pos += n + n2
					continue
				}
				p.pos += n
				return
			}
		}
		switch s[p.pos] {
		case '`':
			p.pos++
			if p.pos < len(s) {
				p.escape(w)
			}
		case '$':
			p.dollar(w, depth, idx, true)
		default:
			r := runeAt(s, p.pos)
			w.lit(r)
			p.pos += len(r)
		}
	}
}

// escape decodes the backtick escape whose letter is at p.pos.
func (p *psSplitter) escape(w *wordBuilder) {
	s := p.src
	c := s[p.pos]
	if e := strings.IndexByte("0abefnrtv", c); e >= 0 {
		w.lit(string("\x00\a\b\x1b\f\n\r\t\v"[e]))
		p.pos++
		return
	}
	if c == 'u' && p.pos+1 < len(s) && s[p.pos+1] == '{' {
		if k := strings.IndexByte(s[p.pos:], '}'); k > 2 && k <= 8 {
			var r rune
			ok := true
			for _, h := range s[p.pos+2 : p.pos+k] {
				d := strings.IndexRune("0123456789abcdef", h|0x20)
				if d < 0 {
					ok = false
					break
				}
				r = r*16 + rune(d)
			}
			if ok && utf8.ValidRune(r) {
				w.lit(string(r))
				p.pos += k + 1
				return
			}
		}
	}
	r := runeAt(s, p.pos)
	w.lit(r)
	p.pos += len(r)
}

// dollar scans a variable or $( ) subexpression at p.pos.
func (p *psSplitter) dollar(w *wordBuilder, depth, idx int, inString bool) {
	s := p.src
	start := p.pos
	if start+1 >= len(s) {
		w.lit("$")
		p.pos++
		return
	}
	var name string
	switch c := s[start+1]; {
	case c == '(':
		p.pos += 2
		p.group(depth, idx, "$()", ')')
		w.dyn(s[start:p.pos])
		return
	case c == '{':
		j := start + 2
		for j < len(s) && s[j] != '}' {
			if s[j] == '`' {
				j++
			}
			j++
		}
		name = s[start+2 : min(j, len(s))]
		p.pos = min(j+1, len(s))
	case psNameChar(c) && psQuoteLen(s, start+1) == 0:
		j := psNameEnd(s, start+1)
		if j+1 < len(s) && s[j] == ':' && psNameStart(s[j+1]) && psQuoteLen(s, j+1) == 0 {
			j = psNameEnd(s, j+1)
		}
		name = s[start+1 : j]
		p.pos = j
	case c == '?' || c == '^' || c == '$':
		name = string(c)
		p.pos = start + 2
	default:
		w.lit("$")
		p.pos++
		return
	}
	if !inString && p.pos < len(s) && (s[p.pos] == '[' || s[p.pos] == '.' && p.pos+1 < len(s) && psNameStart(s[p.pos+1])) {
		// Member access or indexing: the value is not the variable's text.
		for p.pos < len(s) {
			if s[p.pos] == '[' {
				k := strings.IndexByte(s[p.pos:], ']')
				if k < 0 {
					break
				}
				p.pos += k + 1
			} else if s[p.pos] == '.' && p.pos+1 < len(s) && psNameStart(s[p.pos+1]) {
				p.pos = psNameEnd(s, p.pos+1)
			} else {
				break
			}
		}
		w.dyn(s[start:p.pos])
		return
	}
	raw := s[start:p.pos]
	if v, ok := p.resolve(name); ok {
		w.lit(v)
	} else {
		w.dyn(raw)
	}
}

// group parses a nested block whose opener was just consumed.
func (p *psSplitter) group(depth, idx int, via string, closer byte) {
	if depth+1 > maxNesting {
		p.out.truncated = true
		p.pos = skipBalanced(p.src, p.pos)
		return
	}
	p.block(depth+1, idx, via, closer)
}

// skipBalanced returns the position after the closer matching an opener
// just before i, skipping quoted text roughly; len(s) when there is none.
func skipBalanced(s string, i int) int {
	level := 1
	for i < len(s) {
		switch s[i] {
		case '\'', '"':
			if k := strings.IndexByte(s[i+1:], s[i]); k >= 0 {
				i += k + 1
			} else {
				return len(s)
			}
		case '(', '{':
			level++
		case ')', '}':
			level--
			if level == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(s)
}

// redirect scans a redirection at p.pos.
func (p *psSplitter) redirect(depth, idx int) ir.Redirect {
	s := p.src
	fd := ""
	if s[p.pos] != '>' {
		fd = s[p.pos : p.pos+1]
		p.pos++
	}
	p.pos++ // '>'
	op := ">"
	if p.pos < len(s) && s[p.pos] == '>' {
		op = ">>"
		p.pos++
	}
	if op == ">" && p.pos+1 < len(s) && s[p.pos] == '&' && s[p.pos+1] >= '1' && s[p.pos+1] <= '9' {
		t := s[p.pos+1 : p.pos+2]
		p.pos += 2
		return ir.Redirect{Op: ">&", Fd: fd, Target: literalWord(t)}
	}
	if fd == "*" {
		fd, op = "", "&"+op
	}
	for p.pos < len(s) && psSpace(s, p.pos) > 0 {
		p.pos += psSpace(s, p.pos)
	}
	r := ir.Redirect{Op: op, Fd: fd}
	if p.pos < len(s) && strings.IndexByte("\r\n;|&)}<>", s[p.pos]) < 0 {
		r.Target = p.word(depth, idx)
	}
	return r
}

// stopParsing handles the rest of the line after --%: words passed verbatim
// to a native command, with only %VAR% expanded, up to a newline or pipe.
func (p *psSplitter) stopParsing() []ir.Word {
	s := p.src
	end := p.pos
	for end < len(s) && s[end] != '\n' && s[end] != '\r' && s[end] != '|' {
		end++
	}
	text := s[p.pos:end]
	p.pos = end
	sub := &cmdSplitter{src: text, lookup: p.lookup, out: &segOutput{}}
	var words []ir.Word
	for sub.pos < len(text) {
		if c := text[sub.pos]; c == ' ' || c == '\t' {
			sub.pos++
			continue
		}
		start := sub.pos
		words = append(words, sub.verbatimWord())
		if sub.pos == start {
			sub.pos++
		}
	}
	return words
}

// pipeLiterals appends the literal values of expression segment from to the
// item cmdlet in segment to, where PowerShell binds piped strings.
func (p *psSplitter) pipeLiterals(from, to int) {
	src, dst := p.out.segs[from], &p.out.segs[to]
	if !src.Expression || len(dst.Words) == 0 || dst.Words[0].Unknown {
		return
	}
	name, _ := PowerShellCmdlet(dst.Words[0].Value)
	if !psPipePath[name] {
		return
	}
	var lits []ir.Word
	for _, w := range src.Words {
		if w.Unknown {
			return
		}
		lits = append(lits, w)
	}
	dst.Words = append(dst.Words, lits...)
}

// psPipePath lists the cmdlets whose -Path takes piped strings.
var psPipePath = map[string]bool{
	"Remove-Item": true, "Copy-Item": true, "Move-Item": true, "Rename-Item": true,
	"Clear-Content": true, "Clear-Item": true, "Get-ChildItem": true, "Get-Item": true,
	"Invoke-Item": true, "Set-Location": true, "Push-Location": true,
}

// invokeExpression splits the literal code given to Invoke-Expression in
// segment idx (as argument or piped from a literal) as nested segments.
func (p *psSplitter) invokeExpression(idx, prev, depth int) {
	words := p.out.segs[idx].Words
	if len(words) == 0 || words[0].Unknown {
		return
	}
	if name, _ := PowerShellCmdlet(words[0].Value); name != "Invoke-Expression" {
		return
	}
	cmd := ParsePowerShellCommand(words)
	var code []ir.Word
	switch {
	case len(cmd.Named["command"]) > 0:
		code = cmd.Named["command"]
	case len(cmd.Positional) > 0:
		code = cmd.Positional
	case prev >= 0 && p.out.segs[prev].FeedsInto == idx && p.out.segs[prev].Expression:
		code = p.out.segs[prev].Words
	}
	if len(code) != 1 || code[0].Unknown || strings.TrimSpace(code[0].Value) == "" {
		return
	}
	if p.level >= ir.MaxDepth {
		p.out.truncated = true
		return
	}
	sub := &psSplitter{src: code[0].Value, lookup: p.lookup, vars: p.vars, out: p.out, level: p.level + 1}
	sub.block(depth+1, idx, "iex", 0)
}
