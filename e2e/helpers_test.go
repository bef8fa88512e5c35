package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
	"github.com/zcode-fence/zcode-fence/internal/testdirs"
)

// pluginName, marketName and pluginID name the plugin as both hosts see it.
const (
	pluginName = "zcode-fence"
	marketName = "zcode-fence"
	pluginID   = pluginName + "@" + marketName
)

// scratch is a per-process temp dir for built binaries (TestMain).
var scratch string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "zcode-fence-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	scratch = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// bundleDir is the plugin bundle in the checkout.
func bundleDir(t testing.TB) string { return filepath.Join(kit.RepoRoot(t), "bundle", "zcode-fence") }

var built struct {
	once    sync.Once
	tree    string
	elapsed time.Duration
	err     error
}

// hostTree builds, once per test process, the installable plugin tree (the
// layout a release publishes: marketplaces, plugin, binary, SHA256SUMS) for
// this platform with the real build script:
// go run ./tools/bundle -tree DIR -targets host.
func hostTree(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		out := filepath.Join(scratch, "tree")
		start := time.Now()
		cmd := exec.Command(kit.GoTool(), "run", "./tools/bundle", "-tree", out, "-targets", "host")
		cmd.Dir = kit.RepoRoot(t)
		msg, err := cmd.CombinedOutput()
		built.elapsed = time.Since(start)
		if err != nil {
			built.err = fmt.Errorf("e2e: go run ./tools/bundle -tree %s -targets host: %v\n%s", out, err, msg)
			return
		}
		built.tree = out
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	t.Logf("plugin tree %s (built in %.1fs by tools/bundle)", built.tree, built.elapsed.Seconds())
	return built.tree
}

// hostBinary is ZCODE_FENCE_E2E_BINARY when set, else the binary in
// hostTree.
func hostBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("ZCODE_FENCE_E2E_BINARY"); p != "" {
		return p
	}
	return filepath.Join(hostTree(t), "bundle", "zcode-fence", "libexec", kit.HostBinaryName())
}

// cacheDir is the e2e cache folder (the Claude Code install, run dirs),
// from testdirs.Outside: outside every writable temp root, so a fake home
// there is not writable to the fence and an out-of-project write proves
// something. When there is no such folder (HOME and the checkout under a
// temp dir, no ZCODE_FENCE_E2E_CACHE) the test is skipped with the reason,
// or fails under ZCODE_FENCE_E2E_REQUIRE=1.
func cacheDir(t testing.TB) string {
	t.Helper()
	d, err := testdirs.Outside("zcode-fence-e2e")
	if err != nil {
		if os.Getenv("ZCODE_FENCE_E2E_REQUIRE") == "1" {
			t.Fatalf("e2e: %v (ZCODE_FENCE_E2E_REQUIRE=1)", err)
		}
		t.Skipf("SKIPPED, NOT RUN: %v; set ZCODE_FENCE_E2E_REQUIRE=1 to make this a failure", err)
	}
	return d
}

// within reports whether path is root or below it (after resolving links).
func within(path, root string) bool {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p
	}
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// runDir makes a fresh directory for one test's fake home and project,
// outside every temp root (a home under /tmp would be writable to the fence,
// and the out-of-project write would prove nothing). It is removed when the
// test ends.
func runDir(t *testing.T) string {
	t.Helper()
	base := filepath.Join(cacheDir(t), "runs")
	if err := os.MkdirAll(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(base, "run-")
	if err != nil {
		t.Fatal(err)
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.RemoveAll(dir); err != nil {
			t.Logf("e2e: cleaning %s: %v", dir, err)
		}
	})
	return dir
}

// fixture is one test's world: a fake home with a marker file, a project,
// and a copy of the installable tree (hostTree) as a marketplace.
type fixture struct {
	Dir, Home, Project, Market, Plugin string
	Marker                             string // a file in Home that must survive
}

const markerText = "zcode-fence e2e marker: this home must survive\n"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := runDir(t)
	f := &fixture{
		Dir:     dir,
		Home:    filepath.Join(dir, "home"),
		Project: filepath.Join(dir, "project"),
		Market:  filepath.Join(dir, "market"),
	}
	f.Plugin = filepath.Join(f.Market, "bundle", "zcode-fence")
	f.Marker = filepath.Join(f.Home, ".zcode-fence-e2e-marker")
	for _, d := range []string{filepath.Join(f.Home, "Documents"), filepath.Join(f.Project, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, f.Marker, markerText)
	writeFile(t, filepath.Join(f.Home, "Documents", "notes.txt"), "notes\n")
	writeFile(t, filepath.Join(f.Project, "src", "main.txt"), "project file\n")

	copyTree(t, hostTree(t), f.Market)
	if p := os.Getenv("ZCODE_FENCE_E2E_BINARY"); p != "" {
		useBinary(t, p, filepath.Join(f.Plugin, "libexec"))
	}
	return f
}

// expand replaces {{HOME}}, {{PROJECT}} and {{PLUGIN}} in s.
func (f *fixture) expand(s string) string {
	return strings.NewReplacer("{{HOME}}", f.Home, "{{PROJECT}}", f.Project, "{{PLUGIN}}", f.Plugin).Replace(s)
}

// expandJSON expands placeholders inside the string values of a JSON
// document, keeping it valid whatever the paths contain.
func (f *fixture) expandJSON(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("e2e: %s: %v", raw, err)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return f.expand(x)
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyTree copies the directory src to dst, keeping executable bits.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		kit.CopyFile(t, path, target)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// useBinary puts the zcode-fence binary at path into libexec as this
// platform's binary and rewrites SHA256SUMS for it.
func useBinary(t testing.TB, path, libexec string) {
	t.Helper()
	dst := filepath.Join(libexec, kit.HostBinaryName())
	os.Remove(dst)
	kit.CopyFile(t, path, dst)
	sum, _, err := integrity.HashFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	sums := integrity.FormatSums([]integrity.Sum{{File: kit.HostBinaryName(), SHA256: sum}})
	if err := os.WriteFile(filepath.Join(libexec, integrity.SumsFile), sums, 0o644); err != nil {
		t.Fatal(err)
	}
}

// askOutput is the one line zcode-fence prints to ask.
type askOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// checkAskLine asserts stdout is exactly one ask line in the three-key shape
// both hosts parse (hook-protocol.md §1.4, §2.6) and returns its reason.
func checkAskLine(t testing.TB, stdout []byte) string {
	t.Helper()
	if len(stdout) > 32768 {
		t.Fatalf("ask output is %d bytes; ZCode cuts stdout at 32768", len(stdout))
	}
	if !bytes.HasSuffix(stdout, []byte("\n")) || bytes.Count(stdout, []byte("\n")) != 1 {
		t.Fatalf("ask output is not exactly one line: %q", stdout)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(stdout, &top); err != nil {
		t.Fatalf("ask output is not a JSON object: %v: %q", err, stdout)
	}
	if len(top) != 1 || top["hookSpecificOutput"] == nil {
		t.Fatalf("ask output keys %v, want only hookSpecificOutput: %q", keysOf(top), stdout)
	}
	var inner map[string]json.RawMessage
	if err := json.Unmarshal(top["hookSpecificOutput"], &inner); err != nil {
		t.Fatalf("hookSpecificOutput is not an object: %q", stdout)
	}
	want := []string{"hookEventName", "permissionDecision", "permissionDecisionReason"}
	if got := keysOf(inner); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("hookSpecificOutput keys %v, want %v", got, want)
	}
	var out askOutput
	if err := json.Unmarshal(stdout, &out); err != nil {
		t.Fatalf("ask output: %v: %q", err, stdout)
	}
	h := out.HookSpecificOutput
	if h.HookEventName != "PreToolUse" || h.PermissionDecision != "ask" {
		t.Fatalf("ask output %q: event %q decision %q", stdout, h.HookEventName, h.PermissionDecision)
	}
	if !strings.HasPrefix(h.PermissionDecisionReason, "[zcode-fence") {
		t.Fatalf("ask reason %q does not start with [zcode-fence", h.PermissionDecisionReason)
	}
	return h.PermissionDecisionReason
}

func keysOf[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
