package sdk

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

type gitWant struct {
	Sub     string            `json:"sub"`
	Args    []string          `json:"args"`
	Config  map[string]string `json:"config"`
	Alias   string            `json:"alias"`
	Unknown bool              `json:"unknown"`
}

type gitCase struct {
	Name    string    `json:"name"`
	Tool    string    `json:"tool"`
	Command string    `json:"command"`
	Want    []gitWant `json:"want"`
}

// TestGitCommands runs testdata/git.json: every git invocation the
// analysis of a command finds, with subcommand, arguments, -c settings,
// alias and unknown-ness.
func TestGitCommands(t *testing.T) {
	data, err := os.ReadFile("testdata/git.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []gitCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/git.json")
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			call := ShellCall{Tool: tc.Tool, Command: tc.Command, Cwd: "/project", Home: "/home/u"}.Call()
			got := GitCommands(call.Script)
			if len(got) != len(tc.Want) {
				t.Fatalf("%q: %d git invocations, want %d:\n%s", tc.Command, len(got), len(tc.Want), call.Script.Outline())
			}
			for i, g := range got {
				w := tc.Want[i]
				if g.Sub != w.Sub || g.Alias != w.Alias || g.Unknown != w.Unknown {
					t.Errorf("#%d: sub %q alias %q unknown %v, want %q %q %v", i, g.Sub, g.Alias, g.Unknown, w.Sub, w.Alias, w.Unknown)
				}
				if w.Args != nil && !slices.Equal(values(g.Args), w.Args) {
					t.Errorf("#%d: args %q, want %q", i, values(g.Args), w.Args)
				}
				if w.Args == nil && g.Args != nil && w.Sub == "" {
					t.Errorf("#%d: args %q, want none", i, values(g.Args))
				}
				if !maps.Equal(g.Config, w.Config) {
					t.Errorf("#%d: config %v, want %v", i, g.Config, w.Config)
				}
				if g.Command != &call.Script.Commands[g.Index] {
					t.Errorf("#%d: Command is not Script.Commands[Index=%d]", i, g.Index)
				}
			}
		})
	}
}

// TestGitCommandsFilter: subs select invocations; unknown ones only come
// without a filter.
func TestGitCommandsFilter(t *testing.T) {
	s := ShellCall{Command: "git status; git push; git $X; git reset --hard; git push -f"}.Call().Script
	var subs []string
	for _, g := range GitCommands(s, "push", "reset") {
		subs = append(subs, g.Sub)
	}
	if want := []string{"push", "reset", "push"}; !slices.Equal(subs, want) {
		t.Errorf("filtered subs %q, want %q", subs, want)
	}
	if n := len(GitCommands(s)); n != 5 {
		t.Errorf("unfiltered: %d invocations, want 5", n)
	}
	if GitCommands(nil) != nil {
		t.Error("nil script gave invocations")
	}
	if _, ok := ParseGit(nil); ok {
		t.Error("ParseGit(nil) is ok")
	}
	if _, ok := ParseGit(&ir.Command{Name: "git"}); ok {
		t.Error("ParseGit of a command without argv is ok")
	}
}

func values(ws []ir.Word) []string {
	out := []string{}
	for _, w := range ws {
		out = append(out, w.Value)
	}
	return out
}
