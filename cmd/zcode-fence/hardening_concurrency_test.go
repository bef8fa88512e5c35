package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/session"
)

// concurrentHooks is how many hook processes run at once.
const concurrentHooks = 50

// startTogether starts one hook process per payload, all before any of
// them gets its stdin, then writes every stdin and waits for all. It
// returns the results in order.
func startTogether(t *testing.T, envs [][]string, dir string, payloads [][]byte) []runResult {
	t.Helper()
	cmds := make([]*exec.Cmd, len(payloads))
	outs := make([]*bytes.Buffer, len(payloads))
	errbs := make([]*bytes.Buffer, len(payloads))
	starts := make([]time.Time, len(payloads))
	for i := range payloads {
		cmd := exec.Command(hookBinary())
		cmd.Env, cmd.Dir = envs[i], dir
		in, err := stdinHolding(payloads[i])
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { in.Close() })
		cmd.Stdin = in
		outs[i], errbs[i] = &bytes.Buffer{}, &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = outs[i], errbs[i]
		cmds[i] = cmd
	}
	// Starting every process first makes their decoding, judging and
	// logging overlap as much as it can.
	for i, cmd := range cmds {
		starts[i] = time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting hook %d: %v", i, err)
		}
	}
	results := make([]runResult, len(cmds))
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Wait()
			results[i] = runResult{stdout: outs[i].Bytes(), stderr: errbs[i].Bytes(), took: time.Since(starts[i])}
			if ee, ok := err.(*exec.ExitError); ok {
				results[i].code = ee.ExitCode()
			} else if err != nil {
				results[i].code = -1
			}
		}()
	}
	wg.Wait()
	return results
}

// prefillLog writes decisions.log with valid records, each with a unique
// session "prefill-N", until the file is within room bytes of
// decisionlog.MaxSize. It returns how many records it wrote.
func prefillLog(t *testing.T, dir string, room int) int {
	t.Helper()
	var b bytes.Buffer
	n := 0
	for {
		line, err := decisionlog.Marshal(decisionlog.Record{TS: "2026-01-01T00:00:00Z", PID: 1, Platform: "linux", Source: "hook",
			Level: "info", Verdict: "silent", Tool: "Bash", Session: fmt.Sprintf("prefill-%d", n), Detail: strings.Repeat("p", 400)})
		if err != nil {
			t.Fatal(err)
		}
		if b.Len()+len(line) > decisionlog.MaxSize-room {
			break
		}
		b.Write(line)
		n++
	}
	if err := os.WriteFile(filepath.Join(dir, decisionlog.FileName), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestConcurrentHooks: 50 hook processes at once, half of them asking,
// each with its own session, every call logged, with decisions.log
// pre-filled to just under the 5 MiB rotation size so that it rotates in
// the middle of the run. Afterwards: every hook kept the protocol, every
// log line is one valid JSON record, no record is lost or duplicated (the
// pre-filled ones included: decisions.log.1 and decisions.log hold them
// all, exactly once), and session-roots.log holds every session once,
// each line intact.
func TestConcurrentHooks(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	// About a third of the run's records fit before the rotation.
	prefilled := prefillLog(t, s.data, 12<<10)
	env := s.env("default", false, "ZCODE_FENCE_ENABLE_LOG=true", "ZCODE_FENCE_LANGUAGE=en")
	envs := make([][]string, concurrentHooks)
	payloads := make([][]byte, concurrentHooks)
	wants := make([]string, concurrentHooks)
	for i := range payloads {
		envs[i] = env
		command, want := fmt.Sprintf("echo concurrent-%02d > src/out-%02d.txt", i, i), "silent"
		if i%2 == 1 {
			command, want = fmt.Sprintf("rm -rf / # concurrent-%02d", i), "ask"
		}
		payloads[i] = hookPayload("Bash", command, s.project, fmt.Sprintf("concurrent-%02d", i), false)
		wants[i] = want
	}
	results := startTogether(t, envs, s.project, payloads)
	var slowest time.Duration
	for i, r := range results {
		got, detail := checkAnswer(r)
		if got != wants[i] {
			t.Errorf("hook %d: got %q, want %s (%s)", i, got, wants[i], detail)
		}
		slowest = max(slowest, r.took)
	}
	t.Logf("%d hooks at once; slowest answer %v", concurrentHooks, slowest.Round(time.Millisecond))

	if _, err := os.Stat(filepath.Join(s.data, decisionlog.FileName+".1")); err != nil {
		t.Errorf("the log did not rotate during the run: %v", err)
	}
	recs := logRecords(t, s.data) // fails on any line that is not one record
	counts := map[string]int{}
	for _, r := range recs {
		counts[r.Session]++
	}
	for i := 0; i < prefilled; i++ {
		if n := counts[fmt.Sprintf("prefill-%d", i)]; n != 1 {
			t.Errorf("pre-filled record prefill-%d appears %d times", i, n)
		}
	}
	for i := 0; i < concurrentHooks; i++ {
		if n := counts[fmt.Sprintf("concurrent-%02d", i)]; n != 1 {
			t.Errorf("record of hook %d appears %d times", i, n)
		}
	}
	if want := prefilled + concurrentHooks; len(recs) != want {
		t.Errorf("%d records in the log's files, want %d", len(recs), want)
	}
	// Appends racing with a rotation may take a file a few records past
	// the rotation size, never more than one record per hook.
	for _, name := range decisionlog.Files() {
		if st, err := os.Stat(filepath.Join(s.data, name)); err == nil && st.Size() > decisionlog.MaxSize+concurrentHooks*decisionlog.MaxRecord {
			t.Errorf("%s is %d bytes, past the %d rotation size by more than the run's records", name, st.Size(), decisionlog.MaxSize)
		}
	}

	notes := map[string][]string{}
	for _, r := range recs {
		notes[r.Session] = r.Notes
	}
	// A hook that could not take the state file's lock within its wait
	// goes on with the injected root and says so in its record (the
	// policy of core/session under load); any other hook's session is
	// recorded once, with its root.
	sessions := readSessionFile(t, s.data)
	waited := 0
	for i := 0; i < concurrentHooks; i++ {
		id := fmt.Sprintf("concurrent-%02d", i)
		roots := sessions[id]
		if len(roots) == 0 && slices.ContainsFunc(notes[id], func(n string) bool { return strings.Contains(n, "timed out waiting for the lock") }) {
			waited++
			continue
		}
		if len(roots) != 1 || roots[0] != s.project {
			t.Errorf("session %s recorded as %q, want once with %s; its hook noted %q", id, roots, s.project, notes[id])
		}
	}
	t.Logf("%d pre-filled + %d new records across the rotation; %d sessions recorded, %d not (the lock's wait ran out: logged)", prefilled, concurrentHooks, len(sessions), waited)
}

// readSessionFile parses session-roots.log into id -> roots (a well-formed
// file has exactly one root per id) and fails on a malformed line.
func readSessionFile(t *testing.T, dir string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, session.FileName))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 || !session.ValidID(parts[0]) || parts[1] == "" {
			t.Fatalf("%s line %d is malformed: %q", session.FileName, n, sc.Text())
		}
		if _, err := time.Parse(time.RFC3339Nano, parts[2]); err != nil {
			t.Fatalf("%s line %d has a bad time: %q", session.FileName, n, sc.Text())
		}
		out[parts[0]] = append(out[parts[0]], parts[1])
	}
	return out
}

// TestConcurrentSessionFirstRoot: 50 hooks of one new session start at
// once, each with a different injected root (the agent's shell was in a
// different subdirectory for each). They must agree on one first root:
// session-roots.log ends with exactly one line for the session, and every
// hook judged with that same root (its decision-log record names it).
func TestConcurrentSessionFirstRoot(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	envs := make([][]string, concurrentHooks)
	payloads := make([][]byte, concurrentHooks)
	for i := range payloads {
		root := filepath.Join(s.project, fmt.Sprintf("sub-%02d", i))
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		envs[i] = append(s.env("default", true), "ZCODE_PROJECT_DIR="+root, "ZCODE_FENCE_LAYER_ISOLATION=inprocess", "ZCODE_FENCE_ENABLE_LOG=true")
		payloads[i] = hookPayload("Bash", fmt.Sprintf("ls # first-root-%02d", i), root, "first-root-race", false)
	}
	results := startTogether(t, envs, s.project, payloads)
	for i, r := range results {
		if got, detail := checkAnswer(r); got != "silent" {
			t.Errorf("hook %d: got %q, want silent (%s)", i, got, detail)
		}
	}
	sessions := readSessionFile(t, s.data)
	roots := sessions["first-root-race"]
	if len(roots) != 1 {
		t.Fatalf("session recorded %d times: %q", len(roots), roots)
	}
	judged := map[string]int{}
	for _, r := range logRecords(t, s.data) {
		if r.Session == "first-root-race" {
			judged[r.ProjectDir]++
		}
	}
	if len(judged) != 1 || judged[roots[0]] != concurrentHooks {
		b, _ := json.Marshal(judged)
		t.Errorf("hooks judged with roots %s, want all %d with the recorded first root %s", b, concurrentHooks, roots[0])
	}
}
