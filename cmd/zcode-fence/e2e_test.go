package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/internal/testdirs"
)

// binary is the zcode-fence executable built once for the end-to-end tests.
var binary string

// testParallel is how many of this package's parallel tests run at once
// unless -test.parallel is given. Every top-level test here is parallel
// but the few of runsAlone (TestEveryTestIsParallel): each has its own scratch tree, data dir,
// TMPDIR and, where it counts processes, its own copy of the binary, and
// none changes the process's environment or working directory. The tests
// spend much of their time waiting on child processes (budgets, hung
// layers, stdin waits), so go test's default of GOMAXPROCS (2 on the
// project's test machine) would leave those waits in series; each test
// already runs its own hooks hookWorkers at a time.
const testParallel = 4

func TestMain(m *testing.M) {
	if exe := os.Getenv(rssLauncherEnv); exe != "" {
		os.Exit(rssLauncher(exe))
	}
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		if err := flag.Set("test.parallel", fmt.Sprint(testParallel)); err != nil {
			fmt.Fprintln(os.Stderr, "setting -test.parallel:", err)
			os.Exit(1)
		}
	}
	dir, err := os.MkdirTemp("", "zcode-fence-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "zcode-fence")
	if runtime.GOOS == "windows" {
		binary += ".exe"
	}
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building zcode-fence:", err)
		os.Exit(1)
	}
	code := m.Run()
	if left := leftoverProcesses(dir); left != "" {
		fmt.Fprint(os.Stderr, left)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// copyExecutable copies the file src to dst (created with mode perm) in
// the kernel (io.Copy between files: copy_file_range or sendfile), never
// through this process's memory: under -race every buffer a read or write
// passes through is checked byte by byte, which made copying the 26 MB
// binary cost the race-built test process about 0.1 s of CPU a copy. The
// copy is a new inode, unlike a hard link, whose ctime change would tell
// the warm servers of other tests running src that their executable
// changed.
//
// The copy holds syscall.ForkLock for reading while dst is open for
// writing (a fork holds it for writing): tests run in parallel, and a
// child another test forked in that window would hold the write
// descriptor until its exec, so that running dst at once could fail with
// "text file busy" (ETXTBSY).
func copyExecutable(t testing.TB, src, dst string, perm os.FileMode) {
	t.Helper()
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, perm)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatalf("copying %s to %s: %v", src, dst, err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// binarySum is the SHA-256 of binary, hashed once: the tests that install
// copies of it write this sum into their SHA256SUMS (a copy has the same
// bytes; a test that alters its copy does so after the sum is written).
var binarySum = sync.OnceValues(func() (string, error) {
	sum, _, err := integrity.HashFile(binary)
	return sum, err
})

// scratch is a test tree outside every writable temp root (testdirs.Outside),
// so that a fake project's "outside" writes are outside and an external
// layer under it is not refused as living in a writable root, whatever HOME
// and TMPDIR are.
type scratch struct {
	root, project, extra, data, configs, home string
}

func newScratch(t testing.TB) *scratch {
	t.Helper()
	base, err := testdirs.Outside("zcode-fence-tests")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.MkdirTemp(base, "scratch-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s := &scratch{root: root, project: filepath.Join(root, "project"), extra: filepath.Join(root, "extra-root"),
		data: filepath.Join(root, "data"), configs: filepath.Join(root, "configs")}
	s.home, _ = os.UserHomeDir()
	for _, d := range []string{filepath.Join(s.project, "src"), s.extra, s.data, s.configs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fixtures := map[string]map[string]any{
		"default":     {},
		"custom":      {"custom_rules": "^special-cleanup"},
		"invalid":     {"custom_rules": "special-cleanup;(["},
		"gate-off":    {"enable_danger_gate": "false"},
		"fence-off":   {"enable_fence": "false"},
		"extra-roots": {"extra_writable_roots": s.extra},
	}
	for name, opts := range fixtures {
		doc := map[string]any{"plugins": map[string]any{"options": map[string]any{"zcode-fence@zcode-fence-market": opts}}}
		b, _ := json.Marshal(doc)
		if err := os.WriteFile(filepath.Join(s.configs, name+".json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	testRoots.Store(root, struct{}{})
	stopWarmAtEnd(t, s.data) // runs before the tree is removed
	return s
}

// env is the hook's environment for one run.
func (s *scratch) env(config string, noProject bool, extra ...string) []string {
	if config == "" {
		config = "default"
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "ZCODE_PLUGIN_DATA", k == "CLAUDE_PLUGIN_DATA", k == "ZCODE_PROJECT_DIR", k == "CLAUDE_PROJECT_DIR",
			strings.HasPrefix(k, "ZCODE_FENCE_"), strings.HasPrefix(k, "CLAUDE_PLUGIN_OPTION_"),
			k == "LANG", k == "LC_ALL", k == "LC_MESSAGES", k == "ZCODE_APP_VERSION", k == "ZCODE_PLUGIN_ROOT":
			continue
		}
		env = append(env, kv)
	}
	// The tables' reasons are Chinese: language auto under a Chinese
	// locale, pinned whatever this machine's locale is.
	env = append(env, "LANG=zh_CN.UTF-8")
	env = append(env, "ZCODE_FENCE_DATA_DIR="+s.data, "ZCODE_FENCE_CONFIG="+filepath.Join(s.configs, config+".json"))
	if !noProject {
		env = append(env, "ZCODE_PROJECT_DIR="+s.project)
	}
	return append(env, extra...)
}

type runResult struct {
	stdout, stderr []byte
	code           int
	took           time.Duration // wall time seen from outside: load-dependent, never asserted
	pid            int           // the hook's process id (its decision-log records carry it)
	// peakRSS is the child's peak resident set in bytes (-1: unknown).
	peakRSS int64
}

// runHook runs the binary in hook mode with stdin, inside the project.
func runHook(t *testing.T, env []string, dir string, stdin []byte, args ...string) runResult {
	t.Helper()
	return runExe(t, binary, env, dir, stdin, args...)
}

// runExe runs the zcode-fence executable exe (a copy of binary) like runHook.
func runExe(t *testing.T, exe string, env []string, dir string, stdin []byte, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = env
	cmd.Dir = dir
	in, err := stdinHolding(stdin)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd.Stdin = in
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err = cmd.Run()
	res := runResult{stdout: out.Bytes(), stderr: errb.Bytes(), took: time.Since(t0)}
	if cmd.Process != nil {
		res.pid = cmd.Process.Pid
	}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running zcode-fence: %v", err)
	}
	return res
}

// askShape is the exact ask line; the reason is checked separately.
var askShape = regexp.MustCompile(`^\{"hookSpecificOutput":\{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"((?:[^"\\]|\\.)*)"\}\}\n$`)

// checkAnswer asserts the hook protocol invariants and returns "ask",
// "silent" or a description of what is wrong.
func checkAnswer(r runResult) (string, string) {
	if r.code != 0 {
		return "", fmt.Sprintf("exit code %d", r.code)
	}
	if len(r.stderr) != 0 {
		return "", fmt.Sprintf("stderr not empty: %q", r.stderr)
	}
	if len(r.stdout) == 0 {
		return "silent", ""
	}
	m := askShape.FindSubmatch(r.stdout)
	if m == nil {
		return "", fmt.Sprintf("stdout is not the exact ask line: %q", r.stdout)
	}
	var reason string
	if err := json.Unmarshal([]byte(`"`+string(m[1])+`"`), &reason); err != nil {
		return "", fmt.Sprintf("reason does not decode: %v", err)
	}
	if !strings.HasPrefix(reason, "[zcode-fence:") {
		return "", fmt.Sprintf("reason lacks the [zcode-fence: marker: %q", reason)
	}
	return "ask", reason
}

type seedCase struct {
	ID           string   `json:"id"`
	Group        string   `json:"group"`
	Desc         string   `json:"desc"`
	Mode         string   `json:"mode"`
	Command      *string  `json:"command"`
	FilePath     string   `json:"file_path"`
	Tool         string   `json:"tool"`
	Path         string   `json:"path"`
	Query        string   `json:"query"`
	Stdin        string   `json:"stdin"`
	Expect       string   `json:"expect"`
	Config       string   `json:"config"`
	NoProject    bool     `json:"noProject"`
	Platforms    []string `json:"platforms"`
	StrictSchema bool     `json:"strictSchema"`
}

func loadSeedCases(t *testing.T) []seedCase {
	data, err := os.ReadFile("testdata/seed-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []seedCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func (s *scratch) render(v string) string {
	msys := filepath.ToSlash(s.project)
	if len(msys) > 1 && msys[1] == ':' {
		msys = "/" + strings.ToLower(msys[:1]) + msys[2:]
	}
	return fillPlaceholders(v, map[string]string{
		"PROJECT_MSYS": msys,
		"PROJECT":      s.project,
		"EXTRA":        s.extra,
		"MEM":          filepath.ToSlash(filepath.Join(s.home, ".zcode", "cli", "memories")),
		"TEMP":         "/tmp",
		"LONG":         strings.Repeat("a", 10000),
	})
}

// payload builds the hook input for a seed case, as a real host would send
// it: cwd is the project (none when the case has no project).
func (s *scratch) payload(c seedCase) []byte {
	cwd := s.project
	if c.NoProject {
		cwd = ""
	}
	var p map[string]any
	switch c.Mode {
	case "stdin-raw":
		return []byte(c.Stdin)
	case "bash":
		p = map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": s.render(*c.Command)}}
	case "file":
		p = map[string]any{"tool_name": c.Tool, "tool_input": map[string]any{"file_path": s.render(c.FilePath)}}
	case "stdin":
		input := map[string]any{}
		if c.Command != nil {
			input["command"] = s.render(*c.Command)
		}
		if c.Path != "" {
			input["path"] = s.render(c.Path)
		}
		if c.Query != "" {
			input["query"] = c.Query
		}
		p = map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.Tool, "tool_use_id": "test-1",
			"permission_mode": "bypassPermissions", "session_id": "sess-test", "transcript_path": "",
			"riskLevel": "low", "sideEffectScope": "workspace", "timestamp": time.Now().UnixMilli(),
			"toolCallId": "tc-1", "traceId": "tr-1", "turnId": "tu-1", "agent_type": "main"}
		if c.Command == nil && c.Path == "" && c.Query == "" {
			// RB-06: no tool_input at all
		} else {
			p["tool_input"] = input
		}
	}
	if cwd != "" {
		p["cwd"] = cwd
	}
	b, _ := json.Marshal(p)
	return b
}

// TestSeedCases runs every acceptance case of the original release through
// the built binary, in both isolation modes.
func TestSeedCases(t *testing.T) {
	t.Parallel()
	cases := loadSeedCases(t)
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel() // each mode has its own scratch and data dir
			s := newScratch(t)
			ran := 0
			for _, c := range cases {
				t.Run(c.ID, func(t *testing.T) {
					if len(c.Platforms) > 0 && !contains(c.Platforms, platformName()) {
						t.Skipf("%s applies only on %v (this is %s)", c.ID, c.Platforms, platformName())
					}
					ran++
					dir := s.project
					// The seed's host is ZCode, which sets ZCODE_APP_VERSION for
					// every process it starts, with or without a project dir.
					r := runHook(t, s.env(c.Config, c.NoProject, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_APP_VERSION=seed"), dir, s.payload(c))
					got, detail := checkAnswer(r)
					if got == "" {
						t.Fatalf("%s (%s): %s", c.ID, c.Desc, detail)
					}
					if got != c.Expect {
						t.Fatalf("%s (%s): got %s, want %s; reason %q", c.ID, c.Desc, got, c.Expect, detail)
					}
					if c.StrictSchema && len([]rune(detail)) <= 10 {
						t.Fatalf("%s: reason too short: %q", c.ID, detail)
					}
				})
			}
			t.Logf("%s: %d of %d seed cases ran on %s", mode, ran, len(cases), platformName())
			logData, err := os.ReadFile(filepath.Join(s.data, "decisions.log"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`"level":"error"`, `"verdict":"error"`, `"verdict":"ask"`, "invalid JSON"} {
				if !bytes.Contains(logData, []byte(want)) {
					t.Errorf("decision log lacks %s", want)
				}
			}
		})
	}
}

func platformName() string {
	if runtime.GOOS == "windows" {
		return "win32"
	}
	return runtime.GOOS
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
