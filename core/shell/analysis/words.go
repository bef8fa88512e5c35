package analysis

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// part is one piece of an evaluated word: resolved text, or the source text
// of something whose value is unknown.
type part struct {
	text    string
	unknown bool
}

// xword is the analyser's working form of a word: its value as parts, so
// that unknown pieces stay marked when the word is joined into the text of a
// nested script (bash -c, eval, ...).
type xword struct {
	parts []part
	raw   string
	glob  bool
}

// knownWord returns a fully resolved word with the given value and raw text.
func knownWord(value, raw string) xword {
	return xword{parts: []part{{text: value}}, raw: raw}
}

// unknownWord returns a word whose whole value is unknown, shown as text.
func unknownWord(text, raw string) xword {
	return xword{parts: []part{{text: text, unknown: true}}, raw: raw}
}

func (w xword) value() string {
	switch len(w.parts) {
	case 0:
		return ""
	case 1:
		return w.parts[0].text
	}
	var sb strings.Builder
	for _, p := range w.parts {
		sb.WriteString(p.text)
	}
	return sb.String()
}

// size is the length of the word's value in bytes.
func (w xword) size() int {
	n := 0
	for _, p := range w.parts {
		n += len(p.text)
	}
	return n
}

func (w xword) known() bool {
	for _, p := range w.parts {
		if p.unknown {
			return false
		}
	}
	return true
}

// lit returns the value and true when the word is fully known.
func (w xword) lit() (string, bool) {
	if !w.known() {
		return "", false
	}
	return w.value(), true
}

func (w xword) word() ir.Word {
	out := ir.Word{Value: w.value(), Raw: w.raw, Glob: w.glob}
	n := 0 // Value joins the parts: the known prefix is its first n bytes
	for _, p := range w.parts {
		if p.unknown {
			out.Unknown = true
			break
		}
		n += len(p.text)
	}
	out.KnownPrefix = out.Value[:n]
	return out
}

// wordToX converts a public Word back into the working form.
func wordToX(w ir.Word) xword {
	if !w.Unknown {
		return xword{parts: []part{{text: w.Value}}, raw: w.Raw, glob: w.Glob}
	}
	x := xword{raw: w.Raw, glob: w.Glob}
	if w.KnownPrefix != "" && strings.HasPrefix(w.Value, w.KnownPrefix) {
		x.parts = append(x.parts, part{text: w.KnownPrefix})
		x.parts = append(x.parts, part{text: w.Value[len(w.KnownPrefix):], unknown: true})
	} else {
		x.parts = append(x.parts, part{text: w.Value, unknown: true})
	}
	return x
}

// fieldBuilder collects the fields (argv words) one shell word expands to.
// Adjacent parts of the same kind are joined; a part that grows is built in
// tail, so pasting pieces one by one costs linear time, not quadratic.
type fieldBuilder struct {
	fields  []xword
	from    int // fields before from were there before this word (appendFields)
	cur     xword
	slab    *[]part // where a field's first part is taken from (nil: allocated)
	live    bool    // cur exists even if empty (quotes, unknown parts, text)
	tail    strings.Builder
	growing bool // the last part of cur is being built in tail
}

func (b *fieldBuilder) add(p part) {
	if p.text == "" && !p.unknown {
		return
	}
	b.live = true
	if n := len(b.cur.parts); n > 0 && b.cur.parts[n-1].unknown == p.unknown {
		if !b.growing {
			b.tail.Reset()
			b.tail.WriteString(b.cur.parts[n-1].text)
			b.growing = true
		}
		b.tail.WriteString(p.text)
		return
	}
	b.settle()
	if b.cur.parts == nil && b.slab != nil {
		b.cur.parts = takePart(b.slab, p)
		return
	}
	b.cur.parts = append(b.cur.parts, p)
}

// partSlab is how many parts takePart allocates at once.
const partSlab = 8

// takePart returns a one-part slice holding p, cut from *slab (refilled
// when empty): most words are one part, and a word per allocation was a
// fifth of the analysis's allocations. The slice's capacity is one, so
// appending to it never writes into the slab.
func takePart(slab *[]part, p part) []part {
	if len(*slab) == 0 {
		*slab = make([]part, partSlab)
	}
	out := (*slab)[:1:1]
	out[0] = p
	*slab = (*slab)[1:]
	return out
}

// settle stores the text built in tail as the last part of cur.
func (b *fieldBuilder) settle() {
	if b.growing {
		b.cur.parts[len(b.cur.parts)-1].text = b.tail.String()
		b.growing = false
	}
}

func (b *fieldBuilder) addParts(ps []part) {
	for _, p := range ps {
		b.add(p)
	}
}

// quoted marks the current field as present even when its text is empty.
func (b *fieldBuilder) quoted() { b.live = true }

// brk ends the current field, if there is one.
func (b *fieldBuilder) brk() {
	b.settle()
	if b.live {
		b.fields = append(b.fields, b.cur)
	}
	b.cur = xword{}
	b.live = false
}

func (b *fieldBuilder) finish(raw string) []xword {
	b.brk()
	for i := b.from; i < len(b.fields); i++ {
		b.fields[i].raw = raw
	}
	return b.fields
}

// single returns the builder's content as one word (no field splitting).
func (b *fieldBuilder) single(raw string) xword {
	b.settle()
	w := b.cur
	w.raw = raw
	return w
}

// evalMode selects which expansions apply to a word.
type evalMode int

const (
	modeArgs         evalMode = iota // argv: braces, tilde, field splitting, globs
	modeSingle                       // redirect target: tilde, globs, no splitting
	modeAssign                       // assignment value: tilde after = and :, no globs
	modeHeredoc                      // unquoted heredoc body
	modeQuoted                       // text inside double quotes of an argv word
	modeQuotedSingle                 // text inside double quotes elsewhere
)

// maxBraceFields bounds how many words one brace expansion may produce;
// beyond it the word is kept unexpanded and marked unknown.
const maxBraceFields = 256

// maxValueLen bounds a variable's value; longer values become unknown, so
// doubling tricks cannot blow up memory.
const maxValueLen = 64 << 10

// maxExpanded bounds the bytes of variable values pasted into words in one
// analysis (scaled down for short inputs, see budgetFor), and maxBraceTotal the words brace expansion makes: past them
// an expansion is left unknown and Script.Truncated set, so that a value
// doubled to 64 KiB, or {1..200}, cannot be repeated into gigabytes.
const (
	maxExpanded   = 4 << 20
	maxBraceTotal = 4096
)

// spend takes n bytes from the expansion budget; false once it is spent.
func (a *analyzer) spend(n int) bool {
	if a.expanded >= a.maxExpanded {
		a.out.Truncated = true
		return false
	}
	a.expanded += n
	return true
}

// nodeText returns the source text of a node, or "" if its positions do not
// fit src.
func nodeText(src string, n syntax.Node) string {
	if n == nil {
		return ""
	}
	start, end := n.Pos(), n.End()
	if !start.IsValid() || !end.IsValid() {
		return ""
	}
	s, e := int(start.Offset()), int(end.Offset())
	if s < 0 || e > len(src) || s > e {
		return ""
	}
	return src[s:e]
}

// fields expands an argv word: brace expansion, tilde, parameters (with
// field splitting of unquoted values), quote removal; globs are kept and
// flagged.
func (a *analyzer) fields(st *state, src string, w *syntax.Word) []xword {
	return a.appendFields(nil, st, src, w)
}

// appendFields appends to dst the fields argv word w expands to (see
// fields) and returns the extended slice.
func (a *analyzer) appendFields(dst []xword, st *state, src string, w *syntax.Word) []xword {
	raw := a.fillRaw(nodeText(src, w))
	if !hasBrace(w) {
		b := fieldBuilder{fields: dst, from: len(dst), slab: &a.partSlab}
		a.evalParts(st, src, w.Parts, modeArgs, &b)
		return b.finish(raw)
	}
	if a.braceWords >= maxBraceTotal {
		a.out.Truncated = true
		return append(dst, unknownWord(raw, raw))
	}
	alts, ok := braceAlternatives(w, maxBraceFields)
	if ok && len(alts) > 1 {
		a.braceWords += len(alts)
	}
	if !ok {
		return append(dst, unknownWord(raw, raw))
	}
	for _, alt := range alts {
		b := fieldBuilder{fields: dst, from: len(dst), slab: &a.partSlab}
		a.evalParts(st, src, alt, modeArgs, &b)
		dst = b.finish(raw)
	}
	return dst
}

// single expands a word that stays one word (assignment value, redirect
// target, here-string, case subject).
func (a *analyzer) single(st *state, src string, w *syntax.Word, mode evalMode) xword {
	if w == nil {
		return xword{}
	}
	raw := a.fillRaw(nodeText(src, w))
	var b fieldBuilder
	a.evalParts(st, src, w.Parts, mode, &b)
	return b.single(raw)
}

// heredoc expands a here-document body. A quoted delimiter keeps the body
// literal; dash strips leading tabs (<<-).
func (a *analyzer) heredoc(st *state, src string, body *syntax.Word, quotedDelim, dash bool) xword {
	if body == nil {
		return xword{}
	}
	raw := a.fillRaw(nodeText(src, body))
	var b fieldBuilder
	if quotedDelim {
		for _, p := range body.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				a.addText(&b, l.Value)
			} else {
				a.addText(&b, nodeText(src, p))
			}
		}
	} else {
		a.evalParts(st, src, body.Parts, modeHeredoc, &b)
	}
	w := b.single(raw)
	if dash {
		w.parts = stripTabs(w.parts)
	}
	return w
}

// stripTabs removes leading tabs from every line of known text (<<-).
func stripTabs(ps []part) []part {
	atStart := true
	out := make([]part, 0, len(ps))
	for _, p := range ps {
		if p.unknown {
			out = append(out, p)
			atStart = false
			continue
		}
		var sb strings.Builder
		for i := 0; i < len(p.text); i++ {
			c := p.text[i]
			if atStart && c == '\t' {
				continue
			}
			atStart = c == '\n'
			sb.WriteByte(c)
		}
		out = append(out, part{text: sb.String()})
	}
	return out
}

// evalParts expands word parts into b.
func (a *analyzer) evalParts(st *state, src string, parts []syntax.WordPart, mode evalMode, b *fieldBuilder) {
	for i, wp := range parts {
		switch wp := wp.(type) {
		case *syntax.Lit:
			s := wp.Value
			switch mode {
			case modeArgs, modeSingle, modeAssign:
				if i == 0 && strings.HasPrefix(s, "~") {
					var done bool
					s, done = a.tilde(st, b, s, len(parts) > 1, mode == modeAssign)
					if done {
						continue
					}
				}
				a.unquotedLit(st, b, s, mode)
			case modeHeredoc:
				a.addText(b, unescape(s, "$`\\\n"))
			case modeQuoted, modeQuotedSingle:
				a.addText(b, unescape(s, "$`\"\\\n"))
			}
		case *syntax.SglQuoted:
			b.quoted()
			if wp.Dollar {
				a.addText(b, decodeANSIC(wp.Value))
			} else {
				a.addText(b, wp.Value)
			}
		case *syntax.DblQuoted:
			b.quoted()
			inner := modeQuotedSingle
			if mode == modeArgs {
				inner = modeQuoted
			}
			a.evalParts(st, src, wp.Parts, inner, b)
		case *syntax.ParamExp:
			a.paramInto(st, src, wp, mode, b)
		case *syntax.ExtGlob:
			if mode == modeArgs || mode == modeSingle {
				b.cur.glob = true
			}
			a.addText(b, nodeText(src, wp))
		case *syntax.CmdSubst:
			if len(wp.Stmts) == 0 && !wp.TempFile && !wp.ReplyVar {
				continue // $() and `` run nothing and expand to nothing
			}
			if v, ok := a.substValue(st, src, wp); ok {
				if mode == modeArgs {
					a.splitInto(st, b, []part{{text: v}})
				} else {
					a.addText(b, v)
				}
				continue
			}
			b.add(part{text: a.fillRaw(nodeText(src, wp)), unknown: true})
		case *syntax.BraceExp:
			// Only reached through single(): brace expansion does not
			// apply there, so keep the text.
			a.addText(b, nodeText(src, wp))
		default:
			// $(...), `...`, $((...)), <(...), >(...): unknown.
			b.add(part{text: a.fillRaw(nodeText(src, wp)), unknown: true})
		}
	}
}

// unquotedLit adds an unquoted literal: backslash escapes removed, globs
// flagged, tilde after ':' in assignments.
func (a *analyzer) unquotedLit(st *state, b *fieldBuilder, s string, mode evalMode) {
	if mode == modeAssign {
		if i := strings.Index(s, ":~"); i >= 0 {
			a.unquotedLit(st, b, s[:i+1], mode) // has no ":~": no recursion
			rest, done := a.tilde(st, b, s[i+1:], false, true)
			if !done {
				a.unquotedLit(st, b, rest, mode)
			}
			return
		}
	}
	if !strings.ContainsAny(s, "\\*?[") {
		a.addText(b, s)
		return
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					sb.WriteByte(s[i])
				}
				b.quoted()
				continue
			}
		case '*', '?':
			if mode != modeAssign {
				b.cur.glob = true
			}
		case '[':
			if mode != modeAssign && strings.IndexByte(s[i+1:], ']') >= 0 {
				b.cur.glob = true
			}
		}
		sb.WriteByte(c)
	}
	a.addText(b, sb.String())
}

// tilde expands a leading tilde prefix of s. It returns the rest of s to
// process, or done when the whole literal was consumed.
func (a *analyzer) tilde(st *state, b *fieldBuilder, s string, more, assign bool) (string, bool) {
	end := strings.IndexByte(s, '/')
	if assign {
		if c := strings.IndexByte(s, ':'); c >= 0 && (end < 0 || c < end) {
			end = c
		}
	}
	if end < 0 {
		if more {
			return s, false // ~"..." : the prefix is quoted, no expansion
		}
		end = len(s)
	}
	prefix := s[:end]
	if strings.ContainsAny(prefix, "\\'\"$`*?[") {
		return s, false
	}
	switch prefix {
	case "~":
		b.addParts(a.varParts(st, "HOME", "~"))
	case "~+":
		b.addParts(a.varParts(st, "PWD", "~+"))
	case "~-":
		b.addParts(a.varParts(st, "OLDPWD", "~-"))
	default:
		b.add(part{text: prefix, unknown: true})
	}
	b.quoted()
	rest := s[end:]
	if rest == "" {
		return "", true
	}
	return rest, false
}

// varParts returns the parts of a variable's value, or an unknown part
// showing ref when the value is unknown.
func (a *analyzer) varParts(st *state, name, ref string) []part {
	if !a.spend(0) {
		return []part{{text: ref, unknown: true}}
	}
	v, ok := a.lookup(st, name)
	if !ok || v.opaque {
		return []part{{text: ref, unknown: true}}
	}
	a.spend(partsLen(v.val))
	return v.val
}

func partsLen(ps []part) int {
	n := 0
	for _, p := range ps {
		n += len(p.text)
	}
	return n
}

// addText adds known text, turning any hole tokens back into unknown parts.
func (a *analyzer) addText(b *fieldBuilder, s string) {
	if len(a.holes) == 0 || !strings.Contains(s, holePrefix) {
		b.add(part{text: s})
		return
	}
	b.addParts(a.splitHoles(s))
}

// unescape removes a backslash before any byte in special.
func unescape(s, special string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(special, s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// paramInto expands a parameter expansion into b.
func (a *analyzer) paramInto(st *state, src string, pe *syntax.ParamExp, mode evalMode, b *fieldBuilder) {
	ref := a.fillRaw(nodeText(src, pe))
	if !a.spend(0) {
		b.add(part{text: ref, unknown: true})
		return
	}
	elems, multi, glob, star, ok := a.param(st, src, pe, ref)
	if !ok {
		b.add(part{text: ref, unknown: true})
		return
	}
	for _, e := range elems {
		a.spend(partsLen(e))
	}
	split := mode == modeArgs
	if (mode == modeQuoted || mode == modeQuotedSingle) && multi && star {
		// "$*" joins with the first IFS character.
		sep := " "
		if st.ifsSet {
			sep = ""
			if st.ifs != "" {
				sep = st.ifs[:1]
			}
		}
		for i, e := range elems {
			if i > 0 {
				b.add(part{text: sep})
			}
			b.addParts(e)
		}
		return
	}
	for i, e := range elems {
		if i > 0 && (split || mode == modeQuoted) {
			b.brk()
		} else if i > 0 {
			b.add(part{text: " "})
		}
		if !split {
			if mode == modeQuoted && multi {
				b.quoted()
			}
			b.addParts(e)
			continue
		}
		if glob {
			b.cur.glob = true
		}
		a.splitInto(st, b, e)
	}
}

// splitInto adds an unquoted expansion's value with IFS field splitting.
func (a *analyzer) splitInto(st *state, b *fieldBuilder, ps []part) {
	ifs := " \t\n"
	if st.ifsSet {
		if !st.ifsKnown {
			for _, p := range ps {
				b.add(part{text: p.text, unknown: true})
			}
			return
		}
		ifs = st.ifs
	}
	for _, p := range ps {
		if p.unknown || ifs == "" {
			b.add(p)
			continue
		}
		val := p.text
		if strings.ContainsAny(val, "*?[") {
			b.cur.glob = true
		}
		for len(val) > 0 {
			i := strings.IndexAny(val, ifs)
			if i < 0 {
				b.add(part{text: val})
				break
			}
			if i > 0 {
				b.add(part{text: val[:i]})
			}
			b.brk()
			_, size := utf8.DecodeRuneInString(val[i:])
			val = val[i+size:]
		}
	}
}

// param resolves a parameter expansion. It returns one element per field
// for $@/$* (multi), else one element; ok is false when the value is
// unknown.
func (a *analyzer) param(st *state, src string, pe *syntax.ParamExp, ref string) (elems [][]part, multi, glob, star, ok bool) {
	if pe.Param != nil {
		if el, m, g, s, handled, found := a.arrayParam(st, pe); handled {
			return el, m, g, s, found
		}
	}
	elems, multi, glob, ok = a.scalarParam(st, src, pe)
	return elems, multi, glob, multi && pe.Param.Value == "*", ok
}

// scalarParam resolves a parameter expansion of a scalar or of $@ / $*.
func (a *analyzer) scalarParam(st *state, src string, pe *syntax.ParamExp) (elems [][]part, multi, glob, ok bool) {
	if pe.Repl != nil && pe.Param != nil && pe.Exp == nil && !pe.Excl && !pe.Length && pe.Index == nil && pe.Slice == nil {
		return a.replParam(st, src, pe)
	}
	if pe.Param == nil || pe.Excl || pe.Width || pe.IsSet || pe.Flags != nil ||
		pe.NestedParam != nil || pe.Index != nil || len(pe.Modifiers) > 0 ||
		pe.Slice != nil || pe.Repl != nil || pe.Names != 0 ||
		pe.Split != syntax.OptUnset || pe.GlobSubst != syntax.OptUnset || pe.RcExpand != syntax.OptUnset {
		return nil, false, false, false
	}
	name := pe.Param.Value
	if name == "@" || name == "*" {
		if !st.posKnown || pe.Length || pe.Exp != nil {
			if pe.Length && st.posKnown {
				return [][]part{{{text: strconv.Itoa(len(st.pos))}}}, false, false, true
			}
			return nil, false, false, false
		}
		for _, p := range st.pos {
			elems = append(elems, p.parts)
			glob = glob || p.glob
		}
		return elems, true, glob, true
	}
	v, set := a.lookup(st, name)
	known := set && !v.opaque
	if pe.Length {
		if !known || !partsKnown(v.val) {
			return nil, false, false, false
		}
		n := utf8.RuneCountInString(joinParts(v.val))
		return [][]part{{{text: strconv.Itoa(n)}}}, false, false, true
	}
	if pe.Exp == nil {
		if !known {
			return nil, false, false, false
		}
		return [][]part{v.val}, false, v.glob, true
	}
	// ${x op word}
	empty := known && joinParts(v.val) == "" && partsKnown(v.val)
	op := pe.Exp.Op
	word := func() ([]part, bool) {
		w := a.single(st, src, pe.Exp.Word, modeSingle)
		return w.parts, true
	}
	switch op {
	case syntax.DefaultUnsetOrNull, syntax.DefaultUnset, syntax.AssignUnsetOrNull, syntax.AssignUnset:
		colon := op == syntax.DefaultUnsetOrNull || op == syntax.AssignUnsetOrNull
		if !known && a.surelyUnset(st, name) { // ondisk.go: unset here and in the environment
			known, empty, v = true, true, variable{}
		}
		if !known {
			return nil, false, false, false
		}
		if empty && colon {
			ps, _ := word()
			if op == syntax.AssignUnsetOrNull {
				st.setVar(name, variable{val: ps})
			}
			return [][]part{ps}, false, false, true
		}
		return [][]part{v.val}, false, v.glob, true
	case syntax.AlternateUnsetOrNull, syntax.AlternateUnset:
		if !known {
			return nil, false, false, false
		}
		if empty && op == syntax.AlternateUnsetOrNull {
			return [][]part{nil}, false, false, true
		}
		ps, _ := word()
		return [][]part{ps}, false, false, true
	case syntax.ErrorUnsetOrNull, syntax.ErrorUnset:
		if !known {
			return nil, false, false, false
		}
		return [][]part{v.val}, false, v.glob, true
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if !known || !partsKnown(v.val) {
			return nil, false, false, false
		}
		pat := a.single(st, src, pe.Exp.Word, modeQuotedSingle)
		p, pok := pat.lit()
		if !pok {
			return nil, false, false, false
		}
		s := joinParts(v.val)
		if strings.ContainsAny(p, "*?[\\") {
			t, ok := trimPattern(s, p, op) // globtrim.go
			if !ok {
				return nil, false, false, false
			}
			return [][]part{{{text: t}}}, false, v.glob, true
		}
		if op == syntax.RemSmallPrefix || op == syntax.RemLargePrefix {
			s = strings.TrimPrefix(s, p)
		} else {
			s = strings.TrimSuffix(s, p)
		}
		return [][]part{{{text: s}}}, false, v.glob, true
	case syntax.UpperAll, syntax.LowerAll:
		if !known || !partsKnown(v.val) || pe.Exp.Word != nil {
			return nil, false, false, false
		}
		s := joinParts(v.val)
		if op == syntax.UpperAll {
			s = strings.ToUpper(s)
		} else {
			s = strings.ToLower(s)
		}
		return [][]part{{{text: s}}}, false, false, true
	}
	return nil, false, false, false
}

func partsKnown(ps []part) bool {
	for _, p := range ps {
		if p.unknown {
			return false
		}
	}
	return true
}

func joinParts(ps []part) string {
	if len(ps) == 1 {
		return ps[0].text
	}
	var sb strings.Builder
	for _, p := range ps {
		sb.WriteString(p.text)
	}
	return sb.String()
}

// decodeANSIC decodes the escapes of a $'...' string.
func decodeANSIC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\', '\'', '"', '?':
			sb.WriteByte(c)
		case 'c':
			if i+1 < len(s) {
				i++
				sb.WriteByte(s[i] & 0x1f)
			} else {
				sb.WriteString("\\c")
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			sb.WriteByte(byte(n))
			i = j - 1
		case 'x', 'u', 'U':
			max := 2
			if c == 'u' {
				max = 4
			} else if c == 'U' {
				max = 8
			}
			j := i + 1
			for j < len(s) && j < i+1+max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				sb.WriteByte('\\')
				sb.WriteByte(c)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				sb.WriteByte(byte(n))
			} else if utf8.ValidRune(rune(n)) {
				sb.WriteRune(rune(n))
			}
			i = j - 1
		default:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		}
	}
	return strings.ToValidUTF8(sb.String(), "\uFFFD")
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hasBrace reports whether brace expansion may apply to w.
func hasBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.IndexByte(p.Value, '{') >= 0 {
				return true
			}
		case *syntax.BraceExp:
			return true
		}
	}
	return false
}

// braceAlternatives performs brace expansion on w, returning each
// alternative as a list of word parts; ok is false past limit.
//
// The expansion is mvdan.cc/sh/v3/expand's (BracesSeq: alternatives,
// sequences with steps, letters and zero padding to the widest endpoint,
// as bash does); parts that are not literal ($X, $(...)) are carried into
// every alternative, left for the analysis to expand. braceCount counts
// the alternatives first, so that no more than limit are ever made,
// however the braces nest. The word itself is left as parsed
// (syntax.SplitBraces works on a copy): a loop body is walked once per
// item, and syntax.Walk refuses the brace nodes a split leaves behind.
func braceAlternatives(w *syntax.Word, limit int) ([][]syntax.WordPart, bool) {
	w = &syntax.Word{Parts: w.Parts}
	if !syntax.SplitBraces(w) {
		hasBrace := false
		for _, p := range w.Parts {
			if _, ok := p.(*syntax.BraceExp); ok {
				hasBrace = true
				break
			}
		}
		if !hasBrace {
			return [][]syntax.WordPart{w.Parts}, true
		}
	}
	n, ok := braceCount(w.Parts, limit)
	if !ok {
		return nil, false
	}
	alts := make([][]syntax.WordPart, 0, n)
	for bw, err := range expand.BracesSeq(nil, w) {
		if err != nil || len(alts) == n {
			return nil, false // not reached: braceCount counted them
		}
		alts = append(alts, bw.Parts)
	}
	return alts, len(alts) == n
}

// braceCount is how many words brace expansion makes of parts (split by
// syntax.SplitBraces); ok is false past limit, and for a sequence whose
// count cannot be bounded (see braceSeqCount). Cost: linear in the parts.
func braceCount(parts []syntax.WordPart, limit int) (int, bool) {
	n := 1
	for _, p := range parts {
		be, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		var k int
		if be.Sequence {
			c, ok := braceSeqCount(be)
			if !ok || c > uint64(limit) {
				return 0, false
			}
			k = int(c)
		} else {
			for _, e := range be.Elems {
				c, ok := braceCount(e.Parts, limit)
				if !ok {
					return 0, false
				}
				if k += c; k > limit {
					return 0, false
				}
			}
		}
		if k > 0 {
			if n*k > limit {
				return 0, false
			}
			n *= k
		}
	}
	return n, true
}

// braceSeqCount is how many terms the sequence {from..to[..step]} has,
// read as expand.BracesSeq reads it (integers, or single letters). ok is
// false when expand's stepping would overflow int64 past the last term
// (an endpoint or step near ±2^63): its loop would wrap around and not
// end, so the word is left unexpanded.
func braceSeqCount(be *syntax.BraceExp) (uint64, bool) {
	if len(be.Elems) < 2 {
		return 0, false
	}
	fromLit, toLit := be.Elems[0].Lit(), be.Elems[1].Lit()
	from, err1 := strconv.ParseInt(fromLit, 10, 64)
	to, err2 := strconv.ParseInt(toLit, 10, 64)
	if err1 != nil || err2 != nil {
		if fromLit == "" || toLit == "" {
			return 0, false
		}
		from, to = int64(fromLit[0]), int64(toLit[0])
	}
	incr := int64(1)
	if len(be.Elems) > 2 {
		n, _ := strconv.ParseInt(be.Elems[2].Lit(), 10, 64)
		if n < 0 {
			n = -n
		}
		if n < 0 {
			return 0, false // -(-2^63) is still negative
		}
		if n != 0 {
			incr = n
		}
	}
	span := uint64(to) - uint64(from)
	if from > to {
		span = uint64(from) - uint64(to)
	}
	steps := span / uint64(incr)
	last := from + int64(steps*uint64(incr))
	if from > to {
		last = from - int64(steps*uint64(incr))
		if last < math.MinInt64+incr {
			return 0, false
		}
	} else if last > math.MaxInt64-incr {
		return 0, false
	}
	return steps + 1, true
}

// replParam is ${v/pat/rep}, ${v//pat/rep}, ${v/#pat/rep}, ${v/%pat/rep}
// of a known value with a literal pattern and a known replacement (a
// glob in the pattern is not evaluated: unknown). The value keeps its
// glob flag: replacing text in a pattern of names gives names in the
// same directory unless the replacement adds a "/" or "..".
func (a *analyzer) replParam(st *state, src string, pe *syntax.ParamExp) (elems [][]part, multi, glob, ok bool) {
	v, set := a.lookup(st, pe.Param.Value)
	if !set || v.opaque || v.isArr || !partsKnown(v.val) {
		return nil, false, false, false
	}
	orig := ""
	if pe.Repl.Orig != nil {
		w := a.single(st, src, pe.Repl.Orig, modeQuotedSingle)
		s, k := w.lit()
		if !k {
			return nil, false, false, false
		}
		orig = s
	}
	with := ""
	if pe.Repl.With != nil {
		w := a.single(st, src, pe.Repl.With, modeQuotedSingle)
		s, k := w.lit()
		if !k {
			return nil, false, false, false
		}
		with = s
	}
	if strings.ContainsAny(orig, "*?[\\") {
		return nil, false, false, false
	}
	s := joinParts(v.val)
	switch {
	case strings.HasPrefix(orig, "#"):
		if p := orig[1:]; strings.HasPrefix(s, p) {
			s = with + s[len(p):]
		}
	case strings.HasPrefix(orig, "%"):
		if p := orig[1:]; strings.HasSuffix(s, p) {
			s = s[:len(s)-len(p)] + with
		}
	case orig == "":
	case pe.Repl.All:
		s = strings.ReplaceAll(s, orig, with)
	default:
		s = strings.Replace(s, orig, with, 1)
	}
	return [][]part{{{text: s}}}, false, v.glob, true
}
