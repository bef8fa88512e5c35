package analysis

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// wordCase checks the fields of one command of an analysis; only the
// fields present in testdata/words.json are compared.
type wordCase struct {
	Name       string         `json:"name"`
	In         string         `json:"in"`
	Cmd        int            `json:"cmd"`
	CmdName    *string        `json:"cmdName"`
	Args       []jsonWord     `json:"args"`
	Assigns    []jsonAssign   `json:"assigns"`
	Redirects  []jsonRedirect `json:"redirects"`
	Cd         []jsonWord     `json:"cd"`
	Stdin      *string        `json:"stdin"`
	Background *bool          `json:"background"`
}

type jsonWord struct {
	Value   string `json:"value"`
	Raw     string `json:"raw"`
	Unknown bool   `json:"unknown"`
	Prefix  string `json:"prefix"`
	Glob    bool   `json:"glob"`
}

type jsonAssign struct {
	Name  string   `json:"name"`
	Value jsonWord `json:"value"`
}

type jsonRedirect struct {
	Op     string   `json:"op"`
	Fd     string   `json:"fd"`
	Target jsonWord `json:"target"`
	Body   string   `json:"body"`
}

func fromWord(w ir.Word) jsonWord {
	return jsonWord{Value: w.Value, Raw: w.Raw, Unknown: w.Unknown, Prefix: w.KnownPrefix, Glob: w.Glob}
}

func fromWords(ws []ir.Word) []jsonWord {
	out := make([]jsonWord, len(ws))
	for i, w := range ws {
		out[i] = fromWord(w)
	}
	return out
}

// TestWordFields checks Value, Raw, Unknown, KnownPrefix and Glob of
// words, and the redirects, heredoc bodies, Stdin, Cd and names the
// outline does not show in full.
func TestWordFields(t *testing.T) {
	data, err := os.ReadFile("../testdata/words.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []wordCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			s := Analyze(tc.In, testOptions())
			checkInvariants(t, tc.Name, s)
			if tc.Cmd >= len(s.Commands) {
				t.Fatalf("no command #%d:\n%s", tc.Cmd, s.Outline())
			}
			c := s.Commands[tc.Cmd]
			if tc.Args != nil && !reflect.DeepEqual(fromWords(c.Args), tc.Args) {
				t.Errorf("args:\n got %+v\nwant %+v", fromWords(c.Args), tc.Args)
			}
			if tc.Cd != nil && !reflect.DeepEqual(fromWords(c.Cd), tc.Cd) {
				t.Errorf("cd:\n got %+v\nwant %+v", fromWords(c.Cd), tc.Cd)
			}
			if tc.Assigns != nil {
				var got []jsonAssign
				for _, as := range c.Assigns {
					got = append(got, jsonAssign{Name: as.Name, Value: fromWord(as.Value)})
				}
				if !reflect.DeepEqual(got, tc.Assigns) {
					t.Errorf("assigns:\n got %+v\nwant %+v", got, tc.Assigns)
				}
			}
			if tc.Redirects != nil {
				var got []jsonRedirect
				for _, r := range c.Redirects {
					got = append(got, jsonRedirect{Op: r.Op, Fd: r.Fd, Target: fromWord(r.Target), Body: r.Body})
				}
				if !reflect.DeepEqual(got, tc.Redirects) {
					t.Errorf("redirects:\n got %+v\nwant %+v", got, tc.Redirects)
				}
			}
			if tc.Stdin != nil && c.Stdin != *tc.Stdin {
				t.Errorf("stdin %q, want %q", c.Stdin, *tc.Stdin)
			}
			if tc.Background != nil && c.Background != *tc.Background {
				t.Errorf("background %v, want %v", c.Background, *tc.Background)
			}
			if tc.CmdName != nil && c.Name != *tc.CmdName {
				t.Errorf("name %q, want %q", c.Name, *tc.CmdName)
			}
		})
	}
}
