//go:build unix

package layerproto

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/integrity"
)

// The warm tests run real processes: the test binary serves as the layer
// (mode "serve"), started detached by Launch with cfg.Warm. Every test
// stops the servers of its run dir when it ends, and waits for nothing by
// the clock except the conditions it checks (a process gone, a file
// removed), polled up to a generous deadline.

// warmDir makes a private run dir for one test and stops its servers at
// the end.
func warmDir(t *testing.T) string {
	t.Helper()
	dir, err := RunDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, left := StopWarm(dir, 10*time.Second); len(left) > 0 {
			t.Errorf("warm servers %v still running after SIGTERM", left)
		}
	})
	return dir
}

func warmConfig(t testing.TB, exe, runDir string, idle time.Duration) LaunchConfig {
	return LaunchConfig{
		Name:         "warm-test",
		Path:         exe,
		Env:          []string{modeEnv + "=serve"},
		StartTimeout: testStartTimeout,
		Warm:         &Warm{RunDir: runDir, Idle: idle},
	}
}

// warmLaunch launches cfg, checks that it answers a call, closes it and
// returns how it was reached and the server's pid.
func warmLaunch(t *testing.T, cfg LaunchConfig) (string, int) {
	t.Helper()
	c, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	defer c.Close()
	v, err := decide(t, c, "probe", testStartTimeout)
	if err != nil {
		t.Fatalf("decide: %v", err)
	}
	if got := v.Annotations["pid"]; got != strconv.Itoa(c.Pid()) {
		t.Fatalf("the call was judged by process %s, the client says %d", got, c.Pid())
	}
	return c.Warm(), c.Pid()
}

// waitGone waits until pid has exited (up to 20 s).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); processAlive(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// runEntries lists dir, sorted.
func runEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// servers lists the s<PID> dirs and records in dir.
func servers(t *testing.T, dir string) (sockDirs, records []string) {
	for _, n := range runEntries(t, dir) {
		switch {
		case strings.HasPrefix(n, "s"):
			sockDirs = append(sockDirs, n)
		case strings.HasSuffix(n, recordSuffix):
			records = append(records, n)
		}
	}
	return sockDirs, records
}

func TestWarmReattachAcrossLaunches(t *testing.T) {
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	how, pid := warmLaunch(t, cfg)
	if how != WarmStarted {
		t.Fatalf("first launch: %q, want %q", how, WarmStarted)
	}
	for i := 0; i < 3; i++ {
		how2, pid2 := warmLaunch(t, cfg)
		if how2 != WarmReattached || pid2 != pid {
			t.Fatalf("launch %d: %q pid %d, want %q pid %d", i+2, how2, pid2, WarmReattached, pid)
		}
	}
	// The record is private and says how to reach the server.
	sockDirs, records := servers(t, dir)
	if len(records) != 1 || len(sockDirs) != 1 || sockDirs[0] != "s"+strconv.Itoa(pid) {
		t.Fatalf("run dir holds %v", runEntries(t, dir))
	}
	fi, err := os.Stat(filepath.Join(dir, records[0]))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v, want 0600", fi.Mode().Perm())
	}
	if di, err := os.Stat(dir); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("run dir mode %v (%v), want 0700", di.Mode().Perm(), err)
	}
	r, err := readRecord(filepath.Join(dir, records[0]))
	if err != nil {
		t.Fatal(err)
	}
	sum, _, err := integrity.HashFile(selfPath(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Pid != pid || r.SHA256 != sum || r.Protocol != "grpc" || r.ProtocolVersion != ProtocolVersion || r.Network != "unix" || r.UID != os.Getuid() {
		t.Errorf("record %+v", r)
	}
}

func TestWarmStartRaceStartsOneServer(t *testing.T) {
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	const n = 24
	pids := make([]int, n)
	hows := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := Launch(context.Background(), cfg)
			if err != nil {
				t.Errorf("launch %d: %v", i, err)
				return
			}
			defer c.Close()
			if _, err := decide(t, c, "x", testStartTimeout); err != nil {
				t.Errorf("decide %d: %v", i, err)
			}
			pids[i], hows[i] = c.Pid(), c.Warm()
		}()
	}
	wg.Wait()
	started := 0
	for i := range pids {
		if hows[i] == WarmStarted {
			started++
		}
		if pids[i] != pids[0] {
			t.Errorf("launch %d reached pid %d, launch 0 pid %d", i, pids[i], pids[0])
		}
	}
	if started != 1 {
		t.Errorf("%d launches started a server, want 1 (%v)", started, hows)
	}
	if sockDirs, records := servers(t, dir); len(sockDirs) != 1 || len(records) != 1 {
		t.Errorf("run dir holds %v, want one server", runEntries(t, dir))
	}
}

func TestWarmKilledServerIsReplaced(t *testing.T) {
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	_, pid := warmLaunch(t, cfg)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	how, pid2 := warmLaunch(t, cfg)
	if how != WarmStarted || pid2 == pid {
		t.Fatalf("after SIGKILL: %q pid %d (old %d), want a fresh server", how, pid2, pid)
	}
	// The dead server's socket dir is swept.
	Sweep(dir)
	sockDirs, records := servers(t, dir)
	if len(records) != 1 || len(sockDirs) != 1 || sockDirs[0] != "s"+strconv.Itoa(pid2) {
		t.Errorf("run dir holds %v", runEntries(t, dir))
	}
}

func TestWarmReplacedBinaryIsNotReattached(t *testing.T) {
	dir := warmDir(t)
	exe := filepath.Join(t.TempDir(), "layer")
	data, err := os.ReadFile(selfPath(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := warmConfig(t, exe, dir, time.Minute)
	_, pid := warmLaunch(t, cfg)
	// Another build at the same path: other bytes, another file.
	next := filepath.Join(filepath.Dir(exe), "layer.next")
	if err := os.WriteFile(next, append(data, []byte("other build")...), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, exe); err != nil {
		t.Fatal(err)
	}
	how, pid2 := warmLaunch(t, cfg)
	if how != WarmStarted || pid2 == pid {
		t.Fatalf("after the binary changed: %q pid %d (old %d), want a fresh server", how, pid2, pid)
	}
	// The old server is gone (it watches its executable, and the stale
	// record's server is stopped).
	waitGone(t, pid)
}

func TestWarmRecordWithOtherHashIsStale(t *testing.T) {
	dir := warmDir(t)
	exe := selfPath(t)
	fi, err := os.Stat(exe)
	if err != nil {
		t.Fatal(err)
	}
	r := &record{Exe: exe, UID: os.Getuid(), Protocol: "grpc", ProtocolVersion: ProtocolVersion, Network: "unix",
		Pid: os.Getpid(), ExeID: "another-file", SHA256: strings.Repeat("0", 64)}
	err = checkRecord(r, expect{path: exe, exeID: fileIdentity(fi), runDir: dir})
	var st *stale
	if !errors.As(err, &st) || !strings.Contains(err.Error(), "sha256 differs") {
		t.Fatalf("checkRecord = %v, want a stale record (sha256 differs)", err)
	}
	// A pin that differs is stale even when the file looks unchanged.
	r.ExeID = fileIdentity(fi)
	err = checkRecord(r, expect{path: exe, exeID: fileIdentity(fi), pinned: strings.Repeat("1", 64), runDir: dir})
	if !errors.As(err, &st) {
		t.Fatalf("checkRecord with another pin = %v, want stale", err)
	}
	// Another user's record, a dead pid, another protocol.
	for name, mut := range map[string]func(*record){
		"uid":      func(r *record) { r.UID++ },
		"pid":      func(r *record) { r.Pid = deadPid(t) },
		"protocol": func(r *record) { r.ProtocolVersion = 2 },
	} {
		c := *r
		mut(&c)
		if err := checkRecord(&c, expect{path: exe, exeID: c.ExeID, runDir: dir}); !errors.As(err, &st) {
			t.Errorf("%s: checkRecord = %v, want stale", name, err)
		}
	}
}

// deadPid returns the pid of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(selfPath(t))
	cmd.Env = append(os.Environ(), modeEnv+"=exit-early")
	_ = cmd.Run()
	return cmd.Process.Pid
}

func TestWarmIdleExitRemovesEverything(t *testing.T) {
	dir := warmDir(t)
	// Idle long enough that a loaded machine's gap between the handshake
	// and the first call (Describe) does not end the server first.
	cfg := warmConfig(t, selfPath(t), dir, 2*time.Second)
	_, pid := warmLaunch(t, cfg)
	// The launcher's own c<PID> dir (where go-plugin made the start's
	// socket dir) goes when its call is done, as the host's does.
	RemoveCallDirs()
	waitGone(t, pid)
	for _, n := range runEntries(t, dir) {
		if !strings.HasSuffix(n, lockSuffix) && n != exeHashName {
			t.Errorf("left in the run dir after the idle exit: %s", n)
		}
	}
}

func TestWarmSIGTERMRemovesEverything(t *testing.T) {
	dir := warmDir(t)
	_, pid := warmLaunch(t, warmConfig(t, selfPath(t), dir, time.Minute))
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	if s, r := servers(t, dir); len(s)+len(r) > 0 {
		t.Errorf("left after SIGTERM: %v %v", s, r)
	}
}

func TestWarmServerRefusesAnotherPeer(t *testing.T) {
	dir := warmDir(t)
	_, pid := warmLaunch(t, warmConfig(t, selfPath(t), dir, time.Minute))
	_, records := servers(t, dir)
	r, err := readRecord(filepath.Join(dir, records[0]))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("unix", r.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The client side checks the server's pid: a record naming another
	// process is refused at the handshake.
	if _, _, err := (peerCheck{pid: pid + 1}).ClientHandshake(context.Background(), "", conn); err == nil || !errors.Is(err, errPeer) {
		t.Errorf("handshake with the wrong pid: %v, want a peer-credentials error", err)
	}
	conn2, err := net.Dial("unix", r.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn2.Close()
	if _, info, err := (peerCheck{pid: pid}).ClientHandshake(context.Background(), "", conn2); err != nil {
		t.Errorf("handshake with the right pid: %v", err)
	} else if pi := info.(peerInfo); pi.UID != os.Getuid() || pi.PID != pid {
		t.Errorf("peer %+v, want uid %d pid %d", pi, os.Getuid(), pid)
	}
}

func TestSweepRemovesWhatDeadProcessesLeft(t *testing.T) {
	dir, err := RunDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dead := deadPid(t)
	live := os.Getppid()
	for _, d := range []string{"c" + strconv.Itoa(dead), "s" + strconv.Itoa(dead), "c" + strconv.Itoa(live)} {
		if err := os.MkdirAll(filepath.Join(dir, d, "plugin-dir1"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	rec, _ := json.Marshal(record{Pid: dead})
	if err := os.WriteFile(filepath.Join(dir, "gone-0"+recordSuffix), rec, 0o600); err != nil {
		t.Fatal(err)
	}
	if n := Sweep(dir); n != 3 {
		t.Errorf("Sweep removed %d entries, want 3", n)
	}
	if got := runEntries(t, dir); len(got) != 1 || got[0] != "c"+strconv.Itoa(live) {
		t.Errorf("after Sweep: %v, want only the live process's dir", got)
	}
}

func TestRunDirRefusesASharedDir(t *testing.T) {
	data := t.TempDir()
	if err := os.Mkdir(filepath.Join(data, RunDirName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := RunDir(data); err == nil || !strings.Contains(err.Error(), "accessible to others") {
		t.Errorf("RunDir on a 0755 dir: %v, want a refusal", err)
	}
}

// TestWarmReattachGivesUpOnAStoppedServer: a server that cannot answer in
// time (stopped here; on a loaded machine, not scheduled) makes the call
// give up within its context — no panic, no kill of the shared server,
// its record kept — and once it runs again the next call reattaches to
// the same server.
// TestWarmStoppedServerIsReplaced (issue 27 item 7): a warm server that
// was stopped (pkill -STOP) would answer no call, and every call would
// wait for its deadline and fall back; instead the next launch finds it
// stopped, abandons it (its record removed; SIGTERM, then SIGCONT so that
// it exits) and starts a fresh server, which the launch after reattaches
// to.
func TestWarmStoppedServerIsReplaced(t *testing.T) {
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	_, pid := warmLaunch(t, cfg)
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGCONT) // whatever happens, never leave it stopped
	waitStopped(t, pid)
	how, pid2 := warmLaunch(t, cfg)
	if how != WarmStarted || pid2 == pid {
		t.Fatalf("with server %d stopped: %q pid %d, want a fresh server", pid, how, pid2)
	}
	waitGone(t, pid)
	how, pid3 := warmLaunch(t, cfg)
	if how != WarmReattached || pid3 != pid2 {
		t.Fatalf("the launch after: %q pid %d, want reattached to %d", how, pid3, pid2)
	}
	Sweep(dir)
	if sockDirs, records := servers(t, dir); len(records) != 1 || len(sockDirs) != 1 || sockDirs[0] != "s"+strconv.Itoa(pid2) {
		t.Errorf("run dir holds %v", runEntries(t, dir))
	}
}

// TestWarmServerStoppedDuringACallIsAbandoned: a server stopped after a
// call reattached to it misses that call's deadline; the client finds it
// stopped and abandons it, so the next launch starts a fresh server. A
// server that is only slow keeps its record (TestWarmSlowServerIsKept).
func TestWarmServerStoppedDuringACallIsAbandoned(t *testing.T) {
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	_, pid := warmLaunch(t, cfg)
	c, err := Launch(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Warm() != WarmReattached || c.Pid() != pid {
		t.Fatalf("%q pid %d, want reattached to %d", c.Warm(), c.Pid(), pid)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(pid, syscall.SIGCONT)
	waitStopped(t, pid)
	// The deadline ends the call whatever the load: the server is stopped.
	if _, err := decide(t, c, "probe", 200*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("decide on a stopped server: err = %v, want its deadline", err)
	}
	waitGone(t, pid)
	how, pid2 := warmLaunch(t, cfg)
	if how != WarmStarted || pid2 == pid {
		t.Fatalf("after the stopped server: %q pid %d, want a fresh server", how, pid2)
	}
}

// TestWarmSlowServerIsKept: a reattach that runs out of time while the
// server is running (here: the caller's deadline has passed before the
// handshake could be made) is slowness, not a broken server: the record
// stays and the next launch reattaches.
func TestWarmSlowServerIsKept(t *testing.T) {
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	_, pid := warmLaunch(t, cfg)
	l, err := resolve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c := newWarmTarget(l).try(ctx); c != nil {
		c.Close()
		t.Fatal("a reattach with its context ended succeeded")
	}
	if _, records := servers(t, dir); len(records) != 1 {
		t.Fatalf("the record of a running server was removed: %v", runEntries(t, dir))
	}
	how, pid2 := warmLaunch(t, cfg)
	if how != WarmReattached || pid2 != pid {
		t.Fatalf("%q pid %d, want reattached to %d", how, pid2, pid)
	}
}

// waitStopped waits until the process pid is in the stopped state: kill
// returns once SIGSTOP is queued, and a loaded machine can let the
// process answer one more handshake before it stops. Where /proc does not
// exist (not Linux) it returns at once.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	stat := filepath.Join("/proc", strconv.Itoa(pid), "stat")
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(stat)
		if err != nil {
			return
		}
		// the state is the field after the parenthesised command name
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'T' {
			return
		}
	}
	t.Fatalf("process %d did not stop within 30 s of SIGSTOP", pid)
}
