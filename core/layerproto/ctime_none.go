//go:build unix && !(linux || solaris || illumos || darwin || freebsd || netbsd || openbsd || dragonfly)

package layerproto

import "syscall"

func ctime(*syscall.Stat_t) (int64, int64) { return 0, 0 }
