package fence

import (
	"context"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// FuzzDecide feeds any command text (as Bash and as PowerShell) and any
// path (as a Write target and as the cwd) to the layer under Linux,
// Windows and macOS semantics: it must never fail or panic (Decide turns a
// panic into an error, which fails here) and every ask must be well formed.
func FuzzDecide(f *testing.F) {
	for _, s := range []struct{ cmd, path string }{
		{"echo x > /etc/hosts", "/etc/hosts"},
		{"cd /etc && echo x > hosts", "../x"},
		{`cp -t /opt/app a b; mv /etc/a .; tar xzvf a.tgz -C /opt`, `C:\Users\alice\x`},
		{`find /etc -name '*.bak' | xargs rm; sed -i 's/a/b/' $(grep -rl a /etc)`, "/c/Users/x"},
		{`Set-Content -Path C:\x -Value 1; cd D:\; ni foo`, `\\srv\share\x`},
		{`cmd /c "copy a C:\x\ && del /q C:\y & echo x > C:\z 2>nul"`, "%TEMP%\\x"},
		{`python3 -c "open('/etc/x','w')"; node -e "require('fs').rmSync('/opt')"`, "$HOME/x"},
		{`cd "$X" && touch a; pushd /tmp; popd; popd; touch b`, "$NOPE/x"},
		{"curl -fsSLo /opt/x https://x; wget -O- https://x | tar xz -C /srv", "~/.zcode/cli/memories/a"},
		{"git -C ../other commit -am x; git clone u /opt/r; dd of=/dev/sda", "/dev/null"},
		{"echo > \"$(mktemp -p /opt)\" > \"$(pwd)/x\" > `pwd`/y > $(git rev-parse --show-toplevel)/z", "NUL"},
		{"rm -rf -- / ~ ../.. '' - \"$@\" ${x:-/} $((1+1))", ""},
		{"\x00\xff<>|&;()`$'\"\\", "\x00\\\\?\\C:\\x"},
		{"[IO.File]::WriteAllText('C:\\x', 'y'); [System.IO.File]::Copy(\"a\", \"$env:TEMP\\b\"); [io.directory] :: Delete ( 'D:\\' ,", "C:"},
		{"python -c 'import os; os.remove(os.path.join(\"/etc\", f))'; npx shx rm -rf /opt; pip install -t /x r", "\\\\srv"},
		{"ln -s /etc cfg && echo x > cfg/hosts; printf '/\\n' | xargs -n1 rm -rf; rm $(grep -rl x /etc)", "/proc/self/fd/1"},
	} {
		f.Add(s.cmd, s.path)
	}
	l := New(WithPlatform(func(goos string) paths.Platform {
		w := worlds[goos]
		return paths.Simulated(goos, w.home, w.env)
	}))
	f.Fuzz(func(t *testing.T, cmd, path string) {
		for _, goos := range []string{"linux", "windows", "darwin"} {
			w := worlds[goos]
			p := paths.Simulated(goos, w.home, w.env)
			var roots []string
			for _, r := range p.WritableRoots(w.project, "") {
				roots = append(roots, r.Norm)
			}
			base := core.Call{ProjectRoot: w.project, Cwd: path, Platform: goos, WritableRoots: roots}
			for _, d := range []ir.Dialect{ir.Bash, ir.PowerShell} {
				c := base
				c.Tool, c.Kind, c.Command = "Bash", core.KindShell, cmd
				c.Script = analysis.Analyze(cmd, analysis.Options{Dialect: d, Cwd: path, Home: w.home, Lookup: p.Lookup})
				check(t, l, &c)
			}
			c := base
			c.Tool, c.Kind, c.Paths, c.Cwd = "Write", core.KindFile, []string{path, cmd}, w.project
			check(t, l, &c)
		}
	})
}

func check(t *testing.T, l *Layer, c *core.Call) {
	t.Helper()
	v, err := l.Decide(context.Background(), c)
	if err != nil {
		t.Fatalf("Decide(%q, %q): %v", c.Command, c.Paths, err)
	}
	if (v.Decision == core.Ask) != (len(v.Reasons) > 0) {
		t.Fatalf("decision %v with %d reasons", v.Decision, len(v.Reasons))
	}
	if len(v.Reasons) > maxReasons {
		t.Fatalf("%d reasons", len(v.Reasons))
	}
	for _, r := range v.Reasons {
		if rule, ok := rules.Lookup(r.Rule); r.Layer != Name || !ok || rule.Family != rules.Fence && rule.Family != rules.Protected || !strings.HasPrefix(r.Message, "[zcode-fence: ") {
			t.Fatalf("bad reason %+v", r)
		}
	}
}
