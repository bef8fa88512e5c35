package main

import (
	"context"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// FuzzDecide: any command text, with any branches option, gives a verdict
// without panicking; an ask always carries marked reasons within the cap.
func FuzzDecide(f *testing.F) {
	cases, err := readCases()
	if err != nil {
		f.Fatal(err)
	}
	for _, tc := range cases {
		f.Add(tc.Command, "main;release/*")
	}
	f.Add("git push origin :", "[")
	f.Add("git branch -u", "")
	f.Add("git checkout -B", "*")
	f.Fuzz(func(t *testing.T, command, branches string) {
		call := sdk.ShellCall{Command: command, Options: map[string]string{"branches": branches, "language": "zh"}}.Call()
		v, err := newLayer().Decide(context.Background(), call)
		if err != nil {
			t.Fatal(err)
		}
		if v.Decision == core.Ask && (len(v.Reasons) == 0 || len(v.Reasons) > maxReasons) {
			t.Fatalf("ask with %d reasons", len(v.Reasons))
		}
		for _, r := range v.Reasons {
			if !strings.HasPrefix(r.Message, "[zcode-fence: protect-branch] ") || r.Rule == "" {
				t.Fatalf("bad reason %+v", r)
			}
		}
	})
}
