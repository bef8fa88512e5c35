// Command rawgrpc is a test-only layer written the way docs/layers.md tells
// an author in a language other than Go to write one: it does not use
// go-plugin or layerproto.Serve, only a gRPC server, the gRPC health
// service and the code generated from layer.proto (layerpb, which another
// language would generate with its own protoc plugin). It proves that the
// steps the guide lists are enough. The step numbers below are the guide's.
//
// It asks (rule RAW-DEPLOY) when a command named deploy would run, and is
// silent otherwise. Every verdict carries the annotation socket_dir (where
// the host told it to put its socket), so the tests can check that the
// socket really lives in the hook's TMPDIR.
package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	// Step 1: the code generated from core/layerproto/layer.proto.
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// The handshake values from docs/layers.md, written out on purpose (a
// layer in another language cannot import them).
const (
	cookieKey   = "ZCODE_FENCE_LAYER"
	cookieValue = "3b3eb67e19689dff24c1c32b9469e2be"
)

func main() {
	// Step 2: refuse to run unless started by the host.
	if os.Getenv(cookieKey) != cookieValue {
		fmt.Fprintln(os.Stderr, "rawgrpc: this is a zcode-fence layer; it is started by zcode-fence, not by hand")
		os.Exit(1)
	}
	// Step 3: the host must offer layer protocol 1.
	if !offers(os.Getenv("PLUGIN_PROTOCOL_VERSIONS"), "1") {
		fmt.Fprintln(os.Stderr, "rawgrpc: the host does not offer layer protocol 1")
		os.Exit(1)
	}
	// Step 4: listen on a unix socket in the directory the host chose
	// (loopback TCP in the host's port range on Windows).
	ln, err := listen()
	if err != nil {
		fmt.Fprintln(os.Stderr, "rawgrpc: listen:", err)
		os.Exit(1)
	}
	// Step 5: the Layer service and the health service ("plugin" SERVING).
	srv := grpc.NewServer()
	layerpb.RegisterLayerServer(srv, layer{})
	hs := health.NewServer()
	hs.SetServingStatus("plugin", healthpb.HealthCheckResponse_SERVING)
	healthpb.RegisterHealthServer(srv, hs)
	// Step 6: one handshake line on stdout, nothing else ever.
	fmt.Printf("1|1|%s|%s|grpc\n", ln.Addr().Network(), ln.Addr().String())
	// Step 7: serve until killed, and exit when the host goes away.
	go exitWithParent()
	_ = srv.Serve(ln)
}

// listen opens the socket of step 4.
func listen() (net.Listener, error) {
	if runtime.GOOS != "windows" {
		return net.Listen("unix", filepath.Join(socketDir(), "rawgrpc.sock"))
	}
	lo, errLo := strconv.Atoi(os.Getenv("PLUGIN_MIN_PORT"))
	hi, errHi := strconv.Atoi(os.Getenv("PLUGIN_MAX_PORT"))
	if errLo != nil || errHi != nil || lo > hi {
		return nil, fmt.Errorf("no usable PLUGIN_MIN_PORT..PLUGIN_MAX_PORT")
	}
	for port := lo; port <= hi; port++ {
		if ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			return ln, nil
		}
	}
	return nil, fmt.Errorf("no free port in %d..%d", lo, hi)
}

func socketDir() string {
	if d := os.Getenv("PLUGIN_UNIX_SOCKET_DIR"); d != "" {
		return d
	}
	return os.TempDir()
}

func offers(list, version string) bool {
	for _, v := range strings.Split(list, ",") {
		if strings.TrimSpace(v) == version {
			return true
		}
	}
	return false
}

func exitWithParent() {
	parent := os.Getppid()
	for range time.Tick(250 * time.Millisecond) {
		if os.Getppid() != parent {
			os.Exit(0)
		}
	}
}

type layer struct {
	layerpb.UnimplementedLayerServer
}

func (layer) Describe(context.Context, *layerpb.DescribeRequest) (*layerpb.DescribeResponse, error) {
	return &layerpb.DescribeResponse{Name: "rawgrpc", Version: "0.1.0",
		Description: "a layer without go-plugin", ProtocolVersion: 1}, nil
}

func (layer) Decide(_ context.Context, req *layerpb.DecideRequest) (*layerpb.DecideResponse, error) {
	notes := map[string]string{"socket_dir": socketDir()}
	for _, c := range req.GetScript().GetCommands() {
		if c.GetName() == "deploy" {
			lang := req.GetOptions()["language"]
			msg := "[zcode-fence: rawgrpc] `" + req.GetCommand() + "` deploys; ask the user first (language " + lang + ")"
			return &layerpb.DecideResponse{
				Decision:    layerpb.Decision_DECISION_ASK,
				Reasons:     []*layerpb.Reason{{Rule: "RAW-DEPLOY", Message: msg}},
				Annotations: notes,
			}, nil
		}
	}
	return &layerpb.DecideResponse{Annotations: notes}, nil
}
