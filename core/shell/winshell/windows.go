package winshell

import (
	"encoding/base64"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// This file holds the small splitters for the two Windows dialects
// (PowerShell and cmd.exe) and what a layer needs to classify a Windows
// command: PowerShell cmdlet aliases and parameter binding, cmd.exe switches,
// and the payload of powershell.exe / cmd.exe command lines.
//
// The splitters are hand-written scanners, not parsers: they never fail and
// never panic, whatever the input; they do linear work per nesting level and
// stop at maxSource bytes, maxSegments segments and maxNesting
// levels (reporting truncation).

// Limits of the Windows splitters.
const (
	// maxSource is the most source text scanned; the rest is dropped and
	// the split is reported as truncated.
	maxSource = 256 << 10
	// maxSegments bounds the segments one split returns.
	maxSegments = 4096
	// maxNesting bounds block nesting ({ }, ( ), $( )); deeper blocks are
	// skipped as opaque text and the split is reported as truncated.
	maxNesting = 48
)

// Segment is one statement found by a Windows splitter: a command with its
// arguments, or (PowerShell) an expression statement.
//
// Nested code — PowerShell script blocks and subexpressions, cmd.exe
// parenthesised blocks and if/for bodies, the string given to
// Invoke-Expression — is returned as further segments after the segment that
// contains it, with Depth one higher and Parent pointing at it. In the
// containing segment the whole block is one Word whose Value is its source
// text, with Unknown set.
type Segment struct {
	// Words are the arguments, Words[0] being the command word (PowerShell:
	// the & or . call operator is dropped, so `& "C:\x.exe" -y` gives
	// [C:\x.exe -y]). Value has quoting and escapes removed and known
	// variables expanded; Raw is the source text. An unquoted PowerShell
	// comma (array separator) is a word of its own, Value ",".
	Words []ir.Word
	// Redirects are the segment's redirections in source order. PowerShell
	// `*>` and `*>>` are given as "&>" and "&>>"; `2>&1` as Op ">&", Fd "2",
	// Target "1". A PowerShell `> $null` target has Value "".
	Redirects []ir.Redirect
	// Sep is the operator that ended the segment: ";", "\n", "|", "&&",
	// "||", "&" (PowerShell: background job; cmd.exe: sequence), or "" at
	// the end of the text or of a block.
	Sep string
	// Depth is 0 at top level, +1 per enclosing block or Invoke-Expression.
	Depth int
	// Parent is the index (in the returned slice) of the segment holding the
	// block this one is in, or -1 at top level.
	Parent int
	// Via names the block kind that leads here: "{}", "()", "$()", "@()",
	// "@{}", "iex" (PowerShell); "()", "if", "else", "for", "for-in"
	// (cmd.exe, for-in being the command of `for /f ... in ('cmd')`); ""
	// at top level.
	Via string
	// FeedsInto is the index of the segment this one pipes into (Sep "|"),
	// or -1.
	FeedsInto int
	// Expression is set for a PowerShell statement that starts with a
	// value (a quoted string, number, variable, type literal, group, script
	// block, or -operator) instead of a command name: it runs no command of
	// its own and Words[0] is not a command name. Literal values such an
	// expression pipes into an item cmdlet (`'C:\x' | Remove-Item`) are also
	// appended to that cmdlet's Words, where PowerShell binds them (-Path).
	Expression bool
}

// segOutput collects the segments of one split, shared by nested scanners.
type segOutput struct {
	segs      []Segment
	truncated bool
	stop      bool
}

func (o *segOutput) reserve(depth, parent int, via string) int {
	if len(o.segs) >= maxSegments {
		o.truncated = true
		o.stop = true
	}
	o.segs = append(o.segs, Segment{Depth: depth, Parent: parent, Via: via, FeedsInto: -1})
	return len(o.segs) - 1
}

// finish stores the parsed parts of segment idx and links the pipe from
// prev. It drops an empty segment and returns -1 for it.
func (o *segOutput) finish(idx, prev int, words []ir.Word, redirs []ir.Redirect, sep string) int {
	if len(words) == 0 && len(redirs) == 0 && idx == len(o.segs)-1 {
		o.segs = o.segs[:idx]
		return -1
	}
	s := &o.segs[idx]
	s.Words, s.Redirects, s.Sep = words, redirs, sep
	if prev >= 0 && o.segs[prev].Sep == "|" {
		o.segs[prev].FeedsInto = idx
	}
	return idx
}

// splitPowerShell splits PowerShell source into segments, resolving no
// variables except $null, $true and $false. Never fails, never panics.
func splitPowerShell(src string) []Segment {
	segs, _ := Split(ir.PowerShell, src, nil)
	return segs
}

// splitCmd splits cmd.exe source into segments, resolving no %VAR%.
// Never fails, never panics.
func splitCmd(src string) []Segment {
	segs, _ := Split(ir.Cmd, src, nil)
	return segs
}

// Split splits src as PowerShell (d == PowerShell) or cmd.exe (any
// other d). lookup resolves environment variables ($env:NAME, %NAME%,
// !NAME!) and the PowerShell automatic variables $HOME (tried as "HOME",
// then "USERPROFILE") and $PWD ("PWD"); it is called with the name as
// written and, if that fails, upper-cased, since Windows names are
// case-insensitive. A nil lookup knows nothing. Variables that cannot be
// resolved make their word Unknown. PowerShell assignments of a literal
// (`$d = 'C:\'`) made earlier in the same text are also used.
//
// truncated reports that a limit was hit and part of src was not analysed.
// Cost: linear in len(src) per Invoke-Expression level (at most MaxDepth).
func Split(d ir.Dialect, src string, lookup func(string) (string, bool)) (segs []Segment, truncated bool) {
	out := &segOutput{}
	if len(src) > maxSource {
		src = src[:maxSource]
		out.truncated = true
	}
	if d == ir.PowerShell {
		p := &psSplitter{src: src, lookup: lookup, vars: map[string]*string{}, out: out}
		p.block(0, -1, "", 0)
	} else {
		s := &cmdSplitter{src: src, lookup: lookup, out: out}
		s.block(0, -1, "", false)
	}
	return out.segs, out.truncated
}

// wordBuilder accumulates one word's value.
type wordBuilder struct {
	val     strings.Builder
	unknown bool
	prefix  string
	globs   string // wildcard characters seen in the known text
}

func (w *wordBuilder) lit(s string) {
	w.val.WriteString(s)
	for _, g := range "*?[" {
		if strings.ContainsRune(s, g) && !strings.ContainsRune(w.globs, g) {
			w.globs += string(g)
		}
	}
}

// dyn appends text whose value is unknown.
func (w *wordBuilder) dyn(raw string) {
	if !w.unknown {
		w.unknown = true
		w.prefix = w.val.String()
	}
	w.val.WriteString(raw)
}

func (w *wordBuilder) word(raw, globChars string) ir.Word {
	v := w.val.String()
	kp := v
	if w.unknown {
		kp = w.prefix
	}
	return ir.Word{Value: v, Raw: raw, Unknown: w.unknown, KnownPrefix: kp, Glob: strings.ContainsAny(w.globs, globChars)}
}

func groupWord(raw string) ir.Word {
	return ir.Word{Value: raw, Raw: raw, Unknown: true}
}

func literalWord(s string) ir.Word {
	return ir.Word{Value: s, Raw: s, KnownPrefix: s}
}

// lookupEnv tries each name as written, then upper-cased.
func lookupEnv(lookup func(string) (string, bool), names ...string) (string, bool) {
	if lookup == nil {
		return "", false
	}
	for _, n := range names {
		if v, ok := lookup(n); ok {
			return v, true
		}
		if up := strings.ToUpper(n); up != n {
			if v, ok := lookup(up); ok {
				return v, true
			}
		}
	}
	return "", false
}

// runeAt returns the text of the (possibly invalid) UTF-8 character at i.
func runeAt(s string, i int) string {
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i : i+n]
}

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

// ---------------------------------------------------------------------------
// cmd.exe

type cmdSplitter struct {
	src    string
	pos    int
	lookup func(string) (string, bool)
	out    *segOutput
	paren  int // open ( blocks
	// forVars binds the variables of the for loops whose body is being
	// split (%i, %%i; case-sensitive); a nil value is unknown. loopMult is
	// how many times the current body is split, at most maxLoopMult.
	forVars  map[byte]*ir.Word
	loopMult int
}

// cmdInternal lists the cmd.exe built-ins whose arguments are also split
// on , ; and = (`del a,b` deletes a and b).
var cmdInternal = map[string]bool{
	"del": true, "erase": true, "rd": true, "rmdir": true, "md": true, "mkdir": true,
	"copy": true, "move": true, "ren": true, "rename": true, "type": true, "cd": true,
	"chdir": true, "pushd": true, "dir": true, "mklink": true,
}

// cmdGlued lists the built-ins cmd.exe recognises even when a switch or
// path is glued to the name (`rd/s/q`, `cd..`, `cd\`).
var cmdGlued = []string{"chdir", "rmdir", "mkdir", "erase", "copy", "move", "type", "echo", "del", "dir", "cd", "rd", "md"}

// block parses statements until a closing ) of an open block, the end of
// the text, or (lineOnly) the end of the line; it returns the separator
// that ended the last statement and whether a ) was consumed.
func (s *cmdSplitter) block(depth, parent int, via string, lineOnly bool) (string, bool) {
	prev := -1
	for s.pos < len(s.src) && !s.out.stop {
		idx, sep, closed := s.statement(depth, parent, via, prev)
		if idx >= 0 {
			prev = idx
		}
		if closed || lineOnly && sep == "\n" {
			return sep, closed
		}
	}
	return "", false
}

func (s *cmdSplitter) statement(depth, parent int, via string, prev int) (int, string, bool) {
	idx := s.out.reserve(depth, parent, via)
	var words []ir.Word
	var redirs []ir.Redirect
	sep, closed := "", false
	src := s.src
scan:
	for s.pos < len(src) && !s.out.stop {
		c := src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			s.pos++
		case c == '\r' || c == '\n':
			s.pos = skipNewline(src, s.pos)
			sep = "\n"
			break scan
		case c == '&':
			sep = two(src, s.pos, '&')
			s.pos += len(sep)
			break scan
		case c == '|':
			sep = two(src, s.pos, '|')
			s.pos += len(sep)
			break scan
		case c == ')' && s.paren > 0:
			s.pos++
			closed = true
			break scan
		case c == '^' && s.caretNewline() > 0:
			s.pos += s.caretNewline()
		case len(words) == 0 && (c == ',' || c == ';' || c == '=' || c == '@'):
			s.pos++ // leading delimiters; @ turns echo off
		case len(words) == 0 && c == ':':
			for s.pos < len(src) && src[s.pos] != '\n' && src[s.pos] != '\r' {
				s.pos++ // label or :: comment: the line does not run
			}
		case len(words) == 0 && c == '(':
			start := s.pos
			s.pos++
			s.group(depth, idx, "()")
			words = append(words, groupWord(src[start:s.pos]))
		case c == '>' || c == '<' || c >= '0' && c <= '9' && s.pos+1 < len(src) && (src[s.pos+1] == '>' || src[s.pos+1] == '<'):
			redirs = append(redirs, s.redirect())
		default:
			start := s.pos
			w := s.word(false)
			if s.pos == start {
				s.pos++ // guarantees progress
				continue
			}
			words = append(words, w)
			if len(words) == 1 && !strings.ContainsAny(w.Raw, `"^%!`) {
				var done bool
				switch strings.ToLower(w.Value) {
				case "if":
					sep, closed, done = s.ifRest(&words, depth, idx)
				case "for":
					sep, closed, done = s.forRest(&words, depth, idx)
				}
				if done {
					break scan
				}
			}
		}
	}
	words = s.shapeWords(words)
	return s.out.finish(idx, prev, words, redirs, sep), sep, closed
}

func (s *cmdSplitter) caretNewline() int {
	j := s.pos + 1
	if j < len(s.src) && s.src[j] == '\r' {
		j++
	}
	if j < len(s.src) && s.src[j] == '\n' {
		return j + 1 - s.pos
	}
	if j == len(s.src) {
		return 1
	}
	return 0
}

// shapeWords applies cmd.exe's command-word rules: `call` is dropped, a
// switch or path glued to a built-in's name is split off, and built-ins
// split their arguments on , ; =.
func (s *cmdSplitter) shapeWords(words []ir.Word) []ir.Word {
	if len(words) == 0 || words[0].Unknown {
		return words
	}
	if strings.EqualFold(words[0].Value, "call") && len(words) > 1 && !strings.HasPrefix(words[1].Value, ":") {
		words = words[1:]
	}
	first := words[0]
	if !strings.ContainsAny(first.Raw, `"^%!`) {
		low := strings.ToLower(first.Value)
		for _, name := range cmdGlued {
			if len(low) > len(name) && strings.HasPrefix(low, name) && strings.IndexByte(`/\.`, low[len(name)]) >= 0 {
				rest := first.Value[len(name):]
				head := literalWord(first.Value[:len(name)])
				words = append([]ir.Word{head, literalWord(rest)}, words[1:]...)
				break
			}
		}
	}
	if !cmdInternal[strings.ToLower(words[0].Value)] {
		return words
	}
	out := words[:1:1]
	for _, w := range words[1:] {
		if w.Unknown && strings.HasPrefix(w.Raw, "(") || !strings.ContainsAny(w.Raw, ",;=") {
			out = append(out, w)
			continue
		}
		sub := &cmdSplitter{src: w.Raw, lookup: s.lookup, out: &segOutput{}}
		for sub.pos < len(sub.src) {
			if strings.IndexByte(",;= \t", sub.src[sub.pos]) >= 0 {
				sub.pos++
				continue
			}
			start := sub.pos
			part := sub.word(true)
			if sub.pos == start {
				sub.pos++
				continue
			}
			out = append(out, part)
		}
	}
	return out
}

// nextWord skips blanks and scans a word, or reports false at the end of
// the statement.
func (s *cmdSplitter) nextWord() (ir.Word, bool) {
	s.skipBlanks()
	if s.pos >= len(s.src) {
		return ir.Word{}, false
	}
	switch c := s.src[s.pos]; {
	case c == '\r' || c == '\n' || c == '&' || c == '|' || c == '<' || c == '>':
		return ir.Word{}, false
	case c == ')' && s.paren > 0:
		return ir.Word{}, false
	}
	start := s.pos
	w := s.word(false)
	if s.pos == start {
		return ir.Word{}, false
	}
	return w, true
}

func (s *cmdSplitter) skipBlanks() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\f', '\v':
			s.pos++
			continue
		case '^':
			if n := s.caretNewline(); n > 0 {
				s.pos += n
				continue
			}
		}
		return
	}
}

// ifRest parses the condition and body of an if statement. done reports
// that the statement ended (sep and closed then describe how).
func (s *cmdSplitter) ifRest(words *[]ir.Word, depth, idx int) (sep string, closed, done bool) {
	w, ok := s.nextWord()
	if !ok {
		return "", false, false
	}
	*words = append(*words, w)
	low := strings.ToLower(w.Value)
	for low == "/i" || low == "not" {
		if w, ok = s.nextWord(); !ok {
			return "", false, false
		}
		*words = append(*words, w)
		low = strings.ToLower(w.Value)
	}
	switch low {
	case "exist", "defined", "errorlevel", "cmdextversion":
		if w, ok = s.nextWord(); !ok {
			return "", false, false
		}
		*words = append(*words, w)
	default:
		if i := strings.Index(w.Value, "=="); i >= 0 {
			if strings.HasSuffix(w.Value, "==") {
				if w, ok = s.nextWord(); !ok {
					return "", false, false
				}
				*words = append(*words, w)
			}
			break
		}
		save := s.pos
		op, ok := s.nextWord()
		if !ok {
			return "", false, false
		}
		switch lo := strings.ToLower(op.Value); {
		case lo == "==" || lo == "equ" || lo == "neq" || lo == "lss" || lo == "leq" || lo == "gtr" || lo == "geq":
			*words = append(*words, op)
			if w, ok = s.nextWord(); !ok {
				return "", false, false
			}
			*words = append(*words, w)
		case strings.HasPrefix(lo, "=="):
			*words = append(*words, op)
		default:
			s.pos = save
		}
	}
	return s.body(words, depth, idx, "if", true)
}

// forRest parses `for ... in (set) do body`. The body is split with the
// loop variable bound (see forBindings): once per item for a short list of
// known items, so `for %i in (a b) do del %i` gives del a and del b.
func (s *cmdSplitter) forRest(words *[]ir.Word, depth, idx int) (sep string, closed, done bool) {
	fileMode, otherMode := false, false
	var loopVar byte
	for {
		w, ok := s.nextWord()
		if !ok {
			return "", false, false
		}
		*words = append(*words, w)
		low := strings.ToLower(w.Value)
		switch {
		case low == "/f":
			fileMode = true
		case low == "/l" || low == "/r":
			otherMode = true
		case loopVar == 0 && strings.HasPrefix(w.Raw, "%"):
			if v := strings.TrimLeft(w.Raw, "%"); len(v) == 1 {
				loopVar = v[0]
			}
		}
		if low == "in" {
			break
		}
	}
	s.skipBlanks()
	if s.pos >= len(s.src) || s.src[s.pos] != '(' {
		return "", false, false
	}
	open := s.pos
	end := open + 1
	for end < len(s.src) && s.src[end] != ')' {
		if s.src[end] == '"' || s.src[end] == '\'' || s.src[end] == '`' {
			if k := strings.IndexByte(s.src[end+1:], s.src[end]); k >= 0 {
				end += k + 1
			}
		}
		end++
	}
	set := s.src[open+1 : min(end, len(s.src))]
	s.pos = min(end+1, len(s.src))
	sw := s.expandText(set)
	setWord := sw.word(s.src[open:s.pos], "*?")
	*words = append(*words, setWord)
	if t := strings.TrimSpace(set); fileMode && len(t) >= 2 && (t[0] == '\'' || t[0] == '`') && t[len(t)-1] == t[0] {
		inner := t[1 : len(t)-1]
		if depth+1 <= maxNesting {
			sub := &cmdSplitter{src: inner, lookup: s.lookup, out: s.out}
			sub.block(depth+1, idx, "for-in", false)
		}
	}
	w, ok := s.nextWord()
	if !ok {
		return "", false, false
	}
	*words = append(*words, w)
	if !strings.EqualFold(w.Value, "do") {
		return "", false, false
	}
	if loopVar == 0 {
		return s.body(words, depth, idx, "for", false)
	}
	var binds []*ir.Word
	if !fileMode && !otherMode {
		binds = s.forBindings(set)
	}
	if len(binds) == 0 || max(s.loopMult, 1)*len(binds) > maxLoopMult {
		binds = []*ir.Word{nil}
	}
	outerMult := s.loopMult
	s.loopMult = max(outerMult, 1) * len(binds)
	defer func() { s.loopMult = outerMult }()
	saved, had := s.forVars[loopVar]
	if s.forVars == nil {
		s.forVars = map[byte]*ir.Word{}
	}
	start, n := s.pos, len(*words)
	for _, b := range binds {
		s.pos, *words = start, (*words)[:n]
		s.forVars[loopVar] = b
		sep, closed, done = s.body(words, depth, idx, "for", false)
	}
	if had {
		s.forVars[loopVar] = saved
	} else {
		delete(s.forVars, loopVar)
	}
	return sep, closed, done
}

// maxForItems bounds the items a for body is split for, one by one,
// and maxLoopMult how far nested loops multiply (as for bash loops).
const (
	maxForItems = 8
	maxLoopMult = 32
)

// forBindings returns the values a for loop over set binds its variable
// to, one per iteration: the items when there are at most maxForItems,
// all known and without wildcards; the pattern itself (a glob word) for a
// single item with wildcards; nil otherwise (the variable is unknown).
// Items are separated by blanks, commas and semicolons outside double
// quotes, which are removed.
func (s *cmdSplitter) forBindings(set string) []*ir.Word {
	var items []string
	var cur strings.Builder
	quoted, have := false, false
	flush := func() {
		if have {
			items = append(items, cur.String())
		}
		cur.Reset()
		have = false
	}
	for i := 0; i < len(set); i++ {
		switch c := set[i]; {
		case c == '"':
			quoted, have = !quoted, true
		case !quoted && strings.IndexByte(" \t,;=\r\n", c) >= 0:
			flush()
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	flush()
	if len(items) == 0 || len(items) > maxForItems {
		return nil
	}
	var out []*ir.Word
	for _, it := range items {
		w := s.expandText(it).word(it, "*?")
		if w.Unknown || w.Glob && len(items) > 1 {
			return nil
		}
		out = append(out, &w)
	}
	return out
}

// body parses the body of an if/else/for: a parenthesised block (after
// which the statement goes on: else, redirects, operators) or a command
// running to the end of the line.
func (s *cmdSplitter) body(words *[]ir.Word, depth, idx int, via string, allowElse bool) (sep string, closed, done bool) {
	s.skipBlanks()
	if s.pos < len(s.src) && s.src[s.pos] == '(' {
		start := s.pos
		s.pos++
		s.group(depth, idx, via)
		*words = append(*words, groupWord(s.src[start:s.pos]))
		if allowElse {
			save := s.pos
			if w, ok := s.nextWord(); ok && strings.EqualFold(w.Value, "else") {
				*words = append(*words, w)
				return s.body(words, depth, idx, "else", false)
			}
			s.pos = save
		}
		return "", false, false
	}
	if depth+1 > maxNesting {
		s.out.truncated = true
		return "", false, false
	}
	sep, closed = s.block(depth+1, idx, via, true)
	return sep, closed, true
}

func (s *cmdSplitter) group(depth, idx int, via string) {
	if depth+1 > maxNesting {
		s.out.truncated = true
		s.pos = skipBalanced(s.src, s.pos)
		return
	}
	s.paren++
	s.block(depth+1, idx, via, false)
	s.paren--
}

func (s *cmdSplitter) redirect() ir.Redirect {
	src := s.src
	fd := ""
	if c := src[s.pos]; c >= '0' && c <= '9' {
		fd = src[s.pos : s.pos+1]
		s.pos++
	}
	op := src[s.pos : s.pos+1]
	s.pos++
	if op == ">" && s.pos < len(src) && src[s.pos] == '>' {
		op = ">>"
		s.pos++
	}
	if op != ">>" && s.pos+1 < len(src) && src[s.pos] == '&' && src[s.pos+1] >= '0' && src[s.pos+1] <= '9' {
		t := src[s.pos+1 : s.pos+2]
		s.pos += 2
		return ir.Redirect{Op: op + "&", Fd: fd, Target: literalWord(t)}
	}
	r := ir.Redirect{Op: op, Fd: fd}
	if w, ok := s.nextWord(); ok {
		r.Target = w
	}
	return r
}

// word scans one cmd.exe word. With soft set, , ; and = also end it.
func (s *cmdSplitter) word(soft bool) ir.Word {
	src := s.src
	start := s.pos
	var w wordBuilder
	quoted := false
loop:
	for s.pos < len(src) {
		c := src[s.pos]
		if quoted {
			switch c {
			case '"':
				quoted = false
				s.pos++
			case '\r', '\n':
				break loop // a quote ends at the end of the line
			case '%':
				s.percent(&w)
			case '!':
				s.bang(&w)
			default:
				r := runeAt(src, s.pos)
				w.lit(r)
				s.pos += len(r)
			}
			continue
		}
		switch c {
		case ' ', '\t', '\f', '\v', '\r', '\n', '&', '|', '<', '>':
			break loop
		case ',', ';', '=':
			if soft {
				break loop
			}
			w.lit(string(c))
			s.pos++
		case ')':
			if s.paren > 0 {
				break loop
			}
			w.lit(")")
			s.pos++
		case '"':
			quoted = true
			s.pos++
		case '^':
			if n := s.caretNewline(); n > 0 {
				s.pos += n
				continue
			}
			s.pos++
			r := runeAt(src, s.pos)
			w.lit(r)
			s.pos += len(r)
		case '%':
			s.percent(&w)
		case '!':
			s.bang(&w)
		default:
			r := runeAt(src, s.pos)
			w.lit(r)
			s.pos += len(r)
		}
	}
	return w.word(src[start:s.pos], "*?")
}

// verbatimWord scans a word of a PowerShell --% tail: split at blanks
// outside double quotes, quotes removed, %VAR% expanded, nothing else
// special.
func (s *cmdSplitter) verbatimWord() ir.Word {
	src := s.src
	start := s.pos
	var w wordBuilder
	quoted := false
	for s.pos < len(src) {
		c := src[s.pos]
		switch {
		case !quoted && (c == ' ' || c == '\t'):
			return w.word(src[start:s.pos], "*?")
		case c == '"':
			quoted = !quoted
			s.pos++
		case c == '%':
			s.percent(&w)
		default:
			r := runeAt(src, s.pos)
			w.lit(r)
			s.pos += len(r)
		}
	}
	return w.word(src[start:s.pos], "*?")
}

// expandText expands %VAR% and !VAR! in text, leaving everything else.
func (s *cmdSplitter) expandText(text string) *wordBuilder {
	sub := &cmdSplitter{src: text, lookup: s.lookup, out: s.out}
	w := &wordBuilder{}
	for sub.pos < len(text) {
		switch text[sub.pos] {
		case '%':
			sub.percent(w)
		case '!':
			sub.bang(w)
		default:
			r := runeAt(text, sub.pos)
			w.lit(r)
			sub.pos += len(r)
		}
	}
	return w
}

// cmdVarEnd returns the index of the closing delim of a variable name
// starting at i, or -1 when the text there is not a variable reference.
func cmdVarEnd(s string, i int, delim byte) int {
	for j := i; j < len(s); j++ {
		switch c := s[j]; c {
		case delim:
			if j == i {
				return -1
			}
			return j
		case ' ', '\t', '\r', '\n', '"', '&', '|', '<', '>', '^', '%', '!':
			return -1
		}
	}
	return -1
}

// percent expands a %...% reference at s.pos.
func (s *cmdSplitter) percent(w *wordBuilder) {
	src := s.src
	i := s.pos
	if i+1 >= len(src) {
		w.lit("%")
		s.pos++
		return
	}
	switch c := src[i+1]; {
	case c == '%': // %%i: a for variable in a batch file
		if i+2 < len(src) && psNameChar(src[i+2]) {
			s.forVar(w, src[i+2], src[i:i+3])
			s.pos = i + 3
			return
		}
		w.lit("%")
		s.pos = i + 2
		return
	case c >= '0' && c <= '9' || c == '*': // batch parameter
		w.dyn(src[i : i+2])
		s.pos = i + 2
		return
	case c == '~': // %~dp0, %~nx1, %~fI
		j := i + 2
		for j < len(src) && (src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] == '$' || src[j] == ':') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			j++
		}
		w.dyn(src[i:j])
		s.pos = j
		return
	case s.forVars != nil && psNameChar(c):
		if _, bound := s.forVars[c]; bound { // %i in a for body
			s.forVar(w, c, src[i:i+2])
			s.pos = i + 2
			return
		}
	}
	end := cmdVarEnd(src, i+1, '%')
	if end < 0 {
		w.lit("%")
		s.pos++
		return
	}
	name := src[i+1 : end]
	s.pos = end + 1
	if strings.IndexByte(name, ':') < 0 { // %X:~0,2% and %X:a=b% stay unknown
		if v, ok := lookupEnv(s.lookup, name); ok {
			w.lit(v)
			return
		}
	}
	w.dyn(src[i : end+1])
}

// forVar expands the for variable name written as raw: its bound value,
// or unknown.
func (s *cmdSplitter) forVar(w *wordBuilder, name byte, raw string) {
	if v := s.forVars[name]; v != nil {
		w.lit(v.Value)
		return
	}
	w.dyn(raw)
}

// bang expands a delayed-expansion !NAME! reference at s.pos.
func (s *cmdSplitter) bang(w *wordBuilder) {
	src := s.src
	i := s.pos
	end := cmdVarEnd(src, i+1, '!')
	if end < 0 {
		w.lit("!")
		s.pos++
		return
	}
	name := src[i+1 : end]
	s.pos = end + 1
	if strings.IndexByte(name, ':') < 0 {
		if v, ok := lookupEnv(s.lookup, name); ok {
			w.lit(v)
			return
		}
	}
	w.dyn(src[i : end+1])
}

// ---------------------------------------------------------------------------
// Classifying Windows commands

// CmdSwitches separates the arguments of a cmd.exe command (args[0] being
// the command word) into switches and operands. Switches are returned
// lower-case without the slash, with glued ones split (`/s/q` gives "s" and
// "q"; `/a:h` gives "a:h"; `/MIR` gives "mir"). An argument with several
// slash-separated parts, one longer than a letter (/tmp/x), is an operand.
// Cost: linear in the arguments.
func CmdSwitches(args []ir.Word) (switches []string, operands []ir.Word) {
	for i, a := range args {
		if i == 0 {
			continue
		}
		v := a.Value
		if len(v) >= 2 && v[0] == '/' && !a.Unknown && !strings.Contains(v[1:], `\`) && !looksLikePath(v) {
			for _, sw := range strings.Split(v[1:], "/") {
				if sw != "" {
					switches = append(switches, strings.ToLower(sw))
				}
			}
			continue
		}
		operands = append(operands, a)
	}
	return switches, operands
}

// looksLikePath tells a Unix-style path (/tmp/x) from cmd.exe switches
// (/s, /MIR, /a:h, /s/q): it has at least two parts and one of them is
// longer than a letter (or a letter and a colon).
func looksLikePath(v string) bool {
	parts := strings.Split(strings.Trim(v, "/"), "/")
	if len(parts) < 2 {
		return false
	}
	for _, part := range parts {
		if len(part) > 1 && part[1] != ':' {
			return true
		}
	}
	return false
}

// HostPayload is the code a powershell.exe/pwsh or cmd.exe command line
// runs.
type HostPayload struct {
	// Code is the command text to analyse in Dialect; "" when the code is
	// not in the command line (File, Stdin, Undecodable).
	Code    string
	Dialect ir.Dialect
	// Encoded: Code was decoded from -EncodedCommand.
	Encoded bool
	// Undecodable: -EncodedCommand was given but is not valid base64 of
	// UTF-16LE text, so the code is unknown.
	Undecodable bool
	// File is the script run by -File (its content is not analysed).
	File string
	// Stdin: the code is read from standard input (-Command -).
	Stdin bool
	// Via names the wrapper: "powershell -Command", "powershell
	// -EncodedCommand", "powershell -File", "cmd /c".
	Via string
}

// PowerShellPayload finds what a powershell.exe / pwsh command line runs.
// args are the arguments after the program name, as the program receives
// them. It understands -Command/-c (and any prefix of it: -com, -comm),
// -CommandWithArgs/-cwa, -EncodedCommand/-enc/-e/-ec, -File/-f, the
// switches that take a value (-ExecutionPolicy, -WindowStyle, -Version, ...)
// with -, -- or / as prefix, and the implicit command (the first argument
// that is not a switch: the rest of the line, or File when it names a
// .ps1). ok is false when the line runs nothing analysable (an interactive
// shell, -Version only).
func PowerShellPayload(args []string) (h HostPayload, ok bool) {
	h.Dialect = ir.PowerShell
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, isSwitch := switchName(a)
		if !isSwitch {
			if strings.HasSuffix(strings.ToLower(a), ".ps1") {
				h.File, h.Via = a, "powershell -File"
				return h, true
			}
			h.Code, h.Via = strings.Join(args[i:], " "), "powershell -Command"
			return h, strings.TrimSpace(h.Code) != ""
		}
		switch {
		case name == "c" || name == "co" || len(name) >= 3 && strings.HasPrefix("command", name):
			rest := args[i+1:]
			if len(rest) == 1 && rest[0] == "-" || len(rest) == 0 {
				h.Stdin, h.Via = true, "powershell -Command"
				return h, true
			}
			h.Code, h.Via = strings.Join(rest, " "), "powershell -Command"
			return h, true
		case name == "cwa" || len(name) >= 8 && strings.HasPrefix("commandwithargs", name):
			if i+1 < len(args) {
				h.Code, h.Via = args[i+1], "powershell -Command"
				return h, true
			}
			return h, false
		case name == "e" || name == "ec" || len(name) >= 2 && strings.HasPrefix("encodedcommand", name):
			h.Encoded, h.Via = true, "powershell -EncodedCommand"
			if i+1 >= len(args) {
				h.Undecodable = true
				return h, true
			}
			code, okDecode := decodePowerShellEncoded(args[i+1])
			h.Code, h.Undecodable = code, !okDecode
			return h, true
		case name == "f" || len(name) >= 2 && strings.HasPrefix("file", name):
			h.Via = "powershell -File"
			if i+1 < len(args) {
				h.File = args[i+1]
			}
			return h, true
		case psHostValueSwitch(name):
			i++
		}
	}
	return h, false
}

// switchName strips -, -- or / from a switch and lower-cases it.
func switchName(a string) (string, bool) {
	switch {
	case strings.HasPrefix(a, "--") && len(a) > 2:
		return strings.ToLower(a[2:]), true
	case len(a) > 1 && (a[0] == '-' || a[0] == '/'):
		return strings.ToLower(a[1:]), true
	}
	for _, dash := range []string{"\u2013", "\u2014", "\u2015"} {
		if strings.HasPrefix(a, dash) && len(a) > len(dash) {
			return strings.ToLower(a[len(dash):]), true
		}
	}
	return "", false
}

// psHostValueSwitch reports the powershell.exe/pwsh switches that take a
// value (named in full, by alias, or by a prefix).
func psHostValueSwitch(name string) bool {
	switch name {
	case "ep", "ex", "exec", "w", "v", "if", "of", "o", "wd", "ea", "settings":
		return true
	}
	for _, full := range []string{"executionpolicy", "windowstyle", "version", "inputformat", "outputformat",
		"configurationname", "psconsolefile", "workingdirectory", "settingsfile", "custompipename",
		"encodedarguments", "configurationfile"} {
		if len(name) >= 3 && strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// CmdPayload finds what a cmd.exe command line runs: the text after /c, /k
// or /r (also glued, `/cdir`, and MSYS-style `//c`), with the outer quotes
// removed the way cmd.exe does (unless the quoted text is just the path of
// an executable). Other switches (/q /d /s /v:on ...) are skipped. args are
// the arguments after the program name; ok is false when there is no /c.
func CmdPayload(args []string) (h HostPayload, ok bool) {
	h.Dialect, h.Via = ir.Cmd, "cmd /c"
	for i, a := range args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "//") {
			l, a = l[1:], a[1:]
		}
		if !strings.HasPrefix(l, "/") {
			return h, false
		}
		if len(l) >= 2 && (l[1] == 'c' || l[1] == 'k' || l[1] == 'r') && (len(l) == 2 || l[2] != ':') {
			rest := args[i+1:]
			if len(a) > 2 {
				rest = append([]string{a[2:]}, rest...)
			}
			h.Code = cmdStripQuotes(strings.Join(rest, " "))
			return h, strings.TrimSpace(h.Code) != ""
		}
	}
	return h, false
}

// cmdStripQuotes removes the first and the last double quote of a /c
// command line when it starts with one, as cmd.exe does, except for the
// case cmd.exe keeps: exactly two quotes around an executable's path.
func cmdStripQuotes(code string) string {
	t := strings.TrimLeft(code, " \t")
	if !strings.HasPrefix(t, `"`) {
		return code
	}
	last := strings.LastIndexByte(t, '"')
	if strings.Count(t, `"`) == 2 && last == len(t)-1 {
		inner := strings.ToLower(t[1:last])
		if !strings.ContainsAny(inner, "&<>()@^|") {
			for _, ext := range []string{".exe", ".com", ".bat", ".cmd"} {
				if strings.HasSuffix(inner, ext) {
					return code
				}
			}
		}
	}
	if last <= 0 {
		return t[1:]
	}
	return t[1:last] + t[last+1:]
}

// decodePowerShellEncoded decodes an -EncodedCommand payload: base64
// (standard or URL alphabet, padding optional, blanks and surrounding quotes
// ignored) of UTF-16LE text. It reports false when the text is not base64 or
// decodes to nothing. At most maxSource bytes of payload are decoded.
func decodePowerShellEncoded(b64 string) (string, bool) {
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '"', '\'':
			return -1
		}
		return r
	}, b64)
	if s == "" || len(s) > maxSource*4/3+4 {
		return "", false
	}
	var data []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		in := s
		if enc == base64.RawStdEncoding || enc == base64.RawURLEncoding {
			in = strings.TrimRight(s, "=")
		}
		if data, err = enc.DecodeString(in); err == nil {
			break
		}
	}
	if err != nil || len(data) < 2 {
		return "", false
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
	}
	if units[0] == 0xFEFF {
		units = units[1:]
	}
	text := string(utf16.Decode(units))
	return text, text != ""
}

// psAliasSpec lists PowerShell's built-in aliases (and the mkdir/md
// functions) by the cmdlet they run. `curl` and `wget` are aliases in
// Windows PowerShell 5.1 only (pwsh 7 runs the programs); `sc` likewise.
var psAliasSpec = map[string]string{
	"Remove-Item":            "ri rm rmdir del erase rd",
	"Copy-Item":              "cp copy cpi",
	"Move-Item":              "mv move mi",
	"Rename-Item":            "ren rni",
	"Set-Content":            "sc",
	"Add-Content":            "ac",
	"Clear-Content":          "clc",
	"Clear-Item":             "cli",
	"New-Item":               "ni mkdir md",
	"Set-Item":               "si",
	"Set-ItemProperty":       "sp",
	"Remove-ItemProperty":    "rp",
	"Tee-Object":             "tee",
	"Invoke-WebRequest":      "iwr curl wget",
	"Invoke-RestMethod":      "irm",
	"Invoke-Expression":      "iex",
	"Invoke-Command":         "icm",
	"Invoke-Item":            "ii",
	"Start-Process":          "start saps",
	"Stop-Process":           "kill spps",
	"Get-Process":            "gps ps",
	"Set-Location":           "cd chdir sl",
	"Push-Location":          "pushd",
	"Pop-Location":           "popd",
	"Get-Location":           "pwd gl",
	"Get-ChildItem":          "gci ls dir",
	"Get-Content":            "gc cat type",
	"Get-Item":               "gi",
	"Write-Output":           "echo write",
	"ForEach-Object":         "% foreach",
	"Where-Object":           "? where",
	"Set-Variable":           "set sv",
	"Remove-Variable":        "rv",
	"Set-Alias":              "sal",
	"New-Alias":              "nal",
	"Import-Module":          "ipmo",
	"Export-Csv":             "epcsv",
	"Start-Sleep":            "sleep",
	"Clear-Host":             "cls clear",
	"Out-File":               "",
	"Expand-Archive":         "",
	"Compress-Archive":       "",
	"New-ItemProperty":       "",
	"Export-Clixml":          "",
	"Stop-Computer":          "",
	"Restart-Computer":       "",
	"Format-Volume":          "",
	"Clear-Disk":             "",
	"Initialize-Disk":        "",
	"Remove-Partition":       "",
	"Reset-PhysicalDisk":     "",
	"Set-NetFirewallProfile": "",
	"Set-ExecutionPolicy":    "",
	"Set-MpPreference":       "",
	"Join-Path":              "",
	"Write-Host":             "",
}

// psParamSpec gives the parameters of the cmdlets whose arguments name
// files: "name|alias" for a switch, "name|alias=" for a parameter taking a
// value, "name=N" for one also bound from position N.
var psParamSpec = map[string]string{
	"Remove-Item":         "path=0 literalpath|pspath|lp= filter= include= exclude= recurse force credential= stream=",
	"Copy-Item":           "path=0 destination=1 literalpath|pspath|lp= container force filter= include= exclude= recurse passthru credential= tosession= fromsession=",
	"Move-Item":           "path=0 destination=1 literalpath|pspath|lp= force filter= include= exclude= passthru credential=",
	"Rename-Item":         "path=0 newname=1 literalpath|pspath|lp= force passthru credential=",
	"Set-Content":         "path=0 value=1 literalpath|pspath|lp= passthru filter= include= exclude= force credential= nonewline encoding= asbytestream stream=",
	"Add-Content":         "path=0 value=1 literalpath|pspath|lp= passthru filter= include= exclude= force credential= nonewline encoding= asbytestream stream=",
	"Clear-Content":       "path=0 literalpath|pspath|lp= filter= include= exclude= force credential= stream=",
	"Clear-Item":          "path=0 literalpath|pspath|lp= filter= include= exclude= force credential=",
	"Set-Item":            "path=0 value=1 literalpath|pspath|lp= force passthru filter= include= exclude= credential=",
	"Out-File":            "filepath|path=0 encoding=1 literalpath|pspath|lp= append force noclobber|nooverwrite width= nonewline inputobject=",
	"Tee-Object":          "filepath|path=0 literalpath|pspath|lp= append variable= inputobject= encoding=",
	"New-Item":            "path=0 itemtype|type= name= value= force credential=",
	"Set-ItemProperty":    "path=0 name=1 value=2 literalpath|pspath|lp= passthru force filter= include= exclude= credential= type=",
	"New-ItemProperty":    "path=0 name=1 value= propertytype|type= literalpath|pspath|lp= force filter= include= exclude= credential=",
	"Remove-ItemProperty": "path=0 name=1 literalpath|pspath|lp= force filter= include= exclude= credential=",
	"Expand-Archive":      "path=0 destinationpath=1 literalpath|pspath= force passthru",
	"Compress-Archive":    "path=0 destinationpath=1 literalpath|pspath= compressionlevel= update force passthru",
	"Export-Csv":          "path=0 literalpath|pspath|lp= inputobject= delimiter= encoding= append force noclobber|nooverwrite notypeinformation|nti",
	"Export-Clixml":       "path=0 literalpath|pspath|lp= inputobject= depth= encoding= force noclobber|nooverwrite",
	"Invoke-WebRequest":   "uri=0 outfile= method= body= headers= infile= usebasicparsing passthru credential= useragent= contenttype= timeoutsec= maximumredirection= sessionvariable|sv= websession= proxy= proxycredential= proxyusedefaultcredentials usedefaultcredentials disablekeepalive transferencoding= certificatethumbprint= certificate= skipcertificatecheck form= resume skiphttperrorcheck noproxy authentication= token= allowunencryptedauthentication sslprotocol= httpversion= maximumretrycount= retryintervalsec= custommethod|cm= statuscodevariable= responseheadersvariable|rhv= skipheadervalidation preserveauthorizationonredirect allowinsecureredirect connectiontimeoutseconds= operationtimeoutseconds= preservehttpmethodonredirect unixsocket=",
	"Invoke-RestMethod":   "uri=0 outfile= method= body= headers= infile= usebasicparsing passthru credential= useragent= contenttype= timeoutsec= maximumredirection= sessionvariable|sv= websession= proxy= proxycredential= proxyusedefaultcredentials usedefaultcredentials disablekeepalive transferencoding= certificatethumbprint= certificate= skipcertificatecheck form= resume skiphttperrorcheck noproxy authentication= token= allowunencryptedauthentication sslprotocol= httpversion= maximumretrycount= retryintervalsec= custommethod|cm= statuscodevariable= responseheadersvariable|rhv= followrellink|fl maximumfollowrellink|ml= skipheadervalidation preserveauthorizationonredirect allowinsecureredirect connectiontimeoutseconds= operationtimeoutseconds= preservehttpmethodonredirect unixsocket=",
	"Invoke-Expression":   "command=0",
	"Invoke-Command":      "scriptblock|command=0 filepath|psPath= argumentlist|args= computername|cn= session= credential= asjob nonewscope hidecomputername jobname= inputobject=",
	"Start-Process":       "filepath|path=0 argumentlist|args=1 workingdirectory= verb= windowstyle= wait nonewwindow passthru redirectstandardoutput|rso= redirectstandarderror|rse= redirectstandardinput|rsi= credential|runas= loaduserprofile|lup usenewenvironment environment=",
	"Set-Location":        "path=0 literalpath|pspath|lp= passthru stackname=",
	"Push-Location":       "path=0 literalpath|pspath|lp= passthru stackname=",
	"Pop-Location":        "passthru stackname=",
	"Get-ChildItem":       "path=0 filter=1 literalpath|pspath|lp= include= exclude= recurse depth= force name attributes= followsymlink directory|ad file|af hidden|ah readonly|ar system|as",
	"Get-Content":         "path=0 literalpath|pspath|lp= readcount= totalcount|first|head= tail|last= filter= include= exclude= force credential= delimiter= wait raw encoding= asbytestream stream=",
	"Get-Item":            "path=0 literalpath|pspath|lp= filter= include= exclude= force credential= stream=",
	"Invoke-Item":         "path=0 literalpath|pspath|lp= filter= include= exclude= credential=",
	"Join-Path":           "path=0 childpath=1 additionalchildpath= resolve credential=",
	"Stop-Process":        "id=0 name|processname= inputobject= force passthru",
	"Get-Process":         "name|processname=0 id= inputobject= computername|cn= module fileversioninfo|fv includeusername",
}

// psCommonSpec lists the common parameters every cmdlet takes.
const psCommonSpec = "verbose|vb debug|db erroraction|ea= warningaction|wa= informationaction|infa= progressaction|proga= " +
	"errorvariable|ev= warningvariable|wv= informationvariable|iv= outvariable|ov= outbuffer|ob= pipelinevariable|pv= " +
	"whatif|wi confirm|cf usetransaction|usetx"

type psParam struct {
	names []string // canonical lower-case name first, then aliases
	value bool
	pos   int // -1 when not positional
}

// psTables are the PowerShell name and parameter tables, parsed from
// psAliasSpec, psParamSpec and psCommonSpec on first use (about 0.15 ms and
// 700 allocations, which a bash-only call need not pay at start-up).
type psTables struct {
	alias  map[string]string    // lower-case alias or name → canonical name
	params map[string][]psParam // canonical cmdlet name → its parameters
	common []psParam            // the common parameters of every cmdlet
}

var psTablesOnce = sync.OnceValue(func() *psTables {
	t := &psTables{alias: map[string]string{}, params: map[string][]psParam{}}
	for name, aliases := range psAliasSpec {
		t.alias[strings.ToLower(name)] = name
		for _, a := range strings.Fields(aliases) {
			t.alias[a] = name
		}
	}
	for name, spec := range psParamSpec {
		t.alias[strings.ToLower(name)] = name
		t.params[name] = psParseSpec(spec)
	}
	t.common = psParseSpec(psCommonSpec)
	return t
})

func psParseSpec(spec string) []psParam {
	var out []psParam
	for _, f := range strings.Fields(spec) {
		p := psParam{pos: -1}
		names, val, hasVal := strings.Cut(f, "=")
		p.value = hasVal
		if val != "" {
			p.pos = int(val[0] - '0')
		}
		p.names = strings.Split(strings.ToLower(names), "|")
		out = append(out, p)
	}
	return out
}

// PowerShellCmdlet returns the canonical name of a PowerShell command name
// or alias, compared case-insensitively, with a module or path qualifier
// dropped: "ri", "RM", "Microsoft.PowerShell.Management\Remove-Item" all
// give "Remove-Item". known is false (and name is returned unchanged) for
// names it does not know: external programs, functions, other cmdlets.
// Aliases follow Windows PowerShell 5.1, which has the most (curl, wget, sc).
func PowerShellCmdlet(name string) (canonical string, known bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexAny(n, `\/`); i >= 0 {
		n = n[i+1:]
	}
	if c, ok := psTablesOnce().alias[n]; ok {
		return c, true
	}
	return name, false
}

// PSCommand is a PowerShell command with its arguments bound to parameters
// the way PowerShell binds them. Common parameters (-ErrorAction,
// -Verbose, -WhatIf, ...) and their values are removed.
type PSCommand struct {
	// Cmdlet is the canonical cmdlet name ("Remove-Item"), or the command
	// word's value as written when it is not a known cmdlet or alias.
	Cmdlet string
	// Known is set when the cmdlet's parameters are known, so that Named,
	// Switches and Positional are bound as PowerShell would. For other
	// commands every -Name is recorded as a switch and every other argument
	// is positional (a value after -Name is not taken from the positional
	// list: check Args).
	Known bool
	// Named maps the lower-case canonical names of value parameters
	// ("path", "destination", "literalpath") to their values; positional
	// arguments are bound here too. A comma list gives several values.
	Named map[string][]ir.Word
	// Switches maps lower-case switch names to their state (-Recurse gives
	// "recurse": true, -Recurse:$false gives false).
	Switches map[string]bool
	// Positional are the arguments no parameter took, in order.
	Positional []ir.Word
	// Args are the arguments after the command word with the common
	// parameters (and their values) and the array commas removed.
	Args []ir.Word
	// WhatIf is set when -WhatIf is on: the cmdlet only reports what it
	// would do.
	WhatIf bool
}

// ParsePowerShellCommand binds the arguments of one PowerShell command
// (args[0] being the command word, as in Segment.Words or Command.Args).
// Parameter names may be abbreviated to any unambiguous prefix and written
// with an en or em dash; -Name:value is understood. An ambiguous or unknown
// parameter is taken as a switch, so the word after it stays positional.
// Cost: linear in the arguments.
func ParsePowerShellCommand(args []ir.Word) PSCommand {
	c := PSCommand{Named: map[string][]ir.Word{}, Switches: map[string]bool{}}
	if len(args) == 0 {
		return c
	}
	c.Cmdlet = args[0].Value
	var params []psParam
	if name, ok := PowerShellCmdlet(args[0].Value); ok && !args[0].Unknown {
		c.Cmdlet = name
		params, c.Known = psTablesOnce().params[name]
	}
	var groups [][]ir.Word
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.Raw == "," {
			continue
		}
		name, attached, hasAttached, isParam := psParamWord(a)
		if !isParam {
			g := []ir.Word{a}
			for i+2 < len(args) && args[i+1].Raw == "," {
				g = append(g, args[i+2])
				i += 2
			}
			groups = append(groups, g)
			c.Args = append(c.Args, g...)
			continue
		}
		p, common := psFindParam(params, name, c.Known)
		if p == nil {
			c.Switches[name] = true
			c.Args = append(c.Args, a)
			continue
		}
		canon := p.names[0]
		if !p.value {
			on := !hasAttached || !strings.EqualFold(strings.TrimSpace(attached.Value), "false") && attached.Value != "0"
			if canon == "whatif" {
				c.WhatIf = on
			}
			if !common {
				c.Switches[canon] = on
				c.Args = append(c.Args, a)
			}
			continue
		}
		var vals []ir.Word
		if hasAttached {
			vals = append(vals, attached)
		} else if i+1 < len(args) {
			i++
			vals = append(vals, args[i])
		}
		for i+2 < len(args) && args[i+1].Raw == "," {
			vals = append(vals, args[i+2])
			i += 2
		}
		if !common {
			c.Named[canon] = append(c.Named[canon], vals...)
			c.Args = append(c.Args, a)
			c.Args = append(c.Args, vals...)
		}
	}
	// Bind positional groups to the positional parameters not given by name.
	next := 0
	for _, g := range groups {
		bound := false
		for ; next < 10 && !bound; next++ {
			for _, p := range params {
				if p.pos == next && len(c.Named[p.names[0]]) == 0 {
					c.Named[p.names[0]] = g
					bound = true
					break
				}
			}
		}
		if !bound {
			c.Positional = append(c.Positional, g...)
		}
	}
	return c
}

// psParamWord reports whether a is a parameter name (-Name, -Name:value),
// returning the lower-case name and the attached value. A quoted '-x' is
// an argument, not a parameter.
func psParamWord(a ir.Word) (name string, attached ir.Word, hasAttached, ok bool) {
	raw := a.Raw
	dash := 0
	switch {
	case strings.HasPrefix(raw, "-"):
		dash = 1
	case strings.HasPrefix(raw, "\u2013"), strings.HasPrefix(raw, "\u2014"), strings.HasPrefix(raw, "\u2015"):
		dash = 3
	default:
		return "", ir.Word{}, false, false
	}
	if len(raw) == dash || !psNameStart(raw[dash]) && raw[dash] != '?' {
		return "", ir.Word{}, false, false
	}
	end := dash
	for end < len(raw) && (psNameChar(raw[end]) || raw[end] == '?') {
		end++
	}
	name = strings.ToLower(raw[dash:end])
	if end < len(raw) && raw[end] == ':' {
		// The value follows the first colon of the resolved value.
		v := a.Value
		if k := strings.IndexByte(v, ':'); k >= 0 {
			v = v[k+1:]
		}
		kp := ""
		if !a.Unknown {
			kp = v
		} else if k := strings.IndexByte(a.KnownPrefix, ':'); k >= 0 {
			kp = a.KnownPrefix[k+1:]
		}
		attached = ir.Word{Value: v, Raw: raw[end+1:], Unknown: a.Unknown, KnownPrefix: kp, Glob: a.Glob}
		return name, attached, true, true
	}
	if end != len(raw) {
		return "", ir.Word{}, false, false
	}
	return name, ir.Word{}, false, true
}

// psFindParam finds a parameter by name, alias or unambiguous prefix among
// the cmdlet's parameters and the common ones. Prefixes are only tried for
// known cmdlets (for others the full parameter list is not known).
func psFindParam(params []psParam, name string, prefixes bool) (*psParam, bool) {
	for pass := 0; pass < 2; pass++ {
		var found *psParam
		common, n := false, 0
		for gi, list := range [][]psParam{params, psTablesOnce().common} {
			for i := range list {
				p := &list[i]
				for _, pn := range p.names {
					hit := pn == name
					if pass == 1 {
						hit = strings.HasPrefix(pn, name)
					}
					if hit {
						if found != p {
							n++
						}
						found, common = p, gi == 1
						break
					}
				}
			}
		}
		if pass == 0 && n == 1 {
			return found, common
		}
		if pass == 1 && n == 1 && prefixes {
			return found, common
		}
		if pass == 0 && n > 1 {
			return nil, false
		}
	}
	return nil, false
}

// Targets lists the items a file cmdlet deletes and the files it writes:
// Remove-Item deletes -Path/-LiteralPath (and any unbound argument);
// Move-Item deletes its source and writes -Destination; Copy-Item writes
// -Destination; Rename-Item deletes and writes its item; Set-Content,
// Add-Content, Clear-Content, Set-Item, Clear-Item, Out-File, Tee-Object,
// Export-Csv, Export-Clixml and New-Item write their path (New-Item's -Name
// joined to -Path when both are known); Expand-Archive and Compress-Archive
// write -DestinationPath; Invoke-WebRequest/-RestMethod write -OutFile;
// Start-Process writes its -RedirectStandardOutput/-Error files; the
// *-ItemProperty cmdlets write (Remove-: delete) their registry path. Both
// are empty for other commands and under -WhatIf.
func (c PSCommand) Targets() (deletes, writes []ir.Word) {
	if c.WhatIf {
		return nil, nil
	}
	n := c.Named
	paths := append(append([]ir.Word(nil), n["path"]...), n["literalpath"]...)
	switch c.Cmdlet {
	case "Remove-Item":
		deletes = append(paths, c.Positional...)
	case "Move-Item":
		deletes, writes = paths, n["destination"]
	case "Copy-Item":
		writes = n["destination"]
	case "Rename-Item":
		deletes, writes = paths, paths
	case "Set-Content", "Add-Content", "Clear-Content", "Set-Item", "Clear-Item", "Export-Csv", "Export-Clixml",
		"Set-ItemProperty", "New-ItemProperty":
		writes = paths
	case "Remove-ItemProperty":
		deletes = paths
	case "Out-File", "Tee-Object":
		writes = append(n["filepath"], n["literalpath"]...)
	case "New-Item":
		writes = paths
		if names := n["name"]; len(names) == 1 {
			if len(paths) == 0 {
				writes = names
			} else if len(paths) == 1 && !paths[0].Unknown && !names[0].Unknown {
				j := strings.TrimRight(paths[0].Value, `\/`) + `\` + names[0].Value
				writes = []ir.Word{{Value: j, Raw: paths[0].Raw + ` ` + names[0].Raw, KnownPrefix: j}}
			} else {
				writes = append(writes, names...)
			}
		}
	case "Expand-Archive", "Compress-Archive":
		writes = n["destinationpath"]
	case "Invoke-WebRequest", "Invoke-RestMethod":
		writes = n["outfile"]
	case "Start-Process":
		writes = append(n["redirectstandardoutput"], n["redirectstandarderror"]...)
	}
	return deletes, writes
}

// IsCmdSwitch reports whether w is a cmd.exe switch of one letter (/s,
// /Q, /-Y, /a:h, /?), which in a Bash call on Windows would otherwise read
// as the MSYS drive S:\. Longer words (/tmp, /MIR) are not: a Bash user
// may mean a path by them.
func IsCmdSwitch(w ir.Word) bool {
	v := w.Value
	if w.Unknown || len(v) < 2 || v[0] != '/' {
		return false
	}
	sw, _, _ := strings.Cut(strings.TrimPrefix(v[1:], "-"), ":")
	if len(sw) != 1 {
		return false
	}
	c := sw[0]
	return c == '?' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
