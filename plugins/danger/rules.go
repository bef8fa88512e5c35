package danger

import (
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// A rule judges the commands of the names it is declared on: each rule
// file declares its rules in one package variable, a []judging of on(...)
// entries, and ruleSets lists those variables. A name may have several
// rules; all of them run, in the order of ruleSets and then of each list.
// Nothing is overridden, and no declaration depends on another's
// initialisation (Go initialises every package variable before dispatch,
// which is built from them). File-system makers by name
// (cmdfacts.MakesFileSystem: mkfs.ext4, newfs_msdos) that have no rule of
// their own go to ruleMkfs (judge.go).

// judging declares that rule judges the commands named names (dispatch
// names, see dispatchName).
type judging struct {
	rule  func(*cmdv)
	names []string
}

// on declares rule for names.
func on(rule func(*cmdv), names ...string) judging { return judging{rule: rule, names: names} }

// ruleSets are the declarations of every rule file. Where names share
// rules, the order here is the order they run in: an infrastructure
// client's own rule before the remote-command rule, a platform's
// destroy after the rule the name has otherwise.
func ruleSets() [][]judging {
	return [][]judging{
		deleteRules, hiddenRules, overwriteRules, diskRules, diskCryptRules, volumeRules, powerRules,
		gitRules, persistRules, accountsRules, pskillRules, registryRules, deferredRules,
		infraRules, remoteShellRules, platformsRules, longTailRules(),
	}
}

// dispatch returns the map of a dispatch name to the rules that judge
// commands of that name. It is built once, on the first command a judge
// looks up, not at start-up: a hook whose layers run in their own
// processes never builds it. (It is set in init because rules reach it
// through the judge: a variable initialiser would be a cycle.)
var dispatch func() map[string][]func(*cmdv)

func init() {
	dispatch = sync.OnceValue(func() map[string][]func(*cmdv) { return buildDispatch(ruleSets()) })
}

// effectTargets returns the targets of the command's effects of op
// (Command.Effects) and whether one of them is recursive.
func (v *cmdv) effectTargets(op ir.EffectOp) (targets []ir.Word, recursive bool) {
	for _, e := range v.c.Effects {
		if e.Op == op {
			targets = append(targets, e.Targets...)
			recursive = recursive || e.Recursive
		}
	}
	return targets, recursive
}

// mustSyntax is the option syntax cmdfacts gives command name; a name it
// does not know is a mistake of the caller (the tests run every rule).
func mustSyntax(name string) cmdfacts.Spec {
	s, ok := cmdfacts.Syntax(name)
	if !ok {
		panic("danger: no cmdfacts.Syntax for " + name)
	}
	return s
}

// buildDispatch indexes sets by name.
func buildDispatch(sets [][]judging) map[string][]func(*cmdv) {
	n := 0
	for _, set := range sets {
		for _, j := range set {
			n += len(j.names)
		}
	}
	// Sized once (names in several sets only over-count): never grown.
	out := make(map[string][]func(*cmdv), n)
	for _, set := range sets {
		for _, j := range set {
			for _, n := range j.names {
				out[n] = append(out[n], j.rule)
			}
		}
	}
	return out
}

// pick returns the hits of the given kinds.
func pick(hs []hit, kinds hitKind) []hit {
	var out []hit
	for _, h := range hs {
		if h.kind&kinds != 0 {
			out = append(out, h)
		}
	}
	return out
}

// report adds a finding for rule when hs is not empty.
func (v *cmdv) report(rule *rules.Rule, detail string, hs []hit) {
	if len(hs) == 0 {
		return
	}
	v.j.add(finding{rule: rule, cmd: v.display(), detail: detail, targets: hs})
}

// flag adds a finding about the command itself (no targets).
func (v *cmdv) flag(rule *rules.Rule, detail string) {
	v.j.add(finding{rule: rule, cmd: v.display(), detail: detail})
}

// reportCommon reports the findings most file commands share: critical
// files (DG-CRITICAL-FILE) and unknown targets (DG-UNRESOLVED-TARGET).
func (v *cmdv) reportCommon(hs []hit) {
	v.report(rules.CriticalFile, "", pick(hs, hitCritical))
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// viaArgs reports whether the command is run by xargs, parallel or fd
// -x/-X on items they read or find.
func (v *cmdv) viaArgs() bool {
	for _, s := range v.c.Via {
		if s.RunsItems() {
			return true
		}
	}
	return false
}

// isSlashSwitch reports whether w is a one-letter cmd.exe-style switch
// (/s, /Q, /a:h), which must never be read as the MSYS drive S:\.
func isSlashSwitch(w ir.Word) bool {
	v := w.Value
	if w.Unknown || len(v) < 2 || v[0] != '/' {
		return false
	}
	sw, _, _ := strings.Cut(v[1:], ":")
	return len(sw) == 1 && (isNameByte(sw[0]) || sw[0] == '?')
}
