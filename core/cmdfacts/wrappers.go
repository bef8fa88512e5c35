package cmdfacts

import (
	"maps"
	"slices"
)

// Wrappers: the commands that run another command given as their
// operands (sudo rm ..., nice -n 5 rm ..., poetry run pytest, timeout 5
// CMD), and the option syntax each reads before it. The analysis
// (core/shell/analysis) strips a wrapper and reports the inner command;
// it reads the wrapper's options with ParseArgs in POSIX order (the inner
// command ends them), so this table is the one copy of a wrapper's
// option syntax. How a wrapper is stripped (env -S splitting, sudo's
// NAME=value words, nix's installables) stays with the analysis.

// Wrapper is what a wrapper reads before the command it runs. Option
// names are written without dashes ("u", "user").
type Wrapper struct {
	// Spec: the options that take a value (read in POSIX order).
	Spec Spec
	// Subs: the subcommands that run the command (poetry run, uv run,
	// perf record); empty: the wrapper runs it itself. Another
	// subcommand runs nothing.
	Subs []string
	// Operands: how many operands come before the command (timeout's
	// DURATION, chroot's NEWROOT, direnv exec's DIR).
	Operands int
	// Mark: the command follows the first of these words (mise exec
	// node@20 -- CMD); without one the call names no command. The
	// wrapper's options before it are not read.
	Mark []string
	// NoRun: options with which the wrapper runs no command (sudo -l,
	// command -v, ionice -p PID).
	NoRun []string
	// Exec: options the wrapper needs to run its operands as a command
	// (watch -x, runuser -u, wsl -e); empty: it always does.
	Exec []string
	// Script: options whose value is a shell command line it runs (su -c,
	// flock -c, script -c).
	Script []string
	// Dir: options whose value is the directory the command runs in
	// (sudo -D, env -C).
	Dir []string
	// Program: options whose value names the program the wrapper runs,
	// its operands being that program's arguments (coreutils
	// --coreutils-prog=rm ARGS).
	Program []string
	// Runs: with an Exec option, the subcommand (the first operand) and
	// the command it runs, whose arguments follow it (cmake -E rm ARGS runs
	// rm ARGS, cmake -E remove_directory DIRS runs rm -rf DIRS); another
	// subcommand runs nothing this table names.
	Runs map[string][]string
	// Tools: the wrapper is a family's shell whose first operand names
	// one of its tools, each starting with one of these (lvm lvremove,
	// lvm vgchange, lvm pvs).
	Tools []string
	// Split: options whose value is split into more words of the command
	// (env -S).
	Split []string
	// Sets: options whose value names a shell variable the command sets
	// (read -a NAME).
	Sets []string
	// Fold: its options are read without regard to case (wsl --USER,
	// -D), as Windows tools read theirs.
	Fold bool
	// Builtin: a shell builtin (command, exec, builtin): only in the Bash
	// dialect, and in the same process.
	Builtin bool
}

// WrapperOf returns the wrapper named name (a normalised command name).
func WrapperOf(name string) (Wrapper, bool) {
	w, ok := wrappers[name]
	return w, ok
}

// WrapperNames returns the names WrapperOf knows, sorted.
func WrapperNames() []string { return slices.Sorted(maps.Keys(wrappers)) }

// ShellOptions returns the option syntax of a shell builtin or a command
// that runs a shell command line, which the analysis reads for what it
// sets or runs (read, mapfile, trap, su, script); the zero Wrapper for
// other names.
func ShellOptions(name string) Wrapper { return shellOptions[name] }

// Option syntaxes shared by several entries.
var (
	sudoSpec = Spec{Short: "aCcDghpRrTtUu", Long: []string{"user", "group", "close-from", "chdir", "prompt", "role", "type",
		"other-user", "command-timeout", "chroot", "host", "login-class", "auth-type"}}
	// suSpec: su's and runuser's options.
	suSpec    = Spec{Short: "cgGswu", Long: []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment", "user"}}
	flockSpec = Spec{Short: "wEc", Long: []string{"timeout", "wait", "conflict-exit-code", "command"}}
	uvxSpec   = Spec{Short: "pw", Long: []string{"from", "with", "with-editable", "with-requirements", "python",
		"index", "index-url", "extra-index-url", "default-index", "find-links", "constraints", "overrides",
		"config-file", "cache-dir", "directory", "project", "env-file", "build-constraints", "exclude-newer",
		"index-strategy", "keyring-provider", "resolution", "prerelease", "refresh-package", "reinstall-package",
		"upgrade-package", "python-platform", "python-preference", "color", "allow-insecure-host"}}
	uvRunSpec = Spec{Short: "pw", Long: []string{"with", "python", "project", "directory", "package", "extra", "group", "env-file", "index",
		"index-url", "extra-index-url", "with-requirements", "with-editable", "config-file", "cache-dir", "find-links", "only-group", "no-group"}}
	condaRunSpec = Spec{Short: "np", Long: []string{"name", "prefix", "cwd"}}
	perfSpec     = Spec{Short: "eoptcFrxGICmuDL", Long: []string{"event", "output", "pid", "tid", "count", "freq",
		"repeat", "field-separator", "cgroup", "cpu", "call-graph", "mmap-pages", "uid", "delay", "filter",
		"interval-print", "post", "pre", "switch-output", "user-regs", "intr-regs", "clockid", "aux-sample", "metrics"}}
	slurmSpec = Spec{Short: SlurmShortValued, Long: SlurmLongValued}
	// help and version: options with which a tool prints and runs nothing.
	helpVersion = []string{"h", "help", "V", "version"}
	slurmNoRun  = []string{"h", "help", "usage", "V", "version", "test-only"}
	run         = []string{"run"}
	exec        = []string{"exec"}
	dashDash    = []string{"--"}
)

// wrappers are the wrappers by name. The ones the Subs / Operands / Mark
// forms do not describe (sudo's NAME=value words, env -S, nix's
// installables, bwrap's multi-word options) have an entry here for their
// options and a strip function in the analysis.
var wrappers = map[string]Wrapper{
	"sudo":       {Spec: sudoSpec, NoRun: []string{"e", "edit", "l", "list", "v", "validate", "V", "version", "help", "K", "remove-timestamp"}, Dir: []string{"D", "chdir"}},
	"doas":       {Spec: Spec{Short: "aCu"}, NoRun: []string{"C"}},
	"pkexec":     {Spec: Spec{Long: []string{"user"}}},
	"env":        {Spec: Spec{Short: "uCSP", Long: []string{"unset", "chdir", "split-string"}}, Dir: []string{"C", "chdir"}, Split: []string{"S", "split-string"}},
	"nice":       {Spec: Spec{Short: "n", Long: []string{"adjustment"}}},
	"ionice":     {Spec: Spec{Short: "cnpPu", Long: []string{"class", "classdata", "pid", "pgid", "uid"}}, NoRun: []string{"p", "P", "u", "pid", "pgid", "uid"}},
	"timeout":    {Spec: Spec{Short: "ks", Long: []string{"kill-after", "signal"}}, Operands: 1},
	"stdbuf":     {Spec: Spec{Short: "ioe", Long: []string{"input", "output", "error"}}},
	"nohup":      {NoRun: []string{"help", "version"}},
	"time":       {Spec: Spec{Short: "fo", Long: []string{"format", "output"}}},
	"command":    {Builtin: true, NoRun: []string{"v", "V"}},
	"builtin":    {Builtin: true},
	"exec":       {Builtin: true, Spec: Spec{Short: "a"}},
	"nocorrect":  {Builtin: true},
	"noglob":     {Builtin: true},
	"strace":     {Spec: Spec{Short: "abeEIoOpPsSuUX", Long: []string{"output", "trace", "signal", "status", "abbrev", "verbose", "raw", "read", "write", "fault", "inject", "string-limit", "attach", "user", "env", "trace-path", "summary-columns", "summary-sort-by", "sort-by", "columns", "decode-fds", "decode-pids", "const-print-style", "detach-on", "argv0", "quiet", "silence"}}},
	"ltrace":     {Spec: Spec{Short: "aADeEFlnopsuwx", Long: []string{"align", "indent", "library", "output", "config"}}},
	"valgrind":   {},
	"setsid":     {},
	"chroot":     {Spec: Spec{Long: []string{"userspec", "groups"}}, Operands: 1},
	"flock":      {Spec: flockSpec, Script: []string{"c", "command"}, Operands: 1},
	"unbuffer":   {},
	"caffeinate": {Spec: Spec{Short: "tw"}},
	"runuser":    {Spec: suSpec, Exec: []string{"u", "user"}, Script: []string{"c", "command", "session-command"}},
	"wsl": {Spec: Spec{Short: "du", Long: []string{"distribution", "user", "cd", "shell-type", "distribution-id"}}, Exec: []string{"e", "exec"}, Fold: true,
		NoRun: []string{"install", "uninstall", "l", "list", "shutdown", "t", "terminate", "s", "set-default", "set-default-version",
			"set-version", "status", "update", "export", "import", "import-in-place", "unregister", "mount", "unmount", "manage",
			"debug-shell", "help", "v", "version", "?"}},
	"busybox":      {},
	"watch":        {Spec: Spec{Short: "nq", Long: []string{"interval", "equexit"}}, Exec: []string{"x", "exec"}},
	"taskset":      {NoRun: []string{"p", "pid"}, Operands: 1},
	"chrt":         {Spec: Spec{Short: "TPD", Long: []string{"sched-runtime", "sched-period", "sched-deadline"}}, Operands: 1, NoRun: []string{"p", "pid"}},
	"gosu":         {Operands: 1},
	"su-exec":      {Operands: 1},
	"nsenter":      {Spec: Spec{Short: "tSGrw", Long: []string{"target"}}},
	"unshare":      {},
	"firejail":     {},
	"proxychains":  {Spec: Spec{Short: "f"}},
	"proxychains4": {Spec: Spec{Short: "f"}},
	"systemd-run":  {Spec: Spec{Short: "pEuMH", Long: []string{"property", "setenv", "unit", "machine", "host", "uid", "gid", "nice", "working-directory", "description", "slice"}}},
	// Multi-call binaries and environment wrappers.
	"toybox":           {},
	"xvfb-run":         {Spec: Spec{Short: "efnpsw", Long: []string{"error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"}}, NoRun: []string{"h", "help"}},
	"fakeroot":         {Spec: Spec{Short: "lsib", Long: []string{"lib", "faked"}}, NoRun: []string{"h", "v", "help", "version"}},
	"proot":            {Spec: Spec{Short: "rbmwqk", Long: []string{"rootfs", "bind", "mount", "cwd", "pwd", "qemu", "kernel-release"}}, NoRun: helpVersion},
	"catchsegv":        {},
	"dbus-run-session": {NoRun: []string{"h", "help", "version"}},
	"dbus-launch":      {NoRun: []string{"version"}},
	"entr":             {NoRun: []string{"s"}},
	// Project and environment runners: the command runs with the tool's
	// environment (virtualenv, bundle, nix shell, secrets).
	"poetry":     {Subs: run, Spec: Spec{Short: "CP", Long: []string{"directory", "project"}}},
	"pipenv":     {Subs: run},
	"pdm":        {Subs: run, Spec: Spec{Short: "p", Long: []string{"project"}}},
	"rye":        {Subs: run},
	"hatch":      {Subs: run},
	"pixi":       {Subs: []string{"run", "exec"}, Spec: Spec{Short: "e", Long: []string{"environment", "manifest-path"}}},
	"bundle":     {Subs: exec},
	"devbox":     {Subs: run, Spec: Spec{Short: "c", Long: []string{"config", "environment"}}},
	"asdf":       {Subs: exec},
	"conda":      {Subs: run, Spec: condaRunSpec},
	"mamba":      {Subs: run, Spec: condaRunSpec},
	"micromamba": {Subs: run, Spec: condaRunSpec},
	"direnv":     {Subs: exec, Operands: 1},
	"mise":       {Subs: []string{"exec", "x"}, Mark: dashDash},
	"rtx":        {Subs: []string{"exec", "x"}, Mark: dashDash},
	"nix":        {},
	"doppler":    {Subs: run, Mark: dashDash},
	"op":         {Subs: run, Mark: dashDash},
	"infisical":  {Subs: run, Mark: dashDash},
	"dotenvx":    {Subs: run, Mark: dashDash},
	"aws-vault":  {Subs: exec, Mark: dashDash},
	// Toolchain and version managers: the command runs with the chosen
	// toolchain on PATH (stack exec -- CMD, rbenv exec CMD, volta run CMD).
	"stack":  {Subs: exec, Spec: Spec{Long: []string{"package", "rts-options", "cwd", "stack-yaml", "resolver", "compiler"}}},
	"cabal":  {Subs: exec, Spec: Spec{Long: []string{"project-file", "builddir", "with-compiler"}}},
	"opam":   {Subs: exec, Spec: Spec{Long: []string{"switch", "root"}}},
	"rbenv":  {Subs: exec},
	"pyenv":  {Subs: exec},
	"nodenv": {Subs: exec},
	"goenv":  {Subs: exec},
	"jenv":   {Subs: exec},
	"volta":  {Subs: run, Spec: Spec{Long: []string{"node", "npm", "pnpm", "yarn"}}},
	"fnm":    {Subs: exec, Spec: Spec{Long: []string{"using"}}},
	// Tool runners, profilers and tracers, resource and placement
	// controls, network redirectors, sandboxes and host bridges (which
	// share the home directory), moreutils.
	"lvm":             {Tools: []string{"lv", "vg", "pv"}},
	"cmake":           {Exec: []string{"E"}, Runs: cmakeRuns},
	"uvx":             {Spec: uvxSpec, NoRun: helpVersion},
	"uv":              {Subs: run, Spec: uvRunSpec},
	"pipx":            {Subs: run, Spec: Spec{Long: []string{"spec", "python", "index-url", "pip-args", "backend"}}},
	"bun":             {Subs: []string{"x"}},
	"perf":            {Subs: []string{"record", "stat", "trace"}, Spec: perfSpec},
	"heaptrack":       {Spec: Spec{Short: "op", Long: []string{"output", "pid", "analyze"}}, NoRun: []string{"p", "pid", "a", "analyze", "h", "help", "v", "version"}},
	"rr":              {Subs: []string{"record"}, Spec: Spec{Short: "bcehnoptuw", Long: []string{"output-trace-dir", "env", "bind-to-cpu", "chaos", "num-cpu-ticks", "ignore-nested", "syscall-buffer-size", "tracee-proc-name"}}},
	"dtruss":          {Spec: Spec{Short: "bnpt"}, NoRun: []string{"p", "n"}},
	"numactl":         {Spec: Spec{Short: "CNmpiw", Long: []string{"cpunodebind", "membind", "physcpubind", "preferred", "interleave", "weighted-interleave"}}, NoRun: []string{"s", "show", "H", "hardware"}},
	"prlimit":         {Spec: Spec{Short: "o", Long: []string{"output"}}, NoRun: []string{"p", "pid", "h", "help", "V", "version"}},
	"cpulimit":        {Spec: Spec{Short: "lpe", Long: []string{"limit", "pid", "exe", "cpu"}}, NoRun: []string{"p", "pid", "e", "exe", "P", "path"}},
	"trickle":         {Spec: Spec{Short: "udwtlnL"}},
	"setarch":         {},
	"linux32":         {},
	"linux64":         {},
	"run0":            {Spec: Spec{Short: "uDg", Long: []string{"user", "group", "chdir", "setenv", "unit", "property", "description", "slice", "nice", "machine", "background"}}, NoRun: []string{"h", "help", "version"}},
	"setpriv":         {Spec: Spec{Long: []string{"reuid", "regid", "ruid", "rgid", "euid", "egid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "pdeathsig", "ptracer"}}, NoRun: []string{"d", "dump", "h", "help", "V", "version"}},
	"chpst":           {Spec: Spec{Short: "uUbe/nlLmdofpcrt"}},
	"s6-setuidgid":    {Operands: 1},
	"faketime":        {Spec: Spec{Short: "p"}, Operands: 1, NoRun: []string{"h", "help", "v", "version"}},
	"daemonize":       {Spec: Spec{Short: "ceopluE"}},
	"nq":              {Spec: Spec{Short: "w"}},
	"torsocks":        {Spec: Spec{Short: "uaPp", Long: []string{"user", "pass", "address", "port"}}, NoRun: []string{"h", "help", "shell", "i", "isolate"}},
	"tsocks":          {},
	"sshpass":         {Spec: Spec{Short: "pfdP"}, NoRun: []string{"h", "V"}},
	"bwrap":           {NoRun: []string{"help", "version"}},
	"nsjail":          {Mark: dashDash},
	"watchexec":       {Mark: dashDash},
	"sandbox-exec":    {Spec: Spec{Short: "fpD"}},
	"eatmydata":       {},
	"arch":            {Spec: Spec{Long: []string{"arch", "e", "d"}, OneDash: true}, NoRun: []string{"h"}},
	"flatpak-spawn":   {Spec: Spec{Long: []string{"directory", "env", "forward-fd", "sandbox-expose", "sandbox-expose-ro", "sandbox-expose-path", "sandbox-expose-path-ro", "sandbox-flag", "app-path", "usr-path"}}, NoRun: []string{"h", "help"}},
	"distrobox":       {Subs: []string{"enter"}, Mark: dashDash},
	"distrobox-enter": {Mark: dashDash},
	"toolbox":         {Subs: run, Spec: Spec{Short: "cdr", Long: []string{"container", "distro", "release"}}},
	"chronic":         {},
	// systemd-inhibit [--what= --who= --why= --mode=] COMMAND: runs it
	// holding an inhibitor lock; --list lists locks and runs nothing.
	"systemd-inhibit": {Spec: Spec{Long: []string{"what", "who", "why", "mode"}}, NoRun: []string{"list", "h", "help", "version"}},
	// distrobox-host-exec COMMAND: runs it on the host, from inside a
	// distrobox container.
	"distrobox-host-exec": {NoRun: helpVersion},
	// dotenv (dotenv-cli, python-dotenv run): the command after "--" runs
	// with the .env file's variables.
	"dotenv": {Mark: dashDash},
	// tsp (task-spooler) COMMAND: queues the command, which runs here;
	// its letter actions (list, kill, clear, output ...) run nothing.
	"tsp":       {Spec: Spec{Short: "LNDW"}, NoRun: []string{"K", "C", "l", "S", "t", "c", "p", "o", "i", "s", "r", "w", "k", "u", "U", "h", "V", "T", "M"}},
	"ifne":      {},
	"lckdo":     {Operands: 1},
	"ssh-agent": {Spec: Spec{Short: "aEPtO"}, NoRun: []string{"k"}},
	// Job launchers (executors_launchers.go): the program runs here or on
	// nodes sharing this file system.
	"mpirun":  {},
	"mpiexec": {},
	"orterun": {},
	"srun":    {Spec: slurmSpec, NoRun: slurmNoRun},
	"salloc":  {Spec: slurmSpec, NoRun: slurmNoRun},
	// machinectl shell .host PATH ARGS runs PATH here (MachineShell).
	"machinectl": {},
	// Multi-call coreutils (uutils: coreutils rm ...; GNU's single
	// binary: coreutils --coreutils-prog=rm ...).
	"coreutils": {Spec: Spec{Long: []string{"coreutils-prog"}}, Program: []string{"coreutils-prog"}, NoRun: []string{"help", "version"}},
}

// cmakeRuns are the cmake -E commands that do what a command does (cmake
// -E rm takes rm's -r and -f; remove takes -f and removes files; chdir
// DIR CMD and env [NAME=VALUE] CMD run CMD).
var cmakeRuns = map[string][]string{
	"rm": {"rm"}, "remove": {"rm", "-f"}, "remove_directory": {"rm", "-rf"},
	"rename": {"mv"}, "copy": {"cp"}, "copy_if_different": {"cp"}, "copy_directory": {"cp", "-r"},
	"copy_directory_if_different": {"cp", "-r"}, "create_symlink": {"ln", "-s"}, "create_hardlink": {"ln"},
	"make_directory": {"mkdir", "-p"}, "touch": {"touch"}, "chdir": {"env", "-C"}, "env": {"env"}, "time": {"time"},
}

// shellOptions are the option syntaxes of the builtins and commands the
// analysis reads for what they set or run (ShellOptions).
var shellOptions = map[string]Wrapper{
	"read":      {Spec: Spec{Short: "adinNptu"}, Sets: []string{"a"}},
	"mapfile":   {Spec: Spec{Short: "dnOsuCc"}},
	"readarray": {Spec: Spec{Short: "dnOsuCc"}},
	"trap":      {NoRun: []string{"p", "l"}},
	"su":        {Spec: suSpec, Script: []string{"c", "command", "session-command"}, Exec: []string{"u", "user"}},
	// sg [-] GROUP [-c] COMMAND runs COMMAND with /bin/sh -c.
	"sg": {Spec: Spec{Short: "c"}, Operands: 1, Script: []string{"c"}},
	// nix-shell [opts] --run|--command SCRIPT runs SCRIPT with bash in
	// the shell's environment (--arg/--argstr/--option take two words:
	// the second is read as an operand).
	"nix-shell": {Spec: Spec{Short: "AIij", Long: []string{"run", "command", "attr", "arg", "argstr", "option", "include",
		"keep", "max-jobs", "cores", "log-format", "store", "builders", "exclude"}}, Script: []string{"run", "command"}},
	"script": {Spec: Spec{Short: "cEIOBTmo", Long: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit"}}, Script: []string{"c", "command"}},
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

// BwrapValues returns how many words bubblewrap's option opt (as
// written, "--bind") takes: 0 for a flag or an option it does not know.
func BwrapValues(opt string) int { return bwrapValues[opt] }
