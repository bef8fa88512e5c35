package ondisk

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// just, as far as it decides which command lines run: the justfile's
// assignments (NAME := expr, export NAME := expr; strings, raw strings,
// +, / joins, variables, justfile_directory(), invocation_directory(),
// env_var(), env(); a backtick runs a command while the file is read and
// its value is unknown), recipes with parameters (defaults, +/* variadic,
// $ exported), dependencies (run first, once; those after && run after),
// attributes ([no-cd]), the @ and - line prefixes, {{ }} interpolation
// and shebang recipes (a #! shell recipe is one script). The first recipe
// is the default. Each recipe line comes out as shell text with its file
// and line, and the directory it runs in.

// JustOptions describe one run of just.
type JustOptions struct {
	// File is the justfile (absolute), Dir the directory recipes run in
	// (the justfile's, or --working-directory), Cwd where just was run.
	File, Dir, Cwd string
	// Args are the words after the options: NAME=VALUE overrides, then
	// recipes and their arguments.
	Args []Text
	// Env is the environment just inherits.
	Env func(name string) (Text, bool)
}

// JustLine is one command line just runs.
type JustLine struct {
	Text   Text
	Line   int
	Recipe string
	// Dir is the directory it runs in; Exported the variables exported
	// to it (export assignments and $-parameters).
	Dir      string
	Exported map[string]Text
}

// JustNames are the justfile names just looks for, in order.
var JustNames = []string{"justfile", "Justfile", ".justfile", "JUSTFILE"}

type justRecipe struct {
	name    string
	params  []justParam
	deps    []justDep
	after   []justDep
	body    []logicalLine
	line    int
	noCD    bool
	shebang bool
}

type justParam struct {
	name, def string
	hasDef    bool
	variadic  bool
	exported  bool
}

type justDep struct {
	name string
	args []string // expressions
}

type justfile struct {
	opt       JustOptions
	vars      map[string]Text
	exported  map[string]bool
	recipes   map[string]*justRecipe
	order     []string
	lines     []JustLine
	ran       map[string]bool
	exportAll bool
}

// Just parses the justfile text and returns the command lines the run
// executes. Cost: linear in the text; at most maxMakeLines lines and
// maxMakeTargets recipes are run.
func Just(text string, opt JustOptions) []JustLine {
	if hasControl(text) {
		return nil
	}
	j := &justfile{opt: opt, vars: map[string]Text{}, exported: map[string]bool{}, recipes: map[string]*justRecipe{}, ran: map[string]bool{}}
	j.parse(text)
	args := opt.Args
	for len(args) > 0 {
		k, v, ok := strings.Cut(args[0].String(), "=")
		if !ok || !args[0].IsKnown() || j.recipes[k] != nil {
			break
		}
		j.vars[k] = Known(v)
		args = args[1:]
	}
	if len(args) == 0 {
		if len(j.order) > 0 {
			j.run(j.order[0], nil, 0)
		}
		return j.lines
	}
	for len(args) > 0 {
		name := args[0].String()
		r := j.recipes[name]
		if r == nil || !args[0].IsKnown() {
			break // not a recipe: just fails
		}
		n := 0
		for _, p := range r.params {
			if p.variadic {
				n = len(args) - 1
				break
			}
			n++
		}
		n = min(n, len(args)-1)
		j.run(name, args[1:1+n], 0)
		args = args[1+n:]
	}
	return j.lines
}

func (j *justfile) parse(text string) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	noCD := false
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") {
			continue
		}
		if l[0] == ' ' || l[0] == '\t' {
			continue // a body line outside a recipe
		}
		if strings.HasPrefix(t, "[") {
			noCD = noCD || strings.Contains(t, "no-cd")
			continue
		}
		word, rest := firstWord(t)
		switch word {
		case "set", "alias", "import", "mod":
			continue
		case "export":
			if name, val, ok := strings.Cut(rest, ":="); ok {
				n := strings.TrimSpace(name)
				j.vars[n] = j.eval(strings.TrimSpace(val), nil, i+1)
				j.exported[n] = true
			}
			continue
		}
		if name, val, ok := strings.Cut(t, ":="); ok && !strings.ContainsAny(name, ":") {
			j.vars[strings.TrimSpace(name)] = j.eval(strings.TrimSpace(val), nil, i+1)
			continue
		}
		colon := strings.IndexByte(t, ':')
		if colon < 0 {
			continue
		}
		r := &justRecipe{line: i + 1, noCD: noCD}
		noCD = false
		head := strings.Fields(strings.TrimPrefix(t[:colon], "@"))
		if len(head) == 0 {
			continue
		}
		r.name = head[0]
		for _, p := range head[1:] {
			jp := justParam{}
			if strings.HasPrefix(p, "+") || strings.HasPrefix(p, "*") {
				jp.variadic, p = true, p[1:]
			}
			if strings.HasPrefix(p, "$") {
				jp.exported, p = true, p[1:]
			}
			if n, d, ok := strings.Cut(p, "="); ok {
				jp.name, jp.def, jp.hasDef = n, d, true
			} else {
				jp.name = p
			}
			r.params = append(r.params, jp)
		}
		deps := t[colon+1:]
		before, after, _ := strings.Cut(deps, "&&")
		r.deps, r.after = parseJustDeps(before), parseJustDeps(after)
		for i+1 < len(lines) && (strings.TrimSpace(lines[i+1]) == "" || lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			i++
			if strings.TrimSpace(lines[i]) == "" {
				continue
			}
			r.body = append(r.body, logicalLine{text: lines[i], line: i + 1})
		}
		if len(r.body) > 0 && strings.HasPrefix(strings.TrimSpace(r.body[0].text), "#!") {
			r.shebang = true
		}
		if _, seen := j.recipes[r.name]; !seen {
			j.order = append(j.order, r.name)
		}
		j.recipes[r.name] = r
	}
}

// parseJustDeps reads "a b (c 'x') d".
func parseJustDeps(s string) []justDep {
	var out []justDep
	s = strings.TrimSpace(s)
	for s != "" {
		if s[0] == '(' {
			end := strings.IndexByte(s, ')')
			if end < 0 {
				return out
			}
			f := strings.Fields(s[1:end])
			if len(f) > 0 {
				out = append(out, justDep{name: f[0], args: f[1:]})
			}
			s = strings.TrimSpace(s[end+1:])
			continue
		}
		w, rest := firstWord(s)
		out = append(out, justDep{name: w})
		s = strings.TrimSpace(rest)
	}
	return out
}

// run runs recipe name with args (expressions already evaluated).
func (j *justfile) run(name string, args []Text, depth int) {
	r := j.recipes[name]
	if r == nil || j.ran[name] || depth > maxMakeDepth || len(j.ran) > maxMakeTargets {
		return
	}
	j.ran[name] = true
	scope := map[string]Text{}
	exported := map[string]Text{}
	for k := range j.exported {
		exported[k] = j.vars[k]
	}
	for i, p := range r.params {
		var v Text
		switch {
		case p.variadic && i < len(args):
			for k, a := range args[i:] {
				if k > 0 {
					v = append(v, Seg{Text: " "})
				}
				v = append(v, a...)
			}
		case i < len(args):
			v = args[i]
		case p.hasDef:
			v = j.eval(p.def, scope, r.line)
		}
		scope[p.name] = v
		if p.exported {
			exported[p.name] = v
		}
	}
	for _, d := range r.deps {
		j.run(d.name, j.evalArgs(d.args, scope, r.line), depth+1)
	}
	dir := j.opt.Dir
	if r.noCD {
		dir = j.opt.Cwd
	}
	emit := func(t Text, line int) {
		if len(j.lines) >= maxMakeLines {
			return
		}
		j.lines = append(j.lines, JustLine{Text: t, Line: line, Recipe: name, Dir: dir, Exported: exported})
	}
	if r.shebang {
		var sb []string
		for _, b := range r.body[1:] {
			sb = append(sb, strings.TrimSpace(b.text))
		}
		if isShellShebang(r.body[0].text) {
			emit(j.interpolate(strings.Join(sb, "\n"), scope, r.line), r.body[0].line+1)
		}
	} else {
		for _, b := range r.body {
			t := strings.TrimLeft(strings.TrimSpace(b.text), "@-")
			if strings.HasPrefix(t, "#") {
				continue
			}
			emit(j.interpolate(t, scope, b.line), b.line)
		}
	}
	for _, d := range r.after {
		j.run(d.name, j.evalArgs(d.args, scope, r.line), depth+1)
	}
}

func isShellShebang(line string) bool {
	sb, ok := ParseShebang(strings.TrimSpace(line))
	if !ok {
		return false
	}
	return cmdfacts.IsShell(sb.Prog)
}

func (j *justfile) evalArgs(exprs []string, scope map[string]Text, line int) []Text {
	var out []Text
	for _, e := range exprs {
		out = append(out, j.eval(e, scope, line))
	}
	return out
}

// interpolate replaces {{ expr }} in a recipe line.
func (j *justfile) interpolate(s string, scope map[string]Text, line int) Text {
	var out Text
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		if strings.HasPrefix(s[i:], "{{{{") {
			out = append(out, Seg{Text: s[:i] + "{{"})
			s = s[i+4:]
			continue
		}
		end := strings.Index(s[i:], "}}")
		if end < 0 {
			break
		}
		out = append(out, Seg{Text: s[:i]})
		out = append(out, j.eval(strings.TrimSpace(s[i+2:i+end]), scope, line)...)
		s = s[i+end+2:]
	}
	return append(out, Seg{Text: s})
}

// eval evaluates a just expression: terms joined by + or /.
func (j *justfile) eval(e string, scope map[string]Text, line int) Text {
	var out Text
	join := ""
	for e = strings.TrimSpace(e); e != ""; e = strings.TrimSpace(e) {
		var term Text
		switch c := e[0]; {
		case c == '"' || c == '\'':
			end := closingQuote(e)
			if end < 0 {
				return Text{{Text: e, Unknown: true}}
			}
			v := e[1:end]
			if c == '"' {
				v = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n", `\t`, "\t").Replace(v)
			}
			term, e = Known(v), e[end+1:]
		case c == '`':
			end := strings.IndexByte(e[1:], '`')
			if end < 0 {
				return Text{{Text: e, Unknown: true}}
			}
			cmd := e[1 : end+1]
			j.lines = append(j.lines, JustLine{Text: Known(cmd), Line: line, Dir: j.opt.Dir})
			term, e = Text{{Text: "`" + cmd + "`", Unknown: true}}, e[end+2:]
		case c == '(':
			end := strings.LastIndexByte(e, ')')
			if end < 0 {
				return Text{{Text: e, Unknown: true}}
			}
			term, e = j.eval(e[1:end], scope, line), e[end+1:]
		default:
			k := 0
			for k < len(e) && (isJustIdent(e[k])) {
				k++
			}
			if k == 0 {
				return append(out, Seg{Text: e, Unknown: true})
			}
			name := e[:k]
			e = e[k:]
			if strings.HasPrefix(strings.TrimSpace(e), "(") {
				rest := strings.TrimSpace(e)
				end := strings.IndexByte(rest, ')')
				if end < 0 {
					return append(out, Seg{Text: name + rest, Unknown: true})
				}
				term, e = j.call(name, rest[1:end], scope, line), rest[end+1:]
				break
			}
			if v, ok := scope[name]; ok {
				term = v
			} else if v, ok := j.vars[name]; ok {
				term = v
			} else {
				term = Text{{Text: name, Unknown: true}}
			}
		}
		if join == "/" {
			out = append(out, Seg{Text: "/"})
		}
		out = append(out, term...)
		e = strings.TrimSpace(e)
		join = ""
		if strings.HasPrefix(e, "+") || strings.HasPrefix(e, "/") {
			join, e = e[:1], e[1:]
			continue
		}
		if e != "" {
			return append(out, Seg{Text: e, Unknown: true})
		}
	}
	return out
}

func closingQuote(e string) int {
	q := e[0]
	for i := 1; i < len(e); i++ {
		if e[i] == '\\' && q == '"' {
			i++
			continue
		}
		if e[i] == q {
			return i
		}
	}
	return -1
}

func isJustIdent(c byte) bool {
	return c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// call evaluates the just functions that name places.
func (j *justfile) call(name, args string, scope map[string]Text, line int) Text {
	arg := func(i int) Text {
		parts := strings.Split(args, ",")
		if i < len(parts) {
			return j.eval(parts[i], scope, line)
		}
		return nil
	}
	switch name {
	case "justfile_directory", "justfile_dir", "source_directory":
		return Known(path.Dir(j.opt.File))
	case "justfile", "source_file":
		return Known(j.opt.File)
	case "invocation_directory", "invocation_dir":
		return Known(j.opt.Cwd)
	case "env_var", "env", "env_var_or_default":
		n := arg(0)
		if !n.IsKnown() {
			break
		}
		if v, ok := j.opt.Env(n.String()); ok {
			return v
		}
		if strings.Contains(args, ",") {
			return arg(1)
		}
	}
	return Text{{Text: name + "(" + args + ")", Unknown: true}}
}
