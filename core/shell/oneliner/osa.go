package oneliner

import (
	"strings"
)

// ---- AppleScript

// osa judges do shell script, do script told to Terminal and write text
// told to iTerm (the terminal's shell runs the text), Finder delete and
// empty trash, and shut
// down / restart told to System Events, the Finder or loginwindow (also
// as raw events «event aevtshut», «event aevtrsdn», «event aevtrest»),
// reported as the shutdown command they amount to.
func (p *parser) osa() {
	n := len(p.toks)
	finder, power, terminal := false, false, false
	for i := 0; i+1 < n; i++ {
		if (strings.EqualFold(p.toks[i].text, "application") || strings.EqualFold(p.toks[i].text, "app")) &&
			p.toks[i+1].kind == tkString {
			switch strings.ToLower(p.toks[i+1].text) {
			case "finder":
				finder, power = true, true
			case "system events", "loginwindow":
				power = true
			case "terminal", "iterm", "iterm2":
				terminal = true
			}
		}
	}
	word := func(i int, w string) bool {
		return i < n && p.toks[i].kind == tkIdent && strings.EqualFold(strings.TrimSuffix(p.toks[i].text, "»"), w)
	}
	for i := 0; i < n && !p.done(); i++ {
		*p.work--
		switch {
		case word(i, "do") && word(i+1, "shell") && word(i+2, "script"):
			end := p.osaEnd(i + 3)
			p.exec(p.eval(i+3, end, 0), "do shell script")
		case terminal && word(i, "do") && word(i+1, "script"):
			end := p.osaEnd(i + 2)
			p.exec(p.eval(i+2, end, 0), "Terminal do script")
		case terminal && word(i, "write") && word(i+1, "text"):
			end := p.osaEnd(i + 2)
			p.exec(p.eval(i+2, end, 0), "iTerm write text")
		case word(i, "delete") && (finder || p.osaHasPOSIX(i+1, p.osaEnd(i+1))):
			end := p.osaEnd(i + 1)
			p.path("delete", p.osaObject(i+1, end), "Finder delete")
		case word(i, "empty") && (word(i+1, "trash") || word(i+1, "the") && word(i+2, "trash")):
			p.emit(Effect{Op: "delete", API: "Finder empty trash"})
		case power && (word(i, "shut") && word(i+1, "down") || word(i, "aevtshut") || word(i, "aevtrsdn")):
			p.exec(literalValue("shutdown -h now"), "shut down") // the same power-off as shutdown
		case power && (word(i, "restart") || word(i, "aevtrest") || word(i, "aevtrrst")):
			p.exec(literalValue("shutdown -r now"), "restart")
		}
	}
}

// osaEnd returns the end of an AppleScript command's direct parameter.
func (p *parser) osaEnd(j int) int {
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

func (p *parser) osaHasPOSIX(a, b int) bool {
	for k := a; k < b; k++ {
		if strings.EqualFold(p.toks[k].text, "POSIX") {
			return true
		}
	}
	return false
}

// osaObject finds the file a Finder command names: POSIX file "/x", or
// file/folder/alias "Disk:Users:x" (an HFS path, turned into /Users/x).
func (p *parser) osaObject(a, b int) value {
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
				return literalValue("/" + strings.Join(parts[1:], "/"))
			}
			if v.str {
				return v
			}
		}
	}
	return value{}
}

func (p *parser) osaOperandEnd(j, b int) int {
	for k := j; k < b; k = p.skip(k) {
		if t := p.toks[k]; t.kind == tkIdent && (strings.EqualFold(t.text, "as") || strings.EqualFold(t.text, "of")) {
			return k
		}
	}
	return b
}
