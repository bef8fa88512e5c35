package analysis

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestViaKinds runs the "analyze" cases of ../testdata/via_kinds.json (key
// "script", not "command", so the golden corpus walk leaves them out): the
// first command named name gets Via entries of the listed kinds, in order.
func TestViaKinds(t *testing.T) {
	data, err := os.ReadFile("../testdata/via_kinds.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases struct {
		Analyze []struct {
			Script string   `json:"script"`
			Name   string   `json:"name"`
			Kinds  []string `json:"kinds"`
		} `json:"analyze"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases.Analyze) == 0 {
		t.Fatal("no analyze cases")
	}
	for _, c := range cases.Analyze {
		s := Analyze(c.Script, Options{})
		found := false
		for _, cmd := range s.Commands {
			if cmd.Name != c.Name {
				continue
			}
			found = true
			var kinds []string
			for _, v := range cmd.Via {
				kinds = append(kinds, v.Kind.String())
			}
			if !slices.Equal(kinds, c.Kinds) {
				t.Errorf("%q: %s has via kinds %q, want %q:\n%s", c.Script, c.Name, kinds, c.Kinds, s.Outline())
			}
			break
		}
		if !found {
			t.Errorf("%q: no command named %s:\n%s", c.Script, c.Name, s.Outline())
		}
	}
}
