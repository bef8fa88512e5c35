package oneliner

import (
	"strings"
)

// ---------------------------------------------------------------------------
// Effects

// Effect is one thing a script does that a layer may judge.
type Effect struct {
	// Op is "delete", "write", "read" or "exec".
	Op string
	// Path is the file or directory deleted or written, when the call
	// names it with a literal (or a value built only from literals: a
	// single-assignment variable, path.join / os.path.join / File.join of
	// literals, ~ for the home directory from os.homedir(), Path.home(),
	// $ENV{HOME}, ...). "" when the path is built at run time: the target is
	// unknown. Environment variables other than HOME/USERPROFILE appear as
	// "$NAME".
	Path string
	// Command is the shell command line an exec effect runs. A literal
	// argument list is joined with POSIX quoting (['rm','-rf','/'] gives
	// "rm -rf /"); parts built at run time appear as Dynamic. "" when
	// the whole command is unknown.
	Command string
	// API names the call: "fs.rmSync", "shutil.rmtree", "os.system",
	// "Path().unlink", "open", "backticks", "print >", "do shell script",
	// "exec" / "eval" for code evaluated at run time.
	API string
	// Decoded marks an exec effect whose command (or evaluated code) is
	// built at run time by code that also decodes text (base64, hex,
	// chr(), a reversed string ...): what runs is hidden in the one-liner.
	Decoded bool
	// Tree marks a read of a whole directory tree when Path is one: the
	// source of a copy, move or link (shutil.copytree, FileUtils.cp_r,
	// fs.cpSync), as cp -r reads it.
	Tree bool
}

// Dynamic stands for the run-time parts of an Effect.Command; parsed
// as a shell word it is an unset (unknown) variable.
const Dynamic = "$ZF_DYNAMIC"

// Limits of the code scanner.
const (
	maxCode    = 256 << 10 // bytes of code scanned
	maxEffects = 256       // effects reported per script
	maxEval    = 12        // expression evaluation depth
	maxNest    = 3         // eval("...") and interpolation re-scans
	hole       = "\x00"    // an unknown part inside a string value
	// workPerToken bounds the scanner's steps (token visits and
	// evaluations) per token of code, so that no shape of code (Perl list
	// operators nested without end, calls nested 100,000 deep) makes the
	// work more than linear. Past the budget the rest is not judged.
	workPerToken = 16
	workMin      = 1 << 14
)

// Supported reports whether Effects scans code of language lang (an
// Inline.Lang of core/cmdfacts).
func Supported(lang string) bool { return family(lang) != 0 }

// MaxCode is how much of a program Effects scans, in bytes: a longer
// program's rest is not read, so a caller that must judge a whole file
// (core/shell/analysis, a script file on disk) leaves a longer one out.
const MaxCode = maxCode

// Effects scans code in language lang (a core/cmdfacts Inline.Lang) and returns
// the files it deletes and writes and the shell commands it runs, in
// source order, de-duplicated:
//
//   - JS (node, deno, bun, jxa): fs.rm/rmSync/rmdir/unlink/writeFile/
//     appendFile/copyFile/cp/rename/truncate/mkdir/createWriteStream/open
//     and their Sync, fs.promises and fs-extra forms; child_process
//     exec/execSync/execFile/spawn/spawnSync; shelljs; execa; Deno.remove/
//     writeTextFile/writeFile/rename/mkdir/open, new Deno.Command, Deno.run;
//     Bun.write, Bun.file(p).delete(), Bun.spawn, Bun.$`...`; eval.
//   - Python: shutil.rmtree/move/copy*, os.remove/unlink/rmdir/removedirs/
//     rename/replace/truncate/mkdir/makedirs/open/system/popen/exec*/spawn*,
//     pathlib Path(p).unlink/rmdir/write_text/write_bytes/touch/mkdir/
//     rename/open, open(p, 'w'/'a'/'x'/'+'), subprocess.run/call/
//     check_call/check_output/Popen (string or list), exec(code).
//   - Perl: unlink, rmdir, rmtree/remove_tree, mkdir, make_path, rename,
//     File::Copy, open with > >> +< |- modes (2 and 3 arguments), sysopen,
//     system, exec, backticks, qx, eval "code".
//   - Ruby: File.delete/unlink/write/binwrite/rename/open, FileUtils.rm*/
//     remove*/mv/cp*/install/touch/mkdir_p, Dir.rmdir/mkdir, Pathname,
//     IO.write/popen, Open3, system/exec/spawn, backticks, %x().
//   - PHP: unlink, rmdir, file_put_contents, fopen (w a x c +), rename,
//     copy, mkdir, touch, system/exec/shell_exec/passthru/popen/proc_open,
//     backticks, eval; functions named by a string (call_user_func,
//     call_user_func_array, array_map, array_walk, array_filter, $f = 'x';
//     $f(...), ('x')(...)).
//   - Lua: os.execute, io.popen, os.remove, os.rename, io.open for writing,
//     load; .. concatenation, long strings.
//   - R: system, shell, system2, unlink, file.remove, file.rename,
//     file.copy, dir.create, writeLines; paste, paste0, file.path, c().
//   - Julia: rm, mv, cp, cptree, mkdir, mkpath, touch, chmod, chown,
//     symlink, open for writing, command literals `...` (run, read,
//     pipeline); homedir(), pwd(), joinpath.
//   - Tcl and expect: exec, spawn, send into a spawned shell, file delete/
//     rename/copy/mkdir, open for writing or of a |pipe (tcl.go).
//   - Every family: the working directory (os.getcwd(), process.cwd(),
//     __dirname of node -e, Dir.pwd, getcwd(), getwd(), Path.cwd()) is
//     ".", and dirname / .parent of a path its parent, so a path that
//     climbs above it is relative to the command's directory.
//   - awk: system(), print/printf > and >> "file", print | "cmd" (with the
//     printed text as a command when cmd is a shell), "cmd" | getline.
//   - AppleScript: do shell script, Finder delete (POSIX file / file
//     paths), empty trash.
//
// Reads are effects too (Op "read"): a file opened for reading (open(p),
// open(p, 'r'), io.open, fs.openSync(p, 'r'), File.open(p), fopen(p,
// 'r'), Perl's open with < or a bare name, os.open with O_RDONLY), the
// read calls (fs.readFile/readFileSync/createReadStream and fs-extra's
// readJson, Deno.readTextFile/readFile, Bun.file(p).text(), Path(p).
// read_text/read_bytes, File.read/readlines/binread/foreach, IO.read,
// Pathname(p).read, file_get_contents, file, readfile, File::Slurp and
// Path::Tiny slurp, io.lines, Julia read/readlines/eachline, Elixir
// File.read/stream!, Erlang file:read_file, Groovy File().getText and
// java.nio Files.readAllBytes/readString/lines, Scala os.read and
// Source.fromFile, Haskell readFile, R readLines/readRDS/read.csv/scan,
// awk getline < "file", Tcl open for reading), and the source of every
// copy, move and link (shutil.copy*, os.symlink, fs.copyFile, fs.cp,
// FileUtils.cp*, File::Copy, PHP copy, Julia cp, Tcl file copy), marked
// Tree. Calls whose argument is built at run time are still reported,
// with Path or Command "". Unknown lang gives nil. Cost: linear in
// len(code), which is cut at 256 KiB.
func Effects(lang, code string) []Effect {
	return scanEffects(lang, code, 0, nil)
}

// Execs returns the Command of every exec effect of code that is not
// entirely unknown: the shell command lines the script runs, to be analysed
// in turn (they use Dynamic for run-time parts).
func Execs(lang, code string) []string {
	var out []string
	for _, e := range Effects(lang, code) {
		if e.Op == "exec" && e.Command != "" {
			out = append(out, e.Command)
		}
	}
	return out
}

func scanEffects(lang, code string, depth int, work *int) []Effect {
	fam := family(lang)
	if fam == 0 || strings.TrimSpace(code) == "" {
		return nil
	}
	if len(code) > maxCode {
		code = code[:maxCode]
	}
	code = strings.ReplaceAll(code, "\x00", " ")
	p := newParser(fam, lang, code, depth, map[string]value{}, work)
	p.prepass()
	switch fam {
	case famAwk:
		p.awk()
	case famOSA:
		p.osa()
	case famTcl:
		p.tcl(code)
		return p.effects
	case famHaskell:
		p.haskell()
	default:
		p.scan()
	}
	return p.effects
}

// value is the value of an expression as far as the scanner knows it.
type value struct {
	str    bool // a string; s holds it with hole for unknown parts
	s      string
	isList bool
	list   []value
	obj    map[string]value // an object / dict / hash literal
	mod    string           // a module or function reference (require('fs'), import aliases)
	ctor   string           // made by a path constructor: "Path()", "Pathname()", "Bun.file()", "path()"
}

func (v value) known() bool { return v.str && !strings.Contains(v.s, hole) }

func literalValue(s string) value { return value{str: true, s: s} }

type callArg struct {
	a, b int
	kw   string
}

type link struct {
	name  string
	call  bool
	args  []callArg
	index bool
	idx   []callArg
}

type parser struct {
	work    *int // steps left, shared with nested scans
	fam     byte
	lang    string
	depth   int
	toks    []token
	match   []int
	vars    map[string]value
	star    []string // Python `from M import *`
	effects []Effect
	seen    map[Effect]bool
}

func newParser(fam byte, lang, code string, depth int, vars map[string]value, work *int) *parser {
	p := &parser{fam: fam, lang: lang, depth: depth, vars: vars, seen: map[Effect]bool{}, work: work}
	p.toks = lex(fam, code)
	p.match = matchBrackets(p.toks)
	if p.work == nil {
		n := max(len(p.toks)*workPerToken, workMin)
		p.work = &n
	}
	return p
}

// done reports that the work budget or the effect cap is used up.
func (p *parser) done() bool {
	return *p.work <= 0 || len(p.effects) >= maxEffects
}

// matchBrackets pairs brackets: match[i] is the index of the partner of an
// opener or closer, len(toks) for an unclosed opener, -1 otherwise.
func matchBrackets(toks []token) []int {
	m := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		m[i] = -1
		if t.kind != tkPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			open := "("
			switch t.text {
			case "]":
				open = "["
			case "}":
				open = "{"
			}
			for k := len(stack) - 1; k >= 0 && k >= len(stack)-8; k-- {
				if toks[stack[k]].text == open {
					m[stack[k]], m[i] = i, stack[k]
					stack = stack[:k]
					break
				}
			}
		}
	}
	for _, o := range stack {
		m[o] = len(toks)
	}
	return m
}

func (p *parser) is(i int, punct string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tkPunct && p.toks[i].text == punct
}

func (p *parser) isOpener(i int) bool {
	return i < len(p.toks) && p.toks[i].kind == tkPunct && (p.toks[i].text == "(" || p.toks[i].text == "[" || p.toks[i].text == "{")
}

// skip returns the index after the group opened at i (i+1 for
// non-openers); every call spends one step of the work budget, and once
// it is spent skip returns len(toks), ending every scanning loop.
func (p *parser) skip(i int) int {
	*p.work--
	if *p.work <= 0 {
		return len(p.toks)
	}
	if p.isOpener(i) {
		return p.match[i] + 1
	}
	return i + 1
}

func isMemberOp(t token) bool {
	return t.kind == tkPunct && (t.text == "." || t.text == "::" || t.text == "->" || t.text == "?.")
}

// memberOp reports a member-access operator of the family (in Perl and PHP
// "." concatenates; Erlang's is the ":" of module:function; Haskell's "."
// joins a qualified name without blanks, and with them composes; "->"
// is a closure or clause arrow in Elixir, Erlang, Groovy and Haskell).
func (p *parser) memberOp(i int) bool {
	if i < 0 || i >= len(p.toks) {
		return false
	}
	t := p.toks[i]
	switch p.fam {
	case famErlang:
		return t.kind == tkPunct && t.text == ":"
	case famHaskell:
		return t.kind == tkPunct && t.text == "." && !t.space && i+1 < len(p.toks) && !p.toks[i+1].space
	case famElixir, famGroovy:
		if t.text == "->" {
			return false
		}
	}
	if !isMemberOp(t) {
		return false
	}
	return t.text != "." || p.fam != famPerl && p.fam != famPHP
}

func isAssignOp(t token) bool {
	if t.kind != tkPunct || !strings.HasSuffix(t.text, "=") {
		return false
	}
	switch t.text {
	case "==", "!=", "<=", ">=", "===", "!==", "=~":
		return false
	}
	return true
}

// emit records an effect once.
func (p *parser) emit(e Effect) {
	if len(p.effects) >= maxEffects || p.seen[e] {
		return
	}
	p.seen[e] = true
	p.effects = append(p.effects, e)
}

// path records a delete or write of v (each element of a list).
func (p *parser) path(op string, v value, api string) {
	p.pathEffect(Effect{Op: op, API: api}, v)
}

// read records a read of v (each element of a list); tree: the source of
// a copy, move or link, read whole when it is a directory.
func (p *parser) read(v value, api string, tree bool) {
	p.pathEffect(Effect{Op: "read", API: api, Tree: tree}, v)
}

// pathEffect records e for the path v (each element of a list), with
// Path "" when v is built at run time.
func (p *parser) pathEffect(e Effect, v value) {
	if v.isList && len(v.list) > 0 {
		for _, x := range v.list {
			p.pathEffect(e, x)
		}
		return
	}
	if v.known() {
		e.Path = v.s
	}
	p.emit(e)
}

// exec records a command run: a string is a shell command line, a list an
// argv.
func (p *parser) exec(v value, api string) {
	e := Effect{Op: "exec", API: api}
	switch {
	case v.isList:
		e.Command = joinArgv(v.list)
	case v.str && strings.Trim(v.s, hole+" ") != "":
		e.Command = strings.ReplaceAll(v.s, hole, Dynamic)
	}
	if (e.Command == "" || strings.Contains(e.Command, Dynamic)) && p.decodes() {
		e.Decoded = true
	}
	p.emit(e)
}

// joinArgv renders an argv as a POSIX shell command line.
func joinArgv(list []value) string {
	var words []string
	for _, v := range list {
		if !v.str {
			words = append(words, `"`+Dynamic+`"`)
			continue
		}
		pieces := strings.Split(v.s, hole)
		var b strings.Builder
		for i, piece := range pieces {
			if i > 0 {
				b.WriteString(`"` + Dynamic + `"`)
			}
			if piece != "" || len(pieces) == 1 {
				b.WriteString(shellQuote(piece))
			}
		}
		words = append(words, b.String())
	}
	return strings.Join(words, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_@%+=:,./-", c) >= 0) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// splitArgs splits the tokens [a,b) of an argument list at top-level
// commas (and Perl's =>, Julia's ; before keywords), noting Python and
// Julia name= and Ruby name: keywords.
func (p *parser) splitArgs(a, b int) []callArg {
	var out []callArg
	b = min(b, len(p.toks))
	start := a
	add := func(end int) {
		x, y := start, end
		for x < y && p.toks[x].kind == tkLine {
			x++
		}
		for y > x && p.toks[y-1].kind == tkLine {
			y--
		}
		if x >= y {
			return
		}
		arg := callArg{a: x, b: y}
		if y-x >= 3 && p.toks[x].kind == tkIdent && ((p.fam == famPython || p.fam == famR || p.fam == famJulia) && p.is(x+1, "=") || (p.fam == famRuby || p.fam == famElixir || p.fam == famGroovy) && p.is(x+1, ":")) {
			arg.kw, arg.a = p.toks[x].text, x+2
		}
		out = append(out, arg)
	}
	for k := a; k < b; {
		if p.is(k, ",") || p.is(k, "=>") && p.fam == famPerl || p.is(k, ";") && p.fam == famJulia {
			add(k)
			start = k + 1
			k++
			continue
		}
		k = p.skip(k)
	}
	add(min(b, len(p.toks)))
	return out
}

// positional returns the arguments that are not keywords.
func positional(args []callArg) []callArg {
	var out []callArg
	for _, a := range args {
		if a.kw == "" {
			out = append(out, a)
		}
	}
	return out
}

// arg evaluates the n-th positional argument, or the first keyword among
// kws; present is false when there is neither.
func (p *parser) arg(args []callArg, n int, kws ...string) (v value, present bool) {
	pos := positional(args)
	if n < len(pos) {
		return p.eval(pos[n].a, pos[n].b, 0), true
	}
	for _, a := range args {
		for _, k := range kws {
			if a.kw == k {
				return p.eval(a.a, a.b, 0), true
			}
		}
	}
	return value{}, false
}
