package main

// End-to-end tests of third-party layers: the real zcode-fence binary
// (built by TestMain in e2e_test.go) runs the example layer
// examples/layers/protect-branch, a layer written without go-plugin
// (testdata/layers/rawgrpc) and layers that break the protocol on purpose
// (testdata/layers/misbehave), all built here with go build.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/host"
)

// isolationModes are the two values of layer_isolation.
var isolationModes = []string{"process", "inprocess"}

// extLayers are the layer programs built for these tests, once, into the
// binary's temp dir (TestMain removes it).
type extLayers struct {
	protectBranch, misbehave, rawgrpc string
}

var (
	extOnce  sync.Once
	extBuilt extLayers
	extErr   error
)

// repoRoot is the module root, where the docs' commands run.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// goBuild runs go build -o out pkg in the repository root.
func goBuild(root, out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, stderr.Bytes())
	}
	return nil
}

// builtLayers builds the three layer programs (in parallel) on first use.
func builtLayers(t testing.TB) extLayers {
	t.Helper()
	extOnce.Do(func() {
		dir := filepath.Join(filepath.Dir(binary), "layers")
		if extErr = os.MkdirAll(dir, 0o755); extErr != nil {
			return
		}
		root := repoRoot(t)
		exe := func(name string) string { return filepath.Join(dir, name+exeSuffix()) }
		extBuilt = extLayers{protectBranch: exe("protect-branch"), misbehave: exe("misbehave"), rawgrpc: exe("rawgrpc")}
		pkgs := map[string]string{
			extBuilt.protectBranch: "./examples/layers/protect-branch",
			extBuilt.misbehave:     "./cmd/zcode-fence/testdata/layers/misbehave",
			extBuilt.rawgrpc:       "./cmd/zcode-fence/testdata/layers/rawgrpc",
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for out, pkg := range pkgs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := goBuild(root, out, pkg); err != nil {
					mu.Lock()
					extErr = err
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	})
	if extErr != nil {
		t.Fatal(extErr)
	}
	return extBuilt
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// placeLayer copies exe to dir/name, so that the layer gets its own name,
// path and file. A copy, not a hard link: linking changes the shared
// file's ctime, part of the identity the host keeps for a pinned layer's
// verified copy, so a test linking the same layer in parallel made
// another test's reattach to its warm server re-verify the layer and
// start a new server (TestExternalWarmServerRunsTheVerifiedCopy failed so).
func placeLayer(t testing.TB, exe, dir, name string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, name+exeSuffix())
	copyExecutable(t, exe, dst, 0o755)
	return dst
}

// writeConfig writes a ZCode config file with opts as zcode-fence's
// settings and returns its name for scratch.env.
func writeConfig(t testing.TB, dir, name string, opts map[string]any) string {
	t.Helper()
	doc := map[string]any{"plugins": map[string]any{"options": map[string]any{"zcode-fence@zcode-fence-market": opts}}}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return name
}

// layerOptions renders a layer_options value: JSON text, as the settings
// UI stores it.
func layerOptions(t testing.TB, v map[string]map[string]any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// bashCall is the hook payload of a Bash call in the project.
func (s *scratch) bashCall(command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "ext-layers",
		"tool_input": map[string]any{"command": command}, "cwd": s.project,
	})
	return b
}

// freshTempDir is a short new directory for the hook's TMPDIR (a unix
// socket path must stay under about 100 bytes, so not t.TempDir()).
func freshTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "zf-ext-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// lastRecord returns the newest decision-log record.
func lastRecord(t testing.TB, dataDir string) decisionlog.Record {
	t.Helper()
	recs, _, err := decisionlog.Read(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatal("decision log is empty")
	}
	return recs[len(recs)-1]
}

// loadError reports whether a logged layer error is one a healthy layer
// gets on a machine loaded far past its cores: its process missed the
// start timeout (layerproto.DefaultStartTimeout, 1 s), the chain's
// deadline passed before it answered, or the chain stopped waiting once
// another layer had asked (host.ErrAbandoned). A third-party layer then
// fails open by design (DESIGN §3: silent plus this record) and a
// built-in asks (fail closed) or is judged in-process; any other error
// (a crash, a protocol error, a refused pin) is not load.
func loadError(e string) bool {
	return strings.Contains(e, "start timeout") || strings.Contains(e, context.DeadlineExceeded.Error()) ||
		strings.Contains(e, host.ErrAbandoned.Error())
}

// layerMissed returns layer name's part of record r and whether it shows
// the layer not answering for load alone (loadError). A test of an
// external layer asserts on the layer's answer when it answered and on
// this record when it did not: the answer without the layer is what the
// failure policy prescribes, so what is checked then is that the record
// says why.
func layerMissed(r decisionlog.Record, name string) (decisionlog.LayerRecord, bool) {
	if e, ok := overdue(r); ok {
		// The hook's own budget ran out before the chain answered: no
		// layer's answer was waited for (armOverdue).
		return decisionlog.LayerRecord{Name: name, Verdict: "error", Error: e}, true
	}
	for _, l := range r.Layers {
		if l.Name == name {
			return l, (l.Verdict == "error" || l.Verdict == "abandoned") && loadError(l.Error)
		}
	}
	return decisionlog.LayerRecord{}, false
}

// overdue reports whether record r is the answer the hook gave when its
// budget ran out before its chain answered (armOverdue), and its error.
func overdue(r decisionlog.Record) (string, bool) {
	for _, e := range r.Errors {
		if strings.HasPrefix(e, "hook: no answer within the ") && loadError(e) {
			return e, true
		}
	}
	return "", false
}

// notLoad returns r's errors and notes that are not load errors
// (loadError): what a test must not see whatever the machine's load.
func notLoad(r decisionlog.Record) []string {
	var out []string
	for _, e := range append(append([]string{}, r.Errors...), r.Notes...) {
		if !loadError(e) {
			out = append(out, e)
		}
	}
	return out
}

// recordOf returns the decision-log record of the hook run r (by its
// pid), failing the test when there is none.
func recordOf(t testing.TB, dataDir string, r runResult) decisionlog.Record {
	t.Helper()
	recs, _, err := decisionlog.Read(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].PID == r.pid && r.pid != 0 {
			return recs[i]
		}
	}
	t.Fatalf("no decision-log record of pid %d (%d records)", r.pid, len(recs))
	return decisionlog.Record{}
}

// layerRecord finds the named layer in a record.
func layerRecord(t testing.TB, r decisionlog.Record, name string) decisionlog.LayerRecord {
	t.Helper()
	for _, l := range r.Layers {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("layer %s not in the log record %+v", name, r.Layers)
	return decisionlog.LayerRecord{}
}

// processesUnder lists the running processes whose executable lies in
// dir. ok is false where the platform offers no way to tell (then the
// caller reports that the check did not run).
func processesUnder(dir string) (pids []int, ok bool) {
	prefix := dir + string(filepath.Separator)
	switch runtime.GOOS {
	case "linux":
		entries, err := os.ReadDir("/proc")
		if err != nil {
			return nil, false
		}
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
			if err == nil && strings.HasPrefix(exe, prefix) {
				pids = append(pids, pid)
			}
		}
		return pids, true
	case "darwin", "freebsd", "openbsd", "netbsd":
		out, err := exec.Command("ps", "-axo", "pid=,comm=").Output()
		if err != nil {
			return nil, false
		}
		for _, line := range strings.Split(string(out), "\n") {
			pidText, comm, _ := strings.Cut(strings.TrimSpace(line), " ")
			pid, err := strconv.Atoi(pidText)
			if err == nil && strings.HasPrefix(strings.TrimSpace(comm), prefix) {
				pids = append(pids, pid)
			}
		}
		return pids, true
	}
	return nil, false
}

// processesLeft is processesUnder that, while it finds some, looks again
// for up to wait, so that exits in flight are not reported as leaks.
func processesLeft(dir string, wait time.Duration) (pids []int, ok bool) {
	pids, ok = processesUnder(dir)
	for deadline := time.Now().Add(wait); ok && len(pids) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		pids, ok = processesUnder(dir)
	}
	return pids, ok
}

// TestProcessesUnder checks the leak checker itself: a layer started by
// hand (hang-handshake, which starts a grandchild and waits) is seen with
// its grandchild, and gone once both are killed.
func TestProcessesUnder(t *testing.T) {
	t.Parallel()
	if _, ok := processesUnder(os.TempDir()); !ok {
		t.Skipf("no process table reader for %s: the leak checks log that they did not run", runtime.GOOS)
	}
	layers := builtLayers(t)
	dir := filepath.Join(newScratch(t).root, "probe")
	exe := placeLayer(t, layers.misbehave, dir, "hang-handshake")
	cmd := exec.Command(exe)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids, _ := processesUnder(dir)
	for deadline := time.Now().Add(5 * time.Second); len(pids) < 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		pids, _ = processesUnder(dir)
	}
	if len(pids) != 2 || !slices.Contains(pids, cmd.Process.Pid) {
		t.Errorf("saw pids %v, want the layer %d and its grandchild", pids, cmd.Process.Pid)
	}
	for _, pid := range pids {
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
	}
	_ = cmd.Wait()
	for deadline := time.Now().Add(3 * time.Second); len(pids) > 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		pids, _ = processesUnder(dir)
	}
	if len(pids) > 0 {
		t.Errorf("pids %v still seen after kill", pids)
	}
}

// checkNoneLeft asserts that no process runs from dir (waiting a moment
// for the kernel to finish killing) and that tmp, the hook's TMPDIR, is
// empty: no socket, no socket dir.
func checkNoneLeft(t *testing.T, dir, tmp string) {
	t.Helper()
	if dir != "" {
		pids, ok := processesLeft(dir, 3*time.Second)
		switch {
		case !ok:
			t.Logf("process count not checked: no process table reader for %s", runtime.GOOS)
		case len(pids) > 0:
			t.Errorf("layer processes %v from %s still running after the hook", pids, dir)
		}
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the hook left %q in its TMPDIR %s", names, tmp)
	}
}

// cleanEnv is the test's environment without zcode-fence and plugin
// settings.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "ZCODE_") || strings.HasPrefix(k, "CLAUDE_") || k == "LANG" || k == "LC_ALL" || k == "LC_MESSAGES" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LANG=zh_CN.UTF-8") // language auto: Chinese, as the tables expect
}

// hookEnv is the environment of one hook run with a fresh TMPDIR.
func (s *scratch) hookEnv(config, mode, tmp string, extra ...string) []string {
	// Per-call layer processes (layer_idle_timeout 0): these tests check
	// that each call leaves nothing; warm servers have tests of their own.
	return s.env(config, false, append([]string{"ZCODE_FENCE_LAYER_ISOLATION=" + mode, "ZCODE_FENCE_LAYER_IDLE_TIMEOUT=0", "TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp}, extra...)...)
}

// TestExternalProtectBranch runs the example layer under the host: it asks
// on protected pushes with its own reason, stays silent on other pushes,
// honours its options, and is logged under its name.
func TestExternalProtectBranch(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	for _, mode := range isolationModes {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			exe := placeLayer(t, layers.protectBranch, filepath.Join(s.root, "layers"), "protect-branch")
			plain := writeConfig(t, s.configs, "pb-plain", map[string]any{"language": "en", "external_layers": exe})
			// The danger gate asks about every push --delete, and once a
			// layer asked the chain waits only host.AskGrace more for
			// external layers: on a loaded machine protect-branch may be
			// abandoned before it answers. With the gate off the chain
			// always waits for it, so its own verdict is what is checked.
			noGate := writeConfig(t, s.configs, "pb-nogate", map[string]any{"language": "en", "external_layers": exe, "enable_danger_gate": false})
			releases := writeConfig(t, s.configs, "pb-release", map[string]any{"language": "en", "external_layers": exe,
				"layer_options": layerOptions(t, map[string]map[string]any{"protect-branch": {"branches": "release/*;prod"}})})
			anyPush := writeConfig(t, s.configs, "pb-any", map[string]any{"language": "en", "external_layers": exe,
				"layer_options": layerOptions(t, map[string]map[string]any{"protect-branch": {"ask_on_any_push": true}})})
			chinese := writeConfig(t, s.configs, "pb-zh", map[string]any{"external_layers": exe}) // language defaults to zh

			cases := []struct {
				config, command, want, rule string
				reason                      []string
			}{
				{plain, "git push origin main", "ask", "PB-PUSH-PROTECTED",
					[]string{"[zcode-fence: protect-branch] `git push origin main` pushes to the protected branch main."}},
				{plain, "cd sub && git -C . push origin HEAD:master", "ask", "PB-PUSH-PROTECTED", []string{"protected branch master"}},
				{noGate, "git push --delete origin main", "ask", "PB-PUSH-DELETE", []string{"deletes the protected branch main on the remote"}},
				{plain, "git push origin feature/x", "silent", "", nil},
				{plain, "git push", "silent", "", nil},
				{releases, "git push origin release/1.2", "ask", "PB-PUSH-PROTECTED", []string{"protected branch release/1.2"}},
				{releases, "git push origin main", "silent", "", nil},
				{anyPush, "git push origin feature/x", "ask", "PB-PUSH-ANY", []string{"ask_on_any_push is on"}},
				{chinese, "git push origin main", "ask", "PB-PUSH-PROTECTED", []string{"会推送到受保护分支 main"}},
			}
			answered := 0
			for _, c := range cases {
				tmp := freshTempDir(t)
				r := runHook(t, s.hookEnv(c.config, mode, tmp), s.project, s.bashCall(c.command))
				got, reason := checkAnswer(r)
				rec := recordOf(t, s.data, r)
				if l, missed := layerMissed(rec, "protect-branch"); missed {
					// Load kept the layer from answering: the call is what
					// the built-ins make of a push, silent (or a built-in
					// that ran out of time asking), and the record says why.
					if got != "silent" && !(got == "ask" && outOfTime(reason)) {
						t.Errorf("%s %q: the layer missed (%s), and the call got %q (%s), want the built-ins' silence", c.config, c.command, l.Error, got, reason)
					}
					t.Logf("%s %q: the layer did not answer on this loaded machine (%s): fails open, as logged", c.config, c.command, l.Error)
					checkNoneLeft(t, filepath.Dir(exe), tmp)
					continue
				}
				answered++
				if got != c.want {
					t.Errorf("%s %q: got %q (%s), want %s", c.config, c.command, got, reason, c.want)
					continue
				}
				for _, want := range c.reason {
					if !strings.Contains(reason, want) {
						t.Errorf("%s %q: reason lacks %q: %s", c.config, c.command, want, reason)
					}
				}
				l := layerRecord(t, rec, "protect-branch")
				if l.Mode != "external" || l.Verdict != c.want || l.Error != "" {
					t.Errorf("%q: layer record %+v", c.command, l)
				}
				if c.rule != "" && !slices.Contains(l.Rules, c.rule) {
					t.Errorf("%q: layer rules %q lack %s", c.command, l.Rules, c.rule)
				}
				if l.Annotations["protected"] == "" {
					t.Errorf("%q: no protected annotation in %+v", c.command, l)
				}
				checkNoneLeft(t, filepath.Dir(exe), tmp)
			}
			t.Logf("the layer answered %d of %d calls (the others are logged as load misses)", answered, len(cases))
		})
	}
}

// TestExternalPins: a correct sha256 pin (any case) starts the layer
// (from its verified copy in the data dir); a wrong one asks with
// HK-LAYER-INTEGRITY and the layer does not run (`zcode-fence log` shows
// it); a malformed pin or a relative path skips the layer with a note.
func TestExternalPins(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	data, err := os.ReadFile(layers.protectBranch)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	good := hex.EncodeToString(sum[:])
	for _, mode := range isolationModes {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			exe := placeLayer(t, layers.protectBranch, filepath.Join(s.root, "layers"), "protect-branch")
			cases := []struct {
				name, pin, want, logged string
			}{
				{"correct", "#sha256=" + good, "ask", ""},
				{"correct-upper", "#sha256=" + strings.ToUpper(good), "ask", ""},
				{"wrong", "#sha256=" + strings.Repeat("0", 64), "ask", "external layer protect-branch: integrity check failed: integrity: sha256 of"},
				{"malformed", "#sha256=1234", "silent", "is not sha256=<64 hex digits>; layer skipped"},
				{"relative-path", "", "silent", "path is not absolute; layer skipped"},
			}
			for _, c := range cases {
				path := exe
				if c.name == "relative-path" {
					path = filepath.Join("layers", "protect-branch")
				}
				cfg := writeConfig(t, s.configs, "pin-"+c.name, map[string]any{"language": "en", "external_layers": path + c.pin})
				tmp := freshTempDir(t)
				r := runHook(t, s.hookEnv(cfg, mode, tmp), s.project, s.bashCall("git push origin main"))
				rec := recordOf(t, s.data, r)
				if e, late := overdue(rec); late {
					// Out of time before the pin was even checked: the
					// built-ins asked for what they could not inspect.
					if got, reason := checkAnswer(r); got != "ask" || !outOfTime(reason) {
						t.Errorf("%s: overdue (%s), got %q (%s), want the out-of-time ask", c.name, e, got, reason)
					}
					t.Logf("%s: the hook ran out of its budget on this loaded machine: %s", c.name, e)
					checkNoneLeft(t, filepath.Dir(exe), tmp)
					continue
				}
				want := c.want
				if l, missed := layerMissed(rec, "protect-branch"); missed {
					// The pin passed and the layer was started, but load
					// kept it from answering: it fails open, as logged.
					t.Logf("%s: the layer did not answer on this loaded machine (%s)", c.name, l.Error)
					want = "silent"
				}
				if got, reason := checkAnswer(r); got != want && !(got == "ask" && outOfTime(reason)) {
					t.Errorf("%s: got %q (%s), want %s", c.name, got, reason, want)
				}
				text := strings.Join(notLoad(rec), "\n")
				if c.logged == "" && text != "" {
					t.Errorf("%s: unexpected errors or notes: %s", c.name, text)
				}
				if c.logged != "" && !strings.Contains(text, c.logged) {
					t.Errorf("%s: log record lacks %q:\n%s", c.name, c.logged, text)
				}
				if c.name == "wrong" {
					// Tampering, not trouble: the call asks with the host's
					// integrity rule and the layer never runs.
					if !slices.Contains(rec.Rules, "HK-LAYER-INTEGRITY") {
						t.Errorf("wrong pin: rules %v, layers %+v", rec.Rules, rec.Layers)
					}
					for _, l := range rec.Layers {
						if l.Name == "protect-branch" {
							t.Errorf("a layer that failed its pin ran: %+v", l)
						}
					}
					logged := runLog(t, s, "--json", "-n", "1")
					if !strings.Contains(logged, "HK-LAYER-INTEGRITY") || !strings.Contains(logged, "protect-branch") {
						t.Errorf("zcode-fence log --json does not show the integrity ask:\n%s", logged)
					}
				}
				checkNoneLeft(t, filepath.Dir(exe), tmp)
			}
		})
	}
}

// runLog runs `zcode-fence log ARGS` on the scratch data dir.
func runLog(t *testing.T, s *scratch, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"log"}, args...)...)
	cmd.Env = s.env("", false)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("zcode-fence log: %v\n%s", err, out)
	}
	return string(out)
}

// brokenLayer is a failure case: the layer's name (and misbehave mode),
// what the logged error must say (in any case), and whether the layer is
// a program.
type brokenLayer struct {
	name, logged string
	program      bool
}

var brokenLayers = []brokenLayer{
	{"crash-decide", "decide: Unavailable", true},
	{"hang-decide", "deadline", true},
	{"hang-handshake", "start: no answer within the start timeout of 1s", true},
	{"garbage", "Unrecognized remote plugin message", true},
	{"wrong-version", "incompatible API version with plugin. Plugin version: 9", true},
	{"wrong-magic", "This binary is a plugin", true},
	{"panic-decide", "panic in Decide", true},
	{"error-decide", "decide: misbehave: cannot judge", true},
	{"not-executable", "permission denied", false},
	{"missing", "no such file", false},
}

// builtinAsked reports whether a layer other than the external ones asked.
func builtinAsked(r decisionlog.Record) bool {
	for _, l := range r.Layers {
		if l.Mode != "external" && l.Verdict == "ask" {
			return true
		}
	}
	return false
}

// TestExternalBrokenLayers: every broken layer gives silence (or the
// built-ins' ask) within the hook timeout, an error record naming the
// layer, no process left from its directory and an empty TMPDIR, in both
// isolation modes. The hanging and crashing layers are also run under a
// command the built-ins ask on: their ask must come through unharmed.
func TestExternalBrokenLayers(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	cases := brokenLayers
	if runtime.GOOS == "windows" {
		cases = slices.DeleteFunc(slices.Clone(cases), func(b brokenLayer) bool {
			return b.name == "not-executable" // Windows has no execute bit
		})
	}
	for _, mode := range isolationModes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel() // each mode has its own scratch; the hung layers wait out their timeouts
			s := newScratch(t)
			for _, b := range cases {
				t.Run(b.name, func(t *testing.T) {
					dir := filepath.Join(s.root, "broken", b.name)
					exe := filepath.Join(dir, b.name+exeSuffix())
					switch {
					case b.program:
						exe = placeLayer(t, layers.misbehave, dir, b.name)
					case b.name == "not-executable":
						if err := os.MkdirAll(dir, 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(exe, []byte("#!/bin/sh\necho not a layer\n"), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					if pids, ok := processesUnder(dir); ok && len(pids) != 0 {
						t.Fatalf("processes %v from %s before the test", pids, dir)
					}
					cfg := writeConfig(t, s.configs, "broken-"+b.name, map[string]any{"language": "en", "external_layers": exe})
					commands := []struct{ command, want string }{{"git status", "silent"}}
					if b.name == "hang-decide" || b.name == "crash-decide" {
						commands = append(commands, struct{ command, want string }{"rm -rf /", "ask"})
					}
					for _, c := range commands {
						tmp := freshTempDir(t)
						r := runHook(t, s.hookEnv(cfg, mode, tmp), s.project, s.bashCall(c.command))
						got, reason := checkAnswer(r)
						if got != c.want {
							t.Errorf("%q: got %q (%s), want %s", c.command, got, reason, c.want)
						}
						rec := lastRecord(t, s.data)
						// The host's timeout on the hook's own clock: wall
						// time on a loaded machine says nothing about it.
						if rec.PID != r.pid {
							t.Errorf("%q: the last record is pid %d's, not this run's (%d)", c.command, rec.PID, r.pid)
						} else if rec.Ms >= float64(hookKill.Milliseconds()) {
							t.Errorf("%q: the hook's own clock says it took %.0f ms, past the host's %v hook timeout", c.command, rec.Ms, hookKill)
						}
						if c.want == "ask" && (!builtinAsked(rec) || strings.Contains(reason, b.name)) {
							t.Errorf("%q: the ask %q should come from the built-ins alone (layers %+v)", c.command, reason, rec.Layers)
						}
						l := layerRecord(t, rec, b.name)
						abandoned := c.want == "ask" && l.Verdict == "abandoned"
						if (rec.Level != "error" || l.Verdict != "error") && !abandoned || l.Mode != "external" || !strings.Contains(l.Error, "layer "+b.name+":") {
							t.Errorf("%q: record level %q, layer %+v; want an error naming %s", c.command, rec.Level, l, b.name)
						}
						switch {
						case strings.Contains(strings.ToLower(l.Error), strings.ToLower(b.logged)):
						case c.want == "ask" && strings.Contains(l.Error, "not waited for: another layer had already asked"):
							// A built-in asked first: the chain answers after
							// host.AskGrace instead of waiting for this layer.
						case strings.Contains(l.Error, "start timeout") && l.Ms >= 1000:
							// On an overloaded machine the program may not even
							// get to misbehave within the start timeout; the
							// outcome (silence, a logged error) is the same.
							t.Logf("%q: the start timeout came first (machine busy): %s", c.command, l.Error)
						default:
							t.Errorf("%q: the logged error %q does not say %q", c.command, l.Error, b.logged)
						}
						checkNoneLeft(t, dir, tmp)
						t.Logf("%s %q: %s in %v", mode, c.command, got, r.took.Round(time.Millisecond))
					}
				})
			}
		})
	}
}

// TestExternalChattyLayer: a layer writing to its stdout and stderr after
// the handshake cannot disturb the hook's output; its ask arrives intact.
func TestExternalChattyLayer(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	for _, mode := range isolationModes {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			exe := placeLayer(t, layers.misbehave, filepath.Join(s.root, "chatty"), "chatty")
			cfg := writeConfig(t, s.configs, "chatty", map[string]any{"language": "en", "external_layers": exe})
			tmp := freshTempDir(t)
			r := runHook(t, s.hookEnv(cfg, mode, tmp), s.project, s.bashCall("git status"))
			got, reason := checkAnswer(r) // also: stdout exactly the ask line, stderr empty
			if l, missed := layerMissed(recordOf(t, s.data, r), "chatty"); missed {
				if got != "silent" && !(got == "ask" && outOfTime(reason)) {
					t.Errorf("the layer missed (%s), and the call got %q %q, want silence", l.Error, got, reason)
				}
				t.Logf("the layer did not answer on this loaded machine (%s): fails open, as logged", l.Error)
			} else if got != "ask" || reason != "[zcode-fence: chatty] chatty layer asks about: git status" {
				t.Errorf("got %q %q", got, reason)
			}
			checkNoneLeft(t, filepath.Dir(exe), tmp)
		})
	}
}

// TestExternalRawGRPC: a layer that follows docs/layers.md's steps for other
// languages (no go-plugin, no layerproto.Serve) works under the host.
func TestExternalRawGRPC(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	for _, mode := range isolationModes {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			exe := placeLayer(t, layers.rawgrpc, filepath.Join(s.root, "raw"), "rawgrpc")
			cfg := writeConfig(t, s.configs, "raw", map[string]any{"language": "en", "external_layers": exe})
			for _, c := range []struct{ command, want string }{
				{"cd deploy-dir && ./deploy production", "ask"},
				{"ls deploy", "silent"},
			} {
				tmp := freshTempDir(t)
				r := runHook(t, s.hookEnv(cfg, mode, tmp), s.project, s.bashCall(c.command))
				got, reason := checkAnswer(r)
				rec := recordOf(t, s.data, r)
				if l, missed := layerMissed(rec, "rawgrpc"); missed {
					if got != "silent" && !(got == "ask" && outOfTime(reason)) {
						t.Errorf("%q: the layer missed (%s), and the call got %q (%s), want silence", c.command, l.Error, got, reason)
					}
					t.Logf("%q: the layer did not answer on this loaded machine (%s): fails open, as logged", c.command, l.Error)
					checkNoneLeft(t, filepath.Dir(exe), tmp)
					continue
				}
				if got != c.want {
					t.Errorf("%q: got %q (%s), want %s", c.command, got, reason, c.want)
				}
				if got == "ask" && !strings.HasPrefix(reason, "[zcode-fence: rawgrpc] `"+c.command+"` deploys; ask the user first (language en)") {
					t.Errorf("%q: reason %q, want the layer's own (with the language option)", c.command, reason)
				}
				l := layerRecord(t, rec, "rawgrpc")
				if l.Error != "" || l.Verdict != c.want {
					t.Errorf("%q: layer record %+v", c.command, l)
				}
				// The socket dir lies in the hook's own c<PID> dir in the
				// run dir inside the data dir (launch.go, layerproto.CallDir),
				// which the hook removes before it exits.
				dir := l.Annotations["socket_dir"]
				callDir := filepath.Dir(dir)
				if !strings.HasPrefix(filepath.Base(callDir), "c") || !strings.HasPrefix(callDir, s.data+string(filepath.Separator)) {
					t.Errorf("%q: the layer's socket dir %q is not in the hook's own dir in the run dir under %s", c.command, dir, s.data)
				}
				if _, err := os.Stat(callDir); !os.IsNotExist(err) {
					t.Errorf("%q: the hook's socket dir %s outlived it (stat: %v)", c.command, callDir, err)
				}
				checkNoneLeft(t, filepath.Dir(exe), tmp)
			}
		})
	}
}

// explainLine matches explain's line for an external layer that ran.
func explainLine(name, state string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + `\s+` + state + `\s+external\s+launch [0-9.]+ms\s+decide [0-9.]+ms$`)
}

// explainMissed reports whether explain's output shows the external layer
// name not answering for load alone (its error line is a loadError):
// explain's layer listing is the record a test then checks.
func explainMissed(text, name string) (string, bool) {
	if !explainLine(name, "(error|abandoned)").MatchString(text) {
		return "", false
	}
	m := regexp.MustCompile(`(?m)^      (layer ` + regexp.QuoteMeta(name) + `: .*)$`).FindStringSubmatch(text)
	if m == nil || !loadError(m[1]) {
		return "", false
	}
	return m[1], true
}

// TestExternalExplain: explain shows an external layer's verdict, rule id
// and times, and a broken layer's error. The command is a plain push to a
// protected branch: the built-ins stay silent, so the chain always waits
// for protect-branch (with a force push the danger gate asks at once and,
// in-process, a loaded machine may not have started protect-branch within
// host.AskGrace: it is then abandoned, correctly, and there is nothing to
// show).
func TestExternalExplain(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	for _, mode := range isolationModes {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			pb := placeLayer(t, layers.protectBranch, filepath.Join(s.root, "layers"), "protect-branch")
			hang := placeLayer(t, layers.misbehave, filepath.Join(s.root, "layers"), "hang-handshake")
			cfg := writeConfig(t, s.configs, "explain", map[string]any{"language": "en", "external_layers": pb + ";" + hang})
			tmp := freshTempDir(t)
			cmd := exec.Command(binary, "explain", "git push origin main")
			cmd.Env = s.hookEnv(cfg, mode, tmp)
			cmd.Dir = s.project
			out, err := cmd.CombinedOutput()
			text := string(out)
			if why, missed := explainMissed(text, "protect-branch"); missed {
				// Load kept the layer from answering: it fails open and
				// explain says why; the built-ins are silent on the push.
				if code := exitCode(err); code != exitSilent {
					t.Errorf("explain: protect-branch missed (%s), exit %d (%v), want %d (silent)\n%s", why, code, err, exitSilent, out)
				}
				t.Logf("protect-branch did not answer on this loaded machine: %s", why)
				checkNoneLeft(t, filepath.Dir(pb), tmp)
				return
			}
			if code := exitCode(err); code != exitAsk {
				t.Fatalf("explain: exit %d (%v), want %d (ask)\n%s", code, err, exitAsk, out)
			}
			for _, want := range []*regexp.Regexp{
				explainLine("protect-branch", "ask"),
				regexp.MustCompile(`(?m)^      PB-PUSH-PROTECTED  \[zcode-fence: protect-branch\] ` + "`git push origin main` pushes to the protected branch main"),
				regexp.MustCompile(`(?m)^      protected = main;master$`),
				explainLine("hang-handshake", "(error|abandoned)"),
				// The built-ins ask at once, so the chain stops waiting for
				// the hung layer after host.AskGrace (or, on a slow machine,
				// its start timeout comes first).
				regexp.MustCompile(`(?m)^      layer hang-handshake: (launch: .*start timeout of 1s|not waited for: another layer had already asked)`),
				regexp.MustCompile(`(?m)^decision:    ask `),
			} {
				if !want.MatchString(text) {
					t.Errorf("explain output lacks %s:\n%s", want, text)
				}
			}
			checkNoneLeft(t, filepath.Dir(pb), tmp)
		})
	}
}

// TestExternalLayerLogEnv: ZCODE_FENCE_LAYER_LOG reaches the layer through
// the host and receives the layer's own log (here: a panic in Decide).
func TestExternalLayerLogEnv(t *testing.T) {
	t.Parallel()
	layers := builtLayers(t)
	s := newScratch(t)
	exe := placeLayer(t, layers.misbehave, filepath.Join(s.root, "layers"), "panic-decide")
	cfg := writeConfig(t, s.configs, "panic", map[string]any{"external_layers": exe})
	logFile := filepath.Join(s.root, "layer.log")
	tmp := freshTempDir(t)
	r := runHook(t, s.hookEnv(cfg, "inprocess", tmp, "ZCODE_FENCE_LAYER_LOG="+logFile), s.project, s.bashCall("git status"))
	if got, detail := checkAnswer(r); got != "silent" && !(got == "ask" && outOfTime(detail)) {
		t.Fatalf("got %q %s", got, detail)
	}
	data, err := os.ReadFile(logFile)
	if l, missed := layerMissed(recordOf(t, s.data, r), "panic-decide"); missed {
		// Load kept the call from reaching the layer's Decide: its log
		// has its start at most, not the panic.
		t.Logf("the layer was not asked on this loaded machine (%s); its log (%v):\n%s", l.Error, err, data)
	} else if err != nil {
		t.Fatal(err)
	} else if !bytes.Contains(data, []byte("panic in Decide")) || !bytes.Contains(data, []byte("misbehave: panic while judging git status")) {
		t.Errorf("layer log lacks the panic:\n%s", data)
	}
	checkNoneLeft(t, filepath.Dir(exe), tmp)
}

// docBlock returns the fenced code block that follows the marker
// "<!-- e2e: NAME -->" in docs/layers.md.
func docBlock(t *testing.T, doc, name string) string {
	t.Helper()
	marker := "<!-- e2e: " + name + " -->"
	_, after, ok := strings.Cut(doc, marker)
	if !ok {
		t.Fatalf("docs/layers.md has no %s", marker)
	}
	_, after, ok = strings.Cut(after, "```")
	if !ok {
		t.Fatalf("no code block after %s", marker)
	}
	_, body, _ := strings.Cut(after, "\n") // drop the info string
	body, _, ok = strings.Cut(body, "```")
	if !ok {
		t.Fatalf("unterminated code block after %s", marker)
	}
	return body
}

// goEnv returns KEY=value for go env's values of keys.
func goEnv(t testing.TB, keys ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"env"}, keys...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	values := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(values) != len(keys) {
		t.Fatalf("go env printed %q for %q", values, keys)
	}
	var env []string
	for i, k := range keys {
		env = append(env, k+"="+values[i])
	}
	return env
}

// TestExternalDocsQuickstart follows docs/layers.md literally: it runs the
// guide's quick-start shell block (build the example, point
// external_layers at it, run explain) with a scratch HOME and the built
// binary on PATH, then installs the guide's config-file example (with the
// real path and checksum) and runs the guide's pin command.
func TestExternalDocsQuickstart(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the quick start is a POSIX shell block")
	}
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "layers.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := newScratch(t)
	home := filepath.Join(s.root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	// The environment of a reader: their HOME (no config file yet), the
	// binary on PATH, no zcode-fence variables.
	env := slices.DeleteFunc(cleanEnv(), func(kv string) bool {
		return strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "PATH=")
	})
	env = append(env, "HOME="+home, "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ZCODE_FENCE_DATA_DIR="+s.data)
	// Keep this machine's Go caches: a fresh HOME would otherwise mean a
	// cold build and a module download (a real reader has both).
	env = append(env, goEnv(t, "GOCACHE", "GOMODCACHE", "GOPATH")...)

	quick := docBlock(t, string(doc), "quickstart")
	cmd := exec.Command("sh", "-e", "-c", quick)
	cmd.Dir = repoRoot(t)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if code := exitCode(err); code != exitAsk { // its last command, explain, asks
		t.Fatalf("the quick start failed: exit %d (%v), want %d from explain's ask\n%s\n%s", code, err, exitAsk, quick, out)
	}
	text := string(out)
	if why, missed := explainMissed(text, "protect-branch"); missed {
		// The danger gate asked; load kept the layer from answering
		// within the grace the chain gives it then (or its start timeout).
		t.Logf("the quick start's protect-branch did not answer on this loaded machine: %s", why)
	} else {
		for _, want := range []*regexp.Regexp{
			explainLine("protect-branch", "ask"),
			regexp.MustCompile(`(?m)^      PB-FORCE-PUSH-PROTECTED  \[zcode-fence: protect-branch\]`),
		} {
			if !want.MatchString(text) {
				t.Errorf("the quick start's explain lacks %s:\n%s", want, text)
			}
		}
	}
	installed := filepath.Join(home, ".local", "lib", "zcode-fence", "protect-branch")
	data, err := os.ReadFile(installed)
	if err != nil {
		t.Fatalf("the quick start did not build the layer where the guide says: %v", err)
	}
	sum := sha256.Sum256(data)
	hexSum := hex.EncodeToString(sum[:])

	// The guide's pin command prints the checksum.
	pin := docBlock(t, string(doc), "pin")
	cmd = exec.Command("sh", "-e", "-c", pin)
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	switch {
	case err != nil && bytes.Contains(out, []byte("not found")):
		t.Logf("pin command not available here (%s); the checksum is checked below all the same", bytes.TrimSpace(out))
	case err != nil:
		t.Fatalf("the pin command failed: %v\n%s", err, out)
	case !bytes.Contains(out, []byte(hexSum)):
		t.Errorf("the pin command printed %q, not the sha256 %s", out, hexSum)
	}

	// The guide's config file, with this reader's home and checksum.
	conf := docBlock(t, string(doc), "config")
	conf = strings.ReplaceAll(conf, "/home/you", home)
	conf = regexp.MustCompile(`sha256=[0-9a-f]{64}`).ReplaceAllString(conf, "sha256="+hexSum)
	confPath := filepath.Join(home, ".zcode", "cli", "config.json")
	if err := os.MkdirAll(filepath.Dir(confPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ command, want string }{
		{"git push origin release/2.0", "ask"}, // the example protects release/*
		{"git push origin feature/x", "silent"},
	} {
		cmd = exec.Command(binary)
		cmd.Env = append(env, "ZCODE_PROJECT_DIR="+s.project)
		cmd.Dir = s.project
		in, err := stdinHolding(s.bashCall(c.command))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = in
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		in.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, reason := checkAnswer(runResult{stdout: stdout.Bytes(), stderr: stderr.Bytes()})
		rec := recordOf(t, s.data, runResult{pid: cmd.Process.Pid})
		want := c.want
		if l, missed := layerMissed(rec, "protect-branch"); missed {
			t.Logf("with the guide's config, %q: the layer did not answer on this loaded machine (%s): fails open", c.command, l.Error)
			want = "silent"
		} else if l := layerRecord(t, rec, "protect-branch"); l.Verdict != c.want {
			t.Errorf("with the guide's config, %q: layer %+v", c.command, l)
		}
		if got != want && !(got == "ask" && outOfTime(reason)) {
			t.Errorf("with the guide's config, %q: got %q (%s), want %s", c.command, got, reason, want)
		}
		if bad := notLoad(rec); len(bad) > 0 {
			t.Errorf("with the guide's config, %q: errors or notes %q", c.command, bad)
		}
	}
}

// TestExternalDocsGoLayer builds the guide's Go example exactly as printed
// (through a go build overlay, so nothing is written into the tree) and
// runs it under the host: it must ask on a forced push and stay silent on
// a plain one.
func TestExternalDocsGoLayer(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "layers.md"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(src, []byte(docBlock(t, string(doc), "go-layer")), 0o600); err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(repoRoot(t), "cmd", "zcode-fence", "testdata", "layers", "docs-go-layer")
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(pkgDir, "main.go"): src}})
	overlayFile := filepath.Join(t.TempDir(), "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		t.Fatal(err)
	}
	s := newScratch(t)
	exe := filepath.Join(s.root, "layers", "no-force-push"+exeSuffix())
	build := exec.Command("go", "build", "-overlay", overlayFile, "-o", exe, "./cmd/zcode-fence/testdata/layers/docs-go-layer")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("the guide's Go layer does not build: %v\n%s", err, out)
	}
	cfg := writeConfig(t, s.configs, "docs-go", map[string]any{"language": "en", "external_layers": exe, "enable_danger_gate": false})
	for _, mode := range isolationModes {
		for _, c := range []struct{ command, want string }{
			{"git push --force origin feature/x", "ask"},
			{"git push origin feature/x", "silent"},
		} {
			tmp := freshTempDir(t)
			r := runHook(t, s.hookEnv(cfg, mode, tmp), s.project, s.bashCall(c.command))
			got, reason := checkAnswer(r)
			if l, missed := layerMissed(recordOf(t, s.data, r), "no-force-push"); missed {
				if got != "silent" && !(got == "ask" && outOfTime(reason)) {
					t.Errorf("%s %q: the layer missed (%s), and the call got %q %q, want silence", mode, c.command, l.Error, got, reason)
				}
				t.Logf("%s %q: the layer did not answer on this loaded machine (%s): fails open, as logged", mode, c.command, l.Error)
			} else if got != c.want || (got == "ask" && reason != "[zcode-fence: no-force-push] `"+c.command+"` force-pushes; ask the user first") {
				t.Errorf("%s %q: got %q %q, want %s", mode, c.command, got, reason, c.want)
			}
			checkNoneLeft(t, filepath.Dir(exe), tmp)
		}
	}
}

// BenchmarkHookExternalLayer measures what an external layer adds to one
// hook run of the real binary: the same silent call (so every layer runs)
// with the built-ins alone and with protect-branch added, in both
// isolation modes. It reports the median and p90 wall time of the runs.
//
//	go test -run '^$' -bench HookExternalLayer -benchtime 40x ./cmd/zcode-fence
func BenchmarkHookExternalLayer(b *testing.B) {
	layers := builtLayers(b)
	root := b.TempDir()
	project := filepath.Join(root, "project")
	data := filepath.Join(root, "data")
	for _, d := range []string{project, data} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	stopWarmAtEnd(b, data)
	payload, _ := json.Marshal(map[string]any{"tool_name": "Bash", "cwd": project,
		"tool_input": map[string]any{"command": "git push origin feature/x && go test ./..."}})
	for _, mode := range isolationModes {
		for _, ext := range []string{"builtins", "protect-branch"} {
			b.Run(mode+"/"+ext, func(b *testing.B) {
				opts := map[string]any{"layer_isolation": mode, "enable_log": false}
				if ext != "builtins" {
					opts["external_layers"] = layers.protectBranch
				}
				cfg := filepath.Join(root, writeConfig(b, root, mode+"-"+ext, opts)+".json")
				env := append(cleanEnv(), "ZCODE_FENCE_CONFIG="+cfg, "ZCODE_FENCE_DATA_DIR="+data, "ZCODE_PROJECT_DIR="+project)
				var runs []time.Duration
				for b.Loop() {
					cmd := exec.Command(binary)
					cmd.Env, cmd.Dir, cmd.Stdin = env, project, bytes.NewReader(payload)
					var out bytes.Buffer
					cmd.Stdout = &out
					t0 := time.Now()
					if err := cmd.Run(); err != nil {
						b.Fatal(err)
					}
					runs = append(runs, time.Since(t0))
					if out.Len() != 0 {
						b.Fatalf("not silent: %s", out.Bytes())
					}
				}
				sort.Slice(runs, func(i, j int) bool { return runs[i] < runs[j] })
				b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "median-ms")
				b.ReportMetric(float64(runs[len(runs)*9/10].Microseconds())/1000, "p90-ms")
			})
		}
	}
}
