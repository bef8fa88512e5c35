package crafted_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/internal/crafted"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/fence"
)

// BenchmarkFamily judges each member of the crafted family (and the issue
// 13 shape) the way the host does in-process — the analysis, then the
// danger gate and the fence, on the real file system — and reports the
// time per KiB of command text ("ns/KiB"). Every member must ask.
func BenchmarkFamily(b *testing.B) {
	cases := append(crafted.Family(crafted.Dangers[0], 1<<20), crafted.Issue13Cases()[0])
	plat := paths.ForOS(runtime.GOOS)
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			project := b.TempDir()
			layers := []core.Layer{danger.New(), fence.New()}
			b.SetBytes(int64(len(c.Command)))
			for b.Loop() {
				call := &core.Call{Tool: c.Tool, Kind: core.KindShell, Command: c.Command, ProjectRoot: project, Cwd: project,
					WritableRoots: []string{project}, Platform: runtime.GOOS}
				call.Script = analysis.Analyze(c.Command, analysis.Options{Dialect: call.ShellDialect(), Cwd: project, Home: plat.Home, Lookup: plat.Lookup})
				asked := false
				for _, l := range layers {
					v, err := l.Decide(context.Background(), call)
					if err != nil {
						b.Fatal(err)
					}
					asked = asked || v.Decision == core.Ask
				}
				if !asked {
					b.Fatalf("%s: silent", c.Name)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(len(c.Command))/1024), "ns/KiB")
		})
	}
}
