package winshell

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

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
