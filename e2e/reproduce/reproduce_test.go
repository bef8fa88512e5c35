//go:build linux || darwin

package reproduce

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
)

// TestReproducibleBuild builds the release binary for this machine twice:
// with GoReleaser in a snapshot copy of the checkout and an empty build
// cache (everything compiled afresh), and with tools/bundle in the checkout
// with the default cache. Another directory, another cache, another driver:
// the bytes must be the same.
func TestReproducibleBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping a release build with an empty build cache")
	}
	goreleaser := kit.FindGoreleaser(t)
	dir := t.TempDir()

	src := filepath.Join(dir, "src")
	commit := kit.SnapshotSource(t, src)
	version, released, took := kit.GoreleaserBuild(t, goreleaser, src, filepath.Join(dir, "empty-gocache"))
	kit.CheckSnapshotVersion(t, version, commit)
	t.Logf("goreleaser snapshot %s of %s, empty build cache: %.1fs", version, commit[:12], took.Seconds())

	bundleOut := filepath.Join(dir, "bundle-libexec")
	cmd := exec.Command(kit.GoTool(), "run", "./tools/bundle", "-targets", "host", "-out", bundleOut, "-version", version)
	cmd.Dir = kit.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tools/bundle: %v\n%s", err, out)
	}

	want, size, err := integrity.HashFile(released)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := integrity.HashFile(filepath.Join(bundleOut, kit.HostBinaryName()))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("go run ./tools/bundle: sha256 %s, the goreleaser build %s", got, want)
	} else {
		t.Logf("tools/bundle and goreleaser: identical, sha256 %s, %d bytes", got, size)
	}
	out, err := exec.Command(released, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "zcode-fence "+version+" ") {
		t.Errorf("%s version = %q, %v; want the snapshot version %s", released, out, err, version)
	}
}
