//go:build !unix

package main

import "os"

// hookSignals end a hook call cleanly (see onSignal).
var hookSignals = []os.Signal{os.Interrupt}
