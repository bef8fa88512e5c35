package analysis

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// braceCase is one row of testdata/braces.json: a word and the words
// brace expansion makes of it (their shell text), or ok false when it is
// left unexpanded (past maxBraceFields, or a sequence that cannot be
// bounded). The table was recorded from the hand-written expansion that
// expand.BracesSeq replaced; Old and Why mark the rows where the result
// changed, each to what bash 5.2 prints.
type braceCase struct {
	Word string   `json:"word"`
	OK   bool     `json:"ok"`
	Want []string `json:"want,omitempty"`
	Old  []string `json:"old,omitempty"`
	Why  string   `json:"why,omitempty"`
}

func braceWord(t *testing.T, src string) *syntax.Word {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader("echo "+src), "")
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
}

func TestBraceAlternatives(t *testing.T) {
	data, err := os.ReadFile("testdata/braces.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []braceCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 90 {
		t.Fatalf("braces.json: %d cases", len(cases))
	}
	for _, c := range cases {
		w := braceWord(t, c.Word)
		var got []string
		ok := true
		if !hasBrace(w) {
			got = []string{"<no brace>"}
		} else {
			var alts [][]syntax.WordPart
			alts, ok = braceAlternatives(w, maxBraceFields)
			for _, alt := range alts {
				var buf bytes.Buffer
				if err := syntax.NewPrinter().Print(&buf, &syntax.Word{Parts: alt}); err != nil {
					t.Fatal(err)
				}
				got = append(got, buf.String())
			}
		}
		if ok != c.OK || !slices.Equal(got, c.Want) {
			t.Errorf("%s: got %v %q, want %v %q", c.Word, ok, got, c.OK, c.Want)
		}
	}
}

// TestBraceAlternativesBounded: words whose expansion would be huge are
// refused after counting, before any alternative is made: the work does
// not grow with the size the braces ask for.
func TestBraceAlternativesBounded(t *testing.T) {
	for _, src := range []string{
		"{1..100000}",
		"{1..9223372036854775807}",
		"{-9223372036854775808..9223372036854775807}",
		"{a..z}{a..z}{a..z}{a..z}{a..z}{a..z}{a..z}{a..z}",
		"{1..255}{1..255}{1..255}{1..255}{1..255}{1..255}{1..255}{1..255}",
		"{{a,b},{c,d},{e,f}}{{a,b},{c,d},{e,f}}{{a,b},{c,d},{e,f}}{{a,b},{c,d},{e,f}}",
		strings.Repeat("{a,b}", 64),
		strings.Repeat("{", 200) + "a,b" + strings.Repeat("}{x,y}", 200),
	} {
		w := braceWord(t, src)
		if _, ok := braceAlternatives(w, maxBraceFields); ok {
			t.Errorf("%.40s: expanded, want refused past %d words", src, maxBraceFields)
		}
		// SplitBraces's nodes for the word, then the count: nothing per
		// alternative.
		parts := len(w.Parts) + strings.Count(src, "{")*4
		if n := testing.AllocsPerRun(3, func() { braceAlternatives(w, maxBraceFields) }); n > float64(20*parts+50) {
			t.Errorf("%.40s: %.0f allocations to refuse it", src, n)
		}
	}
}

func BenchmarkBraceAlternatives(b *testing.B) {
	f, _ := syntax.NewParser().Parse(strings.NewReader("echo src/{a,b,c}/{1..16}.go"), "")
	w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
	b.ReportAllocs()
	for b.Loop() {
		if alts, ok := braceAlternatives(w, maxBraceFields); !ok || len(alts) != 48 {
			b.Fatal(len(alts), ok)
		}
	}
}
