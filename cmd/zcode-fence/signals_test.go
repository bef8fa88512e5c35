//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestSignalsLeaveNothing runs 100 hooks in process isolation with
// per-call layer processes; 10 of them get SIGTERM and 10 SIGKILL at
// different moments of the call (before the runtime is up, while reading,
// while the layers judge). A signalled hook cancels its call and removes
// its layers' socket dir before it exits; a killed one cannot, so its
// layer processes notice their host is gone and exit, and the next call
// sweeps the socket dir it left. After one more ordinary call: no process
// runs from the binary's directory, the hooks' TMPDIR is empty and the
// run dir holds no per-process dir (c<PID>, s<PID>).
func TestSignalsLeaveNothing(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	binDir, self := binaryCopy(t, s)
	testRoots.Store(binDir, struct{}{})
	tmp := freshTempDir(t)
	cfg := writeConfig(t, s.configs, "signals", map[string]any{})
	env := s.hookEnv(cfg, "process", tmp)
	payloads := [][]byte{
		s.bashCall("rm -rf /"),
		s.bashCall("ls -la src && go test ./..."),
		hookPayload("Write", "/etc/zcode-fence-signals", s.project, "signals-session", true),
		s.bashCall("git push --force origin main"),
	}
	delays := []time.Duration{0, 2 * time.Millisecond, 10 * time.Millisecond, 30 * time.Millisecond, 80 * time.Millisecond}
	const calls = 100
	signalled := make([]syscall.Signal, calls)
	for i := range signalled {
		switch i % 10 {
		case 3:
			signalled[i] = syscall.SIGTERM
		case 7:
			signalled[i] = syscall.SIGKILL
		}
	}
	errs := make([]error, calls)
	parallelDo(calls, func(i int) {
		p := payloads[i%len(payloads)]
		if signalled[i] == 0 {
			_, errs[i] = execHookWith(self, env, s.project, p)
			return
		}
		cmd := exec.Command(self)
		cmd.Env, cmd.Dir = env, s.project
		in, err := stdinHolding(p)
		if err != nil {
			errs[i] = err
			return
		}
		defer in.Close()
		cmd.Stdin = in
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			errs[i] = err
			return
		}
		time.Sleep(delays[(i/10)%len(delays)])
		_ = cmd.Process.Signal(signalled[i])
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(hookLimit):
			_ = cmd.Process.Kill()
			<-done
			errs[i] = &os.PathError{Op: "wait", Path: self, Err: os.ErrDeadlineExceeded}
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Fatalf("call %d (signal %v): %v", i, signalled[i], err)
		}
	}
	t.Logf("before the final call the run dir holds %v", runDirEntries(t, s.data))
	// One ordinary call: its sweep removes what the killed hooks left.
	if r, err := execHookWith(self, env, s.project, s.bashCall("ls")); err != nil {
		t.Fatalf("final call: %v", err)
	} else if got, detail := checkAnswer(r); got != "silent" && !outOfTime(detail) {
		t.Fatalf("final call: %s (%s)", got, detail)
	}
	checkNoneLeft(t, binDir, tmp)
	for _, name := range runDirEntries(t, s.data) {
		if len(name) > 1 && (name[0] == 'c' || name[0] == 's') {
			if _, err := strconv.Atoi(name[1:]); err == nil {
				t.Errorf("run dir still holds %s after the calls", name)
			}
		}
	}
}
