//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
)

// Pinned versions of the other agent hosts (shared/spec/hosts.md measured
// these); scripts/install-agent-cli.sh installs them into the e2e cache.
const (
	codexVersion    = "0.171.0"
	geminiVersion   = "0.61.0"
	qwenVersion     = "0.24.4"
	copilotVersion  = "1.0.102"
	opencodeVersion = "1.18.33"
	kiloVersion     = "7.7.7"
	piVersion       = "0.73.1"
	droidVersion    = "0.225.2"
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
	// survives: the fake home's marker must still be there, as written
	// (a call that deletes or overwrites it is the destructive one).
	survives bool
	// timeout bounds the run (3 minutes when zero).
	timeout time.Duration
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
	timeout := run.timeout
	if timeout == 0 {
		timeout = 3 * time.Minute
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, req := range api.Requests() {
				t.Logf("fake API got %s %s (%d bytes)", req.Method, req.Path, len(req.Body))
			}
		}
	})
	r := w.run(t, nil, timeout, args...)
	defer func() {
		if t.Failed() {
			t.Logf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
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
	got, err := os.ReadFile(w.f.Marker)
	if survives := err == nil && string(got) == markerText; survives != run.survives {
		t.Errorf("fake home marker survives=%v, want %v", survives, run.survives)
	}
	return r.elapsed
}

// TestCodexPlugin drives the real Codex CLI (codex exec) against a fake
// Responses API: without the guard, find ~ -delete really wipes the fake
// home and apply_patch writes outside the project, both as Codex's own
// apply_patch tool and as an apply_patch heredoc run through exec_command
// (which Codex applies itself, and hooks as Bash); with the plugin
// installed from the repository's Claude marketplace (codex plugin
// marketplace add + codex plugin add, as README tells users) each of them
// is denied with zcode-fence's reason, because Codex cannot ask, while an
// in-project touch and an in-project patch run. Hooks run only once
// trusted: the test uses --dangerously-bypass-hook-trust where a user
// trusts the hook under /hooks.
//
// Codex offers its apply_patch tool only to models its catalog marks so:
// the world gives the fake model the catalog entry of a model that has it
// (codex debug models, model_catalog_json).
func TestCodexPlugin(t *testing.T) {
	t.Parallel()
	codex := findAgentCLI(t, "codex", codexVersion, "ZCODE_FENCE_CODEX", "CODEX_CLI_VERSION")
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		provider := "\n[model_providers.fake]\nname = \"fake\"\nbase_url = \"" + api.URL + "/v1\"\nwire_api = \"responses\"\nrequires_openai_auth = false\n"
		config := filepath.Join(f.Home, ".codex", "config.toml")
		writeFile(t, config, "model = \"fake-model\"\nmodel_provider = \"fake\"\n"+provider)
		w := newAgentWorld(t, f, codex, []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + f.Home, "LANG=C.UTF-8", "TERM=dumb"})
		catalog := filepath.Join(f.Home, ".codex", "fake-model-catalog.json")
		writeFile(t, catalog, string(codexCatalog(t, w.must(t, nil, "debug", "models").stdout)))
		writeFile(t, config, "model = \"fake-model\"\nmodel_provider = \"fake\"\nmodel_catalog_json = \""+catalog+"\"\n"+provider)
		return w
	}
	exec := []string{"exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "-s", "danger-full-access", fakeapi.Marker + " clean up"}
	deleteHome := hostStep{name: "exec_command", input: `{"cmd":"find ~ -delete"}`, stopped: true}
	patch := func(path string) string {
		return "*** Begin Patch\n*** Add File: " + path + "\n+written by apply_patch\n*** End Patch\n"
	}
	// Codex's freeform tool takes the patch text itself (a JSON string).
	patchTool := func(path string) hostStep {
		b, _ := json.Marshal(patch(path))
		return hostStep{name: "apply_patch", input: string(b), stopped: true}
	}
	patchShell := func(path string) hostStep {
		b, _ := json.Marshal(map[string]string{"cmd": "apply_patch <<'EOF'\n" + patch(path) + "EOF\n"})
		return hostStep{name: "exec_command", input: string(b), stopped: true}
	}
	outside := []string{"{{HOME}}/tool-patched.txt", "{{HOME}}/shell-patched.txt"}
	var timings []string
	t.Run("control without the plugin", func(t *testing.T) {
		w := world(t)
		steps := []hostStep{patchTool(outside[0]), patchShell(outside[1])}
		for i := range steps {
			steps[i].stopped = false
		}
		d := hostRun{steps: steps, survives: true}.check(t, w, api, exec...)
		for _, p := range outside {
			if _, err := os.Stat(w.f.expand(p)); err != nil {
				t.Errorf("without the guard, apply_patch did not write %s: %v", p, err)
			}
		}
		control := deleteHome
		control.stopped = false
		d += hostRun{steps: []hostStep{control}, survives: false}.check(t, w, api, exec...)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("plugin installed", func(t *testing.T) {
		w := world(t)
		w.must(t, nil, "plugin", "marketplace", "add", w.f.Market)
		w.must(t, nil, "plugin", "add", pluginID)
		inProject := patchTool("patched-in-project.txt")
		inProject.stopped = false
		run := hostRun{steps: []hostStep{
			{name: "exec_command", input: `{"cmd":"touch in-project.txt"}`},
			inProject,
			patchTool(outside[0]),
			patchShell(outside[1]),
			deleteHome,
		}, survives: true}
		d := run.check(t, w, api, exec...)
		for _, p := range []string{"in-project.txt", "patched-in-project.txt"} {
			if _, err := os.Stat(filepath.Join(w.f.Project, p)); err != nil {
				t.Errorf("the in-project call did not run: %v", err)
			}
		}
		for _, p := range outside {
			if _, err := os.Stat(w.f.expand(p)); err == nil {
				t.Errorf("the guard did not stop apply_patch writing %s", p)
			}
		}
		timings = append(timings, "plugin "+d.Round(time.Millisecond).String())
	})
	t.Logf("codex exec timings: %s", strings.Join(timings, "; "))
}

// codexCatalog turns Codex's own model catalog (codex debug models) into
// one for the fake model: the entry of a listed model that Codex gives its
// freeform apply_patch tool and the ordinary tool mode, renamed.
func codexCatalog(t *testing.T, debugModels []byte) []byte {
	t.Helper()
	var catalog struct {
		Models []map[string]any `json:"models"`
	}
	if err := json.Unmarshal(debugModels, &catalog); err != nil {
		t.Fatalf("codex debug models: %v\n%.300s", err, debugModels)
	}
	for _, m := range catalog.Models {
		if m["apply_patch_tool_type"] == "freeform" && m["tool_mode"] == nil {
			m["slug"], m["display_name"] = "fake-model", "fake-model"
			out, err := json.Marshal(map[string]any{"models": []any{m}})
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
	}
	t.Fatalf("codex debug models lists no model with the freeform apply_patch tool in the ordinary tool mode")
	return nil
}

// askHostCase is one ask-capable host's headless end-to-end test: how to
// make its world (config and environment), install the guard the way a
// user would, and run it headless.
type askHostCase struct {
	host, version, override, versionVar string
	// setup writes the host's settings into the fixture and returns the
	// whole environment.
	setup func(t *testing.T, f *fixture, apiURL string) []string
	// install puts the guard in, as README.md tells users.
	install func(t *testing.T, w *claudeWorld)
	// shell is the host's shell tool name; flags start it with the fake
	// model, before -p PROMPT (headless) or -i PROMPT (its UI, with the
	// prompt sent).
	shell string
	flags []string
	// interactive drives its UI in a terminal (interactive_test.go).
	interactive interactive
}

// runAskHost: without the guard the host's shell tool really runs
// find ~ -delete against the fake home; with the guard installed the same
// call is stopped headless (the host turns the ask, or for Gemini the
// guard's no_ask_fallback, into a refusal carrying zcode-fence's reason)
// and an in-project touch runs.
// hostPrompt is every run's prompt: the fake model acts on it.
const hostPrompt = fakeapi.Marker + " clean up"

func runAskHost(t *testing.T, c askHostCase) {
	cli := findAgentCLI(t, c.host, c.version, c.override, c.versionVar)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		return newAgentWorld(t, f, cli, c.setup(t, f, api.URL))
	}
	deleteHome := `{"command":"find ~ -delete","description":"clean up"}`
	var timings []string
	t.Run("control without the guard", func(t *testing.T) {
		w := world(t)
		d := hostRun{steps: []hostStep{{name: c.shell, input: deleteHome}}, survives: false}.check(t, w, api, slices.Concat(c.flags, []string{"-p", hostPrompt})...)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("guard installed", func(t *testing.T) {
		w := world(t)
		c.install(t, w)
		d := hostRun{steps: []hostStep{
			{name: c.shell, input: `{"command":"touch in-project.txt","description":"make a file"}`},
			{name: c.shell, input: deleteHome, stopped: true},
		}, survives: true}.check(t, w, api, slices.Concat(c.flags, []string{"-p", hostPrompt})...)
		if _, err := os.Stat(filepath.Join(w.f.Project, "in-project.txt")); err != nil {
			t.Errorf("the in-project touch did not run: %v", err)
		}
		timings = append(timings, "guard "+d.Round(time.Millisecond).String())
	})
	t.Logf("%s headless timings: %s", c.host, strings.Join(timings, "; "))
}

func baseEnv(f *fixture) []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + f.Home, "LANG=C.UTF-8", "TERM=dumb"}
}

func writeSettings(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
}

// geminiCase: the extension is installed from the tree's bundle/ folder
// (gemini extensions install --consent, as README.md says after a clone of
// the release ref), which Gemini copies into its own extensions folder;
// the tree is then taken away, so the run proves the copy carries the
// launcher and the binary. Headless, the guard answers with
// no_ask_fallback (deny) because an ask would hang.
var geminiCase = askHostCase{
	host: "gemini", version: geminiVersion, override: "ZCODE_FENCE_GEMINI", versionVar: "GEMINI_CLI_VERSION",
	setup: func(t *testing.T, f *fixture, apiURL string) []string {
		writeSettings(t, filepath.Join(f.Home, ".gemini", "settings.json"),
			map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
		return append(baseEnv(f), "GOOGLE_GEMINI_BASE_URL="+apiURL, "GEMINI_API_KEY=e2e-fake-key")
	},
	install: installGeminiExtension,
	shell:   "run_shell_command",
	flags:   []string{"--skip-trust", "-m", "gemini-2.5-flash", "--approval-mode", "yolo"},
	interactive: interactive{
		// "Allow execution of [Shell]?" 1. Allow once 2. Allow for this
		// session 3. No, suggest changes (esc)
		deny: []string{"Escape"},
		refused: func(s string, told []fakeapi.ToolOutput) bool {
			return strings.Contains(s, "Request cancelled.") && !strings.Contains(s, "Allow execution of")
		},
	},
}

// qwenCase: the Claude plugin is installed from the marketplace
// (qwen extensions install MARKET:PLUGIN --consent); headless, Qwen turns
// the ask into a refusal with the reason.
var qwenCase = askHostCase{
	host: "qwen", version: qwenVersion, override: "ZCODE_FENCE_QWEN", versionVar: "QWEN_CLI_VERSION",
	setup: func(t *testing.T, f *fixture, apiURL string) []string {
		writeSettings(t, filepath.Join(f.Home, ".qwen", "settings.json"),
			map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "openai"}}})
		return append(baseEnv(f), "OPENAI_BASE_URL="+apiURL+"/v1", "OPENAI_API_KEY=e2e-fake-key", "OPENAI_MODEL=fake-model")
	},
	install: func(t *testing.T, w *claudeWorld) {
		w.must(t, nil, "extensions", "install", w.f.Market+":"+pluginName, "--consent")
	},
	shell: "run_shell_command",
	flags: []string{"--approval-mode", "yolo"},
	interactive: interactive{
		// "Do you want to proceed?" 1. Yes, allow once 2. No, suggest
		// changes (esc); a refused call is listed with "-" for its "?".
		deny: []string{"Escape"},
		refused: func(s string, told []fakeapi.ToolOutput) bool {
			return strings.Contains(s, "- Shell find ~ -delete") && !strings.Contains(s, "Do you want to proceed?")
		},
	},
}

// copilotCase: the Claude plugin from the marketplace (copilot plugin
// marketplace add + copilot plugin install); headless, Copilot turns the
// ask into "unable to ask user for confirmation: <reason>". Its 235 MB
// first-run unpack goes to a cache shared between runs (XDG_CACHE_HOME),
// not into each fresh home.
var copilotCase = askHostCase{
	host: "copilot", version: copilotVersion, override: "ZCODE_FENCE_COPILOT", versionVar: "COPILOT_CLI_VERSION",
	setup: func(t *testing.T, f *fixture, apiURL string) []string {
		return append(baseEnv(f), "XDG_CACHE_HOME="+filepath.Join(cacheDir(t), "xdg-cache"),
			"COPILOT_PROVIDER_BASE_URL="+apiURL+"/v1", "COPILOT_PROVIDER_API_KEY=e2e-fake-key",
			"COPILOT_MODEL=fake-model", "COPILOT_OFFLINE=true")
	},
	install: func(t *testing.T, w *claudeWorld) {
		w.must(t, nil, "plugin", "marketplace", "add", w.f.Market)
		w.must(t, nil, "plugin", "install", pluginID)
	},
	shell: "bash",
	flags: []string{"--no-auto-update", "--allow-all-tools"},
	interactive: interactive{
		// "Hook permission request" ... "Do you want to allow this tool
		// call?" 1. Yes 2. No (Esc to stop). Copilot tells the model
		// "Denied by user via preToolUse hook prompt: <reason>".
		deny: []string{"Escape"},
		refused: func(s string, told []fakeapi.ToolOutput) bool {
			return !strings.Contains(s, "Do you want to allow this tool call?") && len(told) > 0 &&
				strings.HasPrefix(told[0].Text, "Denied by user via preToolUse hook prompt: [zcode-fence")
		},
		first: []hostQuestion{{text: "Do you trust the files in this folder?", keys: []string{"Enter"}}},
	},
}

// installGeminiExtension installs the extension from the fixture's tree as
// a user does from a clone of the release ref, checks that Gemini's copy
// holds the launcher and this platform's binary, and moves the tree away.
func installGeminiExtension(t *testing.T, w *claudeWorld) {
	t.Helper()
	// --consent covers the third-party warning; the folder-trust question
	// for a local source is asked anyway and answered on stdin.
	w.must(t, []byte("y\n"), "extensions", "install", filepath.Join(w.f.Market, filepath.FromSlash(agenthost.ExtensionDir)), "--consent")
	installed := filepath.Join(w.f.Home, ".gemini", "extensions", pluginName)
	plugin := filepath.Join(installed, filepath.Base(filepath.FromSlash(agenthost.PluginDir)))
	for _, f := range []string{"gemini-extension.json", filepath.Join("hooks", "hooks.json"),
		filepath.Join(plugin, "libexec", "zcode-fence"), filepath.Join(plugin, "libexec", kit.HostBinaryName()), filepath.Join(plugin, "libexec", integrity.SumsFile)} {
		if !filepath.IsAbs(f) {
			f = filepath.Join(installed, f)
		}
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("the installed extension lacks %s: %v", f, err)
		}
	}
	if err := os.Rename(w.f.Market, w.f.Market+"-taken-away"); err != nil {
		t.Fatal(err)
	}
}

func TestGeminiExtension(t *testing.T) { t.Parallel(); runAskHost(t, geminiCase) }
func TestQwenExtension(t *testing.T)   { t.Parallel(); runAskHost(t, qwenCase) }
func TestCopilotPlugin(t *testing.T)   { t.Parallel(); runAskHost(t, copilotCase) }

// TestDroidPlugin drives the real Factory Droid CLI (droid exec) against
// the fake API as a customModels entry: without the guard, its Execute tool
// overwrites the fake home's marker; with the Claude plugin installed from
// the marketplace (droid plugin marketplace add + droid plugin install, as
// README.md says), that call, a Create into the fake home and an Edit of
// the marker are each denied with zcode-fence's reason (droid exec runs a
// call a hook answers ask for, so the guard gives its no_ask_fallback deny
// there), while an in-project touch runs.
func TestDroidPlugin(t *testing.T) {
	t.Parallel()
	cli := findAgentCLI(t, "droid", droidVersion, "ZCODE_FENCE_DROID", "DROID_CLI_VERSION")
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		writeSettings(t, filepath.Join(f.Home, ".factory", "settings.json"), map[string]any{"customModels": []any{map[string]any{
			"model": "fake-model", "displayName": "fake", "baseUrl": api.URL + "/v1", "apiKey": "e2e-fake-key",
			"provider": "generic-chat-completion-api", "maxOutputTokens": 1000}}})
		return newAgentWorld(t, f, cli, baseEnv(f))
	}
	args := []string{"exec", "--auto", "high", "-m", "custom:fake-model", hostPrompt}
	execute := func(command string) string {
		b, _ := json.Marshal(map[string]string{"command": command, "summary": "run it", "riskLevelReason": "changes a file", "riskLevel": "low"})
		return string(b)
	}
	overwrite := execute("echo overwritten > {{HOME}}/.zcode-fence-e2e-marker")
	var timings []string
	t.Run("control without the guard", func(t *testing.T) {
		w := world(t)
		d := hostRun{steps: []hostStep{{name: "Execute", input: overwrite}}, survives: false}.check(t, w, api, args...)
		timings = append(timings, "control "+d.Round(time.Millisecond).String())
	})
	t.Run("plugin installed", func(t *testing.T) {
		w := world(t)
		w.must(t, nil, "plugin", "marketplace", "add", w.f.Market)
		// Droid names a directory marketplace after the directory.
		w.must(t, nil, "plugin", "install", pluginName+"@"+filepath.Base(w.f.Market))
		d := hostRun{steps: []hostStep{
			{name: "Execute", input: execute("touch in-project.txt")},
			{name: "Execute", input: overwrite, stopped: true},
			{name: "Create", input: `{"file_path":"{{HOME}}/written-by-the-agent.txt","content":"x\n"}`, stopped: true},
			{name: "Edit", input: `{"file_path":"{{HOME}}/.zcode-fence-e2e-marker","old_str":"must survive","new_str":"is gone"}`, stopped: true},
		}, survives: true}.check(t, w, api, args...)
		if _, err := os.Stat(filepath.Join(w.f.Project, "in-project.txt")); err != nil {
			t.Errorf("the in-project touch did not run: %v", err)
		}
		if _, err := os.Stat(filepath.Join(w.f.Home, "written-by-the-agent.txt")); err == nil {
			t.Errorf("Create wrote into the fake home")
		}
		timings = append(timings, "plugin "+d.Round(time.Millisecond).String())
	})
	t.Logf("droid exec timings: %s", strings.Join(timings, "; "))
}

// TestQwenReads drives Qwen Code's own read tools (read_file, grep_search),
// which read anywhere on the machine: without the guard they put the fake
// home's private key into the conversation; with the guard installed both
// are stopped with zcode-fence's reason and the key never reaches the
// model, while a read and a search of the project run. (Gemini CLI refuses
// a path outside its workspace itself, before its hook; Claude Code's Read
// is TestClaudeCodePlugin's "secrets stay home".)
func TestQwenReads(t *testing.T) {
	t.Parallel()
	cli := findAgentCLI(t, qwenCase.host, qwenCase.version, qwenCase.override, qwenCase.versionVar)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	const secret = "ZCODE-FENCE-E2E-FAKE-KEY"
	world := func(t *testing.T) *claudeWorld {
		f := newFixture(t)
		writeFile(t, filepath.Join(f.Home, ".ssh", "id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n"+secret+"\n-----END OPENSSH PRIVATE KEY-----\n")
		return newAgentWorld(t, f, cli, qwenCase.setup(t, f, api.URL))
	}
	readKey := hostStep{name: "read_file", input: `{"file_path":"{{HOME}}/.ssh/id_ed25519"}`, stopped: true}
	searchKeys := hostStep{name: "grep_search", input: `{"pattern":"PRIVATE","path":"{{HOME}}/.ssh"}`, stopped: true}
	args := slices.Concat(qwenCase.flags, []string{"-p", hostPrompt})
	shown := func() bool {
		for _, o := range api.ToolOutputs() {
			if strings.Contains(o.Text, secret) {
				return true
			}
		}
		return false
	}
	t.Run("control without the guard", func(t *testing.T) {
		w := world(t)
		control := []hostStep{readKey, searchKeys}
		for i := range control {
			control[i].stopped = false
		}
		hostRun{steps: control, survives: true}.check(t, w, api, args...)
		if !shown() {
			t.Errorf("without the guard the model was not shown the key: %+v", api.ToolOutputs())
		}
	})
	t.Run("guard installed", func(t *testing.T) {
		w := world(t)
		qwenCase.install(t, w)
		hostRun{steps: []hostStep{
			readKey,
			{name: "read_file", input: `{"file_path":"{{PROJECT}}/src/main.txt"}`},
			searchKeys,
			{name: "grep_search", input: `{"pattern":"project","path":"{{PROJECT}}/src"}`},
		}, survives: true}.check(t, w, api, args...)
		if shown() {
			t.Errorf("the key reached the model: %+v", api.ToolOutputs())
		}
		if outs := api.ToolOutputs(); len(outs) > 1 && !strings.Contains(outs[1].Text, "project file") {
			t.Errorf("the project read did not run: %q", outs[1].Text)
		}
	})
}
