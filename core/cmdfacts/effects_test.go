package cmdfacts_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// TestEffectsOf runs testdata/effects.json: each command's effects,
// written "OP [into] TARGET... [from SOURCE...] [recursive] [force]
// [symbolic] [relative]".
func TestEffectsOf(t *testing.T) {
	data, err := os.ReadFile("testdata/effects.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Command string   `json:"command"`
		Effects []string `json:"effects"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		f := strings.Fields(tc.Command)
		var args []ir.Word
		for _, a := range f[1:] {
			args = append(args, cmdfacts.Literal(a))
		}
		got := []string{}
		for _, e := range cmdfacts.EffectsOf(f[0], args) {
			s := e.Op.String()
			if e.Into {
				s += " into"
			}
			for _, w := range e.Targets {
				s += " " + w.Value
			}
			if len(e.Sources) > 0 {
				s += " from"
				for _, w := range e.Sources {
					s += " " + w.Value
				}
			}
			if e.Recursive {
				s += " recursive"
			}
			if e.Force {
				s += " force"
			}
			if e.Symbolic {
				s += " symbolic"
			}
			if e.Relative {
				s += " relative"
			}
			got = append(got, s)
		}
		if !slices.Equal(got, tc.Effects) {
			t.Errorf("%s: effects %q, want %q", tc.Command, got, tc.Effects)
		}
	}
	if len(cases) < 15 {
		t.Fatalf("only %d cases", len(cases))
	}
}
