package host

import (
	"fmt"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// DisabledRules reads disabled_rules from cfg: the set, and a note for
// each item that switches nothing off (an id or family the catalog does
// not declare, or locked rules, which stay on). The host applies the set
// to every call; doctor and explain show the notes.
func DisabledRules(cfg config.Config) (rules.Disabled, []string) {
	d, unknown, locked := rules.ParseDisabled(cfg.Get(config.KeyDisabledRules))
	var notes []string
	for _, u := range unknown {
		notes = append(notes, fmt.Sprintf("%s: %q is not a rule id or family of the built-in layers; ignored", config.KeyDisabledRules, u))
	}
	for _, l := range locked {
		if l.Locked {
			notes = append(notes, fmt.Sprintf("%s: %s cannot be switched off; it stays on", config.KeyDisabledRules, l.Item))
		} else {
			notes = append(notes, fmt.Sprintf("%s: family %s is off except %s, which cannot be switched off", config.KeyDisabledRules, l.Item, strings.Join(l.Rules, ", ")))
		}
	}
	return d, notes
}

// switchOff removes the reasons of switched-off rules from the verdicts
// of built-in layers (third-party layers name their own ids and are not
// affected), keeping them in LayerResult.Disabled; a verdict left without
// reasons is silent. Locked rules are never in d.
func switchOff(results []LayerResult, d rules.Disabled) {
	if d.Empty() {
		return
	}
	for i := range results {
		r := &results[i]
		if r.Mode == ModeExternal || r.Verdict.Decision != core.Ask {
			continue
		}
		kept := r.Verdict.Reasons[:0:0]
		for _, reason := range r.Verdict.Reasons {
			if d.Off(reason.Rule) {
				r.Disabled = append(r.Disabled, reason)
				continue
			}
			kept = append(kept, reason)
		}
		if len(r.Disabled) == 0 {
			continue
		}
		r.Verdict.Reasons = kept
		if len(kept) == 0 {
			r.Verdict.Decision = core.Silent
			r.Verdict.Reasons = nil
		}
	}
}
