package layerproto

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"

	"google.golang.org/grpc/credentials"
)

// peerCheck is the gRPC transport "security" of layer connections: no
// encryption (a unix socket in a private directory), but each side checks
// the other's credentials where the OS offers them (SO_PEERCRED on Linux,
// LOCAL_PEERCRED and LOCAL_PEERPID on darwin): the peer must run as this
// user, and, when pid is set, be that process. A server therefore accepts
// no connection from another user, and a client talks to no server but
// the one its record names. Where the OS offers nothing, the socket's
// directory (0700) is the only guard.
type peerCheck struct{ pid int }

// errPeer marks a connection refused for its peer's credentials.
var errPeer = errors.New("peer credentials")

// peerInfo is the AuthInfo of a checked connection.
type peerInfo struct {
	credentials.CommonAuthInfo
	UID, PID int
}

func (peerInfo) AuthType() string { return "peercred" }

func (p peerCheck) check(c net.Conn) (credentials.AuthInfo, error) {
	info := peerInfo{CommonAuthInfo: credentials.CommonAuthInfo{SecurityLevel: credentials.NoSecurity}, UID: -1, PID: -1}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return info, nil // not a unix socket (Windows TCP): nothing to check
	}
	uid, pid, err := peerCred(uc)
	if errors.Is(err, errNoPeerCred) {
		return info, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errPeer, err)
	}
	info.UID, info.PID = uid, pid
	if uid != os.Getuid() {
		return nil, fmt.Errorf("%w: peer runs as uid %d, not %d", errPeer, uid, os.Getuid())
	}
	if p.pid > 0 && pid > 0 && pid != p.pid {
		return nil, fmt.Errorf("%w: peer is process %d, not %d", errPeer, pid, p.pid)
	}
	return info, nil
}

func (p peerCheck) ClientHandshake(_ context.Context, _ string, c net.Conn) (net.Conn, credentials.AuthInfo, error) {
	info, err := p.check(c)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return c, info, nil
}

func (p peerCheck) ServerHandshake(c net.Conn) (net.Conn, credentials.AuthInfo, error) {
	info, err := p.check(c)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return c, info, nil
}

func (peerCheck) Info() credentials.ProtocolInfo {
	return credentials.ProtocolInfo{SecurityProtocol: "peercred"}
}
func (p peerCheck) Clone() credentials.TransportCredentials { return p }
func (peerCheck) OverrideServerName(string) error           { return nil }
