//go:build linux

package layerproto

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

var errNoPeerCred = errors.New("no peer credentials on this system")

// peerCred returns the uid and pid of the process at the other end of c
// (SO_PEERCRED: the credentials it had when it connected or listened).
func peerCred(c *net.UnixConn) (uid, pid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var cred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, 0, err
	}
	if serr != nil {
		return 0, 0, serr
	}
	return int(cred.Uid), int(cred.Pid), nil
}
