//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package host

import (
	"os"
	"strconv"
	"syscall"
)

// statID adds inode, device and change time (which no user can set) to a
// file's identity.
func statID(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	sec, nsec := ctime(st)
	return ":" + strconv.FormatUint(uint64(st.Ino), 10) + ":" + strconv.FormatUint(uint64(st.Dev), 10) +
		":" + strconv.FormatInt(sec, 10) + "." + strconv.FormatInt(nsec, 10)
}
