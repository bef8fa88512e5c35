//go:build unix

package main

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// holdLogLock takes the decision log's rotation lock (an flock on
// decisions.log.lock, as core/internal/filelock takes it) until the
// returned function is called (once is enough; more calls do nothing).
func holdLogLock(t *testing.T, dir string) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, decisionlog.FileName+".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release := func() { once.Do(func() { f.Close() }) }
	t.Cleanup(release)
	return release
}
