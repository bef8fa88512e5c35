package cmdfacts_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type coverCase struct {
	Glob    string `json:"glob"`
	Dotglob bool   `json:"dotglob"`
	Plain   bool   `json:"plain"`
	Dots    bool   `json:"dots"`
	Why     string `json:"why"`
}

// TestGlobCovers runs testdata/globcovers.json: which globs cover every
// plain entry of a directory, and every dot entry.
func TestGlobCovers(t *testing.T) {
	for _, tc := range load[coverCase](t, "globcovers.json") {
		plain, dots := cmdfacts.GlobCovers(tc.Glob, tc.Dotglob)
		if plain != tc.Plain || dots != tc.Dots {
			t.Errorf("%q (dotglob %v): plain %v dots %v, want %v %v (%s)", tc.Glob, tc.Dotglob, plain, dots, tc.Plain, tc.Dots, tc.Why)
		}
	}
}

type dotglobCase struct {
	Command string `json:"command"`
	Set     bool   `json:"set"`
	On      bool   `json:"on"`
	Why     string `json:"why"`
}

// TestDotGlobSetting runs testdata/dotglob.json: the commands that turn
// the shell's dotglob on or off.
func TestDotGlobSetting(t *testing.T) {
	for _, tc := range load[dotglobCase](t, "dotglob.json") {
		c := command(t, tc.Command)
		set, on := cmdfacts.DotGlobSetting(c)
		if set != tc.Set || on != tc.On {
			t.Errorf("%q: set %v on %v, want %v %v (%s)", tc.Command, set, on, tc.Set, tc.On, tc.Why)
		}
	}
}
