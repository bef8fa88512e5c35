//go:build !linux && !darwin

package layerproto

import (
	"errors"
	"net"
)

var errNoPeerCred = errors.New("no peer credentials on this system")

// peerCred is not offered here: the socket's private directory is the
// guard.
func peerCred(*net.UnixConn) (int, int, error) { return 0, 0, errNoPeerCred }
