// Package plugins lists the layers compiled into zcode-fence and the
// settings schema they make up with the host's own settings.
//
// Each layer declares its settings in its own package (an Enable switch
// and its Settings, as config.Spec values); this package only puts them in
// order. Everything else about settings is derived from Schema: the loader,
// explain, the environment scrub list for third-party layers, and the
// plugin manifests' userConfig (go generate writes it; a test in e2e fails
// when the committed manifests differ).
package plugins

//go:generate go run ../tools/generate manifests

import (
	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/decisionmodel"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
)

// Builtins is the chain, in order. The order matters only for how reasons
// are listed (the danger gate's reason first); deterministic layers run
// concurrently, the decision model runs last and only when they were all
// silent. Config switches layers off but never reorders them. The danger
// gate and the fence fail closed (Incomplete): a call they cannot finish
// judging asks; the decision model fails open.
var Builtins = []host.Builtin{
	{
		Name:       danger.Name,
		New:        func() core.Layer { return danger.New() },
		Switch:     danger.Enable,
		Settings:   danger.Settings,
		Reads:      danger.ProtectSecrets,
		Incomplete: danger.IncompleteReason,
	},
	{
		Name: fence.Name,
		New:  func() core.Layer { return fence.New() },
		// No host switch: with enable_fence off the layer still guards
		// the protected paths (its Settings carry the switch).
		Settings:   fence.Settings,
		Incomplete: fence.IncompleteReason,
	},
	{
		Name:       decisionmodel.LayerName,
		New:        func() core.Layer { return decisionmodel.New() },
		Switch:     decisionmodel.Enable,
		Settings:   decisionmodel.Settings,
		Deferred:   true,
		TimeoutKey: decisionmodel.KeyTimeoutMS,
	},
}

// Builtin finds a built-in layer by name.
func Builtin(name string) (host.Builtin, bool) {
	for _, b := range Builtins {
		if b.Name == name {
			return b, true
		}
	}
	return host.Builtin{}, false
}

// Schema is every setting, in the order the hosts' settings UI lists them:
// the deterministic layers' (each switch first, in chain order), the
// host's own, then the deferred layers'.
var Schema = schema()

func schema() *config.Schema {
	var det, deferred [][]config.Spec
	for _, b := range Builtins {
		var group []config.Spec
		if b.Switch.Key != "" {
			group = append(group, b.Switch)
		}
		group = append(group, b.Settings...)
		if b.Deferred {
			deferred = append(deferred, group)
		} else {
			det = append(det, group)
		}
	}
	groups := append(det, config.RuleSettings, config.HostSettings)
	return config.NewSchema(append(groups, deferred...)...)
}
