package danger

import (
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// ruleEffects judges a command that has effects (Command.Effects) and
// no rule of its own, by what it does: a recursive delete of a
// catastrophic target (DG-RM-RECURSIVE), a recursive change of its mode
// or owner (DG-CHMOD-RECURSIVE), any effect on a critical file
// (DG-CRITICAL-FILE), and an unknown target of a recursive one
// (DG-UNRESOLVED-TARGET). A command cmdfacts gives effects needs no rule
// here: this one is its policy (judge.go calls it).
func ruleEffects(v *cmdv) {
	for _, e := range v.c.Effects {
		want := hitCritical
		if e.Recursive && (e.Op == ir.EffectDelete || e.Op == ir.EffectModify) {
			want |= hitCatastrophic | hitUnknown
		}
		hs := v.targets(e.Targets, want)
		switch e.Op {
		case ir.EffectDelete:
			v.report(rules.RmRecursive, "", pick(hs, hitCatastrophic))
		case ir.EffectModify:
			v.report(rules.ChmodRecursive, "", pick(hs, hitCatastrophic))
		}
		v.reportCommon(hs)
	}
}
