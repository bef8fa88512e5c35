package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realWorldFile is the real-world corpus: command lines nobody on the
// team wrote (public collections of shell examples, placeholders resolved
// to project paths), each adjudicated by a person: "e":"ask" marks a
// command that really crosses one of the guard's lines, every other line
// is everyday work that must stay silent. "k" notes a known disagreement
// of the guard with the adjudication (a wrong ask or a miss not fixed
// yet). testdata/realworld/README.md says where the lines come from.
const realWorldFile = "testdata/realworld/commands.jsonl"

// realWorldMaxWrongAsks is the ceiling on wrong asks, as a fraction of the
// everyday commands (DESIGN §13 "Precision").
const realWorldMaxWrongAsks = 0.001

// realWorldCase is one line of the corpus.
type realWorldCase struct {
	Command  string `json:"c"`
	Source   string `json:"s"`
	Platform string `json:"p,omitempty"`
	Expect   string `json:"e,omitempty"`
	Known    string `json:"k,omitempty"`
}

func readRealWorld(t *testing.T) []realWorldCase {
	t.Helper()
	f, err := os.Open(realWorldFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []realWorldCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c realWorldCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", realWorldFile, n, err)
		}
		if c.Command == "" || c.Source == "" || (c.Expect != "" && c.Expect != "ask") {
			t.Fatalf("%s:%d: a line needs c and s, and e is \"ask\" or absent: %s", realWorldFile, n, sc.Text())
		}
		if c.Known != "" && !strings.HasPrefix(c.Known, "wrong ask: ") && !strings.HasPrefix(c.Known, "miss: ") {
			t.Fatalf("%s:%d: k starts with \"wrong ask: \" or \"miss: \": %s", realWorldFile, n, sc.Text())
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRealWorldCorpus judges every line of the real-world corpus through
// the built binary (the sim batch, in process isolation mode inprocess;
// the golden test proves both modes agree on every call kind) in the
// fence world, and compares each verdict with the person's adjudication.
// It reports the wrong-ask rate over the everyday commands and the miss
// count, and fails when a verdict differs from the adjudication without a
// known note, when a known note no longer describes a difference (the
// note is stale: remove it), or when the wrong asks exceed
// realWorldMaxWrongAsks of the everyday commands.
func TestRealWorldCorpus(t *testing.T) {
	t.Parallel()
	cases := readRealWorld(t)
	calls := make([]goldenCall, len(cases))
	for i, c := range cases {
		plat := platformOr(c.Platform)
		calls[i] = goldenCall{world: "fence", platform: plat, tool: "Bash", command: c.Command}
	}
	answers := runRealWorld(t, calls)
	var everyday, crossing, wrong, missed, knownWrong, knownMissed int
	for i, c := range cases {
		got := answers[i]
		want := "silent"
		if c.Expect == "ask" {
			want = "ask"
			crossing++
		} else {
			everyday++
		}
		differs := got != want
		switch {
		case differs && want == "silent":
			wrong++
		case differs:
			missed++
		}
		switch {
		case differs && c.Known == "":
			t.Errorf("%s [%s]: %s, adjudicated %s: %q", c.Source, platformOr(c.Platform), got, want, c.Command)
		case !differs && c.Known != "":
			t.Errorf("%s [%s]: stale note %q: the guard now agrees (%s): %q", c.Source, platformOr(c.Platform), c.Known, got, c.Command)
		case differs && want == "silent":
			knownWrong++
		case differs:
			knownMissed++
		}
	}
	rate := float64(wrong) / float64(max(everyday, 1))
	t.Logf("real-world corpus: %d commands (%d everyday, %d crossing a line); wrong asks %d = %.3f%% of everyday (%d noted); misses %d = %.1f%% of crossing (%d noted)",
		len(cases), everyday, crossing, wrong, 100*rate, knownWrong, missed, 100*float64(missed)/float64(max(crossing, 1)), knownMissed)
	if rate > realWorldMaxWrongAsks {
		t.Errorf("wrong asks are %.3f%% of the everyday commands, over the ceiling of %.1f%%", 100*rate, 100*realWorldMaxWrongAsks)
	}
}

// runRealWorld judges calls through sim batches (all calls share one
// environment per platform) and returns each call's verdict.
func runRealWorld(t *testing.T, calls []goldenCall) []string {
	t.Helper()
	bin := goldenBinary(t)
	scratch := t.TempDir()
	batches := startSimBatches(t, bin, scratch, simBatchWorkers)
	out := make([]string, len(calls))
	groups := map[string][]int{}
	for i, c := range calls {
		groups[c.platform] = append(groups[c.platform], i)
	}
	for plat, idx := range groups {
		data := filepath.Join(scratch, plat)
		if err := os.MkdirAll(data, 0o700); err != nil {
			t.Fatal(err)
		}
		env := goldenEnv(calls[idx[0]], data, "inprocess")
		for k, kv := range env {
			if kv == "ZCODE_FENCE_ENABLE_LOG=true" {
				env[k] = "ZCODE_FENCE_ENABLE_LOG=false" // nothing here reads the log
			}
		}
		errs := make([]error, len(idx))
		batches.do(len(idx), func(b *simBatchProc, j int) {
			i := idx[j]
			r, err := b.call(env, scratch, goldenPayload(calls[i], fmt.Sprintf("realworld-%06d", i)))
			if err != nil {
				errs[j] = err
				return
			}
			v, detail := checkAnswer(r)
			if v == "" {
				errs[j] = fmt.Errorf("%s: protocol broken: %s", describeCall(calls[i]), detail)
			}
			out[i] = v
		})
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}
