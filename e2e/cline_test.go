//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

// clineVersion is the pinned Cline CLI (npm "cline") the adapter was
// measured with.
const clineVersion = "3.0.65"

// TestClineHook drives the real Cline CLI headless (cline --json PROMPT,
// act mode with auto-approve, its default) against the fake API as an
// OpenAI-compatible provider set with `cline auth`. Without the guard its
// run_commands tool overwrites the fake home's marker. With the hook
// installed as README.md says (sh <release>/bundle/zcode-fence/cline/
// install.sh), an in-project touch runs, and then the overwrite is stopped
// before it runs: Cline cannot ask, so the guard answers with its stopping
// form ({"cancel": true, "errorMessage": reason}), which ends the whole
// run; Cline logs the reason (ControlledStopError) in
// ~/.cline/data/logs/cline.log, and its --json stream ends with
// run_aborted. A second guarded run shows the same for its editor tool
// writing into the fake home.
func TestClineHook(t *testing.T) {
	t.Parallel()
	cli := findAgentCLI(t, "cline", clineVersion, "ZCODE_FENCE_CLINE", "CLINE_CLI_VERSION")
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		w := newAgentWorld(t, f, cli, baseEnv(f))
		// Cline starts its hub daemon (setsid) and leaves it running.
		w.daemons = []string{"--cline-hub-daemon"}
		w.must(t, nil, "auth", "-p", "openai-compatible", "-k", "e2e-fake-key", "-m", "fake-model", "-b", api.URL+"/v1")
		return w
	}
	commands := func(cs ...string) string {
		b, _ := json.Marshal(map[string]any{"commands": cs})
		return string(b)
	}
	overwrite := commands("echo overwritten > {{HOME}}/.zcode-fence-e2e-marker")
	args := []string{"--json", hostPrompt}
	var timings []string
	t.Run("control without the guard", func(t *testing.T) {
		w := world(t)
		r := clineRun(t, w, api, []string{"run_commands"}, []string{overwrite}, args)
		if got, _ := os.ReadFile(w.f.Marker); string(got) == markerText {
			t.Errorf("without the guard the marker survived: the control proves nothing")
		}
		if n := len(api.ToolOutputs()); n != 1 {
			t.Errorf("the CLI reported %d tool outputs for 1 call", n)
		}
		timings = append(timings, "control "+r.elapsed.Round(time.Millisecond).String())
	})
	t.Run("hook installed", func(t *testing.T) {
		w := world(t)
		installClineHook(t, w)
		r := clineRun(t, w, api, []string{"run_commands", "run_commands"},
			[]string{commands("touch in-project.txt"), overwrite}, args)
		if _, err := os.Stat(filepath.Join(w.f.Project, "in-project.txt")); err != nil {
			t.Errorf("the in-project touch did not run: %v", err)
		}
		outs := api.ToolOutputs()
		if len(outs) != 1 || strings.Contains(outs[0].Text, "[zcode-fence") {
			t.Errorf("want the touch's output alone, without zcode-fence's reason: %+v", outs)
		}
		checkClineStopped(t, w, r, "run_commands")
		timings = append(timings, "hook "+r.elapsed.Round(time.Millisecond).String())

		r = clineRun(t, w, api, []string{"editor"},
			[]string{`{"path":"{{HOME}}/written-by-the-agent.txt","new_text":"x\n"}`}, args)
		if _, err := os.Stat(filepath.Join(w.f.Home, "written-by-the-agent.txt")); err == nil {
			t.Errorf("editor wrote into the fake home")
		}
		checkClineStopped(t, w, r, "editor")
		timings = append(timings, "hook editor "+r.elapsed.Round(time.Millisecond).String())
	})
	t.Logf("cline runs: %s", strings.Join(timings, "; "))
}

// clineRun runs one headless Cline session with the fake API scripted by
// the named tool calls.
func clineRun(t *testing.T, w *claudeWorld, api *fakeapi.Server, names, inputs, args []string) claudeRun {
	t.Helper()
	steps := make([]fakeapi.Step, len(names))
	for i := range names {
		steps[i] = fakeapi.Step{Name: names[i], Input: json.RawMessage(w.f.expand(inputs[i]))}
	}
	api.SetSteps(steps)
	r := w.run(t, nil, 3*time.Minute, args...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("exit %d\nstdout: %s\nstderr: %s\ntool outputs: %+v", r.code, r.stdout, r.stderr, api.ToolOutputs())
		}
	})
	return r
}

// checkClineStopped: the marker is intact, the run ended aborted, and
// Cline logged zcode-fence's reason as the stop's message, the deny that
// tells the agent to ask the user.
func checkClineStopped(t *testing.T, w *claudeWorld, r claudeRun, tool string) {
	t.Helper()
	if got, err := os.ReadFile(w.f.Marker); err != nil || string(got) != markerText {
		t.Errorf("%s: the fake home marker did not survive: %q %v", tool, got, err)
	}
	if !strings.Contains(string(r.stdout), `"type":"run_aborted"`) {
		t.Errorf("%s: the run did not end aborted", tool)
	}
	log, err := os.ReadFile(filepath.Join(w.f.Home, ".cline", "data", "logs", "cline.log"))
	if err != nil {
		t.Fatalf("%s: Cline's log: %v", tool, err)
	}
	for _, line := range strings.Split(string(log), "\n") {
		var e struct{ ErrorName, ErrorMessage string }
		if json.Unmarshal([]byte(line), &e) == nil && e.ErrorName == "ControlledStopError" &&
			strings.HasPrefix(e.ErrorMessage, "[zcode-fence]") && strings.Contains(e.ErrorMessage, "ask the user") {
			return
		}
	}
	t.Errorf("%s: Cline's log carries no stop with zcode-fence's reason:\n%s", tool, log)
}

// installClineHook runs the release tree's cline/install.sh with sh, as
// README.md tells users, and checks what it wrote.
func installClineHook(t *testing.T, w *claudeWorld) {
	t.Helper()
	a, ok := agenthost.ByName("cline")
	if !ok {
		t.Fatal("no adapter cline")
	}
	script := filepath.Join(w.f.Market, filepath.FromSlash(filepath.Dir(a.Packaging().PluginFile)), "install.sh")
	cmd := exec.Command("sh", script)
	cmd.Env = w.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sh %s: %v\n%s", script, err, out)
	}
	if _, err := os.Stat(filepath.Join(w.f.Home, ".cline", "hooks", a.Packaging().Event)); err != nil {
		t.Fatalf("install.sh wrote no hook: %v\n%s", err, out)
	}
}
