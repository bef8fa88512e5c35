package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
	"github.com/zcode-fence/zcode-fence/internal/crafted"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
)

// Issue 13: input must never force the guard into silence. These tests run
// the built binary in both isolation modes.

// craftedRun judges every case through the binary in one isolation mode,
// each with its own session id (the key to its decision-log record), and
// returns the answers, the records and the slowest answer.
func craftedRun(t *testing.T, s *scratch, mode string, cases []crafted.Case) ([]runResult, map[string]decisionlog.Record, time.Duration) {
	t.Helper()
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_FENCE_LANGUAGE=en")
	payloads := make([][]byte, len(cases))
	for i, c := range cases {
		payloads[i] = hookPayload(c.Tool, c.Command, s.project, craftedSession(mode, i), false)
	}
	results := make([]runResult, len(payloads))
	errs := make([]error, len(payloads))
	parallelDo(len(payloads), func(i int) {
		results[i], errs[i] = execHookWithin(hookBinary(), env, s.project, payloads[i], craftedHangGuard)
	})
	var slowest time.Duration
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %s: %v", mode, cases[i].Name, err)
		}
		slowest = max(slowest, results[i].took)
	}
	records := map[string]decisionlog.Record{}
	for _, r := range logRecords(t, s.data) {
		records[r.Session] = r
	}
	return results, records, slowest
}

// craftedHangGuard is when craftedRun gives up on a hook process: a guard
// against a hang, not a speed limit. A hook answers by host.Budget of its
// own clock whatever the input, but a loaded machine may not schedule it
// for seconds; what these tests assert is the answer and the work counted
// in steps, never the time (BenchmarkCraftedHook measures that).
const craftedHangGuard = 2 * time.Minute

func craftedSession(mode string, i int) string { return fmt.Sprintf("crafted-%s-%04d", mode, i) }

// TestCraftedShapesAsk: the shapes issue 13 found silent — a 4,000-byte
// variable, 32 cd steps, nested loops of 300 redirects, the dangerous
// command (last or first: rm -rf ~, git push --force, curl | sh,
// >> ~/.bashrc), a 4,000-byte comment, in bash and through the PowerShell
// tool — ask in both isolation modes, with every rule the dangerous
// command gets alone: the finding is not lost in the noise. The answers'
// times are logged (BenchmarkCraftedHook measures them).
func TestCraftedShapesAsk(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	shapes := crafted.Issue13Cases()
	var bare []crafted.Case
	for _, c := range shapes {
		cmd := c.Danger.Bash
		if c.Tool == "PowerShell" {
			cmd = c.Danger.PowerShell
		}
		bare = append(bare, crafted.Case{Name: c.Name + " (alone)", Tool: c.Tool, Command: cmd})
	}
	for _, mode := range []string{"inprocess", "process"} {
		t.Run(mode, func(t *testing.T) {
			all := append(append([]crafted.Case{}, shapes...), bare...)
			results, records, slowest := craftedRun(t, s, mode, all)
			for i, c := range shapes {
				got, detail := checkAnswer(results[i])
				if got != "ask" {
					t.Errorf("%s: %s (%s), want ask", c.Name, got, detail)
					continue
				}
				rec := records[craftedSession(mode, i)]
				shaped := rec.Rules
				alone := records[craftedSession(mode, len(shapes)+i)].Rules
				if len(alone) == 0 {
					t.Errorf("%s: the dangerous command alone did not ask (%v)", c.Name, checkAnswerVerdict(results[len(shapes)+i]))
				}
				for _, r := range alone {
					if slices.Contains(shaped, r) {
						continue
					}
					if l, ok := outOfTimeLayer(rec, r); ok {
						// The layer that finds r ran out of time on this
						// loaded machine and asked for what it could not
						// inspect (fail closed): the record says so.
						t.Logf("%s: %s not reached: layer %s ran out of time (%s) and asked %v", c.Name, r, l.Name, l.Error, shaped)
						continue
					}
					t.Errorf("%s: rules %v lack %s, which the command alone gets", c.Name, shaped, r)
				}
				t.Logf("%-28s %6d bytes: ask %v in %v", c.Name, len(c.Command), shaped, results[i].took.Round(time.Millisecond))
			}
			t.Logf("%s: slowest answer %v", mode, slowest.Round(time.Millisecond))
		})
	}
}

// outOfTimeLayer returns the built-in layer of record rec that reports
// rule (DG- danger, FN- fence) when it ran out of time (a loadError) and
// asked its incomplete rule instead: on a loaded machine it may not reach
// a finding its unhurried run makes.
func outOfTimeLayer(rec decisionlog.Record, rule string) (decisionlog.LayerRecord, bool) {
	name, incomplete := "danger", rules.Incomplete.ID
	if strings.HasPrefix(rule, "FN-") {
		name, incomplete = "fence", rules.FenceIncomplete.ID
	}
	for _, l := range rec.Layers {
		if l.Name == name && l.Verdict == "ask" && loadError(l.Error) && slices.Contains(l.Rules, incomplete) {
			return l, true
		}
	}
	if e, ok := overdue(rec); ok && slices.Contains(rec.Rules, incomplete) {
		// The hook's budget ran out before any layer answered.
		return decisionlog.LayerRecord{Name: name, Verdict: "ask", Error: e, Rules: []string{incomplete}}, true
	}
	return decisionlog.LayerRecord{}, false
}

func checkAnswerVerdict(r runResult) string {
	v, _ := checkAnswer(r)
	return v
}

// TestCraftedFamilyAsks: the generated family — long cd chains, many
// redirect targets, long names, deep nesting and all of them at once,
// each grown to near 1 MiB, around each dangerous command — asks in both
// isolation modes, and its work is bounded in steps: each built-in layer
// that finished reports its steps in the decision log, within its step
// budget (and the analysis within its own), and the two modes find the
// same rules. A layer the machine's load made miss its deadline must have
// made the call ask by itself (the record names the layer's error); the
// time of each answer is only logged (BenchmarkCraftedHook reports the
// time per KiB).
func TestCraftedFamilyAsks(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	var cases []crafted.Case
	for _, d := range crafted.Dangers {
		cases = append(cases, crafted.Family(d, 1<<20)...)
	}
	rulesOf := map[string][][]string{} // mode -> rules per case, nil when a layer timed out
	for _, mode := range []string{"inprocess", "process"} {
		t.Run(mode, func(t *testing.T) {
			results, records, slowest := craftedRun(t, s, mode, cases)
			rulesOf[mode] = make([][]string, len(cases))
			late := 0
			for i, c := range cases {
				if got, detail := checkAnswer(results[i]); got != "ask" {
					t.Errorf("%s around %q: %s (%s), want ask", c.Name, c.Danger.Bash, got, detail)
					continue
				}
				rec, ok := records[craftedSession(mode, i)]
				if !ok {
					t.Errorf("%s around %q: no decision-log record", c.Name, c.Danger.Bash)
					continue
				}
				if e, ok := overdue(rec); ok {
					// The hook's budget ran out first on this loaded machine:
					// the built-ins asked for what they could not inspect.
					late++
					t.Logf("%s around %q: overdue (load): %s", c.Name, c.Danger.Bash, e)
					continue
				}
				if slices.Equal(rec.Rules, []string{rules.HostInputLate.ID}) && rec.Level == "error" {
					// A megabyte not decoded by the stdin wait on this loaded
					// machine: asked as late (the record says so), nothing
					// analysed.
					late++
					t.Logf("%s around %q: not read in time (load): %q", c.Name, c.Danger.Bash, rec.Errors)
					continue
				}
				if rec.AnalysisSteps <= 0 || rec.AnalysisSteps > analysis.DefaultMaxSteps {
					t.Errorf("%s around %q: analysis took %d steps, want 1..%d", c.Name, c.Danger.Bash, rec.AnalysisSteps, analysis.DefaultMaxSteps)
				}
				finished := true
				for _, l := range rec.Layers {
					budget := map[string]int{danger.Name: danger.StepBudget, fence.Name: fence.StepBudget}[l.Name]
					if budget == 0 {
						continue
					}
					if l.Error != "" {
						// Out of time under load: the layer's own ask, not
						// silence — or abandoned because another layer asked.
						finished = false
						if l.Verdict != "ask" && l.Verdict != "abandoned" {
							t.Errorf("%s around %q: layer %s failed (%s) with verdict %s, want ask", c.Name, c.Danger.Bash, l.Name, l.Error, l.Verdict)
						}
						continue
					}
					n, err := strconv.Atoi(l.Annotations[steps.Annotation])
					if err != nil || n <= 0 || n > budget {
						t.Errorf("%s around %q: layer %s reports steps %q, want 1..%d", c.Name, c.Danger.Bash, l.Name, l.Annotations[steps.Annotation], budget)
					}
				}
				if finished {
					rulesOf[mode][i] = rec.Rules
				} else {
					late++
				}
				t.Logf("%-24s %-40q %7d bytes: %v, %d analysis steps, in %v", c.Name, c.Danger.Bash, len(c.Command),
					rec.Rules, rec.AnalysisSteps, results[i].took.Round(time.Millisecond))
			}
			t.Logf("%s: slowest answer %v; %d of %d calls had a layer out of time (load)", mode, slowest.Round(time.Millisecond), late, len(cases))
		})
	}
	for i, c := range cases {
		a, b := rulesOf["inprocess"][i], rulesOf["process"][i]
		if a != nil && b != nil && !slices.Equal(a, b) {
			t.Errorf("%s around %q: inprocess rules %v, process rules %v", c.Name, c.Danger.Bash, a, b)
		}
	}
}

// faultsBinary is the binary built with the zcodefence_faults tag: its
// built-in layers fail on demand (see faults_zcodefence_faults.go).
func faultsBinary(t *testing.T) string { return taggedBinary(t, "zcodefence_faults") }

// TestBuiltinFailureAsks: a built-in layer that panics, errs, runs out of
// time or hangs on a shell or file call makes the call ask, in both
// isolation modes, with a reason saying it could not fully inspect the
// call and why (in the configured language), after what it had found;
// the answer still comes inside the budget. On a file call too. Release
// builds cannot fail this way: the faults are compiled in only with a test
// tag.
func TestBuiltinFailureAsks(t *testing.T) {
	t.Parallel()
	bin := faultsBinary(t)
	type faultCase struct {
		name, command string
		layer         string
		cause         rules.Cause
		found         string // a rule found before the failure, kept
	}
	var cases []faultCase
	for _, layer := range []string{"danger", "fence"} {
		L := strings.ToUpper(layer)
		cases = append(cases,
			faultCase{layer + " panics", "ls # FAULT-PANIC-" + L, layer, rules.CauseFailed, ""},
			faultCase{layer + " errs", "ls # FAULT-ERROR-" + L, layer, rules.CauseFailed, ""},
			faultCase{layer + " runs out of time", "ls # FAULT-SLOW-" + L, layer, rules.CauseTimeout, ""},
			faultCase{layer + " hangs", "ls # FAULT-HANG-" + L, layer, rules.CauseTimeout, ""},
		)
	}
	cases = append(cases,
		faultCase{"danger errs after a finding", "rm -rf ~ # FAULT-ERROR-DANGER", "danger", rules.CauseFailed, "DG-RM-RECURSIVE"},
		faultCase{"fence errs after a finding", "echo x > /etc/zcode-fence-x # FAULT-ERROR-FENCE", "fence", rules.CauseFailed, "FN-REDIRECT-OUTSIDE"},
		faultCase{"danger panics, fence still judges", "echo x > /etc/zcode-fence-x # FAULT-PANIC-DANGER", "danger", rules.CauseFailed, "FN-REDIRECT-OUTSIDE"},
	)
	incompleteRule := map[string]string{"danger": rules.Incomplete.ID, "fence": rules.FenceIncomplete.ID}
	for _, mode := range []string{"inprocess", "process"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel() // the hang and slow faults wait out the budget: the modes overlap, each with its own data dir
			s := newScratch(t)
			env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_FENCE_LANGUAGE=en")
			results := make([]runResult, len(cases))
			errs := make([]error, len(cases))
			parallelDo(len(cases), func(i int) {
				payload := hookPayload("Bash", cases[i].command, s.project, fmt.Sprintf("fault-%s-%02d", mode, i), false)
				results[i], errs[i] = execHookWith(bin, env, s.project, payload)
			})
			records := map[string]decisionlog.Record{}
			for _, r := range logRecords(t, s.data) {
				records[r.Session] = r
			}
			for i, c := range cases {
				expectAnswer(t, c.name, results[i], errs[i], "ask")
				if errs[i] != nil {
					continue
				}
				_, reason := checkAnswer(results[i])
				if !strings.Contains(reason, "could not") || !strings.Contains(reason, c.cause.En) {
					t.Errorf("%s: reason %q does not say it could not inspect the call (%s)", c.name, reason, c.cause.En)
				}
				rec := records[fmt.Sprintf("fault-%s-%02d", mode, i)]
				if !slices.Contains(rec.Rules, incompleteRule[c.layer]) || (c.found != "" && !slices.Contains(rec.Rules, c.found)) {
					t.Errorf("%s: rules %v, want %s and %q", c.name, rec.Rules, incompleteRule[c.layer], c.found)
				}
				if len(rec.Errors) == 0 {
					t.Errorf("%s: the failure is not in the decision log", c.name)
				}
				if rec.Ms >= float64(hookKill.Milliseconds()) {
					t.Errorf("%s: the hook's own clock says it answered after %.0f ms, past the host's %v kill", c.name, rec.Ms, hookKill)
				}
				t.Logf("%-34s ask %v after %.0f ms (hook clock; wall %v)", c.name, rec.Rules, rec.Ms, results[i].took.Round(time.Millisecond))
			}

			// A file call: the fence fails, the call asks.
			payload := hookPayload("Write", filepath.Join(s.project, "src", "FAULT-ERROR-FENCE.go"), s.project, "", true)
			r, err := execHookWith(bin, env, s.project, payload)
			expectAnswer(t, "Write with the fence failing", r, err, "ask")
			// Without the fault the same build is silent on both.
			for _, p := range [][]byte{
				hookPayload("Bash", "ls # no fault", s.project, "", false),
				hookPayload("Write", filepath.Join(s.project, "src", "ok.go"), s.project, "", true),
			} {
				r, err := execHookWith(bin, env, s.project, p)
				expectAnswer(t, "no fault", r, err, "silent")
			}
		})
	}
}

// TestConcurrentHooksLoseNoRecord: 200 hooks at once — every other one in
// process isolation, the rest in-process, so both modes' hooks race for
// the same log — with the log just under its rotation size and the
// rotation lock held by another process for longer than a hook waits for
// it: every record is in the log exactly once and every line is one valid
// JSON record (the lock wait once dropped records: 993 of 1,000). The
// modes share one run: the log path is the same in both, and one crowd of
// 200 contends as much as two crowds in turn, for half the processes.
func TestConcurrentHooksLoseNoRecord(t *testing.T) {
	t.Parallel()
	const hooks = 200
	modes := [2]string{"inprocess", "process"}
	s := newScratch(t)
	prefilled := prefillLog(t, s.data, 64<<10)
	unlock := holdLogLock(t, s.data)
	var env [2][]string
	for m, mode := range modes {
		env[m] = s.env("default", false, "ZCODE_FENCE_ENABLE_LOG=true", "ZCODE_FENCE_LAYER_ISOLATION="+mode)
	}
	envs := make([][]string, hooks)
	payloads := make([][]byte, hooks)
	for i := range payloads {
		envs[i] = env[i%2]
		command := fmt.Sprintf("echo many-%03d > src/out-%03d.txt", i, i)
		if i%4 == 0 || i%4 == 1 {
			command = fmt.Sprintf("rm -rf / # many-%03d", i)
		}
		payloads[i] = hookPayload("Bash", command, s.project, fmt.Sprintf("many-%03d", i), false)
	}
	go func() { time.Sleep(time.Second); unlock() }()
	results := startTogether(t, envs, s.project, payloads)
	unlock()
	var slowest [2]time.Duration
	for i, r := range results {
		want := "silent"
		if i%4 == 0 || i%4 == 1 {
			want = "ask"
		}
		if got, detail := checkAnswer(r); got != want {
			t.Errorf("hook %d (%s): %s (%s), want %s", i, modes[i%2], got, detail, want)
		}
		slowest[i%2] = max(slowest[i%2], r.took)
	}
	recs := logRecords(t, s.data)
	counts := map[string]int{}
	isolation := map[string]string{}
	for _, r := range recs {
		counts[r.Session]++
		isolation[r.Session] = r.Isolation
	}
	for i := 0; i < hooks; i++ {
		id := fmt.Sprintf("many-%03d", i)
		if n := counts[id]; n != 1 {
			t.Errorf("record of hook %d appears %d times", i, n)
		} else if isolation[id] != modes[i%2] {
			t.Errorf("record of hook %d says isolation %q, want %s", i, isolation[id], modes[i%2])
		}
	}
	if want := prefilled + hooks; len(recs) != want {
		t.Errorf("%d records in the log's files, want %d", len(recs), want)
	}
	t.Logf("%d hooks at once (half per isolation mode), slowest answer %v in-process, %v in process; %d + %d records, none lost",
		hooks, slowest[0].Round(time.Millisecond), slowest[1].Round(time.Millisecond), prefilled, hooks)
}

// TestLogRecordsAreCapped: 87 runs with a 120 KB invalid
// ZCODE_FENCE_LANGUAGE (each once wrote a 120 KB note) after an ask: every
// record stays under decisionlog.MaxRecord, the note is cut with a marker,
// and the ask is still in the log.
func TestLogRecordsAreCapped(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("default", false)
	r := runHook(t, env, s.project, hookPayload("Bash", "rm -rf / # the-ask", s.project, "capped-ask", false))
	if got, _ := checkAnswer(r); got != "ask" {
		t.Fatalf("the ask: %s", got)
	}
	bad := s.env("default", false, "ZCODE_FENCE_LANGUAGE="+strings.Repeat("x", 120_000), "ZCODE_FENCE_ENABLE_LOG=true")
	payloads := make([][]byte, 87)
	for i := range payloads {
		payloads[i] = hookPayload("Bash", fmt.Sprintf("ls # %d", i), s.project, fmt.Sprintf("capped-%02d", i), false)
	}
	results, errs := runHooks(bad, s.project, payloads)
	for i := range results {
		expectAnswer(t, fmt.Sprintf("run %d", i), results[i], errs[i], "silent")
	}
	found, noted := false, 0
	for _, name := range decisionlog.Files() {
		data, err := os.ReadFile(filepath.Join(s.data, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(data, []byte("\n")) {
			if len(line) > decisionlog.MaxRecord {
				t.Errorf("%s: a record of %d bytes", name, len(line))
			}
			found = found || bytes.Contains(line, []byte("the-ask"))
			if bytes.Contains(line, []byte("ZCODE_FENCE_LANGUAGE")) && bytes.Contains(line, []byte("…[cut ")) {
				noted++
			}
		}
	}
	if !found {
		t.Error("the ask is gone from the log")
	}
	if noted != 87 {
		t.Errorf("%d records carry the cut note, want 87", noted)
	}
}

// BenchmarkCraftedHook runs the built binary on each member of the crafted
// family (and the issue 13 shape), in both isolation modes, and reports
// the whole hook's time per KiB of command ("ns/KiB"), process start
// included. Every answer must be ask. The worst member's figure is the
// one issue 13 asks for (before the fix: about 57 ms/KiB for the family,
// 2.5 s/KiB for the 12 KB shape, and silent).
func BenchmarkCraftedHook(b *testing.B) {
	s := newScratch(b)
	cases := append(crafted.Family(crafted.Dangers[0], 1<<20), crafted.Issue13Cases()[0])
	for _, mode := range []string{"inprocess", "process"} {
		env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode)
		for _, c := range cases {
			payload := hookPayload(c.Tool, c.Command, s.project, "", false)
			b.Run(mode+"/"+c.Name, func(b *testing.B) {
				b.SetBytes(int64(len(c.Command)))
				for b.Loop() {
					r, err := execHook(env, s.project, payload)
					if err != nil {
						b.Fatal(err)
					}
					if got, detail := checkAnswer(r); got != "ask" {
						b.Fatalf("%s: %s (%s)", c.Name, got, detail)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(len(c.Command))/1024), "ns/KiB")
			})
		}
	}
}
