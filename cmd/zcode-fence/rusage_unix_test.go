//go:build linux || darwin

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the exited child's peak resident set size in bytes, from its
// rusage (ru_maxrss is KiB on Linux, bytes on macOS); -1 when unknown.
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return -1
	}
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return -1
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss
	}
	return ru.Maxrss << 10
}
