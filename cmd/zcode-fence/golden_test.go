package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden.jsonl with the answers of this build")

// goldenFile pins, for every call of every corpus in the repository, what
// the built binary answers: the verdict, the rule ids (from the decision
// log) and the exact reason the host is shown. Refactoring must keep it
// byte-identical; a change of behaviour updates it (go test -run TestGolden
// -update-golden) in the same commit, with the reason in the message.
const goldenFile = "testdata/golden.jsonl"

// goldenWorld is a simulated machine the golden calls are judged on. The
// golden binary (built with the zcodefence_sim tag) takes the OS rules
// from ZCODE_FENCE_SIM_OS and never resolves real paths, so the answers do
// not depend on the machine, its HOME or its file system.
type goldenWorld struct {
	home, project, extraRoot string
	env                      map[string]string
}

// goldenWorlds: "danger" is the danger gate's table world (a project
// below home), "fence" the project fence's (a project beside home); the
// command-line corpora use the fence world with their placeholders filled.
var goldenWorlds = map[string]goldenWorld{
	"danger/linux": {home: "/home/u", project: "/home/u/proj", env: map[string]string{
		"HOME": "/home/u", "TMPDIR": "/tmp", "USER": "u", "PATH": "/usr/bin:/bin"}},
	"danger/darwin": {home: "/Users/u", project: "/Users/u/proj", env: map[string]string{
		"HOME": "/Users/u", "TMPDIR": "/var/folders/xy/T", "USER": "u", "PATH": "/usr/bin:/bin"}},
	"danger/windows": {home: `C:\Users\alice`, project: `C:\Users\alice\proj`, env: map[string]string{
		"HOME": `C:\Users\alice`, "USERPROFILE": `C:\Users\alice`, "TEMP": `C:\Users\alice\AppData\Local\Temp`,
		"TMP": `C:\Users\alice\AppData\Local\Temp`, "SystemRoot": `C:\Windows`, "windir": `C:\Windows`,
		"SystemDrive": "C:", "ProgramFiles": `C:\Program Files`, "APPDATA": `C:\Users\alice\AppData\Roaming`}},
	"fence/linux": {home: "/home/alice", project: "/work/proj", extraRoot: "/work/extra-root", env: map[string]string{
		"HOME": "/home/alice", "TMPDIR": "/tmp", "USER": "alice"}},
	"fence/darwin": {home: "/Users/alice", project: "/Users/alice/proj", extraRoot: "/Users/alice/extra-root", env: map[string]string{
		"HOME": "/Users/alice", "TMPDIR": "/var/folders/zz/abc123/T", "USER": "alice"}},
	"fence/windows": {home: `C:\Users\alice`, project: `C:\work\proj`, extraRoot: `C:\work\extra-root`, env: map[string]string{
		"HOME": `C:\Users\alice`, "USERPROFILE": `C:\Users\alice`, "TEMP": `C:\Users\alice\AppData\Local\Temp`,
		"TMP": `C:\Users\alice\AppData\Local\Temp`, "SystemRoot": `C:\Windows`, "USERNAME": "alice"}},
}

// goldenCall is one call to judge: a shell command or a file tool's paths,
// in a world, with the settings its corpus gives it.
type goldenCall struct {
	world    string // "danger" or "fence"
	platform string // "linux", "darwin" or "windows"
	tool     string
	command  string   // shell tools
	paths    []string // file tools
	cwd      string   // payload cwd: "" the project; relative to the project; or absolute
	project  string   // "" the world's project; "-" none; else this path
	extra    string   // extra_writable_roots
	custom   string   // custom_rules
	lang     string   // language ("" the default)
	home     string   // "" the world's home; else this one (HOME too)
	env      map[string]string
}

// goldenEntry is one line of the golden file.
type goldenEntry struct {
	Corpus   string   `json:"corpus"`
	Case     string   `json:"case"`
	Platform string   `json:"platform"`
	Lang     string   `json:"lang,omitempty"`
	Verdict  string   `json:"verdict"`
	Rules    []string `json:"rules,omitempty"`
	Reason   string   `json:"reason,omitempty"`
}

func (e goldenEntry) key() string {
	return e.Corpus + "\x00" + e.Case + "\x00" + e.Platform + "\x00" + e.Lang
}

// goldenItem ties a call to the corpus case it came from.
type goldenItem struct {
	corpus, label string
	call          goldenCall
}

// goldenCorpus is one corpus file and how its cases become calls.
type goldenCorpus struct {
	pattern string
	read    func(t *testing.T, file string) []goldenItem
}

// goldenCorpora lists every corpus of verdicts in the repository. A
// pattern that matches nothing fails the test: corpora may move, but not
// out of the golden run.
var goldenCorpora = []goldenCorpus{
	{"../../plugins/danger/testdata/cases_*.json", readDangerTable},
	{"../../plugins/danger/testdata/seed-dg.json", readDangerTable},
	{"../../plugins/danger/testdata/messages.json", readDangerMessages},
	{"../../plugins/danger/testdata/everyday.txt", readLines("danger")},
	{"../../plugins/fence/testdata/cases_*.json", readFenceTable},
	{"../../plugins/fence/testdata/symlinks.json", readWalked("fence")},
	{"testdata/bypass-corpus.json", readBypass},
	{"testdata/design-examples.json", readDesign},
	{"testdata/seed-cases.json", readSeed},
	{"../../core/shell/testdata/everyday.txt", readShellBlocks},
	{"../../core/shell/testdata/cases.txt", readShellBlocks},
	{"../../core/shell/testdata/*.json", readWalked("fence")},
	{"../../e2e/testdata/zcode-cases.json", readWalked("fence")},
	{"../../examples/layers/*/testdata/*.json", readWalked("fence")},
}

// TestGolden runs every call of every corpus through the built binary in
// both isolation modes and compares verdict, rule ids and reason with
// testdata/golden.jsonl. Each answer must also keep the hook protocol
// (exit 0, nothing on stderr, zero bytes or the exact ask line) and every
// decision-log line must be one valid JSON record.
//
// The calls run in sim batch processes (batch_zcodefence_sim.go): each
// call goes through mainRun, the function main runs for a hook call, with
// the call's own environment, working directory, stdin pipe and captured
// stdout/stderr; its config is read, its decision-log record written and,
// in process isolation, its layers launched or reattached (real warm
// server processes) exactly as in a hook process. So the test still
// proves, for every call: the verdict, rule ids and reason; the exit code
// and the bytes written to stdout and stderr; the log record; agreement of
// the two isolation modes; reattachment to warm servers. What a batch
// cannot show — a real process's exit status and streams from start to
// exit — is checked here on a sample (the first call of each environment
// and every goldenExecEvery-th call run again as real hook processes, whose
// bytes must equal the batch's), and for whole corpora by the tests that
// exec the release-tagged binary (TestBypassCorpus, the seed and hardening
// tables). Cost: about 5 000 calls per mode in tens of seconds, where a
// process per call took minutes.
func TestGolden(t *testing.T) {
	t.Parallel()
	var items []goldenItem
	for _, c := range goldenCorpora {
		files, err := filepath.Glob(c.pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("corpus %s: no file matches (%v)", c.pattern, err)
		}
		for _, f := range files {
			items = append(items, c.read(t, f)...)
		}
	}
	// One run per distinct call: many corpora share commands.
	index := map[string]int{}
	var calls []goldenCall
	for _, it := range items {
		k := callKey(it.call)
		if _, ok := index[k]; !ok {
			index[k] = len(calls)
			calls = append(calls, it.call)
		}
	}
	bin := goldenBinary(t)
	results := map[string][]goldenEntry{}
	var stepsOf []callSteps
	for _, mode := range []string{"inprocess", "process"} {
		answers := runGolden(t, bin, mode, calls)
		if mode == "inprocess" {
			for _, a := range answers {
				stepsOf = append(stepsOf, a.Steps)
			}
		}
		entries := make([]goldenEntry, len(items))
		for i, it := range items {
			a := answers[index[callKey(it.call)]]
			entries[i] = goldenEntry{Corpus: strings.TrimPrefix(filepath.ToSlash(it.corpus), "../../"), Case: it.label,
				Platform: it.call.platform, Lang: it.call.lang, Verdict: a.Verdict, Rules: a.Rules, Reason: a.Reason}
		}
		results[mode] = entries
	}
	asks := 0
	for _, e := range results["inprocess"] {
		if e.Verdict == "ask" {
			asks++
		}
	}
	t.Logf("%d corpus cases, %d distinct calls, %d asks, in both isolation modes", len(items), len(calls), asks)
	checkEverydaySteps(t, items, index, stepsOf)

	// The modes must agree before either is compared with the file.
	for i, a := range results["inprocess"] {
		if b := results["process"][i]; !equalEntries(a, b) {
			t.Errorf("modes disagree on %s %q [%s]:\n  inprocess %s %v %q\n  process   %s %v %q",
				a.Corpus, a.Case, a.Platform, a.Verdict, a.Rules, a.Reason, b.Verdict, b.Rules, b.Reason)
		}
	}
	got := dedupeEntries(results["inprocess"])
	if *updateGolden {
		writeGolden(t, got)
		return
	}
	want := readGolden(t)
	compareGolden(t, got, want)
}

// checkEverydaySteps: every silent call of every corpus (everyday work)
// stays far below each step budget — a tenth at most — so the budgets
// never ask about everyday work, even if it grows; it logs the largest
// counts, overall and for the everyday corpora.
func checkEverydaySteps(t *testing.T, items []goldenItem, index map[string]int, stepsOf []callSteps) {
	t.Helper()
	type most struct {
		n    int
		call string
	}
	var all, everyday [3]most
	for _, it := range items {
		i := index[callKey(it.call)]
		st := stepsOf[i]
		if st == (callSteps{}) {
			continue // a file tool without a project, a tool the guard does not judge
		}
		for k, n := range [3]int{st.analysis, st.danger, st.fence} {
			if n > all[k].n {
				all[k] = most{n, describeCall(it.call)}
			}
			if strings.HasSuffix(it.corpus, "everyday.txt") && n > everyday[k].n {
				everyday[k] = most{n, describeCall(it.call)}
			}
		}
	}
	budgets := [3]int{analysis.DefaultMaxSteps, danger.StepBudget, fence.StepBudget}
	for k, name := range [3]string{"analysis", "danger", "fence"} {
		t.Logf("steps, %s: largest %d over all corpora (%.60s), %d over the everyday corpora, of a budget of %d",
			name, all[k].n, all[k].call, everyday[k].n, budgets[k])
		if everyday[k].n > budgets[k]/10 {
			t.Errorf("%s: an everyday call took %d steps, more than a tenth of the budget %d: %s", name, everyday[k].n, budgets[k], everyday[k].call)
		}
	}
}

// goldenAnswer is what one call got, and the steps it took.
type goldenAnswer struct {
	Verdict string
	Rules   []string
	Reason  string
	Steps   callSteps
}

// callSteps is the work of one call, in steps: the analysis' and each
// built-in layer's (from the decision log).
type callSteps struct{ analysis, danger, fence int }

// recordSteps reads the steps of a decision-log record.
func recordSteps(r decisionlog.Record) callSteps {
	out := callSteps{analysis: r.AnalysisSteps}
	for _, l := range r.Layers {
		n, _ := strconv.Atoi(l.Annotations[steps.Annotation])
		switch l.Name {
		case danger.Name:
			out.danger = n
		case fence.Name:
			out.fence = n
		}
	}
	return out
}

// runGolden judges calls in one isolation mode, grouped by environment.
func runGolden(t *testing.T, bin, mode string, calls []goldenCall) []goldenAnswer {
	t.Helper()
	groups := map[string][]int{}
	var order []string
	for i, c := range calls {
		k := envKey(c)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	out := make([]goldenAnswer, len(calls))
	scratchDir := t.TempDir()
	batches := startSimBatches(t, bin, scratchDir, simBatchWorkers)
	servers, groupsRun, callsRun, execs := 0, 0, 0, 0
	defer func() {
		t.Logf("%s isolation: %d calls through the sim batch, %d of them also as real processes", mode, len(calls), execs)
		if mode != "process" || t.Failed() {
			return
		}
		// Reattach was exercised: far fewer servers than calls (each
		// group starts at most one per built-in layer).
		t.Logf("process isolation: %d calls in %d environments served by %d warm layer servers", callsRun, groupsRun, servers)
		if servers == 0 || servers > 2*groupsRun {
			t.Errorf("%d warm servers for %d groups of calls: want 1 or 2 per group", servers, groupsRun)
		}
	}()
	for g, k := range order {
		idx := groups[k]
		data := filepath.Join(scratchDir, fmt.Sprintf("%s-%d", mode, g))
		if err := os.MkdirAll(data, 0o700); err != nil {
			t.Fatal(err)
		}
		env := goldenEnv(calls[idx[0]], data, mode)
		payloads := make([][]byte, len(idx))
		for j, i := range idx {
			payloads[j] = goldenPayload(calls[i], goldenSession(i))
		}
		results := make([]runResult, len(idx))
		errs := make([]error, len(idx))
		batches.do(len(idx), func(b *simBatchProc, j int) { results[j], errs[j] = b.call(env, scratchDir, payloads[j]) })
		// A sample of the calls also runs as real hook processes, in the
		// same environment and data dir (in process mode they reattach to
		// the servers the batch started): the exact bytes must match.
		var sample []int
		for j, i := range idx {
			if j == 0 || i%goldenExecEvery == 0 {
				sample = append(sample, j)
			}
		}
		real := make([]runResult, len(sample))
		realErrs := make([]error, len(sample))
		parallelDo(len(sample), func(s int) {
			real[s], realErrs[s] = execHookWith(bin, env, scratchDir, payloads[sample[s]])
		})
		execs += len(sample)
		for s, j := range sample {
			c := describeCall(calls[idx[j]])
			if realErrs[s] != nil {
				t.Fatalf("%s: real process: %s: %v", mode, c, realErrs[s])
			}
			if errs[j] == nil && (real[s].code != results[j].code || !bytes.Equal(real[s].stdout, results[j].stdout) ||
				!bytes.Equal(real[s].stderr, results[j].stderr)) {
				t.Errorf("%s: %s: a real process and the sim batch differ:\n  process exit %d stdout %q stderr %q\n  batch   exit %d stdout %q stderr %q",
					mode, c, real[s].code, real[s].stdout, real[s].stderr, results[j].code, results[j].stdout, results[j].stderr)
			}
		}
		if mode == "process" {
			// The group's calls shared warm servers (one per layer, started
			// by one call, reattached to by the others): stop them before
			// the next group starts its own.
			servers += stopWarm(t, data)
			groupsRun++
			callsRun += len(idx)
		}
		records := goldenRecords(t, data)
		for j, i := range idx {
			if errs[j] != nil {
				t.Fatalf("%s: %s: %v", mode, describeCall(calls[i]), errs[j])
			}
			verdict, detail := checkAnswer(results[j])
			if verdict == "" {
				t.Errorf("%s: %s: protocol broken: %s", mode, describeCall(calls[i]), detail)
				continue
			}
			a := goldenAnswer{Verdict: verdict}
			rec, ok := records[goldenSession(i)]
			if !ok { // every call is logged (enable_log), and the log loses nothing
				t.Fatalf("%s: %s: no decision-log record (%q)", mode, describeCall(calls[i]), results[j].stdout)
			}
			if verdict == "ask" {
				a.Reason = detail
				a.Rules = rec.Rules
			}
			a.Steps = recordSteps(rec)
			out[i] = a
		}
	}
	return out
}

// goldenSession is the session id that finds call i's log record.
func goldenSession(i int) string { return fmt.Sprintf("golden-%06d", i) }

// goldenRecords reads a data dir's decision log by session id.
func goldenRecords(t *testing.T, dir string) map[string]decisionlog.Record {
	t.Helper()
	out := map[string]decisionlog.Record{}
	for _, r := range logRecords(t, dir) {
		out[r.Session] = r
	}
	return out
}

// goldenEnv is the hook's whole environment for one group of calls:
// nothing is inherited but PATH (the binary needs no more), so the
// machine's own variables cannot change an answer.
func goldenEnv(c goldenCall, data, mode string) []string {
	w := goldenWorlds[c.world+"/"+c.platform]
	if c.home != "" {
		w.home = c.home
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"ZCODE_FENCE_SIM_OS=" + c.platform,
		"ZCODE_FENCE_HOME=" + w.home,
		"ZCODE_FENCE_DATA_DIR=" + data,
		"ZCODE_FENCE_CONFIG=" + filepath.Join(data, "no-config.json"),
		"ZCODE_FENCE_LAYER_ISOLATION=" + mode,
		"ZCODE_FENCE_LOCK_SESSION_ROOT=false",
		"ZCODE_FENCE_ENABLE_LOG=true", // every call's record, with its steps
	}
	vars := map[string]string{}
	for k, v := range w.env {
		vars[k] = v
	}
	for k, v := range c.env {
		vars[k] = v
	}
	if c.home != "" {
		vars["HOME"] = c.home
	}
	if _, ok := vars["TMPDIR"]; !ok {
		vars["TMPDIR"] = "" // a simulated Windows has none; the binary must not see the machine's
	}
	if _, ok := vars["LANG"]; !ok {
		vars["LANG"] = "zh_CN.UTF-8" // language auto: the golden reasons are Chinese unless a case says
	}
	for _, k := range sortedKeys(vars) {
		env = append(env, k+"="+vars[k])
	}
	if p := projectOf(c); p != "" {
		env = append(env, "ZCODE_PROJECT_DIR="+p)
	} else {
		// ZCode, the corpora's host, sets this for every process it starts:
		// a call without a project is still recognised as ZCode's.
		env = append(env, "ZCODE_APP_VERSION=golden")
	}
	if c.extra != "" {
		env = append(env, "ZCODE_FENCE_EXTRA_WRITABLE_ROOTS="+c.extra)
	}
	if c.custom != "" {
		env = append(env, "ZCODE_FENCE_CUSTOM_RULES="+c.custom)
	}
	if c.lang != "" {
		env = append(env, "ZCODE_FENCE_LANGUAGE="+c.lang)
	}
	return env
}

func projectOf(c goldenCall) string {
	switch c.project {
	case "":
		return goldenWorlds[c.world+"/"+c.platform].project
	case "-":
		return ""
	}
	return c.project
}

// goldenPayload is the hook input for c, as Claude Code sends it.
func goldenPayload(c goldenCall, session string) []byte {
	cwd := projectOf(c)
	switch {
	case c.cwd == "":
	case isAbsAny(c.cwd):
		cwd = c.cwd
	case cwd != "":
		sep := "/"
		if c.platform == "windows" {
			sep = `\`
		}
		cwd = strings.TrimRight(cwd, `/\`) + sep + c.cwd
	}
	var input map[string]any
	switch c.tool {
	case "Write":
		input = map[string]any{"file_path": first(c.paths), "content": "x\n"}
	case "Edit":
		input = map[string]any{"file_path": first(c.paths), "old_string": "a", "new_string": "b"}
	case "NotebookEdit":
		input = map[string]any{"notebook_path": first(c.paths), "new_source": "x"}
	case "MultiEdit":
		var edits []any
		for _, p := range c.paths[min(1, len(c.paths)):] {
			edits = append(edits, map[string]any{"file_path": p, "old_string": "a", "new_string": "b"})
		}
		input = map[string]any{"file_path": first(c.paths), "edits": edits}
	case "Read":
		input = map[string]any{"file_path": c.command}
	case "Grep":
		input = map[string]any{"pattern": "token", "path": c.command}
	case "NotebookRead":
		input = map[string]any{"notebook_path": c.command}
	case "ApplyPatch":
		var b strings.Builder
		b.WriteString("*** Begin Patch\n")
		for _, p := range c.paths {
			fmt.Fprintf(&b, "*** Update File: %s\n@@\n-a\n+b\n", p)
		}
		b.WriteString("*** End Patch\n")
		input = map[string]any{"patch": b.String()}
	default:
		input = map[string]any{"command": c.command}
	}
	p := map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.tool, "tool_input": input, "session_id": session}
	if cwd != "" {
		p["cwd"] = cwd
	}
	b, _ := json.Marshal(p)
	return b
}

func first(ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	return ps[0]
}

// isAbsAny: a Unix, drive or UNC absolute path.
func isAbsAny(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) || (len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/'))
}

func callKey(c goldenCall) string {
	b, _ := json.Marshal([]any{c.world, c.platform, c.tool, c.command, c.paths, c.cwd, c.project, c.extra, c.custom, c.lang, c.home, c.env})
	return string(b)
}

func envKey(c goldenCall) string {
	b, _ := json.Marshal([]any{c.world, c.platform, c.project, c.extra, c.custom, c.lang, c.home, c.env})
	return string(b)
}

func describeCall(c goldenCall) string {
	text := c.command
	if c.paths != nil {
		text = strings.Join(c.paths, " ")
	}
	return fmt.Sprintf("[%s %s/%s] %s", c.tool, c.world, c.platform, oneLine(text))
}

// caseLabel names a corpus case in the golden file: its id, else its text
// (long texts cut, with a hash so that two long cases never share a label).
func caseLabel(id, text string) string {
	if id != "" {
		return id
	}
	r := []rune(text)
	if len(r) <= 160 {
		return text
	}
	sum := sha256.Sum256([]byte(text))
	return string(r[:120]) + "…#" + hex.EncodeToString(sum[:6])
}

func platformOr(p string) string {
	if p == "" {
		return "linux"
	}
	return p
}

func toolOr(t string) string {
	if t == "" {
		return "Bash"
	}
	return t
}

// readDangerTable: the danger gate's table cases (and its seed cases),
// in the danger world, with their custom rules.
func readDangerTable(t *testing.T, file string) []goldenItem {
	var cases []struct {
		ID, Command, Platform, Tool, Cwd string
		CustomRules                      string `json:"custom_rules"`
		Config                           string
	}
	readJSON(t, file, &cases)
	seedRules := map[string]string{"custom": "^special-cleanup", "invalid": "special-cleanup;(["}
	var out []goldenItem
	for _, c := range cases {
		custom := c.CustomRules
		if c.Config != "" {
			custom = seedRules[c.Config]
		}
		plat := platformOr(c.Platform)
		command := strings.ReplaceAll(c.Command, "{PROJECT}", goldenWorlds["danger/"+plat].project)
		out = append(out, goldenItem{corpus: file, label: caseLabel(c.ID, c.Command), call: goldenCall{
			world: "danger", platform: plat, tool: toolOr(c.Tool), command: command, cwd: c.Cwd, custom: custom}})
	}
	return out
}

// readDangerMessages: the message cases, in both languages.
func readDangerMessages(t *testing.T, file string) []goldenItem {
	var out []goldenItem
	for _, it := range readDangerTable(t, file) {
		for _, lang := range []string{"zh", "en"} {
			it.call.lang = lang
			out = append(out, it)
		}
	}
	return out
}

// readFenceTable: the project fence's table cases, in the fence world.
func readFenceTable(t *testing.T, file string) []goldenItem {
	var cases []struct {
		ID, Tool, Command, Platform, Cwd, Project, Extra, Lang, Home string
		Paths                                                        []string
		Env                                                          map[string]string
	}
	readJSON(t, file, &cases)
	var out []goldenItem
	for _, c := range cases {
		call := goldenCall{world: "fence", platform: platformOr(c.Platform), tool: toolOr(c.Tool), command: c.Command,
			cwd: c.Cwd, project: c.Project, extra: c.Extra, lang: c.Lang, home: c.Home, env: c.Env}
		if isFileToolName(call.tool) {
			call.command, call.paths = "", c.Paths
			if call.paths == nil {
				call.paths = []string{}
			}
		}
		out = append(out, goldenItem{corpus: file, label: caseLabel(c.ID, c.Command), call: call})
	}
	return out
}

// goldenRender fills the command-line corpora's placeholders for a world.
func goldenRender(world, v string) string {
	w := goldenWorlds[world]
	return fillPlaceholders(v, map[string]string{
		"PROJECT_MSYS": w.project,
		"PROJECT":      w.project,
		"EXTRA":        w.extraRoot,
		"MEM":          w.home + "/.zcode/cli/memories",
		"TEMP":         "/tmp",
		"LONG":         strings.Repeat("a", 10000),
		"ROOT":         filepath.Dir(w.project),
		"HOME":         w.home,
	})
}

// readBypass: the bypass corpus, in the fence world.
func readBypass(t *testing.T, file string) []goldenItem {
	var cases []bypassCase
	readJSON(t, file, &cases)
	var out []goldenItem
	for _, c := range cases {
		plat := platformOr(c.Platform)
		call := goldenCall{world: "fence", platform: plat, tool: c.tool(), cwd: goldenRender("fence/"+plat, c.Cwd)}
		if c.isFileTool() {
			call.paths = []string{goldenRender("fence/"+plat, c.Command)}
		} else {
			call.command = goldenRender("fence/"+plat, c.Command)
		}
		out = append(out, goldenItem{corpus: file, label: caseLabel("", c.Command) + cwdSuffix(c.Cwd) + toolSuffix(c.Tool), call: call})
	}
	return out
}

func cwdSuffix(cwd string) string {
	if cwd == "" {
		return ""
	}
	return " (cwd " + cwd + ")"
}

func toolSuffix(tool string) string {
	if tool == "" {
		return ""
	}
	return " [" + tool + "]"
}

// readDesign: DESIGN.md §5's examples, with their custom rules.
func readDesign(t *testing.T, file string) []goldenItem {
	var cases []designExample
	readJSON(t, file, &cases)
	var out []goldenItem
	for _, c := range cases {
		out = append(out, goldenItem{corpus: file, label: caseLabel("", c.Command), call: goldenCall{
			world: "fence", platform: "linux", tool: "Bash", command: c.Command, custom: c.CustomRules}})
	}
	return out
}

// readSeed: the original's acceptance cases that are tool calls (the
// stdin-shape cases are the protocol tests' business).
func readSeed(t *testing.T, file string) []goldenItem {
	var cases []seedCase
	readJSON(t, file, &cases)
	fixtures := map[string]map[string]string{
		"custom": {"custom_rules": "^special-cleanup"}, "invalid": {"custom_rules": "special-cleanup;(["},
		"gate-off": {"enable_danger_gate": "false"}, "fence-off": {"enable_fence": "false"},
		"extra-roots": {"extra_writable_roots": "{EXTRA}"},
	}
	var out []goldenItem
	for _, c := range cases {
		plats := c.Platforms
		if len(plats) == 0 {
			plats = []string{"linux"}
		}
		for _, plat := range plats {
			if plat == "win32" {
				plat = "windows"
			}
			world := "fence/" + plat
			call := goldenCall{world: "fence", platform: plat}
			switch c.Mode {
			case "bash":
				call.tool, call.command = "Bash", goldenRender(world, *c.Command)
			case "file":
				call.tool, call.paths = c.Tool, []string{goldenRender(world, c.FilePath)}
			default:
				continue
			}
			if c.NoProject {
				call.project = "-"
			}
			for k, v := range fixtures[c.Config] {
				switch k {
				case "custom_rules":
					call.custom = v
				case "extra_writable_roots":
					call.extra = goldenRender(world, v)
				default:
					call.env = map[string]string{"ZCODE_FENCE_" + strings.ToUpper(k): v}
				}
			}
			out = append(out, goldenItem{corpus: file, label: c.ID, call: call})
		}
	}
	return out
}

// readLines: one command a line (\n for a line break), # comments.
func readLines(world string) func(t *testing.T, file string) []goldenItem {
	return func(t *testing.T, file string) []goldenItem {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var out []goldenItem
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := sc.Text()
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			cmd := strings.ReplaceAll(line, `\n`, "\n")
			for _, plat := range []string{"linux", "darwin", "windows"} {
				out = append(out, goldenItem{corpus: file, label: caseLabel("", cmd), call: goldenCall{
					world: world, platform: plat, tool: "Bash", command: cmd}})
			}
		}
		return out
	}
}

// readShellBlocks: core/shell's "=== name" blocks (cases.txt ends each
// input at "---"; everyday.txt at the next block).
func readShellBlocks(t *testing.T, file string) []goldenItem {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenItem
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		head, ok := strings.CutPrefix(lines[i], "=== ")
		if !ok {
			continue
		}
		tool := "Bash"
		switch {
		case strings.Contains(head, "dialect=powershell"):
			tool = "PowerShell"
		case strings.Contains(head, "dialect=cmd"):
			continue // no tool hands the hook cmd.exe text directly
		}
		var input []string
		for i+1 < len(lines) && lines[i+1] != "---" && !strings.HasPrefix(lines[i+1], "=== ") {
			i++
			input = append(input, lines[i])
		}
		src := strings.TrimRight(strings.Join(input, "\n"), "\n")
		if strings.TrimSpace(src) == "" {
			continue
		}
		out = append(out, goldenItem{corpus: file, label: caseLabel("", head), call: goldenCall{
			world: "fence", platform: "linux", tool: tool, command: src}})
	}
	return out
}

// readWalked: any JSON corpus, walked for commands and file-tool paths
// (see walkJSON), in the given world on Linux.
func readWalked(world string) func(t *testing.T, file string) []goldenItem {
	return func(t *testing.T, file string) []goldenItem {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var found []corpusCall
		walkJSON(v, &found)
		var out []goldenItem
		for _, c := range found {
			text := goldenRender(world+"/linux", c.text)
			call := goldenCall{world: world, platform: "linux", tool: c.tool}
			if c.file {
				call.paths = []string{text}
			} else {
				call.command = text
			}
			out = append(out, goldenItem{corpus: file, label: caseLabel("", c.text) + toolSuffix(c.tool), call: call})
		}
		return out
	}
}

func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// goldenBinary builds the binary with the zcodefence_sim tag (once per
// test process), beside the one TestMain built.
func goldenBinary(t *testing.T) string { return taggedBinary(t, "zcodefence_sim") }

// taggedBuilds caches the binaries built with a test-only build tag, one
// per tag.
var taggedBuilds sync.Map // tag -> *taggedBuild

type taggedBuild struct {
	once sync.Once
	path string
	err  error
}

// taggedBinary builds the binary with build tag tag (once per test
// process), beside the one TestMain built, and returns its path.
func taggedBinary(t *testing.T, tag string) string {
	t.Helper()
	v, _ := taggedBuilds.LoadOrStore(tag, &taggedBuild{})
	tb := v.(*taggedBuild)
	tb.once.Do(func() {
		tb.path = filepath.Join(filepath.Dir(binary), "zcode-fence-"+tag)
		cmd := exec.Command("go", "build", "-tags", tag, "-o", tb.path, ".")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			tb.err = fmt.Errorf("building the binary with tag %s: %v\n%s", tag, err, stderr.String())
		}
	})
	if tb.err != nil {
		t.Fatal(tb.err)
	}
	return tb.path
}

func equalEntries(a, b goldenEntry) bool {
	return a.Verdict == b.Verdict && a.Reason == b.Reason && slices.Equal(a.Rules, b.Rules)
}

// dedupeEntries drops repeats of a case (a corpus may list one twice) and
// sorts by key, so the file diffs well.
func dedupeEntries(es []goldenEntry) []goldenEntry {
	seen := map[string]bool{}
	var out []goldenEntry
	for _, e := range es {
		if !seen[e.key()] {
			seen[e.key()] = true
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].key() < out[j].key() })
	return out
}

func writeGolden(t *testing.T, es []goldenEntry) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, e := range es {
		if err := enc.Encode(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(goldenFile, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d entries", goldenFile, len(es))
}

func readGolden(t *testing.T) map[string]goldenEntry {
	t.Helper()
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (create it with go test -run TestGolden -update-golden)", err)
	}
	out := map[string]goldenEntry{}
	for i, line := range bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")) {
		var e goldenEntry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("%s line %d: %v", goldenFile, i+1, err)
		}
		out[e.key()] = e
	}
	return out
}

// compareGolden reports every difference, at most 40 in full.
func compareGolden(t *testing.T, got []goldenEntry, want map[string]goldenEntry) {
	t.Helper()
	shown, diffs := 0, 0
	report := func(format string, args ...any) {
		diffs++
		if shown < 40 {
			shown++
			t.Errorf(format, args...)
		}
	}
	seen := map[string]bool{}
	for _, g := range got {
		seen[g.key()] = true
		w, ok := want[g.key()]
		switch {
		case !ok:
			report("new case, not in %s: %s %q [%s]: %s %v", goldenFile, g.Corpus, g.Case, g.Platform, g.Verdict, g.Rules)
		case !equalEntries(g, w):
			report("%s %q [%s %s]:\n  golden %s %v %q\n  now    %s %v %q", g.Corpus, g.Case, g.Platform, g.Lang,
				w.Verdict, w.Rules, w.Reason, g.Verdict, g.Rules, g.Reason)
		}
	}
	for k, w := range want {
		if !seen[k] {
			report("case gone from the corpora: %s %q [%s]", w.Corpus, w.Case, w.Platform)
		}
	}
	if diffs > 0 {
		t.Errorf("%d differences from %s (%d shown). If the change is intended, update the file with -update-golden and say why in the commit.", diffs, goldenFile, shown)
	}
}
