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
		}
	}
}

// chainAt judges the calls of the access chain starting at i.
func (p *parser) chainAt(i int) {
	n := len(p.toks)
	links, end := p.chain(i, n)
	for k := range links {
		if links[k].call {
			key, self := p.key(links, k, 0)
			p.call(key, self, links[k].args)
		}
	}
	last := len(links) - 1
	if p.fam == famRuby && last > 0 && !links[last].call && !links[last].index &&
		(end >= n || !p.toks[end].space || !p.argStart(end)) {
		key, self := p.key(links, last, 0)
		if spec, _ := p.spec(key, 0); strings.HasPrefix(spec, "self") {
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
	if (p.fam == famPerl || p.fam == famRuby) && next.space && p.argStart(end) {
		key, self := p.key(links, last, 0)
		if spec, _ := p.spec(key, 0); spec != "" {
			p.call(key, self, p.splitArgs(end, p.stmtEnd(end)))
		}
	}
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
	n := len(p.toks)
	for k := j; k < n; {
		t := p.toks[k]
		switch {
		case t.kind == tkLine:
			return k
		case t.kind == tkPunct:
			switch t.text {
			case ";", ")", "]", "}", "||", "&&", "//", "or", "and":
				return k
			case "{":
				if p.fam == famRuby {
					return k // a block
				}
			}
		case t.kind == tkIdent:
			switch t.text {
			case "or", "and", "if", "unless", "while", "until", "for", "foreach", "do", "then", "rescue":
				return k
			}
		}
		k = p.skip(k)
	}
	return n
}

// spec finds the API spec of a call, trying star imports, the modules of
// unqualified calls and the receiver-independent names; nargs is the number
// of arguments. It returns the spec and the name found.
func (p *parser) spec(key string, nargs int) (string, string) {
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
		if strings.HasPrefix(s, "self") && nargs > 0 && (name == "unlink" || name == "rmdir") {
			return "", ""
		}
		return s, key
	}
	return "", ""
}

// call applies the API spec of key to a call's arguments.
func (p *parser) call(key string, self value, args []callArg) {
	name := key
	spec, key := p.spec(key, len(args))
	if spec == "" {
		p.varCall(name, args)
		return
	}
	role, n := spec, 0
	if i := strings.IndexByte(spec, ':'); i >= 0 {
		role = spec[:i]
		n = int(spec[i+1] - '0')
	}
	api := key
	pos := positional(args)
	switch role {
	case "delete", "write":
		v, _ := p.arg(args, n, "path", "file", "src", "dst", "name", "filename", "filepath")
		if n == 1 {
			v, _ = p.arg(args, 1, "dst", "dest", "destination", "target")
		}
		p.path(role, v, api)
	case "deleteall", "writeall":
		op := strings.TrimSuffix(role, "all")
		if len(pos) == 0 {
			p.path(op, value{}, api)
		}
		for _, a := range pos {
			if v := p.eval(a.a, a.b, 0); !(v.obj != nil) {
				p.path(op, v, api)
			}
		}
	case "move":
		src, _ := p.arg(args, 0, "src", "source", "old", "from")
		dst, _ := p.arg(args, 1, "dst", "dest", "destination", "new", "to", "target")
		p.path("delete", src, api)
		p.path("write", dst, api)
	case "open":
		mode, present := p.arg(args, n, "mode", "flags")
		if !present || mode.known() && !p.writeMode(mode.s) {
			return
		}
		if !mode.known() && p.readFlags(args, n) {
			return
		}
		v, _ := p.arg(args, 0, "file", "path", "filename")
		p.path("write", v, api)
	case "osopen":
		if len(pos) > n+1 && p.writeFlags(pos[n+1]) {
			p.path("write", p.eval(pos[n].a, pos[n].b, 0), api)
		}
	case "denoopen":
		opts, present := p.arg(args, 1)
		if !present {
			return
		}
		if opts.obj != nil {
			w := false
			for _, k := range []string{"write", "append", "create", "truncate", "createNew"} {
				w = w || opts.obj[k].s == "true"
			}
			if !w {
				return
			}
		}
		v, _ := p.arg(args, 0)
		p.path("write", v, api)
	case "exec":
		v, _ := p.arg(args, n, "args", "command", "cmd")
		p.exec(v, api)
	case "execprog":
		prog, _ := p.arg(args, 0, "file", "command", "cmd")
		rest, _ := p.arg(args, 1, "args")
		if rest.isList {
			p.exec(value{isList: true, list: append([]value{prog}, rest.list...)}, api)
		} else {
			p.exec(prog, api)
		}
	case "execshell":
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
	case "execall":
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
	case "execvar":
		var list []value
		for _, a := range pos[min(n, len(pos)):] {
			list = append(list, p.eval(a.a, a.b, 0))
		}
		p.exec(value{isList: true, list: list}, api)
	case "execlist":
		v, _ := p.arg(args, n)
		p.exec(v, api)
	case "objcmd":
		v, _ := p.arg(args, 0)
		if v.obj != nil {
			v = v.obj["cmd"]
		}
		p.exec(v, api)
	case "denocmd":
		prog, _ := p.arg(args, 0)
		opts, _ := p.arg(args, 1)
		list := []value{prog}
		if a := opts.obj["args"]; a.isList {
			list = append(list, a.list...)
		}
		p.exec(value{isList: true, list: list}, api)
	case "poweroff":
		p.exec(literalValue("shutdown -h now"), api) // JXA System Events: the same power-off as shutdown
	case "reboot":
		p.exec(literalValue("shutdown -r now"), api)
	case "callback", "callbackarr", "mapcb", "walkcb":
		p.callback(role, n, args)
	case "code":
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
	case "shrm", "shwrite", "shmv", "shcp":
		var ops []value
		for _, a := range pos {
			v := p.eval(a.a, a.b, 0)
			if v.known() && strings.HasPrefix(v.s, "-") {
				continue
			}
			ops = append(ops, v)
		}
		switch role {
		case "shrm":
			for _, v := range ops {
				p.path("delete", v, api)
			}
		case "shwrite":
			for _, v := range ops {
				p.path("write", v, api)
			}
		default:
			if len(ops) > 0 {
				if role == "shmv" {
					for _, v := range ops[:len(ops)-1] {
						p.path("delete", v, api)
					}
				}
				p.path("write", ops[len(ops)-1], api)
			}
		}
	case "self":
		op := "delete"
		if n == 1 {
			op = "write"
		}
		p.path(op, self, api)
	case "selfmove":
		dst, _ := p.arg(args, 0, "target")
		p.path("delete", self, api)
		p.path("write", dst, api)
	case "selfopen":
		mode, present := p.arg(args, 0, "mode")
		if present && !(mode.known() && !p.writeMode(mode.s)) {
			p.path("write", self, api)
		}
	case "perlopen":
		p.perlOpen(pos, api)
	case "rubyopen":
		v, _ := p.arg(args, 0)
		if v.str && strings.HasPrefix(v.s, "|") {
			p.exec(value{str: true, s: v.s[1:]}, api)
			return
		}
		mode, present := p.arg(args, 1, "mode")
		if present && !(mode.known() && !p.writeMode(mode.s)) {
			p.path("write", v, api)
		}
	}
}

// writeMode reports whether an open mode string writes.
func (p *parser) writeMode(m string) bool {
	if strings.ContainsAny(m, "wax+") {
		return true
	}
	return p.fam == famPHP && strings.Contains(m, "c")
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
		}
	}
}

// pairTable builds an API table from (spec, space-separated keys) pairs.
func pairTable(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		for _, k := range strings.Fields(pairs[i+1]) {
			m[k] = pairs[i]
		}
	}
	return m
}

// API specs: "delete:N"/"write:N" (argument N is the path), "deleteall" /
// "writeall" (every argument), "move" (0 deleted, 1 written), "open:N"
// (argument N is the mode), "osopen:N" (path N, flags N+1), "exec:N"
// (argument N is a command string or argv list), "execprog" (program and
// argument list), "execshell" (a quoted program, then arguments the shell
// reads as written: R's system2), "execall" (all arguments form the
// command), "execvar:N"
// (arguments from N form the argv), "execlist:N", "objcmd" ({cmd: [...]}),
// "denocmd", "code" (the argument is code in the same language), "shrm"
// "shwrite" "shmv" "shcp" (shelljs), "self:0" / "self:1" (the receiver is
// deleted / written), "selfmove", "selfopen", "perlopen", "rubyopen",
// "denoopen".
var apis = sync.OnceValue(func() map[byte]map[string]string {
	return map[byte]map[string]string{
		famJS: pairTable(
			"delete:0", "fs.rm fs.rmSync fs.rmdir fs.rmdirSync fs.unlink fs.unlinkSync fs.remove fs.removeSync "+
				"fs.emptyDir fs.emptyDirSync fs.emptydir fs.emptydirSync fs.lchmod Deno.remove Deno.removeSync "+
				"$.NSFileManager.defaultManager.removeItemAtPathError",
			"write:0", "fs.writeFile fs.writeFileSync fs.appendFile fs.appendFileSync fs.truncate fs.truncateSync "+
				"fs.mkdir fs.mkdirSync fs.createWriteStream fs.outputFile fs.outputFileSync fs.writeJson fs.writeJsonSync "+
				"fs.writeJSON fs.writeJSONSync fs.outputJson fs.outputJsonSync fs.outputJSON fs.ensureDir fs.ensureDirSync "+
				"fs.mkdirp fs.mkdirpSync fs.mkdirs fs.mkdirsSync fs.ensureFile fs.ensureFileSync fs.mkdtemp fs.mkdtempSync "+
				"fs.utimes fs.utimesSync fs.chmod fs.chmodSync fs.chown fs.chownSync "+
				"Deno.writeTextFile Deno.writeTextFileSync Deno.writeFile Deno.writeFileSync Deno.truncate Deno.truncateSync "+
				"Deno.mkdir Deno.mkdirSync Deno.create Deno.createSync Deno.chmod Deno.chmodSync Bun.write",
			"write:1", "fs.copyFile fs.copyFileSync fs.cp fs.cpSync fs.copy fs.copySync fs.symlink fs.symlinkSync "+
				"fs.link fs.linkSync fs.ensureSymlink fs.ensureLink Deno.copyFile Deno.copyFileSync Deno.symlink "+
				"Deno.symlinkSync Deno.link Deno.linkSync",
			"move", "fs.rename fs.renameSync fs.move fs.moveSync Deno.rename Deno.renameSync",
			"open:1", "fs.open fs.openSync",
			"denoopen", "Deno.open Deno.openSync",
			"exec:0", "child_process.exec child_process.execSync execa.execaCommand execa.execaCommandSync "+
				"shelljs.exec Application().doShellScript",
			"execprog", "child_process.execFile child_process.execFileSync child_process.spawn child_process.spawnSync "+
				"execa.execa execa.execaSync execa execaSync",
			"objcmd", "Bun.spawn Bun.spawnSync Deno.run",
			"denocmd", "Deno.Command",
			"shrm", "shelljs.rm",
			"shmv", "shelljs.mv",
			"shcp", "shelljs.cp",
			"shwrite", "shelljs.mkdir shelljs.touch",
			"self:0", "Bun.file().delete Bun.file().unlink",
			"self:1", "Bun.file().write",
			"code", "eval vm.runInThisContext vm.runInNewContext vm.runInContext",
			"poweroff", "Application().shutDown",
			"reboot", "Application().restart",
		),
		famPython: pairTable(
			"delete:0", "shutil.rmtree os.remove os.unlink os.rmdir os.removedirs",
			"write:0", "os.truncate os.mkdir os.makedirs os.mkfifo os.mknod os.chmod os.chown os.utime",
			"write:1", "shutil.copy shutil.copy2 shutil.copyfile shutil.copytree shutil.copymode shutil.copystat "+
				"os.symlink os.link",
			"move", "shutil.move os.rename os.renames os.replace",
			"open:1", "open io.open codecs.open",
			"osopen:0", "os.open",
			"exec:0", "os.system os.popen subprocess.run subprocess.call subprocess.check_call subprocess.check_output "+
				"subprocess.Popen subprocess.getoutput subprocess.getstatusoutput commands.getoutput "+
				"commands.getstatusoutput pty.spawn asyncio.create_subprocess_shell",
			"execall", "asyncio.create_subprocess_exec",
			"execlist:1", "os.execv os.execve os.execvp os.execvpe",
			"execvar:1", "os.execl os.execle os.execlp os.execlpe",
			"execlist:2", "os.spawnv os.spawnve os.spawnvp os.spawnvpe",
			"execvar:2", "os.spawnl os.spawnle os.spawnlp os.spawnlpe",
			"self:0", "Path().unlink Path().rmdir",
			"self:1", "Path().write_text Path().write_bytes Path().touch Path().mkdir Path().symlink_to Path().hardlink_to "+
				"Path().chmod",
			"selfmove", "Path().rename Path().replace",
			"selfopen", "Path().open",
			"code", "exec eval",
		),
		famPerl: pairTable(
			"deleteall", "unlink rmtree remove_tree File.Path.rmtree File.Path.remove_tree",
			"delete:0", "rmdir path().remove path().remove_tree",
			"writeall", "mkpath make_path File.Path.mkpath File.Path.make_path chmod chown utime",
			"write:0", "mkdir truncate write_file File.Slurp.write_file",
			"self:1", "path().spew path().spew_utf8 path().spew_raw path().append path().append_utf8 path().touch path().mkpath",
			"write:1", "copy cp File.Copy.copy File.Copy.cp symlink link",
			"move", "rename move mv File.Copy.move File.Copy.mv",
			"perlopen", "open",
			"osopen:1", "sysopen",
			"execall", "system exec",
			"exec:0", "readpipe",
			"code", "eval",
		),
		famRuby: pairTable(
			"deleteall", "File.delete File.unlink FileUtils.rm FileUtils.rm_r FileUtils.rm_rf FileUtils.rm_f "+
				"FileUtils.remove FileUtils.remove_dir FileUtils.remove_entry FileUtils.remove_entry_secure "+
				"FileUtils.remove_file FileUtils.rmtree FileUtils.rmdir FileUtils.safe_unlink Dir.rmdir Dir.delete Dir.unlink",
			"write:0", "File.write File.binwrite IO.write IO.binwrite File.truncate Dir.mkdir File.chmod File.chown",
			"writeall", "FileUtils.touch FileUtils.mkdir FileUtils.mkdir_p FileUtils.makedirs FileUtils.mkpath "+
				"FileUtils.chmod FileUtils.chmod_R FileUtils.chown FileUtils.chown_R",
			"write:1", "FileUtils.cp FileUtils.copy FileUtils.cp_r FileUtils.copy_entry FileUtils.copy_file FileUtils.cp_lr "+
				"FileUtils.install FileUtils.ln FileUtils.ln_s FileUtils.ln_sf FileUtils.symlink FileUtils.link "+
				"File.symlink File.link",
			"move", "File.rename FileUtils.mv FileUtils.move",
			"open:1", "File.open File.new IO.sysopen",
			"rubyopen", "open",
			"execall", "system exec spawn Process.spawn Process.exec IO.popen Open3.capture2 Open3.capture2e "+
				"Open3.capture3 Open3.popen2 Open3.popen2e Open3.popen3 Open3.pipeline",
			"self:0", "Pathname().delete Pathname().unlink Pathname().rmtree Pathname().rmdir",
			"self:1", "Pathname().write Pathname().binwrite Pathname().mkpath Pathname().mkdir",
			"selfmove", "Pathname().rename",
			"code", "eval instance_eval class_eval",
		),
		famPHP: pairTable(
			"delete:0", "unlink rmdir",
			"write:0", "file_put_contents mkdir touch chmod chown",
			"write:1", "copy symlink link",
			"move", "rename",
			"open:1", "fopen",
			"exec:0", "system exec shell_exec passthru popen proc_open",
			"execprog", "pcntl_exec",
			"code", "eval assert create_function",
			"callback:0", "call_user_func forward_static_call",
			"callbackarr:0", "call_user_func_array forward_static_call_array",
			"mapcb:0", "array_map",
			"walkcb:1", "array_walk array_walk_recursive array_filter",
		),
		famLua: pairTable(
			"delete:0", "os.remove",
			"move", "os.rename",
			"open:1", "io.open",
			"exec:0", "os.execute io.popen",
			"code", "load loadstring",
		),
		famR: pairTable(
			"deleteall", "unlink file.remove",
			"write:0", "dir.create file.create Sys.chmod Sys.setFileTime",
			"write:1", "file.copy file.symlink file.link writeLines saveRDS",
			"move", "file.rename",
			"exec:0", "system shell",
			"execshell", "system2",
			"execprog", "processx.run",
			"code", "eval.parse",
		),
	}
})

// bareModules are tried for unqualified calls (destructured imports
// that were not seen).
var bareModules = map[byte][]string{
	famJS: {"fs", "child_process"},
}

// anyReceiver lists method names distinctive enough to count whatever
// the receiver (an alias the scanner could not follow).
var anyReceiver = sync.OnceValue(func() map[byte]map[string]string {
	return map[byte]map[string]string{
		famJS: pairTable(
			"delete:0", "rmSync rmdirSync unlinkSync removeSync emptyDirSync removeItemAtPathError",
			"write:0", "writeFileSync appendFileSync truncateSync mkdirSync createWriteStream outputFileSync "+
				"writeTextFile writeTextFileSync",
			"write:1", "copyFileSync cpSync",
			"move", "renameSync",
			"exec:0", "execSync doShellScript",
			"execprog", "execFileSync spawnSync",
			"poweroff", "shutDown",
		),
		famPython: pairTable(
			"delete:0", "rmtree",
			"self:0", "unlink rmdir",
			"self:1", "write_text write_bytes",
			"exec:0", "check_output check_call",
		),
		famRuby: pairTable(
			"deleteall", "rm_rf rm_r rm_f remove_dir remove_entry remove_entry_secure",
			"writeall", "mkdir_p",
			"write:1", "cp_r",
		),
	}
})
