//go:build !unix && !windows

package layerproto

import (
	"os"
	"os/exec"
	"time"
)

// setProcessGroup does nothing here: only the layer process itself is
// killed, not what it spawned.
func setProcessGroup(*exec.Cmd) {}

// killGroup does nothing here; process.kill kills the process itself.
func killGroup(int) {}

// watchHost blocks until the parent pid changes and reports true, or
// reports false at once when there is nothing to watch. It can only see a
// host that is its direct parent.
func watchHost(host int, interval time.Duration) bool {
	parent := os.Getppid()
	if host <= 1 || parent != host {
		return false
	}
	for os.Getppid() == parent {
		time.Sleep(interval)
	}
	return true
}
