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
// with its arguments. For pnpm, yarn and npm the runner subcommand must
// be the first word (pnpm dlx rimraf dist); any other first word is
// something else (pnpm install). Both layers read package runners here:
// the danger gate judges the command run, the fence its writes. Cost:
// one map lookup.
func PackageRunnerArgs(name string, args []ir.Word) ([]ir.Word, bool) {
	subs, ok := packageRunners[name]
	switch {
	case !ok:
		return nil, false
	case subs == nil:
		return args, true
	}
	if len(args) == 0 || args[0].Unknown {
		return nil, false
	}
	for _, s := range subs {
		if args[0].Value == s {
			return args[1:], true
		}
	}
	return nil, false
}

// PackageRunnerNames lists the commands PackageRunnerArgs knows (for the
// layers' dispatch tables).
func PackageRunnerNames() []string { return slices.Sorted(maps.Keys(packageRunners)) }
