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
}

func TestRedactsAndCuts(t *testing.T) {
	dir := t.TempDir()
	secret := "ghp_" + strings.Repeat("A", 36)
	long := "echo " + strings.Repeat("x", 1000)
	if err := Append(dir, Record{Detail: "curl -H 'Authorization: token " + secret + "' x", Errors: []string{"boom " + secret}}); err != nil {
		t.Fatal(err)
	}
	if err := Append(dir, Record{Detail: long}); err != nil {
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
