//go:build !unix && !windows

package filelock

import "os"

// On platforms without advisory locks the lock is a no-op: appends stay
// line-atomic, only rotation may race.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlock(*os.File) {}
