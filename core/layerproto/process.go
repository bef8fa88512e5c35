package layerproto

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin/runner"

	"github.com/zcode-fence/zcode-fence/core/layerproto/convert"
	"github.com/zcode-fence/zcode-fence/redact"
)

// errKilled is returned when a launch is cancelled before the process was
// started.
var errKilled = errors.New("cancelled before the process started")

// process is the go-plugin runner for one layer process. It exists because
// go-plugin's own runner gives the plugin the host's stdin and offers only a
// graceful kill; this one builds the exec.Cmd itself (stdin /dev/null, the
// environment the caller chose, its own process group on unix) and kills
// hard: SIGKILL to the whole group, then it closes its ends of the stdout and
// stderr pipes so no reader waits for a grandchild that inherited them.
type process struct {
	path string
	args []string
	env  []string // the child's environment before go-plugin's variables
	// detached starts the child in a session of its own (a warm server
	// that outlives the call) instead of a process group of its own.
	detached bool

	mu        sync.Mutex
	cmd       *exec.Cmd
	stdout    io.ReadCloser
	stderr    io.ReadCloser // the pipe itself, closed by kill
	stderrTee io.ReadCloser // what go-plugin reads: stderr, copied to tail
	tail      tailBuffer    // the last bytes the process wrote to stderr
	exited    chan struct{} // closed once Wait has reaped the process
	socketDir string
	pid       int
	started   bool
	reaped    bool
	killed    bool
}

var _ runner.Runner = (*process)(nil)

// prepare is the go-plugin RunnerFunc. spec carries only go-plugin's own
// variables in Env (the client sets SkipHostEnv); socketDir is the fresh
// directory go-plugin created for this launch's unix socket.
func (p *process) prepare(_ hclog.Logger, spec *exec.Cmd, socketDir string) (runner.Runner, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.socketDir = socketDir
	if p.killed {
		return nil, errKilled
	}
	cmd := exec.Command(p.path, p.args...)
	// HostPIDEnv and go-plugin's variables come last so neither the host
	// environment nor the caller's extra variables can override them.
	cmd.Env = append(append(append([]string(nil), p.env...),
		HostPIDEnv+"="+strconv.Itoa(os.Getpid())), spec.Env...)
	cmd.Stdin = nil // os/exec connects /dev/null
	if p.detached {
		setSession(cmd)
	} else {
		setProcessGroup(cmd)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		_ = stdout.Close()
		return nil, err
	}
	p.cmd, p.stdout, p.stderr = cmd, stdout, stderr
	p.stderrTee = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(stderr, &p.tail), stderr}
	p.exited = make(chan struct{})
	return p, nil
}

func (p *process) Start(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killed {
		return errKilled
	}
	if err := p.cmd.Start(); err != nil {
		return err
	}
	p.pid = p.cmd.Process.Pid
	p.started = true
	return nil
}

// Wait reaps the process (go-plugin calls it once, after both pipes hit
// EOF) and kills whatever else is left in its process group.
func (p *process) Wait(context.Context) error {
	err := p.cmd.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reaped = true
	killGroup(p.pid)
	close(p.exited)
	return err
}

// waitExit waits up to d for the process to end on its own and be reaped
// (by then go-plugin has read all of its stderr).
func (p *process) waitExit(d time.Duration) {
	p.mu.Lock()
	exited, started := p.exited, p.started
	p.mu.Unlock()
	if !started {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
	}
}

// stderrTail returns the end of what the process wrote to stderr, on one
// line, redacted.
func (p *process) stderrTail() string {
	return p.tail.String()
}

// Kill implements runner.Runner; see kill.
func (p *process) Kill(context.Context) error {
	p.kill()
	return nil
}

// kill stops the launch for good: a process not started yet never starts,
// a running one (and its process group) gets SIGKILL, and the pipe read
// ends are closed. Safe to call any number of times, from any goroutine.
func (p *process) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.killed = true
	if p.started && !p.reaped {
		killGroup(p.pid)
		_ = p.cmd.Process.Kill()
	}
	if p.stdout != nil {
		_ = p.stdout.Close()
	}
	if p.stderr != nil {
		_ = p.stderr.Close()
	}
}

// dir returns the socket directory go-plugin made for this launch, or "".
func (p *process) dir() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.socketDir
}

// processID returns the pid, or 0 when the process never started.
func (p *process) processID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pid
}

func (p *process) Stdout() io.ReadCloser           { return p.stdout }
func (p *process) Stderr() io.ReadCloser           { return p.stderrTee }
func (p *process) Name() string                    { return p.path }
func (p *process) Diagnose(context.Context) string { return "" }

func (p *process) ID() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		return ""
	}
	return strconv.Itoa(p.pid)
}

func (p *process) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

func (p *process) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}

// maxStderrTail is how much of a layer's stderr is kept for the error of a
// failed launch.
const maxStderrTail = 300

// tailBuffer keeps the last maxStderrTail bytes written to it.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - maxStderrTail; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return convert.Text(redact.String(strings.Join(strings.Fields(string(t.b)), " ")))
}

// childEnv returns host minus the variables named in drop (a name ending in
// "*" drops every variable with that prefix), followed by extra.
func childEnv(host, drop, extra []string) []string {
	out := make([]string, 0, len(host)+len(extra))
	for _, kv := range host {
		name, _, _ := strings.Cut(kv, "=")
		if !dropped(name, drop) {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

func dropped(name string, drop []string) bool {
	fold := runtime.GOOS == "windows" // Windows variable names ignore case
	for _, d := range drop {
		pattern, prefix := strings.CutSuffix(d, "*")
		n := name
		if prefix && len(n) > len(pattern) {
			n = n[:len(pattern)]
		}
		if n == pattern || (fold && strings.EqualFold(n, pattern)) {
			return true
		}
	}
	return false
}
