package oneliner

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// ---- awk

// awk judges system(), print/printf redirections, command | getline and
// getline < file.
func (p *parser) awk() {
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
					if target.known() && cmdfacts.IsShell(strings.TrimSpace(target.s)) {
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
					!awkKeyword[p.toks[start-1].text] {
					start--
				}
				p.exec(p.eval(start, i-1, 0), "getline")
			}
			// getline [var] < file: a read of file.
			k := i + 1
			if k < n && p.toks[k].kind == tkIdent && !awkKeyword[p.toks[k].text] {
				k++
			}
			if p.is(k, "<") && k+1 < n {
				p.read(p.eval(k+1, p.skip(k+1), 0), "getline <", false)
			}
		}
	}
}

var awkKeyword = map[string]bool{"print": true, "printf": true, "if": true, "while": true, "return": true,
	"in": true, "getline": true, "do": true, "else": true, "for": true}

// awkStmtEnd returns the end of an awk statement starting at j.
func (p *parser) awkStmtEnd(j int) int {
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
