//go:build darwin

package layerproto

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

var errNoPeerCred = errors.New("no peer credentials on this system")

// peerCred returns the uid (LOCAL_PEERCRED, what getpeereid reads) and pid
// (LOCAL_PEERPID) of the process at the other end of c.
func peerCred(c *net.UnixConn) (uid, pid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var serr error
	if err := raw.Control(func(fd uintptr) {
		var x *unix.Xucred
		x, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if serr != nil {
			return
		}
		uid = int(x.Uid)
		pid, serr = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	}); err != nil {
		return 0, 0, err
	}
	return uid, pid, serr
}
