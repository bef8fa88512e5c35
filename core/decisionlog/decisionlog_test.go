package decisionlog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/internal/filelock"
)

func TestAppendAndRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "data")
	recs := []Record{
		{Source: "hook", Level: "info", Verdict: "ask", Tool: "Bash", Detail: "rm -rf /", Rules: []string{"DG-RM-RECURSIVE"}},
		{Source: "eval", Level: "info", Verdict: "silent", Tool: "Write", Detail: "/p/a.txt"},
		{Source: "hook", Level: "error", Verdict: "error", Errors: []string{"stdin: invalid JSON"}, Stdin: "not-json{{"},
	}
	for _, r := range recs {
		if err := Append(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	got, bad, err := Read(dir)
	if err != nil || bad != 0 {
		t.Fatalf("Read: %v, bad=%d", err, bad)
	}
	if len(got) != 3 || got[0].Verdict != "ask" || got[2].Stdin != "not-json{{" {
		t.Fatalf("records = %+v", got)
	}
	if got[0].TS == "" || got[0].PID == 0 {
		t.Fatal("TS/PID not filled")
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	for _, want := range []string{`"level":"error"`, `"verdict":"ask"`, `rm -rf /`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("log lacks %s", want)
		}
	}
	if strings.Contains(string(raw), `"source":"eval"`) {
		t.Error("an eval record is in the hook log")
	}
	raw, _ = os.ReadFile(filepath.Join(dir, EvalFileName))
	if !strings.Contains(string(raw), `/p/a.txt`) || strings.Contains(string(raw), `"source":"hook"`) {
		t.Errorf("eval log = %s", raw)
	}
	if got[1].Source != "eval" {
		t.Errorf("the two logs are not merged by time: %+v", got)
	}
}

// TestEvalFloodKeepsHookAsks: after a hook ask, eval records worth many
// times the whole log's capacity (a loop of --eval, each record of the
// maximum size) rotate only the eval log: the ask is still read, and the
// hook log holds nothing else.
func TestEvalFloodKeepsHookAsks(t *testing.T) {
	dir := t.TempDir()
	if err := Append(dir, Record{Source: "hook", Verdict: "ask", Detail: "the-ask", Rules: []string{"DG-RM-RECURSIVE"}}); err != nil {
		t.Fatal(err)
	}
	big := Record{Source: "eval", Verdict: "ask", Stdin: strings.Repeat("s", 10_000)}
	for k := range 20 {
		big.Errors = append(big.Errors, fmt.Sprintf("%d %s", k, strings.Repeat("e", 2000)))
	}
	line, _ := Marshal(big.Redacted().Capped())
	n := 2 * (Keep + 1) * MaxSize / len(line)
	for range n {
		if err := Append(dir, big); err != nil {
			t.Fatal(err)
		}
	}
	recs, _, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	hooks := 0
	for _, r := range recs {
		if r.Source == "hook" {
			hooks++
			if r.Detail != "the-ask" {
				t.Errorf("hook record %+v", r)
			}
		}
	}
	if hooks != 1 {
		t.Fatalf("%d eval records of %d bytes left %d hook records, want the ask", n, len(line), hooks)
	}
	if _, err := os.Stat(filepath.Join(dir, EvalFileName+".1")); err != nil {
		t.Errorf("the eval log did not rotate: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, EvalFileName+"."+fmt.Sprint(EvalKeep+1))); err == nil {
		t.Errorf("more than %d eval generations kept", EvalKeep)
	}
}

// TestFailureNotes: a record that cannot be appended (the data dir lies
// under a regular file, so neither it nor a note in it can be created)
// leaves a note in a fallback place; a log that is a directory leaves one
// in the data dir; ReadFailures counts both kinds and names the files.
func TestFailureNotes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, "cache"))
	t.Setenv("TMPDIR", filepath.Join(home, "tmp"))
	os.Mkdir(filepath.Join(home, "tmp"), 0o700)

	blocker := filepath.Join(home, "file")
	os.WriteFile(blocker, nil, 0o600)
	under := filepath.Join(blocker, "data")
	for range 3 {
		err := Append(under, Record{Source: "hook", Verdict: "ask"})
		if err == nil {
			t.Fatal("Append under a regular file succeeded")
		}
		NoteFailure(under, "hook", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil || !strings.HasPrefix(cache, home) {
		t.Fatalf("UserCacheDir = %q, %v", cache, err)
	}
	f := ReadFailures(under)
	if f.Count != 3 || len(f.Paths) != 1 || !strings.HasPrefix(f.Paths[0], cache) {
		t.Fatalf("failures under a file = %+v", f)
	}
	if !strings.Contains(f.String(), "3 decision-log records could not be written") || !strings.Contains(f.String(), "not a directory") {
		t.Errorf("String = %q", f)
	}

	dir := filepath.Join(home, "data")
	os.MkdirAll(filepath.Join(dir, FileName), 0o700)
	err = Append(dir, Record{Source: "hook", Verdict: "ask"})
	if err == nil {
		t.Fatal("Append to a log that is a directory succeeded")
	}
	NoteFailure(dir, "hook", err)
	f = ReadFailures(dir)
	if f.Count != 1 || len(f.Paths) != 1 || f.Paths[0] != filepath.Join(dir, FailureFileName) {
		t.Fatalf("failures with a directory for a log = %+v", f)
	}
	if g := ReadFailures(filepath.Join(home, "healthy")); g.Count != 0 || g.String() != "" {
		t.Errorf("a dir with no failures reports %+v", g)
	}

	// Both the cache and the data dir refuse: the temporary dir takes it.
	os.RemoveAll(cache)
	os.WriteFile(cache, nil, 0o600)
	NoteFailure(under, "eval", err)
	f = ReadFailures(under)
	if f.Count != 1 || len(f.Paths) != 1 || !strings.HasPrefix(f.Paths[0], filepath.Join(home, "tmp")) {
		t.Fatalf("failures with the cache blocked = %+v", f)
	}
}

// TestFailureNotesCapped: past its cap a notes file only has its time
// moved, and the count says "at least".
func TestFailureNotesCapped(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FailureFileName)
	line, _ := json.Marshal(failureNote{TS: time.Now().UTC().Format(time.RFC3339Nano), Error: strings.Repeat("x", 100)})
	os.WriteFile(path, []byte(strings.Repeat(string(line)+"\n", maxFailureFile/len(line)+1)), 0o600)
	before, _ := os.Stat(path)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	NoteFailure(dir, "hook", fmt.Errorf("disk full"))
	after, _ := os.Stat(path)
	if after.Size() != before.Size() || !after.ModTime().After(old) {
		t.Fatalf("a full notes file grew or kept its time: %d → %d bytes, %v", before.Size(), after.Size(), after.ModTime())
	}
	if f := ReadFailures(dir); !f.AtLeast || !strings.HasPrefix(f.String(), "at least ") {
		t.Errorf("capped notes = %+v", f)
	}
}

func TestRedactsAndCuts(t *testing.T) {
	dir := t.TempDir()
	secret := "ghp_" + strings.Repeat("A", 36)
	long := "echo " + strings.Repeat("x", 1000)
	if err := Append(dir, Record{Source: "hook", Detail: "curl -H 'Authorization: token " + secret + "' x", Errors: []string{"boom " + secret}}); err != nil {
		t.Fatal(err)
	}
	if err := Append(dir, Record{Source: "hook", Detail: long}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if strings.Contains(string(raw), secret) {
		t.Fatal("secret reached the log")
	}
	recs, _, _ := Read(dir)
	if n := len([]rune(recs[1].Detail)); n != DetailUnits+1 || !strings.HasSuffix(recs[1].Detail, "…") {
		t.Fatalf("detail not cut: %d runes", n)
	}
}

func TestHTMLNotEscaped(t *testing.T) {
	line, err := Marshal(Record{Detail: "a > b && c < d"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(line), `a > b && c < d`) || !strings.HasSuffix(string(line), "\n") {
		t.Fatalf("line = %s", line)
	}
}

// TestConcurrentAppendsWithRotation: 200 writers at once, with rotations
// forced by pre-filling the file and the rotation lock held by someone
// else for longer than lockWait (the contention that used to drop
// records): every record lands exactly once, in one of the log's files,
// and every line is valid JSON.
func TestConcurrentAppendsWithRotation(t *testing.T) {
	dir := t.TempDir()
	prefill(t, dir, MaxSize-20000)

	// A peer holds the rotation lock until appenders have found the file
	// full, waited lockWait and appended anyway (the file has grown past
	// MaxSize by several records): an event, not a duration, so a loaded
	// machine cannot end the contention before it began or after every
	// writer finished. A writer cannot finish before the release: each of
	// its appends to the full file waits lockWait while the lock is held.
	lock, err := filelock.Acquire(filepath.Join(dir, FileName+".lock"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan struct{})
	go func() {
		defer close(held)
		defer lock.Unlock()
		for {
			if st, err := os.Stat(filepath.Join(dir, FileName)); err == nil && st.Size() > MaxSize+8*2000 {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()

	const writers, each = 200, 10
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				if err := Append(dir, Record{Source: "hook", Detail: fmt.Sprintf("w%d-%d %s", i, j, strings.Repeat("p", 2000))}); err != nil {
					t.Error(err)
				}
			}
		}(i)
	}
	wg.Wait()
	<-held
	if _, err := os.Stat(filepath.Join(dir, FileName+".1")); err != nil {
		t.Fatalf("no rotation happened: %v", err)
	}
	seen := map[string]int{}
	for _, name := range Files() {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var r Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("invalid line in %s: %.80q", name, line)
			}
			if r.Source == "hook" {
				seen[strings.Fields(r.Detail)[0]]++
			}
		}
	}
	if len(seen) != writers*each {
		t.Fatalf("%d distinct records, want %d", len(seen), writers*each)
	}
	for k, n := range seen {
		if n != 1 {
			t.Fatalf("record %s appears %d times", k, n)
		}
	}
	for _, name := range Files() {
		// While the lock was held each writer appended at most one record
		// per lockWait to the full file; the release comes after the
		// first of those.
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && st.Size() > MaxSize+2*writers*MaxRecord {
			t.Errorf("%s is %d bytes, far past MaxSize", name, st.Size())
		}
	}
}

// prefill writes filler records into the log until it holds n bytes.
func prefill(t *testing.T, dir string, n int) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	line, _ := Marshal(Record{Source: "filler", Detail: strings.Repeat("f", 1000)})
	for written := 0; written+len(line) <= n; written += len(line) {
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestRecordIsCapped: a record with huge values (a 120 KB invalid setting
// in its notes, long reasons and errors, many layers) is cut to MaxRecord
// bytes with markers, keeping what identifies the call.
func TestRecordIsCapped(t *testing.T) {
	huge := strings.Repeat("語x", 60_000)
	r := Record{Source: "hook", Level: "error", Verdict: "ask", Tool: "Bash", Detail: "rm -rf " + huge,
		Rules: []string{"DG-RM-RECURSIVE"}, Notes: []string{"config: ZCODE_FENCE_LANGUAGE=" + huge + " is not valid"},
		Stdin: huge}
	for i := range 50 {
		r.Reasons = append(r.Reasons, fmt.Sprintf("reason %d %s", i, huge[:3000]))
		r.Errors = append(r.Errors, fmt.Sprintf("error %d %s", i, huge[:3000]))
		r.Layers = append(r.Layers, LayerRecord{Name: fmt.Sprintf("layer%d", i), Verdict: "error", Error: huge[:5000],
			Annotations: map[string]string{"a": huge[:2000], "b": "x"}})
	}
	dir := t.TempDir()
	if err := Append(dir, r); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) > MaxRecord || !strings.Contains(string(raw), "cut") {
		t.Fatalf("record of %d bytes (cap %d), markers: %v", len(raw), MaxRecord, strings.Contains(string(raw), "cut"))
	}
	recs, bad, err := Read(dir)
	if err != nil || bad != 0 || len(recs) != 1 {
		t.Fatalf("Read: %d records, %d bad, %v", len(recs), bad, err)
	}
	got := recs[0]
	if got.Verdict != "ask" || got.Rules[0] != "DG-RM-RECURSIVE" || !strings.Contains(got.Notes[0], "ZCODE_FENCE_LANGUAGE") || !strings.Contains(got.Notes[0], "…[cut ") {
		t.Fatalf("capped record lost its identity or marker: %+v", got)
	}
}

// TestFloodKeepsTheLastDaysAsks: after an ask, 1,000 records of the
// maximum size (each with a 120 KB config note, as 87 runs with an
// invalid ZCODE_FENCE_LANGUAGE once were) do not push the ask out of the
// log.
func TestFloodKeepsTheLastDaysAsks(t *testing.T) {
	dir := t.TempDir()
	prefill(t, dir, MaxSize-100) // the ask lands just before a rotation
	if err := Append(dir, Record{Source: "hook", Verdict: "ask", Detail: "the-ask", Rules: []string{"DG-RM-RECURSIVE"}}); err != nil {
		t.Fatal(err)
	}
	note := "config: ZCODE_FENCE_LANGUAGE=" + strings.Repeat("x", 120_000) + " is not valid"
	for i := range 1000 {
		r := Record{Source: "hook", Level: "error", Verdict: "error", Notes: []string{note}, Stdin: strings.Repeat("s", 10_000)}
		for k := range 20 {
			r.Errors = append(r.Errors, fmt.Sprintf("%d.%d %s", i, k, strings.Repeat("e", 2000)))
		}
		if err := Append(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	recs, _, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range recs {
		found = found || r.Detail == "the-ask"
	}
	if !found {
		t.Fatal("1,000 large records pushed the ask out of the log")
	}
}

func TestUnwritableDirFails(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o600)
	if err := Append(filepath.Join(blocker, "sub"), Record{}); err == nil {
		t.Fatal("Append under a regular file succeeded")
	}
}

func TestReadSkipsCorruptLines(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte("{\"verdict\":\"ask\"}\nnot json\n\n{\"verdict\":\"silent\"}\n"), 0o600)
	recs, bad, err := Read(dir)
	if err != nil || bad != 1 || len(recs) != 2 {
		t.Fatalf("recs=%d bad=%d err=%v", len(recs), bad, err)
	}
}
