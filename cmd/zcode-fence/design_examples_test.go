package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// designExample is one row of testdata/design-examples.json: an example
// that DESIGN.md §5 says must ask, or must stay silent.
type designExample struct {
	Family      string `json:"family"`
	Command     string `json:"command"`
	CustomRules string `json:"custom_rules"`
	Expect      string `json:"expect"`
}

// TestDesignExamples runs every example of DESIGN.md §5 through
// `zcode-fence --eval CMD` (the binary is exec'd directly; nothing is ever
// handed to a shell), from inside a project directory, in both isolation
// modes: stdout is the exact ask line or nothing, and a summary is on
// stderr.
func TestDesignExamples(t *testing.T) {
	data, err := os.ReadFile("testdata/design-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples []designExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			for _, ex := range examples {
				env := s.env("default", true, "ZCODE_FENCE_LAYER_ISOLATION="+mode)
				if ex.CustomRules != "" {
					env = append(env, "ZCODE_FENCE_CUSTOM_RULES="+ex.CustomRules)
				}
				cmd := exec.Command(binary, "--eval", ex.Command)
				cmd.Env, cmd.Dir = env, s.project
				var stderr strings.Builder
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				wantCode := exitSilent
				if ex.Expect == "ask" {
					wantCode = exitAsk
				}
				if code := exitCode(err); code != wantCode {
					t.Fatalf("%q: exit %d (%v), want %d", ex.Command, code, err, wantCode)
				}
				got, detail := checkAnswer(runResult{stdout: out})
				if got != ex.Expect {
					t.Errorf("%s: %q: got %q (%s), want %s", ex.Family, ex.Command, got, detail, ex.Expect)
				}
				if !strings.HasPrefix(stderr.String(), "[zcode-fence] decision="+ex.Expect) {
					t.Errorf("%q: stderr summary %q", ex.Command, stderr.String())
				}
			}
			t.Logf("%s: %d DESIGN.md §5 examples judged by --eval in %s", mode, len(examples), filepath.Base(s.project))
		})
	}
}
