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
// handed to a shell), from inside a project directory: the exit code says
// ask or silent, stdout is the exact ask line or nothing, and a summary is
// on stderr. The examples alternate between the two isolation modes, each
// run once, hookWorkers at a time: TestGolden runs every example in both
// modes and requires the same answer from each.
func TestDesignExamples(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/design-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples []designExample
	if err := json.Unmarshal(data, &examples); err != nil {
		t.Fatal(err)
	}
	s := newScratch(t)
	type answer struct {
		out    []byte
		stderr string
		err    error
	}
	answers := make([]answer, len(examples))
	modeOf := func(i int) string { return isolationModes[i%2] }
	parallelDo(len(examples), func(i int) {
		ex := examples[i]
		env := s.env("default", true, "ZCODE_FENCE_LAYER_ISOLATION="+modeOf(i))
		if ex.CustomRules != "" {
			env = append(env, "ZCODE_FENCE_CUSTOM_RULES="+ex.CustomRules)
		}
		cmd := exec.Command(binary, "--eval", ex.Command)
		cmd.Env, cmd.Dir = env, s.project
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		answers[i] = answer{out, stderr.String(), err}
	})
	for i, ex := range examples {
		a := answers[i]
		wantCode := exitSilent
		if ex.Expect == "ask" {
			wantCode = exitAsk
		}
		if code := exitCode(a.err); code != wantCode {
			t.Errorf("%q (%s): exit %d (%v), want %d", ex.Command, modeOf(i), code, a.err, wantCode)
			continue
		}
		got, detail := checkAnswer(runResult{stdout: a.out})
		if got != ex.Expect {
			t.Errorf("%s: %q (%s): got %q (%s), want %s", ex.Family, ex.Command, modeOf(i), got, detail, ex.Expect)
		}
		if !strings.HasPrefix(a.stderr, "[zcode-fence] decision="+ex.Expect) {
			t.Errorf("%q (%s): stderr summary %q", ex.Command, modeOf(i), a.stderr)
		}
	}
	t.Logf("%d DESIGN.md §5 examples judged by --eval in %s, alternating isolation modes", len(examples), filepath.Base(s.project))
}
