package layerproto

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto/convert"
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
	"github.com/zcode-fence/zcode-fence/redact"
)

// LogEnv names the environment variable that, when it holds a file path,
// makes Serve append its log (go-plugin's server log and every panic with
// its stack) to that file. Unset, the layer process logs nothing.
const LogEnv = "ZCODE_FENCE_LAYER_LOG"

// maxRequestBytes bounds one Decide request on the server side (gRPC's
// default is 4 MiB, too small for a long heredoc whose text appears in
// Command, Script.Source and the redirect body).
const maxRequestBytes = 64 << 20

// parentPollInterval is how often a serving layer on unix checks that the
// host that started it is still alive (two system calls per check).
const parentPollInterval = 250 * time.Millisecond

// ServeOption adjusts Serve.
type ServeOption func(*serveSettings)

type serveSettings struct {
	logger      hclog.Logger
	version     string
	description string
}

// WithLogger makes Serve log to l instead of the default (a null logger, or
// the file named by LogEnv).
func WithLogger(l hclog.Logger) ServeOption {
	return func(s *serveSettings) { s.logger = l }
}

// WithVersion sets the version Describe reports.
func WithVersion(v string) ServeOption {
	return func(s *serveSettings) { s.version = v }
}

// WithDescription sets the one-sentence description Describe reports.
func WithDescription(d string) ServeOption {
	return func(s *serveSettings) { s.description = d }
}

// Serve runs l as a layer plugin process: it performs the go-plugin
// handshake on stdout and serves the Layer service over gRPC until the host
// kills the process. Call it from main (or from `zcode-fence layer serve
// NAME`) and nothing else; it does not return while the host is connected.
//
// Serve never writes to stdout or stderr itself (go-plugin prints its
// handshake line, and a short notice when the program is started by hand,
// without the magic cookie, before exiting with status 1). A panic inside
// l.Decide is recovered and returned to the host as a gRPC Internal error
// naming the layer; the process keeps serving. Serve exits the process (status
// 0) when the host that launched it goes away, even when the host was killed
// and could not close it: within about 250 ms on unix (a poll of the parent
// pid and of the host pid from HostPIDEnv), at once on Windows (a wait on the
// host's process handle). So a killed host leaves no layer behind.
//
// Started by a host with WarmIdleEnv set (a warm launch), Serve instead
// runs as a warm server shared by many calls: it listens in the run dir,
// does not watch the host, and exits after the idle timeout, on SIGTERM,
// SIGINT or SIGHUP, or when its executable changes (see warmServer). A
// warm server must keep no state between calls that changes a verdict:
// every call carries its own options.
func Serve(l core.Layer, opts ...ServeOption) {
	cfg, srv, closeLog := serveConfig(l, opts)
	defer closeLog()
	if w, ok := warmFromEnv(cfg.Logger); ok {
		if err := w.start(); err == nil {
			srv.act = w.act
			plugin.Serve(cfg)
			w.exit("the plugin server stopped")
			return
		} else {
			cfg.Logger.Warn("cannot serve warm, serving this call only", "error", err)
		}
	}
	go exitWithHost(cfg.Logger)
	plugin.Serve(cfg)
}

// serveConfig builds the go-plugin configuration Serve uses; the returned
// func closes the log file, if any.
func serveConfig(l core.Layer, opts []ServeOption) (*plugin.ServeConfig, *server, func()) {
	var set serveSettings
	for _, o := range opts {
		o(&set)
	}
	name := l.Name()
	closeLog := func() {}
	if set.logger == nil {
		set.logger, closeLog = envLogger(name)
	}
	srv := &server{
		layer:       l,
		name:        name,
		version:     set.version,
		description: set.description,
		log:         set.logger,
	}
	return &plugin.ServeConfig{
		HandshakeConfig: Handshake,
		Plugins:         plugin.PluginSet{PluginName: &layerPlugin{server: srv}},
		GRPCServer: func(o []grpc.ServerOption) *grpc.Server {
			// Only this user may connect (peer credentials, where the OS
			// has them).
			return plugin.DefaultGRPCServer(append(o, grpc.MaxRecvMsgSize(maxRequestBytes), grpc.Creds(peerCheck{})))
		},
		Logger: set.logger,
	}, srv, closeLog
}

// envLogger returns a logger appending to the file named by LogEnv, or a
// null logger when the variable is unset or the file cannot be opened
// (there is nowhere to report that).
func envLogger(name string) (hclog.Logger, func()) {
	path := os.Getenv(LogEnv)
	if path == "" {
		return hclog.NewNullLogger(), func() {}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return hclog.NewNullLogger(), func() {}
	}
	l := hclog.New(&hclog.LoggerOptions{
		Name:   "layer." + name,
		Level:  hclog.Debug,
		Output: f,
	})
	return l, func() { _ = f.Close() }
}

// HostPIDEnv names the variable through which Launch tells a layer the
// host's process id. Serve watches that process as well as its own parent,
// so a layer started through a wrapper script (whose parent is the shell,
// not the host), or one whose host died before Serve began to watch, still
// exits with the host. Layer authors never set it.
const HostPIDEnv = "ZCODE_FENCE_LAYER_HOST_PID"

// exitWithHost ends the process (status 0) once the host that launched it
// is gone; see watchHost for how each platform notices. It returns at once,
// watching nothing, when there is no host to watch (started by init, or by
// hand without HostPIDEnv from a process that is already gone).
func exitWithHost(log hclog.Logger) {
	host := hostPID()
	if watchHost(host, parentPollInterval) {
		log.Info("host process gone, exiting", "host", host)
		os.Exit(0)
	}
}

// hostPID is the host's process id from HostPIDEnv, else the parent's.
func hostPID() int {
	if n, err := strconv.Atoi(os.Getenv(HostPIDEnv)); err == nil && n > 0 {
		return n
	}
	return os.Getppid()
}

// server adapts a core.Layer to the generated gRPC service.
type server struct {
	layerpb.UnimplementedLayerServer
	layer       core.Layer
	name        string
	version     string
	description string
	log         hclog.Logger
	act         *activity // a warm server's call count; nil per call
}

func (s *server) Describe(context.Context, *layerpb.DescribeRequest) (*layerpb.DescribeResponse, error) {
	if s.act != nil {
		s.act.begin()
		defer s.act.end()
	}
	return &layerpb.DescribeResponse{
		Name:            convert.Text(s.name),
		Version:         convert.Text(s.version),
		Description:     convert.Text(s.description),
		ProtocolVersion: ProtocolVersion,
	}, nil
}

func (s *server) Decide(ctx context.Context, req *layerpb.DecideRequest) (resp *layerpb.DecideResponse, err error) {
	if s.act != nil {
		s.act.begin()
		defer s.act.end()
	}
	defer func() {
		if r := recover(); r != nil {
			msg := convert.Text(redact.String(fmt.Sprint(r)))
			s.log.Error("panic in Decide", "panic", msg, "stack", redact.String(string(debug.Stack())))
			resp, err = nil, status.Errorf(codes.Internal, "layer %s: panic in Decide: %s", s.name, msg)
		}
	}()
	v, err := s.layer.Decide(ctx, convert.CallFromProto(req))
	if err != nil {
		st := status.New(codes.Unknown, convert.Text(redact.String(err.Error())))
		if ctxErr := ctx.Err(); ctxErr != nil {
			st = status.FromContextError(ctxErr)
		}
		if len(v.Reasons) > 0 {
			// What the layer found before it failed travels with the
			// error (a built-in that fails closed reports it; see
			// Client.Decide).
			if withFound, derr := st.WithDetails(convert.VerdictToProto(v)); derr == nil {
				st = withFound
			}
		}
		return nil, st.Err()
	}
	return convert.VerdictToProto(v), nil
}
