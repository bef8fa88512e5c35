package shell

import (
	"reflect"
	"strings"
	"testing"
)

// inlTestCommand builds the Command an analysis would give for argv:
// Name normalised as Command.Name documents, every word known except the
// indexes in unknown.
func inlTestCommand(argv []string, unknown []int, stdin string) *Command {
	c := &Command{Stdin: stdin, Parent: -1, FeedsInto: -1}
	for i, a := range argv {
		w := Word{Value: a, Raw: a, KnownPrefix: a}
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

// inlScriptCase is one case of testdata/inline_scripts.json. Effects, when
// given, are the rendered ScriptEffects of every Inline found, in order.
type inlScriptCase struct {
	Name    string    `json:"name"`
	Argv    []string  `json:"argv"`
	Unknown []int     `json:"unknown"`
	Stdin   string    `json:"stdin"`
	Want    []inlWant `json:"want"`
	Effects []string  `json:"effects"`
}

// inlRender shows an effect as "op|path-or-command|api".
func inlRender(e Effect) string {
	target := e.Path
	if e.Op == "exec" {
		target = e.Command
	}
	return e.Op + "|" + target + "|" + e.API
}

func inlRenderAll(es []Effect) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, inlRender(e))
	}
	return out
}

func TestInlineScripts(t *testing.T) {
	var cases []inlScriptCase
	winReadJSON(t, "inline_scripts.json", &cases)
	if len(cases) < 60 {
		t.Fatalf("only %d inline script cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := InlineScripts(inlTestCommand(c.Argv, c.Unknown, c.Stdin))
			var gotW []inlWant
			effects := []string{}
			for _, in := range got {
				gotW = append(gotW, inlWant{Lang: in.Lang, Code: in.Code, Via: in.Via, Unknown: in.Unknown,
					FromStdin: in.FromStdin, InPlace: in.InPlace, Files: winValues(in.Files)})
				effects = append(effects, inlRenderAll(ScriptEffects(in.Lang, in.Code))...)
			}
			if !reflect.DeepEqual(gotW, c.Want) {
				t.Errorf("InlineScripts(%q):\n got %+v\nwant %+v", c.Argv, gotW, c.Want)
			}
			if c.Effects != nil && !reflect.DeepEqual(effects, c.Effects) {
				t.Errorf("effects of %q:\n got %q\nwant %q", c.Argv, effects, c.Effects)
			}
		})
	}
}

func TestInlineScriptsNil(t *testing.T) {
	if got := InlineScripts(nil); got != nil {
		t.Errorf("InlineScripts(nil) = %v", got)
	}
	if got := InlineScripts(&Command{Name: "python3"}); got != nil {
		t.Errorf("InlineScripts(no args) = %v", got)
	}
}

// inlEffectCase is one case of testdata/inline_effects.json.
type inlEffectCase struct {
	Name string   `json:"name"`
	Lang string   `json:"lang"`
	Code string   `json:"code"`
	Want []string `json:"want"`
}

func TestScriptEffects(t *testing.T) {
	var cases []inlEffectCase
	winReadJSON(t, "inline_effects.json", &cases)
	if len(cases) < 60 {
		t.Fatalf("only %d effect cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := inlRenderAll(ScriptEffects(c.Lang, c.Code))
			if !reflect.DeepEqual(got, c.Want) {
				t.Errorf("ScriptEffects(%q, %q):\n got %q\nwant %q", c.Lang, c.Code, got, c.Want)
			}
			var execs []string
			for _, e := range ScriptEffects(c.Lang, c.Code) {
				if e.Op == "exec" && e.Command != "" {
					execs = append(execs, e.Command)
				}
			}
			if got := ScriptExecs(c.Lang, c.Code); !reflect.DeepEqual(got, execs) {
				t.Errorf("ScriptExecs = %q, want %q", got, execs)
			}
		})
	}
}

// TestScriptEffectsLimits feeds pathological code: every call must finish,
// stay within the effect cap and keep its invariants.
func TestScriptEffectsLimits(t *testing.T) {
	cases := []struct {
		lang, code string
		effects    int // exact count expected, -1 for "any"
	}{
		{"python", strings.Repeat("os.remove('/x%d');", 1000), 1},
		{"python", strings.Repeat("os.remove(", 50000), 1},
		{"node", strings.Repeat("fs.rmSync(path.join(", 30000), 1},
		{"node", strings.Repeat("fs.rmSync('/a"+"');", 300), 1},
		// Each paren-less unlink takes the rest of the text as its list:
		// the work budget ends the scan, and the call it stops in is
		// reported with its path unevaluated ("").
		{"perl", strings.Repeat("unlink '/a', ", 20000), 2},
		{"ruby", strings.Repeat("system 'x'; ", 20000), 1},
		{"python", strings.Repeat("f'{", 20000), 0},
		{"node", strings.Repeat("`${", 20000), 0},
		{"perl", strings.Repeat(`"$x{`, 20000), 0},
		{"python", strings.Repeat("x = '/a'\n", 5000) + "os.remove(x)", 1},
		{"python", "exec(\"exec('exec(\\\\'exec(\\\\\\\\\\\\'os.system(1)\\\\\\\\\\\\')\\\\')')\")", -1},
		{"php", strings.Repeat("<<<EOT\n", 5000), 0},
		{"awk", strings.Repeat("print > ", 20000), -1},
		{"osascript", strings.Repeat("do shell script ", 20000), -1},
		{"node", strings.Repeat("a", inlMaxCode+100) + ";fs.rmSync('/')", 0},
		{"node", strings.Repeat("(", 100000) + strings.Repeat("]", 100000), 0},
		{"python", strings.Repeat("for x in [", 10000), 0},
	}
	for i, c := range cases {
		es := ScriptEffects(c.lang, c.code)
		inlCheckInvariants(t, c.lang, c.code, es)
		if c.effects >= 0 && len(es) != c.effects {
			t.Errorf("case %d (%s): %d effects, want %d: %q", i, c.lang, len(es), c.effects, inlRenderAll(es)[:min(len(es), 5)])
		}
	}
	if n := len(ScriptEffects("python", strings.Repeat("os.remove('/x'+y);os.system(z);", 1000))); n > inlMaxEffects {
		t.Errorf("%d effects, over the cap", n)
	}
}

func inlCheckInvariants(t *testing.T, lang, code string, es []Effect) {
	t.Helper()
	if len(es) > inlMaxEffects {
		t.Fatalf("%s %.60q: %d effects", lang, code, len(es))
	}
	seen := map[Effect]bool{}
	for _, e := range es {
		switch {
		case seen[e]:
			t.Fatalf("%s %.60q: duplicate %+v", lang, code, e)
		case e.Op != "delete" && e.Op != "write" && e.Op != "exec":
			t.Fatalf("%s %.60q: bad op %+v", lang, code, e)
		case e.Op == "exec" && e.Path != "" || e.Op != "exec" && e.Command != "":
			t.Fatalf("%s %.60q: mixed effect %+v", lang, code, e)
		case e.API == "":
			t.Fatalf("%s %.60q: no API %+v", lang, code, e)
		case strings.Contains(e.Path+e.Command, inlHole):
			t.Fatalf("%s %.60q: hole leaked %+v", lang, code, e)
		}
		seen[e] = true
	}
}

var inlFuzzLangs = []string{"node", "python", "perl", "ruby", "php", "awk", "osascript", "jxa", "deno", "bun"}

func FuzzScriptEffects(f *testing.F) {
	var cases []inlEffectCase
	winReadJSON(f, "inline_effects.json", &cases)
	for _, c := range cases {
		for i, l := range inlFuzzLangs {
			if l == c.Lang {
				f.Add(uint8(i), c.Code)
			}
		}
	}
	f.Fuzz(func(t *testing.T, lang uint8, code string) {
		l := inlFuzzLangs[int(lang)%len(inlFuzzLangs)]
		inlCheckInvariants(t, l, code, ScriptEffects(l, code))
		for _, cmd := range ScriptExecs(l, code) {
			if cmd == "" {
				t.Fatalf("empty exec command")
			}
		}
	})
}

// FuzzInlineScripts splits the input into argv words: extraction must
// never panic and every Inline must carry a language and a Via.
func FuzzInlineScripts(f *testing.F) {
	var cases []inlScriptCase
	winReadJSON(f, "inline_scripts.json", &cases)
	for _, c := range cases {
		f.Add(strings.Join(c.Argv, "\x1f"), c.Stdin)
	}
	f.Fuzz(func(t *testing.T, argv, stdin string) {
		for _, in := range InlineScripts(inlTestCommand(strings.Split(argv, "\x1f"), nil, stdin)) {
			if in.Lang == "" || in.Via == "" || inlFamily(in.Lang) == 0 {
				t.Fatalf("bad inline %+v", in)
			}
		}
	})
}

var inlBenchJS = `const fs = require('fs'); const path = require('path'); for (const f of fs.readdirSync('dist')) { if (f.endsWith('.map')) fs.unlinkSync(path.join('dist', f)); } console.log(/^## /m.test(fs.readFileSync('README.md', 'utf8')))`
var inlBenchPy = "import json, os, subprocess\nd = json.load(open('package.json'))\nprint(d['version'])\nsubprocess.run(['git', 'tag', 'v' + d['version']], check=True)\nos.makedirs('build/out', exist_ok=True)"

func BenchmarkScriptEffectsJS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ScriptEffects("node", inlBenchJS)
	}
}

func BenchmarkScriptEffectsPython(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ScriptEffects("python", inlBenchPy)
	}
}

// BenchmarkScriptEffectsWorst runs the largest code accepted, made of
// nested calls.
func BenchmarkScriptEffectsWorst(b *testing.B) {
	code := strings.Repeat("fs.rmSync(path.join(", inlMaxCode/20)
	b.ReportAllocs()
	for b.Loop() {
		ScriptEffects("node", code)
	}
}

func BenchmarkInlineScripts(b *testing.B) {
	c := inlTestCommand([]string{"python3", "-u", "-c", inlBenchPy}, nil, "")
	b.ReportAllocs()
	for b.Loop() {
		InlineScripts(c)
	}
}
