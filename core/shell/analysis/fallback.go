package analysis

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The fallback runs when the text does not parse. It splits the text,
// quote-aware, at ; | & && || newlines, parentheses and backticks — also
// inside $(...) and `...` within double quotes, since those run — and
// analyses every piece: a piece that parses on its own is analysed fully,
// any other is tokenised crudely. Every command is reported; none is
// assumed harmless.

// fallback analyses text that failed to parse.
func (a *analyzer) fallback(c ctx, st *state, text string) {
	splitSegments(text, func(seg string) bool {
		if a.full() {
			return false
		}
		seg = stripReserved(seg)
		if strings.Trim(seg, " \t\r\n'\"") == "" {
			return true // only blanks and quotes: runs nothing
		}
		if a.noParse || !a.segmentParses(c, st, seg) {
			a.crude(c, st, seg)
		}
		return !a.full()
	})
}

// segmentParses analyses seg fully when it parses on its own.
func (a *analyzer) segmentParses(c ctx, st *state, seg string) bool {
	f, err := a.parse(seg)
	if err != nil {
		return false
	}
	c.src = seg
	start, traps := len(a.declared), len(a.traps)
	a.stmts(c, st, f.Stmts)
	a.flushTraps(traps, st)
	a.uncalled(start, nil)
	return true
}

// reservedWords may start a segment of a broken compound command.
var reservedWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true,
	"done": true, "while": true, "until": true, "{": true, "}": true, "!": true,
	"time": true, "esac": true, "in": true, "coproc": true,
}

func stripReserved(seg string) string {
	for {
		t := strings.TrimLeft(seg, " \t\r\n")
		end := strings.IndexAny(t, " \t\r\n")
		if end < 0 {
			end = len(t)
		}
		if end == 0 || !reservedWords[t[:end]] {
			return t
		}
		seg = t[end:]
	}
}

// splitSegments splits text at command separators outside quotes and
// hands each segment to yield, in order, until yield returns false. Inside
// double quotes, $( and ` open a nested command whose text becomes its own
// segment. Cost: linear in the text split.
func splitSegments(text string, yield func(seg string) bool) {
	var cur strings.Builder
	stopped := false
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" && !stopped {
			stopped = !yield(s)
		}
		cur.Reset()
	}
	// modes: 'n' normal, 'd' double quotes, 'p' inside $( or (, 'b' inside `.
	stack := []byte{'n'}
	top := func() byte { return stack[len(stack)-1] }
	for i := 0; i < len(text) && !stopped; i++ {
		ch := text[i]
		mode := top()
		if mode == 'd' {
			switch {
			case ch == '\\' && i+1 < len(text):
				cur.WriteByte(ch)
				i++
				cur.WriteByte(text[i])
			case ch == '"':
				cur.WriteByte(ch)
				stack = stack[:len(stack)-1]
			case ch == '$' && i+1 < len(text) && text[i+1] == '(':
				flush()
				i++
				stack = append(stack, 'p')
			case ch == '`':
				flush()
				stack = append(stack, 'b')
			default:
				cur.WriteByte(ch)
			}
			continue
		}
		switch ch {
		case '\\':
			cur.WriteByte(ch)
			if i+1 < len(text) {
				i++
				cur.WriteByte(text[i])
			}
		case '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				cur.WriteString(text[i:])
				i = len(text)
			} else {
				cur.WriteString(text[i : i+end+2])
				i += end + 1
			}
		case '"':
			cur.WriteByte(ch)
			stack = append(stack, 'd')
		case ';', '|', '&', '\n', '\r':
			flush()
		case '(':
			flush()
			stack = append(stack, 'p')
		case ')':
			flush()
			if mode == 'p' {
				stack = stack[:len(stack)-1]
			}
		case '`':
			flush()
			if mode == 'b' {
				stack = stack[:len(stack)-1]
			} else {
				stack = append(stack, 'b')
			}
		case '#':
			if cur.Len() == 0 || isBlank(text[i-1]) {
				// A comment runs to the end of the line.
				for i < len(text) && text[i] != '\n' {
					i++
				}
				flush()
				continue
			}
			cur.WriteByte(ch)
		default:
			cur.WriteByte(ch)
		}
	}
	flush()
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// crude tokenises a segment that does not parse: blanks split, quotes are
// removed, backslashes escape outside single quotes, anything with $ or a
// backquote is unknown; redirect operators take the next token as target.
func (a *analyzer) crude(c ctx, st *state, seg string) {
	toks := crudeTokens(seg)
	sc := simple{src: seg}
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if op, fd, target, ok := crudeRedirect(t.raw); ok {
			var tw xword
			switch {
			case target != "":
				tw = crudeWord(target, target)
			case k+1 < len(toks):
				k++
				tw = toks[k].word
			}
			sc.redirs = append(sc.redirs, ir.Redirect{Op: op, Fd: fd, Target: tw.word()})
			continue
		}
		if len(sc.words) == 0 {
			if eq := strings.IndexByte(t.raw, '='); eq > 0 && isName(t.raw[:eq]) {
				val := t.word
				val.parts = trimPartsPrefix(val.parts, eq+1)
				sc.assigns = append(sc.assigns, ir.Assign{Name: t.raw[:eq], Value: val.word()})
				continue
			}
		}
		sc.words = append(sc.words, t.word)
	}
	if len(sc.redirs) == 0 && len(sc.assigns) == 0 && !hasText(sc.words) {
		return // only quote characters: nothing runs
	}
	a.run(c, st, &sc)
}

type crudeToken struct {
	raw  string
	word xword
}

func crudeTokens(seg string) []crudeToken {
	var out []crudeToken
	i := 0
	for i < len(seg) {
		for i < len(seg) && isBlank(seg[i]) {
			i++
		}
		if i >= len(seg) {
			break
		}
		start := i
		var val strings.Builder
		unknown := false
		for i < len(seg) && !isBlank(seg[i]) {
			switch ch := seg[i]; ch {
			case '\'':
				end := strings.IndexByte(seg[i+1:], '\'')
				if end < 0 {
					val.WriteString(seg[i+1:])
					i = len(seg)
					continue
				}
				val.WriteString(seg[i+1 : i+1+end])
				i += end + 2
			case '"':
				i++
				for i < len(seg) && seg[i] != '"' {
					if seg[i] == '\\' && i+1 < len(seg) && strings.IndexByte("$`\"\\", seg[i+1]) >= 0 {
						i++
					} else if seg[i] == '$' || seg[i] == '`' {
						unknown = true
					}
					val.WriteByte(seg[i])
					i++
				}
				i++
			case '\\':
				if i+1 < len(seg) {
					i++
					val.WriteByte(seg[i])
				}
				i++
			case '$', '`':
				unknown = true
				val.WriteByte(ch)
				i++
			default:
				val.WriteByte(ch)
				i++
			}
		}
		raw := seg[start:min(i, len(seg))]
		w := knownWord(val.String(), raw)
		if unknown {
			w = unknownWord(val.String(), raw)
		} else if strings.ContainsAny(raw, "*?[") && !strings.ContainsAny(raw, `'"\`) {
			w.glob = true
		}
		out = append(out, crudeToken{raw: raw, word: w})
	}
	return out
}

func crudeWord(val, raw string) xword {
	if strings.ContainsAny(val, "$`") {
		return unknownWord(val, raw)
	}
	return knownWord(val, raw)
}

// crudeRedirect recognises [fd]op[target] tokens: >, >>, >|, &>, &>>, <,
// <<, <<<, <>, >&.
func crudeRedirect(t string) (op, fd, target string, ok bool) {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	fd = t[:i]
	rest := t[i:]
	for _, o := range []string{"&>>", "<<<", ">>", ">|", "&>", "<<", "<>", ">&", "<&", ">", "<"} {
		if strings.HasPrefix(rest, o) {
			if o[0] == '&' && fd != "" {
				return "", "", "", false
			}
			return o, fd, rest[len(o):], true
		}
	}
	return "", "", "", false
}

func hasText(ws []xword) bool {
	for _, w := range ws {
		if !w.known() || w.value() != "" {
			return true
		}
	}
	return false
}
