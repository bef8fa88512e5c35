package analysis

import (
	"path"
	"regexp"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// moreTaskRunners are the task runners besides make (see tasks.go).
var moreTaskRunners = map[string]func(a *analyzer, c ctx, st *state, ex exec){
	"npm": (*analyzer).pkgScriptCmd, "yarn": (*analyzer).pkgScriptCmd, "pnpm": (*analyzer).pkgScriptCmd,
	"bun": (*analyzer).pkgScriptCmd, "composer": (*analyzer).composerCmd, "deno": (*analyzer).denoTaskCmd,
	"just": (*analyzer).justCmd, "task": (*analyzer).taskfileCmd, "go-task": (*analyzer).taskfileCmd,
}

// maxFindUp bounds how many directories a runner's task file is looked
// for in, from its directory up.
const maxFindUp = 32

// findUp returns the first of names found in dir or a directory above it,
// read (absolute path and text); the cwd's own directory first.
func (a *analyzer) findUp(dir string, names []string, idx int) (string, string, bool) {
	read := a.readFor(idx)
	for i := 0; i < maxFindUp; i++ {
		for _, n := range names {
			p := path.Join(dir, n)
			if _, err := a.opts.Files.Stat(p); err != nil {
				continue
			}
			if text, ok := read(p); ok {
				return p, text, true
			}
			return "", "", false // there but not readable: not judged
		}
		if dir == "/" || dir == "" {
			break
		}
		dir = path.Dir(dir)
	}
	return "", "", false
}

// npmRun is what a package manager's command runs: the scripts of the
// package.json, in order, and the arguments given to the main one.
type npmRun struct {
	scripts []string // names, pre/post included
	main    string   // the script the arguments go to
	args    []xword
}

// lifecycle events npm runs for the project itself on install.
var npmInstall = []string{"preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"}

// pkgScriptCmd: npm, yarn, pnpm and bun running package.json scripts —
// npm run/run-script X, npm test/start/stop/restart, yarn X, pnpm X, bun
// run X, with preX and postX — and the project's own install lifecycle
// (npm install/ci, yarn, pnpm install, bun install with no package named).
// The scripts run through sh in the package's directory (the nearest
// package.json at or above the working directory, or --prefix/-C/--cwd/
// --dir), with npm_package_name, npm_package_version,
// npm_package_config_*, npm_lifecycle_event and INIT_CWD set.
func (a *analyzer) pkgScriptCmd(c ctx, st *state, ex exec) {
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	cwd := dir
	ws := ex.words[1:]
	var rest []xword
	ignoreScripts := false
	for i := 0; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return
		}
		switch {
		case v == "--prefix" || v == "-C" || v == "--cwd" || v == "--dir":
			if i+1 >= len(ws) {
				return
			}
			d, ok := ws[i+1].lit()
			if !ok {
				return
			}
			dir = joinDir(dir, d)
			i++
		case strings.HasPrefix(v, "--prefix=") || strings.HasPrefix(v, "--cwd=") || strings.HasPrefix(v, "--dir="):
			_, d, _ := strings.Cut(v, "=")
			dir = joinDir(dir, d)
		case v == "-w" || v == "--workspace" || v == "--filter" || v == "-F" || strings.HasPrefix(v, "--workspace=") ||
			strings.HasPrefix(v, "--filter=") || v == "-r" || v == "--recursive" || v == "--workspaces" || v == "-ws":
			return // another package's scripts: not followed
		case v == "--ignore-scripts":
			ignoreScripts = true
		case strings.HasPrefix(v, "-") && len(rest) == 0:
		default:
			rest = append(rest, ws[i])
		}
	}
	pkgPath, text, ok := a.findUp(dir, []string{"package.json"}, ex.idx)
	if !ok {
		return
	}
	pkg, ok := ondisk.ParseScripts(text, "scripts")
	if !ok {
		return
	}
	run, ok := npmPlan(ex.name, rest, pkg)
	if !ok {
		return
	}
	if ignoreScripts {
		if run.main == "" {
			return
		}
		run.scripts = []string{run.main}
	}
	key := "pkg " + pkgPath + " " + strings.Join(run.scripts, ",")
	if !a.enter(key) {
		return
	}
	defer a.leave()
	env := map[string]ondisk.Text{
		"npm_package_name": ondisk.Known(pkg.Name), "npm_package_version": ondisk.Known(pkg.Version),
		"npm_package_json": ondisk.Known(pkgPath), "INIT_CWD": ondisk.Known(cwd),
	}
	for k, v := range pkg.Config {
		env["npm_package_config_"+k] = ondisk.Known(v)
	}
	pdir := path.Dir(pkgPath)
	for _, name := range run.scripts {
		s, ok := pkg.Scripts[name]
		if !ok || len(s.Commands) == 0 {
			continue
		}
		env["npm_lifecycle_event"] = ondisk.Known(name)
		rst := a.runnerState(st, ex, pdir, env)
		line := ondisk.Known(s.Commands[0])
		if name == run.main && len(run.args) > 0 {
			line = append(line, ondisk.Seg{Text: " "})
			line = append(line, a.quotedArgs(run.args)...)
		}
		a.taskLine(c, rst, ex, line, pkgPath, s.Line, ex.name+" run "+name)
	}
}

// quotedArgs renders arguments as shell words, single-quoted, unknown
// parts kept unknown.
func (a *analyzer) quotedArgs(ws []xword) ondisk.Text {
	var out ondisk.Text
	for i, w := range ws {
		if i > 0 {
			out = append(out, ondisk.Seg{Text: " "})
		}
		for _, p := range w.parts {
			if p.unknown {
				out = append(out, ondisk.Seg{Text: p.text, Unknown: true})
				continue
			}
			out = append(out, ondisk.Seg{Text: "'" + strings.ReplaceAll(p.text, "'", `'\''`) + "'"})
		}
	}
	return out
}

// npmBuiltins are package-manager subcommands that are no script name
// (yarn, pnpm and bun run a script by its name otherwise).
var npmBuiltins = map[string]bool{
	"add": true, "remove": true, "rm": true, "upgrade": true, "up": true, "update": true, "outdated": true,
	"why": true, "info": true, "view": true, "list": true, "ls": true, "link": true, "unlink": true,
	"publish": true, "pack": true, "init": true, "create": true, "dlx": true, "exec": true, "x": true,
	"config": true, "cache": true, "global": true, "bin": true, "audit": true, "login": true, "logout": true,
	"version": true, "help": true, "dedupe": true, "prune": true, "store": true, "patch": true, "import": true,
	"workspace": true, "workspaces": true, "set": true, "plugin": true, "node": true, "build": false,
	"pm": true, "upgrade-interactive": true, "licenses": true, "owner": true, "tag": true, "team": true,
}

// npmPlan says which scripts a package manager's command runs.
func npmPlan(tool string, rest []xword, pkg ondisk.ScriptFile) (npmRun, bool) {
	lit := func(i int) string {
		if i < len(rest) {
			v, _ := rest[i].lit()
			return v
		}
		return ""
	}
	named := func(name string, args []xword) npmRun {
		if len(args) > 0 {
			if v, _ := args[0].lit(); v == "--" {
				args = args[1:]
			}
		}
		return npmRun{scripts: []string{"pre" + name, name, "post" + name}, main: name, args: args}
	}
	install := func() (npmRun, bool) {
		for _, w := range rest[1:] {
			if v, _ := w.lit(); !strings.HasPrefix(v, "-") {
				return npmRun{}, false // packages named: their scripts, not the project's
			}
		}
		return npmRun{scripts: npmInstall}, true
	}
	sub := lit(0)
	if sub == "" {
		if tool == "yarn" {
			return npmRun{scripts: npmInstall}, true
		}
		return npmRun{}, false
	}
	switch sub {
	case "run", "run-script", "rum", "urn":
		name := lit(1)
		if name == "" {
			return npmRun{}, false
		}
		return named(name, rest[2:]), true
	case "test", "t", "tst":
		if tool == "bun" {
			return npmRun{}, false // bun's own test runner
		}
		return named("test", rest[1:]), true
	case "start", "stop":
		return named(sub, rest[1:]), true
	case "restart":
		if _, ok := pkg.Scripts["restart"]; ok {
			return named("restart", rest[1:]), true
		}
		return npmRun{scripts: []string{"prerestart", "prestop", "stop", "poststop", "prestart", "start", "poststart", "postrestart"}}, true
	case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "ci", "clean-install", "install-clean", "ic":
		return install()
	}
	if tool != "npm" && !npmBuiltins[sub] {
		if _, ok := pkg.Scripts[sub]; ok {
			return named(sub, rest[1:]), true
		}
	}
	return npmRun{}, false
}

// phpCallback is a composer script entry naming a PHP static method.
var phpCallback = regexp.MustCompile(`^\\?[A-Za-z_][A-Za-z0-9_]*(\\[A-Za-z_][A-Za-z0-9_]*)*::[A-Za-z_][A-Za-z0-9_]*$`)

// composerEvents are the script events composer install and update fire.
var composerEvents = map[string][]string{
	"install": {"pre-install-cmd", "pre-autoload-dump", "post-autoload-dump", "post-install-cmd"},
	"update":  {"pre-update-cmd", "pre-autoload-dump", "post-autoload-dump", "post-update-cmd"},
	"dump":    {"pre-autoload-dump", "post-autoload-dump"},
}

// composerCmd: composer run-script X, composer X (a script's name),
// composer install/update/dump-autoload and their events, from the
// composer.json of the working directory (-d/--working-dir). Entries
// "@other" run that script, "@php ..." and "@composer ..." run php and
// composer; PHP callbacks (Class::method) are not followed.
func (a *analyzer) composerCmd(c ctx, st *state, ex exec) {
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	var rest []xword
	ws := ex.words[1:]
	for i := 0; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return
		}
		switch {
		case v == "-d" || v == "--working-dir":
			if i+1 >= len(ws) {
				return
			}
			d, ok := ws[i+1].lit()
			if !ok {
				return
			}
			dir = joinDir(dir, d)
			i++
		case strings.HasPrefix(v, "--working-dir="):
			_, d, _ := strings.Cut(v, "=")
			dir = joinDir(dir, d)
		case v == "--no-scripts":
			return
		case strings.HasPrefix(v, "-") && len(rest) == 0:
		default:
			rest = append(rest, ws[i])
		}
	}
	if len(rest) == 0 {
		return
	}
	file := path.Join(dir, "composer.json")
	text, ok := a.readFor(ex.idx)(file)
	if !ok {
		return
	}
	sf, ok := ondisk.ParseScripts(text, "scripts")
	if !ok {
		return
	}
	sub, _ := rest[0].lit()
	var names []string
	var args []xword
	switch sub {
	case "run-script", "run":
		if len(rest) < 2 {
			return
		}
		n, _ := rest[1].lit()
		names, args = []string{n}, rest[2:]
	case "install", "i", "update", "u", "upgrade":
		ev := "install"
		if sub != "install" && sub != "i" {
			ev = "update"
		}
		names = composerEvents[ev]
	case "dump-autoload", "dumpautoload":
		names = composerEvents["dump"]
	default:
		if _, ok := sf.Scripts[sub]; !ok {
			return
		}
		names, args = []string{sub}, rest[1:]
	}
	if len(args) > 0 {
		if v, _ := args[0].lit(); v == "--" {
			args = args[1:]
		}
	}
	rst := a.runnerState(st, ex, dir, nil)
	for _, n := range names {
		a.composerScript(c, rst, ex, sf, file, n, args, 0)
	}
}

// composerScript runs one composer script's entries.
func (a *analyzer) composerScript(c ctx, st *state, ex exec, sf ondisk.ScriptFile, file, name string, args []xword, depth int) {
	s, ok := sf.Scripts[name]
	if !ok || depth > 8 || !a.enter("composer "+file+" "+name) {
		return
	}
	defer a.leave()
	for _, cmd := range s.Commands {
		cmd = strings.TrimSpace(cmd)
		switch {
		case phpCallback.MatchString(cmd):
			continue
		case strings.HasPrefix(cmd, "@php "):
			cmd = "php " + cmd[len("@php "):]
		case strings.HasPrefix(cmd, "@composer "):
			cmd = "composer " + cmd[len("@composer "):]
		case strings.HasPrefix(cmd, "@putenv "):
			continue
		case strings.HasPrefix(cmd, "@"):
			other, _, _ := strings.Cut(cmd[1:], " ")
			a.composerScript(c, st, ex, sf, file, other, nil, depth+1)
			continue
		}
		line := ondisk.Known(cmd)
		if len(args) > 0 {
			line = append(append(line, ondisk.Seg{Text: " "}), a.quotedArgs(args)...)
		}
		a.taskLine(c, st, ex, line, file, s.Line, "composer "+name)
	}
}

// denoTaskCmd: deno task X [ARGS] runs the task of deno.json(c) (the
// nearest at or above the working directory, or --config/-c FILE), its
// dependencies first, through deno's shell, in the config's directory.
func (a *analyzer) denoTaskCmd(c ctx, st *state, ex exec) {
	ws := ex.words[1:]
	i := 0
	for i < len(ws) {
		v, _ := ws[i].lit()
		if !strings.HasPrefix(v, "-") {
			break
		}
		i++
	}
	if i >= len(ws) {
		return
	}
	if v, _ := ws[i].lit(); v != "task" {
		return
	}
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	var config string
	var rest []xword
	for j := i + 1; j < len(ws); j++ {
		v, ok := ws[j].lit()
		if !ok {
			return
		}
		switch {
		case (v == "--config" || v == "-c" || v == "--cwd") && j+1 < len(ws) && len(rest) == 0:
			f, ok := ws[j+1].lit()
			if !ok {
				return
			}
			if v == "--cwd" {
				dir = joinDir(dir, f)
			} else {
				config = joinDir(dir, f)
			}
			j++
		case strings.HasPrefix(v, "-") && len(rest) == 0:
		default:
			rest = append(rest, ws[j])
		}
	}
	if len(rest) == 0 {
		return
	}
	name, _ := rest[0].lit()
	var file, text string
	if config != "" {
		if text, ok = a.readFor(ex.idx)(config); !ok {
			return
		}
		file = config
	} else if file, text, ok = a.findUp(dir, []string{"deno.json", "deno.jsonc"}, ex.idx); !ok {
		return
	}
	sf, ok := ondisk.ParseScripts(text, "tasks")
	if !ok {
		return
	}
	rst := a.runnerState(st, ex, path.Dir(file), nil)
	seen := map[string]bool{}
	var run func(n string, args []xword, depth int)
	run = func(n string, args []xword, depth int) {
		s, ok := sf.Scripts[n]
		if !ok || seen[n] || depth > 16 {
			return
		}
		seen[n] = true
		for _, d := range s.Deps {
			run(d, nil, depth+1)
		}
		for _, cmd := range s.Commands {
			line := ondisk.Known(cmd)
			if len(args) > 0 {
				line = append(append(line, ondisk.Seg{Text: " "}), a.quotedArgs(args)...)
			}
			a.taskLine(c, rst, ex, line, file, s.Line, "deno task "+n)
		}
	}
	run(name, rest[1:], 0)
}

// justListing are just's options that run no recipe.
var justListing = map[string]bool{
	"-l": true, "--list": true, "--summary": true, "-s": true, "--show": true, "--dump": true, "--evaluate": true,
	"--fmt": true, "--init": true, "--edit": true, "-e": true, "--variables": true, "--choose": true, "--groups": true,
	"--completions": true, "--man": true, "--version": true, "-V": true, "--help": true, "-h": true,
	"--dry-run": true, "-n": true, "--changelog": true,
}

// justCmd: just [options] [NAME=VALUE ...] [RECIPE [ARGS] ...] runs the
// recipes of the justfile (the nearest at or above the working directory,
// or -f/--justfile; recipes run in its directory, or -d), dependencies
// first (ondisk.Just).
func (a *analyzer) justCmd(c ctx, st *state, ex exec) {
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	cwd := dir
	var file, wd string
	var args []ondisk.Text
	ws := ex.words[1:]
	for i := 0; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if len(args) == 0 {
			if !ok {
				return
			}
			switch {
			case justListing[v]:
				return
			case v == "-f" || v == "--justfile" || v == "-d" || v == "--working-directory" || v == "--set" ||
				v == "--shell" || v == "--shell-arg" || v == "--dotenv-path" || v == "--dotenv-filename" || v == "--color":
				if i+1 >= len(ws) {
					return
				}
				val, ok := ws[i+1].lit()
				if !ok {
					return
				}
				switch v {
				case "-f", "--justfile":
					file = joinDir(dir, val)
				case "-d", "--working-directory":
					wd = joinDir(dir, val)
				}
				i++
				if v == "--set" {
					i++
				}
				continue
			case strings.HasPrefix(v, "-"):
				continue
			}
		}
		args = append(args, toTaskText(ws[i]))
	}
	var text string
	if file != "" {
		if text, ok = a.readFor(ex.idx)(file); !ok {
			return
		}
	} else if file, text, ok = a.findUp(dir, ondisk.JustNames, ex.idx); !ok {
		return
	}
	if wd == "" {
		wd = path.Dir(file)
	}
	if !a.enter("just " + file) {
		return
	}
	defer a.leave()
	mst := st.child(a, ex.env)
	lines := ondisk.Just(text, ondisk.JustOptions{File: file, Dir: wd, Cwd: cwd, Args: args, Env: a.envFunc(mst)})
	for _, l := range lines {
		rst := a.runnerState(st, ex, l.Dir, l.Exported)
		via := "just"
		if l.Recipe != "" {
			via = "just " + l.Recipe
		}
		a.taskLine(c, rst, ex, l.Text, file, l.Line, via)
	}
}

// taskfileCmd: task [options] [TASK ...] [VAR=value ...] [-- ARGS] runs the
// tasks of the Taskfile (the nearest at or above the working directory,
// or -t/--taskfile; -d/--dir), "default" when none is named
// (ondisk.Taskfile).
func (a *analyzer) taskfileCmd(c ctx, st *state, ex exec) {
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	opt := ondisk.TaskOptions{Cwd: dir, Vars: map[string]ondisk.Text{}}
	var file string
	ws := ex.words[1:]
	for i := 0; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return
		}
		switch {
		case v == "--":
			for k, w := range ws[i+1:] {
				if k > 0 {
					opt.CLIArgs = append(opt.CLIArgs, ondisk.Seg{Text: " "})
				}
				opt.CLIArgs = append(opt.CLIArgs, toTaskText(w)...)
			}
			i = len(ws)
		case v == "-l" || v == "--list" || v == "-a" || v == "--list-all" || v == "--summary" || v == "-n" ||
			v == "--dry" || v == "--init" || v == "-i" || v == "--version" || v == "-h" || v == "--help" || v == "--status":
			return
		case v == "-t" || v == "--taskfile" || v == "-d" || v == "--dir":
			if i+1 >= len(ws) {
				return
			}
			val, ok := ws[i+1].lit()
			if !ok {
				return
			}
			if v == "-t" || v == "--taskfile" {
				file = joinDir(dir, val)
			} else {
				dir = joinDir(dir, val)
			}
			i++
		case strings.HasPrefix(v, "-"):
		case strings.Contains(v, "="):
			k, val, _ := strings.Cut(v, "=")
			opt.Vars[k] = ondisk.Known(val)
		default:
			opt.Tasks = append(opt.Tasks, v)
		}
	}
	var text string
	if file != "" {
		if text, ok = a.readFor(ex.idx)(file); !ok {
			return
		}
	} else if file, text, ok = a.findUp(dir, ondisk.TaskfileNames, ex.idx); !ok {
		return
	}
	if !a.enter("task " + file) {
		return
	}
	defer a.leave()
	opt.File = file
	lines, _ := ondisk.Taskfile(text, opt)
	for _, l := range lines {
		rst := a.runnerState(st, ex, l.Dir, nil)
		a.taskLine(c, rst, ex, l.Text, file, l.Line, "task "+l.Recipe)
	}
}
