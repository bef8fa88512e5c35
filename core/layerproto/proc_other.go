//go:build !unix

package layerproto

import "os/exec"

// setProcessGroup does nothing here: only the layer process itself is
// killed, not what it spawned.
func setProcessGroup(*exec.Cmd) {}

// killGroup does nothing here; process.kill kills the process itself.
func killGroup(int) {}
