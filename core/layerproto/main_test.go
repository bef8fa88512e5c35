package layerproto

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/zcode-fence/zcode-fence/core"
)

// The test binary doubles as every layer the tests launch: started with
// modeEnv set, TestMain runs the layer (or misbehaves) instead of the
// tests. The mode picks how the process starts; the call's Command picks
// what Decide does (see testLayer.Decide).
const modeEnv = "ZCODE_FENCE_LAYERPROTO_TEST_MODE"

// Environment probes reported by the "probe" command.
const (
	secretVar  = "ZCODE_FENCE_DECISION_MODEL_API_KEY"
	prefixVar  = "ZCODE_TEST_DROP_ME"
	keptVar    = "ZCODE_TEST_KEPT"
	extraVar   = "ZCODE_TEST_EXTRA"
	testLayerV = "0.0.1-test"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(modeEnv); mode != "" {
		runTestPlugin(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runTestPlugin is the main of the plugin process. Modes:
//
//	serve          a normal layer (see testLayer.Decide)
//	silent         a layer that is always silent
//	hang-handshake never prints the handshake line
//	exit-early     exits with status 2 before the handshake
//	garbage        prints a line that is not a handshake, then serves
//	cookie         serves with the wrong magic cookie
//	version        serves protocol version 2
//	spawn          starts a grandchild (mode sleep) sharing its stdout and
//	               stderr, then serves; "probe" reports the grandchild pid
//	sleep          sleeps (the grandchild)
//	host           a host: launches a serve layer, prints its pid, waits
//	host-wrapped   a host whose layer runs behind a shell that does not
//	               exec it: prints "WRAPPER_PID LAYER_PID", waits
func runTestPlugin(mode string) {
	layer := &testLayer{name: "test-" + mode}
	switch mode {
	case "serve", "silent":
		Serve(layer, WithVersion(testLayerV), WithDescription("a layer for tests"))
	case "hang-handshake":
		go exitWithHost(hclog.NewNullLogger())
		select {}
	case "exit-early":
		os.Exit(2)
	case "garbage":
		fmt.Println("hello, this is not a handshake line")
		Serve(layer)
	case "cookie":
		cfg, _, _ := serveConfig(layer, nil)
		cfg.MagicCookieValue = "not-the-cookie"
		cfg.MagicCookieKey = "ZCODE_FENCE_LAYER_OTHER"
		plugin.Serve(cfg)
	case "version":
		cfg, _, _ := serveConfig(layer, nil)
		cfg.ProtocolVersion = 2
		plugin.Serve(cfg)
	case "spawn":
		self, _ := os.Executable()
		child := exec.Command(self)
		child.Env = append(os.Environ(), modeEnv+"=sleep")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			os.Exit(3)
		}
		layer.grandchild = child.Process.Pid
		Serve(layer)
	case "sleep":
		time.Sleep(time.Minute)
	case "host":
		self, _ := os.Executable()
		c, err := Launch(context.Background(), LaunchConfig{
			Path:         self,
			Env:          []string{modeEnv + "=serve"},
			StartTimeout: testStartTimeout,
		})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(4)
		}
		fmt.Println(c.pid())
		select {}
	case "host-wrapped":
		self, _ := os.Executable()
		// The "; exit" keeps every shell from exec'ing the layer, so the
		// layer's parent is the shell and only HostPIDEnv names the host.
		c, err := Launch(context.Background(), LaunchConfig{
			Path:         "sh",
			Args:         []string{"-c", `"$0"; exit $?`, self},
			Env:          []string{modeEnv + "=serve"},
			StartTimeout: testStartTimeout,
		})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(4)
		}
		v, err := c.Decide(context.Background(), &core.Call{Tool: "Bash", Kind: core.KindShell, Command: "probe"})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(4)
		}
		fmt.Println(c.pid(), v.Annotations["pid"])
		select {}
	default:
		os.Exit(5)
	}
}

// testLayer behaves according to the call's Command:
//
//	"panic"        panics
//	"hang"         blocks forever, ignoring ctx
//	"exit"         exits the process with status 3
//	"error"        returns an error
//	"bad-decision" answers a decision that does not exist
//	"probe"        asks, with annotations describing its environment
//	"echo"         asks, with the whole call as JSON in annotation "call"
//	anything else  asks with reason "asked: COMMAND" (Layer left empty)
//
// except that mode "silent" is silent for everything.
type testLayer struct {
	name       string
	grandchild int
}

func (l *testLayer) Name() string { return l.name }

func (l *testLayer) Decide(_ context.Context, call *core.Call) (core.Verdict, error) {
	if l.name == "test-silent" {
		return core.SilentVerdict, nil
	}
	v := core.AskVerdict(core.Reason{Rule: "echo", Message: "asked: " + call.Command})
	switch call.Command {
	case "panic":
		panic("boom in " + call.Tool)
	case "hang":
		select {}
	case "exit":
		os.Exit(3)
	case "error":
		return core.Verdict{}, errors.New("test layer: cannot decide")
	case "error-after-finding":
		return core.AskVerdict(core.Reason{Rule: "FOUND", Message: "found before failing"}), errors.New("test layer: stopped")
	case "bad-decision":
		return core.Verdict{Decision: 7}, nil
	case "probe":
		stdin, _ := io.ReadAll(io.LimitReader(os.Stdin, 1<<10))
		stdinPath, _ := os.Readlink("/proc/self/fd/0")
		_, hasSecret := os.LookupEnv(secretVar)
		_, hasPrefixed := os.LookupEnv(prefixVar)
		v.Annotations = map[string]string{
			"stdin":      string(stdin),
			"stdin_path": stdinPath,
			"has_secret": strconv.FormatBool(hasSecret),
			"has_prefix": strconv.FormatBool(hasPrefixed),
			"kept":       os.Getenv(keptVar),
			"extra":      os.Getenv(extraVar),
			"cookie":     os.Getenv(Handshake.MagicCookieKey),
			"socket_dir": os.Getenv("PLUGIN_UNIX_SOCKET_DIR"),
			"pid":        strconv.Itoa(os.Getpid()),
			"ppid":       strconv.Itoa(os.Getppid()),
			"host_pid":   os.Getenv(HostPIDEnv),
			"grandchild": strconv.Itoa(l.grandchild),
		}
	case "echo":
		data, err := json.Marshal(call)
		if err != nil {
			return core.Verdict{}, err
		}
		v.Annotations = map[string]string{"call": string(data)}
	}
	return v, nil
}
