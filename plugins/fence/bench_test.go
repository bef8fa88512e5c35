package fence

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// everyday are commands an agent runs all day; all are silent.
var everyday = []string{
	"git status",
	"npm run build > build.log 2>&1",
	"ls -la src",
	"cd src && touch a.ts",
	"cp a.txt b.txt",
	"rm -rf node_modules dist",
	"echo x > /tmp/f",
	"go test ./... 2>&1 | tail -20",
	"mkdir -p build && cd build && cmake .. && make -j8",
	"sed -i 's/x/y/g' $(grep -rl x src)",
	"find . -name '*.o' -delete",
	"curl -fsSLo dl/tool https://example.com/tool && chmod +x dl/tool",
}

// benchCalls analyses the everyday commands on the real file system with
// a project in a temp directory, as the host would.
func benchCalls(b *testing.B) ([]*core.Call, *Layer) {
	project, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	p := paths.ForOS("")
	var roots []string
	for _, r := range p.WritableRoots(project, "") {
		roots = append(roots, r.Norm)
	}
	var calls []*core.Call
	for _, cmd := range everyday {
		c := &core.Call{Tool: "Bash", Kind: core.KindShell, Command: cmd, ProjectRoot: project, Cwd: project,
			Platform: p.OS, WritableRoots: roots}
		c.Script = analysis.Analyze(cmd, analysis.Options{Cwd: project, Home: p.Home, Lookup: p.Lookup})
		calls = append(calls, c)
	}
	return calls, New()
}

// BenchmarkDecide is one Decide over an everyday command (the analysis is
// done beforehand, as the host does it once for every layer).
func BenchmarkDecide(b *testing.B) {
	calls, l := benchCalls(b)
	ctx := context.Background()
	for _, c := range calls { // every everyday command must be silent
		if v, _ := l.Decide(ctx, c); v.Decision != core.Silent {
			b.Fatalf("%q: %v %v", c.Command, v.Decision, v.Reasons)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = l.Decide(ctx, calls[i%len(calls)])
	}
}

// BenchmarkAnalyzeAndDecide adds the shell analysis to the cost.
func BenchmarkAnalyzeAndDecide(b *testing.B) {
	calls, l := benchCalls(b)
	ctx := context.Background()
	p := paths.ForOS("")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := *calls[i%len(calls)]
		c.Script = analysis.Analyze(c.Command, analysis.Options{Cwd: c.Cwd, Home: p.Home, Lookup: p.Lookup})
		_, _ = l.Decide(ctx, &c)
	}
}

// BenchmarkFileTool is one Decide over a Write inside the project.
func BenchmarkFileTool(b *testing.B) {
	calls, l := benchCalls(b)
	c := *calls[0]
	c.Tool, c.Kind, c.Script, c.Command = "Write", core.KindFile, nil, ""
	c.Paths = []string{filepath.Join(c.ProjectRoot, "src", "main.ts")}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = l.Decide(ctx, &c)
	}
}
