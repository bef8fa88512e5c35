package cmdfacts

import (
	"maps"
	"slices"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// packageRunners are the commands that fetch a package and run its
// command (npx rimraf ~ runs rimraf ~), each with the subcommands that do
// it; no subcommands: the command itself does (npx, pnpx, bunx). pnpm,
// yarn and npm each take dlx, exec and x here: the ones a tool does not
// have fail there, and reading them as runners costs nothing.
var packageRunners = map[string][]string{
	"npx":  nil,
	"pnpx": nil,
	"bunx": nil,
	"pnpm": {"dlx", "exec", "x"},
	"yarn": {"dlx", "exec", "x"},
	"npm":  {"exec", "x"},
}

// PackageRunnerArgs reports whether command name (a Command.Name) run
// with args (the words after the command word) runs a package's command,
// and returns the words the runner reads from then on: its own options
// (read with Syntax("npx"): -p/--package, -c/--call, --) and the package
// with its arguments. For pnpm, yarn and npm the runner subcommand is
// their first operand, after any of their own options read with
// Syntax("npm") (npm --yes exec, pnpm -C DIR dlx, yarn --cwd DIR dlx);
// another first operand is something else (pnpm install). Both layers
// read package runners here: the danger gate judges the command run, the
// fence its writes. Cost: a map lookup; for pnpm, yarn and npm starting
// with an option, one ParseArgs.
func PackageRunnerArgs(name string, args []ir.Word) ([]ir.Word, bool) {
	subs, ok := packageRunners[name]
	switch {
	case !ok:
		return nil, false
	case subs == nil:
		return args, true
	case len(args) == 0 || args[0].Unknown:
		return nil, false
	case !IsOption(args[0]): // the usual npm install, pnpm dlx X
		return runnerRest(subs, args[0], args[1:])
	}
	spec := syntaxes["npm"]
	spec.POSIX = true // the words after the subcommand are the runner's, in order
	ops := ParseArgs(args, spec).Operands
	if len(ops) == 0 || ops[0].Unknown {
		return nil, false
	}
	return runnerRest(subs, ops[0], ops[1:])
}

// runnerRest returns rest when sub is one of subs.
func runnerRest(subs []string, sub ir.Word, rest []ir.Word) ([]ir.Word, bool) {
	if !sub.Unknown && slices.Contains(subs, sub.Value) {
		return rest, true
	}
	return nil, false
}

// PackageRunnerNames lists the commands PackageRunnerArgs knows (for the
// layers' dispatch tables).
func PackageRunnerNames() []string { return slices.Sorted(maps.Keys(packageRunners)) }
