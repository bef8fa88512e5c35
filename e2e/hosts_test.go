//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

// Pinned versions of the other agent hosts (shared/spec/hosts.md measured
// these); scripts/install-agent-cli.sh installs them into the e2e cache.
const (
	codexVersion   = "0.171.0"
	geminiVersion  = "0.61.0"
	qwenVersion    = "0.24.4"
	copilotVersion = "1.0.102"
)

// hostStep is one scripted tool call of a host run and what must come of it.
type hostStep struct {
	name  string
	input string // JSON
	// stopped: the call must not run, and what the model was told must
	// carry zcode-fence's reason.
	stopped bool
}

// hostRun is one headless run of an agent CLI against the fake API.
type hostRun struct {
	steps []hostStep
	// survives: the fake home's marker must still be there.
	survives bool
}

// check runs args in w with api scripted by run's steps, and checks the
// files and what the model was told.
func (run hostRun) check(t *testing.T, w *claudeWorld, api *fakeapi.Server, args ...string) time.Duration {
	t.Helper()
	steps := make([]fakeapi.Step, len(run.steps))
	for i, s := range run.steps {
		steps[i] = fakeapi.Step{Name: s.name, Input: json.RawMessage(w.f.expand(s.input))}
	}
	api.SetSteps(steps)
	r := w.run(t, nil, 3*time.Minute, args...)
	defer func() {
		if t.Failed() {
			t.Logf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
			for _, req := range api.Requests() {
				t.Logf("fake API got %s %s (%d bytes)", req.Method, req.Path, len(req.Body))
			}
			t.Logf("tool outputs: %+v", api.ToolOutputs())
		}
	}()
	outs := api.ToolOutputs()
	if len(outs) != len(run.steps) {
		t.Fatalf("the CLI reported %d tool outputs for %d scripted calls", len(outs), len(run.steps))
	}
	for i, s := range run.steps {
		told := strings.Contains(outs[i].Text, "[zcode-fence")
		if s.stopped && !told {
			t.Errorf("step %d (%s): the model was not told zcode-fence's reason: %q", i, s.input, outs[i].Text)
		}
		if !s.stopped && told {
			t.Errorf("step %d (%s) should run, but the model was told %q", i, s.input, outs[i].Text)
		}
	}
	_, err := os.Stat(w.f.Marker)
	if survives := err == nil; survives != run.survives {
		t.Errorf("fake home marker survives=%v, want %v", survives, run.survives)
	}
	return r.elapsed
}

// TestCodexPlugin drives the real Codex CLI (codex exec) against a fake
// Responses API: without the guard, find ~ -delete really wipes the fake
// home; with the plugin installed from the repository's Claude marketplace
// (codex plugin marketplace add + codex plugin add, as README tells users)
// the delete is denied with zcode-fence's reason, because Codex cannot ask,
// and an in-project touch runs. Hooks run only once trusted: the test uses
// --dangerously-bypass-hook-trust where a user trusts the hook under /hooks.
func TestCodexPlugin(t *testing.T) {
	codex := findAgentCLI(t, "codex", codexVersion, "ZCODE_FENCE_CODEX", "CODEX_CLI_VERSION")
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		config := "model = \"fake-model\"\nmodel_provider = \"fake\"\n\n[model_providers.fake]\nname = \"fake\"\nbase_url = \"" +
			api.URL + "/v1\"\nwire_api = \"responses\"\nrequires_openai_auth = false\n"
		writeFile(t, filepath.Join(f.Home, ".codex", "config.toml"), config)
		return newAgentWorld(t, f, codex, []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + f.Home, "LANG=C.UTF-8", "TERM=dumb"})
	}
	exec := []string{"exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "-s", "danger-full-access", fakeapi.Marker + " clean up"}
	deleteHome := hostStep{name: "exec_command", input: `{"cmd":"find ~ -delete"}`, stopped: true}
	var timings []string
	t.Run("control without the plugin", func(t *testing.T) {
		w := world(t)
		control := deleteHome
		control.stopped = false
		d := hostRun{steps: []hostStep{control}, survives: false}.check(t, w, api, exec...)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("plugin installed", func(t *testing.T) {
		w := world(t)
		w.must(t, nil, "plugin", "marketplace", "add", w.f.Market)
		w.must(t, nil, "plugin", "add", pluginID)
		run := hostRun{steps: []hostStep{
			{name: "exec_command", input: `{"cmd":"touch in-project.txt"}`},
			deleteHome,
		}, survives: true}
		d := run.check(t, w, api, exec...)
		if _, err := os.Stat(filepath.Join(w.f.Project, "in-project.txt")); err != nil {
			t.Errorf("the in-project touch did not run: %v", err)
		}
		timings = append(timings, "plugin "+d.Round(time.Millisecond).String())
	})
	t.Logf("codex exec timings: %s", strings.Join(timings, "; "))
}
