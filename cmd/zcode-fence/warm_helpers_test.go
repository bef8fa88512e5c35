package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

// Warm layer servers outlive the hook calls that start them, so every
// test that runs hooks in process isolation stops the servers of its data
// dir when it ends (newScratch registers that; tests with data dirs of
// their own call stopWarm), and TestMain checks that no process of the
// test binary's copies is left when the tests are over.

// stopWarm stops the warm servers recorded in dataDir's run dir and fails
// t if one is still running after a few seconds. It returns how many it
// stopped.
func stopWarm(t testing.TB, dataDir string) int {
	t.Helper()
	runDir, err := layerproto.RunDir(dataDir)
	if err != nil {
		return 0
	}
	stopped, left := layerproto.StopWarm(runDir, 5*time.Second)
	if len(left) > 0 {
		t.Errorf("warm servers %v of %s still running 5 s after SIGTERM", left, dataDir)
	}
	return len(stopped)
}

// stopWarmAtEnd registers stopWarm for dataDir as a cleanup of t.
func stopWarmAtEnd(t testing.TB, dataDir string) {
	t.Helper()
	t.Cleanup(func() { stopWarm(t, dataDir) })
}

// testRoots are directories (besides the binary's) that hold executables
// this test process runs; TestMain checks nothing runs from them at the
// end.
var testRoots sync.Map // dir -> struct{}

// leftoverProcesses kills whatever still runs from the binary's directory
// or a scratch root after the tests, and describes it ("" when nothing
// did). A test that left a warm server running is a bug: the report names
// the pids.
func leftoverProcesses(binDir string) string {
	dirs := []string{binDir}
	testRoots.Range(func(k, _ any) bool { dirs = append(dirs, k.(string)); return true })
	var report string
	for _, d := range dirs {
		pids, ok := processesLeft(d, 2*time.Second)
		if !ok || len(pids) == 0 {
			continue
		}
		report += fmt.Sprintf("processes %v still running from %s after the tests (killed now)\n", pids, d)
		for _, pid := range pids {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
	return report
}

// runDirEntries lists a data dir's run dir ("" entries when it has none).
func runDirEntries(t testing.TB, dataDir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dataDir, layerproto.RunDirName))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
