//go:build zcodefence_sim

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
)

// The sim batch lets the golden test judge thousands of hook calls without
// starting a process per call. It exists only in a binary built with the
// test-only zcodefence_sim tag (release builds do not contain this file,
// and main ignores simBatchArg when simBatch is nil).
//
// Each request is handled by mainRun with no arguments — exactly what main
// runs for a hook call — after the process is made to look like a fresh
// hook process for that call:
//   - the environment is replaced by the request's (os.Clearenv, then each
//     variable), so config.OSEnv, paths.Native (and its simulated OS),
//     os.TempDir and the host detection read this call's values;
//   - the working directory is the request's;
//   - stdin is a pipe that carries the payload and then EOF, as exec gives
//     a hook; stdout and stderr are fresh pipes, and os.Stdin, os.Stdout
//     and os.Stderr point at them for the call, so a write to the process's
//     streams from anywhere in the call is captured with it;
//   - no per-call socket dir of a previous call is left: mainRun removes
//     them (layerproto.RemoveCallDirs) at the end of every call, so
//     finishLaunches sweeps only this call's run dirs, as in a new process.
//
// Per-process state that survives between calls, and why it cannot change
// an answer: the parsed tables (sync.OnceValue), the bash parser and danger
// judge pools, the custom-rules cache (keyed by the rules' text) and the
// self-hash cache (keyed by path and file identity) — all of them are also
// shared by the many calls one warm layer server answers in production.
// The PID (decision-log records, c<PID> call dirs) is the same for all the
// calls of one batch process; call dirs are removed after each call.
//
// Process-level properties a batch cannot show — a real process's exit
// status, its stderr from start to exit, and the ask line it writes — are
// checked by the golden test on a sample of real executions and by the
// table tests that exec the binary.

func init() { simBatch = runSimBatch }

// simRequest is one hook call: the whole environment, the working
// directory and the bytes on stdin.
type simRequest struct {
	Env   []string `json:"env"`
	Dir   string   `json:"dir"`
	Stdin []byte   `json:"stdin"`
}

// simResponse is what the call produced: its exit code and the bytes it
// wrote to stdout and stderr. Err is set when the batch could not set the
// call up (the call did not run).
type simResponse struct {
	Code   int    `json:"code"`
	Stdout []byte `json:"stdout"`
	Stderr []byte `json:"stderr"`
	Err    string `json:"err,omitempty"`
}

// runSimBatch reads one JSON request a line from requests and writes one
// JSON response a line to responses, in order, until EOF. It returns 1 if
// a request does not decode.
func runSimBatch(requests io.Reader, responses io.Writer) int {
	in := bufio.NewReaderSize(requests, 1<<20)
	dec := json.NewDecoder(in)
	out := bufio.NewWriter(responses)
	enc := json.NewEncoder(out)
	realErr := os.Stderr
	for {
		var req simRequest
		if err := dec.Decode(&req); err == io.EOF {
			return 0
		} else if err != nil {
			fmt.Fprintf(realErr, "zcode-fence sim batch: request: %v\n", err)
			return 1
		}
		resp := simCall(req)
		if err := enc.Encode(resp); err != nil {
			fmt.Fprintf(realErr, "zcode-fence sim batch: response: %v\n", err)
			return 1
		}
		if err := out.Flush(); err != nil {
			return 1
		}
	}
}

// simCall runs one hook call in this process (see the file comment).
func simCall(req simRequest) (resp simResponse) {
	saved := [3]*os.File{os.Stdin, os.Stdout, os.Stderr}
	defer func() { os.Stdin, os.Stdout, os.Stderr = saved[0], saved[1], saved[2] }()

	os.Clearenv()
	for _, kv := range req.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return simResponse{Err: fmt.Sprintf("environment entry %q has no '='", kv)}
		}
		if err := os.Setenv(k, v); err != nil {
			return simResponse{Err: err.Error()}
		}
	}
	if err := os.Chdir(req.Dir); err != nil {
		return simResponse{Err: err.Error()}
	}

	inR, inW, err := os.Pipe()
	if err != nil {
		return simResponse{Err: err.Error()}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return simResponse{Err: err.Error()}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return simResponse{Err: err.Error()}
	}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		_, _ = inW.Write(req.Stdin)
		_ = inW.Close()
	}()
	var stdout, stderr []byte
	go func() { defer wg.Done(); stdout, _ = io.ReadAll(outR) }()
	go func() { defer wg.Done(); stderr, _ = io.ReadAll(errR) }()

	os.Stdin, os.Stdout, os.Stderr = inR, outW, errW
	resp.Code = mainRun(nil, inR, outW, errW)
	os.Stdin, os.Stdout, os.Stderr = saved[0], saved[1], saved[2]

	_ = outW.Close()
	_ = errW.Close()
	_ = inR.Close() // the payload writer may still be blocked on an unread rest
	wg.Wait()
	_ = outR.Close()
	_ = errR.Close()
	resp.Stdout, resp.Stderr = stdout, stderr
	return resp
}
