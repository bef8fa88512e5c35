//go:build unix

package layerproto

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// setProcessGroup starts the layer in a process group of its own, so one
// signal reaches everything it spawned (a shell-script wrapper and the
// interpreter behind it, for example).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup sends SIGKILL to the process group led by pid. A group that no
// longer exists is not an error.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// watchHost blocks until the host process is gone and reports true, or
// reports false at once when there is nothing to watch (host <= 1). It
// checks at once and then every interval: the process was re-parented (its
// parent exited, even if nobody has reaped it yet), or kill(host, 0) says
// there is no such process (the host behind a wrapper script has exited and
// been reaped). A pid reused within one interval would go unnoticed; that
// is the price of needing no cooperation from the host.
//
// Polling was chosen over prctl(PR_SET_PDEATHSIG): that fires when the
// host's OS thread that started the layer exits, not the host, and it does
// not reach a layer behind a wrapper or exist on darwin.
func watchHost(host int, interval time.Duration) bool {
	if host <= 1 {
		return false
	}
	parent := os.Getppid()
	for {
		if os.Getppid() != parent || parent <= 1 {
			return true
		}
		if err := syscall.Kill(host, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		time.Sleep(interval)
	}
}
