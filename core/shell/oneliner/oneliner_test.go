package oneliner

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// readCases decodes testdata/name into v.
func readCases(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// render shows an effect as "op|path-or-command|api".
func render(e Effect) string {
	target := e.Path
	if e.Op == "exec" {
		target = e.Command
	}
	if e.Decoded {
		return e.Op + "|" + target + "|" + e.API + "|decoded"
	}
	return e.Op + "|" + target + "|" + e.API
}

func renderAll(es []Effect) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, render(e))
	}
	return out
}

// effectCase is one case of testdata/effects.json.
type effectCase struct {
	Name string   `json:"name"`
	Lang string   `json:"lang"`
	Code string   `json:"code"`
	Want []string `json:"want"`
}

func TestEffects(t *testing.T) {
	var cases []effectCase
	readCases(t, "effects.json", &cases)
	if len(cases) < 60 {
		t.Fatalf("only %d effect cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got := renderAll(Effects(c.Lang, c.Code))
			if !reflect.DeepEqual(got, c.Want) {
				t.Errorf("Effects(%q, %q):\n got %q\nwant %q", c.Lang, c.Code, got, c.Want)
			}
			var execs []string
			for _, e := range Effects(c.Lang, c.Code) {
				if e.Op == "exec" && e.Command != "" {
					execs = append(execs, e.Command)
				}
			}
			if got := Execs(c.Lang, c.Code); !reflect.DeepEqual(got, execs) {
				t.Errorf("Execs = %q, want %q", got, execs)
			}
		})
	}
}

// TestEffectsLimits feeds pathological code: every call must finish,
// stay within the effect cap and keep its invariants.
func TestEffectsLimits(t *testing.T) {
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
		{"node", strings.Repeat("a", maxCode+100) + ";fs.rmSync('/')", 0},
		{"node", strings.Repeat("(", 100000) + strings.Repeat("]", 100000), 0},
		{"python", strings.Repeat("for x in [", 10000), 0},
	}
	for i, c := range cases {
		es := Effects(c.lang, c.code)
		checkInvariants(t, c.lang, c.code, es)
		if c.effects >= 0 && len(es) != c.effects {
			t.Errorf("case %d (%s): %d effects, want %d: %q", i, c.lang, len(es), c.effects, renderAll(es)[:min(len(es), 5)])
		}
	}
	if n := len(Effects("python", strings.Repeat("os.remove('/x'+y);os.system(z);", 1000))); n > maxEffects {
		t.Errorf("%d effects, over the cap", n)
	}
}

func checkInvariants(t *testing.T, lang, code string, es []Effect) {
	t.Helper()
	if len(es) > maxEffects {
		t.Fatalf("%s %.60q: %d effects", lang, code, len(es))
	}
	seen := map[Effect]bool{}
	for _, e := range es {
		switch {
		case seen[e]:
			t.Fatalf("%s %.60q: duplicate %+v", lang, code, e)
		case e.Op != "delete" && e.Op != "write" && e.Op != "read" && e.Op != "exec":
			t.Fatalf("%s %.60q: bad op %+v", lang, code, e)
		case e.Tree && e.Op != "read":
			t.Fatalf("%s %.60q: bad op %+v", lang, code, e)
		case e.Op == "exec" && e.Path != "" || e.Op != "exec" && e.Command != "":
			t.Fatalf("%s %.60q: mixed effect %+v", lang, code, e)
		case e.API == "":
			t.Fatalf("%s %.60q: no API %+v", lang, code, e)
		case strings.Contains(e.Path+e.Command, hole):
			t.Fatalf("%s %.60q: hole leaked %+v", lang, code, e)
		}
		seen[e] = true
	}
}

var fuzzLangs = []string{"node", "python", "perl", "ruby", "php", "awk", "osascript", "jxa", "deno", "bun",
	"elixir", "erlang", "groovy", "haskell", "crystal", "scala"}

func FuzzEffects(f *testing.F) {
	var cases []effectCase
	readCases(f, "effects.json", &cases)
	for _, c := range cases {
		for i, l := range fuzzLangs {
			if l == c.Lang {
				f.Add(uint8(i), c.Code)
			}
		}
	}
	f.Fuzz(func(t *testing.T, lang uint8, code string) {
		l := fuzzLangs[int(lang)%len(fuzzLangs)]
		checkInvariants(t, l, code, Effects(l, code))
		for _, cmd := range Execs(l, code) {
			if cmd == "" {
				t.Fatalf("empty exec command")
			}
		}
	})
}

var benchJS = `const fs = require('fs'); const path = require('path'); for (const f of fs.readdirSync('dist')) { if (f.endsWith('.map')) fs.unlinkSync(path.join('dist', f)); } console.log(/^## /m.test(fs.readFileSync('README.md', 'utf8')))`
var benchPy = "import json, os, subprocess\nd = json.load(open('package.json'))\nprint(d['version'])\nsubprocess.run(['git', 'tag', 'v' + d['version']], check=True)\nos.makedirs('build/out', exist_ok=True)"

func BenchmarkEffectsJS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Effects("node", benchJS)
	}
}

func BenchmarkEffectsPython(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Effects("python", benchPy)
	}
}

// BenchmarkEffectsWorst runs the largest code accepted, made of
// nested calls.
func BenchmarkEffectsWorst(b *testing.B) {
	code := strings.Repeat("fs.rmSync(path.join(", maxCode/20)
	b.ReportAllocs()
	for b.Loop() {
		Effects("node", code)
	}
}
