package archivelist

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/zcode-fence/zcode-fence/internal/testarchive"
)

// TestMembers lists tar, gzipped tar and zip archives, and reports
// unknown for what it cannot read or what exceeds its caps.
func TestMembers(t *testing.T) {
	dir := t.TempDir()
	names := []string{"./.claude/settings.json", "pkg/.git/hooks/post-checkout", "README.md"}
	for _, err := range []error{testarchive.Tar(filepath.Join(dir, "a.tar"), false, names...),
		testarchive.Tar(filepath.Join(dir, "a.tgz"), true, names...), testarchive.Zip(filepath.Join(dir, "a.zip"), names...)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a.tar", "a.tgz", "a.zip"} {
		got, ok := Members(filepath.Join(dir, f), DefaultLimits)
		if !ok || !slices.Equal(got, names) {
			t.Errorf("%s: %q %v, want %q", f, got, ok, names)
		}
	}
	if got, ok := Members(filepath.Join(dir, "a.tar"), Limits{Bytes: 1 << 20, Entries: 2}); ok {
		t.Errorf("over the entry cap: %q", got)
	}
	if got, ok := Members(filepath.Join(dir, "a.tgz"), Limits{Bytes: 600, Entries: 100}); ok {
		t.Errorf("over the byte cap: %q", got)
	}
	os.WriteFile(filepath.Join(dir, "x.xz"), []byte("\xfd7zXZ\x00garbage"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.tar"), nil, 0o644)
	for _, f := range []string{"x.xz", "empty.tar", "missing.tar", "."} {
		if got, ok := Members(filepath.Join(dir, f), DefaultLimits); ok {
			t.Errorf("%s: listed %q", f, got)
		}
	}
}
