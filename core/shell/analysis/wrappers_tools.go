package analysis

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// More "run this program" wrappers: tool runners (uvx, uv tool run, pipx
// run, bun x), profilers and tracers (perf, heaptrack, rr, dtruss),
// resource and placement controls (numactl, prlimit, cpulimit, trickle,
// setarch, macOS's arch, run0, setpriv, chpst, s6-setuidgid, faketime, daemonize, nq),
// network redirectors (torsocks, sshpass), sandboxes and host bridges
// (bwrap, nsjail, sandbox-exec, flatpak-spawn --host, distrobox enter and
// toolbox run, which share the home directory), and moreutils' chronic,
// ifne and lckdo, eatmydata, ssh-agent CMD. Each runs its operands as a command: the
// analysis strips it like sudo or nice, records it in Via, and every
// layer judges the command it runs.

var (
	// uvxSpec: uvx / uv tool run options that take a value.
	uvxSpec = optSpec{vals: "pw", longVals: []string{"from", "with", "with-editable", "with-requirements", "python",
		"index", "index-url", "extra-index-url", "default-index", "find-links", "constraints", "overrides",
		"config-file", "cache-dir", "directory", "project", "env-file", "build-constraints", "exclude-newer",
		"index-strategy", "keyring-provider", "resolution", "prerelease", "refresh-package", "reinstall-package",
		"upgrade-package", "python-platform", "python-preference", "color", "allow-insecure-host"}}
	// pipxRunSpec: pipx run options that take a value.
	pipxRunSpec = optSpec{longVals: []string{"spec", "python", "index-url", "pip-args", "backend"}}
	// perfSpec: perf record / stat / trace options that take a value.
	perfSpec = optSpec{vals: "eoptcFrxGICmuDL", longVals: []string{"event", "output", "pid", "tid", "count", "freq",
		"repeat", "field-separator", "cgroup", "cpu", "call-graph", "mmap-pages", "uid", "delay", "filter",
		"interval-print", "post", "pre", "switch-output", "user-regs", "intr-regs", "clockid", "aux-sample", "metrics"}}
)

// moreWrappers are added to wrappers by its init.
func moreWrappers() map[string]wrapper {
	return map[string]wrapper{
		"lvm":             {strip: stripLvm},
		"cmake":           {strip: stripCmakeE},
		"uvx":             {strip: simpleWrapper(uvxSpec, "h", "help", "V", "version")},
		"uv":              {strip: stripUv},
		"pipx":            {strip: subRunner([]string{"run"}, pipxRunSpec, 0)},
		"bun":             {strip: subRunner([]string{"x"}, optSpec{}, 0)},
		"perf":            {strip: subRunner([]string{"record", "stat", "trace"}, perfSpec, 0)},
		"heaptrack":       {strip: simpleWrapper(optSpec{vals: "op", longVals: []string{"output", "pid", "analyze"}}, "p", "pid", "a", "analyze", "h", "help", "v", "version")},
		"rr":              {strip: subRunner([]string{"record"}, optSpec{vals: "bcehnoptuw", longVals: []string{"output-trace-dir", "env", "bind-to-cpu", "chaos", "num-cpu-ticks", "ignore-nested", "syscall-buffer-size", "tracee-proc-name"}}, 0)},
		"dtruss":          {strip: simpleWrapper(optSpec{vals: "bnpt"}, "p", "n")},
		"numactl":         {strip: simpleWrapper(optSpec{vals: "CNmpiw", longVals: []string{"cpunodebind", "membind", "physcpubind", "preferred", "interleave", "weighted-interleave"}}, "s", "show", "H", "hardware")},
		"prlimit":         {strip: simpleWrapper(optSpec{vals: "o", longVals: []string{"output"}}, "p", "pid", "h", "help", "V", "version")},
		"cpulimit":        {strip: simpleWrapper(optSpec{vals: "lpe", longVals: []string{"limit", "pid", "exe", "cpu"}}, "p", "pid", "e", "exe", "P", "path")},
		"trickle":         {strip: simpleWrapper(optSpec{vals: "udwtlnL"})},
		"setarch":         {strip: stripSetarch},
		"linux32":         {strip: simpleWrapper(optSpec{})},
		"linux64":         {strip: simpleWrapper(optSpec{})},
		"run0":            {strip: simpleWrapper(optSpec{vals: "uDg", longVals: []string{"user", "group", "chdir", "setenv", "unit", "property", "description", "slice", "nice", "machine", "background"}}, "h", "help", "version")},
		"setpriv":         {strip: simpleWrapper(optSpec{longVals: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "pdeathsig", "ptracer"}}, "d", "dump", "h", "help", "V", "version")},
		"chpst":           {strip: simpleWrapper(optSpec{vals: "uUbe/nlLmdofpcrt"})},
		"s6-setuidgid":    {strip: thenOperands(optSpec{}, 1)},
		"faketime":        {strip: thenOperands(optSpec{vals: "p"}, 1, "h", "help", "v", "version")},
		"daemonize":       {strip: simpleWrapper(optSpec{vals: "ceopluE"})},
		"nq":              {strip: simpleWrapper(optSpec{vals: "w"})},
		"torsocks":        {strip: simpleWrapper(optSpec{vals: "uaPp", longVals: []string{"user", "pass", "address", "port"}}, "h", "help", "shell", "i", "isolate")},
		"tsocks":          {strip: simpleWrapper(optSpec{})},
		"sshpass":         {strip: simpleWrapper(optSpec{vals: "pfdP"}, "h", "V")},
		"bwrap":           {strip: stripBwrap},
		"nsjail":          {strip: stripAfterMark},
		"watchexec":       {strip: stripAfterMark},
		"sandbox-exec":    {strip: simpleWrapper(optSpec{vals: "fpD"})},
		"eatmydata":       {strip: simpleWrapper(optSpec{})},
		"arch":            {strip: stripArch},
		"flatpak-spawn":   {strip: simpleWrapper(optSpec{longVals: []string{"directory", "env", "forward-fd", "sandbox-expose", "sandbox-expose-ro", "sandbox-expose-path", "sandbox-expose-path-ro", "sandbox-flag", "app-path", "usr-path"}}, "h", "help")},
		"distrobox":       {strip: afterDashDash([]string{"enter"})},
		"distrobox-enter": {strip: stripAfterMark},
		"toolbox":         {strip: subRunner([]string{"run"}, optSpec{vals: "cdr", longVals: []string{"container", "distro", "release"}}, 0)},
		"chronic":         {strip: simpleWrapper(optSpec{})},
		"ifne":            {strip: simpleWrapper(optSpec{})},
		"lckdo":           {strip: thenOperands(optSpec{}, 1)},
		"ssh-agent":       {strip: simpleWrapper(optSpec{vals: "aEPtO"}, "k")},
		// Job launchers (cmdfacts/executors_launchers.go): the program runs here
		// or on nodes sharing this file system.
		"mpirun":  {strip: stripMPI},
		"mpiexec": {strip: stripMPI},
		"orterun": {strip: stripMPI},
		"srun":    {strip: simpleWrapper(slurmSpec, "h", "help", "usage", "V", "version", "test-only")},
		"salloc":  {strip: simpleWrapper(slurmSpec, "h", "help", "usage", "V", "version", "test-only")},
		// machinectl shell .host PATH ARGS runs PATH here (another machine
		// is a container: the danger layer's remote runners).
		"machinectl": {strip: stripMachinectl},
		// Multi-call coreutils (uutils: coreutils rm ...; GNU's single
		// binary: coreutils --coreutils-prog=rm ...).
		"coreutils": {strip: stripCoreutils},
	}
}

// slurmSpec: srun's and salloc's options that take a value.
var slurmSpec = optSpec{vals: cmdfacts.SlurmShortValued, longVals: cmdfacts.SlurmLongValued}

// argWords returns the shell.Words of ws (for the cmdfacts parsers).
func argWords(ws []xword) []ir.Word {
	out := make([]ir.Word, len(ws))
	for i, w := range ws {
		out[i] = w.word()
	}
	return out
}

// stripNix handles nix develop / shell INSTALLABLES -c CMD and nix run
// INSTALLABLE [--] ARGS, which runs the installable's program
// (cmdfacts.ParseNixCommand): the program name is put before ARGS.
func stripNix(_ *analyzer, ws []xword) unwrap {
	n, ok := cmdfacts.ParseNixCommand(argWords(ws[1:]))
	if !ok {
		return unwrap{}
	}
	rest := ws[1+n.From:]
	if n.Program != "" {
		rest = append([]xword{knownWord(n.Program, n.Program)}, rest...)
	} else if len(rest) == 0 {
		return unwrap{}
	}
	return unwrap{rest: rest, via: "nix " + n.Sub}
}

// stripMPI handles mpirun / mpiexec [OPTIONS] PROGRAM ARGS
// (cmdfacts.MPIProgram); only the first application context is named.
func stripMPI(_ *analyzer, ws []xword) unwrap {
	i, ok := cmdfacts.MPIProgram(argWords(ws[1:]))
	if !ok {
		return unwrap{}
	}
	return unwrap{rest: ws[1+i:]}
}

// stripMachinectl handles machinectl shell [USER@].host PATH ARGS (or no
// machine name): PATH runs on this host (cmdfacts.MachineShell).
func stripMachinectl(_ *analyzer, ws []xword) unwrap {
	m, ok := cmdfacts.MachineShell(argWords(ws[1:]))
	if !ok || !m.Host || 1+m.Cmd >= len(ws) {
		return unwrap{}
	}
	return unwrap{rest: ws[1+m.Cmd:], via: "machinectl shell"}
}

// stripCoreutils handles a multi-call coreutils binary: coreutils NAME
// ARGS (uutils) and coreutils --coreutils-prog=NAME ARGS (GNU).
func stripCoreutils(a *analyzer, ws []xword) unwrap {
	if len(ws) > 1 {
		if v, ok := ws[1].lit(); ok && strings.HasPrefix(v, "--coreutils-prog=") {
			name := strings.TrimPrefix(v, "--coreutils-prog=")
			if name == "" {
				return unwrap{}
			}
			return unwrap{rest: append([]xword{knownWord(name, name)}, ws[2:]...)}
		}
	}
	return stripBusybox(a, ws)
}

// stripUv handles uv run (see uvRunSpec) and uv tool run (uvx).
func stripUv(a *analyzer, ws []xword) unwrap {
	if len(ws) > 2 {
		if sub, ok := ws[1].lit(); ok && sub == "tool" {
			if run, ok := ws[2].lit(); ok && run == "run" {
				i, _ := skipOpts(ws, 3, uvxSpec)
				return unwrap{rest: ws[i:], via: "uv tool run"}
			}
		}
	}
	return subRunner([]string{"run"}, uvRunSpec, 0)(a, ws)
}

// stripSetarch handles setarch ARCH [options] [COMMAND]: the architecture
// comes first; with no command setarch runs a shell.
func stripSetarch(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 3 {
		return unwrap{}
	}
	if v, ok := ws[1].lit(); !ok || len(v) > 0 && v[0] == '-' {
		return unwrap{}
	}
	i, _ := skipOpts(ws, 2, optSpec{})
	return unwrap{rest: ws[i:]}
}

// stripArch handles macOS's arch [-x86_64 | -arm64 | -arch NAME ...]
// [-e VAR=VALUE] [-d VAR] PROG ARGS (plain arch prints the architecture).
func stripArch(_ *analyzer, ws []xword) unwrap {
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		switch {
		case !ok:
			return unwrap{rest: ws[i:]}
		case v == "-arch" || v == "-e" || v == "-d":
			i++
		case v == "-h":
			return unwrap{}
		case len(v) > 1 && v[0] == '-':
		default:
			return unwrap{rest: ws[i:]}
		}
	}
	return unwrap{}
}

// bwrapValues are bubblewrap's options and how many words each takes.
var bwrapValues = map[string]int{
	"--bind": 2, "--ro-bind": 2, "--dev-bind": 2, "--bind-try": 2, "--ro-bind-try": 2, "--dev-bind-try": 2,
	"--symlink": 2, "--setenv": 2, "--file": 2, "--bind-data": 2, "--ro-bind-data": 2, "--chmod": 2,
	"--dir": 1, "--tmpfs": 1, "--proc": 1, "--dev": 1, "--mqueue": 1, "--unsetenv": 1, "--chdir": 1,
	"--hostname": 1, "--uid": 1, "--gid": 1, "--lock-file": 1, "--sync-fd": 1, "--info-fd": 1,
	"--json-status-fd": 1, "--userns": 1, "--userns2": 1, "--pidns": 1, "--seccomp": 1, "--add-seccomp-fd": 1,
	"--exec-label": 1, "--file-label": 1, "--cap-add": 1, "--cap-drop": 1, "--remount-ro": 1, "--perms": 1,
	"--size": 1, "--args": 1, "--argv0": 1, "--block-fd": 1, "--userns-block-fd": 1, "--overlay-src": 1,
	"--overlay": 3, "--tmp-overlay": 1, "--ro-overlay": 1,
}

// stripBwrap handles bwrap [OPTIONS] COMMAND: options take zero to three
// words (bwrapValues); the first other word is the command.
func stripBwrap(_ *analyzer, ws []xword) unwrap {
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			return unwrap{rest: ws[i:]}
		}
		switch {
		case v == "--":
			return unwrap{rest: ws[i+1:]}
		case v == "--help" || v == "--version":
			return unwrap{}
		case len(v) > 1 && v[0] == '-':
			i += bwrapValues[v]
		default:
			return unwrap{rest: ws[i:]}
		}
	}
	return unwrap{}
}

// stripAfterMark handles a wrapper whose command follows "--" (nsjail
// [OPTIONS] -- COMMAND, watchexec [OPTIONS] -- COMMAND); without "--"
// its options are too many to tell the command apart, and nothing is
// named.
func stripAfterMark(_ *analyzer, ws []xword) unwrap {
	for i := 1; i+1 < len(ws); i++ {
		if v, ok := ws[i].lit(); ok && v == "--" {
			return unwrap{rest: ws[i+1:]}
		}
	}
	return unwrap{}
}

// addMoreWrappers adds moreWrappers to wrappers (called by its init).
func addMoreWrappers() {
	for name, w := range moreWrappers() {
		if _, dup := wrappers[name]; dup {
			panic("analysis: wrapper " + name + " declared twice")
		}
		wrappers[name] = w
	}
}

// sgCmd: sg [-] GROUP [-c] COMMAND runs COMMAND through /bin/sh -c with
// GROUP as its group (sg with no command starts a shell).
func (a *analyzer) sgCmd(c ctx, st *state, ex exec) {
	ws := ex.words
	i := 1
	if i < len(ws) {
		if v, ok := ws[i].lit(); ok && v == "-" {
			i++
		}
	}
	i++ // the group
	if i < len(ws) {
		if v, ok := ws[i].lit(); ok && v == "-c" {
			i++
		}
	}
	if i < len(ws) {
		a.nestedWords(c, st.child(a, ex.env), ws[i:], ir.Bash, "sg", ex.idx)
	}
}

// forfilesCmd: forfiles /P DIR /M MASK /C COMMAND runs COMMAND (a program
// and its arguments, cmd.exe-style) once per file found, the @path-like
// placeholders standing for DIR\MASK (cmdfacts.Forfiles).
func (a *analyzer) forfilesCmd(c ctx, st *state, ex exec) {
	args := make([]ir.Word, 0, len(ex.words))
	for _, w := range ex.words[1:] {
		args = append(args, w.word())
	}
	if text, ok := cmdfacts.Forfiles(args); ok {
		a.nestedText(c, st.child(a, ex.env), text, ir.Cmd, "forfiles", ex.idx)
	}
}

// stripLvm: lvm COMMAND ARGS runs the LVM tool of that name (lvm lvremove
// vg/lv is lvremove vg/lv); lvm alone or with an option is its shell.
func stripLvm(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 2 {
		return unwrap{}
	}
	sub, ok := ws[1].lit()
	if !ok || len(sub) < 3 || !(strings.HasPrefix(sub, "lv") || strings.HasPrefix(sub, "vg") || strings.HasPrefix(sub, "pv")) {
		return unwrap{}
	}
	return unwrap{rest: ws[1:], via: "lvm"}
}

// stripCmakeE: cmake -E rm ARGS removes files like rm (its options -r,
// -f are rm's), cmake -E remove FILES like rm -f, cmake -E
// remove_directory DIRS like rm -rf; the rest of cmake -E and cmake
// itself run no command this layer can name.
func stripCmakeE(_ *analyzer, ws []xword) unwrap {
	if len(ws) < 3 {
		return unwrap{}
	}
	if e, ok := ws[1].lit(); !ok || e != "-E" {
		return unwrap{}
	}
	sub, ok := ws[2].lit()
	if !ok {
		return unwrap{}
	}
	var head []xword
	switch sub {
	case "rm":
		head = []xword{knownWord("rm", "rm")}
	case "remove":
		head = []xword{knownWord("rm", "rm"), knownWord("-f", "-f")}
	case "remove_directory":
		head = []xword{knownWord("rm", "rm"), knownWord("-rf", "-rf")}
	default:
		return unwrap{}
	}
	return unwrap{rest: append(head, ws[3:]...), via: "cmake -E " + sub}
}
