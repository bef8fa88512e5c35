//go:build unix

// Command benchhook measures whole-process hook latency: it builds
// zcode-fence and a stdin-reading Go baseline, then runs them as an agent
// host would — one fresh process per tool call, the payload on stdin — and
// prints, from one interleaved run (each round runs every mode once, in a
// rotating order, so machine load falls on all of them alike):
//
//   - baseline: a Go program that reads and decodes stdin and exits;
//   - go-plugin floor: cmd/benchhook/floor, a program that links
//     hashicorp/go-plugin and gRPC, as every hook of this design must,
//     and only reads and decodes stdin — the floor the targets of issue
//     28 are measured against;
//   - start-up only: the zcode-fence binary itself running `version`:
//     process start, the runtime and every package's initialisation, and
//     nothing of the hook's work — the floor any mode of this one binary
//     (which links go-plugin, gRPC, protobuf, the shell parser and the
//     model client) starts from;
//   - inprocess: layer_isolation=inprocess;
//   - process warm: layer_isolation=process reattaching to running warm
//     layer servers (the steady state);
//   - process cold: the first call, which starts the warm servers (they
//     are stopped, untimed, before each such run);
//   - process per-call: layer_idle_timeout=0, a fresh process per layer
//     per call (the process mode before warm layers).
//
// For each: p50, p95, min, max wall time, the hook's CPU time, and the
// peak RSS of the hook process (its own getrusage maxrss). Then the RSS of
// each idle warm server, and a concurrency run: C calls started at once
// (half silent, half asking) per mode, with their p50/p95/max, wrong
// answers, and the calls whose built-in layers fell back to in-process
// judging (from the decision log); first of all the same burst of
// go-plugin floor runs and of start-up-only runs, the floors no mode can
// go below. Every program is built as releases are (CGO_ENABLED=0, static,
// -trimpath, -ldflags=-s -w). Last, the ratios the targets are set in:
// process warm and inprocess p50 over the go-plugin floor's, and the
// burst's p95 with servers up over the floor burst's.
//
//	go run ./cmd/benchhook [-n 40] [-warmup 5] [-c 100] [-payload file.json]
//
// Linux and macOS only.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

// typicalPayload is an everyday agent call: a build-and-test pipeline in
// the project, which every layer must analyse and let pass.
const typicalPayload = `{"session_id":"bench-session","transcript_path":"","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd src && go build ./... 2>&1 | tee build.log && go test ./... -run TestX > test.log","description":"build and test"},"tool_use_id":"toolu_bench"}`

// askPayload is a call the fence asks about (a write outside the
// project), for the concurrency run's other half.
const askPayload = `{"session_id":"bench-session","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo benchmark > /etc/zcode-fence-benchhook"}}`

// baselineSource is the baseline program: read stdin, decode it, exit.
const baselineSource = `package main

import (
	"encoding/json"
	"io"
	"os"
)

func main() {
	b, _ := io.ReadAll(os.Stdin)
	var v map[string]any
	_ = json.Unmarshal(b, &v)
}
`

type mode struct {
	name   string
	bin    string
	args   []string // command-line arguments (none: hook mode)
	floor  bool     // a floor program, not zcode-fence's hook: no answer
	env    []string
	data   string
	before func() // untimed, before each timed run
}

type sample struct {
	wall, cpu time.Duration
	rssKiB    int64
	out       string
}

func main() {
	n := flag.Int("n", 40, "timed runs per mode")
	warmup := flag.Int("warmup", 5, "untimed rounds first")
	conc := flag.Int("c", 100, "calls started at once in the concurrency run (0: skip it)")
	payloadFile := flag.String("payload", "", "payload JSON file (default: a typical Bash call)")
	flag.Parse()

	tmp, err := os.MkdirTemp("", "benchhook")
	check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "zcode-fence")
	build(bin, "./cmd/zcode-fence")
	baseDir := filepath.Join(tmp, "baseline")
	check(os.MkdirAll(baseDir, 0o755))
	check(os.WriteFile(filepath.Join(baseDir, "main.go"), []byte(baselineSource), 0o644))
	check(os.WriteFile(filepath.Join(baseDir, "go.mod"), []byte("module baseline\n\ngo 1.22\n"), 0o644))
	baseBin := filepath.Join(tmp, "baseline-bin")
	buildIn(baseDir, baseBin, ".")
	floorBin := filepath.Join(tmp, "floor")
	build(floorBin, "./cmd/benchhook/floor")

	project := filepath.Join(tmp, "project")
	check(os.MkdirAll(filepath.Join(project, "src"), 0o755))
	payload := []byte(fmt.Sprintf(typicalPayload, project))
	if *payloadFile != "" {
		payload, err = os.ReadFile(*payloadFile)
		check(err)
	}
	st, err := os.Stat(bin)
	check(err)
	fst, err := os.Stat(floorBin)
	check(err)
	fmt.Printf("zcode-fence hook latency: %d runs per mode after %d warm-up rounds, interleaved; %d CPUs, %s/%s, %s, binary %.1f MB (go-plugin floor %.1f MB)\n",
		*n, *warmup, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), float64(st.Size())/1e6, float64(fst.Size())/1e6)
	fmt.Printf("load average at start: %s\n", loadavg())

	newMode := func(name, b string, extra ...string) *mode {
		data := filepath.Join(tmp, "data-"+strings.ReplaceAll(name, " ", "-"))
		check(os.MkdirAll(data, 0o700))
		env := append(os.Environ(),
			"ZCODE_PROJECT_DIR="+project,
			"ZCODE_FENCE_DATA_DIR="+data,
			"ZCODE_FENCE_CONFIG="+filepath.Join(data, "none.json"),
			"ZCODE_FENCE_ENABLE_LOG=false",
		)
		return &mode{name: name, bin: b, env: append(env, extra...), data: data}
	}
	cold := newMode("process cold", bin, "ZCODE_FENCE_LAYER_ISOLATION=process")
	cold.before = func() { stopServers(cold.data) }
	startup := newMode("start-up only", bin)
	startup.args, startup.floor = []string{"version"}, true
	baseline := newMode("baseline", baseBin)
	baseline.floor = true
	goPlugin := newMode("go-plugin floor", floorBin)
	goPlugin.floor = true
	modes := []*mode{
		baseline,
		goPlugin,
		startup,
		newMode("inprocess", bin, "ZCODE_FENCE_LAYER_ISOLATION=inprocess"),
		newMode("process warm", bin, "ZCODE_FENCE_LAYER_ISOLATION=process"),
		cold,
		newMode("process per-call", bin, "ZCODE_FENCE_LAYER_ISOLATION=process", "ZCODE_FENCE_LAYER_IDLE_TIMEOUT=0"),
	}
	defer func() {
		for _, m := range modes {
			stopServers(m.data)
		}
	}()
	samples := map[string][]sample{}
	for round := 0; round < *warmup+*n; round++ {
		for k := range modes {
			m := modes[(round+k)%len(modes)]
			if m.before != nil {
				m.before()
			}
			s := runOnce(m, project, payload)
			if round >= *warmup {
				samples[m.name] = append(samples[m.name], s)
			}
		}
	}
	fmt.Printf("load average at end:   %s\n\n", loadavg())
	p50 := map[string]time.Duration{}
	fmt.Printf("%-17s %9s %9s %9s %9s %9s %10s  %s\n", "mode", "p50 ms", "p95 ms", "min ms", "max ms", "CPU ms", "peak RSS", "answer")
	for _, m := range modes {
		ss := samples[m.name]
		walls := make([]time.Duration, len(ss))
		cpus := make([]time.Duration, len(ss))
		var rss int64
		for i, s := range ss {
			walls[i], cpus[i] = s.wall, s.cpu
			rss = max(rss, s.rssKiB)
		}
		sortDur(walls)
		sortDur(cpus)
		p50[m.name] = pct(walls, 50)
		answer := "silent"
		if out := ss[len(ss)-1].out; m.floor {
			answer = "-"
		} else if out != "" {
			answer = "ask"
		}
		fmt.Printf("%-17s %9.2f %9.2f %9.2f %9.2f %9.2f %6.1f MiB  %s\n", m.name, msOf(pct(walls, 50)), msOf(pct(walls, 95)),
			msOf(walls[0]), msOf(walls[len(walls)-1]), msOf(pct(cpus, 50)), float64(rss)/1024, answer)
	}
	ratio := func(a, b string) float64 { return float64(p50[a]) / float64(p50[b]) }
	fmt.Printf("\nratios of p50: process warm/go-plugin floor %.2f (target <= 1.5); inprocess/go-plugin floor %.2f (target <= 1.3)\n",
		ratio("process warm", "go-plugin floor"), ratio("inprocess", "go-plugin floor"))
	fmt.Printf("also: warm/inprocess %.2f; cold/per-call %.2f; start-up only/go-plugin floor %.2f; inprocess/start-up only %.2f (the hook's own work: %.2f ms of p50)\n",
		ratio("process warm", "inprocess"), ratio("process cold", "process per-call"),
		ratio("start-up only", "go-plugin floor"), ratio("inprocess", "start-up only"), msOf(p50["inprocess"]-p50["start-up only"]))

	// Idle servers: the warm mode's, after its last call.
	for _, m := range modes {
		if m.name == "process warm" {
			for _, pid := range serverPids(m.data) {
				fmt.Printf("idle warm server pid %d: RSS %s\n", pid, rssOf(pid))
			}
		}
	}

	if *conc > 0 {
		fmt.Printf("\n%d calls started at once (half silent, half ask), load average %s\n", *conc, loadavg())
		fmt.Printf("%-28s %9s %9s %9s %7s %9s %8s\n", "mode", "p50 ms", "p95 ms", "max ms", "wrong", "fallback", "servers")
		pluginFloor := newMode("burst go-plugin floor", floorBin)
		pluginFloor.floor = true
		floorP95 := burst(pluginFloor, project, *conc, false)
		floor := newMode("burst start-up only", bin)
		floor.args, floor.floor = startup.args, true
		burst(floor, project, *conc, false)
		var warmP95 time.Duration
		for _, c := range []struct {
			name  string
			extra []string
			warm  bool // servers running before the burst
		}{
			{"inprocess", []string{"ZCODE_FENCE_LAYER_ISOLATION=inprocess"}, false},
			{"process warm, from cold", []string{"ZCODE_FENCE_LAYER_ISOLATION=process"}, false},
			{"process warm, servers up", []string{"ZCODE_FENCE_LAYER_ISOLATION=process"}, true},
			{"process per-call", []string{"ZCODE_FENCE_LAYER_ISOLATION=process", "ZCODE_FENCE_LAYER_IDLE_TIMEOUT=0"}, false},
		} {
			m := newMode("burst "+c.name, bin, append([]string{"ZCODE_FENCE_ENABLE_LOG=true"}, c.extra...)...)
			p95 := burst(m, project, *conc, c.warm)
			if c.warm {
				warmP95 = p95
			}
			stopServers(m.data)
		}
		fmt.Printf("\nratio of p95, %d at once: process warm (servers up)/go-plugin floor %.2f (target <= 1.5)\n",
			*conc, float64(warmP95)/float64(floorP95))
	}
}

// burst starts c calls at once in mode m, reports them and returns their
// p95.
func burst(m *mode, project string, c int, warmFirst bool) time.Duration {
	silent := []byte(fmt.Sprintf(typicalPayload, project))
	ask := []byte(fmt.Sprintf(askPayload, project))
	if warmFirst {
		runOnce(m, project, silent)
	}
	before := len(readLog(m.data))
	walls := make([]time.Duration, c)
	wrong := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < c; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, want := silent, ""
			if i%2 == 1 {
				p, want = ask, "ask"
			}
			<-start
			s := runOnce(m, project, p)
			got := ""
			if s.out != "" {
				got = "ask"
			}
			if m.floor { // not a hook call: no answer to check
				got = want
			}
			mu.Lock()
			walls[i] = s.wall
			if got != want {
				wrong++
			}
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	fallback := 0
	recs := readLog(m.data)
	for _, r := range recs[min(before, len(recs)):] {
		for _, e := range r.Errors {
			if strings.Contains(e, "judged in-process instead") {
				fallback++
				break
			}
		}
	}
	if got := len(recs) - before; got != c && !m.floor {
		fmt.Printf("  (%d log records for %d calls)\n", got, c)
	}
	sortDur(walls)
	fmt.Printf("%-28s %9.1f %9.1f %9.1f %7d %9d %8d\n", strings.TrimPrefix(m.name, "burst "), msOf(pct(walls, 50)), msOf(pct(walls, 95)),
		msOf(walls[len(walls)-1]), wrong, fallback, len(serverPids(m.data)))
	return pct(walls, 95)
}

// runOnce runs one hook call in mode m.
func runOnce(m *mode, project string, payload []byte) sample {
	var out bytes.Buffer
	cmd := exec.Command(m.bin, m.args...)
	cmd.Env, cmd.Dir = m.env, project
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stdout = &out
	t0 := time.Now()
	check(cmd.Run())
	s := sample{wall: time.Since(t0), out: strings.TrimSpace(out.String())}
	s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssKiB = int64(ru.Maxrss) // KiB on Linux
		if runtime.GOOS == "darwin" {
			s.rssKiB /= 1024 // bytes on macOS
		}
	}
	return s
}

func runDir(data string) string {
	d, err := layerproto.RunDir(data)
	if err != nil {
		return ""
	}
	return d
}

// stopServers stops a data dir's warm servers and waits for them to go.
func stopServers(data string) {
	if d := runDir(data); d != "" {
		layerproto.StopWarm(d, 5*time.Second)
	}
}

// serverPids lists the pids of a data dir's warm-server records.
func serverPids(data string) []int {
	d := runDir(data)
	entries, _ := os.ReadDir(d)
	var pids []int
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d, e.Name()))
		if err != nil {
			continue
		}
		var r struct{ Pid int }
		if json.Unmarshal(b, &r) == nil && r.Pid > 0 {
			pids = append(pids, r.Pid)
		}
	}
	sort.Ints(pids)
	return pids
}

// rssOf reads a process's resident set (Linux /proc; elsewhere ps).
func rssOf(pid int) string {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		out, err := exec.Command("ps", "-o", "rss=", "-p", fmt.Sprint(pid)).Output()
		if err != nil {
			return "?"
		}
		return strings.TrimSpace(string(out)) + " KiB"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func readLog(data string) []decisionlog.Record {
	recs, _, _ := decisionlog.Read(data)
	return recs
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		out, err := exec.Command("uptime").Output()
		if err != nil {
			return "?"
		}
		return strings.TrimSpace(string(out))
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func build(out, pkg string) { buildIn("", out, pkg) }

// buildIn builds pkg in dir as releases are built: static (CGO_ENABLED=0;
// a cgo build loads the C library and its dynamic linker at every start),
// without paths, symbols or debug information.
func buildIn(dir, out, pkg string) {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	check(cmd.Run())
}

func sortDur(d []time.Duration) { sort.Slice(d, func(i, j int) bool { return d[i] < d[j] }) }

func pct(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return sorted[i-1]
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchhook:", err)
		os.Exit(1)
	}
}
