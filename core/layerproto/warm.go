package layerproto

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"

	"github.com/zcode-fence/zcode-fence/core/internal/atomicfile"
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// Warm layer servers (DESIGN §3, "Warm layers").
//
// With LaunchConfig.Warm set, Launch first looks in the run dir for a
// record of a server of the same layer — same executable bytes (sha256),
// same environment — and reattaches to it from go-plugin's reattach
// information: no process start, one connection (see reattach). Without a
// usable record it takes the layer's lock in the run dir, looks again (another
// call may have just started it), and otherwise starts the server itself,
// detached (its own session, stdin /dev/null, stdout and stderr let go
// after the handshake) and records how to reach it. Calls that find the
// lock taken wait for the record until their context ends.
//
// A server is warm only when it says so by listening in RUN_DIR/s<PID>
// (Serve does when WarmIdleEnv is set; see serveWarm): any other layer is
// a per-call process as before, killed when the call closes it.
//
// A record is stale, and is removed before a fresh server is started, when
// its process is gone or stopped (SIGSTOP: it would answer no call, and
// every call would wait for its deadline), its executable's sha256 is not
// the one the caller would start, its socket is not this user's, the
// server's peer credentials are not this user's and its pid, or the
// connection fails (at reattach, or later at Decide). A server found
// stopped when a call missed its deadline is abandoned the same way. A
// server that is merely slow (a loaded machine) keeps its record.

// Environment of a warm server (set by Launch, read by Serve).
const (
	// WarmIdleEnv holds the idle timeout (a Go duration) after which a
	// warm server exits; set, it tells Serve to run as a warm server.
	WarmIdleEnv = "ZCODE_FENCE_LAYER_IDLE_TIMEOUT"
	// WarmDirEnv is the run dir, where the server makes s<PID>/ for its
	// socket.
	WarmDirEnv = "ZCODE_FENCE_LAYER_RUN_DIR"
	// WarmRecordEnv is the record the server removes when it exits.
	WarmRecordEnv = "ZCODE_FENCE_LAYER_RECORD"
)

// Warm asks Launch for a warm server. A launch that starts the server (not
// one that reattaches) makes this process's CallDir in RunDir when
// LaunchConfig.TempDir is "": call RemoveCallDirs when the call is done.
type Warm struct {
	// RunDir is the private run dir (RunDir(dataDir)).
	RunDir string
	// Idle is how long the server stays without calls before it exits.
	Idle time.Duration
}

// How a Client reached its layer (Client.Warm).
const (
	WarmNone       = ""           // a per-call process
	WarmStarted    = "started"    // this call started the warm server
	WarmReattached = "reattached" // this call reattached to a running one
)

const recordSuffix = ".json"
const lockSuffix = ".lock"

// record is how to reach one warm server: go-plugin's ReattachConfig
// (protocol, protocol version, network, address, pid) and what the server
// runs.
type record struct {
	Layer           string    `json:"layer"`
	Describe        string    `json:"describe"`
	Version         string    `json:"version,omitempty"`
	Description     string    `json:"description,omitempty"`
	Protocol        string    `json:"protocol"`
	ProtocolVersion int       `json:"protocol_version"`
	Network         string    `json:"network"`
	Addr            string    `json:"addr"`
	Pid             int       `json:"pid"`
	UID             int       `json:"uid"`
	Exe             string    `json:"exe"`
	ExeID           string    `json:"exe_id,omitempty"`
	SHA256          string    `json:"sha256"`
	Idle            string    `json:"idle"`
	Started         time.Time `json:"started"`
}

func readRecord(path string) (*record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// removeRecordIf removes the record at path when cond holds for what it
// holds now (nil when it cannot be read), so that a record another call
// has just written for a new server is not removed by mistake.
func removeRecordIf(path string, cond func(*record) bool) bool {
	r, err := readRecord(path)
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	if err != nil {
		r = nil
	}
	if !cond(r) {
		return false
	}
	return os.Remove(path) == nil
}

// warmKey names a layer's record and lock: its name, then a hash of the
// executable's path and of the environment the server would get (the
// layers read HOME, TMPDIR and variables from it, so a call from another
// environment gets a server of its own).
func warmKey(name, path string, env []string) string {
	sorted := append([]string(nil), env...)
	sort.Strings(sorted)
	h := sha256.New()
	io.WriteString(h, path)
	for _, kv := range sorted {
		h.Write([]byte{0})
		io.WriteString(h, kv)
	}
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && (r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		}
		if b.Len() >= 32 {
			break
		}
	}
	return b.String() + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

// expect is what a usable record must hold.
type expect struct {
	path   string
	pinned string // the pinned sha256, or "" for the host's own binary
	exeID  string // the identity of path now
	runDir string
}

// sha returns the sha256 the server must run: the pin, else the hash of
// the executable (cached by identity in the run dir).
func (e expect) sha() (string, error) {
	if e.pinned != "" {
		return e.pinned, nil
	}
	sum, _, err := executableHash(e.runDir, e.path)
	return sum, err
}

// stale is why a record cannot be used.
type stale struct{ why string }

func (s *stale) Error() string { return "stale warm-server record: " + s.why }

// checkRecord says why r is not a server the caller may use, or nil.
func checkRecord(r *record, e expect) error {
	switch {
	case r.UID != os.Getuid():
		return &stale{"recorded for uid " + strconv.Itoa(r.UID)}
	case r.Exe != e.path:
		return &stale{"another executable"}
	case r.Protocol != string(plugin.ProtocolGRPC) || r.ProtocolVersion != int(Handshake.ProtocolVersion) || r.Network != "unix":
		return &stale{"another protocol"}
	case !processAlive(r.Pid):
		return &stale{"process " + strconv.Itoa(r.Pid) + " is gone"}
	case processStopped(r.Pid):
		return &stale{"process " + strconv.Itoa(r.Pid) + " is stopped"}
	}
	if e.pinned != "" || r.ExeID != e.exeID {
		// The file changed (or is pinned): only the same bytes will do.
		sum, err := e.sha()
		if err != nil {
			return &stale{"cannot hash " + e.path + ": " + err.Error()}
		}
		if !strings.EqualFold(sum, r.SHA256) {
			return &stale{"the executable's sha256 differs"}
		}
	}
	if err := checkSocket(r.Addr); err != nil {
		return &stale{err.Error()}
	}
	return nil
}

// checkSocket checks that addr is a unix socket of this user.
func checkSocket(addr string) error {
	fi, err := os.Lstat(addr)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if fi.Mode()&os.ModeSocket == 0 {
		return fmt.Errorf("%s is not a socket", addr)
	}
	if uid, ok := fileOwner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("socket %s belongs to uid %d", addr, uid)
	}
	return nil
}

// warmTarget is where a layer's warm server is recorded and what its
// record must hold.
type warmTarget struct {
	l       resolvedLaunch
	key     string
	recPath string
	e       expect
}

func newWarmTarget(l resolvedLaunch) *warmTarget {
	env := childEnv(os.Environ(), l.cfg.DropEnv, l.cfg.Env)
	key := warmKey(l.name, l.path, env)
	t := &warmTarget{l: l, key: key, recPath: filepath.Join(l.cfg.Warm.RunDir, key+recordSuffix),
		e: expect{path: l.path, runDir: l.cfg.Warm.RunDir}}
	if l.checksum != nil {
		t.e.pinned = hex.EncodeToString(l.checksum)
	}
	if fi, err := os.Stat(l.path); err == nil {
		t.e.exeID = fileIdentity(fi)
	}
	return t
}

// try reattaches to the recorded server within the start timeout. It
// returns nil when there is no usable server; an unusable record is
// removed (unless another call has replaced it meanwhile) so that the
// server is started afresh, and its server is stopped if it still runs.
func (t *warmTarget) try(ctx context.Context) *Client {
	rctx, cancel := context.WithTimeout(ctx, t.l.timeout)
	defer cancel()
	c, seen, err := reattach(rctx, t.l.cfg, t.l.name, t.recPath, t.e)
	var st *stale
	if errors.As(err, &st) && seen != nil {
		if removeRecordIf(t.recPath, func(r *record) bool {
			return r == nil || r.Pid == seen.Pid && r.Started.Equal(seen.Started)
		}) {
			stopServer(seen)
		}
	}
	return c
}

// attach is Launch for cfg.Warm: reattach to the layer's warm server, or
// start it (once, under its lock), or wait for another call that is
// starting it. ctx bounds the wait; each reattach and the launch get
// timeout of their own.
func attach(ctx context.Context, l resolvedLaunch) (*Client, error) {
	t := newWarmTarget(l)
	cfg, name, path, checksum, timeout := l.cfg, l.name, l.path, l.checksum, l.timeout
	w, key, recPath, e := cfg.Warm, t.key, t.recPath, t.e
	try := func() *Client { return t.try(ctx) }
	if c, ok := takePrefetched(ctx, recPath); ok {
		return c, nil
	}
	if c := try(); c != nil {
		return c, nil
	}
	unlock, err := lockWait(ctx, filepath.Join(w.RunDir, key+lockSuffix), func() bool {
		_, err := os.Stat(recPath)
		return err == nil
	})
	if err != nil {
		return nil, &Error{Layer: name, Op: "start", Err: fmt.Errorf("waiting for the warm server: %w", err)}
	}
	if unlock == nil {
		// Another call started the server while we waited.
		if c := try(); c != nil {
			return c, nil
		}
		// Its record was not usable: start one ourselves.
		unlock, err = lockWait(ctx, filepath.Join(w.RunDir, key+lockSuffix), nil)
		if err != nil {
			return nil, &Error{Layer: name, Op: "start", Err: fmt.Errorf("waiting for the warm server: %w", err)}
		}
	}
	defer unlock()
	if c := try(); c != nil {
		return c, nil
	}
	sum, err := e.sha()
	if err != nil {
		return nil, &Error{Layer: name, Op: "start", Err: err}
	}
	if cfg.TempDir == "" {
		// go-plugin makes a socket dir for the launch (unused by a warm
		// server, removed below): in this process's c<PID> dir, which a
		// later sweep removes if this process is killed first.
		if d, err := CallDir(w.RunDir); err == nil {
			cfg.TempDir = d
		}
	}
	extra := []string{
		WarmIdleEnv + "=" + w.Idle.String(),
		WarmDirEnv + "=" + w.RunDir,
		WarmRecordEnv + "=" + recPath,
	}
	c, err := launchProcess(ctx, cfg, name, path, checksum, timeout, extra)
	if err != nil {
		return nil, err
	}
	rc := c.plugin.ReattachConfig()
	pid, ok := warmPid(w.RunDir, rc)
	if !ok {
		return c, nil // not a warm server: a per-call process
	}
	rec := record{
		Layer: name, Describe: c.info.Name, Version: c.info.Version, Description: c.info.Description,
		Protocol: string(rc.Protocol), ProtocolVersion: c.plugin.NegotiatedVersion(),
		Network: rc.Addr.Network(), Addr: rc.Addr.String(), Pid: pid, UID: os.Getuid(),
		Exe: path, ExeID: e.exeID, SHA256: sum, Idle: w.Idle.String(), Started: time.Now().UTC(),
	}
	b, _ := json.Marshal(rec)
	if err := atomicfile.Write(recPath, append(b, '\n'), 0o600); err != nil {
		return c, nil // it serves this call; the next one starts its own
	}
	c.warm = WarmStarted
	c.serverPid, c.broken = pid, abandon(recPath, rec)
	// go-plugin's socket dir for this launch is unused: the server
	// listens in its own s<PID> dir.
	if d := c.proc.dir(); d != "" {
		_ = os.RemoveAll(d)
	}
	return c, nil
}

// warmPid returns the pid of a server listening in runDir/s<PID>/: a warm
// server (see serveWarm).
func warmPid(runDir string, rc *plugin.ReattachConfig) (int, bool) {
	if rc == nil || rc.Addr == nil || rc.Addr.Network() != "unix" {
		return 0, false
	}
	dir := filepath.Dir(rc.Addr.String())
	if filepath.Dir(dir) != filepath.Clean(runDir) {
		return 0, false
	}
	base := filepath.Base(dir)
	if !strings.HasPrefix(base, "s") {
		return 0, false
	}
	pid, err := strconv.Atoi(base[1:])
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// reattach connects to the server recorded at recPath. It returns nil and
// no error when there is no record, a *stale error when the record is
// unusable, and any other error when the server did not answer in time.
//
// It is go-plugin's reattach without go-plugin's client: one gRPC
// connection to the recorded socket, with the peer-credential check, and
// nothing else. go-plugin's client would also open its broker and stdio
// streams (which the layers never use: they have no callbacks and their
// output is discarded) and the Describe health check would cost a round
// trip: the record already holds what Describe said when the server
// started, the executable's sha256 and the server's pid (which the peer
// check confirms), and the connection is ready only once the server has
// answered the HTTP/2 handshake, so a live, responsive server is proven
// before Launch returns. A Decide that finds the connection broken marks
// the record stale (see Client.Decide). Cost: about a millisecond of the
// hook's CPU less than a go-plugin client plus Describe, and two fewer
// streams for the server to serve.
func reattach(ctx context.Context, cfg LaunchConfig, name, recPath string, e expect) (*Client, *record, error) {
	r, err := readRecord(recPath)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, &stale{"unreadable: " + err.Error()}
	}
	if err := checkRecord(r, e); err != nil {
		return nil, r, err
	}
	addr := r.Addr
	conn, err := grpc.NewClient("passthrough:///warm-layer",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", addr)
		}),
		grpc.WithTransportCredentials(peerCheck{pid: r.Pid}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32)),
	)
	if err != nil {
		return nil, r, &stale{"reattach: " + err.Error()}
	}
	if err := waitReady(ctx, conn); err != nil {
		_ = conn.Close()
		if ctx.Err() != nil && !processStopped(r.Pid) {
			// Slow, not broken (a loaded machine): leave the record.
			return nil, r, &Error{Layer: name, Op: "reattach", Err: context.Cause(ctx)}
		}
		return nil, r, &stale{"reattach: " + err.Error()}
	}
	c := &Client{
		name: name, warm: WarmReattached, conn: conn, rpc: layerpb.NewLayerClient(conn), serverPid: r.Pid,
		info:   Info{Name: r.Describe, Version: r.Version, Description: r.Description, ProtocolVersion: uint32(r.ProtocolVersion)},
		broken: abandon(recPath, *r),
	}
	if cfg.Name == "" && c.info.Name != "" {
		c.name = c.info.Name
	}
	return c, r, nil
}

// abandon returns what a client calls when the server seen (recorded at
// recPath) proved broken or stopped: the record is removed, unless another
// call has already replaced it, and the server is asked to exit, so that
// the next call starts a fresh one.
func abandon(recPath string, seen record) func() {
	return func() {
		if removeRecordIf(recPath, func(now *record) bool {
			return now != nil && now.Pid == seen.Pid && now.Started.Equal(seen.Started)
		}) {
			stopServer(&seen)
		}
	}
}

// waitReady connects conn and waits until it is ready (the server has
// answered the HTTP/2 handshake, after the peer check), until it fails, or
// until ctx ends.
func waitReady(ctx context.Context, conn *grpc.ClientConn) error {
	conn.Connect()
	for {
		switch s := conn.GetState(); s {
		case connectivity.Ready:
			return nil
		case connectivity.TransientFailure, connectivity.Shutdown:
			return fmt.Errorf("connection %s", strings.ToLower(s.String()))
		default:
			if !conn.WaitForStateChange(ctx, s) {
				return context.Cause(ctx)
			}
		}
	}
}

// lockWait takes the lock file at path, waiting (polling every few
// milliseconds) until ctx ends. When ready is not nil and reports true
// while waiting, lockWait gives up the wait and returns a nil unlock and
// no error: what the lock's holder was making is there.
func lockWait(ctx context.Context, path string, ready func() bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	delay := time.Millisecond
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if ok {
			return func() { unlockFile(f); f.Close() }, nil
		}
		if ready != nil && ready() {
			f.Close()
			return nil, nil
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, context.Cause(ctx)
		case <-t.C:
		}
		if delay < 8*time.Millisecond {
			delay *= 2
		}
	}
}

// stopServer sends SIGTERM to the server r names, if it still runs and is
// the process listening on r's socket (checked by its peer credentials,
// so a reused pid is never signalled), and SIGCONT after it when it is
// stopped, so that it exits (removing its socket dir) instead of waiting,
// stopped, for someone to continue it. It reports whether it signalled.
func stopServer(r *record) bool {
	if r == nil || r.Network != "unix" || !processAlive(r.Pid) {
		return false
	}
	if checkSocket(r.Addr) != nil {
		return false
	}
	conn, err := net.DialTimeout("unix", r.Addr, 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer conn.Close()
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return false
	}
	uid, pid, err := peerCred(uc)
	if err != nil || uid != os.Getuid() || pid != r.Pid {
		return false
	}
	if signalTerm(r.Pid) != nil {
		return false
	}
	if processStopped(r.Pid) {
		_ = signalCont(r.Pid)
	}
	return true
}

// StopWarm asks every warm server recorded in runDir to exit (SIGTERM, to
// the process verified to listen on the recorded socket) and waits up to
// wait for them to be gone. It returns the pids it signalled and those
// still running when the wait ended. For tests, uninstall scripts and
// `zcode-fence layer stop`.
func StopWarm(runDir string, wait time.Duration) (stopped, left []int) {
	entries, err := os.ReadDir(runDir)
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), recordSuffix) {
			continue
		}
		r, err := readRecord(filepath.Join(runDir, e.Name()))
		if err != nil {
			continue
		}
		if stopServer(r) {
			stopped = append(stopped, r.Pid)
		}
	}
	deadline := time.Now().Add(wait)
	for _, pid := range stopped {
		for processAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if processAlive(pid) {
			left = append(left, pid)
		}
	}
	Sweep(runDir)
	return stopped, left
}
