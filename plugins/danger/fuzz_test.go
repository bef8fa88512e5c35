package danger

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core"
)

// FuzzDecide: no command text, dialect, platform, cwd or custom rule makes
// Decide panic (it would come back as an error: Decide recovers), fail or
// return a malformed reason. Seeds: every table case, every everyday
// command, and the corpus under testdata/fuzz/FuzzDecide.
func FuzzDecide(f *testing.F) {
	for _, c := range append(familyCases(f), readCases(f, "seed-dg.json")...) {
		f.Add(c.Command, c.Tool == "PowerShell", c.platform(), c.Cwd, c.CustomRules)
	}
	for _, cmd := range readEveryday(f) {
		f.Add(cmd, false, "linux", "", "")
	}
	l := newTestLayer()
	f.Fuzz(func(t *testing.T, command string, powershell bool, platform, cwd, custom string) {
		c := tcase{Command: command, Platform: platform, Cwd: cwd, CustomRules: custom, Expect: "silent"}
		if _, ok := testPlatforms[platform]; !ok {
			c.Platform = "linux"
		}
		if powershell {
			c.Tool = "PowerShell"
		}
		for _, lang := range []string{"zh", "en"} {
			v, err := l.Decide(context.Background(), c.call(lang))
			if err != nil {
				t.Fatalf("%q: %v", command, err)
			}
			if (v.Decision == core.Ask) != (len(v.Reasons) > 0) {
				t.Fatalf("%q: decision %v with %d reasons", command, v.Decision, len(v.Reasons))
			}
			for _, r := range v.Reasons {
				if r.Layer != Name || !strings.HasPrefix(r.Rule, "DG-") || r.Message == "" {
					t.Fatalf("%q: malformed reason %+v", command, r)
				}
				if utf8.RuneCountInString(r.Message) > 260 {
					t.Fatalf("%q: message of %d characters", command, utf8.RuneCountInString(r.Message))
				}
			}
		}
	})
}
