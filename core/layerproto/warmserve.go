package layerproto

import (
	"bufio"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/go-hclog"
)

// warmServer is the lifetime of a warm layer server (Serve with
// WarmIdleEnv set). The server listens in RUN_DIR/s<PID>/ (which is how
// the host knows it stays warm), lets go of the hook's stdout and stderr
// after the handshake, and exits — removing its record (when it still
// names this process) and its socket dir — when:
//
//   - no call came for the idle timeout;
//   - it gets SIGTERM, SIGINT or SIGHUP;
//   - its executable on disk changes (replaced, rewritten, removed);
//   - its socket dir is removed (the data dir was deleted: uninstalled);
//   - go-plugin's server stops.
//
// It checks these every tick: a quarter of the idle timeout, between 20 ms
// and 1 s. It never watches the hook that started it.
type warmServer struct {
	idle    time.Duration
	runDir  string
	record  string
	sockDir string
	exe     string
	exeID   string
	log     hclog.Logger
	act     *activity
	once    sync.Once
}

// warmFromEnv reads the warm-server settings Launch put in the
// environment; false when this is not a warm launch.
func warmFromEnv(log hclog.Logger) (*warmServer, bool) {
	idle, err := time.ParseDuration(os.Getenv(WarmIdleEnv))
	dir := os.Getenv(WarmDirEnv)
	if err != nil || idle <= 0 || dir == "" || !warmSupported {
		return nil, false
	}
	return &warmServer{idle: idle, runDir: dir, record: os.Getenv(WarmRecordEnv), log: log, act: &activity{last: time.Now()}}, true
}

// start prepares the server before go-plugin's Serve: the socket dir, the
// executable's identity, the handshake relay, signals and the watch. On
// error nothing was changed and the caller serves per call.
func (w *warmServer) start() error {
	if err := privateDir(w.runDir, false); err != nil {
		return err
	}
	w.sockDir = filepath.Join(w.runDir, "s"+strconv.Itoa(os.Getpid()))
	if err := privateDir(w.sockDir, true); err != nil {
		return err
	}
	w.exe, w.exeID = selfIdentity()
	if err := os.Setenv("PLUGIN_UNIX_SOCKET_DIR", w.sockDir); err != nil {
		_ = os.RemoveAll(w.sockDir)
		return err
	}
	if err := relayHandshake(os.Getenv(LogEnv)); err != nil {
		_ = os.RemoveAll(w.sockDir)
		return err
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		s := <-sigs
		w.exit("signal " + s.String())
	}()
	go w.watch()
	return nil
}

// watch ends the server when it is idle, its binary changed or its socket
// dir is gone.
func (w *warmServer) watch() {
	tick := min(max(w.idle/4, 20*time.Millisecond), time.Second)
	for {
		time.Sleep(tick)
		if w.exe != "" {
			fi, err := os.Stat(w.exe)
			if err != nil || fileIdentity(fi) != w.exeID {
				w.exit("its executable changed")
			}
		}
		if _, err := os.Lstat(w.sockDir); err != nil {
			w.exit("its socket dir is gone")
		}
		if w.act.idleFor(time.Now()) >= w.idle {
			w.exit("idle for " + w.idle.String())
		}
	}
}

// drainLimit bounds how long an exiting server waits for calls in flight.
const drainLimit = 2 * time.Second

// exit removes the record (if it still names this process) and the
// socket dir, waits for calls in flight (up to drainLimit) and exits 0.
// New calls cannot find it once the record and socket are gone.
func (w *warmServer) exit(why string) {
	w.once.Do(func() {
		w.log.Info("warm layer server exiting", "why", why)
		if w.record != "" {
			pid := os.Getpid()
			removeRecordIf(w.record, func(r *record) bool { return r != nil && r.Pid == pid })
		}
		_ = os.RemoveAll(w.sockDir)
		w.act.drain(drainLimit)
		os.Exit(0)
	})
	select {} // another goroutine is exiting
}

// selfIdentity returns the running executable's path and identity. On
// Linux the identity is read through /proc/self/exe, which names the file
// actually running even when the path was replaced since.
func selfIdentity() (string, string) {
	exe, err := os.Executable()
	if err != nil {
		return "", ""
	}
	fi, err := os.Stat("/proc/self/exe")
	if err != nil {
		fi, err = os.Stat(exe)
	}
	if err != nil {
		return "", ""
	}
	return exe, fileIdentity(fi)
}

// relayHandshake catches go-plugin's handshake line (written to
// os.Stdout), forwards it to the real stdout, then points file
// descriptors 1 and 2 at /dev/null (or the LogEnv file): the hook that
// started the server exits, and writing to its pipes would kill the server
// with SIGPIPE.
func relayHandshake(logPath string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	real := os.Stdout
	os.Stdout = w
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		_, _ = real.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			return
		}
		detachStdio(logPath)
		_ = r.Close()
	}()
	return nil
}

// activity counts a server's calls in flight and when the last one ended.
type activity struct {
	mu       sync.Mutex
	inflight int
	last     time.Time
	drained  chan struct{} // closed when inflight reaches 0 while draining
}

func (a *activity) begin() {
	a.mu.Lock()
	a.inflight++
	a.last = time.Now()
	a.mu.Unlock()
}

func (a *activity) end() {
	a.mu.Lock()
	a.inflight--
	a.last = time.Now()
	if a.inflight == 0 && a.drained != nil {
		close(a.drained)
		a.drained = nil
	}
	a.mu.Unlock()
}

// idleFor is how long the server has had no call in flight.
func (a *activity) idleFor(now time.Time) time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.inflight > 0 {
		return 0
	}
	return now.Sub(a.last)
}

// drain waits until no call is in flight, at most limit.
func (a *activity) drain(limit time.Duration) {
	a.mu.Lock()
	if a.inflight == 0 {
		a.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	a.drained = ch
	a.mu.Unlock()
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}
