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

// TestConcurrentAppendsWithRotation: many writers at once, a small rotation
// threshold forced by pre-filling the file; every record lands exactly once
// and every line is valid JSON.
func TestConcurrentAppendsWithRotation(t *testing.T) {
	dir := t.TempDir()
	// Pre-fill close to MaxSize so rotation happens during the run.
	filler := strings.Repeat("f", 1000)
	f, err := os.Create(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for written := 0; written < MaxSize-20000; {
		line, _ := Marshal(Record{Source: "filler", Detail: filler})
		w.Write(line)
		written += len(line)
	}
	w.Flush()
	f.Close()

	const writers, each = 50, 20
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < each; j++ {
				if err := Append(dir, Record{Source: "hook", Detail: fmt.Sprintf("w%d-%d %s", i, j, strings.Repeat("p", 200))}); err != nil {
					t.Error(err)
				}
			}
		}(i)
	}
	wg.Wait()
	if _, err := os.Stat(filepath.Join(dir, FileName+".1")); err != nil {
		t.Fatalf("no rotation happened: %v", err)
	}
	seen := map[string]int{}
	for _, name := range []string{FileName + ".1", FileName} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			var r Record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("invalid line in %s: %q", name, line)
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
