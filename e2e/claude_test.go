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
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
)

// claudeVersion is the Claude Code release the test pins (the one
// hook-protocol.md was measured against); scripts/install-claude-code.sh
// installs it.
const claudeVersion = "2.1.332"

// findClaude returns the pinned Claude Code CLI: ZCODE_FENCE_CLAUDE, else
// what scripts/install-agent-cli.sh installs into (or finds in) the cache.
// Only when that fails does the test skip, loudly, or fail under
// ZCODE_FENCE_E2E_REQUIRE=1.
func findClaude(t *testing.T) string {
	t.Helper()
	return findAgentCLI(t, "claude", claudeVersion, "ZCODE_FENCE_CLAUDE", "CLAUDE_CODE_VERSION")
}

// findAgentCLI returns the pinned CLI of host: the executable named by
// override (an environment variable) when set, else what
// scripts/install-agent-cli.sh installs into (or finds in) the cache. When
// that fails the test skips, loudly, or fails under
// ZCODE_FENCE_E2E_REQUIRE_<HOST>=1 (.ci/run sets it for each host whose
// install succeeded; ZCODE_FENCE_E2E_REQUIRE=1 still means claude).
func findAgentCLI(t *testing.T, host, version, override, versionVar string) string {
	t.Helper()
	unavailable := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if requireVar := "ZCODE_FENCE_E2E_REQUIRE_" + strings.ToUpper(host); os.Getenv(requireVar) == "1" ||
			host == "claude" && os.Getenv("ZCODE_FENCE_E2E_REQUIRE") == "1" {
			t.Fatalf("e2e: %s CLI unavailable and %s=1 (or ZCODE_FENCE_E2E_REQUIRE=1 for claude): %s", host, requireVar, msg)
		}
		fmt.Fprintf(os.Stderr, "SKIP %s: %s CLI unavailable: %s\n", t.Name(), host, msg)
		t.Skipf("SKIPPED, NOT RUN: the real %s CLI is unavailable: %s (run scripts/install-agent-cli.sh %s; set ZCODE_FENCE_E2E_REQUIRE_%s=1 to make this a failure)", host, msg, host, strings.ToUpper(host))
	}
	if p := os.Getenv(override); p != "" {
		if _, err := os.Stat(p); err != nil {
			unavailable("%s=%s: %v", override, p, err)
		}
		return p
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, "sh", filepath.Join(kit.RepoRoot(t), "scripts", "install-agent-cli.sh"), host)
	cmd.Env = append(os.Environ(), versionVar+"="+version, "ZCODE_FENCE_E2E_CACHE="+cacheDir(t))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		unavailable("scripts/install-agent-cli.sh %s: %v\n%s", host, err, stderr.String())
	}
	path := strings.TrimSpace(stdout.String())
	if path == "" {
		unavailable("scripts/install-agent-cli.sh %s printed no path\n%s", host, stderr.String())
	}
	t.Logf("%s %s at %s (install script: %.1fs) %s", host, version, path, time.Since(start).Seconds(), strings.TrimSpace(stderr.String()))
	return path
}

// claudeWorld is one fixture's Claude Code: a throwaway home pointed at the
// fake API, and the process groups of every claude started in it.
type claudeWorld struct {
	f      *fixture
	claude string
	env    []string

	mu     sync.Mutex
	groups []int
	// daemons mark (a word of their command line) the host's own
	// daemons, which outlive its runs by design (Cline's hub): they are
	// stopped as warm servers are, not reported as leftovers.
	daemons []string
}

// newClaudeWorld makes a fresh fixture for claude runs. Its cleanup kills
// whatever its claude processes left behind, and fails the test if there
// was anything; it runs before the fixture's folder is removed.
func newClaudeWorld(t *testing.T, claude, apiURL string) *claudeWorld {
	t.Helper()
	f := newFixture(t)
	return newAgentWorld(t, f, claude, claudeEnv(f, apiURL))
}

// newAgentWorld is a world for any agent CLI exe with the whole
// environment env, in fixture f (a fresh fake home and project); its
// cleanup kills and reports whatever the CLI's runs left behind.
func newAgentWorld(t *testing.T, f *fixture, exe string, env []string) *claudeWorld {
	t.Helper()
	if real, err := os.UserHomeDir(); err == nil && within(real, f.Home) || !within(f.Home, filepath.Join(cacheDir(t), "runs")) {
		t.Fatalf("e2e: refusing to run: fake home %s is not a throwaway folder under %s", f.Home, filepath.Join(cacheDir(t), "runs"))
	}
	w := &claudeWorld{f: f, claude: exe, env: env}
	t.Cleanup(func() { w.checkNoLeftovers(t) })
	return w
}

// claudeEnv is the whole environment of every claude process: a throwaway
// home, the fake API, no telemetry or updates. IS_SANDBOX=1 is what lets
// root use bypassPermissions.
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
	}
	if os.Geteuid() == 0 {
		env = append(env, "IS_SANDBOX=1")
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

// run runs one claude command in the project, in a process group of its
// own, and SIGKILLs the whole group when claude ends or times out, so no
// hook, shell or layer it started outlives the command.
func (w *claudeWorld) run(t *testing.T, stdin []byte, timeout time.Duration, args ...string) claudeRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.claude, args...)
	cmd.Dir = w.f.Project
	cmd.Env = w.env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("claude %q: %v", args, err)
	}
	w.mu.Lock()
	w.groups = append(w.groups, cmd.Process.Pid)
	w.mu.Unlock()
	err := cmd.Wait()
	elapsed := time.Since(start)
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // stragglers in the group
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

// must runs a claude command that has to succeed.
func (w *claudeWorld) must(t *testing.T, stdin []byte, args ...string) claudeRun {
	t.Helper()
	r := w.run(t, stdin, 2*time.Minute, args...)
	if r.code != 0 {
		t.Fatalf("claude %q: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	t.Logf("claude %s: %.2fs", strings.Join(args, " "), r.elapsed.Seconds())
	return r
}

// install adds the copied marketplace and installs the plugin from it, the
// way README.md tells a user to.
func (w *claudeWorld) install(t *testing.T) {
	t.Helper()
	w.must(t, nil, "plugin", "marketplace", "add", w.f.Market)
	w.must(t, nil, "plugin", "install", pluginID)
	list := w.must(t, nil, "plugin", "list", "--json")
	if !bytes.Contains(list.stdout, []byte(pluginID)) {
		t.Fatalf("claude plugin list --json does not show %s:\n%s", pluginID, list.stdout)
	}
}

// checkNoLeftovers fails the test for, and kills, every live process left
// by this world's claude runs: on linux any process (zombies aside) in one
// of their process groups, with the fake home as HOME, or working under
// the fixture's folder; elsewhere any process in one of their groups.
func (w *claudeWorld) checkNoLeftovers(t *testing.T) {
	w.mu.Lock()
	groups := append([]int(nil), w.groups...)
	w.mu.Unlock()
	if runtime.GOOS != "linux" {
		for _, g := range groups {
			for end := time.Now().Add(5 * time.Second); syscall.Kill(-g, 0) == nil; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(end) {
					t.Errorf("e2e: process group %d of a claude run is still alive; killing it", g)
					_ = syscall.Kill(-g, syscall.SIGKILL)
					break
				}
			}
		}
		return
	}
	inGroup := map[int]bool{}
	for _, g := range groups {
		inGroup[g] = true
	}
	w.stopWarmServers(t, inGroup)
	// Processes just SIGKILLed may need a moment to become zombies.
	var left []string
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		left = w.leftovers(inGroup, time.Now().After(end))
		if len(left) == 0 || time.Now().After(end) {
			break
		}
	}
	for _, l := range left {
		t.Errorf("e2e: a claude run left a process behind (killed now): %s", l)
	}
}

// stopWarmServers ends this world's warm layer servers (and the host's
// daemons, w.daemons) the way an
// uninstall or a logout does, with SIGTERM, and fails the test for any
// that is still running 5 s later. Warm servers outlive the hook calls
// that start them by design (layer_idle_timeout); they are told apart from
// a leaked per-call layer process by leading a session of their own
// (setsid) and running "layer serve".
func (w *claudeWorld) stopWarmServers(t *testing.T, inGroup map[int]bool) {
	t.Helper()
	var servers []int
	for _, p := range w.processes(inGroup) {
		if p.session == p.pid && bytes.Contains(p.cmdline, []byte("\x00layer\x00serve\x00")) || w.isDaemon(p.cmdline) {
			servers = append(servers, p.pid)
			_ = syscall.Kill(p.pid, syscall.SIGTERM)
		}
	}
	if len(servers) == 0 {
		return
	}
	t.Logf("stopped %d warm layer servers (and host daemons) with SIGTERM: %v", len(servers), servers)
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		alive := 0
		for _, pid := range servers {
			if st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil && !bytes.Contains(st, []byte(") Z ")) {
				alive++
			}
		}
		if alive == 0 {
			return
		}
		if time.Now().After(end) {
			t.Errorf("e2e: %d warm layer servers still running 5 s after SIGTERM", alive)
			return
		}
	}
}

// isDaemon reports whether cmdline (NUL-separated) has one of w.daemons
// as a word.
func (w *claudeWorld) isDaemon(cmdline []byte) bool {
	for _, d := range w.daemons {
		if bytes.Contains(cmdline, []byte("\x00"+d+"\x00")) {
			return true
		}
	}
	return false
}

// worldProcess is one live process of this world (see leftovers).
type worldProcess struct {
	pid, pgid, session int
	cwd                string
	cmdline            []byte
}

// processes scans /proc for this world's live processes: in one of its
// claude runs' process groups, with its fake HOME, or working under its
// fixture's folder. Zombies are left out.
func (w *claudeWorld) processes(inGroup map[int]bool) []worldProcess {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	homeVar := []byte("HOME=" + w.f.Home + "\x00")
	var out []worldProcess
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 4 || fields[0] == "Z" || fields[0] == "X" {
			continue
		}
		pgid, _ := strconv.Atoi(fields[2])
		session, _ := strconv.Atoi(fields[3])
		environ, _ := os.ReadFile(filepath.Join(dir, "environ"))
		cwd, _ := os.Readlink(filepath.Join(dir, "cwd"))
		if !inGroup[pgid] && !bytes.Contains(append([]byte{0}, environ...), append([]byte{0}, homeVar...)) && !within(cwd, w.f.Dir) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		out = append(out, worldProcess{pid: pid, pgid: pgid, session: session, cwd: cwd, cmdline: cmdline})
	}
	return out
}

// leftovers scans /proc for this world's live processes, killing them when
// kill is set.
func (w *claudeWorld) leftovers(inGroup map[int]bool, kill bool) []string {
	if _, err := os.ReadDir("/proc"); err != nil {
		return []string{"cannot read /proc: " + err.Error()}
	}
	var out []string
	for _, p := range w.processes(inGroup) {
		out = append(out, fmt.Sprintf("pid %d pgid %d cwd %s: %s", p.pid, p.pgid, p.cwd, bytes.ReplaceAll(p.cmdline, []byte{0}, []byte{' '})))
		if kill {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
	return out
}

// TestLeftoverScanFindsStrays checks the leftover scan itself: a process
// outside every claude group is still found by its fake HOME, and by its
// working folder, and is killed.
func TestLeftoverScanFindsStrays(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the leftover scan reads /proc (linux); elsewhere only process groups are checked")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	f := newFixture(t)
	w := &claudeWorld{f: f}
	for _, how := range []string{"HOME", "cwd"} {
		t.Run(how, func(t *testing.T) {
			cmd := exec.Command(sleep, "60")
			cmd.Env = []string{"PATH=/usr/bin:/bin"}
			cmd.Dir = filepath.Dir(f.Dir)
			if how == "HOME" {
				cmd.Env = append(cmd.Env, "HOME="+f.Home)
			} else {
				cmd.Dir = f.Project
			}
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			found := w.leftovers(map[int]bool{}, false)
			if len(found) != 1 || !strings.HasPrefix(found[0], fmt.Sprintf("pid %d ", cmd.Process.Pid)) {
				t.Fatalf("scan found %q, want only pid %d", found, cmd.Process.Pid)
			}
			w.leftovers(map[int]bool{}, true)
			if err := cmd.Wait(); err == nil {
				t.Errorf("the stray exited by itself; the scan should have killed it")
			}
			if found := w.leftovers(map[int]bool{}, false); len(found) != 0 {
				t.Errorf("after the kill the scan still finds %q", found)
			}
		})
	}
}

// claudeScenario is one `claude -p` run of testdata/claude-runs.json.
type claudeScenario struct {
	Name string `json:"name"`
	Note string `json:"note"`
	// Plugin false runs with nothing installed: the control that shows a
	// step really does what it says.
	Plugin    bool              `json:"plugin"`
	Configure map[string]string `json:"configure"`
	Prompt    string            `json:"prompt"`
	Steps     []claudeStep      `json:"steps"`
	Files     map[string]string `json:"files"` // path → "exists" or "absent"
	// Write creates files before the run (path → content), Links
	// symbolic links (link → target); placeholders are expanded in both.
	Write map[string]string `json:"write"`
	Links map[string]string `json:"links"`
}

type claudeStep struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	// Expect is "runs"; "denied" (stopped, and the model was told a
	// zcode-fence reason, starting with Reason when that is set: the
	// marker of the layer that must stop it, such as "[zcode-fence:
	// dangerous command]" for the danger gate: language auto is English
	// under Claude Code with LANG=C.UTF-8); or "blocked" (stopped, whoever stopped it).
	Expect string `json:"expect"`
	Reason string `json:"reason"`
	Note   string `json:"note"`
	// Shows must be in what the model was told (a file's content read);
	// Hides must not be (a secret the guard kept out of the conversation).
	Shows string `json:"shows"`
	Hides string `json:"hides"`
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

// TestClaudeCodePlugin installs the bundle into the real Claude Code CLI
// from a copy of the repository's marketplace and drives scripted agent
// turns through it (testdata/claude-runs.json), each scenario in a fresh
// fake home: a control run without the plugin shows find ~ -delete really
// wipes a fake home; with the plugin that step and a write into the home
// must not happen and the model must be told zcode-fence's reason, an
// in-project touch must happen, and after `claude plugin configure` sets
// enable_fence=false the home write goes through while the danger gate
// still stops the delete. No process may outlive a run.
func TestClaudeCodePlugin(t *testing.T) {
	claude := findClaude(t)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })

	t.Run("validate", func(t *testing.T) {
		w := newClaudeWorld(t, claude, api.URL)
		v := w.must(t, nil, "--version")
		if !strings.HasPrefix(string(v.stdout), claudeVersion) {
			t.Fatalf("claude --version = %q, want %s", v.stdout, claudeVersion)
		}
		// The plugin and the tree a release publishes, and the default
		// branch's marketplace, whose source is the release ref.
		for _, target := range []string{w.f.Plugin, w.f.Market, kit.RepoRoot(t)} {
			r := w.must(t, nil, "plugin", "validate", target)
			out := string(r.stdout) + string(r.stderr)
			if !strings.Contains(out, "Validation passed") || strings.Contains(out, "✘") {
				t.Errorf("claude plugin validate %s:\n%s", target, out)
			}
		}
	})

	var scenarios []claudeScenario
	kit.ReadJSON(t, filepath.Join("testdata", "claude-runs.json"), &scenarios)
	if len(scenarios) == 0 {
		t.Fatal("testdata/claude-runs.json has no scenarios")
	}
	var timings []string
	for _, sc := range scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			w := newClaudeWorld(t, claude, api.URL)
			if sc.Plugin {
				w.install(t)
			}
			if len(sc.Configure) > 0 {
				if !sc.Plugin {
					t.Fatal("testdata: configure without the plugin")
				}
				values, err := json.Marshal(sc.Configure)
				if err != nil {
					t.Fatal(err)
				}
				w.must(t, values, "plugin", "configure", pluginID, "--values-stdin")
			}
			elapsed := runScenario(t, api, w, sc)
			timings = append(timings, fmt.Sprintf("%s: %.2fs", sc.Name, elapsed.Seconds()))
		})
	}
	t.Logf("claude -p timings: %s", strings.Join(timings, "; "))
}

// runScenario runs claude -p over the scenario's script and checks every
// step and file. It returns how long the claude -p run took.
func runScenario(t *testing.T, api *fakeapi.Server, w *claudeWorld, sc claudeScenario) time.Duration {
	f := w.f
	for path, content := range sc.Write {
		writeFile(t, f.expand(path), content)
	}
	for link, target := range sc.Links {
		if err := os.Symlink(f.expand(target), f.expand(link)); err != nil {
			t.Fatal(err)
		}
	}
	steps := make([]fakeapi.Step, len(sc.Steps))
	for i, s := range sc.Steps {
		steps[i] = fakeapi.Step{Name: s.Name, Input: f.expandJSON(t, s.Input)}
	}
	api.SetSteps(steps)
	r := w.run(t, nil, 2*time.Minute,
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
	for _, req := range api.Requests() {
		if !strings.HasSuffix(req.Path, "/v1/messages") && !strings.HasSuffix(req.Path, "/v1/messages/count_tokens") {
			t.Errorf("the CLI called %s %s, which the fake API does not serve", req.Method, req.Path)
		}
	}
	denied := map[string]bool{}
	for _, d := range res.PermissionDenials {
		denied[d.ToolUseID] = true
	}
	results := api.ToolResults()
	for k, s := range sc.Steps {
		id := fakeapi.ToolUseID(k)
		what := fmt.Sprintf("step %d (%s %s)", k, s.Name, steps[k].Input)
		tr, reported := results[id]
		if !reported {
			t.Errorf("%s: the CLI never sent a tool_result for %s", what, id)
			continue
		}
		switch s.Expect {
		case "runs":
			if denied[id] || tr.IsError {
				t.Errorf("%s should run, but was denied=%v error=%v: %q", what, denied[id], tr.IsError, tr.Text)
			}
		case "denied", "blocked":
			if !denied[id] {
				t.Errorf("%s should be stopped, but it is not in permission_denials; the model saw %q", what, tr.Text)
			}
			if s.Expect == "denied" && !strings.Contains(tr.Text, "[zcode-fence") {
				t.Errorf("%s: the model was not told zcode-fence's reason: %q", what, tr.Text)
			} else if s.Expect == "denied" && !strings.Contains(tr.Text, s.Reason) {
				t.Errorf("%s: the model was told %q, want the reason %q", what, tr.Text, s.Reason)
			}
		default:
			t.Fatalf("testdata: expect %q", s.Expect)
		}
		if s.Shows != "" && !strings.Contains(tr.Text, s.Shows) {
			t.Errorf("%s: the model was not shown %q: %q", what, s.Shows, tr.Text)
		}
		if s.Hides != "" && strings.Contains(tr.Text, s.Hides) {
			t.Errorf("%s: the model was shown %q: %q", what, s.Hides, tr.Text)
		}
	}
	for path, want := range sc.Files {
		if want != "exists" && want != "absent" {
			t.Fatalf("testdata: file %s: %q", path, want)
		}
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
	for _, req := range api.Requests() {
		t.Logf("fake API got %s %s (%d bytes)", req.Method, req.Path, len(req.Body))
	}
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
