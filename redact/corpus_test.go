package redact

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// corpusCase is one entry of testdata/corpus.json: an input, the exact
// output String must give, the kinds Kinds must report, and why.
type corpusCase struct {
	In    string   `json:"in"`
	Want  string   `json:"want"`
	Kinds []string `json:"kinds"`
	Why   string   `json:"why"`
}

// corpus holds the cases with secrets and the cases that must come back
// unchanged (their want is the input itself).
type corpus struct {
	Secret []corpusCase `json:"secret"`
	Clean  []corpusCase `json:"clean"`
}

func loadCorpus(tb testing.TB) corpus {
	tb.Helper()
	raw, err := os.ReadFile("testdata/corpus.json")
	if err != nil {
		tb.Fatal(err)
	}
	var c corpus
	if err := json.Unmarshal(raw, &c); err != nil {
		tb.Fatalf("testdata/corpus.json: %v", err)
	}
	for i := range c.Clean {
		c.Clean[i].Want = c.Clean[i].In
	}
	return c
}

// TestCorpus checks every case: the exact output, the kinds, stability
// (String of the output is the output) and, for secret cases, that the
// case is well formed (it changes something, every kind is in the output).
func TestCorpus(t *testing.T) {
	c := loadCorpus(t)
	const minSecret, minClean = 100, 50
	if len(c.Secret) < minSecret || len(c.Clean) < minClean {
		t.Fatalf("corpus has %d secret and %d clean cases, want at least %d and %d", len(c.Secret), len(c.Clean), minSecret, minClean)
	}
	t.Logf("corpus: %d secret cases, %d must-not-redact cases", len(c.Secret), len(c.Clean))
	check := func(t *testing.T, tc corpusCase, secret bool) {
		if tc.Why == "" {
			t.Errorf("case %q has no why", tc.In)
		}
		got := String(tc.In)
		if got != tc.Want {
			t.Errorf("String(%q)\n got: %q\nwant: %q\n why: %s", tc.In, got, tc.Want, tc.Why)
		}
		kinds := Kinds(tc.In)
		if !slices.Equal(kinds, tc.Kinds) && !(len(kinds) == 0 && len(tc.Kinds) == 0) {
			t.Errorf("Kinds(%q) = %q, want %q", tc.In, kinds, tc.Kinds)
		}
		if again := String(got); again != got {
			t.Errorf("not stable: String(%q) = %q", got, again)
		}
		if secret {
			if tc.Want == tc.In || len(tc.Kinds) == 0 {
				t.Errorf("secret case %q expects no redaction", tc.In)
			}
			for _, k := range tc.Kinds {
				if !strings.Contains(tc.Want, markerPrefix+k+"]") {
					t.Errorf("case %q: kind %q has no marker in want", tc.In, k)
				}
			}
		}
	}
	for _, tc := range c.Secret {
		check(t, tc, true)
	}
	for _, tc := range c.Clean {
		check(t, tc, false)
	}
}

// TestUnchangedTextIsNotCopied: text without a secret comes back as the
// same string, not a copy.
func TestUnchangedTextIsNotCopied(t *testing.T) {
	for _, tc := range loadCorpus(t).Clean {
		got := String(tc.In)
		if got != tc.In || unsafe.StringData(got) != unsafe.StringData(tc.In) {
			t.Errorf("String(%q) returned a copy", tc.In)
		}
	}
}
