package cmdfacts_test

import (
	"slices"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

type historyCase struct {
	Path string `json:"path"`
	Want bool   `json:"want"`
	Why  string `json:"why"`
}

// TestGitHistoryPath runs testdata/githistory.json: which deleted paths
// take a repository's history with them.
func TestGitHistoryPath(t *testing.T) {
	for _, tc := range load[historyCase](t, "githistory.json") {
		if got := cmdfacts.GitHistoryPath(tc.Path); got != tc.Want {
			t.Errorf("GitHistoryPath(%q) = %v, want %v (%s)", tc.Path, got, tc.Want, tc.Why)
		}
	}
}

type findNamesCase struct {
	Command string   `json:"command"`
	Names   []string `json:"names"` // TEST PATTERN, "! " first when negated
	Prune   bool     `json:"prune"`
	Or      bool     `json:"or"`
}

// TestFindNames runs testdata/findnames.json: find's name tests, their
// negation, -prune and -o.
func TestFindNames(t *testing.T) {
	for _, tc := range load[findNamesCase](t, "findnames.json") {
		t.Run(tc.Command, func(t *testing.T) {
			f := cmdfacts.ParseFind(command(t, tc.Command).Args[1:])
			var got []string
			for _, n := range f.Names {
				s := n.Test + " " + shown([]ir.Word{n.Pattern})[0]
				if n.Negated {
					s = "! " + s
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.Names) {
				t.Errorf("names %q, want %q", got, tc.Names)
			}
			if f.Prune != tc.Prune || f.Or != tc.Or {
				t.Errorf("prune %v or %v, want %v %v", f.Prune, f.Or, tc.Prune, tc.Or)
			}
		})
	}
}
