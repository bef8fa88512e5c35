//go:build windows

package layerproto

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup does nothing on Windows: only the layer process itself
// is killed, not what it spawned.
func setProcessGroup(*exec.Cmd) {}

// killGroup does nothing on Windows; process.kill kills the process itself.
func killGroup(int) {}

// errInvalidParameter is what OpenProcess returns for a pid that names no
// process.
const errInvalidParameter = syscall.Errno(87) // ERROR_INVALID_PARAMETER

// watchHost blocks until the host process has exited and reports true, or
// reports false when it cannot watch it (host <= 0, or no access to the
// process). It waits on a handle to the host rather than polling: Windows
// never re-parents a process, so its parent pid does not change when the
// parent dies. A host that is already gone (no such pid) counts as gone.
// The interval is unused.
func watchHost(host int, _ time.Duration) bool {
	if host <= 0 {
		return false
	}
	p, err := os.FindProcess(host)
	if err != nil {
		return errors.Is(err, errInvalidParameter)
	}
	_, err = p.Wait()
	return err == nil
}
