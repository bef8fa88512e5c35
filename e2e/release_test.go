//go:build linux || darwin

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
)

// release is one snapshot release of the checkout, built once per process
// with the default build cache (TestReleaseInstall installs it; the
// reproducibility check, with an empty cache, is e2e/reproduce's).
var release struct {
	once         sync.Once
	src, commit  string
	version, bin string
	took         time.Duration
}

func snapshotRelease(t *testing.T) (src, commit, version, bin string) {
	t.Helper()
	goreleaser := kit.FindGoreleaser(t)
	release.once.Do(func() {
		release.src = filepath.Join(scratch, "release-src")
		release.commit = kit.SnapshotSource(t, release.src)
		release.version, release.bin, release.took = kit.GoreleaserBuild(t, goreleaser, release.src, "")
	})
	if release.bin == "" {
		t.Fatal("e2e: the shared snapshot release failed in an earlier test")
	}
	kit.CheckSnapshotVersion(t, release.version, release.commit)
	t.Logf("goreleaser snapshot %s of %s (%s) in %.1fs", release.version, release.commit[:12], kit.HostBinaryName(), release.took.Seconds())
	return release.src, release.commit, release.version, release.bin
}

// TestReleaseInstall is a user's install with no toolchain, end to end: a
// GoReleaser snapshot of the checkout, the tree tools/bundle assembles from
// its dist/, published by scripts/publish-tree.sh at the release ref of a
// local repository that stands in for GitHub (git's url.insteadOf in the
// fake home sends the real URL there). The real Claude Code CLI adds the
// marketplace by the name README.md gives, installs the plugin from the
// ref, and runs agent turns with no Go on PATH: the hook asks where it
// must, and the binary checked itself against SHA256SUMS on its first run.
// After the installed binary is changed, an everyday call asks too.
func TestReleaseInstall(t *testing.T) {
	claude := findClaude(t)
	src, commit, version, _ := snapshotRelease(t)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	w := newClaudeWorld(t, claude, api.URL)
	work := filepath.Join(w.f.Dir, "forge")

	// The tree, from GoReleaser's dist/, as the workflow assembles it.
	tree := filepath.Join(work, "tree")
	cmd := exec.Command(kit.GoTool(), "run", "./tools/bundle", "-tree", tree, "-dist", filepath.Join(src, "dist"), "-targets", "host")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tools/bundle -tree -dist: %v\n%s", err, out)
	}
	ref := strings.TrimSpace(runIn(t, src, kit.GoTool(), "run", "./tools/bundle", "-publish-ref"))

	// "GitHub": a bare repository holding the default branch, then the tree
	// published at the release ref by the workflow's script.
	origin := filepath.Join(work, "origin.git")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	kit.Git(t, work, "init", "-q", "--bare", "-b", "main", origin)
	kit.Git(t, src, "push", "-q", origin, "main")
	published := strings.TrimSpace(runIn(t, src, "sh", "scripts/publish-tree.sh", tree, ref, version, origin))
	if got := strings.TrimSpace(kit.Git(t, origin, "rev-parse", "refs/tags/zcode-fence--v"+version)); got != published {
		t.Errorf("tag zcode-fence--v%s is %s, the published commit %s", version, got, published)
	}
	if got := kit.Git(t, origin, "show", "-s", "--format=%B", published); !strings.Contains(got, commit) {
		t.Errorf("the release commit's message does not name the source commit %s:\n%s", commit, got)
	}
	// Publishing again puts the new tree on top of the old one.
	again := filepath.Join(work, "tree-again")
	copyTree(t, tree, again)
	writeFile(t, filepath.Join(again, "README.md"), "second release\n")
	second := strings.TrimSpace(runIn(t, src, "sh", "scripts/publish-tree.sh", again, ref, version+".1", origin))
	if parent := strings.TrimSpace(kit.Git(t, origin, "rev-parse", second+"^")); parent != published {
		t.Errorf("the second release's parent is %s, want the first release %s", parent, published)
	}
	kit.Git(t, origin, "update-ref", "refs/heads/"+ref, published, second) // back to the tree under test

	// The fake home reaches "GitHub" through git's url rewriting; claude
	// itself gets no Go.
	gitconfig := fmt.Sprintf("[url %q]\n\tinsteadOf = %s\n\tinsteadOf = git@github.com:%s.git\n", "file://"+origin, kit.RepoURL, kit.RepoShorthand)
	writeFile(t, filepath.Join(w.f.Home, ".gitconfig"), gitconfig)
	checkNoGo(t, w.env)

	w.must(t, nil, "plugin", "marketplace", "add", kit.RepoShorthand)
	w.must(t, nil, "plugin", "install", pluginID)
	installPath := installedPlugin(t, w, version)
	libexec := filepath.Join(installPath, "libexec")
	for _, name := range []string{kit.HostBinaryName(), integrity.SumsFile, "zcode-fence"} {
		a, errA := os.ReadFile(filepath.Join(libexec, name))
		b, errB := os.ReadFile(filepath.Join(tree, "bundle", "zcode-fence", "libexec", name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("installed libexec/%s is not the published one (%v, %v)", name, errA, errB)
		}
	}

	var scenarios []claudeScenario
	kit.ReadJSON(t, filepath.Join("testdata", "release-runs.json"), &scenarios)
	if len(scenarios) != 2 {
		t.Fatalf("testdata/release-runs.json: %d scenarios, want the install and the changed binary", len(scenarios))
	}
	dataDir := filepath.Join(w.f.Home, ".claude", "plugins", "data", pluginName+"-"+marketName)
	t.Run(scenarios[0].Name, func(t *testing.T) {
		runScenario(t, api, w, scenarios[0])
		var rec struct {
			Binary string `json:"binary"`
			Status string `json:"status"`
		}
		kit.ReadJSON(t, integrity.RecordPath(dataDir, version), &rec)
		if rec.Status != string(integrity.Verified) || rec.Binary != filepath.Join(libexec, kit.HostBinaryName()) {
			t.Errorf("integrity record %+v, want %s verified", rec, filepath.Join(libexec, kit.HostBinaryName()))
		}
	})

	// Change the installed binary: on linux put a copy with bytes appended
	// in its place (it still runs), by rename as an update would — the
	// first scenario's warm layer servers may still run the old file, which
	// cannot be written in place (ETXTBSY); elsewhere the kernel may refuse
	// a binary whose signature no longer matches, so change the listed hash
	// instead.
	if runtime.GOOS == "linux" {
		bin := filepath.Join(libexec, kit.HostBinaryName())
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		changed := bin + ".changed"
		if err := os.WriteFile(changed, append(data, "changed after install\n"...), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(changed, bin); err != nil {
			t.Fatal(err)
		}
	} else {
		writeFile(t, filepath.Join(libexec, integrity.SumsFile), strings.Repeat("0", 64)+"  "+kit.HostBinaryName()+"\n")
	}
	t.Run(scenarios[1].Name, func(t *testing.T) { runScenario(t, api, w, scenarios[1]) })
}

// runIn runs a command in dir and returns its stdout.
func runIn(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("e2e: %s %q in %s: %v\n%s", name, args, dir, err, stderr.String())
	}
	return stdout.String()
}

// checkNoGo fails the test when env's PATH can run go: the installed plugin
// must work without a toolchain.
func checkNoGo(t *testing.T, env []string) {
	t.Helper()
	for _, kv := range env {
		path, ok := strings.CutPrefix(kv, "PATH=")
		if !ok {
			continue
		}
		for _, dir := range filepath.SplitList(path) {
			if st, err := os.Stat(filepath.Join(dir, "go")); err == nil && !st.IsDir() {
				t.Fatalf("e2e: the claude PATH %s holds %s/go; the test must show the plugin working without Go", path, dir)
			}
		}
		return
	}
	t.Fatal("e2e: the claude environment has no PATH")
}

// installedPlugin returns the install path claude reports for the plugin,
// checking it installed the published version.
func installedPlugin(t *testing.T, w *claudeWorld, version string) string {
	t.Helper()
	list := w.must(t, nil, "plugin", "list", "--json")
	var plugins []struct {
		ID          string `json:"id"`
		Version     string `json:"version"`
		Enabled     bool   `json:"enabled"`
		InstallPath string `json:"installPath"`
	}
	if err := json.Unmarshal(list.stdout, &plugins); err != nil {
		t.Fatalf("claude plugin list --json: %v\n%s", err, list.stdout)
	}
	for _, p := range plugins {
		if p.ID != pluginID {
			continue
		}
		if p.Version != version || !p.Enabled || p.InstallPath == "" {
			t.Fatalf("installed %+v, want version %s enabled", p, version)
		}
		return p.InstallPath
	}
	t.Fatalf("claude plugin list --json does not show %s:\n%s", pluginID, list.stdout)
	return ""
}
