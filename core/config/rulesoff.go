package config

// KeyDisabledRules is the setting that switches built-in rules off.
const KeyDisabledRules = "disabled_rules"

// RuleSettings declares the settings about the built-in layers' rules as
// a whole (core/rules.ParseDisabled reads disabled_rules; the host applies
// it to every built-in layer's verdict).
var RuleSettings = []Spec{{
	Key: KeyDisabledRules, Kind: String,
	Title: "Switched-off rules",
	Description: "Rule ids (DG-K8S-DELETE) or families (infra, git) of the built-in layers that no longer ask, separated by ';'. " +
		"The catastrophic core (deleting /, home or a drive root, wiping a disk) and the answers for calls that could not be fully inspected cannot be switched off. Unknown ids are reported by explain.",
}}
