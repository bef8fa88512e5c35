package main

import (
	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/decisionmodel"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
)

// builtins is the chain, in order. The order matters only for how reasons
// are listed (the danger gate's reason first); deterministic layers run
// concurrently, the decision model runs last and only when they were all
// silent. Config switches layers off but never reorders them.
var builtins = []host.Builtin{
	{
		Name:   danger.Name,
		New:    func() core.Layer { return danger.New() },
		Switch: config.KeyEnableDangerGate,
		Keys:   []string{config.KeyCustomRules, config.KeyLanguage},
	},
	{
		Name:   fence.Name,
		New:    func() core.Layer { return fence.New() },
		Switch: config.KeyEnableFence,
		Keys:   []string{config.KeyLanguage},
	},
	{
		Name:     decisionmodel.LayerName,
		New:      func() core.Layer { return decisionmodel.New() },
		Switch:   config.KeyEnableDecisionModel,
		Deferred: true,
		Keys: []string{
			config.KeyDecisionModelEndpoint, config.KeyDecisionModelModel, config.KeyDecisionModelAPIKey,
			config.KeyDecisionModelStrict, config.KeyDecisionModelTimeoutMs, config.KeyDecisionModelHeaders,
			config.KeyDecisionModelProxy, config.KeyDecisionModelPrompt, config.KeyDecisionModelCache,
			config.KeyLanguage,
		},
		TimeoutKey: config.KeyDecisionModelTimeoutMs,
	},
}

// builtin finds a built-in layer by name.
func builtin(name string) (host.Builtin, bool) {
	for _, b := range builtins {
		if b.Name == name {
			return b, true
		}
	}
	return host.Builtin{}, false
}
