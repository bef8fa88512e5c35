// Package filelock serialises short critical sections between hook processes
// (many agent tool calls can run at once) with an advisory lock on a file.
// Locking costs one open and one system call; it never blocks for longer
// than the timeout given, so a stuck peer cannot hang a hook.
package filelock

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrTimeout means the lock stayed held by someone else for the whole wait.
var ErrTimeout = errors.New("filelock: timed out waiting for the lock")

// Lock is a held lock; Unlock releases it.
type Lock struct{ f *os.File }

// Acquire takes an exclusive lock on path (created if missing), retrying
// until timeout.
func Acquire(path string, timeout time.Duration) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("filelock: open %s: %w", path, err)
	}
	deadline := time.Now().Add(timeout)
	wait := 200 * time.Microsecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("filelock: lock %s: %w", path, err)
		}
		if ok {
			return &Lock{f: f}, nil
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, ErrTimeout
		}
		time.Sleep(wait)
		if wait < 4*time.Millisecond {
			wait *= 2
		}
	}
}

// Unlock releases the lock. It is safe to call on a nil Lock.
func (l *Lock) Unlock() {
	if l == nil || l.f == nil {
		return
	}
	unlock(l.f)
	l.f.Close()
	l.f = nil
}
