package oneliner

import (
	"strings"
)

// ---- evaluation

// eval evaluates the expression in tokens [a,b).
func (p *parser) eval(a, b, depth int) value {
	b = min(b, len(p.toks))
	for a < b && p.toks[a].kind == tkLine {
		a++
	}
	for b > a && p.toks[b-1].kind == tkLine {
		b--
	}
	*p.work--
	if a >= b || depth > maxEval || *p.work <= 0 {
		return value{}
	}
	for p.is(a, "(") && p.match[a] == b-1 && b-a > 2 {
		a, b = a+1, b-1
	}
	if p.fam == famHaskell {
		if v, ok := p.hsApply(a, b, depth); ok {
			return v
		}
	}
	if b-a == 1 {
		return p.evalTok(a, depth)
	}
	switch {
	case p.is(a, "[") && p.match[a] == b-1:
		return p.evalList(a+1, b-1, depth)
	case p.is(a, "{") && p.match[a] == b-1:
		return p.evalObj(a+1, b-1, depth)
	case p.is(a, "(") && p.match[a] == b-1 && p.fam == famPerl:
		return p.evalList(a+1, b-1, depth)
	case p.fam == famPHP && p.toks[a].kind == tkIdent && strings.EqualFold(p.toks[a].text, "array") && p.is(a+1, "(") && p.match[a+1] == b-1:
		return p.evalList(a+2, b-1, depth)
	}
	spans, ops, ok := p.operands(a, b)
	if !ok {
		return value{}
	}
	if len(spans) == 1 {
		return p.evalOperand(spans[0][0], spans[0][1], depth)
	}
	var sb strings.Builder
	any := false
	var left value
	for i, sp := range spans {
		v := p.eval(sp[0], sp[1], depth+1)
		if i > 0 {
			switch ops[i-1] {
			case "/": // pathlib: Path(x) / 'y'
				if left.ctor == "" {
					return value{}
				}
				sb.WriteString("/")
			case "%": // Python 'fmt %s' % args
				if !left.str {
					return value{}
				}
				return value{str: true, s: percentHoles(left.s)}
			}
		}
		if v.str {
			sb.WriteString(v.s)
			any = true
		} else {
			sb.WriteString(hole)
		}
		if i == 0 {
			left = v
		}
	}
	if !any {
		return value{}
	}
	return value{str: true, s: sb.String(), ctor: left.ctor}
}

// operands splits [a,b) at the language's concatenation operators. ok is
// false when another operator appears at top level (a ternary, a
// comparison, arithmetic): the value is then unknown.
func (p *parser) operands(a, b int) (spans [][2]int, ops []string, ok bool) {
	if p.fam == famAwk {
		return p.awkOperands(a, b)
	}
	start := a
	for k := a; k < b; {
		t := p.toks[k]
		if t.kind == tkPunct && !p.isOpener(k) && !p.memberOp(k) {
			if p.concatOp(t.text) && k > start {
				spans = append(spans, [2]int{start, k})
				ops = append(ops, t.text)
				start = k + 1
				k++
				continue
			}
			if !(t.text == "!" && p.fam == famRuby) && !(t.text == "\\" && p.fam == famPerl) {
				return nil, nil, false
			}
		}
		if t.kind == tkIdent && k > start && operatorWord[t.text] {
			return nil, nil, false
		}
		k = p.skip(k)
	}
	if start >= b {
		return nil, nil, false
	}
	spans = append(spans, [2]int{start, b})
	return spans, ops, true
}

func (p *parser) concatOp(op string) bool {
	switch p.fam {
	case famJS, famRuby, famGroovy:
		return op == "+"
	case famElixir:
		return op == "<>"
	case famErlang, famHaskell:
		return op == "++"
	case famPython:
		return op == "+" || op == "/" || op == "%"
	case famPerl, famPHP:
		return op == "."
	case famOSA:
		return op == "&"
	case famLua:
		return op == ".."
	}
	return false
}

// operatorWord lists words that are operators or keywords inside an
// expression: a value around them is not a plain concatenation.
var operatorWord = map[string]bool{
	"if": true, "else": true, "unless": true, "and": true, "or": true, "not": true, "in": true, "is": true,
	"for": true, "x": true, "eq": true, "ne": true, "lt": true, "gt": true, "le": true, "ge": true,
	"cmp": true, "instanceof": true, "typeof": true, "then": true, "do": true, "end": true, "lambda": true,
}

// awkOperands splits an awk expression into juxtaposed operands (awk
// concatenates by juxtaposition); any operator makes it unknown.
func (p *parser) awkOperands(a, b int) (spans [][2]int, ops []string, ok bool) {
	for k := a; k < b; {
		start := k
		for p.is(k, "$") {
			k++
		}
		if k >= b {
			return nil, nil, false
		}
		t := p.toks[k]
		switch {
		case t.kind == tkIdent && (p.is(k+1, "(") || p.is(k+1, "[")):
			k = p.skip(k + 1)
		case p.is(k, "("):
			k = p.skip(k)
		case t.kind == tkString || t.kind == tkNumber || t.kind == tkIdent:
			k++
		default:
			return nil, nil, false
		}
		spans = append(spans, [2]int{start, min(k, b)})
		if len(spans) > 1 {
			ops = append(ops, "")
		}
	}
	return spans, ops, len(spans) > 0
}

func (p *parser) evalList(a, b, depth int) value {
	v := value{isList: true}
	for _, arg := range p.splitArgs(a, b) {
		e := p.eval(arg.a, arg.b, depth+1)
		if e.isList && p.fam == famPerl {
			v.list = append(v.list, e.list...) // Perl lists flatten
			continue
		}
		v.list = append(v.list, e)
	}
	return v
}

func (p *parser) evalObj(a, b, depth int) value {
	v := value{obj: map[string]value{}}
	for _, arg := range p.splitArgs(a, b) {
		if arg.kw != "" { // Ruby name: value
			v.obj[arg.kw] = p.eval(arg.a, arg.b, depth+1)
			continue
		}
		for k := arg.a; k < arg.b; k = p.skip(k) {
			if p.is(k, ":") || p.is(k, "=>") {
				key := p.eval(arg.a, k, depth+1)
				name := ""
				if key.known() {
					name = key.s
				} else if k == arg.a+1 && p.toks[arg.a].kind == tkIdent {
					name = p.toks[arg.a].text
				}
				if name != "" {
					v.obj[name] = p.eval(k+1, arg.b, depth+1)
				}
				break
			}
		}
	}
	return v
}

// evalTok evaluates one token.
func (p *parser) evalTok(i, depth int) value {
	t := p.toks[i]
	switch t.kind {
	case tkString:
		return p.strValue(t, depth)
	case tkWords:
		v := value{isList: true}
		for _, w := range t.items {
			v.list = append(v.list, literalValue(w))
		}
		return v
	case tkNumber:
		return literalValue(t.text)
	case tkExec:
		return value{str: true, s: hole} // the command's output
	case tkIdent:
		return p.evalIdent(t.text)
	}
	return value{}
}

// strValue evaluates the text of a string or command token, evaluating
// its interpolations.
func (p *parser) strValue(t token, depth int) value {
	if t.parts == nil {
		return literalValue(t.text)
	}
	var sb strings.Builder
	for _, part := range t.parts {
		if !part.expr {
			sb.WriteString(part.text)
			continue
		}
		if v := p.evalText(part.text, depth); v.str {
			sb.WriteString(v.s)
		} else {
			sb.WriteString(hole)
		}
	}
	return value{str: true, s: sb.String()}
}

// evalIdent evaluates a variable, constant or module name.
func (p *parser) evalIdent(name string) value {
	key := name
	if p.fam == famOSA {
		key = strings.ToLower(name)
	}
	if v, ok := p.vars[key]; ok {
		return v
	}
	switch key {
	case "true", "false", "True", "False":
		return literalValue(key)
	case "home":
		if p.fam == famOSA {
			return literalValue("~")
		}
	case "__dirname":
		if p.fam == famJS {
			return literalValue(".") // node -e: the working directory
		}
	}
	if p.fam == famPerl && (name == "$ENV" || name == "%ENV") {
		return value{}
	}
	return value{mod: name}
}

// evalText evaluates the source of an interpolated expression.
func (p *parser) evalText(text string, depth int) value {
	if depth+1 > maxEval || p.depth >= maxNest || len(text) > 4096 {
		return value{}
	}
	sub := newParser(p.fam, p.lang, text, p.depth+1, p.vars, p.work)
	return sub.eval(0, len(sub.toks), depth+1)
}

// evalOperand evaluates a single operand: an access chain, or a method
// call on a literal ('sep'.join(list), '{}'.format(x), [..].join(' ')).
func (p *parser) evalOperand(a, b, depth int) value {
	t := p.toks[a]
	if p.fam == famOSA && b-a >= 4 && strings.EqualFold(t.text, "quoted") && strings.EqualFold(p.toks[a+1].text, "form") &&
		strings.EqualFold(p.toks[a+2].text, "of") {
		if v := p.eval(a+3, b, depth+1); v.known() {
			return literalValue("'" + strings.ReplaceAll(v.s, "'", `'\''`) + "'")
		}
		return value{}
	}
	if p.fam == famGroovy && t.kind == tkIdent && t.text == "new" && a+1 < b {
		return p.evalOperand(a+1, b, depth) // new File(...): the constructor's value
	}
	if t.kind == tkIdent {
		links, end := p.chain(a, b)
		if end < b {
			if (p.fam == famPerl || p.fam == famRuby || p.fam == famElixir) && !links[len(links)-1].call {
				links[len(links)-1].call = true
				links[len(links)-1].args = p.splitArgs(end, b)
				return p.chainValue(links, depth)
			}
			return value{}
		}
		return p.chainValue(links, depth)
	}
	if (t.kind == tkString || p.is(a, "[")) && a+2 < b {
		recvEnd := p.skip(a)
		if recvEnd+1 < b && p.is(recvEnd, ".") && p.toks[recvEnd+1].kind == tkIdent && p.is(recvEnd+2, "(") {
			recv := p.eval(a, recvEnd, depth+1)
			args := p.splitArgs(recvEnd+3, p.match[recvEnd+2])
			switch p.toks[recvEnd+1].text {
			case "join":
				if len(args) == 1 {
					if recv.str && p.fam == famPython {
						lst := p.eval(args[0].a, args[0].b, depth+1)
						return joinList(lst, recv)
					}
					if recv.isList {
						return joinList(recv, p.eval(args[0].a, args[0].b, depth+1))
					}
				}
			case "format":
				if recv.str {
					return value{str: true, s: formatHoles(recv.s)}
				}
			}
		}
	}
	return value{}
}

// percentHoles replaces the %s-style fields of a printf template with
// holes (%% stays a percent sign).
func percentHoles(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '(' { // %(name)s
			if k := strings.IndexByte(s[j:], ')'); k >= 0 {
				j += k + 1
			}
		}
		for j < len(s) && strings.IndexByte("-#0 +.*0123456789", s[j]) >= 0 {
			j++
		}
		if j < len(s) && strings.IndexByte("sdifrxXoeEgGcab", s[j]) >= 0 {
			b.WriteString(hole)
			i = j
			continue
		}
		b.WriteByte('%')
	}
	return b.String()
}

func joinList(list, sep value) value {
	if !list.isList {
		return value{}
	}
	s := hole
	if sep.str {
		s = sep.s
	}
	var parts []string
	for _, e := range list.list {
		if e.str {
			parts = append(parts, e.s)
		} else {
			parts = append(parts, hole)
		}
	}
	return value{str: true, s: strings.Join(parts, s)}
}

// formatHoles replaces the {...} fields of a str.format template with
// holes.
func formatHoles(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], "{{"):
			b.WriteByte('{')
			i++
		case strings.HasPrefix(s[i:], "}}"):
			b.WriteByte('}')
			i++
		case s[i] == '{':
			if k := strings.IndexByte(s[i:], '}'); k >= 0 {
				b.WriteString(hole)
				i += k
				continue
			}
			b.WriteByte('{')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// chain parses an access chain starting at identifier i and ending before
// b: name, .name, ::name, ->name, (args), [index] (and Perl {key}).
func (p *parser) chain(i, b int) ([]link, int) {
	links := []link{{name: p.toks[i].text}}
	j := i + 1
	for j < b && len(links) < 64 {
		last := &links[len(links)-1]
		switch {
		case p.is(j, "(") && !last.call && !last.index:
			end := min(p.match[j], b)
			last.call, last.args = true, p.splitArgs(j+1, end)
			j = end + 1
		case p.is(j, "[") && !(p.fam == famPerl && p.toks[j].space),
			p.is(j, "{") && p.fam == famPerl && !p.toks[j].space && (strings.HasPrefix(last.name, "$") || last.name == "->"):
			end := min(p.match[j], b)
			if last.call || last.index {
				links = append(links, link{name: "[]"})
				last = &links[len(links)-1]
			}
			last.index, last.idx = true, p.splitArgs(j+1, end)
			j = end + 1
		case j+1 < b && p.memberOp(j) && p.toks[j+1].kind == tkIdent:
			links = append(links, link{name: p.toks[j+1].text})
			j += 2
		case p.fam == famPerl && p.is(j, "->") && (p.is(j+1, "[") || p.is(j+1, "{")):
			j++
			links = append(links, link{name: "->"})
		default:
			return links, j
		}
	}
	return links, min(j, b)
}

// importFuncs are the calls that load a module by its name.
var importFuncs = map[string]bool{"require": true, "__import__": true, "import": true, "import_module": true}

// fold returns the canonical name of what links[:k] denote and its value.
func (p *parser) fold(links []link, k, depth int) (string, value) {
	base, self := "", value{}
	for j := 0; j < k; j++ {
		l := links[j]
		if j == 0 {
			if l.call && importFuncs[l.name] {
				if v, ok := p.arg(l.args, 0); ok && v.known() {
					base = p.canonModule(v.s)
					self = value{mod: base}
					continue
				}
			}
			base = l.name
			if p.fam == famPHP {
				base = strings.ToLower(strings.TrimPrefix(base, `\`))
			}
			if v, ok := p.vars[l.name]; ok {
				switch {
				case v.mod != "":
					base = v.mod
				case v.ctor != "":
					base, self = v.ctor, v
				case v.str || v.isList:
					base, self = "str", v
				}
			}
		} else {
			base = base + "." + l.name
		}
		base = p.canon(base)
		switch {
		case l.call:
			self = p.pure(base, self, l.args, depth)
			if self.ctor != "" {
				base = self.ctor
			} else {
				base += "()"
			}
		case l.index:
			self = p.pureIndex(base, l.idx, depth)
			base += "[]"
		case j > 0 && (p.fam == famRuby || p.fam == famElixir):
			self = p.pure(base, self, nil, depth) // Ruby and Elixir calls without parentheses
			if self.ctor != "" {
				base = self.ctor
			}
		case j > 0 && base == "Path().parent":
			self = parentPath(self)
			self.ctor = "Path()"
		case j > 0:
			self = p.member(base)
		}
	}
	return base, self
}

// key returns the canonical name of the function links[k] calls.
func (p *parser) key(links []link, k, depth int) (string, value) {
	if k == 0 {
		name := links[0].name
		if v, ok := p.vars[name]; ok && v.mod != "" {
			return p.canon(v.mod), value{}
		}
		if p.fam == famPHP {
			name = strings.ToLower(strings.TrimPrefix(name, `\`))
		}
		return p.canon(name), value{}
	}
	base, self := p.fold(links, k, depth)
	return p.canon(base + "." + links[k].name), self
}

// canon applies a family's name equivalences (fs.promises is fs,
// pathlib.Path is Path, Kernel.system is system, ...).
func (p *parser) canon(key string) string {
	for _, r := range canonNames[p.fam] {
		if strings.HasPrefix(key, r[0]) && (len(key) == len(r[0]) || key[len(r[0])] == '.' || key[len(r[0])] == '(') {
			key = r[1] + key[len(r[0]):]
		}
	}
	return key
}

var canonNames = map[byte][][2]string{
	famJS: {{"fs.promises", "fs"}, {"fsPromises", "fs"}, {"fse", "fs"}, {"child_process.promises", "child_process"},
		{"cp", "child_process"}, {"childProcess", "child_process"}},
	famPython: {{"pathlib.Path", "Path"}, {"pathlib.PurePath", "Path"}, {"pathlib.PosixPath", "Path"},
		{"pathlib.WindowsPath", "Path"}, {"PosixPath", "Path"}, {"WindowsPath", "Path"}, {"PurePath", "Path"},
		{"PurePosixPath", "Path"}, {"builtins", ""}},
	famRuby: {{"Pathname.new", "Pathname"}, {"Kernel", ""}, {"::FileUtils", "FileUtils"}, {"::File", "File"}},
	famPerl: {{"CORE", ""}, {"CORE.GLOBAL", ""}, {"Path.Tiny.path", "path"}},
	famGroovy: {{"java.nio.file.Files", "Files"}, {"java.nio.file.Paths", "Paths"}, {"java.nio.file.Path", "Path"},
		{"java.io.File", "File"}, {"java.lang.Runtime", "Runtime"}, {"java.lang.ProcessBuilder", "ProcessBuilder"},
		{"java.lang.System", "System"}, {"org.apache.commons.io.FileUtils", "FileUtils"},
		{"scala.sys.process.Process", "Process"}, {"sys.process.Process", "Process"}, {"scala.sys.env", "sys.env"},
		{"scala.sys.props", "sys.props"}, {"scala.reflect.io.Directory", "Directory"}},
	famElixir: {{"Elixir.File", "File"}, {"Elixir.System", "System"}, {"Elixir.Path", "Path"}},
}

// canonModule canonicalises a module name given to require/import.
func (p *parser) canonModule(m string) string {
	m = strings.TrimPrefix(m, "node:")
	switch m {
	case "fs/promises", "fs-extra", "graceful-fs", "fs-extra/esm":
		return "fs"
	case "child_process/promises":
		return "child_process"
	case "bun":
		return "Bun"
	}
	return m
}

// envValue gives the value scripts see for an environment variable: ~ for
// the home directory, "$NAME" for the others.
func envValue(name value) value {
	if !name.known() {
		return value{}
	}
	switch name.s {
	case "HOME", "USERPROFILE":
		return literalValue("~")
	}
	return literalValue("$" + name.s)
}

// pure evaluates calls whose result the scanner can compute: path joins,
// home-directory lookups, identity functions and path constructors.
func (p *parser) pure(key string, self value, args []callArg, depth int) value {
	all := func(sep string) value {
		var parts []string
		known := true
		for _, a := range positional(args) {
			v := p.eval(a.a, a.b, depth+1)
			if !v.str {
				known = false
				parts = append(parts, hole)
				continue
			}
			if strings.HasPrefix(v.s, "/") || strings.HasPrefix(v.s, "~") {
				parts = parts[:0] // an absolute part restarts the path
			}
			parts = append(parts, v.s)
		}
		if len(parts) == 0 || !known && len(parts) == 1 {
			return value{}
		}
		return value{str: true, s: joinPath(parts, sep)}
	}
	first := func() value {
		v, _ := p.arg(args, 0)
		return v
	}
	if v, ok := p.pureDir(key, first); ok {
		return v
	}
	if v, ok := p.pureFunctional(key, self, args, depth, all, first); ok {
		return v
	}
	if v, ok := p.pureScript(key, self, args, depth, all, first); ok {
		return v
	}
	return value{}
}

// pureFunctional is pure for Lua, Julia, Haskell, Elixir, Erlang and
// Groovy; ok is false when key is none of their known calls.
func (p *parser) pureFunctional(key string, self value, args []callArg, depth int, all func(string) value, first func() value) (value, bool) {
	switch p.fam {
	case famLua:
		if key == "os.getenv" {
			return envValue(first()), true
		}
	case famJulia:
		switch key {
		case "homedir":
			return literalValue("~"), true
		case "joinpath":
			return p.joinArgs(args, "/", depth), true
		case "string":
			return p.joinArgs(args, "", depth), true
		}
	case famHaskell:
		switch key {
		case "getHomeDirectory":
			return literalValue("~"), true
		case "getEnv":
			return envValue(first()), true
		case "pure", "return":
			return first(), true
		}
	case famElixir:
		switch key {
		case "System.user_home", "System.user_home!":
			return literalValue("~"), true
		case "System.get_env", "System.fetch_env!":
			return envValue(first()), true
		case "Path.join":
			if len(positional(args)) == 1 {
				if v := first(); v.isList {
					return joinList(v, literalValue("/")), true
				}
			}
			return all("/"), true
		case "Path.expand", "Path.absname", "String.to_charlist", "to_charlist", "to_string", "List.to_string":
			return first(), true
		}
	case famErlang:
		switch key {
		case "os.getenv":
			return envValue(first()), true
		case "filename.join":
			if len(positional(args)) == 1 {
				if v := first(); v.isList {
					return joinList(v, literalValue("/")), true
				}
			}
			return all("/"), true
		case "filename.absname", "lists.flatten":
			return first(), true
		}
	case famGroovy:
		switch key {
		case "File":
			v := all("/")
			v.ctor = "File()"
			return v, true
		case "Paths.get", "Path.of":
			return all("/"), true
		case "System.getProperty":
			switch v := first(); {
			case v.known() && v.s == "user.home":
				return literalValue("~"), true
			case v.known() && v.s == "user.dir":
				return literalValue("."), true
			}
		case "System.getenv", "sys.env":
			return envValue(first()), true
		case "sys.props":
			return p.pure("System.getProperty", self, args, depth), true
		case "Seq", "List", "Array", "Vector":
			v := value{isList: true}
			for _, a := range positional(args) {
				v.list = append(v.list, p.eval(a.a, a.b, depth+1))
			}
			return v, true
		case "Process":
			return first(), true
		case "Directory":
			v := first()
			v.ctor = "Directory()"
			return v, true
		}
	}
	return value{}, false
}

// pureScript is pure for R, JavaScript, Python, Ruby, Perl and PHP; ok
// is false when key is none of their known calls.
func (p *parser) pureScript(key string, self value, args []callArg, depth int, all func(string) value, first func() value) (value, bool) {
	switch p.fam {
	case famR:
		switch key {
		case "paste0", "file.path":
			sep := ""
			if key == "file.path" {
				sep = "/"
			}
			return p.joinArgs(args, sep, depth), true
		case "paste":
			return p.joinArgs(args, " ", depth), true
		case "c", "list":
			v := value{isList: true}
			for _, a := range positional(args) {
				v.list = append(v.list, p.eval(a.a, a.b, depth+1))
			}
			return v, true
		case "Sys.getenv":
			return envValue(first()), true
		case "path.expand", "normalizePath", "Sys.glob":
			return first(), true
		}
	case famJS:
		switch key {
		case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve":
			return all("/"), true
		case "path.win32.join", "path.win32.resolve":
			return all(`\`), true
		case "path.normalize", "String", "path.posix.normalize":
			return first(), true
		case "os.homedir":
			return literalValue("~"), true
		case "Deno.env.get":
			return envValue(first()), true
		case "Bun.file":
			v := first()
			v.ctor = "Bun.file()"
			return v, true
		}
	case famPython:
		switch key {
		case "os.path.join":
			return all("/"), true
		case "os.path.expanduser", "os.path.abspath", "os.path.realpath", "os.path.normpath", "os.path.expandvars",
			"os.fspath", "str", "glob.glob", "glob.iglob", "os.path.normcase":
			return first(), true
		case "Path":
			v := all("/")
			if len(args) == 0 {
				v = literalValue(".")
			}
			v.ctor = "Path()"
			return v, true
		case "Path.home", "Path.cwd":
			if key == "Path.cwd" {
				return value{ctor: "Path()"}, true
			}
			return value{str: true, s: "~", ctor: "Path()"}, true
		case "Path().expanduser", "Path().resolve", "Path().absolute":
			return self, true
		case "Path().joinpath":
			v := all("/")
			if self.str && v.str {
				return value{str: true, s: joinPath([]string{self.s, v.s}, "/"), ctor: "Path()"}, true
			}
			return value{ctor: "Path()"}, true
		case "os.getenv", "os.environ.get":
			return envValue(first()), true
		case "importlib.import_module", "__import__":
			if v := first(); v.known() {
				return value{mod: v.s}, true
			}
		}
	case famRuby:
		switch key {
		case "File.join":
			return all("/"), true
		case "File.expand_path", "File.absolute_path", "File.realpath", "Dir.glob", "String":
			return first(), true
		case "Dir.home", "Path.home": // Path.home: Crystal
			return literalValue("~"), true
		case "ENV.fetch":
			return envValue(first()), true
		case "Pathname":
			v := first()
			v.ctor = "Pathname()"
			return v, true
		}
	case famPerl:
		switch key {
		case "glob":
			return first(), true
		case "File.Spec.catfile", "File.Spec.catdir":
			return all("/"), true
		case "File.HomeDir.my_home":
			return literalValue("~"), true
		case "path":
			v := first()
			v.ctor = "path()"
			return v, true
		}
	case famPHP:
		switch key {
		case "getenv":
			return envValue(first()), true
		case "realpath", "glob":
			return first(), true
		}
	}
	return value{}, false
}

func joinPath(parts []string, sep string) string {
	out := parts[0]
	for _, part := range parts[1:] {
		if !strings.HasSuffix(out, "/") && !strings.HasSuffix(out, `\`) {
			out += sep
		}
		out += strings.TrimLeft(part, `/\`)
	}
	return out
}

// pureIndex evaluates environment lookups by subscript (os.environ['HOME'],
// ENV['HOME'], $ENV{HOME}, $_SERVER['HOME'], process.env['HOME'], Dir['/x']).
func (p *parser) pureIndex(key string, idx []callArg, depth int) value {
	if len(idx) != 1 {
		return value{}
	}
	a := idx[0]
	v := p.eval(a.a, a.b, depth+1)
	if key == "$ENV" && a.b-a.a == 1 && p.toks[a.a].kind == tkIdent {
		v = literalValue(p.toks[a.a].text) // $ENV{HOME}: a bare word key
	}
	switch key {
	case "os.environ", "ENV", "$ENV", "$_SERVER", "$_ENV", "process.env", "Bun.env":
		return envValue(v)
	case "Dir":
		return v
	}
	return value{}
}

// member evaluates property reads such as process.env.HOME.
func (p *parser) member(key string) value {
	for _, prefix := range []string{"process.env.", "Bun.env.", "Deno.env."} {
		if strings.HasPrefix(key, prefix) {
			return envValue(literalValue(key[len(prefix):]))
		}
	}
	if p.fam == famPython && key == "Path().parent" {
		return value{ctor: "Path()"}
	}
	if p.fam == famGroovy {
		switch key {
		case "os.home": // Scala's os-lib
			return literalValue("~")
		case "os.pwd":
			return literalValue(".")
		}
	}
	return value{}
}

// cwdCalls are the calls that return the working directory, by family.
var cwdCalls = map[byte]map[string]bool{
	famPython:  {"os.getcwd": true, "os.getcwdb": true, "Path.cwd": true},
	famJS:      {"process.cwd": true, "Deno.cwd": true},
	famRuby:    {"Dir.pwd": true, "Dir.getwd": true, "FileUtils.pwd": true, "Dir.current": true}, // Dir.current: Crystal
	famPerl:    {"getcwd": true, "cwd": true, "Cwd.getcwd": true, "Cwd.cwd": true, "Cwd.abs_path": true},
	famPHP:     {"getcwd": true},
	famR:       {"getwd": true},
	famLua:     {"lfs.currentdir": true},
	famJulia:   {"pwd": true},
	famElixir:  {"File.cwd!": true},
	famHaskell: {"getCurrentDirectory": true},
}

// dirnameCalls are the calls that return a path's directory.
var dirnameCalls = map[byte]map[string]bool{
	famPython:  {"os.path.dirname": true},
	famJS:      {"path.dirname": true, "path.posix.dirname": true},
	famRuby:    {"File.dirname": true},
	famPerl:    {"dirname": true, "File.Basename.dirname": true},
	famPHP:     {"dirname": true},
	famR:       {"dirname": true},
	famJulia:   {"dirname": true},
	famElixir:  {"Path.dirname": true},
	famErlang:  {"filename.dirname": true},
	famHaskell: {"takeDirectory": true},
}

// pureDir evaluates the working directory (".", resolved by the layers
// against the command's directory) and the directory of a path ("..");
// Path.cwd().parent, the parent of a pathlib path, too.
func (p *parser) pureDir(key string, first func() value) (value, bool) {
	switch {
	case cwdCalls[p.fam][key]:
		v := literalValue(".")
		if key == "Path.cwd" {
			v.ctor = "Path()"
		}
		return v, true
	case dirnameCalls[p.fam][key]:
		return parentPath(first()), true
	}
	return value{}, false
}

// parentPath is the directory of a known path: "." gives "..", "~" gives
// "~/..", "a/b" gives "a"; unknown stays unknown.
func parentPath(v value) value {
	if !v.known() {
		return value{}
	}
	s := strings.TrimRight(v.s, "/")
	switch {
	case s == "" && strings.HasPrefix(v.s, "/"):
		return literalValue("/")
	case s == "." || s == "" || s == ".." || strings.HasSuffix(s, "/..") || strings.HasPrefix(s, "~") && !strings.Contains(s, "/"):
		return value{str: true, s: s + "/..", ctor: v.ctor}
	}
	i := strings.LastIndexByte(s, '/')
	switch {
	case i < 0:
		return value{str: true, s: ".", ctor: v.ctor}
	case i == 0:
		return value{str: true, s: "/", ctor: v.ctor}
	}
	return value{str: true, s: s[:i], ctor: v.ctor}
}

// joinArgs joins the values of the positional arguments with sep (R's
// paste and file.path); an unknown one is a hole.
func (p *parser) joinArgs(args []callArg, sep string, depth int) value {
	var parts []string
	for _, a := range positional(args) {
		v := p.eval(a.a, a.b, depth+1)
		if !v.str {
			parts = append(parts, hole)
			continue
		}
		parts = append(parts, v.s)
	}
	if len(parts) == 0 {
		return value{}
	}
	return value{str: true, s: strings.Join(parts, sep)}
}

// chainValue evaluates an access chain used as a value.
func (p *parser) chainValue(links []link, depth int) value {
	if len(links) == 1 && !links[0].call && !links[0].index {
		return p.evalIdent(links[0].name)
	}
	_, v := p.fold(links, len(links), depth)
	return v
}
