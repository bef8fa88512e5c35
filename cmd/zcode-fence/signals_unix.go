//go:build unix

package main

import (
	"os"
	"syscall"
)

// hookSignals end a hook call cleanly (see onSignal).
var hookSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}
