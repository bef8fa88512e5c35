package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// simBatchWorkers is how many sim batch processes the golden test keeps:
// one per core of the 2-core machines the suite runs on, and a third to
// overlap a call's waits (log append, warm-server reattach) with work.
const simBatchWorkers = 3

// goldenExecEvery: besides the first call of each environment, every
// goldenExecEvery-th distinct call also runs as a real hook process.
const goldenExecEvery = 64

// simBatchProc is one running sim batch (batch_zcodefence_sim.go): a
// binary built with the zcodefence_sim tag that judges hook calls one
// after another, each through the same function main runs for a hook.
type simBatchProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	enc    *json.Encoder
	dec    *json.Decoder
	stderr bytes.Buffer
}

// simBatches is a set of batch processes; do hands each one goroutine.
type simBatches []*simBatchProc

// startSimBatches starts n batch processes of bin in dir, with nothing in
// their environment but PATH (each request brings the call's whole
// environment). They are stopped, and their own stderr checked empty, at
// the end of the test.
func startSimBatches(t *testing.T, bin, dir string, n int) simBatches {
	t.Helper()
	var out simBatches
	for range n {
		b := &simBatchProc{cmd: exec.Command(bin, simBatchArg)}
		b.cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		b.cmd.Dir = dir
		b.cmd.Stderr = &b.stderr
		in, err := b.cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		outPipe, err := b.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := b.cmd.Start(); err != nil {
			t.Fatalf("starting the sim batch: %v", err)
		}
		b.stdin, b.enc, b.dec = in, json.NewEncoder(in), json.NewDecoder(bufio.NewReader(outPipe))
		out = append(out, b)
		t.Cleanup(func() {
			_ = b.stdin.Close()
			if err := b.cmd.Wait(); err != nil {
				t.Errorf("sim batch: %v\n%s", err, b.stderr.String())
			} else if b.stderr.Len() != 0 {
				t.Errorf("sim batch wrote to its own stderr (outside any call): %q", b.stderr.String())
			}
		})
	}
	return out
}

// do runs f(b, 0..n-1), each batch process taking the next index when it
// is free, and waits.
func (bs simBatches) do(n int, f func(b *simBatchProc, i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for _, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(b, i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// call judges one payload in the batch process with the hook's whole
// environment env and working directory dir, and returns what the call
// wrote and its exit code, as execHookWith does for a real process.
func (b *simBatchProc) call(env []string, dir string, stdin []byte) (runResult, error) {
	req := struct {
		Env   []string `json:"env"`
		Dir   string   `json:"dir"`
		Stdin []byte   `json:"stdin"`
	}{env, dir, stdin}
	if err := b.enc.Encode(req); err != nil {
		return runResult{}, fmt.Errorf("sim batch: sending the call: %v (its stderr is reported at the end)", err)
	}
	var resp struct {
		Code   int    `json:"code"`
		Stdout []byte `json:"stdout"`
		Stderr []byte `json:"stderr"`
		Err    string `json:"err"`
	}
	if err := b.dec.Decode(&resp); err != nil {
		return runResult{}, fmt.Errorf("sim batch: reading the answer: %v (its stderr is reported at the end)", err)
	}
	if resp.Err != "" {
		return runResult{}, fmt.Errorf("sim batch: %s", resp.Err)
	}
	return runResult{stdout: resp.Stdout, stderr: resp.Stderr, code: resp.Code, peakRSS: -1}, nil
}
