package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/session"
)

// hookKill is the agent host's own limit on a hook (the seed hooks.json
// gives 5 s): a hook still running then is killed and renders no verdict.
// Every fault test asserts that the answer came before it. This is the
// protocol's contract, not a speed claim.
const hookKill = 5 * time.Second

// hookCase is one run of the binary in a fault test.
type hookCase struct {
	name  string
	stdin []byte
	want  string // "ask" or "silent"
}

// expectAnswer checks the protocol, the verdict and the host's time limit.
func expectAnswer(t *testing.T, what string, r runResult, err error, want string) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	got, detail := checkAnswer(r)
	if got == "ask" && want == "silent" && outOfTime(detail) {
		t.Logf("%s: a built-in ran out of time (machine load) and asked: fail closed, accepted", what)
		got = want
	}
	switch {
	case got == "":
		t.Errorf("%s: %s", what, detail)
	case got != want:
		t.Errorf("%s: got %s, want %s (%s)", what, got, want, detail)
	}
	if !utf8.Valid(r.stdout) {
		t.Errorf("%s: stdout is not valid UTF-8: %q", what, r.stdout)
	}
}

// dataDirOf is the decision-log directory an environment gives the hook
// (ZCODE_FENCE_DATA_DIR, as scratch.env sets it; "" if none).
func dataDirOf(env []string) string {
	dir := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "ZCODE_FENCE_DATA_DIR="); ok {
			dir = v
		}
	}
	return dir
}

// recordsByPID indexes the decision-log records in dir by the hook's pid
// (a pid may be reused by a later run: the last record wins).
func recordsByPID(t *testing.T, dir string) map[int]decisionlog.Record {
	t.Helper()
	out := map[int]decisionlog.Record{}
	for _, r := range logRecords(t, dir) {
		out[r.PID] = r
	}
	return out
}

// checkHookClock asserts the time contract on the hook's own clock: the
// record of run r (found by pid in recs) says the hook answered and logged
// before the host's kill (hookKill), measured from the hook's start, not
// by the test's wall clock, which a loaded machine stretches. It reports
// whether the run had a record.
func checkHookClock(t *testing.T, what string, r runResult, recs map[int]decisionlog.Record) bool {
	t.Helper()
	rec, ok := recs[r.pid]
	if r.pid == 0 || !ok {
		return false
	}
	if rec.Ms >= float64(hookKill.Milliseconds()) {
		t.Errorf("%s: the hook's own clock says it answered after %.0f ms, past the host's %v kill", what, rec.Ms, hookKill)
	}
	return true
}

// runCases runs every case through the binary (hookWorkers at a time) and
// checks each answer, and each run's time on the hook's own clock (its
// decision-log record; a table none of whose runs logged fails).
func runCases(t *testing.T, env []string, dir string, cases []hookCase) []runResult {
	t.Helper()
	return runCasesLogged(t, env, dir, cases, true)
}

// runCasesLogged is runCases; needLog false is for a data dir broken on
// purpose (TestFaultStorage), where no record can be written and only the
// hang guard (hookLimit) bounds the time.
func runCasesLogged(t *testing.T, env []string, dir string, cases []hookCase, needLog bool) []runResult {
	t.Helper()
	payloads := make([][]byte, len(cases))
	for i, c := range cases {
		payloads[i] = c.stdin
	}
	results, errs := runHooks(env, dir, payloads)
	recs := map[int]decisionlog.Record{}
	if needLog {
		recs = recordsByPID(t, dataDirOf(env))
	}
	timed := 0
	for i, c := range cases {
		expectAnswer(t, c.name, results[i], errs[i], c.want)
		if errs[i] == nil && checkHookClock(t, c.name, results[i], recs) {
			timed++
		}
	}
	if needLog && timed == 0 && len(cases) > 0 {
		t.Errorf("none of %d runs left a decision-log record in %q: the hook's time is unchecked", len(cases), dataDirOf(env))
	}
	return results
}

func bashStdin(command, cwd string) []byte { return hookPayload("Bash", command, cwd, "", false) }

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// logRecords reads the decision log of a data dir (rotated generations
// first) and fails on any line that is not one valid UTF-8 JSON record.
func logRecords(t *testing.T, dir string) []decisionlog.Record {
	t.Helper()
	var out []decisionlog.Record
	for _, name := range decisionlog.Files() {
		path := filepath.Join(dir, name)
		// Only regular files: a fault test links the log to /dev/full,
		// whose endless zeros os.ReadFile would read until memory runs out.
		if fi, err := os.Stat(path); os.IsNotExist(err) || err == nil && !fi.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")) {
			var r decisionlog.Record
			if err := json.Unmarshal(line, &r); err != nil || !utf8.Valid(line) {
				t.Fatalf("%s line %d is not a valid JSON record (%v): %.200q", name, i+1, err, line)
			}
			out = append(out, r)
		}
	}
	return out
}

// TestFaultStdinNeverCloses: a host that never closes stdin. With a
// partial payload (or none) the hook gives up reading at its stdin wait and
// asks (HK-INPUT-LATE: the host is still writing and will run the call;
// TestLatePayloadAsks has the table) inside the host's limit; with a
// complete JSON value it answers at once, without waiting for EOF or for
// the stdin wait.
func TestFaultStdinNeverCloses(t *testing.T) {
	t.Parallel() // it mostly waits (for timeouts) and takes little CPU
	s := newScratch(t)
	env := s.env("default", false)
	cases := []struct {
		name, write, want string
		// early: the answer must come before the stdin wait.
		early bool
	}{
		{"nothing written", "", "ask", false},
		{"partial payload", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"`, "ask", false},
		{"complete payload, danger", `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"cwd":` + quoteJSON(s.project) + `}`, "ask", true},
		{"complete payload, write outside", `{"tool_name":"Write","tool_input":{"file_path":"/etc/zcode-fence-x"},"cwd":` + quoteJSON(s.project) + `}`, "ask", true},
		{"complete payload, silent", `{"tool_name":"Bash","tool_input":{"command":"ls -la"},"cwd":` + quoteJSON(s.project) + `}` + "\n", "silent", true},
		{"complete payload, then more bytes", `{"tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}` + "\n{\"tool_name\":", "ask", true},
	}
	var wg sync.WaitGroup
	results := make([]runResult, len(cases))
	errs := make([]error, len(cases))
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runWithOpenStdin(env, s.project, c.write)
		}()
	}
	wg.Wait()
	// Times are the hook's own (its records), not this test's wall clock.
	recs := recordsByPID(t, s.data)
	for i, c := range cases {
		expectAnswer(t, c.name, results[i], errs[i], c.want)
		if errs[i] != nil {
			continue
		}
		if !checkHookClock(t, c.name, results[i], recs) {
			t.Errorf("%s: no decision-log record for pid %d", c.name, results[i].pid)
			continue
		}
		ms := recs[results[i].pid].Ms
		if c.early && ms >= float64(stdinWait.Milliseconds()) {
			t.Errorf("%s: answered after %.0f ms (hook clock) with stdin open: it waited for more input (stdin wait %v)", c.name, ms, stdinWait)
		}
		if !c.early && ms < 0.95*float64(stdinWait.Milliseconds()) {
			t.Errorf("%s: gave up on stdin after %.0f ms (hook clock), before the %v stdin wait", c.name, ms, stdinWait)
		}
		t.Logf("%s: %s after %.0f ms (hook clock; wall %v)", c.name, c.want, ms, results[i].took.Round(time.Millisecond))
	}
	var incomplete int
	for _, r := range logRecords(t, s.data) {
		if r.Level == "error" && strings.Contains(strings.Join(r.Errors, " "), "stdin incomplete") {
			incomplete++
		}
	}
	if incomplete != 2 {
		t.Errorf("decision log has %d stdin error records, want 2 (nothing written, partial payload)", incomplete)
	}
}

// runWithOpenStdin starts the hook, writes input, and keeps stdin open
// until the hook exits (or hookLimit passes, when it is killed).
func runWithOpenStdin(env []string, dir, input string) (runResult, error) {
	cmd := exec.Command(hookBinary())
	cmd.Env, cmd.Dir = env, dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return runResult{}, err
	}
	defer stdin.Close()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return runResult{}, err
	}
	if _, err := io.WriteString(stdin, input); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return runResult{}, err
	}
	return awaitHook(cmd, &out, &errb, t0)
}

// TestFaultHugeWrite: 50 MB Write payloads are read and judged (the
// content is skipped, the path decides) however busy the machine — only
// time spent waiting for stdin counts against the hook's stdin wait, not
// decoding — and a payload past agenthost.MaxInput fails open with an error
// record. How long such a call takes is BenchmarkHookHugeWrite's to
// measure: a loaded machine can take longer than the host's 5 s (the
// host then proceeds without an answer), so this test does not time it.
func TestFaultHugeWrite(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	cases := hugeWriteCases(s)
	// One at a time: three 50+ MB hooks at once measure memory, not faults.
	for _, c := range cases {
		r, err := execHookWithin(hookBinary(), env, s.project, c.stdin, time.Minute)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got, detail := checkAnswer(r)
		if got == "ask" && c.want == "silent" && outOfTime(detail) {
			// Reading 50 MB took the layers' time on a loaded machine.
			t.Logf("%s: the layers ran out of time after reading the payload (machine load): asked", c.name)
			got = "silent"
		}
		if got != c.want {
			t.Errorf("%s: got %q (%s), want %s", c.name, got, detail, c.want)
		}
		t.Logf("%s (%d MB): %v", c.name, len(c.stdin)>>20, r.took.Round(time.Millisecond))
	}
	// The oversized payload fails open with an error record — or, when
	// the loaded machine had not read 64 MiB by the stdin wait, asks as
	// late (HK-INPUT-LATE), with an error record saying so.
	var tooBig bool
	for _, r := range logRecords(t, s.data) {
		if r.Verdict == "error" && r.Tool == "" || slices.Contains(r.Rules, rules.HostInputLate.ID) && r.Level == "error" {
			tooBig = true
		}
	}
	if !tooBig {
		t.Error("the oversized payload left no error record")
	}
}

// outOfTime reports whether an ask's reason line names only built-in
// layers that ran out of time (each "[zcode-fence: ...]" reason carries
// rules.CauseTimeout) or a payload that was not read in time
// (HK-INPUT-LATE): on a loaded machine a layer that cannot finish, or a
// payload that cannot be read, asks — fail closed, correct — where an
// unhurried run is silent.
func outOfTime(reason string) bool {
	parts := strings.Split(reason, "[zcode-fence")[1:]
	for _, p := range parts {
		late := strings.HasPrefix(p, lateMark(rules.HostInputLate.En)) || strings.HasPrefix(p, lateMark(rules.HostInputLate.Zh))
		if !late && !strings.Contains(p, rules.CauseTimeout.Zh) && !strings.Contains(p, rules.CauseTimeout.En) {
			return false
		}
	}
	return len(parts) > 0
}

// lateMark is what follows "[zcode-fence" in a reason made from template,
// up to its closing bracket.
func lateMark(template string) string {
	t := strings.TrimPrefix(template, "[zcode-fence")
	if i := strings.IndexByte(t, ']'); i >= 0 {
		return t[:i+1]
	}
	return t
}

// BenchmarkHookHugeWrite: one hook process judging a 50 MB Write payload
// (inprocess), stdin to exit.
func BenchmarkHookHugeWrite(b *testing.B) {
	s := newScratch(b)
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	c := hugeWriteCases(s)[0]
	for b.Loop() {
		r, err := execHook(env, s.project, c.stdin)
		if err != nil {
			b.Fatal(err)
		}
		if got, detail := checkAnswer(r); got != c.want {
			b.Fatalf("got %q (%s), want %s", got, detail, c.want)
		}
	}
}

// hugeWriteCases are two 50 MB Write payloads (outside the project: ask;
// inside: silent) and one past hookio.MaxInput.
func hugeWriteCases(s *scratch) []hookCase {
	write := func(path string, size int) []byte { return hugeWrite(s.project, path, size) }
	const fifty = 50 << 20
	return []hookCase{
		{"50 MB Write outside", write("/etc/zcode-fence-huge.txt", fifty), "ask"},
		{"50 MB Write in the project", write(filepath.Join(s.project, "src", "huge.txt"), fifty), "silent"},
		{"payload past MaxInput", write("/etc/zcode-fence-huge.txt", agenthost.MaxInput+(1<<20)), "silent"},
	}
}

// TestFaultInvalidUTF8: bytes that are not UTF-8 anywhere in the payload
// (the JSON decoder turns them into U+FFFD) never break the answer, which
// stays valid UTF-8 JSON, nor the log.
func TestFaultInvalidUTF8(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	cases := []hookCase{
		{"rm of the root with trailing junk", []byte("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf / \xff\xfe\"}}"), "ask"},
		{"junk as an rm operand next to the root", []byte("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf \xc3 /\"}}"), "ask"},
		{"junk inside the command name is another command", []byte("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"r\xc3m -rf /tmp/x\"}}"), "silent"},
		{"junk in an echo", []byte("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo \xc0\xaf\xed\xa0\x80\"}}"), "silent"},
		{"junk in a redirect target outside", []byte("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo x > /etc/\xff\xfe\"}}"), "ask"},
		{"junk in the cwd", []byte("{\"tool_name\":\"Bash\",\"cwd\":\"/tmp/\xff\",\"tool_input\":{\"command\":\"ls\"}}"), "silent"},
		{"junk in the session id", []byte("{\"tool_name\":\"Bash\",\"session_id\":\"s\xff\xfe\",\"tool_input\":{\"command\":\"rm -rf ~\"}}"), "ask"},
		{"junk in the tool name", []byte("{\"tool_name\":\"Ba\xffsh\",\"tool_input\":{\"command\":\"rm -rf /\"}}"), "silent"},
		{"Write outside with junk in the path", []byte("{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"/etc/\xff\xfe.txt\",\"content\":\"\xff\"}}"), "ask"},
		{"Write inside with junk in the path", []byte("{\"tool_name\":\"Write\",\"tool_input\":{\"file_path\":\"" + s.project + "/src/\xff.txt\"}}"), "silent"},
		{"raw junk, not JSON", []byte("\xff\xfe\xfd\x00\x01"), "silent"},
		{"a UTF-16 payload", utf16le(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`), "silent"},
		{"NUL and a lone surrogate escape", []byte(`{"tool_name":"Bash","tool_input":{"command":"rm -rf /\u0000 \ud800"}}`), "ask"},
	}
	runCases(t, env, s.project, cases)
	if recs := logRecords(t, s.data); len(recs) != len(cases) {
		t.Errorf("decision log has %d records for %d calls", len(recs), len(cases))
	}
}

func utf16le(s string) []byte {
	out := []byte{0xff, 0xfe}
	for _, r := range s {
		out = append(out, byte(r), byte(r>>8))
	}
	return out
}

// nestBashC wraps command in depth levels of bash -c '...', quoting each
// level for the next (the text grows about threefold per level).
func nestBashC(command string, depth int) string {
	for i := 0; i < depth; i++ {
		command = "bash -c '" + strings.ReplaceAll(command, "'", `'\''`) + "'"
	}
	return command
}

// TestFaultDeepNesting: nesting far past any analysis depth bound is
// bounded work: the hook answers inside the host's limit, and a hidden
// catastrophic command is never waved through as silence (too deep to see
// is a reason to ask, not a reason to be quiet).
func TestFaultDeepNesting(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	subst := func(n int) string { return strings.Repeat("$(", n) + "rm -rf /" + strings.Repeat(")", n) }
	p := func(command string) []byte { return bashStdin(command, s.project) }
	cases := []hookCase{
		{"$() depth 64", p(subst(64)), "ask"},
		{"$() depth 5000", p(subst(5000)), "ask"},
		{"backticks inside $() depth 300", p(strings.Repeat("$(echo `", 300) + "rm -rf /" + strings.Repeat("`)", 300)), "ask"},
		{"subshells depth 10000", p(strings.Repeat("(", 10000) + "rm -rf /" + strings.Repeat(")", 10000)), "ask"},
		{"eval x 2000", p(strings.Repeat("eval ", 2000) + "rm -rf /"), "ask"},
		{"eval inside bash -c depth 5", p(nestBashC(`eval "rm -rf /"`, 5)), "ask"},
		{"bash -c depth 6", p(nestBashC("rm -rf /", 6)), "ask"},
		{"bash -c depth 9 (30 KB)", p(nestBashC("rm -rf /", 9)), "ask"},
		{"bash -c depth 10 (89 KB)", p(nestBashC("rm -rf /", 10)), "ask"},
		{"bash -c depth 11 (266 KB)", p(nestBashC("rm -rf /", 11)), "ask"},
	}
	results := runCases(t, env, s.project, cases)
	for i, c := range cases {
		t.Logf("%s (%d bytes): %v", c.name, len(c.stdin), results[i].took.Round(time.Millisecond))
	}
}

// faultLayer places a copy of testdata/layers/misbehave (built once by
// builtLayers) named mode in dir: the program picks its failure from its name.
func faultLayer(t *testing.T, dir, mode string) string {
	t.Helper()
	return placeLayer(t, builtLayers(t).misbehave, dir, mode)
}

// TestFaultLayers: third-party layers (testdata/layers/misbehave, configured
// through external_layers) that panic, hang in Decide, exit early, exit
// before the handshake or never handshake — each alone, and all of them at
// once next to a slow healthy layer (alone in the default process
// isolation of the built-ins, together in both isolation modes). The
// built-ins' verdicts come through unchanged (and the healthy layer's ask
// too), the answer comes inside the budget, every broken layer is logged
// as an error, and no process is left behind: the hanging modes start a
// sleeping grandchild, and nothing may run from the layers' directory
// after the hook exits.
func TestFaultLayers(t *testing.T) {
	t.Parallel() // it mostly waits (for timeouts) and takes little CPU
	broken := []string{"panic-decide", "hang-decide", "exit-decide", "exit-at-start", "hang-handshake"}
	type chain struct {
		name   string
		layers []string
		silent string // verdict for a command the built-ins are silent on
	}
	all := chain{name: "all at once", layers: append(append([]string{}, broken...), "slow-ask"), silent: "ask"}
	type run struct {
		chain         chain
		mode, command string
		want          string
		s             *scratch
		env           []string
		layerDir      string
		res           runResult
		err           error
	}
	var runs []*run
	for _, mode := range []string{"process", "inprocess"} {
		// Each broken layer alone in the default isolation; all of them
		// together in both.
		chains := []chain{all}
		if mode == "process" {
			for _, b := range broken {
				chains = append(chains, chain{name: b, layers: []string{b}, silent: "silent"})
			}
		}
		for _, ch := range chains {
			s := newScratch(t)
			var list []string
			for _, l := range ch.layers {
				list = append(list, faultLayer(t, filepath.Join(s.root, "layers"), l))
			}
			for _, c := range []struct{ command, want string }{{"rm -rf /", "ask"}, {"ls -la", ch.silent}} {
				env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_FENCE_LANGUAGE=en",
					"ZCODE_FENCE_EXTERNAL_LAYERS="+strings.Join(list, ";"))
				runs = append(runs, &run{chain: ch, mode: mode, command: c.command, want: c.want, s: s, env: env, layerDir: filepath.Join(s.root, "layers")})
			}
		}
	}
	// The runs use separate data dirs, so they may overlap; each waits
	// for up to the deterministic budget, so overlapping saves most of it.
	parallelDo(len(runs), func(i int) {
		r := runs[i]
		r.res, r.err = execHook(r.env, r.s.project, bashStdin(r.command, r.s.project))
	})
	// The healthy slow layer may miss its start timeout or the deadline on
	// a machine loaded far past its cores: it then fails open, and the log
	// says so (layerMissed). What is under test is how the host treats the
	// broken layers, not how fast this machine starts a process, so such a
	// run is checked against its record: the answer is the built-ins' alone.
	slowMissed := map[*run]bool{}
	for _, r := range runs {
		if !slices.Contains(r.chain.layers, "slow-ask") || r.err != nil {
			continue
		}
		if l, missed := layerMissed(recordsByPID(t, r.s.data)[r.res.pid], "slow-ask"); missed {
			slowMissed[r] = true
			t.Logf("%s/%s: %s: the healthy layer did not answer on this loaded machine (%s): it fails open, as logged", r.mode, r.chain.name, r.command, l.Error)
		}
	}
	for _, r := range runs {
		what := fmt.Sprintf("%s/%s: %s", r.mode, r.chain.name, r.command)
		want := r.want
		if slowMissed[r] && r.command == "ls -la" {
			want = "silent"
		}
		expectAnswer(t, what, r.res, r.err, want)
		// The time contract on the hook's own clock, not this test's wall.
		if r.err == nil && !checkHookClock(t, what, r.res, recordsByPID(t, r.s.data)) {
			t.Errorf("%s: no decision-log record for pid %d", what, r.res.pid)
		}
		t.Logf("%s -> %s in %v", what, want, r.res.took.Round(time.Millisecond))
		if left, ok := processesLeft(r.layerDir, 2*time.Second); ok && len(left) > 0 {
			t.Errorf("%s: processes %v left running after the hook exited", what, left)
		}
	}
	for _, r := range runs {
		what := fmt.Sprintf("%s/%s: %s", r.mode, r.chain.name, r.command)
		// Each run's own record (a run made again has a newer one).
		if rec, ok := recordsByPID(t, r.s.data)[r.res.pid]; ok {
			// A layer that never finishes its handshake, waited for (no
			// other layer asked), is what a start timeout looks like in
			// the log: layerMissed must see it, or a healthy layer's start
			// timeout under load would be taken for a failure.
			if _, missed := layerMissed(rec, "hang-handshake"); r.chain.name == "hang-handshake" && r.command == "ls -la" && !missed {
				t.Errorf("%s: layerMissed does not recognise the start timeout in %+v", what, rec.Layers)
			}
			seen := map[string]string{}
			for _, l := range rec.Layers {
				seen[l.Name] = l.Verdict
			}
			someoneAsked := false
			for _, l := range rec.Layers {
				someoneAsked = someoneAsked || l.Verdict == "ask"
			}
			for _, b := range r.chain.layers {
				want := "error"
				switch {
				case someoneAsked && seen[b] == "abandoned":
					// Not waited for: another layer had already asked
					// (host.AskGrace), which is the point of the grace;
					// the log says so instead of calling it an error.
					want = "abandoned"
				case b == "slow-ask" && slowMissed[r]:
					want = seen[b] // a load miss, checked above
				case b == "slow-ask":
					want = "ask"
				}
				if seen[b] != want {
					t.Errorf("%s: layer %s logged as %q, want %q (record layers %+v)", what, b, seen[b], want, rec.Layers)
				}
			}
		}
	}
	if _, ok := processesUnder(os.TempDir()); !ok {
		t.Logf("leak check not run: no process table reader on %s", runtime.GOOS)
	}
}

// TestFaultStorage: the data dir cannot be created, the disk is full
// (decisions.log and session-roots.log are /dev/full: every write fails
// with ENOSPC), the log is read-only or a directory, the data dir is
// read-only. The verdicts do not change, stdout and stderr stay clean, the
// exit code stays 0, and a session id (whose root lock cannot be recorded)
// changes nothing either.
func TestFaultStorage(t *testing.T) {
	t.Parallel()
	type fault struct {
		name string
		// setup breaks a data dir of s and returns the data dir to use.
		setup     func(t *testing.T, s *scratch) string
		onlyLinux bool // needs /dev/full or /proc
	}
	faults := []fault{
		{name: "data dir under a regular file", setup: func(t *testing.T, s *scratch) string {
			f := filepath.Join(s.root, "a-file")
			if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(f, "data")
		}},
		{name: "data dir on a read-only file system", onlyLinux: true, setup: func(t *testing.T, s *scratch) string {
			return "/proc/zcode-fence-data"
		}},
		{name: "full disk", onlyLinux: true, setup: func(t *testing.T, s *scratch) string {
			for _, name := range []string{decisionlog.FileName, session.FileName} {
				if err := os.Symlink("/dev/full", filepath.Join(s.data, name)); err != nil {
					t.Fatal(err)
				}
			}
			return s.data
		}},
		{name: "read-only decisions.log in a read-only data dir", setup: func(t *testing.T, s *scratch) string {
			if err := os.WriteFile(filepath.Join(s.data, decisionlog.FileName), []byte("{\"ts\":\"old\"}\n"), 0o400); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(s.data, 0o500); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(s.data, 0o700) })
			return s.data
		}},
		{name: "decisions.log is a directory", setup: func(t *testing.T, s *scratch) string {
			if err := os.MkdirAll(filepath.Join(s.data, decisionlog.FileName, "x"), 0o755); err != nil {
				t.Fatal(err)
			}
			return s.data
		}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel() // each fault has its own scratch and data dir
			if f.onlyLinux && runtime.GOOS != "linux" {
				t.Skipf("needs Linux (/dev/full, /proc); this is %s", runtime.GOOS)
			}
			s := newScratch(t)
			data := f.setup(t, s)
			stopWarmAtEnd(t, data)
			env := append(s.env("default", false), "ZCODE_FENCE_DATA_DIR="+data)
			runCasesLogged(t, env, s.project, []hookCase{
				{"rm -rf /", bashStdin("rm -rf /", s.project), "ask"},
				{"ls", bashStdin("ls", s.project), "silent"},
				{"write outside", bashStdin("echo x > /etc/zcode-fence-x", s.project), "ask"},
				{"Write outside in a session", hookPayload("Write", "/etc/zcode-fence-x", s.project, "storage-fault", true), "ask"},
				{"touch in a session", hookPayload("Bash", "touch src/a", s.project, "storage-fault", false), "silent"},
				{"broken stdin", []byte("{not json"), "silent"},
			}, false)
		})
	}
}

// TestFaultCorruptConfig: a config file that is garbage, truncated,
// wrongly typed, deeply nested, huge, BOM-prefixed or a directory means
// the defaults: the gate and the fence stay on.
func TestFaultCorruptConfig(t *testing.T) {
	t.Parallel()
	configs := map[string][]byte{
		"garbage":        []byte("\x00\xff not json at all"),
		"truncated":      []byte(`{"plugins":{"options":{"zcode-fence":{"enable_fence":"false"`),
		"wrong types":    []byte(`{"plugins":{"options":{"zcode-fence":{"enable_fence":[1,2],"enable_danger_gate":{"a":1},"language":7,"layer_isolation":null}}}}`),
		"options string": []byte(`{"plugins":{"options":"zcode-fence"}}`),
		"plugins array":  []byte(`{"plugins":[1,2,3]}`),
		"empty":          nil,
		"huge number":    []byte(`{"plugins":{"options":{"zcode-fence":{"decision_model_timeout_ms":1e400,"enable_fence":"false"}}}}`),
		"deep nesting":   []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)),
		"bom prefixed":   []byte("\xef\xbb\xbf" + `{"plugins":{"options":{"zcode-fence":{"enable_danger_gate":"false"}}}}`),
		"ten megabytes":  []byte(`{"plugins":{"options":{"zcode-fence":{"custom_rules":"` + strings.Repeat("a", 10<<20) + `"}}}}`),
	}
	s := newScratch(t)
	paths := []string{filepath.Join(s.configs, "a-directory.json")}
	if err := os.Mkdir(paths[0], 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedKeys(configs) {
		path := filepath.Join(s.configs, "corrupt-"+strings.ReplaceAll(name, " ", "-")+".json")
		if err := os.WriteFile(path, configs[name], 0o600); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	var cases []hookCase
	var envs [][]string
	for _, path := range paths {
		env := append(s.env("default", false), "ZCODE_FENCE_CONFIG="+path, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
		for _, c := range []hookCase{
			{"rm -rf /", bashStdin("rm -rf /", s.project), "ask"},
			{"ls", bashStdin("ls", s.project), "silent"},
			{"write outside", bashStdin("echo x > /etc/zcode-fence-x", s.project), "ask"},
		} {
			c.name = filepath.Base(path) + ": " + c.name
			cases, envs = append(cases, c), append(envs, env)
		}
	}
	results := make([]runResult, len(cases))
	errs := make([]error, len(cases))
	parallelDo(len(cases), func(i int) { results[i], errs[i] = execHook(envs[i], s.project, cases[i].stdin) })
	for i, c := range cases {
		expectAnswer(t, c.name, results[i], errs[i], c.want)
	}
}

// TestFaultCorruptSessionFile: session-roots.log holding garbage, binary
// bytes or an over-long line before a session's own line. The session
// keeps its first root: here the host's injected root drifted to the
// project's parent, so a write next to the project must still ask. If the
// corruption made the lock forget the first root, the drifted root would
// wave that write through (and the rewritten file would drop every other
// session too). A session-roots.log that is a directory only turns the
// lock off.
func TestFaultCorruptSessionFile(t *testing.T) {
	t.Parallel()
	corruptions := []struct{ name, before string }{
		{"clean file", ""},
		{"garbage lines", "not\ta\tvalid line\n\x00\xff\xfe\n\t\t\n#comment\n"},
		{"binary junk", string([]byte{0, 1, 2, 3, 0xff, '\n', 0x7f, '\t', '\t', '\n'})},
		{"line longer than 64 KiB", strings.Repeat("x", 100<<10) + "\n"},
	}
	for _, c := range corruptions {
		t.Run(c.name, func(t *testing.T) {
			s := newScratch(t)
			parent := filepath.Dir(s.project)
			line := fmt.Sprintf("sess-lock\t%s\t%s\n", s.project, time.Now().UTC().Format(time.RFC3339Nano))
			if err := os.WriteFile(filepath.Join(s.data, session.FileName), []byte(c.before+line), 0o600); err != nil {
				t.Fatal(err)
			}
			env := append(s.env("default", true), "ZCODE_PROJECT_DIR="+parent, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
			for _, hc := range []hookCase{
				{"write next to the project", hookPayload("Write", filepath.Join(parent, "sibling.txt"), parent, "sess-lock", true), "ask"},
				{"write in the project", hookPayload("Write", filepath.Join(s.project, "src", "a.txt"), parent, "sess-lock", true), "silent"},
				{"a new session", hookPayload("Bash", "ls", parent, "sess-new", false), "silent"},
				{"the first session again", hookPayload("Write", filepath.Join(parent, "sibling.txt"), parent, "sess-lock", true), "ask"},
			} {
				r, err := execHook(env, s.project, hc.stdin)
				expectAnswer(t, hc.name, r, err, hc.want)
			}
		})
	}
	t.Run("session-roots.log is a directory", func(t *testing.T) {
		s := newScratch(t)
		if err := os.MkdirAll(filepath.Join(s.data, session.FileName, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		env := append(s.env("default", false), "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
		runCases(t, env, s.project, []hookCase{
			{"rm -rf / in a session", hookPayload("Bash", "rm -rf /", s.project, "sess-dir", false), "ask"},
			{"ls in a session", hookPayload("Bash", "ls", s.project, "sess-dir", false), "silent"},
		})
	})
}

// awaitHook waits for the started hook cmd, whose stdout and stderr go to
// out and errb (t0 its start), for at most hookLimit more: its result, or an
// error when it ran longer (it is then killed) or could not be waited for.
func awaitHook(cmd *exec.Cmd, out, errb *bytes.Buffer, t0 time.Time) (runResult, error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		res := runResult{stdout: out.Bytes(), stderr: errb.Bytes(), took: time.Since(t0), pid: cmd.Process.Pid}
		if ee, ok := err.(*exec.ExitError); ok {
			res.code = ee.ExitCode()
		} else if err != nil {
			return res, err
		}
		return res, nil
	case <-time.After(hookLimit):
		cmd.Process.Kill()
		<-done
		return runResult{}, fmt.Errorf("no answer %v after the start, stdin open (killed)", hookLimit)
	}
}
