//go:build unix

package ondisk

import "syscall"

// openFlags keep an open from blocking on a FIFO or taking a terminal.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
