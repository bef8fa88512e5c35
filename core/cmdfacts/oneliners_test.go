package cmdfacts_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
)

// inlTestCommand builds the Command an analysis would give for argv:
// Name normalised as Command.Name documents, every word known except the
// indexes in unknown.
func inlTestCommand(argv []string, unknown []int, stdin string) *ir.Command {
	c := &ir.Command{Stdin: stdin, Parent: -1, FeedsInto: -1}
	for i, a := range argv {
		w := ir.Word{Value: a, Raw: a, KnownPrefix: a}
		for _, u := range unknown {
			if u == i {
				w.Unknown, w.KnownPrefix = true, ""
			}
		}
		c.Args = append(c.Args, w)
	}
	if len(argv) > 0 {
		name := argv[0]
		if i := strings.LastIndexAny(name, `/\`); i >= 0 {
			name = name[i+1:]
		}
		name = strings.ToLower(name)
		for _, ext := range []string{".exe", ".cmd", ".bat", ".com", ".ps1"} {
			name = strings.TrimSuffix(name, ext)
		}
		c.Name = name
	}
	return c
}

// inlWant is an expected Inline.
type inlWant struct {
	Lang      string   `json:"lang"`
	Code      string   `json:"code"`
	Via       string   `json:"via"`
	Unknown   bool     `json:"unknown"`
	FromStdin bool     `json:"fromStdin"`
	InPlace   bool     `json:"inPlace"`
	Files     []string `json:"files"`
}

// inlScriptCase is one case of testdata/oneliners.json. Effects, when
// given, are the rendered oneliner.Effects of every Inline found, in order.
type inlScriptCase struct {
	Name    string    `json:"name"`
	Argv    []string  `json:"argv"`
	Unknown []int     `json:"unknown"`
	Stdin   string    `json:"stdin"`
	Want    []inlWant `json:"want"`
	Effects []string  `json:"effects"`
	// Stdin: whether the interpreter reads its program from stdin
	// (ProgramFromStdin); checked when given.
	FromStdin *bool `json:"programFromStdin"`
}

// inlRender shows an effect as "op|path-or-command|api".
func inlRender(e oneliner.Effect) string {
	target := e.Path
	if e.Op == "exec" {
		target = e.Command
	}
	return e.Op + "|" + target + "|" + e.API
}

func TestInlineScripts(t *testing.T) {
	cases := load[inlScriptCase](t, "oneliners.json")
	if len(cases) < 60 {
		t.Fatalf("only %d inline script cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := cmdfacts.InlineScripts(inlTestCommand(c.Argv, c.Unknown, c.Stdin))
			var gotW []inlWant
			effects := []string{}
			for _, in := range got {
				gotW = append(gotW, inlWant{Lang: in.Lang, Code: in.Code, Via: in.Via, Unknown: in.Unknown,
					FromStdin: in.FromStdin, InPlace: in.InPlace, Files: shownOrNil(in.Files)})
				for _, e := range oneliner.Effects(in.Lang, in.Code) {
					effects = append(effects, inlRender(e))
				}
			}
			if !reflect.DeepEqual(gotW, c.Want) {
				t.Errorf("InlineScripts(%q):\n got %+v\nwant %+v", c.Argv, gotW, c.Want)
			}
			if c.FromStdin != nil {
				if got := cmdfacts.ProgramFromStdin(inlTestCommand(c.Argv, c.Unknown, c.Stdin)); got != *c.FromStdin {
					t.Errorf("ProgramFromStdin(%q) = %v, want %v", c.Argv, got, *c.FromStdin)
				}
			}
			if c.Effects != nil && !reflect.DeepEqual(effects, c.Effects) {
				t.Errorf("effects of %q:\n got %q\nwant %q", c.Argv, effects, c.Effects)
			}
		})
	}
}

func TestInlineScriptsNil(t *testing.T) {
	if got := cmdfacts.InlineScripts(nil); got != nil {
		t.Errorf("InlineScripts(nil) = %v", got)
	}
	if got := cmdfacts.InlineScripts(&ir.Command{Name: "python3"}); got != nil {
		t.Errorf("InlineScripts(no args) = %v", got)
	}
}

// FuzzInlineScripts splits the input into argv words: extraction must
// never panic and every Inline must carry a language and a Via.
func FuzzInlineScripts(f *testing.F) {
	var cases []inlScriptCase
	data, err := os.ReadFile("testdata/oneliners.json")
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		f.Add(strings.Join(c.Argv, "\x1f"), c.Stdin)
	}
	f.Fuzz(func(t *testing.T, argv, stdin string) {
		for _, in := range cmdfacts.InlineScripts(inlTestCommand(strings.Split(argv, "\x1f"), nil, stdin)) {
			if in.Lang == "" || in.Via == "" || !oneliner.Supported(in.Lang) {
				t.Fatalf("bad inline %+v", in)
			}
		}
	})
}

func BenchmarkInlineScripts(b *testing.B) {
	c := inlTestCommand([]string{"python3", "-u", "-c", `import os; os.system("make")`}, nil, "")
	b.ReportAllocs()
	for b.Loop() {
		cmdfacts.InlineScripts(c)
	}
}

// shownOrNil is shown, nil for no words (as the cases write it).
func shownOrNil(ws []ir.Word) []string {
	if len(ws) == 0 {
		return nil
	}
	return shown(ws)
}
