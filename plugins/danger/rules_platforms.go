package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Framework database resets and hosted-platform destroys (Infra family):
// the command facts are core/cmdfacts.Platform. Several of its command
// names have other rules too (gh and docker: ruleInfraCLI; vagrant:
// ruleRemoteShell; yarn and pnpm: ruleRunner), which run first.

// platformsRules are the rules of this file: rulePlatform on every command
// name cmdfacts.Platform reads, and rulePackageBin on yarn and pnpm.
var platformsRules = []judging{
	on(rulePlatform, cmdfacts.PlatformCLIs()...),
	on(rulePackageBin, "yarn", "pnpm"),
}

// rulePlatform judges a framework database reset (DG-FRAMEWORK-DB-RESET),
// a hosted-platform or virtual-machine destroy (DG-PLATFORM-DESTROY), gh
// api DELETE of a repository or the like (DG-CLOUD-DELETE) and compose
// down --volumes (DG-CONTAINER-PRUNE). A reset in the framework's test
// environment stays silent: that database exists to be reset; so does one
// whose database URL names a local throwaway database.
func rulePlatform(v *cmdv) {
	op, ok := cmdfacts.Platform(v.name, v.args)
	if !ok {
		return
	}
	var rule *rules.Rule
	switch op.Kind {
	case cmdfacts.PlatformDBReset:
		if op.NeedsInput && !v.stdinFed() {
			return // its own prompt stands
		}
		if !op.Remote && (v.testEnv(op) || v.disposableURL(op)) {
			return
		}
		rule = rules.FrameworkDBReset
	case cmdfacts.PlatformHosted, cmdfacts.PlatformVM:
		rule = rules.PlatformDestroy
	case cmdfacts.PlatformForge:
		rule = rules.CloudDelete
	case cmdfacts.PlatformVolumes:
		rule = rules.ContainerPrune
	default:
		return
	}
	var parts []string
	for _, w := range op.Targets {
		parts = append(parts, shownRaw(w))
	}
	v.j.add(finding{rule: rule, cmd: v.display(), detail: op.Detail, subject: strings.Join(parts, " ")})
}

// testEnv reports whether a reset runs in the framework's test
// environment: the environment its command line names, else the last
// known assignment of one of its variables before the command
// (RAILS_ENV=test rails db:reset). An unknown value ($ENV) is not assumed
// to be the test one.
func (v *cmdv) testEnv(op cmdfacts.PlatformOp) bool {
	env := op.Env
	if env == nil {
		env = v.lastAssign(op.EnvVars)
	}
	return env != nil && !env.Unknown && cmdfacts.TestEnvName(env.Value)
}

// lastAssign returns the value of the last of the command's own NAME=value
// prefixes that sets one of names, or nil.
func (v *cmdv) lastAssign(names []string) *ir.Word {
	var val *ir.Word
	for i := range v.c.Assigns {
		a := &v.c.Assigns[i]
		for _, name := range names {
			if a.Name == name {
				val = &a.Value
			}
		}
	}
	return val
}

// stdinFed reports whether something feeds the command's standard input,
// which can answer its prompt: a pipe from another command, a heredoc or
// a here-string, or a file redirected to it (<, <>) other than /dev/null.
func (v *cmdv) stdinFed() bool {
	if v.c.Stdin != "" {
		return true
	}
	for _, r := range v.c.Redirects {
		switch r.Op {
		case "<", "<<", "<<-", "<<<", "<>":
			if (r.Fd == "" || r.Fd == "0") && !(r.Op == "<" && !r.Target.Unknown && r.Target.Value == "/dev/null") {
				return true
			}
		}
	}
	fed := false
	v.j.upstream(v.i, func(_ int, kind ir.FeedKind) bool {
		fed = fed || kind == ir.FeedPipe
		return !fed
	})
	return fed
}

// disposableURL reports whether a reset's database URL — the one its
// command line gives, else the last known assignment of one of its URL
// variables before the command (DATABASE_URL=postgres://localhost/app_test
// npx prisma migrate reset --force) — names a local database with a
// throwaway name (cmdfacts.LocalDisposableURL). An unknown URL is not.
func (v *cmdv) disposableURL(op cmdfacts.PlatformOp) bool {
	url := op.URL
	if url == nil {
		url = v.lastAssign(op.URLVars)
	}
	return url != nil && !url.Unknown && cmdfacts.LocalDisposableURL(*url)
}

// rulePackageBin: yarn [run] BIN ARGS and pnpm BIN ARGS run a package's
// executable directly (not only through dlx/exec, which ruleRunner hands
// on); when BIN is a command Platform reads (yarn prisma migrate reset
// --force), it is judged as that command.
func rulePackageBin(v *cmdv) {
	args := v.args
	if v.name == "yarn" && len(args) > 0 && args[0].Value == "run" && !args[0].Unknown {
		args = args[1:] // yarn run BIN runs the bin too
	}
	if len(args) == 0 || args[0].Unknown {
		return
	}
	name := ir.CommandName(args[0].Value)
	if !cmdfacts.IsPlatformCLI(name) {
		return
	}
	inner := *v.c
	inner.Args, inner.Name, inner.NameIfEmpty = args, name, name
	w := &cmdv{j: v.j, i: v.i, c: &inner, name: name, args: args[1:]}
	cmdfacts.FillEffects(&inner, name) // a command made here: its effects as the analysis fills them
	rulePlatform(w)
}
