package layerproto

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto/internal/wiretest"
)

func selfPath(t testing.TB) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testStartTimeout replaces the 1 s default in tests: the race-enabled
// test binary starts slower, and a loaded machine must not fail a test
// about behaviour, not speed.
const testStartTimeout = 30 * time.Second

// modeConfig is the launch configuration for the test plugin in mode.
func modeConfig(t testing.TB, mode string) LaunchConfig {
	return LaunchConfig{
		Path:         selfPath(t),
		Env:          []string{modeEnv + "=" + mode},
		StartTimeout: testStartTimeout,
	}
}

// launch starts the test plugin in mode and closes it when the test ends.
func launch(t testing.TB, mode string) *Client {
	t.Helper()
	c, err := Launch(context.Background(), modeConfig(t, mode))
	if err != nil {
		t.Fatalf("launch %s: %v", mode, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func shellCall(command string) *core.Call {
	return &core.Call{Tool: "Bash", Kind: core.KindShell, Command: command}
}

func decide(t testing.TB, c *Client, command string, timeout time.Duration) (core.Verdict, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return c.Decide(ctx, shellCall(command))
}

// layerError checks that err is an *Error for layer and op.
func layerError(t *testing.T, err error, layer, op string) *Error {
	t.Helper()
	var le *Error
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T) is not a *layerproto.Error", err, err)
	}
	if le.Layer != layer || le.Op != op {
		t.Errorf("error names layer %q op %q, want %q %q: %v", le.Layer, le.Op, layer, op, err)
	}
	if prefix := "layer " + layer + ": " + op + ": "; !strings.HasPrefix(err.Error(), prefix) {
		t.Errorf("error %q does not start with %q", err, prefix)
	}
	return le
}

// procState returns the state letter of a process from /proc ("" when
// there is no such process).
func procState(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return ""
	}
	return s[i+2 : i+3]
}

// dead reports whether pid is gone or a zombie.
func dead(pid int) bool {
	st := procState(pid)
	return st == "" || st == "Z" || st == "X"
}

// waitDead polls until pid is dead; it gives up after 10 s. (This bounds
// a wait for a fact, it does not measure speed.)
func waitDead(pid int) bool {
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if dead(pid) {
			return true
		}
	}
	return false
}

// children lists the live processes whose parent is this test process.
func children(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == self && fields[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

func requireProc(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc (linux)")
	}
}

func TestAskThroughProcess(t *testing.T) {
	c := launch(t, "serve")
	if c.Name() != "test-serve" {
		t.Errorf("Name() = %q, want the name from Describe", c.Name())
	}
	want := Info{Name: "test-serve", Version: testLayerV, Description: "a layer for tests", ProtocolVersion: ProtocolVersion}
	if c.Info() != want {
		t.Errorf("Info() = %+v, want %+v", c.Info(), want)
	}
	v, err := decide(t, c, "rm -rf /", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	wantV := core.AskVerdict(core.Reason{Layer: "test-serve", Rule: "echo", Message: "asked: rm -rf /"})
	if !reflect.DeepEqual(v, wantV) {
		t.Errorf("verdict %+v, want %+v (empty Reason.Layer filled with the client name)", v, wantV)
	}
}

func TestConfiguredNameWins(t *testing.T) {
	cfg := modeConfig(t, "serve")
	cfg.Name = "thirdparty"
	c, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Name() != "thirdparty" || c.Info().Name != "test-serve" {
		t.Errorf("Name() = %q, Info().Name = %q", c.Name(), c.Info().Name)
	}
	v, err := decide(t, c, "x", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if v.Reasons[0].Layer != "thirdparty" {
		t.Errorf("reason layer %q, want the configured name", v.Reasons[0].Layer)
	}
}

func TestSilentThroughProcess(t *testing.T) {
	c := launch(t, "silent")
	v, err := decide(t, c, "rm -rf /", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if v.Decision != core.Silent || len(v.Reasons) != 0 {
		t.Errorf("verdict %+v, want silent", v)
	}
}

// TestCallSurvivesProcess sends every testdata call to a real layer process,
// which returns what it received as JSON.
func TestCallSurvivesProcess(t *testing.T) {
	c := launch(t, "serve")
	for _, tc := range wiretest.Calls(t) {
		t.Run(tc.Name, func(t *testing.T) {
			call := tc.Call
			call.Command = "echo" // the test layer's echo command
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			v, err := c.Decide(ctx, &call)
			if err != nil {
				t.Fatal(err)
			}
			var got core.Call
			if err := json.Unmarshal([]byte(v.Annotations["call"]), &got); err != nil {
				t.Fatalf("echo: %v", err)
			}
			// The echo went through encoding/json, which rewrites Input's
			// spacing and escapes: compare Input by meaning, the rest as is.
			want := wiretest.Normalized(call)
			if !sameJSON(t, got.Input, want.Input) {
				t.Errorf("input: layer saw %s, sent %s", got.Input, want.Input)
			}
			got.Input, want.Input = nil, nil
			if !reflect.DeepEqual(wiretest.Normalized(got), want) {
				t.Errorf("layer saw %s\nsent %+v", v.Annotations["call"], want)
			}
		})
	}
}

// sameJSON compares two JSON texts by value; nil and "null" are equal.
func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	decode := func(m json.RawMessage) any {
		if len(m) == 0 {
			return nil
		}
		var v any
		if err := json.Unmarshal(m, &v); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}

func TestDecideHonoursDeadline(t *testing.T) {
	c := launch(t, "serve")
	_, err := decide(t, c, "hang", 100*time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("hanging layer gave %v, want a deadline error", err)
	}
	layerError(t, err, "test-serve", "decide")
	// The stuck handler does not block other calls on the same process.
	if v, err := decide(t, c, "after", 5*time.Second); err != nil || v.Decision != core.Ask {
		t.Errorf("after a timeout: %+v, %v", v, err)
	}
}

func TestPanicKeepsServing(t *testing.T) {
	c := launch(t, "serve")
	pid := c.pid()
	_, err := decide(t, c, "panic", 5*time.Second)
	if err == nil {
		t.Fatal("a panicking layer gave no error")
	}
	layerError(t, err, "test-serve", "decide")
	if st, _ := status.FromError(errors.Unwrap(err)); st.Code() != codes.Internal {
		t.Errorf("status %v, want Internal", st.Code())
	}
	for _, part := range []string{"layer test-serve: panic in Decide", "boom in Bash"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	for i := 0; i < 3; i++ {
		v, err := decide(t, c, "ls", 5*time.Second)
		if err != nil || v.Decision != core.Ask {
			t.Fatalf("after the panic: %+v, %v", v, err)
		}
	}
	if c.pid() != pid || dead(pid) {
		t.Errorf("the layer process did not survive the panic")
	}
}

// TestErrorCarriesWhatWasFound: a layer whose Decide fails after a finding
// returns it with the error; the client gets both (a built-in that fails
// closed reports the finding, DESIGN §3).
func TestErrorCarriesWhatWasFound(t *testing.T) {
	c := launch(t, "serve")
	v, err := decide(t, c, "error-after-finding", 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "test layer: stopped") {
		t.Fatalf("error %v, want the layer's", err)
	}
	if v.Decision != core.Ask || len(v.Reasons) != 1 || v.Reasons[0].Rule != "FOUND" || v.Reasons[0].Layer != "test-serve" {
		t.Fatalf("verdict with the error = %+v, want the finding", v)
	}
	if v, _ := decide(t, c, "error", 5*time.Second); v.Decision != core.Silent || len(v.Reasons) != 0 {
		t.Fatalf("an error without findings came with %+v", v)
	}
}

func TestLayerErrorsAreErrors(t *testing.T) {
	c := launch(t, "serve")
	for _, tc := range []struct {
		command string
		want    string
	}{
		{"error", "decide: test layer: cannot decide"},
		{"bad-decision", "unknown decision 7"},
	} {
		_, err := decide(t, c, tc.command, 5*time.Second)
		if err == nil {
			t.Errorf("%s: no error", tc.command)
			continue
		}
		layerError(t, err, "test-serve", "decide")
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q lacks %q", tc.command, err, tc.want)
		}
	}
}

func TestCrashDuringDecide(t *testing.T) {
	c := launch(t, "serve")
	pid := c.pid()
	_, err := decide(t, c, "exit", 10*time.Second)
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("crash gave %v, want an immediate error", err)
	}
	layerError(t, err, "test-serve", "decide")
	// The next call fails too, without waiting for its deadline.
	if _, err := decide(t, c, "again", 10*time.Second); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("call after the crash gave %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if runtime.GOOS == "linux" && !dead(pid) {
		t.Errorf("pid %d still alive", pid)
	}
}

func TestLaunchFailures(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "not-executable")
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	self := selfPath(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		cfg     LaunchConfig
		ctx     context.Context
		ctxTime time.Duration
		op      string
		want    string
		is      error
	}{
		{name: "no path", cfg: LaunchConfig{Name: "fence"}, op: "start", want: "no executable path"},
		{name: "missing file", cfg: LaunchConfig{Name: "fence", Path: filepath.Join(dir, "missing")}, op: "start", want: "no such file"},
		{name: "not executable", cfg: LaunchConfig{Name: "fence", Path: plain}, op: "start", want: "permission denied"},
		{name: "directory", cfg: LaunchConfig{Name: "fence", Path: dir}, op: "start"},
		{name: "not in PATH", cfg: LaunchConfig{Name: "fence", Path: "zcode-fence-no-such-layer"}, op: "start", want: "not found"},
		{name: "wrong cookie", cfg: modeConfig(t, "cookie"), op: "start", want: "stderr: This binary is a plugin"},
		{name: "wrong protocol version", cfg: modeConfig(t, "version"), op: "start", want: "incompatible API version"},
		{name: "garbage on stdout", cfg: modeConfig(t, "garbage"), op: "start", want: "hello, this is not a handshake line"},
		{name: "exits before handshake", cfg: modeConfig(t, "exit-early"), op: "start"},
		{name: "hangs past StartTimeout", cfg: withStartTimeout(modeConfig(t, "hang-handshake"), 200*time.Millisecond),
			op: "start", want: "start timeout of 200ms", is: context.DeadlineExceeded},
		{name: "hangs past ctx deadline", cfg: withStartTimeout(modeConfig(t, "hang-handshake"), time.Minute),
			ctxTime: 200 * time.Millisecond, op: "start", is: context.DeadlineExceeded},
		{name: "ctx already cancelled", cfg: LaunchConfig{Name: "fence", Path: self}, ctx: cancelled, op: "start", is: context.Canceled},
		{name: "bad checksum text", cfg: LaunchConfig{Name: "fence", Path: self, SHA256: "xyz"}, op: "checksum", want: "not a hex sha256"},
		{name: "short checksum", cfg: LaunchConfig{Name: "fence", Path: self, SHA256: "abcd"}, op: "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			if tc.ctxTime > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.ctxTime)
				defer cancel()
			}
			before := children(t)
			c, err := Launch(ctx, tc.cfg)
			if err == nil {
				c.Close()
				t.Fatal("launch succeeded")
			}
			if c != nil {
				t.Errorf("failed launch returned a client")
			}
			c.Close() // a nil client's Close is a no-op
			t.Logf("error: %v", err)
			name := tc.cfg.Name
			if name == "" {
				name = filepath.Base(tc.cfg.Path)
			}
			layerError(t, err, name, tc.op)
			if tc.want != "" && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if runtime.GOOS == "linux" {
				if after := children(t); len(after) > len(before) {
					t.Errorf("children before %v, after %v", before, after)
				}
			}
		})
	}
}

func withStartTimeout(cfg LaunchConfig, d time.Duration) LaunchConfig {
	cfg.StartTimeout = d
	return cfg
}

func TestChecksum(t *testing.T) {
	self := selfPath(t)
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)

	cfg := modeConfig(t, "serve")
	cfg.SHA256 = strings.ToUpper(hex.EncodeToString(sum[:]))
	c, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatalf("matching checksum: %v", err)
	}
	if _, err := decide(t, c, "x", 5*time.Second); err != nil {
		t.Errorf("decide: %v", err)
	}
	c.Close()

	sum[0] ^= 0xff
	cfg.SHA256 = hex.EncodeToString(sum[:])
	before := children(t)
	c, err = Launch(context.Background(), cfg)
	if err == nil {
		c.Close()
		t.Fatal("mismatching checksum accepted")
	}
	layerError(t, err, filepath.Base(self), "checksum")
	if !strings.Contains(err.Error(), "does not match") {
		t.Errorf("error %q", err)
	}
	if after := children(t); len(after) > len(before) {
		t.Errorf("a process was started despite the mismatch: %v", after)
	}
}

// TestChildEnvironmentAndStdin checks what the layer process receives: the
// host's environment minus dropped names plus the extras, go-plugin's
// variables, a private socket dir, and an empty stdin even when the host's
// stdin holds the hook payload.
func TestChildEnvironmentAndStdin(t *testing.T) {
	t.Setenv(secretVar, "sk-secret-value-that-must-not-leak")
	t.Setenv(prefixVar, "also dropped")
	t.Setenv(keptVar, "kept")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString(`{"tool_name":"Bash","tool_input":{"command":"secret payload"}}`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	realStdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = realStdin; r.Close() }()

	tmp := t.TempDir()
	cfg := modeConfig(t, "serve")
	cfg.DropEnv = []string{secretVar, "ZCODE_TEST_DROP_*"}
	cfg.Env = append(cfg.Env, extraVar+"=extra")
	cfg.TempDir = tmp
	c, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v, err := decide(t, c, "probe", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	a := v.Annotations
	want := map[string]string{
		"stdin":      "",
		"has_secret": "false",
		"has_prefix": "false",
		"kept":       "kept",
		"extra":      "extra",
		"cookie":     Handshake.MagicCookieValue,
		"host_pid":   strconv.Itoa(os.Getpid()),
	}
	if runtime.GOOS == "linux" {
		want["stdin_path"] = os.DevNull
	}
	for k, w := range want {
		if a[k] != w {
			t.Errorf("%s = %q, want %q", k, a[k], w)
		}
	}
	if dir := a["socket_dir"]; filepath.Dir(dir) != tmp || dir != c.proc.dir() {
		t.Errorf("socket dir %q, want a fresh dir in %q (client has %q)", dir, tmp, c.proc.dir())
	}
	sockets, _ := filepath.Glob(filepath.Join(a["socket_dir"], "plugin*"))
	if len(sockets) != 1 {
		t.Errorf("socket dir holds %v, want one socket", sockets)
	}
	c.Close()
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Errorf("Close left %v in %s", entries, tmp)
	}
}

func TestCloseIsIdempotent(t *testing.T) {
	c := launch(t, "serve")
	pid := c.pid()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}()
	}
	wg.Wait()
	if err := c.Close(); err != nil {
		t.Errorf("late Close: %v", err)
	}
	if runtime.GOOS == "linux" && !dead(pid) {
		t.Errorf("pid %d alive after Close", pid)
	}
	_, err := decide(t, c, "x", time.Second)
	if !errors.Is(err, ErrClosed) {
		t.Errorf("Decide after Close: %v", err)
	}
	var nilClient *Client
	if err := nilClient.Close(); err != nil {
		t.Errorf("nil Close: %v", err)
	}
}

// TestCloseDuringDecide closes a client while a call hangs in it: the call
// ends with an error instead of waiting for its deadline.
func TestCloseDuringDecide(t *testing.T) {
	c := launch(t, "serve")
	errc := make(chan error, 1)
	go func() {
		_, err := decide(t, c, "hang", time.Minute)
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the layer
	c.Close()
	if err := <-errc; err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Decide during Close gave %v", err)
	}
}

func TestCloseKillsProcessGroup(t *testing.T) {
	requireProc(t)
	c := launch(t, "spawn")
	v, err := decide(t, c, "probe", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(v.Annotations["grandchild"])
	if grandchild <= 0 || dead(grandchild) {
		t.Fatalf("grandchild %q not running", v.Annotations["grandchild"])
	}
	// The grandchild holds the layer's stdout and stderr pipes open; Close
	// must neither wait for it nor leave it running.
	c.Close()
	if !waitDead(grandchild) {
		t.Errorf("grandchild %d survived Close", grandchild)
	}
}

// hostGoneBound is how long a layer may outlive its killed host: Serve
// polls every 250 ms on unix, so this is eight polls of slack for a loaded
// machine, and still "a killed host leaves no layer behind" to a user.
const hostGoneBound = 2 * time.Second

// waitDeadWithin polls until pid is dead or d has passed, and returns how
// long it waited.
func waitDeadWithin(pid int, d time.Duration) (time.Duration, bool) {
	start := time.Now()
	for {
		if dead(pid) {
			return time.Since(start), true
		}
		if time.Since(start) > d {
			return time.Since(start), false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// quickExitEnv is the environment for a child whose exit time a test
// bounds: a race-enabled binary otherwise sleeps 1 s in os.Exit (the race
// runtime's atexit_sleep_ms), which is not what the test is about.
func quickExitEnv(extra ...string) []string {
	gorace := strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
	return append(append(os.Environ(), "GORACE="+gorace), extra...)
}

// startHost runs the test binary in a host mode and returns the process
// and the pids it printed.
func startHost(t *testing.T, mode string, pids int) (*exec.Cmd, []int) {
	t.Helper()
	host := exec.Command(selfPath(t))
	host.Env = quickExitEnv(modeEnv + "=" + mode) // the layer inherits it
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("host said %q: %v", line, err)
	}
	fields := strings.Fields(line)
	if len(fields) != pids {
		t.Fatalf("host said %q, want %d pids", line, pids)
	}
	var out2 []int
	for _, f := range fields {
		pid, err := strconv.Atoi(f)
		if err != nil || pid <= 0 || dead(pid) {
			t.Fatalf("host said %q: %q is not a running pid", line, f)
		}
		out2 = append(out2, pid)
	}
	return host, out2
}

// TestLayerExitsWithItsHost SIGKILLs a host process that launched a layer
// and never closed it: the layer notices and exits.
func TestLayerExitsWithItsHost(t *testing.T) {
	requireProc(t)
	host, pids := startHost(t, "host", 1)
	layer := pids[0]
	if err := host.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = host.Wait()
	took, ok := waitDeadWithin(layer, hostGoneBound)
	if !ok {
		t.Fatalf("layer %d still running %v after its host was killed", layer, took)
	}
	t.Logf("layer exited %v after its host was killed", took.Round(time.Millisecond))
}

// TestLayerBehindWrapperExitsWithItsHost is the same with a shell between
// host and layer that does not exec it: the layer's parent (the shell)
// stays alive, so only the host pid handed over in HostPIDEnv can tell the
// layer its host is gone. The shell then exits with the layer.
func TestLayerBehindWrapperExitsWithItsHost(t *testing.T) {
	requireProc(t)
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	host, pids := startHost(t, "host-wrapped", 2)
	wrapper, layer := pids[0], pids[1]
	if wrapper == layer {
		t.Fatalf("the shell exec'd the layer (pid %d); the test needs it in between", layer)
	}
	if err := host.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = host.Wait()
	took, ok := waitDeadWithin(layer, hostGoneBound)
	if !ok {
		t.Fatalf("layer %d (behind shell %d) still running %v after its host was killed", layer, wrapper, took)
	}
	if _, ok := waitDeadWithin(wrapper, hostGoneBound); !ok {
		t.Errorf("wrapper shell %d still running after its layer exited", wrapper)
	}
	t.Logf("layer behind a wrapper exited %v after its host was killed", took.Round(time.Millisecond))
}

// TestLayerWhoseHostIsAlreadyGoneExits starts a layer by hand, naming as
// its host a process that has already exited: Serve must not wait for a
// parent change that happened before it looked. The limit includes the
// process's own start, so it is the generous one of a fact, not a speed.
func TestLayerWhoseHostIsAlreadyGoneExits(t *testing.T) {
	gone := exec.Command(selfPath(t))
	gone.Env = append(os.Environ(), modeEnv+"=exit-early")
	_ = gone.Run()
	layer := exec.Command(selfPath(t))
	layer.Env = quickExitEnv(
		modeEnv+"=serve",
		Handshake.MagicCookieKey+"="+Handshake.MagicCookieValue,
		"PLUGIN_PROTOCOL_VERSIONS=1",
		"PLUGIN_UNIX_SOCKET_DIR="+t.TempDir(),
		HostPIDEnv+"="+strconv.Itoa(gone.Process.Pid))
	if err := layer.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- layer.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("layer exited with %v, want status 0 (the host-gone exit)", err)
		}
	case <-time.After(testStartTimeout):
		_ = layer.Process.Kill()
		<-exited
		t.Errorf("layer kept serving %v for host pid %d, which had exited", testStartTimeout, gone.Process.Pid)
	}
}

func TestServeLogFile(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "layer.log")
	cfg := modeConfig(t, "serve")
	cfg.Env = append(cfg.Env, LogEnv+"="+logPath)
	c, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := decide(t, c, "panic", 5*time.Second); err == nil {
		t.Fatal("no error from the panic")
	}
	c.Close()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"panic in Decide", "boom in Bash", "goroutine"} {
		if !strings.Contains(string(data), part) {
			t.Errorf("log lacks %q:\n%s", part, data)
		}
	}
}

// TestNoLeaks runs 200 launch+decide+close cycles, four at a time, over
// every kind of layer behaviour, then checks that no process, socket,
// socket directory or goroutine is left.
func TestNoLeaks(t *testing.T) {
	requireProc(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the default socket parent, here and in children
	goroutinesBefore := runtime.NumGoroutine()

	// Kinds without a command fail to launch, on purpose.
	kinds := []struct {
		mode, command string
		timeout       time.Duration
		startTimeout  time.Duration
	}{
		{"serve", "ls", 5 * time.Second, testStartTimeout},
		{"silent", "ls", 5 * time.Second, testStartTimeout},
		{"serve", "panic", 5 * time.Second, testStartTimeout},
		{"serve", "hang", 50 * time.Millisecond, testStartTimeout},
		{"serve", "exit", 5 * time.Second, testStartTimeout},
		{"hang-handshake", "", 0, 100 * time.Millisecond},
		{"garbage", "", 0, testStartTimeout},
	}
	const cycles, workers = 200, 4
	var (
		mu     sync.Mutex
		pids   []int
		failed int
	)
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				k := kinds[i%len(kinds)]
				cfg := modeConfig(t, k.mode)
				cfg.StartTimeout = k.startTimeout
				c, err := Launch(context.Background(), cfg)
				if (err == nil) != (k.command != "") {
					t.Errorf("cycle %d (%s): launch error %v", i, k.mode, err)
				}
				if err != nil {
					mu.Lock()
					failed++
					mu.Unlock()
					continue
				}
				mu.Lock()
				pids = append(pids, c.pid())
				mu.Unlock()
				_, _ = decide(t, c, k.command, k.timeout)
				if err := c.Close(); err != nil {
					t.Errorf("cycle %d: Close: %v", i, err)
				}
			}
		}()
	}
	for i := 0; i < cycles; i++ {
		work <- i
	}
	close(work)
	wg.Wait()

	if len(pids)+failed != cycles {
		t.Errorf("%d launched + %d failed != %d cycles", len(pids), failed, cycles)
	}
	for _, pid := range pids {
		if st := procState(pid); st != "" {
			t.Errorf("layer pid %d still exists (state %s)", pid, st)
		}
	}
	if kids := children(t); len(kids) != 0 {
		t.Errorf("live children left: %v", kids)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		t.Errorf("temp dir not empty after %d cycles: %v", cycles, names)
	}
	// gRPC connections wind down asynchronously; give them a moment.
	var now int
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if now = runtime.NumGoroutine(); now <= goroutinesBefore+2 {
			break
		}
	}
	if now > goroutinesBefore+2 {
		buf := make([]byte, 1<<16)
		t.Errorf("goroutines: %d before, %d after\n%s", goroutinesBefore, now, buf[:runtime.Stack(buf, true)])
	}
}

// TestLaunchInParallel starts several layers at once, as the host does.
func TestLaunchInParallel(t *testing.T) {
	const n = 6
	clients := make([]*Client, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			clients[i], errs[i] = Launch(context.Background(), modeConfig(t, "serve"))
		}()
	}
	wg.Wait()
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	seen := map[int]bool{}
	for i, c := range clients {
		if errs[i] != nil {
			t.Fatalf("launch %d: %v", i, errs[i])
		}
		if seen[c.pid()] {
			t.Errorf("pid %d launched twice", c.pid())
		}
		seen[c.pid()] = true
		if _, err := decide(t, c, "x", 5*time.Second); err != nil {
			t.Errorf("decide %d: %v", i, err)
		}
	}
}

func TestChildEnvFilter(t *testing.T) {
	host := []string{"PATH=/bin", "ZCODE_FENCE_DECISION_MODEL_API_KEY=sk-x", "AWS_SECRET=1", "AWS=2", "HOME=/h", "NOEQUALS"}
	got := childEnv(host, []string{"ZCODE_FENCE_DECISION_MODEL_API_KEY", "AWS_*", "NOEQUALS"}, []string{"HOME=/other"})
	want := []string{"PATH=/bin", "AWS=2", "HOME=/h", "HOME=/other"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("childEnv = %q, want %q", got, want)
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Layer: "fence", Op: "start", Err: errors.New("Unrecognized remote plugin message: x\nFailed to read any lines\n\n" + strings.Repeat("y", 1000))}
	msg := e.Error()
	if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "layer fence: start: Unrecognized remote plugin message: x Failed") {
		t.Errorf("message %q", msg)
	}
	if len(msg) > maxErrorUnits+len("layer fence: start: ")+len("…") {
		t.Errorf("message not capped: %d bytes", len(msg))
	}
	if !errors.Is(&Error{Layer: "x", Op: "decide", Err: io.EOF}, io.EOF) {
		t.Error("Error does not unwrap")
	}
}
