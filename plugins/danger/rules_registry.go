package danger

import (
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// registryRules are the rules of this file and the command names they judge.
var registryRules = []judging{
	on(ruleRegistryItem, "clear-item", "remove-itemproperty", "clear-itemproperty", "rename-item"),
}

// Registry keys removed, emptied, moved or stripped of values through the
// PowerShell provider (DG-REG-DELETE): Clear-Item, Remove-ItemProperty,
// Clear-ItemProperty, Rename-Item and Move-Item of a system key
// (cmdfacts.RegistryKeyCritical); Remove-Item is in ruleRemoveItem.
// A relative key after Set-Location HKLM:\ is resolved against it.

// ruleRegistryItem judges the registry paths of a provider cmdlet.
func ruleRegistryItem(v *cmdv) {
	pc := winshell.ParsePowerShellCommand(v.c.Args)
	if pc.WhatIf {
		return
	}
	paths := append(append([]ir.Word(nil), pc.Named["path"]...), pc.Named["literalpath"]...)
	values := v.name == "remove-itemproperty" || v.name == "clear-itemproperty"
	if len(paths) == 0 && !values {
		v.registryListed()
	}
	v.registryKeys(paths, values)
}

// registryKeys reports the root and system keys among words (with values:
// keys whose values the command removes).
func (v *cmdv) registryKeys(words []ir.Word, values bool) {
	for _, w := range words {
		if key, ok := cmdfacts.RegistryWord(w, v.c.Cd); ok {
			if shown, rule := criticalKey(key, values); rule != nil {
				v.report(rule, "", []hit{{shown: shown}})
			}
		}
	}
}

// registryListed reports Get-ChildItem (gci, ls, dir) of a system key
// piped into the command: it deletes every subkey.
func (v *cmdv) registryListed() {
	v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
		if kind != ir.FeedPipe {
			return true
		}
		u := v.j.view(k)
		if u.name != "get-childitem" && u.name != "get-item" {
			return true
		}
		pc := winshell.ParsePowerShellCommand(u.c.Args)
		for _, w := range append(append([]ir.Word(nil), pc.Named["path"]...), pc.Named["literalpath"]...) {
			key, ok := cmdfacts.RegistryWord(w, u.c.Cd)
			if !ok {
				continue
			}
			if u.name == "get-childitem" {
				key += `\*`
			}
			if shown, rule := criticalKey(key, false); rule != nil {
				v.report(rule, "", []hit{{shown: shown}})
			}
		}
		return true
	})
}
