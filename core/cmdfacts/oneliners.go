package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// How interpreters take their program: a one-liner option (node -e,
// python -c, perl -e, an awk program ...), a script file, or stdin. The
// shell analysis, the danger gate and the project fence read it here; the
// code itself is scanned by core/shell/oneliner.

// Inline is one interpreter one-liner found in a command.
type Inline struct {
	// Lang is the language: "node", "python", "perl", "ruby", "php",
	// "awk", "osascript" (AppleScript), "jxa" (osascript -l JavaScript),
	// "deno" or "bun". Pass it to oneliner.Effects.
	Lang string
	// Code is the script text (the Word.Value of the code argument, the
	// -e arguments of perl/ruby/osascript joined with newlines, or the
	// command's Stdin).
	Code string
	// Via says where the code came from: the command name and switch as
	// written ("python3 -c", "node --eval", "perl -e", "deno eval", "awk",
	// "python3 stdin" for a heredoc or here-string).
	Via string
	// Unknown is set when the code argument contains unresolved shell
	// expansions ($VAR, $(...)); Code then holds their source text.
	Unknown bool
	// FromStdin is set when Code is the command's Stdin.
	FromStdin bool
	// InPlace is set for in-place editing (perl -i, ruby -i, gawk -i
	// inplace): the program rewrites the files in Files.
	InPlace bool
	// Files are the operands after the program (the files perl -n/-p/-i,
	// ruby -n/-p/-i and awk read, or edit when InPlace), without awk's
	// var=value operands.
	Files []ir.Word
}

// InlineScripts returns the one-liners command c runs: node/nodejs
// -e/--eval/-p/--print (also --eval=CODE), python/python3/pythonX.Y/py/pypy
// -c (also -cCODE and bundled -Bc), perl -e/-E (bundled: -ne, -lane, -pie),
// ruby -e, php -r/-B/-R/-E, deno eval (and repl --eval), bun -e/--eval/-p,
// awk/gawk/mawk/nawk's program (the first operand unless -f or -e/--source
// is given; -F, -v, -i... are skipped), osascript -e (every occurrence).
// An interpreter given no code and no script file takes its Stdin (a
// heredoc or here-string) as code; awk never does (its input is data).
// Option parsing stops at the first operand, as the interpreters do, so
// `node app.js -e x` has no one-liner. c.Name must be the normalised name
// (Command.Name). Cost: linear in the arguments.
func InlineScripts(c *ir.Command) []Inline {
	return scan(c).out
}

// ProgramFromStdin reports whether interpreter command c reads its
// program from stdin: it is given no code option (-c, -e, ...) and no
// script operand, or "-" as the script. awk never does (its input is
// data), nor a command that is no interpreter. Cost: linear in the
// arguments.
func ProgramFromStdin(c *ir.Command) bool {
	return scan(c).stdin
}

// ScriptFile returns the index in c.Args of the script file interpreter
// command c runs — python3 x.py, node app.js, perl -w x.pl, ruby x.rb,
// php x.php, deno run x.ts, bun x.ts (bun run x.ts) — or -1 when it runs
// none (a one-liner, stdin, a module, a subcommand, a word that is not
// known). Cost: linear in the arguments.
func ScriptFile(c *ir.Command) int {
	r := scan(c)
	if r.file < 0 || !r.fileKnown {
		return -1
	}
	return r.file + 1
}

// scan reads the arguments of interpreter command c.
func scan(c *ir.Command) *runner {
	if c == nil || len(c.Args) == 0 {
		return &runner{file: -1}
	}
	r := &runner{c: c, lang: InterpreterLang(c.Name), file: -1}
	args := c.Args[1:]
	switch r.lang {
	case "node":
		r.node(args)
	case "bun":
		r.bun(args)
	case "deno":
		r.deno(args)
	case "python":
		r.python(args)
	case "perl":
		r.perl(args)
	case "ruby":
		r.ruby(args)
	case "php":
		r.php(args)
	case "awk":
		r.awk(args)
	case "osascript":
		r.osascript(args)
	case "lua":
		r.codeOptions(args, "-e", "", "l", "-")
	case "r":
		r.codeOptions(args, "-e", "f", "", "--args")
	case "julia":
		r.codeOptions(args, "-e -E --eval --print", "", "LpJCOgtM", "--")
	case "elixir":
		r.elixir(args)
	case "erlang":
		r.erl(args)
	case "groovy":
		r.groovy(args)
	case "haskell":
		r.ghc(args)
	case "crystal":
		r.crystal(args)
	case "scala":
		r.scala(args)
	case "tcl":
		if r.c.Name == "expect" {
			r.codeOptions(args, "-c", "f", "", "--")
		} else {
			r.codeOptions(args, "", "", "", "--")
		}
	}
	return r
}

type runner struct {
	c     *ir.Command
	lang  string
	out   []Inline
	stdin bool // the interpreter reads its program from stdin
	// file is the index in the scanned args of the script file operand,
	// -1 when none; fileKnown says its word is wholly known.
	file      int
	fileKnown bool
	// edits are the files an in-place edit (perl -i, ruby -i) rewrites:
	// the operands after the program (its script file or -e code).
	edits []ir.Word
}

// scriptAt records args[i] as the script file operand.
func (r *runner) scriptAt(args []ir.Word, i int) {
	if i >= 0 && i < len(args) {
		r.file, r.fileKnown = i, !args[i].Unknown
	}
}

func (r *runner) add(code ir.Word, via string) {
	r.out = append(r.out, Inline{Lang: r.lang, Code: code.Value, Via: r.c.Name + " " + via, Unknown: code.Unknown})
}

// attached returns the code glued to a switch ("--eval=CODE", "-cCODE").
func attachedCode(w ir.Word, code string) ir.Word {
	return ir.Word{Value: code, Raw: code, Unknown: w.Unknown, KnownPrefix: code}
}

func (r *runner) stdinCode() {
	r.stdin = true
	if r.c.Stdin == "" {
		return
	}
	r.out = append(r.out, Inline{Lang: r.lang, Code: r.c.Stdin, Via: r.c.Name + " stdin", FromStdin: true})
}

func oneOf(v, list string) bool {
	for f := range strings.FieldsSeq(list) { // no allocation: called per word
		if v == f {
			return true
		}
	}
	return false
}

func (r *runner) node(args []ir.Word) {
	const evalOpts = "-e --eval -p --print -pe -ep"
	const valueOpts = "-r --require --import --loader --experimental-loader -C --conditions --input-type --title " +
		"--env-file --inspect-port --redirect-warnings --openssl-config --icu-data-dir --disable-warning --watch-path " +
		"--stack-size --diagnostic-dir --report-dir --report-directory --cpu-prof-dir --heap-prof-dir --test-reporter " +
		"--test-reporter-destination"
	script := false
loop:
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case oneOf(v, evalOpts):
			if i+1 < len(args) {
				i++
				r.add(args[i], v)
			}
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
			flag, code, _ := strings.Cut(v, "=")
			r.add(attachedCode(args[i], code), flag)
		case v == "-":
			break loop
		case v == "--":
			script = i+1 < len(args)
			if script && len(r.out) == 0 {
				r.scriptAt(args, i+1)
			}
			break loop
		case oneOf(v, valueOpts):
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			script = true
			if len(r.out) == 0 {
				r.scriptAt(args, i)
			}
			break loop
		}
	}
	if len(r.out) == 0 && !script {
		r.stdinCode()
	}
}

func (r *runner) bun(args []ir.Word) {
	const valueOpts = "--cwd -r --preload --config -c --env-file --tsconfig-override --define -d --loader -l " +
		"--port --conditions --main-fields --extension-order --jsx-factory --jsx-fragment --jsx-import-source " +
		"--jsx-runtime --origin"
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case oneOf(v, "-e --eval -p --print"):
			if i+1 < len(args) {
				i++
				r.add(args[i], v)
			}
		case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
			flag, code, _ := strings.Cut(v, "=")
			r.add(attachedCode(args[i], code), flag)
		case oneOf(v, valueOpts):
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			// A subcommand or a script file: bun FILE and bun run FILE
			// run a file when it has a script's extension.
			if v == "run" && i+1 < len(args) {
				i++
			}
			if args[i].Value == "-" {
				r.stdinCode() // bun run -: the program from stdin
				return
			}
			if len(r.out) == 0 && scriptExt(args[i].Value) {
				r.scriptAt(args, i)
			}
			return
		}
	}
}

func (r *runner) deno(args []ir.Word) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if strings.HasPrefix(v, "-") {
			if v == "-L" || v == "--log-level" {
				i++
			}
			continue
		}
		rest := args[i+1:]
		switch v {
		case "eval":
			const valueOpts = "--ext --config -c --import-map --cert --location --seed"
			for j := 0; j < len(rest); j++ {
				w := rest[j].Value
				switch {
				case oneOf(w, valueOpts):
					j++
				case strings.HasPrefix(w, "-") && len(w) > 1:
				default:
					r.add(rest[j], "eval")
					return
				}
			}
		case "repl":
			for j := 0; j < len(rest); j++ {
				w := rest[j].Value
				switch {
				case w == "--eval" && j+1 < len(rest):
					r.add(rest[j+1], "repl --eval")
					j++
				case strings.HasPrefix(w, "--eval="):
					r.add(attachedCode(rest[j], w[len("--eval="):]), "repl --eval")
				}
			}
		case "run":
			for j := 0; j < len(rest); j++ {
				w := rest[j]
				switch {
				case w.Value == "-":
					r.stdinCode()
					return
				case !strings.HasPrefix(w.Value, "-"):
					r.scriptAt(args, i+1+j)
					return
				case oneOf(w.Value, "--config -c --import-map --cert --location --seed --lock -L --log-level"):
					j++ // its value follows
				}
			}
		}
		return
	}
}

func (r *runner) python(args []ir.Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case v == "-":
			r.stdinCode()
			return
		case v == "--":
			if i+1 == len(args) {
				r.stdinCode()
			}
			return
		case strings.HasPrefix(v, "--"):
			if v == "--check-hash-based-pycs" {
				i++
			}
		case len(v) > 1 && v[0] == '-':
			if r.c.Name == "py" && (v[1] >= '0' && v[1] <= '9' || strings.HasPrefix(v, "-V:")) {
				continue // launcher version switch: -3, -3.12, -V:3.12
			}
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'c':
					if j+1 < len(v) {
						r.add(attachedCode(a, v[j+1:]), "-c")
					} else if i+1 < len(args) {
						r.add(args[i+1], "-c")
					}
					return
				case 'm':
					return // a module runs; no inline code
				case 'W', 'X', 'Q':
					if j+1 == len(v) {
						i++
					}
					j = len(v)
				}
			}
		default:
			r.scriptAt(args, i)
			return // a script file
		}
	}
	r.stdinCode()
}

// bundled scans perl/ruby style bundled switches (-lane, -pie, -rjson).
// valueNext lists the switches whose value is the rest of the bundle or,
// when that is empty, the next argument; valueRest those whose value is
// only the rest of the bundle; digits those followed by optional digits.
func (r *runner) bundled(args []ir.Word, valueNext, valueRest, digits string) {
	var codes []string
	unknown, inPlace, script := false, false, false
	via := "-e"
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case v == "--":
			i++
			script = len(codes) == 0 && i < len(args)
			if script {
				r.scriptAt(args, i)
			}
			break loop
		case v == "-":
			i++
			if len(codes) == 0 {
				if inPlace && i < len(args) {
					r.edits = args[i:] // the program comes on stdin
				}
				r.stdinCode()
				return
			}
			break loop
		case strings.HasPrefix(v, "--"):
			if oneOf(v, "--encoding --external-encoding --internal-encoding") {
				i++
			}
			continue
		case len(v) < 2 || v[0] != '-':
			script = len(codes) == 0
			if script {
				r.scriptAt(args, i)
			}
			break loop
		}
		for j := 1; j < len(v); j++ {
			ch := v[j]
			switch {
			case ch == 'e' || ch == 'E' && r.lang == "perl":
				code, cw := v[j+1:], a
				if code == "" && i+1 < len(args) {
					i++
					cw = args[i]
					code = cw.Value
				}
				codes = append(codes, code)
				unknown = unknown || cw.Unknown
				via = "-" + string(ch)
				j = len(v)
			case ch == 'i':
				inPlace = true
				if rest := v[j+1:]; rest != "e" && rest != "E" {
					j = len(v) // -i.bak: the rest is the backup suffix; -pie means -p -i -e
				}
			case strings.IndexByte(valueNext, ch) >= 0:
				if j+1 == len(v) {
					i++
				}
				j = len(v)
			case strings.IndexByte(valueRest, ch) >= 0:
				j = len(v)
			case strings.IndexByte(digits, ch) >= 0:
				for j+1 < len(v) && (v[j+1] >= '0' && v[j+1] <= '9' || v[j+1] >= 'a' && v[j+1] <= 'f' || v[j+1] == 'x') {
					j++
				}
			}
		}
	}
	switch {
	case !inPlace:
	case len(codes) > 0 && i < len(args):
		r.edits = args[i:]
	case script && i+1 < len(args):
		r.edits = args[i+1:]
	}
	if len(codes) == 0 {
		if !script {
			r.stdinCode()
		}
		return
	}
	in := Inline{Lang: r.lang, Code: strings.Join(codes, "\n"), Via: r.c.Name + " " + via, Unknown: unknown, InPlace: inPlace}
	if i < len(args) {
		in.Files = args[i:]
	}
	r.out = append(r.out, in)
}

func (r *runner) perl(args []ir.Word) { r.bundled(args, "I", "MmxdDCFV", "l0") }

func (r *runner) ruby(args []ir.Word) { r.bundled(args, "rICXE", "FxKTW", "0") }

func (r *runner) php(args []ir.Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case oneOf(v, "-r -B -R -E --run --process-begin --process-code --process-end"):
			if i+1 < len(args) {
				i++
				r.add(args[i], v)
			}
		case len(v) > 2 && strings.HasPrefix(v, "-r"):
			r.add(attachedCode(a, v[2:]), "-r")
		case oneOf(v, "-c -d -z -t -S -F --rf --rc --re --rz --ri -A"):
			i++
		case v == "-f" || v == "--":
			if len(r.out) == 0 {
				r.scriptAt(args, i+1)
			}
			return
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			if len(r.out) == 0 {
				r.scriptAt(args, i)
			}
			return // a script file
		}
	}
	if len(r.out) == 0 {
		r.stdinCode()
	}
}

func (r *runner) awk(args []ir.Word) {
	var sources []ir.Word
	hasFile, inPlace := false, false
	i := 0
loop:
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case v == "--":
			i++
			break loop
		case len(v) < 2 || v[0] != '-':
			break loop
		case v == "-f" || v == "--file" || v == "-E" || v == "--exec":
			hasFile = true
			i++
			if i < len(args) {
				r.stdin = r.stdin || stdinFile(args[i])
			}
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--exec="):
			hasFile = true
			_, f, _ := strings.Cut(v, "=")
			r.stdin = r.stdin || stdinFile(Literal(f))
		case v == "-e" || v == "--source":
			if i+1 < len(args) {
				i++
				sources = append(sources, args[i])
			}
		case strings.HasPrefix(v, "--source="):
			sources = append(sources, attachedCode(a, v[len("--source="):]))
		case v == "-i" || v == "--include":
			if i+1 < len(args) {
				i++
				inPlace = inPlace || inplaceLib(args[i].Value)
			}
		case strings.HasPrefix(v, "--include="):
			inPlace = inPlace || inplaceLib(v[len("--include="):])
		case oneOf(v, "-F -v -l -W --load --field-separator --assign"):
			i++
		case strings.HasPrefix(v, "-f"):
			hasFile = true
			r.stdin = r.stdin || stdinFile(Literal(v[2:]))
		case strings.HasPrefix(v, "-i"):
			inPlace = inPlace || inplaceLib(v[2:])
		}
	}
	rest := args[min(i, len(args)):]
	codes := sources
	if len(sources) == 0 && !hasFile && len(rest) > 0 {
		codes = []ir.Word{rest[0]}
		rest = rest[1:]
	}
	if len(codes) == 0 {
		return
	}
	in := Inline{Lang: "awk", Via: r.c.Name, InPlace: inPlace}
	var parts []string
	for _, w := range codes {
		parts = append(parts, w.Value)
		in.Unknown = in.Unknown || w.Unknown
	}
	in.Code = strings.Join(parts, "\n")
	for _, w := range rest {
		if eq := strings.IndexByte(w.Value, '='); eq > 0 && awkVarName(w.Value[:eq]) {
			continue // var=value operand
		}
		in.Files = append(in.Files, w)
	}
	r.out = append(r.out, in)
}

// stdinFile reports a program file that is the standard input: "-" or
// /dev/stdin (awk -f - reads its program from the input).
func stdinFile(w ir.Word) bool {
	return !w.Unknown && (w.Value == "-" || w.Value == "/dev/stdin" || w.Value == "/dev/fd/0" || w.Value == "/proc/self/fd/0")
}

func inplaceLib(v string) bool { return v == "inplace" || v == "inplace.awk" }

func awkVarName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func (r *runner) osascript(args []ir.Word) {
	var codes []string
	unknown, script := false, false
	lang := "osascript"
loop:
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e":
			if i+1 < len(args) {
				i++
				codes = append(codes, args[i].Value)
				unknown = unknown || args[i].Unknown
			}
		case v == "-l":
			if i+1 < len(args) {
				i++
				if strings.EqualFold(args[i].Value, "JavaScript") {
					lang = "jxa"
				}
			}
		case v == "-s":
			i++
		case v == "-":
			break loop
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			script = true
			break loop
		}
	}
	r.lang = lang
	if len(codes) == 0 {
		if !script {
			r.stdinCode()
		}
		return
	}
	r.out = append(r.out, Inline{Lang: lang, Code: strings.Join(codes, "\n"), Via: r.c.Name + " -e", Unknown: unknown})
}

// codeOptions reads interpreters whose code comes with a repeated option
// (lua -e, Rscript -e, expect -c, julia -e/-E/--eval/--print: codeOpt,
// the options separated by spaces, the first naming the Via; the pieces
// joined by newlines; a long one also as --eval=CODE), a script file (the
// first operand, or fileOpt's value), or stdin when there is neither.
// valued lists the other options taking a value (lua -l); stop ends the
// options ("--args" for R). Cost: linear in the arguments.
func (r *runner) codeOptions(args []ir.Word, codeOpt, fileOpt, valued, stop string) {
	var codes []string
	unknown, script := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			script = true
		case v == stop:
			i = len(args)
		case v == "-":
			i = len(args)
		case codeOpt != "" && oneOf(v, codeOpt):
			if i+1 < len(args) {
				i++
				codes = append(codes, args[i].Value)
				unknown = unknown || args[i].Unknown
			}
			continue
		case codeOpt != "" && attachedOpt(v, codeOpt) != "":
			codes = append(codes, v[len(attachedOpt(v, codeOpt)):])
			unknown = unknown || a.Unknown
			continue
		case fileOpt != "" && (v == "-"+fileOpt || v == "--file") && i+1 < len(args):
			i++
			script = true
		case fileOpt != "" && strings.HasPrefix(v, "--file="):
			script = true
		case len(v) == 2 && v[0] == '-' && strings.IndexByte(valued, v[1]) >= 0:
			i++
		case strings.HasPrefix(v, "-"):
		default:
			script = true
		}
		if script {
			break
		}
	}
	if len(codes) > 0 {
		via, _, _ := strings.Cut(codeOpt, " ")
		r.out = append(r.out, Inline{Lang: r.lang, Code: strings.Join(codes, "\n"), Via: r.c.Name + " " + via, Unknown: unknown})
		return
	}
	if !script {
		r.stdinCode()
	}
}

// attachedOpt returns the option of opts (separated by spaces) that v
// starts with and carries a value glued to: "-eCODE" for -e,
// "--eval=CODE" for --eval (the "=" included in the result); "" if none.
func attachedOpt(v, opts string) string {
	for _, o := range strings.Fields(opts) {
		switch {
		case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
			return o + "="
		case !strings.HasPrefix(o, "--") && strings.HasPrefix(v, o) && len(v) > len(o) && !strings.HasPrefix(v, "--"):
			return o
		}
	}
	return ""
}

// elixirValued are the options of elixir and iex taking a value, and how
// many (--rpc-eval NODE CODE evaluates CODE on another node: it is read
// as code).
var elixirValued = map[string]int{
	"-r": 1, "-pr": 1, "-pa": 1, "-pz": 1, "--app": 1, "--erl": 1, "--logger-otp-reports": 1,
	"--logger-sasl-reports": 1, "--cookie": 1, "--name": 1, "--sname": 1, "--boot": 1, "--erl-config": 1,
	"--vm-args": 1, "--dot-iex": 1, "--remsh": 1, "--boot-var": 2, "--pipe-to": 2,
}

// elixir reads elixir and iex (-e/--eval CODE, repeatable; --rpc-eval
// NODE CODE; options stop at the script file, -S SCRIPT or --) and mix
// (only `mix run`, whose -e/--eval CODE or --eval=CODE come before the
// file). None reads its program from stdin here.
func (r *runner) elixir(args []ir.Word) {
	var codes []ir.Word
	via := "-e"
	if r.c.Name == "mix" {
		i := 0
		for i < len(args) && strings.HasPrefix(args[i].Value, "-") {
			i++
		}
		if i == len(args) || args[i].Value != "run" {
			return
		}
		via = "run -e"
		rest := args[i+1:]
		for j := 0; j < len(rest); j++ {
			v := rest[j].Value
			switch {
			case (v == "-e" || v == "--eval") && j+1 < len(rest):
				j++
				codes = append(codes, rest[j])
			case strings.HasPrefix(v, "--eval="):
				codes = append(codes, attachedCode(rest[j], v[len("--eval="):]))
			case oneOf(v, "-r --require -p --parallel -c --config --preload-modules"):
				j++
			case strings.HasPrefix(v, "-") && len(v) > 1:
			default:
				j = len(rest) // the script file
			}
		}
	} else {
	loop:
		for i := 0; i < len(args); i++ {
			v := args[i].Value
			switch {
			case (v == "-e" || v == "--eval") && i+1 < len(args):
				i++
				codes = append(codes, args[i])
			case v == "--rpc-eval" && i+2 < len(args):
				i += 2
				codes = append(codes, args[i])
			case elixirValued[v] > 0:
				i += elixirValued[v]
			case v == "-S" || v == "--" || !strings.HasPrefix(v, "-") || v == "-":
				break loop
			}
		}
	}
	r.addCodes(codes, via)
}

// addCodes adds the code pieces of one command as one Inline, joined by
// newlines; Via is the command name and via.
func (r *runner) addCodes(codes []ir.Word, via string) { r.addJoined(codes, via, "\n") }

// addJoined adds the code pieces of one command as one Inline, joined by
// sep; Via is the command name and via.
func (r *runner) addJoined(codes []ir.Word, via, sep string) {
	if len(codes) == 0 {
		return
	}
	in := Inline{Lang: r.lang, Via: r.c.Name + " " + via}
	var parts []string
	for _, w := range codes {
		parts = append(parts, w.Value)
		in.Unknown = in.Unknown || w.Unknown
	}
	in.Code = strings.Join(parts, sep)
	r.out = append(r.out, in)
}

// erl reads erl's -eval EXPR flags (repeatable, anywhere before -extra,
// which ends the flags: what follows are plain arguments). Other flags
// take any number of values (-pa DIR...), so every -eval is taken. erl
// does not read its program from stdin here (its shell reads
// expressions; not followed).
//
// erl -run MOD FUNC ARG... calls MOD:FUNC([ARG...]) with the arguments as
// strings; a call to a function taking a string or a file name reads that
// list as their concatenation (erl -run os cmd "make" runs make), so it
// is written as the code MOD:FUNC("ARG..."), Via "erl -run". (-s passes
// atoms, which those functions refuse.)
func (r *runner) erl(args []ir.Word) {
	var codes []ir.Word
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if v == "-extra" {
			break
		}
		switch {
		case v == "-eval" && i+1 < len(args):
			i++
			codes = append(codes, args[i])
		case v == "-run":
			j := i + 1
			for j < len(args) && !strings.HasPrefix(args[j].Value, "-") && !strings.HasPrefix(args[j].Value, "+") {
				j++
			}
			if j-i-1 >= 3 {
				r.erlRun(args[i+1 : j])
			}
			i = j - 1
		}
	}
	r.addCodes(codes, "-eval")
}

// erlRun adds erl -run MOD FUNC ARG... as the code MOD:FUNC("ARG...").
func (r *runner) erlRun(ws []ir.Word) {
	in := Inline{Lang: r.lang, Via: r.c.Name + " -run"}
	var b strings.Builder
	for _, w := range ws[2:] {
		in.Unknown = in.Unknown || w.Unknown
		b.WriteString(w.Value)
	}
	quoted := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(b.String())
	in.Unknown = in.Unknown || ws[0].Unknown || ws[1].Unknown
	in.Code = ws[0].Value + ":" + ws[1].Value + `("` + quoted + `")`
	r.out = append(r.out, in)
}

// groovy reads groovy -e SCRIPT; options taking a value are skipped and
// the first operand (the script file) ends the options. Groovy given no
// script does not read one from stdin.
func (r *runner) groovy(args []ir.Word) {
	var codes []ir.Word
loop:
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" && i+1 < len(args):
			i++
			codes = append(codes, args[i])
		case oneOf(v, "-c --encoding -cp -classpath --classpath -i -l -b --basescript --configscript --disableopt -D --define"):
			i++
		case v == "--" || !strings.HasPrefix(v, "-") || v == "-":
			break loop
		}
	}
	r.addCodes(codes, "-e")
}

// ghc reads ghc -e EXPR (repeatable; ghc takes files and options in any
// order) and runghc/runhaskell, which pass -e to ghc and end their
// options at the module to run (-f GHC takes a value). ghc does not read
// its program from stdin.
func (r *runner) ghc(args []ir.Word) {
	var codes []ir.Word
	run := r.c.Name != "ghc"
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-e" && i+1 < len(args):
			i++
			codes = append(codes, args[i])
		case run && v == "-f":
			i++
		case run && !strings.HasPrefix(v, "-"):
			i = len(args)
		}
	}
	r.addCodes(codes, "-e")
}

// crystal reads `crystal eval [options] [source...]`: the source is the
// operands joined by blanks, or stdin when there are none (-D FLAG and
// -O LEVEL take values). Other subcommands (build, run, spec, a file)
// carry no one-liner.
func (r *runner) crystal(args []ir.Word) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Value, "-") {
		i++
	}
	if i == len(args) || args[i].Value != "eval" {
		return
	}
	var codes []ir.Word
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		v := rest[j].Value
		switch {
		case len(codes) == 0 && oneOf(v, "-D --define -O"):
			j++
		case len(codes) == 0 && strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			codes = append(codes, rest[j])
		}
	}
	if len(codes) == 0 {
		r.stdinCode()
		return
	}
	r.addJoined(codes, "eval", " ")
}

// scala reads the snippets of scala and scala-cli: -e/--execute-script,
// --execute-scala and --execute-java CODE (a Java snippet, read by the
// same JVM family), anywhere before "--" (the program's arguments):
// scala-cli takes inputs and snippets together. Neither reads its program
// from stdin here.
func (r *runner) scala(args []ir.Word) {
	var codes []ir.Word
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			i = len(args)
		case oneOf(v, "-e --execute-script --execute-scala --execute-java") && i+1 < len(args):
			i++
			codes = append(codes, args[i])
		}
	}
	r.addCodes(codes, "-e")
}

// scriptExt reports a file name with the extension of a script bun runs
// (.js, .ts, .mjs, .cjs, .mts, .cts, .jsx, .tsx).
func scriptExt(v string) bool {
	for _, e := range [...]string{".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx"} {
		if strings.HasSuffix(v, e) {
			return true
		}
	}
	return false
}

// editEffects: perl / ruby -i[SUFFIX] rewrite the files after the
// program, its script file or its -e code (perl -pi -e CODE FILE...,
// ruby -i.bak -p script.rb FILE...), read by the switch scan
// InlineScripts uses. Cost: that of InlineScripts, plus one copy of args.
func editEffects(name string, args []ir.Word) []ir.Effect {
	c := ir.Command{Name: name, Args: make([]ir.Word, 0, len(args)+1)}
	c.Args = append(append(c.Args, Literal(name)), args...)
	r := scan(&c)
	if len(r.edits) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectWrite, Targets: r.edits}}
}
