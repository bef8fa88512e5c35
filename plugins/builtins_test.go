package plugins

import (
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// TestBuiltinsDeclareTheirSettings checks what the host relies on: every
// switch is a boolean setting, the timeout key is one of the layer's own
// integer settings, and each layer is what its name says.
func TestBuiltinsDeclareTheirSettings(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range Builtins {
		if seen[b.Name] {
			t.Errorf("layer %s listed twice", b.Name)
		}
		seen[b.Name] = true
		if got := b.New().Name(); got != b.Name {
			t.Errorf("layer %s builds a layer named %s", b.Name, got)
		}
		// A layer without a host switch always runs (the fence: with
		// enable_fence off it still guards the protected paths); its
		// enable_ setting is then one of its own Settings.
		sw := b.Switch
		if sw.Key == "" {
			for _, s := range b.Settings {
				if strings.HasPrefix(s.Key, "enable_") {
					sw = s
				}
			}
		}
		if sw.Key == "" || sw.Kind != config.Bool {
			t.Errorf("%s: switch %+v is not a boolean setting", b.Name, sw)
		}
		if s, ok := Schema.Spec(sw.Key); !ok || s.Key != sw.Key {
			t.Errorf("%s: switch %s is not in the schema", b.Name, sw.Key)
		}
		if b.TimeoutKey != "" {
			found := false
			for _, s := range b.Settings {
				if s.Key == b.TimeoutKey {
					found = s.Kind == config.Int
				}
			}
			if !found {
				t.Errorf("%s: TimeoutKey %s is not one of its integer settings", b.Name, b.TimeoutKey)
			}
		}
		if _, ok := Builtin(b.Name); !ok {
			t.Errorf("Builtin(%q) does not find it", b.Name)
		}
	}
	if _, ok := Builtin("nope"); ok {
		t.Error("Builtin found a layer that does not exist")
	}
}

// TestRuleFamiliesNameBuiltins: every family of the rule catalog belongs
// to a built-in layer (or to the host seam, whose decoder raises its own
// asks), and every built-in layer has a family.
func TestRuleFamiliesNameBuiltins(t *testing.T) {
	hasFamily := map[string]bool{}
	for _, f := range rules.Families() {
		if f.Layer == rules.Host.Layer {
			continue // the host's own rules (core/host, core/agenthost's decoding), not a layer's
		}
		if _, ok := Builtin(f.Layer); !ok {
			t.Errorf("rule family %s names layer %q, which is not built in", f.Name, f.Layer)
		}
		hasFamily[f.Layer] = true
	}
	for _, b := range Builtins {
		if !hasFamily[b.Name] {
			t.Errorf("layer %s has no rule family in core/rules", b.Name)
		}
	}
}

func TestSchemaOrder(t *testing.T) {
	// The settings UI lists the deterministic layers first (switch, then
	// own settings), the host's own settings, then the deferred layers.
	var got []string
	for _, s := range Schema.Specs() {
		got = append(got, s.Key)
	}
	if len(got) < 3 || got[0] != "enable_danger_gate" || got[1] != "custom_rules" || got[2] != "protect_secrets" || got[3] != "enable_fence" {
		t.Errorf("schema starts %v", got)
	}
	if _, ok := Schema.Spec(config.KeyLanguage); !ok {
		t.Error("the host's settings are missing from the schema")
	}
	if last := got[len(got)-1]; !strings.HasPrefix(last, "decision_model_") {
		t.Errorf("schema ends with %s, want the decision model's settings last", last)
	}
}
