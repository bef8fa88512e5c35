//go:build !unix

package layerproto

import (
	"errors"
	"os"
	"os/exec"
)

// warmSupported is false: without unix sockets (go-plugin listens on
// loopback TCP here) layer processes stay per-call.
const warmSupported = false

func setSession(cmd *exec.Cmd) { setProcessGroup(cmd) }

// processAlive reports whether pid names a process.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

func fileOwner(os.FileInfo) (int, bool) { return 0, false }
func statIdentity(os.FileInfo) string   { return "" }
func tryLock(*os.File) (bool, error)    { return false, errors.New("no file locks here") }
func unlockFile(*os.File)               {}
func signalTerm(int) error              { return errors.New("not supported here") }
func signalCont(int) error              { return errors.New("not supported here") }
func detachStdio(string)                {}
