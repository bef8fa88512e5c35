package cmdfacts_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// findListsCase is a line of testdata/findlists.json: a find command,
// an entry below its first start path, and whether Lists says find lists
// it (bad: the expression cannot be read).
type findListsCase struct {
	Command, Entry   string
	Dir, Listed, Bad bool
	Why              string
}

// TestFindLists runs testdata/findlists.json through Find.Lists from the
// first start path as written.
func TestFindLists(t *testing.T) {
	for _, tc := range load[findListsCase](t, "findlists.json") {
		t.Run(tc.Command+" "+tc.Entry, func(t *testing.T) {
			f := cmdfacts.ParseFind(command(t, tc.Command).Args[1:])
			if len(f.Roots) == 0 {
				t.Fatal("no start path")
			}
			listed, ok := f.Lists(f.Roots[0].Value, cmdfacts.FindEntry{Rel: tc.Entry, Dir: tc.Dir})
			if listed != tc.Listed || ok != !tc.Bad {
				t.Errorf("Lists = %v, ok %v; want %v, ok %v (%s)", listed, ok, tc.Listed, !tc.Bad, tc.Why)
			}
		})
	}
}
