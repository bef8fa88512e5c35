//go:build linux || darwin

package e2e

import (
	"bytes"
	"context"
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
)

// repoURL is the repository the marketplaces on the default branch install
// from (releaseSource); repoShorthand is how README.md tells users to add it.
const (
	repoURL       = "https://github.com/zcode-fence/zcode-fence.git"
	repoShorthand = "zcode-fence/zcode-fence"
)

// findGoreleaser returns the pinned GoReleaser: ZCODE_FENCE_GORELEASER, else
// the one scripts/install-go-tool.sh built into its cache. Building it takes
// about 10 minutes, so outside CI (ZCODE_FENCE_E2E_REQUIRE=1, after .ci/run
// built it) a missing build is a loud skip, not a build.
func findGoreleaser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ZCODE_FENCE_GORELEASER"); p != "" {
		return p
	}
	args := []string{filepath.Join(repoRoot(t), "scripts", "install-go-tool.sh"), "goreleaser"}
	require := os.Getenv("ZCODE_FENCE_E2E_REQUIRE") == "1"
	if !require {
		args = append(args, "--cached-only")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if require {
			t.Fatalf("e2e: GoReleaser unavailable and ZCODE_FENCE_E2E_REQUIRE=1: %v\n%s", err, stderr.String())
		}
		fmt.Fprintf(os.Stderr, "SKIP %s: GoReleaser is not built: %s", t.Name(), stderr.String())
		t.Skipf("SKIPPED, NOT RUN: GoReleaser is not built (scripts/install-go-tool.sh goreleaser builds it once, ~10 min; .ci/run does): %s", stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// snapshotSource copies the checkout as it is now (tracked and untracked,
// not ignored, files) into dst as a git repository with one commit of fixed
// author, committer and dates, tagged v<core.Version>, with the GitHub
// repository as its origin: what GoReleaser builds from. Two copies of the
// same checkout get the same commit.
func snapshotSource(t *testing.T, dst string) string {
	t.Helper()
	root := repoRoot(t)
	list := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	list.Dir = root
	out, err := list.Output()
	if err != nil {
		t.Fatalf("e2e: git ls-files: %v", err)
	}
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		copyFile(t, src, filepath.Join(dst, rel))
	}
	git(t, dst, "init", "-q", "-b", "main")
	git(t, dst, "add", "-A")
	git(t, dst, "commit", "-q", "-m", "snapshot of the checkout under test")
	git(t, dst, "tag", "v"+coreVersion(t))
	// As in a clone (GoReleaser's snapshot ignores git without a remote).
	git(t, dst, "remote", "add", "origin", repoURL)
	return strings.TrimSpace(git(t, dst, "rev-parse", "HEAD"))
}

// git runs git in dir with a fixed identity and dates, no user or system
// configuration, and returns its stdout.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=zcode-fence e2e", "GIT_AUTHOR_EMAIL=e2e@zcode-fence.invalid",
		"GIT_COMMITTER_NAME=zcode-fence e2e", "GIT_COMMITTER_EMAIL=e2e@zcode-fence.invalid",
		"GIT_AUTHOR_DATE=2026-12-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-12-01T00:00:00Z")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("e2e: git %q in %s: %v\n%s", args, dir, err, stderr.String())
	}
	return stdout.String()
}

// goreleaserBuild runs `goreleaser build --snapshot --clean --single-target`
// (the release config, this machine's target) in src with the build cache
// gocache ("" = the default one) and returns dist/'s version and binary
// (artifacts.json names it).
func goreleaserBuild(t *testing.T, goreleaser, src, gocache string) (version, binary string, took time.Duration) {
	t.Helper()
	cmd := exec.Command(goreleaser, "build", "--snapshot", "--clean", "--single-target")
	cmd.Dir = src
	cmd.Env = os.Environ()
	if gocache != "" {
		cmd.Env = append(cmd.Env, "GOCACHE="+gocache)
	}
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("e2e: goreleaser build --snapshot in %s: %v\n%s", src, err, out)
	}
	took = time.Since(start)
	var meta struct {
		Version string `json:"version"`
	}
	readJSON(t, filepath.Join(src, "dist", "metadata.json"), &meta)
	var artifacts []struct {
		Path, GOOS, GOARCH, Type string
	}
	readJSON(t, filepath.Join(src, "dist", "artifacts.json"), &artifacts)
	for _, a := range artifacts {
		if a.Type == "Binary" && a.GOOS == runtime.GOOS && a.GOARCH == runtime.GOARCH {
			return meta.Version, filepath.Join(src, filepath.FromSlash(a.Path)), took
		}
	}
	t.Fatalf("e2e: %s/dist/artifacts.json lists no %s/%s binary", src, runtime.GOOS, runtime.GOARCH)
	return "", "", 0
}

// release is one snapshot release of the checkout, built once per process
// and shared by the tests below.
var release struct {
	once         sync.Once
	src, commit  string
	version, bin string
	took         time.Duration
}

func snapshotRelease(t *testing.T) (src, commit, version, bin string) {
	t.Helper()
	goreleaser := findGoreleaser(t)
	release.once.Do(func() {
		release.src = filepath.Join(scratch, "release-src")
		release.commit = snapshotSource(t, release.src)
		release.version, release.bin, release.took = goreleaserBuild(t, goreleaser, release.src, "")
	})
	if release.bin == "" {
		t.Fatal("e2e: the shared snapshot release failed in an earlier test")
	}
	if !strings.HasSuffix(release.version, "-snapshot."+release.commit[:7]) {
		t.Fatalf("snapshot version %q does not name commit %s (.goreleaser.yaml snapshot.version_template)", release.version, release.commit)
	}
	t.Logf("goreleaser snapshot %s of %s (%s) in %.1fs", release.version, release.commit[:12], hostBinaryName(), release.took.Seconds())
	return release.src, release.commit, release.version, release.bin
}

// TestReproducibleBuild builds the release binary for this machine twice
// from two copies of the checkout, the second with an empty build cache
// (everything compiled afresh), and once more with tools/bundle, the
// contributors' build: all three must be the same bytes. All six targets are
// compared by the release workflow's reproduce job.
func TestReproducibleBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping two release builds")
	}
	_, commit, version, first := snapshotRelease(t)
	goreleaser := findGoreleaser(t)

	second := filepath.Join(scratch, "release-src-2")
	if c := snapshotSource(t, second); c != commit {
		t.Fatalf("two copies of the checkout gave commits %s and %s", commit, c)
	}
	v2, bin2, took := goreleaserBuild(t, goreleaser, second, filepath.Join(scratch, "empty-gocache"))
	t.Logf("second build, empty build cache: %.1fs", took.Seconds())
	if v2 != version {
		t.Fatalf("versions %s and %s", version, v2)
	}

	bundleOut := filepath.Join(scratch, "bundle-libexec")
	cmd := exec.Command(goTool(), "run", "./tools/bundle", "-targets", "host", "-out", bundleOut, "-version", version)
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tools/bundle: %v\n%s", err, out)
	}

	want, _, err := integrity.HashFile(first)
	if err != nil {
		t.Fatal(err)
	}
	for what, path := range map[string]string{
		"second goreleaser build (empty build cache, another directory)": bin2,
		"go run ./tools/bundle": filepath.Join(bundleOut, hostBinaryName()),
	} {
		got, size, err := integrity.HashFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: sha256 %s, the first build %s", what, got, want)
		} else {
			t.Logf("%s: identical, sha256 %s, %d bytes", what, got, size)
		}
	}
	out, err := exec.Command(first, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "zcode-fence "+version+" ") {
		t.Errorf("%s version = %q, %v; want the snapshot version %s", first, out, err, version)
	}
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
	cmd := exec.Command(goTool(), "run", "./tools/bundle", "-tree", tree, "-dist", filepath.Join(src, "dist"), "-targets", "host")
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tools/bundle -tree -dist: %v\n%s", err, out)
	}
	ref := strings.TrimSpace(runIn(t, src, goTool(), "run", "./tools/bundle", "-publish-ref"))

	// "GitHub": a bare repository holding the default branch, then the tree
	// published at the release ref by the workflow's script.
	origin := filepath.Join(work, "origin.git")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, work, "init", "-q", "--bare", "-b", "main", origin)
	git(t, src, "push", "-q", origin, "main")
	published := strings.TrimSpace(runIn(t, src, "sh", "scripts/publish-tree.sh", tree, ref, version, origin))
	if got := strings.TrimSpace(git(t, origin, "rev-parse", "refs/tags/zcode-fence--v"+version)); got != published {
		t.Errorf("tag zcode-fence--v%s is %s, the published commit %s", version, got, published)
	}
	if got := git(t, origin, "show", "-s", "--format=%B", published); !strings.Contains(got, commit) {
		t.Errorf("the release commit's message does not name the source commit %s:\n%s", commit, got)
	}
	// Publishing again puts the new tree on top of the old one.
	again := filepath.Join(work, "tree-again")
	copyTree(t, tree, again)
	writeFile(t, filepath.Join(again, "README.md"), "second release\n")
	second := strings.TrimSpace(runIn(t, src, "sh", "scripts/publish-tree.sh", again, ref, version+".1", origin))
	if parent := strings.TrimSpace(git(t, origin, "rev-parse", second+"^")); parent != published {
		t.Errorf("the second release's parent is %s, want the first release %s", parent, published)
	}
	git(t, origin, "update-ref", "refs/heads/"+ref, published, second) // back to the tree under test

	// The fake home reaches "GitHub" through git's url rewriting; claude
	// itself gets no Go.
	gitconfig := fmt.Sprintf("[url %q]\n\tinsteadOf = %s\n\tinsteadOf = git@github.com:%s.git\n", "file://"+origin, repoURL, repoShorthand)
	writeFile(t, filepath.Join(w.f.Home, ".gitconfig"), gitconfig)
	checkNoGo(t, w.env)

	w.must(t, nil, "plugin", "marketplace", "add", repoShorthand)
	w.must(t, nil, "plugin", "install", pluginID)
	installPath := installedPlugin(t, w, version)
	libexec := filepath.Join(installPath, "libexec")
	for _, name := range []string{hostBinaryName(), integrity.SumsFile, "zcode-fence"} {
		a, errA := os.ReadFile(filepath.Join(libexec, name))
		b, errB := os.ReadFile(filepath.Join(tree, "bundle", "zcode-fence", "libexec", name))
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Errorf("installed libexec/%s is not the published one (%v, %v)", name, errA, errB)
		}
	}

	var scenarios []claudeScenario
	readJSON(t, filepath.Join("testdata", "release-runs.json"), &scenarios)
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
		readJSON(t, integrity.RecordPath(dataDir, version), &rec)
		if rec.Status != string(integrity.Verified) || rec.Binary != filepath.Join(libexec, hostBinaryName()) {
			t.Errorf("integrity record %+v, want %s verified", rec, filepath.Join(libexec, hostBinaryName()))
		}
	})

	// Change the installed binary: on linux put a copy with bytes appended
	// in its place (it still runs), by rename as an update would — the
	// first scenario's warm layer servers may still run the old file, which
	// cannot be written in place (ETXTBSY); elsewhere the kernel may refuse
	// a binary whose signature no longer matches, so change the listed hash
	// instead.
	if runtime.GOOS == "linux" {
		bin := filepath.Join(libexec, hostBinaryName())
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
		writeFile(t, filepath.Join(libexec, integrity.SumsFile), strings.Repeat("0", 64)+"  "+hostBinaryName()+"\n")
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
