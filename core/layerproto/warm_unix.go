//go:build unix

package layerproto

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// warmSupported: warm servers need unix sockets, flock and a session of
// their own.
const warmSupported = true

// setSession starts a warm server in a session (and process group) of its
// own: no signal sent to the hook's group or terminal reaches it.
// It also keeps the files this process inherited out of the server
// (closeInheritedOnExec).
func setSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	closeInheritedOnExec()
}

// closeInheritedOnExec marks every file descriptor above 2 close-on-exec.
// Go opens its own files that way, but descriptors the hook inherited
// from whatever started it (a host's extra pipe, a test's report pipe) are
// not, and a warm server outlives the hook: holding such a pipe open would
// keep its reader waiting for EOF until the server's idle exit. The
// server's own files (cmd.ExtraFiles, stdio) are duplicated for it anew,
// so this takes nothing it needs. Cost: one directory read and a fcntl per
// open descriptor, once per server start.
func closeInheritedOnExec() {
	entries, err := os.ReadDir("/dev/fd")
	if err != nil {
		for fd := 3; fd < 1024; fd++ {
			syscall.CloseOnExec(fd)
		}
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// processAlive reports whether pid is a running process of this user
// (kill(pid, 0) succeeds; EPERM means another user's process: not ours).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}

// fileOwner returns the uid owning fi.
func fileOwner(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// statIdentity is the device, inode and change time of fi.
func statIdentity(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	sec, nsec := ctime(st)
	return ":" + strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10) +
		":" + strconv.FormatInt(sec, 10) + "." + strconv.FormatInt(nsec, 10)
}

// tryLock takes an exclusive flock on f without waiting; false when another
// process holds it. The kernel drops it when the holder exits, however it
// exits.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// signalTerm asks pid to exit.
func signalTerm(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

// signalCont continues a stopped pid.
func signalCont(pid int) error { return syscall.Kill(pid, syscall.SIGCONT) }

// detachStdio points file descriptors 1 and 2 at logPath (appended) or
// /dev/null.
func detachStdio(logPath string) {
	var f *os.File
	if logPath != "" {
		f, _ = os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	}
	if f == nil {
		var err error
		if f, err = os.OpenFile(os.DevNull, os.O_WRONLY, 0); err != nil {
			return
		}
	}
	_ = unix.Dup2(int(f.Fd()), 1)
	_ = unix.Dup2(int(f.Fd()), 2)
	_ = f.Close()
}
