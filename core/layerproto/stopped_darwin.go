package layerproto

import "golang.org/x/sys/unix"

// sstop is darwin's SSTOP process state (sys/proc.h).
const sstop = 4

// processStopped reports whether pid is stopped (SIGSTOP, SIGTSTP, a
// debugger's stop): it answers no call until it is continued. Cost: one
// sysctl.
func processStopped(pid int) bool {
	if pid <= 0 {
		return false
	}
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && kp.Proc.P_stat == sstop
}
