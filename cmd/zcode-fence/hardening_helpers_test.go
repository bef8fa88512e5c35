package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// bypassCase is one entry of testdata/bypass-corpus.json. For the shell
// tools (Bash, the default; Shell; PowerShell) Command is the command; for
// the file tools (Write, Edit, ...) it is the target path. Cwd, when set,
// is the payload's cwd (where the agent's shell stands), relative to the
// project ("src") or absolute ("/", "{HOME}/.ssh").
// Platform, when set, names the only GOOS the case applies to.
type bypassCase struct {
	Command  string `json:"command"`
	Expect   string `json:"expect"`
	Why      string `json:"why"`
	Platform string `json:"platform,omitempty"`
	Cwd      string `json:"cwd,omitempty"`
	Tool     string `json:"tool,omitempty"`
}

func (c bypassCase) tool() string {
	if c.Tool == "" {
		return "Bash"
	}
	return c.Tool
}

// label names the case in test messages: tool, command and any cwd.
func (c bypassCase) label() string {
	l := "[" + c.tool() + "] " + oneLine(c.Command)
	if c.Cwd != "" {
		l += " (cwd " + c.Cwd + ")"
	}
	return l
}

// isFileTool reports whether Command is a path for a file tool.
func (c bypassCase) isFileTool() bool {
	switch c.tool() {
	case "Bash", "Shell", "PowerShell":
		return false
	}
	return true
}

// readBypassCorpus loads the corpus and checks its shape (a case without a
// why, with an unknown expectation or repeating another is a corpus bug).
func readBypassCorpus() ([]bypassCase, error) {
	raw, err := os.ReadFile("testdata/bypass-corpus.json")
	if err != nil {
		return nil, err
	}
	var cases []bypassCase
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cases); err != nil {
		return nil, fmt.Errorf("bypass-corpus.json: %w", err)
	}
	seen := map[string]int{}
	for i, c := range cases {
		if c.Command == "" || c.Why == "" || (c.Expect != "ask" && c.Expect != "silent") {
			return nil, fmt.Errorf("bypass-corpus.json case %d (%q): needs command, why and expect ask|silent", i, c.Command)
		}
		key := c.tool() + "\x00" + c.Command + "\x00" + c.Cwd
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("bypass-corpus.json: case %d repeats case %d (%q)", i, j, c.Command)
		}
		seen[key] = i
	}
	return cases, nil
}

// addFenceFixtures gives the scratch project what the write-fence cases
// need: a README, a build dir, and outlink, a symlink inside the project
// to a directory outside every writable root.
func (s *scratch) addFenceFixtures() error {
	outside := filepath.Join(s.root, "outside")
	for _, d := range []string{outside, filepath.Join(s.project, "build")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(s.project, "README.md"), []byte("# test project\n"), 0o644); err != nil {
		return err
	}
	if err := os.Symlink(outside, filepath.Join(s.project, "outlink")); err != nil && !os.IsExist(err) {
		return err
	}
	return nil
}

// hookPayload is what a host sends for one tool call: the command (shell
// tools) or file_path (file tools), the cwd and a session id.
func hookPayload(tool, commandOrPath, cwd, session string, file bool) []byte {
	input := map[string]any{"command": commandOrPath}
	if file {
		input = map[string]any{"file_path": commandOrPath, "content": "x\n"}
	}
	p := map[string]any{"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input}
	if session != "" {
		p["session_id"] = session
	}
	if cwd != "" {
		p["cwd"] = cwd
	}
	b, _ := json.Marshal(p)
	return b
}

// casePayload renders a corpus case into a payload for scratch s.
func (s *scratch) casePayload(c bypassCase) []byte {
	cwd := s.project
	switch c.Cwd = s.renderCorpus(c.Cwd); {
	case c.Cwd == "":
	case filepath.IsAbs(c.Cwd):
		cwd = c.Cwd
	default:
		cwd = filepath.Join(s.project, c.Cwd)
	}
	return hookPayload(c.tool(), s.render(c.Command), cwd, "hardening-corpus", c.isFileTool())
}

// hookLimit is when the table tests stop waiting for one hook run: a hang
// guard only, generous because wall time on a loaded machine (load 40 seen)
// says nothing about the hook. The contract (the answer before the host's
// 5 s kill) is asserted on the hook's own clock: its decision-log record's
// Ms (checkHookClock).
const hookLimit = 60 * time.Second

// execHook runs the binary once with stdin and kills it at hookLimit.
// Unlike runHook it may be called from any goroutine: it returns errors.
func execHook(env []string, dir string, stdin []byte) (runResult, error) {
	return execHookWith(hookBinary(), env, dir, stdin)
}

// execHookWith is execHook with a given executable.
func execHookWith(exe string, env []string, dir string, stdin []byte) (runResult, error) {
	return execHookWithin(exe, env, dir, stdin, hookLimit)
}

// execHookWithin is execHookWith killing the hook at limit (a hang guard,
// for runs whose duration depends on the machine's load).
func execHookWithin(exe string, env []string, dir string, stdin []byte, limit time.Duration) (runResult, error) {
	in, err := stdinHolding(stdin)
	if err != nil {
		return runResult{}, err
	}
	defer in.Close()
	return execHookFrom(exe, env, dir, in, limit)
}

// execHookFrom is execHookWithin reading the hook's stdin from stdin (an
// *os.File is handed to the hook as its stdin itself, with no copying
// through this process).
func execHookFrom(exe string, env []string, dir string, stdin io.Reader, limit time.Duration) (runResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	res := runResult{stdout: out.Bytes(), stderr: errb.Bytes(), took: time.Since(t0), peakRSS: peakRSS(cmd.ProcessState)}
	if cmd.Process != nil {
		res.pid = cmd.Process.Pid
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("no answer within %v (killed)", limit)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		res.code = ee.ExitCode()
		err = nil
	}
	return res, err
}

// hookBinary is the binary the hardening tests run: the one TestMain
// built, or ZCODE_FENCE_TEST_BINARY when set (to run the same tables
// against another build, such as a release binary).
func hookBinary() string {
	if b := os.Getenv("ZCODE_FENCE_TEST_BINARY"); b != "" {
		return b
	}
	return binary
}

// hookWorkers is how many hook processes the table tests keep running at
// once: they mostly wait to be scheduled, so a few more than the 2 cores
// keeps the wall time down without starving the machine.
const hookWorkers = 6

// parallelDo runs f(0..n-1) on hookWorkers goroutines and waits.
func parallelDo(n int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < hookWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// runHooks runs every payload through the binary, hookWorkers at a time,
// and returns the results in input order.
func runHooks(env []string, dir string, payloads [][]byte) ([]runResult, []error) {
	results := make([]runResult, len(payloads))
	errs := make([]error, len(payloads))
	parallelDo(len(payloads), func(i int) { results[i], errs[i] = execHook(env, dir, payloads[i]) })
	return results, errs
}

// oneLine quotes a command for a test message, shortened.
func oneLine(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if len(b) > 160 {
		return string(b[:157]) + "..."
	}
	return string(b)
}

// hookRecord returns, as one JSON line, the decision-log record that the
// hook with process id pid wrote in dataDir (what each layer answered, in
// which mode, with which error), or a sentence saying why there is none.
// Tests quote it when an answer is not the expected one: the record says
// why, where the answer alone cannot.
func hookRecord(dataDir string, pid int) string {
	recs, _, err := decisionlog.Read(dataDir)
	if err != nil {
		return "decision log unreadable: " + err.Error()
	}
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].PID == pid && recs[i].Source == "hook" {
			b, _ := json.Marshal(recs[i])
			return string(b)
		}
	}
	return fmt.Sprintf("no decision-log record of pid %d (%d records)", pid, len(recs))
}

// stdinHolding returns a file that already holds payload, for a hook's
// stdin: up to a page (every everyday call) the read end of a pipe written
// before the hook starts, and past that an unlinked temporary file. Either
// way the hook finds its input at once instead of waiting for this
// process — race-built, running many tests — to be scheduled and copy it
// (which under load took longer than the hook's stdin wait: issue 28; a
// megabyte through a pipe is many such turns). The hook then treats a call
// as late only when a test means it to (TestLatePayloadAsks). Close the
// returned file once the hook has exited.
func stdinHolding(payload []byte) (*os.File, error) {
	// A pipe holds at least one page without a reader.
	const page = 4096
	if len(payload) > page {
		f, err := os.CreateTemp("", "zcode-fence-stdin-")
		if err != nil {
			return nil, err
		}
		os.Remove(f.Name())
		if _, err := f.Write(payload); err != nil {
			f.Close()
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.Write(payload)
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}
