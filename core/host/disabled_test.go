package host

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
)

// reasonLayer asks with one reason per rule id.
type reasonLayer struct {
	name string
	ids  []string
}

func (l *reasonLayer) Name() string { return l.name }

func (l *reasonLayer) Decide(context.Context, *core.Call) (core.Verdict, error) {
	var rs []core.Reason
	for _, id := range l.ids {
		rs = append(rs, core.Reason{Layer: l.name, Rule: id, Message: "[zcode-fence: test] " + id})
	}
	if len(rs) == 0 {
		return core.SilentVerdict, nil
	}
	return core.AskVerdict(rs...), nil
}

var offSchema = config.NewSchema(config.RuleSettings, config.HostSettings, []config.Spec{switchModel})

func offCfg(list string) config.Config {
	env := map[string]string{"ZCODE_FENCE_CONFIG": "/nonexistent", "ZCODE_FENCE_LAYER_ISOLATION": "inprocess",
		"ZCODE_FENCE_ENABLE_MODEL": "true", "ZCODE_FENCE_DISABLED_RULES": list}
	return offSchema.Load(config.Env{Lookup: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Home: "/nonexistent"})
}

// TestDisabledRules: disabled_rules removes the switched-off reasons of
// every built-in layer (deterministic and deferred), keeps them in
// LayerResult.Disabled, lets the model run when nothing else asks, never
// switches a locked rule off, and notes unknown and locked items.
func TestDisabledRules(t *testing.T) {
	cases := []struct {
		name      string
		list      string
		danger    []string
		model     []string
		want      core.Decision
		wantRules []string // the reasons of the answer
		off       []string // the reasons switched off
		notes     []string // substrings of the notes
		modelRuns bool
	}{
		{name: "nothing off", danger: []string{"DG-K8S-DELETE"}, want: core.Ask, wantRules: []string{"DG-K8S-DELETE"}},
		{name: "the id", list: "DG-K8S-DELETE", danger: []string{"DG-K8S-DELETE"}, want: core.Silent, off: []string{"DG-K8S-DELETE"}, modelRuns: true},
		{name: "the family", list: "infra", danger: []string{"DG-K8S-DELETE", "DG-DB-DESTROY"}, want: core.Silent, off: []string{"DG-K8S-DELETE", "DG-DB-DESTROY"}, modelRuns: true},
		{name: "others stay", list: "infra", danger: []string{"DG-GIT-RESET-HARD", "DG-K8S-DELETE"}, want: core.Ask, wantRules: []string{"DG-GIT-RESET-HARD"}, off: []string{"DG-K8S-DELETE"}},
		{name: "locked id", list: "DG-RM-RECURSIVE;delete", danger: []string{"DG-RM-RECURSIVE"}, want: core.Ask, wantRules: []string{"DG-RM-RECURSIVE"},
			notes: []string{"DG-RM-RECURSIVE cannot be switched off", "family delete is off except"}},
		{name: "incomplete stays", list: "hidden", danger: []string{"DG-INCOMPLETE"}, want: core.Ask, wantRules: []string{"DG-INCOMPLETE"}},
		{name: "model rule", list: "DM-DATA-LOSS", model: []string{"DM-DATA-LOSS"}, want: core.Silent, off: []string{"DM-DATA-LOSS"}, modelRuns: true},
		{name: "unknown", list: "DG-NOPE", danger: []string{"DG-K8S-DELETE"}, want: core.Ask, wantRules: []string{"DG-K8S-DELETE"},
			notes: []string{`"DG-NOPE" is not a rule id`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var modelRan bool
			model := &reasonLayer{name: "m", ids: tc.model}
			h := Host{Builtins: []Builtin{
				{Name: "danger", New: func() core.Layer { return &reasonLayer{name: "danger", ids: tc.danger} }},
				{Name: "m", New: func() core.Layer { modelRan = true; return model }, Switch: switchModel, Deferred: true},
			}}
			out, release := h.Run(context.Background(), &core.Call{Tool: "Bash", Kind: core.KindShell}, offCfg(tc.list), time.Now())
			release()
			if out.Verdict.Decision != tc.want {
				t.Fatalf("decision %v, want %v (%+v)", out.Verdict.Decision, tc.want, out.Layers)
			}
			var got, off []string
			for _, r := range out.Verdict.Reasons {
				got = append(got, r.Rule)
			}
			for _, l := range out.Layers {
				for _, r := range l.Disabled {
					off = append(off, r.Rule)
				}
			}
			if !slices.Equal(got, tc.wantRules) || !slices.Equal(off, tc.off) {
				t.Errorf("reasons %v, off %v; want %v, off %v", got, off, tc.wantRules, tc.off)
			}
			if modelRan != tc.modelRuns {
				t.Errorf("model ran: %v, want %v", modelRan, tc.modelRuns)
			}
			notes := strings.Join(out.Notes, "\n")
			for _, n := range tc.notes {
				if !strings.Contains(notes, n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
			if tc.want == core.Silent && out.Text != "" {
				t.Errorf("silent with text %q", out.Text)
			}
		})
	}
}
