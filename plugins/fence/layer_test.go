package fence

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

func TestName(t *testing.T) {
	if got := New().Name(); got != "fence" || Name != "fence" {
		t.Fatalf("Name() = %q", got)
	}
}

// TestSilentWithoutWork: calls the fence has nothing to say about.
func TestSilentWithoutWork(t *testing.T) {
	script := analysis.Analyze("echo x > /etc/hosts", analysis.Options{})
	for name, c := range map[string]*core.Call{
		"nil":           nil,
		"no project":    {Tool: "Bash", Kind: core.KindShell, Script: script},
		"relative root": {Tool: "Bash", Kind: core.KindShell, Script: script, ProjectRoot: "proj"},
		"other tool":    {Tool: "WebSearch", Kind: core.KindOther, ProjectRoot: "/p"},
		"no analysis":   {Tool: "Bash", Kind: core.KindShell, ProjectRoot: "/p"},
	} {
		v, err := New().Decide(context.Background(), c)
		if err != nil || v.Decision != core.Silent || len(v.Reasons) != 0 {
			t.Errorf("%s: %v %v %v", name, v.Decision, v.Reasons, err)
		}
	}
}

// TestDefaultRoots: a host that sends no writable roots still gets the
// project and the temp dir.
func TestDefaultRoots(t *testing.T) {
	p := paths.Simulated("linux", "/home/a", nil)
	l := New(WithPlatform(func(string) paths.Platform { return p }))
	for path, want := range map[string]core.Decision{"/work/p/a": core.Silent, "/tmp/a": core.Silent, "/etc/a": core.Ask} {
		c := &core.Call{Tool: "Write", Kind: core.KindFile, ProjectRoot: "/work/p", Paths: []string{path}, Platform: "linux"}
		if v, err := l.Decide(context.Background(), c); err != nil || v.Decision != want {
			t.Errorf("%s: %v, want %v (%v)", path, v.Decision, want, err)
		}
	}
}

// TestContextExpired: an expired context with nothing found is an error
// (not a decision).
func TestContextExpired(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := paths.Simulated("linux", "/home/a", nil)
	l := New(WithPlatform(func(string) paths.Platform { return p }))
	c := &core.Call{Tool: "Write", Kind: core.KindFile, ProjectRoot: "/work/p", Paths: []string{"/etc/a"}, Platform: "linux"}
	v, err := l.Decide(ctx, c)
	if !errors.Is(err, context.Canceled) || v.Decision != core.Silent {
		t.Fatalf("got %v, %v", v.Decision, err)
	}
}

// TestConcurrent: Decide is safe for concurrent use (run with -race).
func TestConcurrent(t *testing.T) {
	p := paths.Simulated("linux", "/home/a", nil)
	l := New(WithPlatform(func(string) paths.Platform { return p }))
	cmds := []string{"echo x > /etc/a", "cd /tmp && touch b", "cp a /opt/", "rm -rf node_modules"}
	done := make(chan core.Decision, 64)
	for i := 0; i < 64; i++ {
		go func(cmd string) {
			c := &core.Call{Tool: "Bash", Kind: core.KindShell, Command: cmd, ProjectRoot: "/work/p", Cwd: "/work/p",
				Platform: "linux", Script: analysis.Analyze(cmd, analysis.Options{Cwd: "/work/p"})}
			v, _ := l.Decide(context.Background(), c)
			done <- v.Decision
		}(cmds[i%len(cmds)])
	}
	asks := 0
	for i := 0; i < 64; i++ {
		if <-done == core.Ask {
			asks++
		}
	}
	if asks != 32 {
		t.Fatalf("%d asks, want 32", asks)
	}
}

// TestShorten keeps the start and the file name of a long path.
func TestShorten(t *testing.T) {
	long := "/opt/" + strings.Repeat("a", 80) + "/文件.txt"
	got := shorten(long)
	if n := len([]rune(got)); n != maxShown {
		t.Fatalf("shorten gave %d characters: %q", n, got)
	}
	if shorten("/short") != "/short" || !strings.HasPrefix(got, "/opt/") || !strings.HasSuffix(got, "文件.txt") {
		t.Fatalf("shorten(%q) = %q", long, got)
	}
}

// TestLongScripts: long cd chains are followed to the end (dirOf reuses
// the previous chain's directories, so this stays linear), up to the path
// limits: a directory more than paths.MaxComponents deep is unresolved.
func TestLongScripts(t *testing.T) {
	p := paths.Simulated("linux", "/home/a", nil)
	l := New(WithPlatform(func(string) paths.Platform { return p }))
	for _, tc := range []struct {
		cmd  string
		want core.Decision
	}{
		{strings.Repeat("cd a; touch x; ", 250), core.Silent},
		{strings.Repeat("cd a; touch x; ", 300), core.Ask},
		{strings.Repeat("cd ..; ", 500) + "touch x", core.Ask},
		{strings.Repeat("pushd a; touch x; popd; ", 500) + "touch y", core.Silent},
		{strings.Repeat("cd a; ", 500) + strings.Repeat("cd ..; ", 500) + "touch x", core.Silent},
		{strings.Repeat("cd a; ", 500) + strings.Repeat("cd ..; ", 501) + "touch x", core.Ask},
		{strings.Repeat("rm a; ", 2000) + "rm /etc/x", core.Ask},
	} {
		c := &core.Call{Tool: "Bash", Kind: core.KindShell, ProjectRoot: "/work/p", Cwd: "/work/p", Platform: "linux",
			Script: analysis.Analyze(tc.cmd, analysis.Options{Cwd: "/work/p"})}
		v, err := l.Decide(context.Background(), c)
		if err != nil || v.Decision != tc.want {
			t.Errorf("%.40q...: %v, want %v (%v) %v", tc.cmd, v.Decision, tc.want, err, v.Reasons)
		}
	}
}
