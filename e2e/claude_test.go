//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

// claudeVersion is the Claude Code release the test pins (the one
// hook-protocol.md was measured against); scripts/install-claude-code.sh
// installs it.
const claudeVersion = "2.1.332"

// findClaude returns the pinned Claude Code CLI: ZCODE_FENCE_CLAUDE, else
// what scripts/install-claude-code.sh installs into (or finds in) the cache.
// Only when that fails does the test skip, loudly, or fail under
// ZCODE_FENCE_E2E_REQUIRE=1.
func findClaude(t *testing.T) string {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("ZCODE_FENCE_E2E_REQUIRE") == "1" {
			t.Fatalf("e2e: Claude Code CLI unavailable and ZCODE_FENCE_E2E_REQUIRE=1: %s", msg)
		}
		fmt.Fprintf(os.Stderr, "SKIP %s: Claude Code CLI unavailable: %s\n", t.Name(), msg)
		t.Skipf("SKIPPED, NOT RUN: the real Claude Code CLI is unavailable: %s (run scripts/install-claude-code.sh; set ZCODE_FENCE_E2E_REQUIRE=1 to make this a failure)", msg)
	}
	if p := os.Getenv("ZCODE_FENCE_CLAUDE"); p != "" {
		if _, err := os.Stat(p); err != nil {
			unavailable("ZCODE_FENCE_CLAUDE=%s: %v", p, err)
		}
		return p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "sh", filepath.Join(repoRoot(t), "scripts", "install-claude-code.sh"))
	cmd.Env = append(os.Environ(), "CLAUDE_CODE_VERSION="+claudeVersion)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		unavailable("scripts/install-claude-code.sh: %v\n%s", err, stderr.String())
	}
	path := strings.TrimSpace(stdout.String())
	if path == "" {
		unavailable("scripts/install-claude-code.sh printed no path\n%s", stderr.String())
	}
	t.Logf("claude %s at %s (install script: %.1fs) %s", claudeVersion, path, time.Since(start).Seconds(), strings.TrimSpace(stderr.String()))
	return path
}

// claudeEnv is the whole environment of every claude process: a throwaway
// home, the fake API, no telemetry or updates. IS_SANDBOX=1 lets root use
// bypassPermissions.
func claudeEnv(f *fixture, apiURL string) []string {
	env := []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + f.Home,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"ANTHROPIC_BASE_URL=" + apiURL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-fake-key",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"IS_SANDBOX=1",
	}
	if bash, err := exec.LookPath("bash"); err == nil {
		env = append(env, "SHELL="+bash)
	}
	return env
}

type claudeRun struct {
	stdout, stderr []byte
	code           int
	elapsed        time.Duration
}

// runClaude runs one claude command in its own process group and kills the
// whole group when it ends or times out, so no helper it started outlives
// the test.
func runClaude(t *testing.T, claude, dir string, env []string, stdin []byte, timeout time.Duration, args ...string) claudeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Start()
	if err != nil {
		t.Fatalf("claude %q: %v", args, err)
	}
	err = cmd.Wait()
	elapsed := time.Since(start)
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stragglers in the group
	r := claudeRun{stdout: stdout.Bytes(), stderr: stderr.Bytes(), elapsed: elapsed}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("claude %q timed out after %v\nstdout: %s\nstderr: %s", args, timeout, r.stdout, r.stderr)
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("claude %q: %v", args, err)
	}
	return r
}

func mustClaude(t *testing.T, claude, dir string, env []string, stdin []byte, args ...string) claudeRun {
	t.Helper()
	r := runClaude(t, claude, dir, env, stdin, 2*time.Minute, args...)
	if r.code != 0 {
		t.Fatalf("claude %q: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	t.Logf("claude %s: %.2fs", strings.Join(args, " "), r.elapsed.Seconds())
	return r
}

// claudeScenario is one `claude -p` run of testdata/claude-runs.json.
type claudeScenario struct {
	Name string `json:"name"`
	Note string `json:"note"`
	// Plugin false runs in a fixture of its own with nothing installed: the
	// control that shows a step really does what it says.
	Plugin    bool              `json:"plugin"`
	Configure map[string]string `json:"configure"`
	Prompt    string            `json:"prompt"`
	Steps     []struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
		// Expect is "runs"; "denied" (stopped, and the model was told
		// zcode-fence's reason); or "blocked" (stopped, whoever stopped it).
		Expect string `json:"expect"`
		Note   string `json:"note"`
	} `json:"steps"`
	Files map[string]string `json:"files"` // path → "exists" or "absent"
}

// claudeResult is the part of `--output-format json` the test reads.
type claudeResult struct {
	Type              string `json:"type"`
	Subtype           string `json:"subtype"`
	IsError           bool   `json:"is_error"`
	Result            string `json:"result"`
	NumTurns          int    `json:"num_turns"`
	PermissionDenials []struct {
		ToolName  string          `json:"tool_name"`
		ToolUseID string          `json:"tool_use_id"`
		ToolInput json.RawMessage `json:"tool_input"`
	} `json:"permission_denials"`
}

// claudeWorld is a fixture with a claude home set up against the fake API.
type claudeWorld struct {
	f   *fixture
	env []string
}

// TestClaudeCodePlugin installs the bundle into the real Claude Code CLI
// from a copy of the repository's marketplace and drives scripted agent
// turns through it (testdata/claude-runs.json): a control run without the
// plugin shows find ~ -delete really wipes a fake home; with the plugin that
// step and a write into the home must not happen and must carry
// zcode-fence's reason, an in-project touch must happen, and a configured
// enable_fence=false lets the home write through while the danger gate still
// stops the delete.
func TestClaudeCodePlugin(t *testing.T) {
	claude := findClaude(t)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	newWorld := func(t *testing.T) claudeWorld {
		f := newFixture(t)
		if real, err := os.UserHomeDir(); err == nil && within(real, f.Home) || !within(f.Home, cacheDir()) {
			t.Fatalf("e2e: refusing to run: fake home %s is not a throwaway folder under %s", f.Home, cacheDir())
		}
		return claudeWorld{f: f, env: claudeEnv(f, api.URL)}
	}

	w := newWorld(t)
	f, env := w.f, w.env
	v := mustClaude(t, claude, f.Project, env, nil, "--version")
	if !strings.HasPrefix(string(v.stdout), claudeVersion) {
		t.Fatalf("claude --version = %q, want %s", v.stdout, claudeVersion)
	}
	for _, target := range []string{f.Plugin, f.Market} {
		r := mustClaude(t, claude, f.Project, env, nil, "plugin", "validate", target)
		out := string(r.stdout) + string(r.stderr)
		if !strings.Contains(out, "Validation passed") || strings.Contains(out, "✘") {
			t.Errorf("claude plugin validate %s:\n%s", target, out)
		}
	}
	mustClaude(t, claude, f.Project, env, nil, "plugin", "marketplace", "add", f.Market)
	mustClaude(t, claude, f.Project, env, nil, "plugin", "install", pluginID)
	list := mustClaude(t, claude, f.Project, env, nil, "plugin", "list", "--json")
	if !bytes.Contains(list.stdout, []byte(pluginID)) {
		t.Fatalf("claude plugin list --json does not show %s:\n%s", pluginID, list.stdout)
	}

	var scenarios []claudeScenario
	readJSON(t, filepath.Join("testdata", "claude-runs.json"), &scenarios)
	var timings []string
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			world := w
			if !sc.Plugin {
				world = newWorld(t)
			}
			elapsed := runScenario(t, claude, api, world, sc)
			timings = append(timings, fmt.Sprintf("%s: %.2fs", sc.Name, elapsed.Seconds()))
		})
	}
	t.Logf("claude -p timings: %s", strings.Join(timings, "; "))
}

// runScenario configures the plugin if asked, runs claude -p over the
// scenario's script and checks every step and file. It returns how long the
// claude -p run took.
func runScenario(t *testing.T, claude string, api *fakeapi.Server, w claudeWorld, sc claudeScenario) time.Duration {
	f := w.f
	if len(sc.Configure) > 0 {
		values, _ := json.Marshal(sc.Configure)
		mustClaude(t, claude, f.Project, w.env, values, "plugin", "configure", pluginID, "--values-stdin")
	}
	steps := make([]fakeapi.Step, len(sc.Steps))
	for i, s := range sc.Steps {
		steps[i] = fakeapi.Step{Name: s.Name, Input: f.expandJSON(t, s.Input)}
	}
	api.SetSteps(steps)
	r := runClaude(t, claude, f.Project, w.env, nil, 2*time.Minute,
		"-p", sc.Prompt, "--permission-mode", "bypassPermissions", "--output-format", "json")
	t.Logf("claude -p (%d steps): %.2fs", len(steps), r.elapsed.Seconds())
	defer func() {
		if t.Failed() {
			dumpClaudeRun(t, f, api, r)
		}
	}()
	if r.code != 0 {
		t.Fatalf("claude -p: exit %d", r.code)
	}
	var res claudeResult
	if err := json.Unmarshal(bytes.TrimSpace(r.stdout), &res); err != nil {
		t.Fatalf("claude -p output is not one JSON result: %v", err)
	}
	if res.Type != "result" || res.Result != fakeapi.DoneText {
		t.Errorf("result %q (%s/%s), want %q: the scripted conversation did not finish", res.Result, res.Type, res.Subtype, fakeapi.DoneText)
	}
	denied := map[string]bool{}
	for _, d := range res.PermissionDenials {
		denied[d.ToolUseID] = true
	}
	results := api.ToolResults()
	for k, s := range sc.Steps {
		id := fakeapi.ToolUseID(k)
		tr, reported := results[id]
		if !reported {
			t.Errorf("step %d (%s %s): the CLI never sent a tool_result for %s", k, s.Name, steps[k].Input, id)
			continue
		}
		switch s.Expect {
		case "runs":
			if denied[id] || tr.IsError {
				t.Errorf("step %d (%s %s) should run, but was denied=%v error=%v: %q", k, s.Name, steps[k].Input, denied[id], tr.IsError, tr.Text)
			}
		case "denied", "blocked":
			if !denied[id] {
				t.Errorf("step %d (%s %s) should be stopped, but it is not in permission_denials; the model saw %q", k, s.Name, steps[k].Input, tr.Text)
			}
			if s.Expect == "denied" && !strings.Contains(tr.Text, "[zcode-fence") {
				t.Errorf("step %d (%s %s): the model was not told zcode-fence's reason: %q", k, s.Name, steps[k].Input, tr.Text)
			}
		default:
			t.Fatalf("testdata: expect %q", s.Expect)
		}
	}
	for path, want := range sc.Files {
		p := f.expand(path)
		_, err := os.Stat(p)
		if exists := err == nil; exists != (want == "exists") {
			t.Errorf("%s: want %s, exists=%v", p, want, exists)
		}
	}
	return r.elapsed
}

// dumpClaudeRun logs what a failed run did: the CLI's output, what the model
// was told, and zcode-fence's decision log.
func dumpClaudeRun(t *testing.T, f *fixture, api *fakeapi.Server, r claudeRun) {
	t.Helper()
	t.Logf("claude stdout: %s", r.stdout)
	t.Logf("claude stderr: %s", r.stderr)
	for id, tr := range api.ToolResults() {
		t.Logf("tool_result %s error=%v: %q", id, tr.IsError, tr.Text)
	}
	logPath := filepath.Join(f.Home, ".claude", "plugins", "data", pluginName+"-"+marketName, "decisions.log")
	if data, err := os.ReadFile(logPath); err == nil {
		t.Logf("%s:\n%s", logPath, data)
	} else {
		t.Logf("no decision log: %v", err)
	}
}
