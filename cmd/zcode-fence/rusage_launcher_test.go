package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rssLauncherEnv switches the test binary into rssLauncher mode (TestMain):
// its value is the hook executable to run.
const rssLauncherEnv = "ZCODE_FENCE_TEST_RSS_LAUNCHER"

// rssLauncher runs exe with this process's stdin, stdout and stderr (file
// descriptors passed on, nothing copied), waits, and reports the child's
// exit code and peak RSS on fd 3 as "CODE RSS". It is a small process, so
// the RSS the child inherits at exec (Linux counts the exec'ing process's
// high-water mark) is small too.
func rssLauncher(exe string) int {
	report := os.NewFile(3, "report")
	cmd := exec.Command(exe)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, rssLauncherEnv+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "rss launcher:", err)
		return 111
	}
	fmt.Fprintf(report, "%d %d\n", code, peakRSS(cmd.ProcessState))
	return 0
}

// execHookMeasured runs the hook through rssLauncher with stdin from a
// file, and returns its answer with the hook's own peak RSS.
func execHookMeasured(t *testing.T, env []string, dir string, stdin []byte) (runResult, error) {
	t.Helper()
	in := filepath.Join(t.TempDir(), "stdin.json")
	if err := os.WriteFile(in, stdin, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self)
	cmd.Env = append(append([]string{}, env...), rssLauncherEnv+"="+hookBinary())
	cmd.Dir, cmd.Stdin = dir, f
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.ExtraFiles = []*os.File{pw}
	t0 := time.Now()
	runErr := cmd.Run()
	pw.Close()
	var report bytes.Buffer
	_, _ = report.ReadFrom(pr)
	pr.Close()
	res := runResult{stdout: out.Bytes(), stderr: errb.Bytes(), took: time.Since(t0), peakRSS: -1}
	if runErr != nil {
		return res, fmt.Errorf("rss launcher: %v: %s", runErr, errb.Bytes())
	}
	fields := strings.Fields(report.String())
	if len(fields) != 2 {
		return res, fmt.Errorf("rss launcher reported %q", report.String())
	}
	res.code, _ = strconv.Atoi(fields[0])
	res.peakRSS, _ = strconv.ParseInt(fields[1], 10, 64)
	return res, nil
}
