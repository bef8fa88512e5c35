package oneliner

import (
	"strings"
	"sync"
)

// ---- calls

// scan visits every call in a JS, Python, Perl, Ruby or PHP script.
func (p *parser) scan() {
	for i := 0; i < len(p.toks) && !p.done(); i++ {
		*p.work--
		t := p.toks[i]
		switch t.kind {
		case tkExec:
			p.exec(p.strValue(t, 0), "backticks")
		case tkString:
			if p.fam == famGroovy {
				p.receiverCall(i+1, p.strValue(t, 0))
			}
		case tkIdent:
			if p.memberOp(i - 1) {
				continue
			}
			p.chainAt(i)
		case tkPunct:
			if t.text == ")" && p.match[i] >= 0 && p.grouping(p.match[i]) && p.memberOp(i+1) && i+3 < len(p.toks) &&
				p.toks[i+2].kind == tkIdent && p.is(i+3, "(") {
				p.groupCall(p.match[i], i)
			}
			if t.text == ")" && p.match[i] >= 0 && p.grouping(p.match[i]) && p.is(i+1, "(") {
				p.stringCall(p.match[i], i)
			}
			if t.text == "]" && p.fam == famGroovy && p.match[i] >= 0 && p.match[i] < i {
				p.receiverCall(i+1, p.eval(p.match[i], i+1, 0))
			}
		}
	}
}

// chainAt judges the calls of the access chain starting at i.
func (p *parser) chainAt(i int) {
	n := len(p.toks)
	links, end := p.chain(i, n)
	if p.fam == famElixir && p.is(i-1, "|>") {
		p.pipeInto(i-1, links)
	}
	for k := range links {
		if links[k].call {
			key, self := p.key(links, k, 0)
			p.call(key, self, links[k].args)
		}
	}
	last := len(links) - 1
	if p.fam == famGroovy && !links[last].index && p.memberOp(end) && p.is(end+1, "!") {
		p.call("str.!", p.chainValue(links, 0), nil) // Scala: Seq("ls").!, Process(cmd).!!, cmd.!
	}
	if p.fam == famRuby && last > 0 && !links[last].call && !links[last].index &&
		(end >= n || !p.toks[end].space || !p.argStart(end)) {
		key, self := p.key(links, last, 0)
		if r, _ := p.spec(key, 0); r.kind.self() {
			p.call(key, self, nil) // a method called without arguments: .rmtree
		}
	}
	if links[last].call || links[last].index || end >= n {
		return
	}
	next := p.toks[end]
	if p.fam == famJS && next.kind == tkString && next.tmpl && !next.space {
		key, _ := p.key(links, last, 0)
		switch key {
		case "$", "Bun.$", "zx.$", "execa.$", "$.sync", "execa.$.sync":
			p.exec(p.evalTok(end, 0), key)
		}
		return
	}
	if (p.fam == famPerl || p.fam == famRuby || p.fam == famElixir) && next.space && p.argStart(end) {
		key, self := p.key(links, last, 0)
		if r, _ := p.spec(key, 0); r.kind != roleNone {
			p.call(key, self, p.splitArgs(end, p.stmtEnd(end)))
		}
	}
}

// pipeInto makes the value piped by the Elixir |> at pipe the first
// argument of the first call of links ("/" |> File.rm_rf!(), a call
// without parentheses too). The piped value is the expression between
// the previous boundary (a line, ";", ",", "=", an opening bracket, do,
// ->) and the pipe; an earlier stage of a longer pipeline is not
// evaluated (its value stays unknown).
func (p *parser) pipeInto(pipe int, links []link) {
	start := pipe
	for k := pipe - 1; k >= 0; k-- {
		t := p.toks[k]
		if t.kind == tkPunct && (t.text == ")" || t.text == "]" || t.text == "}") && p.match[k] >= 0 && p.match[k] < k {
			k = p.match[k]
			start = k
			continue
		}
		if t.kind == tkLine || t.kind == tkPunct && (oneOf(t.text, "; , = ( [ { |> ->")) || t.kind == tkIdent && t.text == "do" {
			break
		}
		start = k
	}
	if start >= pipe {
		return
	}
	arg := callArg{a: start, b: pipe}
	if start > 0 && p.is(start-1, "|>") {
		arg = callArg{a: pipe, b: pipe} // an earlier stage: unknown
	}
	for k := range links {
		if links[k].call {
			links[k].args = append([]callArg{arg}, links[k].args...)
			return
		}
	}
	last := &links[len(links)-1]
	if !last.index {
		last.call, last.args = true, []callArg{arg}
	}
}

// oneOf reports whether s is one of the space-separated words of list.
func oneOf(s, list string) bool {
	for _, w := range strings.Fields(list) {
		if s == w {
			return true
		}
	}
	return false
}

// receiverCall judges a method called on a literal receiver (Groovy's
// "cmd".execute(), ["rm", "x"].execute()): dot is the index after the
// receiver, recv its value; the call's key is "str.NAME".
func (p *parser) receiverCall(dot int, recv value) {
	if p.memberOp(dot) && p.is(dot+1, "!") {
		p.call("str.!", recv, nil) // Scala: "cmd".!, "cmd".!!
		return
	}
	if !p.memberOp(dot) || dot+2 >= len(p.toks) || p.toks[dot+1].kind != tkIdent || !p.is(dot+2, "(") {
		return
	}
	p.call(p.canon("str."+p.toks[dot+1].text), recv, p.splitArgs(dot+3, p.match[dot+2]))
}

// grouping reports whether the ( at open groups an expression rather
// than opening a call's arguments.
func (p *parser) grouping(open int) bool {
	if open == 0 {
		return true
	}
	prev := p.toks[open-1]
	switch prev.kind {
	case tkIdent:
		return operatorWord[prev.text] || prev.text == "return" || prev.text == "await"
	case tkPunct:
		return prev.text != ")" && prev.text != "]"
	case tkString, tkNumber, tkWords, tkExec:
		return false
	}
	return true
}

// groupCall judges (expr).method(args): the group [open, close] is the
// receiver.
func (p *parser) groupCall(open, close int) {
	recv := p.eval(open, close+1, 0)
	base := recv.ctor
	if base == "" {
		if !recv.str {
			return
		}
		base = "str"
	}
	m := close + 3
	key := p.canon(base + "." + p.toks[close+2].text)
	p.call(key, recv, p.splitArgs(m+1, p.match[m]))
}

// argStart reports whether token j can start a paren-less argument list.
func (p *parser) argStart(j int) bool {
	t := p.toks[j]
	switch t.kind {
	case tkString, tkExec, tkWords, tkNumber:
		return true
	case tkIdent:
		return !operatorWord[t.text] && t.text != "while" && t.text != "until" && t.text != "foreach" &&
			t.text != "rescue" && t.text != "elsif"
	case tkPunct:
		return t.text == "[" || t.text == "\\" || t.text == "("
	}
	return false
}

// stmtEnd returns the end of a paren-less argument list starting at j.
func (p *parser) stmtEnd(j int) int {
	return p.endAt(j, func(_ int, t token) bool {
		switch t.kind {
		case tkPunct:
			switch t.text {
			case ";", ")", "]", "}", "||", "&&", "//", "or", "and", "|>":
				return true
			case "{":
				return p.fam == famRuby // a block
			}
		case tkIdent:
			switch t.text {
			case "or", "and", "if", "unless", "while", "until", "for", "foreach", "do", "then", "rescue":
				return true
			}
		}
		return false
	})
}

// spec finds the role of a call, trying star imports, the modules of
// unqualified calls and the receiver-independent names; nargs is the number
// of arguments. It returns the role (zero when none) and the name found.
func (p *parser) spec(key string, nargs int) (role, string) {
	table := apis()[p.fam]
	if s, ok := table[key]; ok {
		return s, key
	}
	name := key
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		name = key[i+1:]
	}
	if !strings.Contains(key, ".") {
		for _, m := range append(p.star, bareModules[p.fam]...) {
			if s, ok := table[m+"."+key]; ok {
				return s, m + "." + key
			}
		}
	}
	if s, ok := anyReceiver()[p.fam][name]; ok {
		if s.kind.self() && nargs > 0 && (name == "unlink" || name == "rmdir") {
			return role{}, ""
		}
		return s, key
	}
	return role{}, ""
}

// call applies the role of key to a call's arguments.
func (p *parser) call(key string, self value, args []callArg) {
	name := key
	r, key := p.spec(key, len(args))
	if r.kind == roleNone {
		p.varCall(name, args)
		return
	}
	n := r.arg
	api := key
	pos := positional(args)
	if !p.callFile(name, key, api, r, n, self, args, pos) && !p.callExec(name, key, api, r, n, self, args, pos) {
		p.callShellSelf(name, key, api, r, n, self, args, pos)
	}
}

// callFile applies the file roles (delete, write, move, open); false
// when r is none of them.
func (p *parser) callFile(name, key, api string, r role, n int, self value, args, pos []callArg) bool {
	switch r.kind {
	case roleDelete, roleWrite:
		v, _ := p.arg(args, n, "path", "file", "src", "dst", "name", "filename", "filepath")
		if n == 1 {
			v, _ = p.arg(args, 1, "dst", "dest", "destination", "target")
		}
		p.path(r.kind.pathOp(), v, api)
	case roleDeleteAll, roleWriteAll:
		op := r.kind.pathOp()
		if len(pos) == 0 {
			p.path(op, value{}, api)
		}
		for _, a := range pos {
			if v := p.eval(a.a, a.b, 0); !(v.obj != nil) {
				p.path(op, v, api)
			}
		}
	case roleMove:
		src, _ := p.arg(args, 0, "src", "source", "old", "from")
		dst, _ := p.arg(args, 1, "dst", "dest", "destination", "new", "to", "target")
		p.read(src, api, true)
		p.path("delete", src, api)
		p.path("write", dst, api)
	case roleCopy:
		src, _ := p.arg(args, 0, "src", "source", "from", "path", "file", "target")
		dst, _ := p.arg(args, 1, "dst", "dest", "destination", "to", "link", "link_name", "newpath")
		p.read(src, api, true)
		p.path("write", dst, api)
	case roleRead:
		v, _ := p.arg(args, n, "path", "file", "filename", "filepath", "con", "description")
		p.read(v, api, false)
	case roleOpen, roleOSOpen, roleDenoOpen, roleSelfOpen, roleRubyOpen:
		p.open(r, self, args, api)
	default:
		return false
	}
	return true
}

// callExec applies the roles that run a program or code; false when r
// is none of them.
func (p *parser) callExec(name, key, api string, r role, n int, self value, args, pos []callArg) bool {
	switch r.kind {
	case roleExec:
		v, _ := p.arg(args, n, "args", "command", "cmd")
		p.exec(v, api)
	case roleExecProg:
		prog, _ := p.arg(args, 0, "file", "command", "cmd")
		rest, _ := p.arg(args, 1, "args")
		if rest.isList {
			p.exec(value{isList: true, list: append([]value{prog}, rest.list...)}, api)
		} else {
			p.exec(prog, api)
		}
	case roleExecShell:
		// R's system2: the command is quoted, the arguments go to the
		// shell as written (system2("rm", c("-rf", "~")) runs rm -rf ~).
		prog, _ := p.arg(args, 0, "command")
		rest, _ := p.arg(args, 1, "args")
		cmd := joinArgv([]value{prog})
		switch {
		case rest.isList:
			for _, a := range rest.list {
				if !a.str {
					cmd += " " + hole
					continue
				}
				cmd += " " + a.s
			}
		case rest.str:
			cmd += " " + rest.s
		}
		p.exec(literalValue(cmd), api)
	case roleExecAll:
		var list []value
		for _, a := range pos {
			v := p.eval(a.a, a.b, 0)
			if v.obj != nil {
				continue // an environment hash or options
			}
			if v.isList && len(pos) == 1 {
				list = v.list
				break
			}
			list = append(list, v)
		}
		if len(list) == 1 && !list[0].isList {
			p.exec(list[0], api)
		} else {
			p.exec(value{isList: true, list: list}, api)
		}
	case roleExecVar:
		var list []value
		for _, a := range pos[min(n, len(pos)):] {
			list = append(list, p.eval(a.a, a.b, 0))
		}
		p.exec(value{isList: true, list: list}, api)
	case roleExecList:
		v, _ := p.arg(args, n)
		p.exec(v, api)
	case roleObjCmd:
		v, _ := p.arg(args, 0)
		if v.obj != nil {
			v = v.obj["cmd"]
		}
		p.exec(v, api)
	case roleDenoCmd:
		prog, _ := p.arg(args, 0)
		opts, _ := p.arg(args, 1)
		list := []value{prog}
		if a := opts.obj["args"]; a.isList {
			list = append(list, a.list...)
		}
		p.exec(value{isList: true, list: list}, api)
	case rolePowerOff:
		p.exec(literalValue("shutdown -h now"), api) // JXA System Events: the same power-off as shutdown
	case roleReboot:
		p.exec(literalValue("shutdown -r now"), api)
	case roleCallback, roleCallbackArr, roleMapCallback, roleWalkCallback:
		p.callback(r, args)
	case roleCode:
		v, ok := p.arg(args, 0)
		if ok && v.known() && p.depth < maxNest {
			for _, e := range scanEffects(p.lang, v.s, p.depth+1, p.work) {
				p.emit(e)
			}
		}
		if ok && !v.known() && p.decodes() {
			// eval(atob(...)), exec(base64.b64decode(...)): decoded code.
			p.emit(Effect{Op: "exec", API: api, Decoded: true})
		}
	default:
		return false
	}
	return true
}

// callShellSelf applies the shell-like file calls, the calls on a
// value (self) and the open forms of Perl and Ruby; false when r is
// none of them.
func (p *parser) callShellSelf(name, key, api string, r role, n int, self value, args, pos []callArg) bool {
	switch r.kind {
	case roleShellRm, roleShellWrite, roleShellMv, roleShellCp:
		var ops []value
		for _, a := range pos {
			v := p.eval(a.a, a.b, 0)
			if v.known() && strings.HasPrefix(v.s, "-") {
				continue
			}
			ops = append(ops, v)
		}
		switch r.kind {
		case roleShellRm:
			for _, v := range ops {
				p.path("delete", v, api)
			}
		case roleShellWrite:
			for _, v := range ops {
				p.path("write", v, api)
			}
		default:
			if len(ops) > 0 {
				for _, v := range ops[:len(ops)-1] {
					p.read(v, api, true)
					if r.kind == roleShellMv {
						p.path("delete", v, api)
					}
				}
				p.path("write", ops[len(ops)-1], api)
			}
		}
	case roleSelfDelete, roleSelfWrite:
		p.path(r.kind.pathOp(), self, api)
	case roleSelfRead:
		p.read(self, api, false)
	case roleSelfMove:
		dst, _ := p.arg(args, 0, "target")
		p.read(self, api, true)
		p.path("delete", self, api)
		p.path("write", dst, api)
	case roleExecWords:
		v, _ := p.arg(args, n, "command", "cmd")
		p.execWords(v, api)
	case roleSelfExecWords:
		p.execWords(self, api)
	case rolePerlOpen:
		p.perlOpen(pos, api)
	default:
		return false
	}
	return true
}

// open applies the roles that open a file (open, os.open, Deno.open,
// Path().open, Ruby's Kernel#open): a write when the mode or flags write,
// else a read; a "|cmd" of Ruby's open runs cmd.
func (p *parser) open(r role, self value, args []callArg, api string) {
	n := r.arg
	pos := positional(args)
	switch r.kind {
	case roleOpen:
		mode, present := p.arg(args, n, "mode", "flags")
		v, _ := p.arg(args, 0, "file", "path", "filename")
		if !present || mode.known() && !p.writeMode(mode.s) || !mode.known() && p.readFlags(args, n) {
			p.read(v, api, false)
			return
		}
		if mode.known() && p.readMode(mode.s) {
			p.read(v, api, false) // r+, a+
		}
		p.path("write", v, api)
	case roleOSOpen:
		if len(pos) > n+1 && p.writeFlags(pos[n+1]) {
			p.path("write", p.eval(pos[n].a, pos[n].b, 0), api)
		} else if len(pos) > n {
			p.read(p.eval(pos[n].a, pos[n].b, 0), api, false)
		}
	case roleDenoOpen:
		opts, present := p.arg(args, 1)
		v, _ := p.arg(args, 0)
		if opts.obj != nil {
			w := false
			for _, k := range []string{"write", "append", "create", "truncate", "createNew"} {
				w = w || opts.obj[k].s == "true"
			}
			present = w
		}
		if !present {
			p.read(v, api, false)
			return
		}
		p.path("write", v, api)
	case roleSelfOpen:
		mode, present := p.arg(args, 0, "mode")
		if present && !(mode.known() && !p.writeMode(mode.s)) {
			p.path("write", self, api)
		} else {
			p.read(self, api, false)
		}
	case roleRubyOpen:
		v, _ := p.arg(args, 0)
		if v.str && strings.HasPrefix(v.s, "|") {
			p.exec(value{str: true, s: v.s[1:]}, api)
			return
		}
		mode, present := p.arg(args, 1, "mode")
		if present && !(mode.known() && !p.writeMode(mode.s)) {
			p.path("write", v, api)
		} else {
			p.read(v, api, false)
		}
	}
}

// execWords records a command run without a shell: a list is the argv, a
// string is split at blanks into one (Java's Runtime.exec(String) and
// Groovy's String.execute() tokenise so; quotes are not special).
func (p *parser) execWords(v value, api string) {
	if !v.str || v.isList {
		p.exec(v, api)
		return
	}
	var list []value
	for _, f := range strings.Fields(v.s) {
		list = append(list, literalValue(f))
	}
	if len(list) == 0 {
		p.exec(value{}, api)
		return
	}
	p.exec(value{isList: true, list: list}, api)
}

// writeMode reports whether an open mode string writes.
func (p *parser) writeMode(m string) bool {
	if strings.ContainsAny(m, "wax+") {
		return true
	}
	return p.fam == famPHP && strings.Contains(m, "c")
}

// readMode reports whether an open mode string that writes also reads
// (r+, a+, w+ ... and Julia's "r").
func (p *parser) readMode(m string) bool {
	return strings.ContainsAny(m, "r+")
}

// readFlags reports a non-literal open mode made only of read flags
// (O_RDONLY, File::RDONLY, fs.constants.O_RDONLY).
func (p *parser) readFlags(args []callArg, n int) bool {
	pos := positional(args)
	if n >= len(pos) {
		return false
	}
	a := pos[n]
	ro := false
	for k := a.a; k < a.b; k++ {
		if t := p.toks[k]; t.kind == tkIdent {
			switch t.text {
			case "O_RDONLY", "RDONLY":
				ro = true
			case "O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND", "WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND":
				return false
			}
		}
	}
	return ro
}

// writeFlags reports open(2)-style flags that write.
func (p *parser) writeFlags(a callArg) bool {
	for k := a.a; k < a.b; k++ {
		if t := p.toks[k]; t.kind == tkIdent {
			switch strings.TrimPrefix(t.text, "O_") {
			case "WRONLY", "RDWR", "CREAT", "TRUNC", "APPEND":
				return true
			}
		}
	}
	v := p.eval(a.a, a.b, 0)
	return !v.known() && a.b-a.a == 1 && p.toks[a.a].kind != tkIdent
}

// perlOpen judges open(FH, MODE, PATH...) and open(FH, EXPR).
func (p *parser) perlOpen(pos []callArg, api string) {
	switch {
	case len(pos) >= 3:
		mode := p.eval(pos[1].a, pos[1].b, 0)
		m := strings.TrimSpace(mode.s)
		switch {
		case !mode.known():
			p.path("write", p.eval(pos[2].a, pos[2].b, 0), api)
		case strings.HasPrefix(m, "|-") || strings.HasPrefix(m, "-|"):
			if len(pos) == 3 {
				p.exec(p.eval(pos[2].a, pos[2].b, 0), api)
				return
			}
			var list []value
			for _, a := range pos[2:] {
				list = append(list, p.eval(a.a, a.b, 0))
			}
			p.exec(value{isList: true, list: list}, api)
		case strings.HasPrefix(m, ">") || strings.HasPrefix(m, "+<") || strings.HasPrefix(m, "+>"):
			p.path("write", p.eval(pos[2].a, pos[2].b, 0), api)
		case strings.HasPrefix(m, "<"):
			p.read(p.eval(pos[2].a, pos[2].b, 0), api, false)
		}
	case len(pos) == 2:
		e := p.eval(pos[1].a, pos[1].b, 0)
		if !e.str {
			return
		}
		t := strings.TrimLeft(e.s, " \t")
		switch {
		case strings.HasPrefix(t, "|"):
			p.exec(literalValue(strings.TrimSpace(t[1:])), api)
		case strings.HasPrefix(t, ">") || strings.HasPrefix(t, "+<") || strings.HasPrefix(t, "+>"):
			target := strings.TrimLeft(t, "+<> \t")
			p.path("write", value{str: true, s: target}, api)
		case strings.HasSuffix(strings.TrimRight(t, " \t"), "|"):
			p.exec(literalValue(strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(t, " \t"), "|"))), api)
		default: // "<file" or a bare name: read
			p.read(value{str: true, s: strings.TrimSpace(strings.TrimLeft(t, "<"))}, api, false)
		}
	}
}

// apiTables gives, per language family, the role of each library call
// (roles.go says what each role kind does).
var apiTables = map[byte]apiTable{
	famJS: apiTable{
		{at(roleDelete, 0), "fs.rm fs.rmSync fs.rmdir fs.rmdirSync fs.unlink fs.unlinkSync fs.remove fs.removeSync " +
			"fs.emptyDir fs.emptyDirSync fs.emptydir fs.emptydirSync fs.lchmod Deno.remove Deno.removeSync " +
			"$.NSFileManager.defaultManager.removeItemAtPathError"},
		{at(roleWrite, 0), "fs.writeFile fs.writeFileSync fs.appendFile fs.appendFileSync fs.truncate fs.truncateSync " +
			"fs.mkdir fs.mkdirSync fs.createWriteStream fs.outputFile fs.outputFileSync fs.writeJson fs.writeJsonSync " +
			"fs.writeJSON fs.writeJSONSync fs.outputJson fs.outputJsonSync fs.outputJSON fs.ensureDir fs.ensureDirSync " +
			"fs.mkdirp fs.mkdirpSync fs.mkdirs fs.mkdirsSync fs.ensureFile fs.ensureFileSync fs.mkdtemp fs.mkdtempSync " +
			"fs.utimes fs.utimesSync fs.chmod fs.chmodSync fs.chown fs.chownSync " +
			"Deno.writeTextFile Deno.writeTextFileSync Deno.writeFile Deno.writeFileSync Deno.truncate Deno.truncateSync " +
			"Deno.mkdir Deno.mkdirSync Deno.create Deno.createSync Deno.chmod Deno.chmodSync Bun.write"},
		{only(roleCopy), "fs.copyFile fs.copyFileSync fs.cp fs.cpSync fs.copy fs.copySync fs.symlink fs.symlinkSync " +
			"fs.link fs.linkSync fs.ensureSymlink fs.ensureLink Deno.copyFile Deno.copyFileSync Deno.symlink " +
			"Deno.symlinkSync Deno.link Deno.linkSync"},
		{only(roleMove), "fs.rename fs.renameSync fs.move fs.moveSync Deno.rename Deno.renameSync"},
		{at(roleRead, 0), "fs.readFile fs.readFileSync fs.createReadStream fs.readJson fs.readJsonSync fs.readJSON " +
			"fs.readJSONSync Deno.readTextFile Deno.readTextFileSync Deno.readFile Deno.readFileSync shelljs.cat"},
		{only(roleSelfRead), "Bun.file().text Bun.file().json Bun.file().arrayBuffer Bun.file().bytes Bun.file().stream"},
		{at(roleOpen, 1), "fs.open fs.openSync"},
		{only(roleDenoOpen), "Deno.open Deno.openSync"},
		{at(roleExec, 0), "child_process.exec child_process.execSync execa.execaCommand execa.execaCommandSync " +
			"shelljs.exec Application().doShellScript"},
		{only(roleExecProg), "child_process.execFile child_process.execFileSync child_process.spawn child_process.spawnSync " +
			"execa.execa execa.execaSync execa execaSync"},
		{only(roleObjCmd), "Bun.spawn Bun.spawnSync Deno.run"},
		{only(roleDenoCmd), "Deno.Command"},
		{only(roleShellRm), "shelljs.rm"},
		{only(roleShellMv), "shelljs.mv"},
		{only(roleShellCp), "shelljs.cp"},
		{only(roleShellWrite), "shelljs.mkdir shelljs.touch"},
		{only(roleSelfDelete), "Bun.file().delete Bun.file().unlink"},
		{only(roleSelfWrite), "Bun.file().write"},
		{only(roleCode), "eval vm.runInThisContext vm.runInNewContext vm.runInContext"},
		{only(rolePowerOff), "Application().shutDown"},
		{only(roleReboot), "Application().restart"},
	},
	famPython: apiTable{
		{at(roleDelete, 0), "shutil.rmtree os.remove os.unlink os.rmdir os.removedirs"},
		{at(roleWrite, 0), "os.truncate os.mkdir os.makedirs os.mkfifo os.mknod os.chmod os.chown os.utime"},
		{only(roleCopy), "shutil.copy shutil.copy2 shutil.copyfile shutil.copytree os.symlink os.link"},
		{at(roleWrite, 1), "shutil.copymode shutil.copystat"},
		{at(roleRead, 0), "linecache.getline linecache.getlines"},
		{only(roleSelfRead), "Path().read_text Path().read_bytes"},
		{only(roleMove), "shutil.move os.rename os.renames os.replace"},
		{at(roleOpen, 1), "open io.open codecs.open"},
		{at(roleOSOpen, 0), "os.open"},
		{at(roleExec, 0), "os.system os.popen subprocess.run subprocess.call subprocess.check_call subprocess.check_output " +
			"subprocess.Popen subprocess.getoutput subprocess.getstatusoutput commands.getoutput " +
			"commands.getstatusoutput pty.spawn asyncio.create_subprocess_shell"},
		{only(roleExecAll), "asyncio.create_subprocess_exec"},
		{at(roleExecList, 1), "os.execv os.execve os.execvp os.execvpe"},
		{at(roleExecVar, 1), "os.execl os.execle os.execlp os.execlpe"},
		{at(roleExecList, 2), "os.spawnv os.spawnve os.spawnvp os.spawnvpe"},
		{at(roleExecVar, 2), "os.spawnl os.spawnle os.spawnlp os.spawnlpe"},
		{only(roleSelfDelete), "Path().unlink Path().rmdir"},
		{only(roleSelfWrite), "Path().write_text Path().write_bytes Path().touch Path().mkdir Path().symlink_to Path().hardlink_to " +
			"Path().chmod"},
		{only(roleSelfMove), "Path().rename Path().replace"},
		{only(roleSelfOpen), "Path().open"},
		{only(roleCode), "exec eval"},
	},
	famPerl: apiTable{
		{only(roleDeleteAll), "unlink rmtree remove_tree File.Path.rmtree File.Path.remove_tree"},
		{at(roleDelete, 0), "rmdir path().remove path().remove_tree"},
		{only(roleWriteAll), "mkpath make_path File.Path.mkpath File.Path.make_path chmod chown utime"},
		{at(roleWrite, 0), "mkdir truncate write_file File.Slurp.write_file"},
		{only(roleSelfWrite), "path().spew path().spew_utf8 path().spew_raw path().append path().append_utf8 path().touch path().mkpath"},
		{only(roleCopy), "copy cp File.Copy.copy File.Copy.cp symlink link"},
		{at(roleRead, 0), "read_file File.Slurp.read_file"},
		{only(roleSelfRead), "path().slurp path().slurp_utf8 path().slurp_raw path().lines path().lines_utf8 path().lines_raw"},
		{only(roleMove), "rename move mv File.Copy.move File.Copy.mv"},
		{only(rolePerlOpen), "open"},
		{at(roleOSOpen, 1), "sysopen"},
		{only(roleExecAll), "system exec"},
		{at(roleExec, 0), "readpipe"},
		{only(roleCode), "eval"},
	},
	famRuby: apiTable{
		{only(roleDeleteAll), "File.delete File.unlink FileUtils.rm FileUtils.rm_r FileUtils.rm_rf FileUtils.rm_f " +
			"FileUtils.remove FileUtils.remove_dir FileUtils.remove_entry FileUtils.remove_entry_secure " +
			"FileUtils.remove_file FileUtils.rmtree FileUtils.rmdir FileUtils.safe_unlink Dir.rmdir Dir.delete Dir.unlink"},
		{at(roleWrite, 0), "File.write File.binwrite IO.write IO.binwrite File.truncate Dir.mkdir File.chmod File.chown"},
		{only(roleWriteAll), "FileUtils.touch FileUtils.mkdir FileUtils.mkdir_p FileUtils.makedirs FileUtils.mkpath " +
			"FileUtils.chmod FileUtils.chmod_R FileUtils.chown FileUtils.chown_R"},
		{only(roleCopy), "FileUtils.cp FileUtils.copy FileUtils.cp_r FileUtils.copy_entry FileUtils.copy_file FileUtils.cp_lr " +
			"FileUtils.install FileUtils.ln FileUtils.ln_s FileUtils.ln_sf FileUtils.symlink FileUtils.link " +
			"File.symlink File.link"},
		{only(roleMove), "File.rename FileUtils.mv FileUtils.move"},
		{at(roleRead, 0), "File.read File.readlines File.binread File.foreach IO.read IO.readlines IO.binread IO.foreach"},
		{only(roleSelfRead), "Pathname().read Pathname().binread Pathname().readlines Pathname().each_line"},
		{at(roleOpen, 1), "File.open File.new IO.sysopen"},
		{only(roleRubyOpen), "open"},
		{only(roleExecAll), "system exec spawn Process.spawn Process.exec IO.popen Open3.capture2 Open3.capture2e " +
			"Open3.capture3 Open3.popen2 Open3.popen2e Open3.popen3 Open3.pipeline"},
		{only(roleExecProg), "Process.run Process.new"}, // Crystal: a program, then its argument array
		{only(roleSelfDelete), "Pathname().delete Pathname().unlink Pathname().rmtree Pathname().rmdir"},
		{only(roleSelfWrite), "Pathname().write Pathname().binwrite Pathname().mkpath Pathname().mkdir"},
		{only(roleSelfMove), "Pathname().rename"},
		{only(roleCode), "eval instance_eval class_eval"},
	},
	famPHP: apiTable{
		{at(roleDelete, 0), "unlink rmdir"},
		{at(roleWrite, 0), "file_put_contents mkdir touch chmod chown"},
		{only(roleCopy), "copy symlink link"},
		{only(roleMove), "rename"},
		{at(roleOpen, 1), "fopen"},
		{at(roleRead, 0), "file_get_contents file readfile highlight_file show_source parse_ini_file"},
		{at(roleExec, 0), "system exec shell_exec passthru popen proc_open"},
		{only(roleExecProg), "pcntl_exec"},
		{only(roleCode), "eval assert create_function"},
		{at(roleCallback, 0), "call_user_func forward_static_call"},
		{at(roleCallbackArr, 0), "call_user_func_array forward_static_call_array"},
		{at(roleMapCallback, 0), "array_map"},
		{at(roleWalkCallback, 1), "array_walk array_walk_recursive array_filter"},
	},
	famLua: apiTable{
		{at(roleDelete, 0), "os.remove"},
		{only(roleMove), "os.rename"},
		{at(roleOpen, 1), "io.open"},
		{at(roleRead, 0), "io.lines"},
		{at(roleExec, 0), "os.execute io.popen"},
		{only(roleCode), "load loadstring"},
	},
	famJulia: apiTable{
		{at(roleDelete, 0), "rm Base.rm Filesystem.rm Base.Filesystem.rm"},
		{at(roleWrite, 0), "mkdir mkpath touch chmod chown Base.mkdir Base.mkpath"},
		{only(roleCopy), "cp cptree symlink hardlink Base.cp"},
		{at(roleRead, 0), "read readlines readline eachline Base.read"},
		{only(roleMove), "mv Base.mv"},
		{at(roleOpen, 1), "open"},
		{only(roleCode), "include_string"},
	},
	famElixir: apiTable{
		{at(roleDelete, 0), "File.rm File.rm! File.rmdir File.rmdir! File.rm_rf File.rm_rf! " +
			":file.delete :file.del_dir :file.del_dir_r"},
		{at(roleWrite, 0), "File.write File.write! File.mkdir File.mkdir! File.mkdir_p File.mkdir_p! File.touch File.touch! " +
			"File.chmod File.chmod! File.chown File.chown! :file.write_file"},
		{only(roleCopy), "File.cp File.cp! File.cp_r File.cp_r! File.copy File.copy! File.ln File.ln! File.ln_s File.ln_s!"},
		{at(roleRead, 0), "File.read File.read! File.stream! :file.read_file"},
		{only(roleMove), "File.rename File.rename!"},
		{at(roleExec, 0), "System.shell :os.cmd"},
		{only(roleExecProg), "System.cmd"},
		{only(roleCode), "Code.eval_string"},
	},
	famErlang: apiTable{
		{at(roleDelete, 0), "file.delete file.del_dir file.del_dir_r"},
		{at(roleWrite, 0), "file.write_file file.make_dir file.change_mode"},
		{only(roleCopy), "file.copy file.make_symlink file.make_link"},
		{at(roleRead, 0), "file.read_file file.consult"},
		{only(roleMove), "file.rename"},
		{at(roleExec, 0), "os.cmd"},
	},
	famGroovy: apiTable{
		{only(roleSelfExecWords), "str.execute str.!"}, // str.!: Scala's sys.process ("cmd".!, Seq(...).!!)
		{at(roleExecWords, 0), "Runtime.getRuntime().exec"},
		{only(roleExecAll), "ProcessBuilder"},
		{only(roleSelfDelete), "File().deleteDir File().delete"},
		{only(roleSelfWrite), "File().write File().append File().mkdirs File().mkdir File().createNewFile File().setText " +
			"File().setBytes File().setWritable File().setExecutable"},
		{only(roleSelfMove), "File().renameTo"},
		{at(roleDelete, 0), "Files.delete Files.deleteIfExists FileUtils.deleteDirectory FileUtils.forceDelete " +
			"FileUtils.cleanDirectory FileUtils.deleteQuietly"},
		{at(roleWrite, 0), "Files.write Files.writeString"},
		{only(roleCopy), "Files.copy"},
		{at(roleRead, 0), "Files.readAllBytes Files.readString Files.readAllLines Files.lines Files.newBufferedReader " +
			"Files.newInputStream os.read os.read.lines os.read.bytes Source.fromFile scala.io.Source.fromFile io.Source.fromFile"},
		{only(roleSelfRead), "File().getText File().readLines File().getBytes File().readBytes File().eachLine File().newReader " +
			"File().withReader"},
		{only(roleMove), "Files.move"},
		{only(roleCode), "Eval.me GroovyShell().evaluate"},
		// Scala: os-lib, scala.reflect.io.Directory.
		{at(roleDelete, 0), "os.remove.all os.remove"},
		{only(roleExecAll), "os.proc"},
		{only(roleSelfDelete), "Directory().deleteRecursively"},
	},
	famHaskell: apiTable{
		// Keys are the unqualified names (System.Process.callCommand,
		// P.callCommand and callCommand are one call).
		{at(roleExec, 0), "callCommand system spawnCommand shell runCommand"},
		{only(roleExecProg), "callProcess rawSystem readProcess readProcessWithExitCode spawnProcess proc runProcess"},
		{at(roleDelete, 0), "removeDirectoryRecursive removePathForcibly removeDirectory removeFile"},
		{only(roleMove), "renameDirectory renameFile renamePath"},
		{at(roleWrite, 0), "writeFile appendFile"},
		{only(roleCopy), "copyFile copyFileWithMetadata createFileLink"},
		{at(roleRead, 0), "readFile"},
	},
	famR: apiTable{
		{only(roleDeleteAll), "unlink file.remove"},
		{at(roleWrite, 0), "dir.create file.create Sys.chmod Sys.setFileTime"},
		{only(roleCopy), "file.copy file.symlink file.link"},
		{at(roleWrite, 1), "writeLines saveRDS"},
		{at(roleRead, 0), "readLines readRDS read.csv read.table read.delim readChar readBin scan"},
		{only(roleMove), "file.rename"},
		{at(roleExec, 0), "system shell"},
		{only(roleExecShell), "system2"},
		{only(roleExecProg), "processx.run"},
		{only(roleCode), "eval.parse"},
	},
}

// apis indexes apiTables by call name.
var apis = sync.OnceValue(func() map[byte]map[string]role { return indexTables(apiTables) })

// bareModules are tried for unqualified calls (destructured imports
// that were not seen).
var bareModules = map[byte][]string{
	famJS: {"fs", "child_process"},
}

// anyReceiver lists method names distinctive enough to count whatever
// the receiver (an alias the scanner could not follow).
var anyReceiverTables = map[byte]apiTable{
	famJS: apiTable{
		{at(roleDelete, 0), "rmSync rmdirSync unlinkSync removeSync emptyDirSync removeItemAtPathError"},
		{at(roleWrite, 0), "writeFileSync appendFileSync truncateSync mkdirSync createWriteStream outputFileSync " +
			"writeTextFile writeTextFileSync"},
		{only(roleCopy), "copyFileSync cpSync"},
		{only(roleMove), "renameSync"},
		{at(roleRead, 0), "readFileSync createReadStream readTextFile readTextFileSync"},
		{at(roleExec, 0), "execSync doShellScript"},
		{only(roleExecProg), "execFileSync spawnSync"},
		{only(rolePowerOff), "shutDown"},
	},
	famPython: apiTable{
		{at(roleDelete, 0), "rmtree"},
		{only(roleSelfDelete), "unlink rmdir"},
		{only(roleSelfWrite), "write_text write_bytes"},
		{only(roleSelfRead), "read_text read_bytes"},
		{at(roleExec, 0), "check_output check_call"},
	},
	famRuby: apiTable{
		{only(roleDeleteAll), "rm_rf rm_r rm_f remove_dir remove_entry remove_entry_secure"},
		{only(roleWriteAll), "mkdir_p"},
		{only(roleCopy), "cp_r"},
	},
}

// anyReceiver indexes anyReceiverTables by method name.
var anyReceiver = sync.OnceValue(func() map[byte]map[string]role { return indexTables(anyReceiverTables) })

// indexTables indexes each family's table by call name.
func indexTables(tables map[byte]apiTable) map[byte]map[string]role {
	m := make(map[byte]map[string]role, len(tables))
	for fam, t := range tables {
		m[fam] = t.index()
	}
	return m
}
