package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/integrity"
)

type integrityCase struct {
	Name     string          `json:"name"`
	Sums     string          `json:"sums"` // match, mismatch, unlisted, none
	Env      []string        `json:"env"`
	Payload  json.RawMessage `json:"payload"`
	Expect   string          `json:"expect"`
	Reasons  []string        `json:"reasons"`  // markers, in this order
	Contains []string        `json:"contains"` // more text the reason must hold
	Not      string          `json:"not"`
}

// installBinary copies the test binary into a fresh libexec directory under
// the name the launcher uses, with a SHA256SUMS of the given kind.
func installBinary(t *testing.T, s *scratch, kind string) string {
	t.Helper()
	dir := filepath.Join(s.root, "libexec-"+kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := "zcode-fence-" + runtime.GOOS + "-" + runtime.GOARCH
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	exe := filepath.Join(dir, name)
	copyExecutable(t, binary, exe, 0o755)
	sum, err := binarySum()
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Repeat("0", 64)
	var sums []integrity.Sum
	switch kind {
	case "match":
		sums = []integrity.Sum{{File: name, SHA256: sum}, {File: "zcode-fence-plan9-386", SHA256: other}}
	case "mismatch":
		sums = []integrity.Sum{{File: name, SHA256: other}}
	case "unlisted":
		sums = []integrity.Sum{{File: "zcode-fence-plan9-386", SHA256: sum}}
	case "none":
		return exe
	default:
		t.Fatalf("testdata: sums %q", kind)
	}
	if err := os.WriteFile(filepath.Join(dir, integrity.SumsFile), integrity.FormatSums(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	return exe
}

// TestIntegrityInHookMode runs the built binary from a libexec directory
// with a matching, a wrong and no SHA256SUMS: a binary that does not match
// asks on every guarded call with the fix, and the check hashes only on the
// first call of an install.
func TestIntegrityInHookMode(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "integrity-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []integrityCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel() // each case has its own scratch, install and data dir
			s := newScratch(t)
			exe := installBinary(t, s, c.Sums)
			payload := []byte(strings.ReplaceAll(string(c.Payload), "{{PROJECT}}", filepath.ToSlash(s.project)))
			env := s.env("default", false, c.Env...)
			for call := range 2 {
				r := runExe(t, exe, env, s.project, payload)
				got, reason := checkAnswer(r)
				if got != c.Expect {
					t.Fatalf("call %d: %s %q, want %s", call, got, reason, c.Expect)
				}
				at := 0
				for _, marker := range c.Reasons {
					i := strings.Index(reason[at:], marker)
					if i < 0 {
						t.Fatalf("call %d: reason %q lacks %q (in order %q)", call, reason, marker, c.Reasons)
					}
					at += i + len(marker)
				}
				if len(c.Reasons) > 0 && !strings.HasPrefix(reason, c.Reasons[0]) {
					t.Errorf("call %d: reason %q does not start with %q", call, reason, c.Reasons[0])
				}
				for _, must := range c.Contains {
					if !strings.Contains(reason, must) {
						t.Errorf("call %d: reason %q lacks %q", call, reason, must)
					}
				}
				if c.Not != "" && strings.Contains(reason, c.Not) {
					t.Errorf("call %d: reason %q holds %q", call, reason, c.Not)
				}
			}
			notes := integrityNotes(t, s.data)
			switch {
			case c.Sums == "none" || c.Expect == "silent" && c.Sums != "match":
				if len(notes) != 0 {
					t.Errorf("integrity notes %q, want none", notes)
				}
			case c.Sums == "match":
				// Hashed once, then answered from the record (no note).
				if len(notes) != 1 || !strings.Contains(notes[0], "verified") || !strings.Contains(notes[0], "hashed in") {
					t.Errorf("integrity notes %q, want one 'verified ... hashed in' note", notes)
				}
			default:
				if len(notes) != 2 || !strings.Contains(notes[0], "hashed in") || !strings.Contains(notes[1], "from the record") {
					t.Errorf("integrity notes %q, want a hashed check, then an answer from the record", notes)
				}
			}
		})
	}
}

// integrityNotes returns the integrity notes of every decision-log record.
func integrityNotes(t *testing.T, dataDir string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, "decisions.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var notes []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Notes []string `json:"config_notes"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(sc.Bytes()), &rec); err != nil {
			t.Fatalf("decisions.log: %v", err)
		}
		for _, n := range rec.Notes {
			if strings.HasPrefix(n, "integrity:") {
				notes = append(notes, n)
			}
		}
	}
	return notes
}
