//go:build unix

// Command benchhook measures whole-process hook latency: it builds
// zcode-fence, then runs it as an agent host would — one fresh process per
// tool call, the payload on stdin — and prints p50/p95 wall time and peak
// memory for layer_isolation=process and inprocess.
//
//	go run ./cmd/benchhook [-n 60] [-warmup 5] [-payload file.json]
//
// Peak RSS is the largest resident set of any process of a mode (the host
// or one of its layer processes), read from getrusage(RUSAGE_CHILDREN) in a
// worker process that runs only that mode. Linux and macOS only.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// typicalPayload is an everyday agent call: a build-and-test pipeline in
// the project, which every layer must analyse and let pass.
const typicalPayload = `{"session_id":"bench-session","transcript_path":"","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cd src && go build ./... 2>&1 | tee build.log && go test ./... -run TestX > test.log","description":"build and test"},"tool_use_id":"toolu_bench"}`

func main() {
	n := flag.Int("n", 60, "timed runs per mode")
	warmup := flag.Int("warmup", 5, "untimed runs per mode first")
	payloadFile := flag.String("payload", "", "payload JSON file (default: a typical Bash call)")
	worker := flag.String("worker", "", "internal: run one mode with this binary")
	mode := flag.String("mode", "", "internal: the worker's mode")
	flag.Parse()

	if *worker != "" {
		os.Exit(runWorker(*worker, *mode, *n, *warmup, *payloadFile))
	}

	tmp, err := os.MkdirTemp("", "benchhook")
	check(err)
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "zcode-fence")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/zcode-fence")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	check(build.Run())
	st, err := os.Stat(bin)
	check(err)
	fmt.Printf("zcode-fence hook latency, %d runs per mode after %d warm-ups, %d CPUs, %s/%s, binary %.1f MB\n",
		*n, *warmup, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, float64(st.Size())/1e6)
	self, err := os.Executable()
	check(err)
	for _, m := range []string{"process", "inprocess"} {
		args := []string{"-worker", bin, "-mode", m, "-n", strconv.Itoa(*n), "-warmup", strconv.Itoa(*warmup)}
		if *payloadFile != "" {
			args = append(args, "-payload", *payloadFile)
		}
		cmd := exec.Command(self, args...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		check(cmd.Run())
	}
}

func runWorker(bin, mode string, n, warmup int, payloadFile string) int {
	project, err := os.MkdirTemp("", "benchproj")
	check(err)
	defer os.RemoveAll(project)
	data, err := os.MkdirTemp("", "benchdata")
	check(err)
	defer os.RemoveAll(data)
	payload := []byte(fmt.Sprintf(typicalPayload, project))
	if payloadFile != "" {
		payload, err = os.ReadFile(payloadFile)
		check(err)
	}
	env := append(os.Environ(),
		"ZCODE_PROJECT_DIR="+project,
		"ZCODE_FENCE_DATA_DIR="+data,
		"ZCODE_FENCE_CONFIG="+filepath.Join(data, "none.json"),
		"ZCODE_FENCE_LAYER_ISOLATION="+mode,
	)
	var times []time.Duration
	var out bytes.Buffer
	for i := 0; i < warmup+n; i++ {
		out.Reset()
		cmd := exec.Command(bin)
		cmd.Env = env
		cmd.Dir = project
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Stdout = &out
		t0 := time.Now()
		check(cmd.Run())
		d := time.Since(t0)
		if i >= warmup {
			times = append(times, d)
		}
	}
	answer := "silent"
	if out.Len() > 0 {
		answer = strings.TrimSpace(out.String())
	}
	var ru syscall.Rusage
	check(syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru))
	rss := float64(ru.Maxrss) / 1024 // KiB on Linux
	if runtime.GOOS == "darwin" {
		rss = float64(ru.Maxrss) / (1 << 20) // bytes on macOS
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Printf("  %-10s p50 %6.2f ms   p95 %6.2f ms   min %6.2f ms   max %7.2f ms   peak RSS %5.1f MiB   answer: %s\n",
		mode, msOf(pct(times, 50)), msOf(pct(times, 95)), msOf(times[0]), msOf(times[len(times)-1]), rss, answer)
	return 0
}

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
