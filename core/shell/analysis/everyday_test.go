package analysis

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// everydayCase is one entry of testdata/everyday.txt.
type everydayCase struct {
	name, opts, input string
	count             int
	line              int
}

func readEveryday(t *testing.T, path string) []everydayCase {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []everydayCase
	var cur *everydayCase
	var body []string
	flush := func() {
		if cur != nil {
			cur.input = strings.TrimRight(strings.Join(body, "\n"), "\n")
			out = append(out, *cur)
		}
	}
	for i, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "=== "):
			flush()
			head := strings.TrimPrefix(l, "=== ")
			cut := strings.LastIndex(head, " count=")
			if cut < 0 {
				t.Fatalf("%s:%d: no count=", path, i+1)
			}
			n, err := strconv.Atoi(head[cut+len(" count="):])
			if err != nil {
				t.Fatalf("%s:%d: %v", path, i+1, err)
			}
			name, opts, _ := strings.Cut(head[:cut], " [")
			cur = &everydayCase{name: name, opts: strings.TrimSuffix(opts, "]"), count: n, line: i + 1}
			body = nil
		case cur == nil:
			if l != "" && !strings.HasPrefix(l, "#") {
				t.Fatalf("%s:%d: text before the first entry", path, i+1)
			}
		default:
			body = append(body, l)
		}
	}
	flush()
	return out
}

// newerVia reports a Via element added by the mechanisms everyday commands
// must not trigger: literal text piped into a shell, an unknown wrapper, a
// started Windows process.
func newerVia(v string) bool {
	return strings.Contains(v, " | ") || v == "unknown wrapper" || v == "Start-Process" || v == "start"
}

// TestEveryday analyses everyday agent commands: none may gain a command
// from literal text piped into a shell, an unknown wrapper or a started
// process; none may be truncated or fail to parse; each reports the number
// of commands recorded (a new nested command shows as a changed count).
func TestEveryday(t *testing.T) {
	const path = "../testdata/everyday.txt"
	cases := readEveryday(t, path)
	if len(cases) < 100 {
		t.Errorf("only %d everyday commands in %s", len(cases), path)
	}
	for _, tc := range cases {
		opts := tableCase{opts: tc.opts}.options()
		s := Analyze(tc.input, opts)
		checkInvariants(t, tc.name, s)
		where := path + ":" + strconv.Itoa(tc.line) + ": " + tc.name
		if s.ParseError != "" || s.Truncated {
			t.Errorf("%s: parse error %q, truncated %v", where, s.ParseError, s.Truncated)
		}
		for i, c := range s.Commands {
			for _, v := range c.Via {
				if newerVia(v.Text) {
					t.Errorf("%s: #%d gained via %q:\n%s", where, i, v, s.Outline())
				}
			}
		}
		if len(s.Commands) != tc.count {
			t.Errorf("%s: %d commands, want %d:\n%s", where, len(s.Commands), tc.count, s.Outline())
		}
	}
}
