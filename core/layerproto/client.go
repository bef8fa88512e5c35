package layerproto

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto/convert"
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// DefaultStartTimeout bounds a launch (process start, handshake and
// Describe) when LaunchConfig.StartTimeout is zero.
const DefaultStartTimeout = time.Second

// stderrGrace is how long a failed launch waits for the layer to exit, so
// the error can quote the end of its stderr.
const stderrGrace = 100 * time.Millisecond

// LaunchConfig says how to start one layer process.
type LaunchConfig struct {
	// Name is the layer's name as the host knows it (its config key). It
	// names the layer in errors and is what Client.Name returns; when ""
	// the name the layer gives in Describe is used, and errors before that
	// use the executable's base name.
	Name string
	// Path is the executable. A name without a path separator is looked up
	// in PATH. To run a built-in layer, pass the host's own executable and
	// Args such as {"layer", "serve", "danger"}.
	Path string
	// Args are the arguments after the program name.
	Args []string
	// Env are extra "KEY=value" entries added to the child's environment
	// (after the host's, so they override it).
	Env []string
	// DropEnv names host variables the child must not see, such as
	// ZCODE_FENCE_DECISION_MODEL_API_KEY for a third-party layer. A name
	// ending in "*" drops every variable with that prefix.
	DropEnv []string
	// SHA256 is the expected hex sha256 of the executable, or "" for no
	// check. When set, the file is hashed before every start (about 14 ms
	// for 19 MB), so pin third-party layers, not the host's own binary.
	SHA256 string
	// StartTimeout bounds the whole launch: process start, go-plugin
	// handshake and the Describe call. Zero means DefaultStartTimeout.
	StartTimeout time.Duration
	// Logger receives go-plugin's client log and every line the layer
	// writes to stderr. Nil means a null logger: nothing reaches the
	// host's stderr.
	Logger hclog.Logger
	// TempDir is where the launch's private socket directory is made; ""
	// means os.TempDir(). Keep it short: a unix socket path must stay under
	// about 100 bytes. The host passes CallDir(RunDir(dataDir)).
	TempDir string
	// Warm, when set, makes Launch reattach to a warm server of this
	// layer, or start one that outlives the call (see attach). Unix only;
	// elsewhere it is ignored.
	Warm *Warm
}

// Info is what a layer says about itself in Describe.
type Info struct {
	Name            string
	Version         string
	Description     string
	ProtocolVersion uint32
}

// Error is the error type of Launch, Decide and Close: it names the layer
// and the step that failed ("start", "checksum", "describe", "decide",
// "close"). Err is the cause; errors.Is(err, context.DeadlineExceeded)
// works through it.
type Error struct {
	Layer string
	Op    string
	Err   error
}

// maxErrorUnits caps the cause's text in Error (a broken layer's first
// stdout line is quoted by go-plugin and may be long).
const maxErrorUnits = 400

func (e *Error) Error() string {
	cause := strings.Join(strings.Fields(e.Err.Error()), " ")
	return "layer " + e.Layer + ": " + e.Op + ": " + core.CapUTF16(cause, maxErrorUnits)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrClosed is the cause of a Decide on a closed Client.
var ErrClosed = errors.New("client closed")

// Client is a running layer process. It implements core.Layer: Decide is
// one gRPC call and is safe from several goroutines. Close kills the
// process; call it on every path, typically in a defer.
type Client struct {
	name   string
	info   Info
	proc   *process
	plugin *plugin.Client
	rpc    layerpb.LayerClient
	// warm says how the client reached a warm server (WarmStarted,
	// WarmReattached) or WarmNone for a per-call process. Close never
	// stops a warm server: other calls share it.
	warm string
	// Warm clients: the server's pid, and broken, which marks the server's
	// record stale when a Decide finds the connection broken or the
	// server stopped. Reattached clients also hold their own connection
	// (plugin and proc are nil).
	conn      *grpc.ClientConn
	serverPid int
	broken    func()

	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error
}

var _ core.Layer = (*Client)(nil)

// Launch starts the layer process described by cfg, performs the go-plugin
// handshake (gRPC only, no TLS) and calls Describe. It returns within
// cfg.StartTimeout and never after ctx is done (plus the few milliseconds a
// kill takes). On error nothing is left behind: no process, no socket, and
// the returned *Client is nil (Close on it is a no-op).
//
// The child gets /dev/null as stdin, the host's environment minus
// cfg.DropEnv plus cfg.Env plus HostPIDEnv (this process's pid, which Serve
// watches so the layer exits with its host) plus go-plugin's variables, a
// private socket directory, and on unix a process group of its own. Its
// stdout (after the handshake) and stderr never reach the host's.
//
// Cost: about 10-12 ms per launch (2-vCPU VM), most of it the child's own
// start; launches in parallel overlap.
func Launch(ctx context.Context, cfg LaunchConfig) (*Client, error) {
	l, err := resolve(cfg)
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, &Error{Layer: l.name, Op: "start", Err: context.Cause(ctx)}
	}
	if l.warm() {
		// A pinned layer is checked when its server starts (launch), not
		// when a call reattaches: the server runs the bytes checked then.
		return attach(ctx, l)
	}
	return launchProcess(ctx, l.cfg, l.name, l.path, l.checksum, l.timeout, nil)
}

// resolvedLaunch is a LaunchConfig with its defaults filled in and its executable
// looked up.
type resolvedLaunch struct {
	cfg      LaunchConfig
	name     string
	path     string // cfg.Path looked up
	checksum []byte // cfg.SHA256 decoded, or nil
	timeout  time.Duration
}

// resolve fills in cfg's defaults, decodes its pin and looks up its
// executable.
func resolve(cfg LaunchConfig) (resolvedLaunch, error) {
	l := resolvedLaunch{cfg: cfg, name: cfg.Name}
	if l.name == "" {
		l.name = filepath.Base(cfg.Path)
	}
	fail := func(op string, err error) (resolvedLaunch, error) {
		return l, &Error{Layer: l.name, Op: op, Err: err}
	}
	if cfg.Path == "" {
		return fail("start", errors.New("no executable path"))
	}
	if cfg.SHA256 != "" {
		sum, err := hex.DecodeString(strings.TrimSpace(cfg.SHA256))
		if err != nil || len(sum) != sha256.Size {
			return fail("checksum", fmt.Errorf("%q is not a hex sha256", cfg.SHA256))
		}
		l.checksum = sum
	}
	l.timeout = cfg.StartTimeout
	if l.timeout <= 0 {
		l.timeout = DefaultStartTimeout
	}
	path, err := exec.LookPath(cfg.Path)
	if err != nil {
		return fail("start", err)
	}
	l.path = path
	if l.cfg.Logger == nil {
		l.cfg.Logger = hclog.NewNullLogger()
	}
	return l, nil
}

// warm reports whether l asks for a warm server this platform can give.
func (l resolvedLaunch) warm() bool {
	w := l.cfg.Warm
	return w != nil && warmSupported && w.RunDir != "" && w.Idle > 0
}

// launchProcess starts the process at path (already looked up and, with a
// checksum, verified), within timeout and ctx. extraEnv, for a warm
// server, is added to the child's environment and detaches it (its own
// session); see Launch for the rest.
func launchProcess(ctx context.Context, cfg LaunchConfig, name, path string, checksum []byte, timeout time.Duration, extraEnv []string) (*Client, error) {
	fail := func(op string, err error) (*Client, error) {
		return nil, &Error{Layer: name, Op: op, Err: err}
	}
	startCtx, cancel := context.WithTimeoutCause(ctx, timeout,
		fmt.Errorf("no answer within the start timeout of %v: %w", timeout, context.DeadlineExceeded))
	defer cancel()
	if startCtx.Err() != nil {
		return fail("start", context.Cause(startCtx))
	}
	if checksum != nil {
		if err := verifyChecksum(path, checksum); err != nil {
			return fail("checksum", err)
		}
	}
	logger := cfg.Logger

	c := &Client{
		name: name,
		proc: &process{
			path:     path,
			args:     cfg.Args,
			env:      append(childEnv(os.Environ(), cfg.DropEnv, cfg.Env), extraEnv...),
			detached: extraEnv != nil,
		},
	}
	c.plugin = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  Handshake,
		Plugins:          plugin.PluginSet{PluginName: &layerPlugin{}},
		RunnerFunc:       c.proc.prepare,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		// startCtx (the same timeout) is what ends a slow start, with
		// an error that says so; go-plugin's own timer, started a moment
		// later, is only a backstop, and on a loaded machine it could
		// fire first with an error that is not a deadline.
		StartTimeout:     timeout + time.Second,
		Logger:           logger,
		Stderr:           io.Discard,
		SyncStdout:       io.Discard,
		SyncStderr:       io.Discard,
		UnixSocketConfig: &plugin.UnixSocketConfig{TempDir: cfg.TempDir},
		GRPCDialOptions:  []grpc.DialOption{grpc.WithTransportCredentials(peerCheck{})},
	})

	rpc, err := c.start(startCtx)
	if err != nil {
		if startCtx.Err() == nil {
			// The layer failed by itself: its stderr usually says why.
			c.proc.waitExit(stderrGrace)
		}
		if tail := c.proc.stderrTail(); tail != "" {
			err = fmt.Errorf("%w; stderr: %s", err, tail)
		}
		_ = c.Close()
		return fail("start", err)
	}
	c.rpc = rpc
	d, err := rpc.Describe(startCtx, &layerpb.DescribeRequest{})
	if err != nil {
		_ = c.Close()
		return fail("describe", rpcCause(startCtx, err))
	}
	c.info = Info{
		Name:            d.GetName(),
		Version:         d.GetVersion(),
		Description:     d.GetDescription(),
		ProtocolVersion: d.GetProtocolVersion(),
	}
	if cfg.Name == "" && c.info.Name != "" {
		c.name = c.info.Name
	}
	return c, nil
}

// start runs go-plugin's start and handshake, giving up (and killing the
// process, which makes go-plugin return at once) when ctx ends first.
func (c *Client) start(ctx context.Context) (layerpb.LayerClient, error) {
	type result struct {
		rpc layerpb.LayerClient
		err error
	}
	done := make(chan result, 1)
	go func() {
		proto, err := c.plugin.Client()
		if err != nil {
			done <- result{err: err}
			return
		}
		raw, err := proto.Dispense(PluginName)
		if err != nil {
			done <- result{err: err}
			return
		}
		rpc, ok := raw.(layerpb.LayerClient)
		if !ok {
			done <- result{err: fmt.Errorf("plugin %q has type %T", PluginName, raw)}
			return
		}
		done <- result{rpc: rpc}
	}()
	select {
	case r := <-done:
		return r.rpc, r.err
	case <-ctx.Done():
		c.proc.kill()
		<-done
		return nil, context.Cause(ctx)
	}
}

// Name returns LaunchConfig.Name, else the name from Describe, else the
// executable's base name.
func (c *Client) Name() string { return c.name }

// Info returns what the layer said in Describe.
func (c *Client) Info() Info { return c.info }

// Decide sends call to the layer and waits for its verdict until ctx is
// done. Reasons that leave Layer empty get the client's Name. A decision
// other than silent or ask, a crashed layer or a panic inside the layer is
// an *Error; the process stays usable after a panic. When the layer's own
// Decide returned an error with a verdict holding reasons (what it found
// before it failed), that verdict comes back with the *Error.
func (c *Client) Decide(ctx context.Context, call *core.Call) (core.Verdict, error) {
	if c == nil {
		return core.Verdict{}, &Error{Layer: "?", Op: "decide", Err: errors.New("nil client")}
	}
	if c.closed.Load() {
		return core.Verdict{}, &Error{Layer: c.name, Op: "decide", Err: ErrClosed}
	}
	if call == nil {
		return core.Verdict{}, &Error{Layer: c.name, Op: "decide", Err: errors.New("nil call")}
	}
	resp, err := c.rpc.Decide(ctx, convert.CallToProto(call))
	if err != nil {
		if c.broken != nil && (ctx.Err() == nil && status.Code(err) == codes.Unavailable || processStopped(c.serverPid)) {
			// The warm server is gone or broken, or it missed the
			// deadline because it is stopped (a slow one is left alone):
			// the next call starts a fresh one.
			c.broken()
		}
		return c.named(foundBefore(err)), &Error{Layer: c.name, Op: "decide", Err: rpcCause(ctx, err)}
	}
	v, err := convert.VerdictFromProto(resp)
	if err != nil {
		return core.Verdict{}, &Error{Layer: c.name, Op: "decide", Err: err}
	}
	return c.named(v), nil
}

// named fills the layer name of v's reasons that have none.
func (c *Client) named(v core.Verdict) core.Verdict {
	for i := range v.Reasons {
		if v.Reasons[i].Layer == "" {
			v.Reasons[i].Layer = c.name
		}
	}
	return v
}

// foundBefore returns the verdict a layer sent with its error (what it
// found before it failed, as a DecideResponse in the status details; see
// the server's Decide), or the zero verdict.
func foundBefore(err error) core.Verdict {
	st, ok := status.FromError(err)
	if !ok {
		return core.Verdict{}
	}
	for _, d := range st.Details() {
		if r, ok := d.(*layerpb.DecideResponse); ok {
			if v, err := convert.VerdictFromProto(r); err == nil {
				return v
			}
		}
	}
	return core.Verdict{}
}

// Close kills the layer process and everything in its process group with
// SIGKILL (no graceful shutdown), waits until it is reaped, and removes the
// launch's socket directory. It is safe to call many times, concurrently,
// and on a nil *Client; later calls wait for the first and return its
// result. Cost: 2-3 ms, nearly all of it the kernel tearing the process
// down, so write the hook's answer first and close afterwards.
func (c *Client) Close() error {
	if c == nil {
		return nil
	}
	c.closeOnce.Do(func() {
		c.closed.Store(true)
		if c.warm != WarmNone {
			c.closeWarm()
			return
		}
		c.proc.kill()
		// Remove the socket first so nothing can dial the dead process.
		dir := c.proc.dir()
		if dir != "" {
			_ = os.RemoveAll(dir)
		}
		c.plugin.Kill() // reaps the process and ends go-plugin's goroutines
		if dir != "" {
			if err := os.RemoveAll(dir); err != nil {
				c.closeErr = &Error{Layer: c.name, Op: "close", Err: err}
			}
		}
	})
	return c.closeErr
}

// closeWarm ends this call's use of a warm server without stopping it:
// it closes the gRPC connection (go-plugin's Kill would ask the server to
// shut down).
func (c *Client) closeWarm() {
	if c.conn != nil {
		_ = c.conn.Close()
		return
	}
	c.closeConn()
}

// closeConn closes the client's gRPC connection, if it has one (it waits
// for a dial in progress).
func (c *Client) closeConn() {
	if c.plugin == nil {
		return
	}
	if proto, err := c.plugin.Client(); err == nil {
		if g, ok := proto.(*plugin.GRPCClient); ok {
			_ = g.Conn.Close()
		}
	}
}

// Warm reports how the client reached its layer: WarmStarted (this call
// started a warm server), WarmReattached, or WarmNone (a per-call
// process).
func (c *Client) Warm() string { return c.warm }

// Pid returns the layer's process id (a warm server's own pid), or 0 when
// it never started.
func (c *Client) Pid() int {
	if c.serverPid != 0 {
		return c.serverPid
	}
	return c.proc.processID()
}

// pid returns the layer's process id, or 0 when it never started.
func (c *Client) pid() int { return c.Pid() }

// verifyChecksum compares the sha256 of the file at path with want.
func verifyChecksum(path string, want []byte) error {
	sc := &plugin.SecureConfig{Checksum: want, Hash: sha256.New()}
	ok, err := sc.Check(path)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("sha256 of %s does not match %x", path, want)
	}
	return nil
}

// rpcCause turns a failed RPC into the error to report: ctx's cause when
// ctx ended (so errors.Is finds context.DeadlineExceeded), else the gRPC
// status as "Code: message".
func rpcCause(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	if st, ok := status.FromError(err); ok {
		if st.Code() == codes.DeadlineExceeded {
			// The layer's side gave up first: the same deadline.
			return fmt.Errorf("%w: %s", context.DeadlineExceeded, st.Message())
		}
		return statusError{st}
	}
	return err
}

// statusError prints a gRPC status without the "rpc error: code = ..."
// wrapping, as "Code: message", or only the message for codes.Unknown (an
// error the layer's Decide returned), and still answers status.FromError.
type statusError struct{ st *status.Status }

func (e statusError) Error() string {
	if e.st.Code() == codes.Unknown {
		return e.st.Message()
	}
	return e.st.Code().String() + ": " + e.st.Message()
}
func (e statusError) GRPCStatus() *status.Status { return e.st }
