package analysis

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// Wrappers are commands that run another command given as their remaining
// arguments (sudo rm ..., nice -n 5 rm ...). Analyze strips them with their
// options so the Command is the inner one, and records them in Via.

// unwrap is the result of stripping one wrapper.
type unwrap struct {
	rest    []xword     // the inner argv; empty: not used as a wrapper here
	assigns []ir.Assign // NAME=value the wrapper sets (env, sudo)
	cd      []ir.Word   // directory the wrapper changes to (env -C, sudo -D)
	via     string      // Via label; "" means the wrapper's name
}

type wrapper struct {
	posix bool // a shell builtin: only in the Bash dialect, same process
	strip func(a *analyzer, ws []xword) unwrap
}

// optSpec describes a getopt-style option syntax.
type optSpec struct {
	vals     string   // short options that take a value (-u root, -uroot)
	longVals []string // long options that take a value when not given with =
}

// opt is one option seen while skipping options.
type opt struct {
	name string // "u" or "user" (without dashes)
	val  *xword // its value, nil for flags
}

// skipOpts parses options from ws[start:] and returns the index of the
// first operand. An unknown word, "-" or a word not starting with "-"
// ends the options; "--" is consumed.
func skipOpts(ws []xword, start int, spec optSpec) (int, []opt) {
	var opts []opt
	i := start
	for i < len(ws) {
		v, ok := ws[i].lit()
		if !ok || len(v) < 2 || v[0] != '-' {
			return i, opts
		}
		if v == "--" {
			return i + 1, opts
		}
		if strings.HasPrefix(v, "--") {
			name, val, eq := strings.Cut(v[2:], "=")
			switch {
			case eq:
				w := knownWord(val, val)
				opts = append(opts, opt{name: name, val: &w})
			case slices.Contains(spec.longVals, name) && i+1 < len(ws):
				i++
				opts = append(opts, opt{name: name, val: &ws[i]})
			default:
				opts = append(opts, opt{name: name})
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			ch := v[j]
			if strings.IndexByte(spec.vals, ch) < 0 {
				opts = append(opts, opt{name: string(ch)})
				continue
			}
			if j+1 < len(v) {
				w := knownWord(v[j+1:], v[j+1:])
				opts = append(opts, opt{name: string(ch), val: &w})
			} else if i+1 < len(ws) {
				i++
				opts = append(opts, opt{name: string(ch), val: &ws[i]})
			}
			break
		}
		i++
	}
	return i, opts
}

func hasOpt(opts []opt, names ...string) bool {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return true
		}
	}
	return false
}

func optVal(opts []opt, names ...string) *xword {
	var last *xword
	for _, o := range opts {
		if o.val != nil && slices.Contains(names, o.name) {
			last = o.val
		}
	}
	return last
}

// simpleWrapper strips options by spec; noRun options mean the wrapper does
// not run a command (sudo -l, command -v).
func simpleWrapper(spec optSpec, noRun ...string) func(*analyzer, []xword) unwrap {
	return func(_ *analyzer, ws []xword) unwrap {
		i, opts := skipOpts(ws, 1, spec)
		if hasOpt(opts, noRun...) {
			return unwrap{}
		}
		return unwrap{rest: ws[i:]}
	}
}

// thenOperands strips options, then n operands (timeout's DURATION,
// chroot's NEWROOT), then runs the rest.
func thenOperands(spec optSpec, n int, noRun ...string) func(*analyzer, []xword) unwrap {
	return func(_ *analyzer, ws []xword) unwrap {
		i, opts := skipOpts(ws, 1, spec)
		if hasOpt(opts, noRun...) || i+n > len(ws) {
			return unwrap{}
		}
		return unwrap{rest: ws[i+n:]}
	}
}

// leadingAssigns takes NAME=value words off the front of ws.
func leadingAssigns(ws []xword) ([]ir.Assign, []xword) {
	var out []ir.Assign
	for len(ws) > 0 {
		v := ws[0].value()
		eq := strings.IndexByte(v, '=')
		if eq <= 0 || !isName(v[:eq]) || !partsKnownPrefix(ws[0], eq+1) {
			break
		}
		val := ws[0]
		val.parts = trimPartsPrefix(val.parts, eq+1)
		out = append(out, ir.Assign{Name: v[:eq], Value: val.word()})
		ws = ws[1:]
	}
	return out, ws
}

// partsKnownPrefix reports whether the first n bytes of w are known text.
func partsKnownPrefix(w xword, n int) bool {
	for _, p := range w.parts {
		if p.unknown {
			return false
		}
		if len(p.text) >= n {
			return true
		}
		n -= len(p.text)
	}
	return n == 0
}

func trimPartsPrefix(ps []part, n int) []part {
	out := make([]part, 0, len(ps))
	for _, p := range ps {
		if n > 0 {
			if len(p.text) <= n {
				n -= len(p.text)
				continue
			}
			p.text = p.text[n:]
			n = 0
		}
		out = append(out, p)
	}
	return out
}

// sudoSpec: -h takes a host (sudo -h HOST CMD); plain sudo -h is help and
// runs nothing, which an empty rest already means.
var sudoSpec = optSpec{
	vals: "aCcDghpRrTtUu",
	longVals: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type",
		"other-user", "command-timeout", "chroot", "host", "login-class", "auth-type"},
}

func stripSudo(_ *analyzer, ws []xword) unwrap {
	i, opts := skipOpts(ws, 1, sudoSpec)
	if hasOpt(opts, "e", "edit", "l", "list", "v", "validate", "V", "version", "help", "K", "remove-timestamp") {
		return unwrap{}
	}
	assigns, rest := leadingAssigns(ws[i:])
	u := unwrap{rest: rest, assigns: assigns}
	if d := optVal(opts, "D", "chdir"); d != nil {
		u.cd = append(u.cd, d.word())
	}
	return u
}

var envSpec = optSpec{
	vals:     "uCSP",
	longVals: []string{"unset", "chdir", "split-string"},
}

// stripEnv handles env [-i] [-u NAME] [-C DIR] [-S STRING] [NAME=value]...
// COMMAND. The -S string is split into words and analysed as argv.
func stripEnv(a *analyzer, ws []xword) unwrap {
	var u unwrap
	i := 1
	var split []xword
	for {
		j, opts := skipOpts(ws, i, envSpec)
		for _, o := range opts {
			switch o.name {
			case "C", "chdir":
				if o.val != nil {
					u.cd = append(u.cd, o.val.word())
				}
			case "S", "split-string":
				if o.val != nil {
					split = append(split, a.splitWords(*o.val)...)
				}
			}
		}
		i = j
		if i < len(ws) {
			if v, ok := ws[i].lit(); ok && v == "-" {
				i++
				continue
			}
		}
		break
	}
	assigns, rest := leadingAssigns(ws[i:])
	u.assigns = assigns
	if len(split) > 0 {
		// The split string may itself start with NAME=value words.
		more, srest := leadingAssigns(split)
		u.assigns = append(u.assigns, more...)
		rest = append(slices.Clip(srest), rest...)
	}
	u.rest = rest
	return u
}

func stripNohup(_ *analyzer, ws []xword) unwrap {
	i := 1
	if i < len(ws) {
		if v, ok := ws[i].lit(); ok && v == "--" {
			i++
		}
	}
	return unwrap{rest: ws[i:]}
}

// stripFlock handles flock [opts] FILE COMMAND...; the -c form runs a shell
// string and is handled as a nested script.
func stripFlock(_ *analyzer, ws []xword) unwrap {
	i, opts := skipOpts(ws, 1, flockSpec)
	if hasOpt(opts, "c", "command") || i+1 >= len(ws) {
		return unwrap{}
	}
	if v, ok := ws[i+1].lit(); ok && (v == "-c" || v == "--command" || strings.HasPrefix(v, "--command=")) {
		return unwrap{}
	}
	return unwrap{rest: ws[i+1:]}
}

var flockSpec = optSpec{vals: "wEc", longVals: []string{"timeout", "wait", "conflict-exit-code", "command"}}

// stripRunuser handles runuser -u USER [--] COMMAND...
func stripRunuser(_ *analyzer, ws []xword) unwrap {
	i, opts := skipOpts(ws, 1, optSpec{vals: "ugGcsw", longVals: []string{"user", "group", "supp-group", "command", "shell", "whitelist-environment"}})
	if !hasOpt(opts, "u", "user") || hasOpt(opts, "c", "command") {
		return unwrap{}
	}
	return unwrap{rest: ws[i:]}
}

// stripWslExec handles wsl [opts] -e|--exec COMMAND...; other forms run a
// shell command line (see the wsl handler).
func stripWslExec(_ *analyzer, ws []xword) unwrap {
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return unwrap{}
		}
		switch strings.ToLower(v) {
		case "-e", "--exec":
			return unwrap{rest: ws[i+1:], via: "wsl -e"}
		case "-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id":
			i++
		case "--system":
		default:
			return unwrap{}
		}
	}
	return unwrap{}
}

func stripBusybox(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 2 {
		return unwrap{}
	}
	if v, ok := ws[1].lit(); !ok || strings.HasPrefix(v, "-") {
		return unwrap{}
	}
	return unwrap{rest: ws[1:]}
}

// stripWatchExec handles watch -x (argv, no shell); the default form runs
// its arguments through sh -c (see the watch handler).
func stripWatchExec(_ *analyzer, ws []xword) unwrap {
	i, opts := skipOpts(ws, 1, watchSpec)
	if !hasOpt(opts, "x", "exec") {
		return unwrap{}
	}
	return unwrap{rest: ws[i:], via: "watch -x"}
}

var watchSpec = optSpec{vals: "nq", longVals: []string{"interval", "equexit"}}

// stripTaskset handles taskset [-a] [-c] MASK|LIST COMMAND (-p: no command).
func stripTaskset(_ *analyzer, ws []xword) unwrap {
	i, opts := skipOpts(ws, 1, optSpec{})
	if hasOpt(opts, "p", "pid") || i+1 >= len(ws) {
		return unwrap{}
	}
	return unwrap{rest: ws[i+1:]}
}

// subRunner strips a tool's run subcommand, which runs its operands as a
// command inside the tool's environment (poetry run, uv run, bundle exec,
// conda run -n ENV, direnv exec DIR): ws[1] must be one of subs, then
// options by spec, then n operands, then the command. A subcommand not in
// subs (poetry install) runs nothing. The Via label is "NAME SUB".
func subRunner(subs []string, spec optSpec, n int) func(*analyzer, []xword) unwrap {
	return func(_ *analyzer, ws []xword) unwrap {
		if len(ws) < 2 {
			return unwrap{}
		}
		sub, ok := ws[1].lit()
		if !ok || !slices.Contains(subs, sub) {
			return unwrap{}
		}
		i, _ := skipOpts(ws, 2, spec)
		if i+n >= len(ws) {
			return unwrap{}
		}
		return unwrap{rest: ws[i+n:], via: nameOf(ws[0]) + " " + sub}
	}
}

// afterDashDash strips a runner whose command follows the first "--"
// after one of subs (mise exec node@20 -- CMD, nix develop -c CMD with
// marks {"-c", "--command"}, doppler run -- CMD): the words before the
// mark are the runner's own (tool specs, installables, options). With no
// mark the call runs no command this layer can name.
func afterDashDash(subs []string, marks ...string) func(*analyzer, []xword) unwrap {
	if len(marks) == 0 {
		marks = []string{"--"}
	}
	return func(_ *analyzer, ws []xword) unwrap {
		if len(ws) < 3 {
			return unwrap{}
		}
		sub, ok := ws[1].lit()
		if !ok || !slices.Contains(subs, sub) {
			return unwrap{}
		}
		for i := 2; i+1 < len(ws); i++ {
			if v, ok := ws[i].lit(); ok && slices.Contains(marks, v) {
				return unwrap{rest: ws[i+1:], via: nameOf(ws[0]) + " " + sub}
			}
		}
		return unwrap{}
	}
}

// Options of the run subcommands that take a value (the ones that end the
// option list are left out: they only cost a missed command, never a
// false alarm).
var (
	uvRunSpec    = optSpec{vals: "pw", longVals: []string{"with", "python", "project", "directory", "package", "extra", "group", "env-file", "index", "index-url", "extra-index-url", "with-requirements", "with-editable", "config-file", "cache-dir", "find-links", "only-group", "no-group"}}
	poetryRunDir = optSpec{vals: "CP", longVals: []string{"directory", "project"}}
	condaRunSpec = optSpec{vals: "np", longVals: []string{"name", "prefix", "cwd"}}
	pdmRunSpec   = optSpec{vals: "p", longVals: []string{"project"}}
)

var wrappers map[string]wrapper

func init() {
	wrappers = map[string]wrapper{
		"sudo":         {strip: stripSudo},
		"doas":         {strip: simpleWrapper(optSpec{vals: "aCu"}, "C")},
		"pkexec":       {strip: simpleWrapper(optSpec{longVals: []string{"user"}})},
		"env":          {strip: stripEnv},
		"nice":         {strip: simpleWrapper(optSpec{vals: "n", longVals: []string{"adjustment"}})},
		"ionice":       {strip: simpleWrapper(optSpec{vals: "cnpPu", longVals: []string{"class", "classdata", "pid", "pgid", "uid"}}, "p", "P", "u", "pid", "pgid", "uid")},
		"timeout":      {strip: thenOperands(optSpec{vals: "ks", longVals: []string{"kill-after", "signal"}}, 1)},
		"stdbuf":       {strip: simpleWrapper(optSpec{vals: "ioe", longVals: []string{"input", "output", "error"}})},
		"nohup":        {strip: stripNohup},
		"time":         {strip: simpleWrapper(optSpec{vals: "fo", longVals: []string{"format", "output"}})},
		"command":      {posix: true, strip: simpleWrapper(optSpec{}, "v", "V")},
		"builtin":      {posix: true, strip: simpleWrapper(optSpec{})},
		"exec":         {posix: true, strip: simpleWrapper(optSpec{vals: "a"})},
		"nocorrect":    {posix: true, strip: simpleWrapper(optSpec{})},
		"noglob":       {posix: true, strip: simpleWrapper(optSpec{})},
		"strace":       {strip: simpleWrapper(optSpec{vals: "abeEIoOpPsSuUX", longVals: []string{"output", "trace", "signal", "status", "abbrev", "verbose", "raw", "read", "write", "fault", "inject", "string-limit", "attach", "user", "env", "trace-path", "summary-columns", "summary-sort-by", "sort-by", "columns", "decode-fds", "decode-pids", "const-print-style", "detach-on", "argv0", "quiet", "silence"}})},
		"ltrace":       {strip: simpleWrapper(optSpec{vals: "aADeEFlnopsuwx", longVals: []string{"align", "indent", "library", "output", "config"}})},
		"valgrind":     {strip: simpleWrapper(optSpec{})},
		"setsid":       {strip: simpleWrapper(optSpec{})},
		"chroot":       {strip: thenOperands(optSpec{longVals: []string{"userspec", "groups"}}, 1)},
		"flock":        {strip: stripFlock},
		"unbuffer":     {strip: simpleWrapper(optSpec{})},
		"caffeinate":   {strip: simpleWrapper(optSpec{vals: "tw"})},
		"runuser":      {strip: stripRunuser},
		"wsl":          {strip: stripWslExec},
		"busybox":      {strip: stripBusybox},
		"watch":        {strip: stripWatchExec},
		"taskset":      {strip: stripTaskset},
		"chrt":         {strip: thenOperands(optSpec{vals: "TPD", longVals: []string{"sched-runtime", "sched-period", "sched-deadline"}}, 1, "p", "pid")},
		"gosu":         {strip: thenOperands(optSpec{}, 1)},
		"su-exec":      {strip: thenOperands(optSpec{}, 1)},
		"nsenter":      {strip: simpleWrapper(optSpec{vals: "tSGrw", longVals: []string{"target"}})},
		"unshare":      {strip: simpleWrapper(optSpec{})},
		"firejail":     {strip: simpleWrapper(optSpec{})},
		"proxychains":  {strip: simpleWrapper(optSpec{vals: "f"})},
		"proxychains4": {strip: simpleWrapper(optSpec{vals: "f"})},
		"systemd-run":  {strip: simpleWrapper(optSpec{vals: "pEuMH", longVals: []string{"property", "setenv", "unit", "machine", "host", "uid", "gid", "nice", "working-directory", "description", "slice"}})},
		// Multi-call binaries and environment wrappers.
		"toybox":           {strip: stripBusybox},
		"xvfb-run":         {strip: simpleWrapper(optSpec{vals: "efnpsw", longVals: []string{"error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"}}, "h", "help")},
		"fakeroot":         {strip: simpleWrapper(optSpec{vals: "lsib", longVals: []string{"lib", "faked"}}, "h", "v", "help", "version")},
		"proot":            {strip: simpleWrapper(optSpec{vals: "rbmwqk", longVals: []string{"rootfs", "bind", "mount", "cwd", "pwd", "qemu", "kernel-release"}}, "h", "V", "help", "version")},
		"catchsegv":        {strip: simpleWrapper(optSpec{})},
		"dbus-run-session": {strip: simpleWrapper(optSpec{}, "h", "help", "version")},
		"dbus-launch":      {strip: simpleWrapper(optSpec{}, "version")},
		"entr":             {strip: simpleWrapper(optSpec{}, "s")},
		// Project and environment runners: CMD runs with the tool's
		// environment (virtualenv, bundle, nix shell, secrets).
		"poetry":     {strip: subRunner([]string{"run"}, poetryRunDir, 0)},
		"pipenv":     {strip: subRunner([]string{"run"}, optSpec{}, 0)},
		"pdm":        {strip: subRunner([]string{"run"}, pdmRunSpec, 0)},
		"rye":        {strip: subRunner([]string{"run"}, optSpec{}, 0)},
		"hatch":      {strip: subRunner([]string{"run"}, optSpec{}, 0)},
		"pixi":       {strip: subRunner([]string{"run", "exec"}, optSpec{vals: "e", longVals: []string{"environment", "manifest-path"}}, 0)},
		"bundle":     {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"devbox":     {strip: subRunner([]string{"run"}, optSpec{vals: "c", longVals: []string{"config", "environment"}}, 0)},
		"asdf":       {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"conda":      {strip: subRunner([]string{"run"}, condaRunSpec, 0)},
		"mamba":      {strip: subRunner([]string{"run"}, condaRunSpec, 0)},
		"micromamba": {strip: subRunner([]string{"run"}, condaRunSpec, 0)},
		"direnv":     {strip: subRunner([]string{"exec"}, optSpec{}, 1)},
		"mise":       {strip: afterDashDash([]string{"exec", "x"})},
		"rtx":        {strip: afterDashDash([]string{"exec", "x"})},
		"nix":        {strip: stripNix},
		"doppler":    {strip: afterDashDash([]string{"run"})},
		"op":         {strip: afterDashDash([]string{"run"})},
		"infisical":  {strip: afterDashDash([]string{"run"})},
		"dotenvx":    {strip: afterDashDash([]string{"run"})},
		"aws-vault":  {strip: afterDashDash([]string{"exec"})},
		// Toolchain and version managers: CMD runs with the chosen
		// toolchain on PATH (stack exec -- CMD, opam exec -- CMD,
		// rbenv exec CMD, volta run CMD).
		"stack":  {strip: subRunner([]string{"exec"}, optSpec{longVals: []string{"package", "rts-options", "cwd", "stack-yaml", "resolver", "compiler"}}, 0)},
		"cabal":  {strip: subRunner([]string{"exec"}, optSpec{longVals: []string{"project-file", "builddir", "with-compiler"}}, 0)},
		"opam":   {strip: subRunner([]string{"exec"}, optSpec{longVals: []string{"switch", "root"}}, 0)},
		"rbenv":  {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"pyenv":  {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"nodenv": {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"goenv":  {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"jenv":   {strip: subRunner([]string{"exec"}, optSpec{}, 0)},
		"volta":  {strip: subRunner([]string{"run"}, optSpec{longVals: []string{"node", "npm", "pnpm", "yarn"}}, 0)},
		"fnm":    {strip: subRunner([]string{"exec"}, optSpec{longVals: []string{"using"}}, 0)},
	}
	addMoreWrappers()
}

// splitWords splits a string into argv the way env -S does: blanks
// separate, quotes group. Unknown parts stay unknown.
func (a *analyzer) splitWords(w xword) []xword {
	text, known := a.joinText([]xword{w}, false)
	if !known {
		return []xword{w}
	}
	var out []xword
	f, err := a.parse(text)
	if err == nil && len(f.Stmts) == 1 {
		if call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(f.Stmts[0].Redirs) == 0 && len(call.Assigns) == 0 {
			st := newState()
			for _, arg := range call.Args {
				out = append(out, a.fields(st, text, arg)...)
			}
			return out
		}
	}
	for _, f := range strings.Fields(text) {
		var b fieldBuilder
		a.addText(&b, f)
		out = append(out, b.single(f))
	}
	return out
}
