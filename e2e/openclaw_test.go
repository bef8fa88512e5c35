//go:build linux || darwin

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

const openclawVersion = "2026.9.6"

// openclawRunTimeout bounds one `openclaw agent --local` run: measured 1.5
// to 4 minutes a run on a 2-CPU machine at load 25-45 (most of it
// OpenClaw's own start: its SQLite state, plugin discovery, memory index).
const openclawRunTimeout = 15 * time.Minute

// TestOpenClawPlugin drives the real OpenClaw CLI (openclaw agent --local,
// its embedded run) against the fake chat-completions API with the
// bundle's plugin installed as README.md says (openclaw plugins install
// --link ...): without it, OpenClaw's exec tool overwrites the fake home's
// marker; with it, that call, a write into the fake home and an edit of
// the marker are each blocked with zcode-fence's reason (an embedded run
// has no approval surface, so the guard gives its no_ask_fallback deny),
// while an in-project touch runs.
func TestOpenClawPlugin(t *testing.T) {
	t.Parallel()
	cli := findAgentCLI(t, "openclaw", openclawVersion, "ZCODE_FENCE_OPENCLAW", "OPENCLAW_CLI_VERSION")
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	// The agent's workspace (where its tools run) is the project.
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		writeSettings(t, filepath.Join(f.Home, ".openclaw", "openclaw.json"), map[string]any{
			"models": map[string]any{"mode": "merge", "providers": map[string]any{"fake": map[string]any{
				"baseUrl": api.URL + "/v1", "apiKey": "e2e-fake-key", "api": "openai-completions",
				"models": []any{map[string]any{"id": "fake-model", "name": "fake", "reasoning": false,
					"input": []string{"text"}, "contextWindow": 128000, "maxTokens": 8000}}}}},
			"agents": map[string]any{"defaults": map[string]any{
				"model": map[string]any{"primary": "fake/fake-model"}, "workspace": f.Project}},
		})
		return newAgentWorld(t, f, cli, baseEnv(f))
	}
	args := []string{"agent", "--local", "--session-id", "zcode-fence-e2e", "--message", hostPrompt, "--json"}
	overwrite := `{"command":"echo overwritten > {{HOME}}/.zcode-fence-e2e-marker"}`
	var timings []string
	t.Run("control without the guard", func(t *testing.T) {
		w := world(t)
		d := hostRun{steps: []hostStep{{name: "exec", input: overwrite}}, survives: false, timeout: openclawRunTimeout}.check(t, w, api, args...)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("plugin installed", func(t *testing.T) {
		w := world(t)
		a, _ := agenthost.ByName("openclaw")
		plugin := filepath.Dir(filepath.Join(w.f.Market, filepath.FromSlash(a.Packaging().PluginFile)))
		if r := w.run(t, nil, 5*time.Minute, "plugins", "install", "--link", "--force", "--accept-capabilities", plugin); r.code != 0 {
			t.Fatalf("openclaw plugins install: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
		}
		d := hostRun{steps: []hostStep{
			{name: "exec", input: `{"command":"touch in-project.txt"}`},
			{name: "exec", input: overwrite, stopped: true},
			{name: "write", input: `{"path":"{{HOME}}/written-by-the-agent.txt","content":"x\n"}`, stopped: true},
			{name: "edit", input: `{"path":"{{HOME}}/.zcode-fence-e2e-marker","edits":[{"oldText":"must survive","newText":"is gone"}]}`, stopped: true},
		}, survives: true, timeout: openclawRunTimeout}.check(t, w, api, args...)
		// An embedded run has no approval surface: the guard's
		// no_ask_fallback deny.
		checkGuardedRun(t, w, api, true)
		timings = append(timings, "plugin "+d.Round(time.Millisecond).String())
	})
	t.Logf("openclaw agent --local timings: %s", strings.Join(timings, "; "))
}
