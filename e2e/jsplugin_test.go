//go:build linux || darwin

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

// jsPluginHost is a host whose only pre-tool extension point is a JS
// plugin (opencode and its fork Kilo): the bundle's plugin file, linked
// into the host's plugins folder as README.md tells users, runs the
// guard before each tool call.
type jsPluginHost struct {
	host, version, override, versionVar string
	// configDir is the host's config dir below home; configFile the
	// config there that names the fake provider; env are the host's own
	// variables that keep a run offline.
	configDir, configFile string
	env                   []string
}

var opencodeHost = jsPluginHost{
	host: "opencode", version: opencodeVersion, override: "ZCODE_FENCE_OPENCODE", versionVar: "OPENCODE_CLI_VERSION",
	configDir: ".config/opencode", configFile: "opencode.json",
	env: []string{"OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"},
}

var kiloHost = jsPluginHost{
	host: "kilo", version: kiloVersion, override: "ZCODE_FENCE_KILO", versionVar: "KILO_CLI_VERSION",
	configDir: ".config/kilo", configFile: "kilo.json",
	env: []string{"KILO_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_AUTOUPDATE=1", "KILO_DISABLE_LSP_DOWNLOAD=1"},
}

// world is a fresh fake home whose host config names the fake API as an
// OpenAI-compatible provider (opencode's "@ai-sdk/openai-compatible").
func (h jsPluginHost) world(t *testing.T, cli, apiURL string) *claudeWorld {
	t.Helper()
	f := newFixture(t)
	writeSettings(t, filepath.Join(f.Home, filepath.FromSlash(h.configDir), h.configFile), map[string]any{
		"autoupdate": false, "share": "disabled", "model": "fake/fake-model",
		"provider": map[string]any{"fake": map[string]any{
			"npm": "@ai-sdk/openai-compatible", "name": "fake",
			"options": map[string]any{"baseURL": apiURL + "/v1", "apiKey": "e2e-fake-key"},
			"models":  map[string]any{"fake-model": map[string]any{"name": "fake"}},
		}},
	})
	return newAgentWorld(t, f, cli, append(baseEnv(f), h.env...))
}

// install links the plugin file of the fixture's release tree into the
// host's plugins folder, as README.md says.
func (h jsPluginHost) install(t *testing.T, w *claudeWorld) {
	t.Helper()
	a, ok := agenthost.ByName(h.host)
	if !ok {
		t.Fatalf("no adapter %s", h.host)
	}
	plugin := filepath.Join(w.f.Market, filepath.FromSlash(a.Packaging().PluginFile))
	if _, err := os.Stat(plugin); err != nil {
		t.Fatalf("the release tree lacks the JS plugin: %v", err)
	}
	dir := filepath.Join(w.f.Home, filepath.FromSlash(h.configDir), "plugins")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(plugin, filepath.Join(dir, filepath.Base(plugin))); err != nil {
		t.Fatal(err)
	}
}

// jsRunTimeout bounds one run: a fresh home makes opencode and Kilo
// install their plugin SDK into the config dir from npm first (measured
// 1 to 7.5 minutes a run on a 2-CPU machine at load 40-56).
const jsRunTimeout = 12 * time.Minute

// runJSPluginHost: without the guard, the host's bash tool overwrites a
// file in the fake home (the marker); with the plugin installed, that
// call, a write tool call to the fake home and an edit of the marker are
// each stopped with zcode-fence's reason (these hosts cannot ask from a
// plugin: the guard's no_ask_fallback deny), while an in-project touch
// runs. Headless (`run`), which is how the hosts' own permission dialogs
// are skipped too.
func runJSPluginHost(t *testing.T, h jsPluginHost) {
	cli := findAgentCLI(t, h.host, h.version, h.override, h.versionVar)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	overwrite := `{"command":"echo overwritten > {{HOME}}/.zcode-fence-e2e-marker","description":"rewrite the marker"}`
	var timings []string
	t.Run("control without the guard", func(t *testing.T) {
		w := h.world(t, cli, api.URL)
		d := hostRun{steps: []hostStep{{name: "bash", input: overwrite}}, survives: false, timeout: jsRunTimeout}.check(t, w, api, "run", hostPrompt)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("plugin installed", func(t *testing.T) {
		w := h.world(t, cli, api.URL)
		h.install(t, w)
		d := hostRun{steps: []hostStep{
			{name: "bash", input: `{"command":"touch in-project.txt","description":"make a file"}`},
			{name: "bash", input: overwrite, stopped: true},
			{name: "write", input: `{"filePath":"{{HOME}}/written-by-the-agent.txt","content":"x\n"}`, stopped: true},
			{name: "edit", input: `{"filePath":"{{HOME}}/.zcode-fence-e2e-marker","oldString":"must survive","newString":"is gone"}`, stopped: true},
		}, survives: true, timeout: jsRunTimeout}.check(t, w, api, "run", hostPrompt)
		checkGuardedRun(t, w, api, true)
		timings = append(timings, "plugin "+d.Round(time.Millisecond).String())
	})
	t.Logf("%s run timings: %s", h.host, strings.Join(timings, "; "))
}

// checkGuardedRun checks what a guarded run of the four steps above left
// behind: the in-project touch ran, the write tool wrote nothing into the
// fake home, and, when denyReason, the second tool call's output is the
// guard's no_ask_fallback deny (it tells the agent to stop and ask the
// user), the form a host without a confirmation surface gets.
func checkGuardedRun(t *testing.T, w *claudeWorld, api *fakeapi.Server, denyReason bool) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(w.f.Project, "in-project.txt")); err != nil {
		t.Errorf("the in-project touch did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(w.f.Home, "written-by-the-agent.txt")); err == nil {
		t.Errorf("the write tool wrote into the fake home")
	}
	if !denyReason {
		return
	}
	outs := api.ToolOutputs()
	if len(outs) > 1 && !strings.Contains(outs[1].Text, "cannot show the user a confirmation") {
		t.Errorf("the stopped call's reason is not the no_ask_fallback deny: %q", outs[1].Text)
	}
}

func TestOpencodePlugin(t *testing.T) { t.Parallel(); runJSPluginHost(t, opencodeHost) }
func TestKiloPlugin(t *testing.T)     { t.Parallel(); runJSPluginHost(t, kiloHost) }

// TestPiExtension drives the real Pi CLI (pi -p) against the fake API with
// the bundle's Pi package installed as README.md says (pi install FOLDER):
// without it, Pi's bash tool overwrites the fake home's marker; with it,
// that call, a write to the fake home and an edit of the marker are each
// blocked with zcode-fence's reason (headless, Pi has no UI to confirm
// with, so the guard gives its no_ask_fallback deny), while an in-project
// touch runs.
func TestPiExtension(t *testing.T) {
	t.Parallel()
	cli := findAgentCLI(t, "pi", piVersion, "ZCODE_FENCE_PI", "PI_CLI_VERSION")
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		writeSettings(t, filepath.Join(f.Home, ".pi", "agent", "models.json"), map[string]any{"providers": map[string]any{
			"fake": map[string]any{"baseUrl": api.URL + "/v1", "api": "openai-completions", "apiKey": "e2e-fake-key",
				"models": []any{map[string]any{"id": "fake-model"}}}}})
		return newAgentWorld(t, f, cli, baseEnv(f))
	}
	args := []string{"--provider", "fake", "--model", "fake-model", "-p", hostPrompt}
	overwrite := `{"command":"echo overwritten > {{HOME}}/.zcode-fence-e2e-marker"}`
	var timings []string
	t.Run("control without the guard", func(t *testing.T) {
		w := world(t)
		d := hostRun{steps: []hostStep{{name: "bash", input: overwrite}}, survives: false, timeout: jsRunTimeout}.check(t, w, api, args...)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("extension installed", func(t *testing.T) {
		w := world(t)
		a, _ := agenthost.ByName("pi")
		pkg := filepath.Dir(filepath.Join(w.f.Market, filepath.FromSlash(a.Packaging().PluginFile)))
		w.must(t, nil, "install", pkg)
		d := hostRun{steps: []hostStep{
			{name: "bash", input: `{"command":"touch in-project.txt"}`},
			{name: "bash", input: overwrite, stopped: true},
			{name: "write", input: `{"path":"{{HOME}}/written-by-the-agent.txt","content":"x\n"}`, stopped: true},
			{name: "edit", input: `{"path":"{{HOME}}/.zcode-fence-e2e-marker","edits":[{"oldText":"must survive","newText":"is gone"}]}`, stopped: true},
		}, survives: true, timeout: jsRunTimeout}.check(t, w, api, args...)
		checkGuardedRun(t, w, api, false)
		timings = append(timings, "extension "+d.Round(time.Millisecond).String())
	})
	t.Logf("pi -p timings: %s", strings.Join(timings, "; "))
}
