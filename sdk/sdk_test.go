package sdk

import (
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

func TestCommands(t *testing.T) {
	s := ShellCall{Command: "ls | grep x; sudo rm -f a && bash -c 'rm b; ls'"}.Call().Script
	var got []string
	for i, c := range Commands(s, "rm", "ls") {
		got = append(got, c.Name+"@"+string(rune('0'+i)))
	}
	if want := []string{"ls@0", "rm@2", "rm@4", "ls@5"}; !slices.Equal(got, want) {
		t.Errorf("Commands(rm, ls) = %q, want %q\n%s", got, want, s.Outline())
	}
	n := 0
	for range Commands(s) {
		n++
	}
	if n != len(s.Commands) {
		t.Errorf("Commands() yielded %d of %d", n, len(s.Commands))
	}
	for range Commands(s) {
		break // stopping early must not panic
	}
	for range Commands(nil, "rm") {
		t.Error("nil script yielded a command")
	}
}

func TestHasFlag(t *testing.T) {
	cases := []struct {
		command string
		long    string
		short   rune
		want    bool
	}{
		{"git push --force", "--force", 'f', true},
		{"git push -uf origin", "--force", 'f', true},
		{"git push --force=yes", "--force", 0, true},
		{"git push --force-with-lease", "--force", 'f', false},
		{"git push origin -- -f", "--force", 'f', false},
		{"git push $F", "--force", 'f', false},
		{"git push origin main", "--force", 'f', false},
		{"git push -f", "", 'f', true},
		{"git push --force", "", 'f', false},
	}
	for _, tc := range cases {
		g := GitCommands(ShellCall{Command: tc.command}.Call().Script)[0]
		if got := HasFlag(g.Args, tc.long, tc.short); got != tc.want {
			t.Errorf("HasFlag(%q, %q, %q) = %v, want %v", tc.command, tc.long, tc.short, got, tc.want)
		}
	}
}

func TestCommandText(t *testing.T) {
	c := &ShellCall{Command: `sudo git push "origin" 'HEAD:main'`}.Call().Script.Commands[0]
	if got, want := CommandText(c, 0), `git push "origin" 'HEAD:main'`; got != want {
		t.Errorf("CommandText = %q, want %q", got, want)
	}
	if got, want := CommandText(c, 8), "git push…"; got != want {
		t.Errorf("CommandText(8) = %q, want %q", got, want)
	}
	if CommandText(nil, 5) != "" {
		t.Error("CommandText(nil) is not empty")
	}
}

func TestMessageAndLanguage(t *testing.T) {
	cases := []struct {
		options map[string]string
		lang    string
	}{
		{nil, "en"},
		{map[string]string{"language": "zh"}, "zh"},
		{map[string]string{"language": " ZH "}, "zh"},
		{map[string]string{"language": "en"}, "en"},
		{map[string]string{"language": "fr"}, "en"},
	}
	for _, tc := range cases {
		call := &core.Call{Options: tc.options}
		if got := Language(call); got != tc.lang {
			t.Errorf("Language(%v) = %q, want %q", tc.options, got, tc.lang)
		}
		want := "[zcode-fence: x] hello"
		if tc.lang == "zh" {
			want = "[zcode-fence: x] 你好"
		}
		if got := Message(call, "x", "hello", "你好"); got != want {
			t.Errorf("Message(%v) = %q, want %q", tc.options, got, want)
		}
	}
	if Language(nil) != "en" {
		t.Error("Language(nil) is not en")
	}
}

func TestOptions(t *testing.T) {
	call := &core.Call{Options: map[string]string{
		"list": "a; b ;;c", "blank": " ; ", "t": "TRUE", "f": "0", "y": "yes", "off": "off", "bad": "maybe",
	}}
	lists := []struct {
		key, def string
		want     []string
	}{
		{"list", "x", []string{"a", "b", "c"}},
		{"blank", "x;y", []string{"x", "y"}},
		{"absent", "main;master", []string{"main", "master"}},
		{"absent", "", nil},
	}
	for _, tc := range lists {
		if got := ListOption(call, tc.key, tc.def); !slices.Equal(got, tc.want) {
			t.Errorf("ListOption(%q, %q) = %q, want %q", tc.key, tc.def, got, tc.want)
		}
	}
	bools := []struct {
		key          string
		def          bool
		want, okWant bool
	}{
		{"t", false, true, true},
		{"f", true, false, true},
		{"y", false, true, true},
		{"off", true, false, true},
		{"bad", true, true, false},
		{"absent", true, true, true},
	}
	for _, tc := range bools {
		got, ok := BoolOption(call, tc.key, tc.def)
		if got != tc.want || ok != tc.okWant {
			t.Errorf("BoolOption(%q, %v) = %v, %v; want %v, %v", tc.key, tc.def, got, ok, tc.want, tc.okWant)
		}
	}
	if v, ok := BoolOption(nil, "x", true); !v || !ok {
		t.Error("BoolOption(nil) is not the default")
	}
	if got := ListOption(nil, "x", "a"); !slices.Equal(got, []string{"a"}) {
		t.Errorf("ListOption(nil) = %q", got)
	}
}

func TestShellCall(t *testing.T) {
	c := ShellCall{Command: "cd sub && git push origin $B ~", Cwd: "/p", Home: "/h",
		Env: map[string]string{"B": "main"}, Options: map[string]string{"k": "v"}}.Call()
	if c.Tool != "Bash" || c.Kind != core.KindShell || c.Cwd != "/p" || c.ProjectRoot != "/p" || c.Option("k", "") != "v" {
		t.Errorf("call fields: %+v", c)
	}
	if !slices.Equal(c.WritableRoots, []string{"/p"}) || !strings.Contains(string(c.Input), `"command":"cd sub`) {
		t.Errorf("roots %q input %s", c.WritableRoots, c.Input)
	}
	g := GitCommands(c.Script)[0]
	if got := values(g.Args); !slices.Equal(got, []string{"origin", "main", "/h"}) {
		t.Errorf("args %q: Env and Home not used", got)
	}
	if len(g.Command.Cd) != 1 || g.Command.Cd[0].Value != "sub" {
		t.Errorf("cd chain %v", g.Command.Cd)
	}
	ps := ShellCall{Tool: "PowerShell", Command: "git push"}.Call()
	if ps.Script.Dialect != ir.PowerShell {
		t.Errorf("PowerShell call parsed as %v", ps.Script.Dialect)
	}
	unset := ShellCall{Command: "git push origin $B"}.Call()
	if w := GitCommands(unset.Script)[0].Args[1]; !w.Unknown {
		t.Errorf("$B without Env resolved to %q", w.Value)
	}
}
