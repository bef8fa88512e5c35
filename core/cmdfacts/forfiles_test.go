package cmdfacts_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

type forfilesCase struct {
	Args []string `json:"args"`
	Want string   `json:"want"`
	Why  string   `json:"why"`
}

// TestForfiles runs testdata/forfiles.json: the command line forfiles
// runs, its file placeholders replaced by DIR\MASK ("" when it runs none
// worth judging).
func TestForfiles(t *testing.T) {
	for _, tc := range load[forfilesCase](t, "forfiles.json") {
		args := make([]ir.Word, len(tc.Args))
		for i, a := range tc.Args {
			args[i] = cmdfacts.Literal(a)
		}
		got, ok := cmdfacts.Forfiles(args)
		if ok != (tc.Want != "") || got != tc.Want {
			t.Errorf("%q: got %q, %v; want %q (%s)", tc.Args, got, ok, tc.Want, tc.Why)
		}
	}
}
