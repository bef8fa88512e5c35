//go:build unix

package layerproto

import (
	"os/exec"
	"syscall"
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
