package oneliner

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// Tcl and expect scripts (tclsh, wish, expect -c): commands are words
// separated by blanks, ended by a newline or ";"; {...} quotes literally,
// "..." substitutes $var and [command] (unknown parts here), # starts a
// comment where a command starts. The effects: exec and spawn (an argv),
// expect's send into a spawned shell (a command line), file delete /
// rename / copy / mkdir / link (the sources of a copy or rename read), open
// of a file for writing (or else reading) or of a "|command" pipe. Braced words are scanned as scripts too (the bodies of
// if, foreach, proc, catch, eval ...). set NAME VALUE is followed.

// tclEscapes decodes the backslash escapes of a Tcl word that matter here.
var tclEscapes = strings.NewReplacer("n", "\n", "r", "\r", "t", "\t")

// maxTclDepth bounds the braced bodies scanned inside each other.
const maxTclDepth = 8

// tclWord is one word of a Tcl command: its value with hole for unknown
// parts, and the braced text when it was {...}.
type tclWord struct {
	v      value
	braced string
	isBody bool
	nested []string // the [command] substitutions in the word
}

// tcl scans a Tcl script.
func (p *parser) tcl(code string) {
	shellSpawned := false
	p.tclScript(code, 0, &shellSpawned)
}

func (p *parser) tclScript(code string, depth int, shellSpawned *bool) {
	if depth > maxTclDepth {
		return
	}
	for _, cmd := range p.tclCommands(code) {
		if p.done() {
			return
		}
		*p.work--
		for _, w := range cmd {
			if w.isBody {
				p.tclScript(w.braced, depth+1, shellSpawned)
			}
			for _, n := range w.nested {
				p.tclScript(n, depth+1, shellSpawned)
			}
		}
		p.tclCommand(cmd, shellSpawned)
	}
}

// tclCommand judges one command.
func (p *parser) tclCommand(cmd []tclWord, shellSpawned *bool) {
	if len(cmd) == 0 || !cmd[0].v.known() {
		return
	}
	args := cmd[1:]
	switch cmd[0].v.s {
	case "set":
		if len(args) == 2 && args[0].v.known() {
			p.vars["$"+args[0].v.s] = args[1].v
		}
	case "exec":
		argv := tclSwitches(args)
		var list []value
		for _, w := range argv {
			if w.v.known() && (w.v.s == "&" || w.v.s == "|" || strings.HasPrefix(w.v.s, ">") || strings.HasPrefix(w.v.s, "2>") ||
				strings.HasPrefix(w.v.s, "<")) {
				break
			}
			list = append(list, w.v)
		}
		if len(list) > 0 {
			p.exec(value{isList: true, list: list}, "exec")
		}
	case "spawn":
		argv := tclSwitches(args)
		var list []value
		for _, w := range argv {
			list = append(list, w.v)
		}
		if len(list) == 0 {
			return
		}
		if list[0].known() && cmdfacts.IsShell(list[0].s[strings.LastIndexByte(list[0].s, '/')+1:]) {
			*shellSpawned = true
			if len(list) == 1 {
				return
			}
		}
		p.exec(value{isList: true, list: list}, "spawn")
	case "send":
		argv := tclSwitches(args)
		if *shellSpawned && len(argv) > 0 && argv[len(argv)-1].v.str {
			text := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(argv[len(argv)-1].v.s)
			p.exec(value{str: true, s: text}, "send")
		}
	case "open":
		if len(args) == 0 {
			return
		}
		if args[0].v.str && strings.HasPrefix(args[0].v.s, "|") {
			p.exec(value{str: true, s: args[0].v.s[1:]}, "open |")
			return
		}
		if len(args) > 1 && args[1].v.known() && strings.ContainsAny(args[1].v.s, "wa+") || len(args) > 1 &&
			args[1].v.known() && (strings.Contains(args[1].v.s, "WRONLY") || strings.Contains(args[1].v.s, "RDWR")) {
			p.path("write", args[0].v, "open")
		} else {
			p.read(args[0].v, "open", false)
		}
	case "file":
		if len(args) == 0 || !args[0].v.known() {
			return
		}
		sub := args[0].v.s
		ops := tclSwitches(args[1:])
		switch sub {
		case "delete":
			for _, w := range ops {
				p.path("delete", w.v, "file delete")
			}
		case "rename", "copy", "link":
			if len(ops) < 2 {
				return
			}
			for _, w := range ops[:len(ops)-1] {
				if sub != "link" {
					p.read(w.v, "file "+sub, true)
				}
				if sub == "rename" {
					p.path("delete", w.v, "file rename")
				}
			}
			p.path("write", ops[len(ops)-1].v, "file "+sub)
		case "mkdir":
			for _, w := range ops {
				p.path("write", w.v, "file mkdir")
			}
		}
	}
}

// tclSwitches drops the leading -switches (and "--") of exec, spawn,
// send and file subcommands.
func tclSwitches(ws []tclWord) []tclWord {
	for i, w := range ws {
		if !w.v.known() || !strings.HasPrefix(w.v.s, "-") {
			return ws[i:]
		}
		if w.v.s == "--" {
			return ws[i+1:]
		}
	}
	return nil
}

// tclCommands splits a script into commands of words.
func (p *parser) tclCommands(code string) [][]tclWord {
	var cmds [][]tclWord
	var cur []tclWord
	i := 0
	end := func() {
		if len(cur) > 0 {
			cmds = append(cmds, cur)
			cur = nil
		}
	}
	for i < len(code) && len(cmds) < 4096 {
		c := code[i]
		switch {
		case c == '\n' || c == ';':
			end()
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\\' && i+1 < len(code) && code[i+1] == '\n':
			i += 2
		case c == '#' && len(cur) == 0:
			for i < len(code) && code[i] != '\n' {
				i++
			}
		case c == '{':
			j := tclClose(code, i, '{', '}')
			body := code[i+1 : max(i+1, j-1)]
			cur = append(cur, tclWord{v: literalValue(body), braced: body, isBody: true})
			i = j
		default:
			w, j := p.tclBare(code, i)
			cur = append(cur, w)
			i = j
		}
	}
	end()
	return cmds
}

// tclClose returns the index after the bracket (open, close: { } or
// [ ]) that closes the one at i, backslashes escaping; len(s) when none.
func tclClose(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// tclBare reads a "..." word or a bare word at i, substituting variables
// the script set and marking other $var and [command] parts unknown.
func (p *parser) tclBare(s string, i int) (tclWord, int) {
	quoted := s[i] == '"'
	if quoted {
		i++
	}
	var nested []string
	var sb strings.Builder
	for i < len(s) {
		c := s[i]
		switch {
		case quoted && c == '"':
			return tclWord{v: value{str: true, s: sb.String()}, nested: nested}, i + 1
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '\r'):
			return tclWord{v: value{str: true, s: sb.String()}, nested: nested}, i
		case c == '\\' && i+1 < len(s):
			i++
			sb.WriteString(tclEscapes.Replace(s[i : i+1]))
			i++
		case c == '$':
			j := i + 1
			if j < len(s) && s[j] == '{' {
				k := strings.IndexByte(s[j:], '}')
				if k < 0 {
					k = len(s) - j - 1
				}
				p.tclVar(&sb, s[j+1:j+k])
				i = j + k + 1
				continue
			}
			for j < len(s) && (identChar(s[j]) || s[j] == ':') {
				j++
			}
			if j == i+1 {
				sb.WriteByte('$')
				i++
				continue
			}
			p.tclVar(&sb, s[i+1:j])
			i = j
		case c == '[':
			j := tclClose(s, i, '[', ']')
			nested = append(nested, s[i+1:max(i+1, j-1)])
			sb.WriteString(hole)
			i = j
		default:
			sb.WriteByte(c)
			i++
		}
	}
	return tclWord{v: value{str: true, s: sb.String()}, nested: nested}, i
}

func (p *parser) tclVar(sb *strings.Builder, name string) {
	if v, ok := p.vars["$"+name]; ok && v.str {
		sb.WriteString(v.s)
		return
	}
	if name == "env(HOME)" || name == "::env(HOME)" {
		sb.WriteString("~")
		return
	}
	sb.WriteString(hole)
}
