package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// The long tail of destructive commands (core/cmdfacts.LongTail): disks,
// firmware, sessions, accounts and publishing. The facts — which command,
// which subcommand, which options — are the table's; this file maps each
// effect to its rule.

// longTailRules: ruleLongTail judges every command the table reads,
// after the rule the name has otherwise (npm, pnpm and yarn run scripts:
// ruleRunner judges those).
func longTailRules() []judging { return []judging{on(ruleLongTail, cmdfacts.LongTailCLIs()...)} }

// tailRules maps each effect to the rule that reports it.
var tailRules = map[cmdfacts.TailEffect]*rules.Rule{
	cmdfacts.TailDisk:     rules.DiskOverwrite,
	cmdfacts.TailFirmware: rules.FirmwareWrite,
	cmdfacts.TailPower:    rules.SessionEnd,
	cmdfacts.TailAccount:  rules.AccountChange,
	cmdfacts.TailPublish:  rules.PublishDelete,
}

// ruleLongTail judges one command of the long-tail table.
func ruleLongTail(v *cmdv) {
	op, ok := cmdfacts.LongTail(v.name, v.args)
	if !ok {
		return
	}
	rule := tailRules[op.Effect]
	if rule == nil {
		return
	}
	var parts []string
	for _, w := range op.Targets {
		parts = append(parts, shownRaw(w))
	}
	v.j.add(finding{rule: rule, cmd: v.display(), detail: op.Detail, subject: strings.Join(parts, " ")})
}
