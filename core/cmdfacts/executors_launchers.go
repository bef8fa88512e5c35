package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Job launchers: mpirun / mpiexec / orterun (Open MPI, MPICH's Hydra,
// Intel MPI) and Slurm's srun and salloc start a program, here or on the
// cluster's nodes. They are wrappers, not remote runners: srun's tasks
// and mpirun's ranks run on nodes that share this file system (the
// project, the home directory), salloc runs its command on this host, and
// without a host list mpirun runs every rank here; the command is judged
// as if it ran here. The shell analysis's wrapper table strips them with
// the option facts below.

// mpiValues are the options of mpirun / mpiexec that take values (named
// without leading dashes: Open MPI accepts -np and --np alike), with how
// many words each takes (-mca KEY VALUE, Hydra's -env NAME VALUE: two).
var mpiValues = map[string]int{
	// Open MPI (4.x and 5.x).
	"c": 1, "n": 1, "np": 1, "N": 1, "H": 1, "host": 1, "hostfile": 1, "machinefile": 1,
	"default-hostfile": 1, "cpus-per-proc": 1, "cpus-per-rank": 1, "npernode": 1, "npersocket": 1,
	"map-by": 1, "rank-by": 1, "bind-to": 1, "rf": 1, "rankfile": 1, "output-filename": 1, "stdin": 1,
	"xterm": 1, "path": 1, "prefix": 1, "preload-files": 1, "wdir": 1, "wd": 1, "x": 1, "am": 1,
	"tune": 1, "timeout": 1, "launch-agent": 1, "personality": 1, "ompi-server": 1, "report-pid": 1,
	"report-uri": 1, "runtime-options": 1, "output": 1, "display": 1, "mca": 2, "gmca": 2,
	"pmixmca": 2, "prtemca": 2,
	// MPICH Hydra and Intel MPI.
	"f": 1, "hosts": 1, "genv": 2, "env": 2, "genvlist": 1, "envlist": 1, "ppn": 1, "perhost": 1,
	"launcher": 1, "launcher-exec": 1, "bootstrap": 1, "bootstrap-exec": 1, "iface": 1, "rmk": 1,
	"demux": 1, "errfile-pattern": 1, "outfile-pattern": 1, "gpath": 1, "gwdir": 1, "arch": 1,
}

// mpiNoProgram are the options after which mpirun names no program on its
// command line: an application context file (-app, Hydra's -configfile)
// or a query.
var mpiNoProgram = map[string]bool{"app": true, "configfile": true, "help": true, "h": true, "version": true,
	"V": true, "info": true}

// MPIProgram returns the index in args (after mpirun / mpiexec) of the
// program the first application context runs; ok is false when none is
// named (mpirun -app FILE, --help). Words after it are the program's.
// Cost: linear in args.
func MPIProgram(args []ir.Word) (int, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-") || len(v) < 2 || v[0] != '-' {
			return i, true
		}
		if v == "--" {
			return i + 1, i+1 < len(args)
		}
		name, _, eq := strings.Cut(strings.TrimLeft(v, "-"), "=")
		if mpiNoProgram[name] {
			return 0, false
		}
		if !eq {
			i += mpiValues[name]
		}
	}
	return 0, false
}

// Slurm's srun and salloc options that take a value (getopt_long: a
// short one reads -p debug or -pdebug, a long one --partition=debug or
// --partition debug). The options whose value is optional (-I, -K,
// --bcast, --nice, --propagate, --kill-command) take it attached only,
// and are left out.
const SlurmShortValued = "ABbcCDdeFGiJLmMNnopqrSTtWwx"

// SlurmLongValued are srun's and salloc's long options that take a value.
var SlurmLongValued = []string{"account", "extra-node-info", "begin", "cpus-per-task", "constraint",
	"chdir", "dependency", "error", "nodefile", "gpus", "input", "job-name", "licenses", "distribution",
	"clusters", "nodes", "ntasks", "output", "partition", "qos", "relative", "core-spec",
	"thread-spec", "threads", "time", "wait", "nodelist", "exclude", "mem", "mem-per-cpu",
	"mem-per-gpu", "gres", "gres-flags", "gpus-per-node", "gpus-per-task", "gpus-per-socket",
	"cpus-per-gpu", "ntasks-per-node", "ntasks-per-core", "ntasks-per-socket", "ntasks-per-gpu",
	"time-min", "reservation", "export", "mpi", "cpu-bind", "mem-bind", "comment", "container",
	"container-id", "deadline", "delay-boot", "gpu-bind", "gpu-freq", "het-group", "jobid",
	"mail-type", "mail-user", "network", "open-mode", "prolog", "epilog", "task-prolog",
	"task-epilog", "signal", "switches", "tmp", "uid", "gid", "wckey", "sockets-per-node",
	"cores-per-socket", "threads-per-core", "cluster-constraint", "bb", "bbf", "hint",
	"tres-per-task", "tres-bind", "slurmd-debug", "cpu-freq", "profile", "acctg-freq", "mincpus",
	"power", "priority", "segment"}

// Nix's new command line: nix develop / nix shell INSTALLABLES -c CMD
// run CMD here with the installables' environment; nix run INSTALLABLE
// [--] ARGS runs the installable's program with ARGS (the program file
// is meta.mainProgram, else the package name: for nixpkgs#NAME, NAME).
// Nix 2.3's nix run INSTALLABLES -c CMD is nix shell's form.

// nixValues are nix's options (global ones, and those of develop, shell
// and run) that take values, with how many words each takes.
var nixValues = map[string]int{
	"--option": 2, "--arg": 2, "--argstr": 2, "--override-input": 2, "--override-flake": 2,
	"--redirect": 2, "--arg-from-file": 2, "--arg-from-stdin": 1, "--extra-experimental-features": 1,
	"--experimental-features": 1, "--store": 1, "--eval-store": 1, "-I": 1, "--include": 1,
	"--log-format": 1, "--inputs-from": 1, "--reference-lock-file": 1, "--output-lock-file": 1,
	"--expr": 1, "-f": 1, "--file": 1, "--profile": 1, "--update-input": 1, "-k": 1, "--keep": 1,
	"-u": 1, "--unset": 1, "--phase": 1, "-j": 1, "--max-jobs": 1, "--cores": 1,
	"--substituters": 1, "--extra-substituters": 1, "--builders": 1, "--system": 1,
}

// NixCommand is the command a nix develop / shell / run line runs here.
type NixCommand struct {
	// Sub is the subcommand (develop, shell, run).
	Sub string
	// From is the index in args of the command's first word (for nix run
	// INSTALLABLE ARGS, of ARGS: Program comes before them).
	From int
	// Program is the program nix run starts ("" for develop and shell):
	// the installable's attribute name.
	Program string
}

// ParseNixCommand reads nix's arguments (after "nix"); ok is false when no
// command is named: another subcommand, develop or shell without -c,
// nix run of a flake's default app (nix run ., nix run github:o/r),
// whose program file the command line does not name. Cost: linear in
// args.
func ParseNixCommand(args []ir.Word) (NixCommand, bool) {
	sub := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			return NixCommand{}, false
		}
		if strings.HasPrefix(a.Value, "-") {
			i += nixValues[a.Value]
			continue
		}
		sub = i
		break
	}
	if sub < 0 {
		return NixCommand{}, false
	}
	n := NixCommand{Sub: args[sub].Value}
	if n.Sub != "develop" && n.Sub != "shell" && n.Sub != "run" {
		return NixCommand{}, false
	}
	installable := -1
	for i := sub + 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			if installable < 0 {
				installable = i
			}
		case a.Value == "-c" || a.Value == "--command":
			if i+1 < len(args) {
				n.From = i + 1
				return n, true
			}
			return NixCommand{}, false
		case a.Value == "--":
			if n.Sub != "run" {
				return NixCommand{}, false
			}
			if installable < 0 && i+1 < len(args) {
				installable = i + 1 // the first positional is the installable, even after --
				i++
			}
			return nixRun(n, args, installable, i+1)
		case strings.HasPrefix(a.Value, "-"):
			i += nixValues[a.Value]
		case installable < 0:
			installable = i
		case n.Sub == "run":
			return nixRun(n, args, installable, i)
		}
	}
	if n.Sub == "run" {
		return nixRun(n, args, installable, len(args))
	}
	return NixCommand{}, false
}

// nixRun completes a nix run line: the program named by the installable
// (FLAKE#ATTR.PATH: the last attribute; nixpkgs.NAME, nix 2.3's form,
// likewise), its arguments from index from.
func nixRun(n NixCommand, args []ir.Word, installable, from int) (NixCommand, bool) {
	if installable < 0 || args[installable].Unknown {
		return NixCommand{}, false
	}
	ref := args[installable].Value
	attr := ""
	if _, a, ok := strings.Cut(ref, "#"); ok {
		attr = a
	} else if strings.HasPrefix(ref, "nixpkgs.") {
		attr = ref
	}
	attr, _, _ = strings.Cut(attr, "^") // an output spec (pkg^bin)
	if k := strings.LastIndexByte(attr, '.'); k >= 0 {
		attr = attr[k+1:]
	}
	attr = strings.Trim(attr, `"`)
	if attr == "" || attr == "default" {
		return NixCommand{}, false
	}
	n.Program, n.From = attr, from
	return n, true
}
