package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// GNU sed runs shell commands itself: the e command (e COMMAND runs
// COMMAND; a bare e runs the pattern space, that is each input line) and
// the s command's e flag (s/RE/REPLACEMENT/e runs the pattern space after
// the substitution; the replacement is taken as the command, which is
// exact for the s/.*/CMD/e and s/^.*$/CMD/e forms). Payloads reads them
// from every script (-e, --expression=, or the first operand).

func init() {
	payloadReaders["sed"] = (*payloads).sed
}

// sedValued are sed's options that take the next word (-e and -f are
// handled on their own).
var sedValued = map[string]bool{"--line-length": true}

// sed collects the commands of sed's e command and s///e flag.
func (p *payloads) sed() {
	var scripts []ir.Word
	fromFile, files := false, 0
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		switch {
		case a.Unknown && strings.HasPrefix(a.Value, "-"):
		case a.Value == "--":
			files += len(p.args) - i - 1
			i = len(p.args)
		case a.Value == "--expression" && i+1 < len(p.args):
			i++
			scripts = append(scripts, p.args[i])
		case strings.HasPrefix(a.Value, "--expression="):
			scripts = append(scripts, SubWord(a, len("--expression=")))
		case a.Value == "--file" || strings.HasPrefix(a.Value, "--file="):
			fromFile = true
			if a.Value == "--file" {
				i++
			}
		case sedValued[a.Value]:
			i++
		case strings.HasPrefix(a.Value, "--") || a.Value == "-":
		case strings.HasPrefix(a.Value, "-"):
			// A cluster of short options (-ne SCRIPT, -es/a/b/, -i.bak,
			// -nf FILE): e and f take the rest or the next word, i and
			// l the rest.
			for k := 1; k < len(a.Value); k++ {
				ch := a.Value[k]
				if ch == 'l' && k+1 == len(a.Value) {
					i++ // -l N
				}
				if ch == 'i' || ch == 'l' {
					break
				}
				if ch != 'e' && ch != 'f' {
					continue
				}
				var w *ir.Word
				if k+1 < len(a.Value) {
					sw := SubWord(a, k+1)
					w = &sw
				} else if i+1 < len(p.args) {
					i++
					w = &p.args[i]
				}
				if ch == 'f' {
					fromFile = true
				} else if w != nil {
					scripts = append(scripts, *w)
				}
				break
			}
		default:
			if len(scripts) == 0 && !fromFile {
				scripts = append(scripts, a)
			} else {
				files++
			}
		}
	}
	// GNU sed joins the scripts with newlines (sed -e 'a\' -e 'TEXT').
	var joined strings.Builder
	offs := make([]int, len(scripts))
	for k, w := range scripts {
		if k > 0 {
			joined.WriteByte('\n')
		}
		offs[k] = joined.Len()
		joined.WriteString(w.Value)
	}
	text := joined.String()
	bare := false
	for _, c := range sedExecs(text) {
		if c.from == c.to {
			bare = true
			continue
		}
		k := len(offs) - 1
		for k > 0 && offs[k] > c.from {
			k--
		}
		to := min(c.to, offs[k]+len(scripts[k].Value))
		p.line(Piece(scripts[k], c.from-offs[k], to-offs[k], text[c.from:to]), "sed "+c.form)
	}
	if bare && files == 0 {
		p.stdinLines(func(l ir.Word) { p.line(l, "sed e") })
	}
}

// sedExec is one command a sed script runs: the byte range of its text in
// the script (empty for a bare e, which runs the pattern space) and its
// form ("e" or "s///e").
type sedExec struct {
	from, to int
	form     string
}

// sedExecs scans a sed script for e commands and s commands with the e
// flag. It follows GNU sed's syntax far enough to find command letters:
// addresses (N, $, /RE/, \cREc, first~step, ranges, !), blocks, labels,
// and the commands whose argument runs to the end of the line (a i c r R
// w W e and b t T :). Cost: linear in the script.
func sedExecs(s string) []sedExec {
	var out []sedExec
	i := 0
	eol := func(j int) int {
		k := strings.IndexByte(s[j:], '\n')
		if k < 0 {
			return len(s)
		}
		return j + k
	}
	// delimited skips a delimited part starting at j (the delimiter is
	// s[j-1]) and returns the index after its closing delimiter.
	delimited := func(j int, d byte) int {
		for j < len(s) {
			switch {
			case s[j] == '\\' && j+1 < len(s):
				j += 2
			case s[j] == d:
				return j + 1
			case s[j] == '\n' && d != '\n':
				return j
			default:
				j++
			}
		}
		return j
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' || c == '~':
			i++
			continue
		case c >= '0' && c <= '9' || c == '$':
			i++
			continue
		case c == '/':
			i = delimited(i+1, '/')
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
			continue
		case c == '\\' && i+1 < len(s):
			i = delimited(i+2, s[i+1])
			continue
		case c == '#':
			i = eol(i)
			continue
		}
		i++ // the command letter
		switch c {
		case 'e':
			j := i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			end := eol(j)
			text := strings.TrimRight(s[j:end], " \t")
			if text == "" || text[0] == ';' || text[0] == '}' {
				out = append(out, sedExec{from: j, to: j, form: "e"}) // bare e: the pattern space
				i = j
				continue
			}
			out = append(out, sedExec{from: j, to: j + len(text), form: "e"})
			i = end
		case 's':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				continue
			}
			d := s[i]
			re := delimited(i+1, d)
			rs := re
			re2 := delimited(rs, d)
			repl := s[rs:max(rs, re2-1)]
			j := re2
			exec := false
			for j < len(s) && strings.IndexByte("gpeiImM0123456789", s[j]) >= 0 {
				if s[j] == 'e' {
					exec = true
				}
				j++
			}
			if j < len(s) && s[j] == 'w' {
				j = eol(j)
			}
			if exec && strings.TrimSpace(repl) != "" {
				out = append(out, sedExec{from: rs, to: rs + len(repl), form: "s///e"})
			}
			i = j
		case 'y':
			if i < len(s) {
				d := s[i]
				i = delimited(delimited(i+1, d), d)
			}
		case 'a', 'i', 'c':
			// text to the end of the line, and on while lines end in \
			for {
				end := eol(i)
				i = end
				if end == len(s) || end == 0 || s[end-1] != '\\' {
					break
				}
				i++
			}
		case 'r', 'R', 'w', 'W':
			i = eol(i) // a file name to the end of the line
		case 'b', 't', 'T', ':', 'v':
			for i < len(s) && s[i] != ';' && s[i] != '\n' {
				i++ // a label (or v's version) ends at ; or the line
			}
		}
	}
	return out
}
