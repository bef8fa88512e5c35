package plugins

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// optionTemplates is testdata/option_templates.json.
type optionTemplates struct {
	Templates map[string]struct {
		Command string   `json:"command"`
		Except  []string `json:"except"`
	} `json:"templates"`
}

// specOptions lists every option of spec as it is written on a command
// line: "-x 1" and "--name 1" for the valued ones, "-x" for each flag
// letter; except names options left out.
func specOptions(spec cmdfacts.Spec, except []string) []string {
	var out []string
	for _, c := range spec.Short {
		if !slices.Contains(except, string(c)) {
			out = append(out, "-"+string(c)+" 1")
		}
	}
	for _, n := range spec.Long {
		if !slices.Contains(except, n) {
			out = append(out, "--"+n+" 1")
		}
	}
	for _, c := range spec.Flags {
		out = append(out, "-"+string(c))
	}
	return out
}

// answer is one layer's verdict and rules.
func answer(t *testing.T, l core.Layer, command string) string {
	t.Helper()
	call := sdk.ShellCall{Command: command, Cwd: "/home/u/proj", Home: "/home/u"}.Call()
	call.Platform = "linux"
	v, err := l.Decide(context.Background(), call)
	if err != nil {
		t.Fatalf("%s: %s: %v", l.Name(), command, err)
	}
	var rs []string
	for _, r := range v.Reasons {
		rs = append(rs, r.Rule)
	}
	slices.Sort(rs)
	return v.Decision.String() + " " + strings.Join(slices.Compact(rs), ",")
}

// TestSpecOptionsThroughBothLayers feeds every option of every
// cmdfacts.Syntax through the danger gate and the fence (each alone) in a
// command line each of them judges, before the operands and after them,
// and checks that no option changes either layer's answer: both read the
// command line by the one spec, so a drifted copy of it cannot hide.
func TestSpecOptionsThroughBothLayers(t *testing.T) {
	data, err := os.ReadFile("testdata/option_templates.json")
	if err != nil {
		t.Fatal(err)
	}
	var tt optionTemplates
	if err := json.Unmarshal(data, &tt); err != nil {
		t.Fatal(err)
	}
	layers := []core.Layer{danger.New(), fence.New()}
	fed := 0
	for _, name := range cmdfacts.SyntaxNames() {
		tmpl, ok := tt.Templates[name]
		if !ok {
			t.Errorf("%s has a cmdfacts.Syntax but no template in testdata/option_templates.json", name)
			continue
		}
		base := strings.Join(strings.Fields(strings.Replace(tmpl.Command, "{opt}", "", 1)), " ")
		want := make([]string, len(layers))
		asks := 0
		for i, l := range layers {
			want[i] = answer(t, l, base)
			if strings.HasPrefix(want[i], "ask") {
				asks++
			}
		}
		if asks == 0 {
			t.Errorf("%s: no layer asks about the template %q: it tests nothing", name, base)
			continue
		}
		spec, _ := cmdfacts.Syntax(name)
		for _, opt := range specOptions(spec, tmpl.Except) {
			variants := []string{strings.Replace(tmpl.Command, "{opt}", opt, 1)}
			if !spec.POSIX {
				variants = append(variants, base+" "+opt)
			}
			for _, cmd := range variants {
				for i, l := range layers {
					fed++
					if got := answer(t, l, cmd); got != want[i] {
						t.Errorf("%s: %q gives %q, %q gives %q", l.Name(), base, want[i], cmd, got)
					}
				}
			}
		}
	}
	t.Logf("%d commands, %d option placements judged", len(cmdfacts.SyntaxNames()), fed)
}
