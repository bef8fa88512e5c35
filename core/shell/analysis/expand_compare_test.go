package analysis

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// expandCase is one row of testdata/expand_compare.json: an input to one
// of the analysis's own expansions that mvdan.cc/sh/v3/expand also
// implements, what each gives, and what bash 5.2 gives. Kind is "printf"
// (printfOutput against expand.Format, the format reused while
// arguments remain), "ansic" ($'...': decodeANSIC against expand.Literal)
// or "echo" (echo -e's escapes: escapeText against expand.Format with no
// arguments). The table is why these copies stay: on each row where
// Hand and Expand differ, Note says which one bash agrees with. Hand,
// Expand and Bash are Go-quoted (strconv.Quote), so that bytes that are
// not UTF-8 survive JSON; BashOK is false where bash reports an error.
type expandCase struct {
	Kind     string   `json:"kind"`
	Input    string   `json:"input"`
	Args     []string `json:"args,omitempty"`
	Hand     string   `json:"hand"`
	HandOK   bool     `json:"hand_ok"`
	Expand   string   `json:"expand"`
	ExpandOK bool     `json:"expand_ok"`
	Bash     string   `json:"bash"`
	BashOK   bool     `json:"bash_ok"`
	Note     string   `json:"note,omitempty"`
}

// handResult is the analysis's own reading of c.
func handResult(t *testing.T, c expandCase) (string, bool) {
	t.Helper()
	switch c.Kind {
	case "printf":
		words := []xword{knownWord("printf", "printf"), knownWord(c.Input, c.Input)}
		for _, a := range c.Args {
			words = append(words, knownWord(a, a))
		}
		w, ok := printfOutput(words, 1<<20)
		return w.value(), ok
	case "ansic":
		return decodeANSIC(c.Input), true
	case "echo":
		text, stop := escapeText(c.Input)
		return text, !stop
	}
	t.Fatalf("unknown kind %q", c.Kind)
	return "", false
}

// expandResult is mvdan.cc/sh/v3/expand's reading of c.
func expandResult(t *testing.T, c expandCase) (string, bool) {
	t.Helper()
	switch c.Kind {
	case "printf":
		var sb strings.Builder
		args := append([]string{}, c.Args...) // non-nil: Format reads % directives only with args
		for {
			s, n, err := expand.Format(nil, c.Input, args)
			if err != nil {
				return "", false
			}
			sb.WriteString(s)
			args = args[n:]
			if n == 0 || len(args) == 0 {
				return sb.String(), true
			}
		}
	case "ansic":
		f, err := syntax.NewParser().Parse(strings.NewReader("echo $'"+c.Input+"'"), "")
		if err != nil {
			t.Fatalf("%q: %v", c.Input, err)
		}
		s, err := expand.Literal(nil, f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1])
		return s, err == nil
	case "echo":
		s, _, err := expand.Format(nil, c.Input, nil)
		return s, err == nil
	}
	t.Fatalf("unknown kind %q", c.Kind)
	return "", false
}

// TestExpandCompare pins both readings of every row, so that a change to
// either (or to mvdan's, on an upgrade) shows here with bash's answer
// beside it.
func TestExpandCompare(t *testing.T) {
	data, err := os.ReadFile("testdata/expand_compare.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []expandCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 60 {
		t.Fatalf("expand_compare.json: %d rows", len(cases))
	}
	for _, c := range cases {
		if h, ok := handResult(t, c); strconv.Quote(h) != c.Hand || ok != c.HandOK {
			t.Errorf("%s %q %q: analysis gives %q %v, want %s %v", c.Kind, c.Input, c.Args, h, ok, c.Hand, c.HandOK)
		}
		if e, ok := expandResult(t, c); strconv.Quote(e) != c.Expand || ok != c.ExpandOK {
			t.Errorf("%s %q %q: expand gives %q %v, want %s %v", c.Kind, c.Input, c.Args, e, ok, c.Expand, c.ExpandOK)
		}
		if (c.Hand != c.Expand || c.HandOK != c.ExpandOK) && c.Note == "" {
			t.Errorf("%s %q %q: the readings differ and no note says which bash agrees with", c.Kind, c.Input, c.Args)
		}
	}
}

// TestPrintfKnownBounded: expand.Format writes a width in full, so a
// format whose widths add up past the limit is refused before it runs,
// and a format reused over many arguments stops at the limit.
func TestPrintfKnownBounded(t *testing.T) {
	const limit = 64 << 10
	words := func(format string, args ...string) []xword {
		ws := []xword{knownWord("printf", "printf"), knownWord(format, format)}
		for _, a := range args {
			ws = append(ws, knownWord(a, a))
		}
		return ws
	}
	many := make([]string, 20000)
	for i := range many {
		many[i] = "word"
	}
	for _, c := range []struct {
		name   string
		ws     []xword
		allocs float64 // refused before running, or a few per pass up to the limit
	}{
		{"one huge width", words("%999999999s\\n", "x"), 20},
		{"a width of seven digits", words("%0000001000000d", "1"), 20},
		{"widths adding up", words(strings.Repeat("%9999s", 10), "a"), 20},
		{"reuse past the limit", words("%s %s %s %s\\n", many...), limit},
	} {
		if out, ok := printfOutput(c.ws, limit); ok {
			t.Errorf("%s: %d bytes, want refused past %d", c.name, len(out.value()), limit)
		}
		if n := testing.AllocsPerRun(2, func() { printfOutput(c.ws, limit) }); n > c.allocs {
			t.Errorf("%s: %.0f allocations", c.name, n)
		}
	}
	if out, ok := printfOutput(words("%-6s|\\n", "a", "b"), limit); !ok || out.value() != "a     |\nb     |\n" {
		t.Errorf("reuse: %q %v", out.value(), ok)
	}
}
