package analysis

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/cases.txt with the current outlines")

// testEnv is the environment every table case runs with.
var testEnv = map[string]string{
	"HOME":   "/home/u",
	"TMPDIR": "/tmp/t",
	"USER":   "u",
	"PATH":   "/usr/bin:/bin",
}

func testOptions() Options {
	return Options{
		Cwd:  "/proj",
		Home: "/home/u",
		Lookup: func(name string) (string, bool) {
			v, ok := testEnv[name]
			return v, ok
		},
	}
}

// tableCase is one case of testdata/cases.txt:
//
//	=== name [dialect=powershell|cmd] [cwd=DIR] [nocwd]
//	input text (any number of lines)
//	---
//	expected Outline() lines
type tableCase struct {
	name, opts, input, want string
	line                    int
}

func readCases(t testing.TB, path string) (header string, cases []tableCase) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var cur *tableCase
	var in, out []string
	inInput := false
	flush := func() {
		if cur == nil {
			return
		}
		cur.input = strings.Join(in, "\n")
		cur.want = strings.TrimRight(strings.Join(out, "\n"), "\n")
		cases = append(cases, *cur)
	}
	var head []string
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "=== "):
			flush()
			name, opts, _ := strings.Cut(strings.TrimPrefix(l, "=== "), " [")
			cur = &tableCase{name: name, opts: strings.TrimSuffix(opts, "]"), line: i + 1}
			in, out, inInput = nil, nil, true
		case cur == nil:
			if l != "" && !strings.HasPrefix(l, "#") {
				t.Fatalf("%s:%d: text before the first case: %q", path, i+1, l)
			}
			head = append(head, l)
		case inInput && l == "---":
			inInput = false
		case inInput:
			in = append(in, l)
		default:
			out = append(out, l)
		}
	}
	flush()
	return strings.Join(head, "\n"), cases
}

func (tc tableCase) options() Options {
	o := testOptions()
	for _, f := range strings.Fields(tc.opts) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "dialect":
			switch v {
			case "powershell":
				o.Dialect = ir.PowerShell
			case "cmd":
				o.Dialect = ir.Cmd
			}
		case "cwd":
			o.Cwd = v
		case "nocwd":
			o.Cwd = ""
		case "noenv":
			o.Lookup, o.Home = nil, ""
		}
	}
	return o
}

// TestCases runs every case of testdata/cases.txt and compares the
// analysis outline; go test -run TestCases -update rewrites the file.
func TestCases(t *testing.T) {
	const path = "../testdata/cases.txt"
	header, cases := readCases(t, path)
	if len(cases) < 150 {
		t.Errorf("only %d cases in %s", len(cases), path)
	}
	seen := map[string]int{}
	var sb strings.Builder
	sb.WriteString(strings.TrimRight(header, "\n") + "\n\n")
	for _, tc := range cases {
		if prev, dup := seen[tc.name]; dup {
			t.Errorf("%s:%d: case name %q already used at line %d", path, tc.line, tc.name, prev)
		}
		seen[tc.name] = tc.line
		s := Analyze(tc.input, tc.options())
		got := strings.TrimRight(s.Outline(), "\n")
		checkInvariants(t, tc.name, s)
		if *update {
			opts := ""
			if tc.opts != "" {
				opts = " [" + tc.opts + "]"
			}
			fmt.Fprintf(&sb, "=== %s%s\n%s\n---\n%s\n\n", tc.name, opts, tc.input, got)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:%d: %s\ninput:\n%s\ngot:\n%s\nwant:\n%s", path, tc.line, tc.name, tc.input, got, tc.want)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(strings.TrimRight(sb.String(), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkInvariants verifies what every analysis must satisfy: parents come
// first and are at most one level up, feeds point at real commands,
// depths stay within MaxDepth, dialects are valid, unknown words keep a
// prefix of their value.
func checkInvariants(t testing.TB, name string, s *ir.Script) {
	t.Helper()
	for i, c := range s.Commands {
		if c.Dialect < ir.Bash || c.Dialect > ir.Cmd {
			t.Errorf("%s: #%d: bad dialect %d", name, i, c.Dialect)
		}
		if c.Depth < 0 || c.Depth > ir.MaxDepth {
			t.Errorf("%s: #%d: depth %d out of range", name, i, c.Depth)
		}
		if c.Parent >= i || c.Parent < -1 {
			t.Errorf("%s: #%d: parent %d not before it", name, i, c.Parent)
		} else if c.Parent >= 0 {
			pd := s.Commands[c.Parent].Depth
			if c.Depth != pd && c.Depth != pd+1 {
				t.Errorf("%s: #%d: depth %d under parent depth %d", name, i, c.Depth, pd)
			}
		} else if c.Depth > 1 {
			t.Errorf("%s: #%d: depth %d without parent", name, i, c.Depth)
		}
		if c.FeedsInto == i || c.FeedsInto < -1 || c.FeedsInto >= len(s.Commands) {
			t.Errorf("%s: #%d: feeds into %d", name, i, c.FeedsInto)
		}
		if (c.FeedsInto >= 0) != (c.Feed != ir.FeedNone) {
			t.Errorf("%s: #%d: feeds into %d with kind %q", name, i, c.FeedsInto, c.Feed)
		}
		if len(c.Args) > 0 && !c.Args[0].Unknown && (c.Name != ir.CommandName(c.Args[0].Value) || c.NameIfEmpty != c.Name) {
			t.Errorf("%s: #%d: name %q (if empty %q) for %q", name, i, c.Name, c.NameIfEmpty, c.Args[0].Value)
		}
		if len(c.Args) > 0 && c.Args[0].Unknown && c.Name != "" {
			t.Errorf("%s: #%d: name %q for unknown %q", name, i, c.Name, c.Args[0].Value)
		}
		words := append([]ir.Word(nil), c.Args...)
		words = append(words, c.Cd...)
		for _, r := range c.Redirects {
			words = append(words, r.Target)
		}
		for _, w := range words {
			if !strings.HasPrefix(w.Value, w.KnownPrefix) || (!w.Unknown && w.KnownPrefix != w.Value) {
				t.Errorf("%s: #%d: word %+v: bad known prefix", name, i, w)
			}
		}
	}
}
