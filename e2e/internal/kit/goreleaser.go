package kit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// RepoURL is the repository the marketplaces on the default branch install
// from; RepoShorthand is how README.md tells users to add it.
const (
	RepoURL       = "https://github.com/zcode-fence/zcode-fence.git"
	RepoShorthand = "zcode-fence/zcode-fence"
)

// FindGoreleaser returns the pinned GoReleaser: ZCODE_FENCE_GORELEASER, else
// the one scripts/install-go-tool.sh built into its cache. Building it takes
// about 10 minutes, so outside CI (ZCODE_FENCE_E2E_REQUIRE=1, after .ci/run
// built it) a missing build is a loud skip, not a build.
func FindGoreleaser(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("ZCODE_FENCE_GORELEASER"); p != "" {
		return p
	}
	args := []string{filepath.Join(RepoRoot(t), "scripts", "install-go-tool.sh"), "goreleaser"}
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

// SnapshotSource copies the checkout as it is now (tracked and untracked,
// not ignored, files) into dst as a git repository with one commit of fixed
// author, committer and dates, tagged v<core.Version>, with the GitHub
// repository as its origin: what GoReleaser builds from. Two copies of the
// same checkout get the same commit, which it returns.
func SnapshotSource(t testing.TB, dst string) string {
	t.Helper()
	root := RepoRoot(t)
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
		CopyFile(t, src, filepath.Join(dst, rel))
	}
	Git(t, dst, "init", "-q", "-b", "main")
	Git(t, dst, "add", "-A")
	Git(t, dst, "commit", "-q", "-m", "snapshot of the checkout under test")
	Git(t, dst, "tag", "v"+CoreVersion(t))
	// As in a clone (GoReleaser's snapshot ignores git without a remote).
	Git(t, dst, "remote", "add", "origin", RepoURL)
	return strings.TrimSpace(Git(t, dst, "rev-parse", "HEAD"))
}

// Git runs git in dir with a fixed identity and dates, no user or system
// configuration, and returns its stdout.
func Git(t testing.TB, dir string, args ...string) string {
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

// GoreleaserBuild runs `goreleaser build --snapshot --clean --single-target`
// (the release config, this machine's target) in src with the build cache
// gocache ("" = the default one) and returns dist/'s version and binary
// (artifacts.json names it) and how long the build took.
func GoreleaserBuild(t testing.TB, goreleaser, src, gocache string) (version, binary string, took time.Duration) {
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
	ReadJSON(t, filepath.Join(src, "dist", "metadata.json"), &meta)
	var artifacts []struct {
		Path, GOOS, GOARCH, Type string
	}
	ReadJSON(t, filepath.Join(src, "dist", "artifacts.json"), &artifacts)
	for _, a := range artifacts {
		if a.Type == "Binary" && a.GOOS == runtime.GOOS && a.GOARCH == runtime.GOARCH {
			return meta.Version, filepath.Join(src, filepath.FromSlash(a.Path)), took
		}
	}
	t.Fatalf("e2e: %s/dist/artifacts.json lists no %s/%s binary", src, runtime.GOOS, runtime.GOARCH)
	return "", "", 0
}

// CheckSnapshotVersion fails the test unless version is a snapshot version
// naming commit (.goreleaser.yaml's snapshot.version_template).
func CheckSnapshotVersion(t testing.TB, version, commit string) {
	t.Helper()
	if len(commit) < 7 || !strings.HasSuffix(version, "-snapshot."+commit[:7]) {
		t.Fatalf("snapshot version %q does not name commit %s (.goreleaser.yaml snapshot.version_template)", version, commit)
	}
}
