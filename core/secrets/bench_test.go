package secrets

import (
	"encoding/json"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// benchWorld is a simulated platform of worlds and the paths of
// testdata/paths.json written for it (with their tree flag).
func benchWorld(b *testing.B, goos string) (paths.Platform, []paths.Path, []bool) {
	data, err := os.ReadFile("testdata/paths.json")
	if err != nil {
		b.Fatal(err)
	}
	var cases []struct {
		OS, Path string
		Tree     bool
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		b.Fatal(err)
	}
	w := worlds[goos]
	env := map[string]string{"HOME": w[0]}
	if goos == "windows" {
		env["APPDATA"], env["LOCALAPPDATA"] = w[0]+`\AppData\Roaming`, w[0]+`\AppData\Local`
	}
	p := paths.Simulated(goos, w[0], env)
	var xs []paths.Path
	var trees []bool
	for _, c := range cases {
		if x := p.Clean(c.Path); c.OS == goos && x.IsAbs() {
			xs, trees = append(xs, x), append(trees, c.Tree)
		}
	}
	if len(xs) == 0 {
		b.Fatalf("%s: no paths", goos)
	}
	return p, xs, trees
}

// BenchmarkReadIndexed judges every path of testdata/paths.json that the
// index keys (no glob: a glob is scanned) with Read, or Holds for a tree
// case, on each platform through a placement whose index is built: the
// cost a warm layer server pays per path.
func BenchmarkReadIndexed(b *testing.B) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		b.Run(goos, func(b *testing.B) {
			p, all, allTrees := benchWorld(b, goos)
			var xs []paths.Path
			var trees []bool
			for k, x := range all {
				if !strings.ContainsAny(x.Norm, "*?[") {
					xs, trees = append(xs, x), append(trees, allTrees[k])
				}
			}
			s := Resolve(p, worlds[goos][1])
			for n := 0; n <= indexAfter; n++ {
				s.Read(xs[0])
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for k, x := range xs {
					if trees[k] {
						s.Holds(x)
					} else {
						s.Read(x)
					}
				}
			}
		})
	}
}

// BenchmarkPlacementResident reports what one placement with its index
// keeps on the heap (live-B) and how much of that the collector scans
// (scan-B: memory that holds pointers), measured by runtime/metrics after
// a collection before and after placing. Time per op means nothing here.
func BenchmarkPlacementResident(b *testing.B) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		b.Run(goos, func(b *testing.B) {
			p, xs, _ := benchWorld(b, goos)
			var live, scan float64
			for b.Loop() {
				lastPlaced.Store(nil)
				l0, s0 := heapMetrics()
				s := Resolve(p, worlds[goos][1])
				for n := 0; n <= indexAfter; n++ {
					s.Read(xs[0])
				}
				l1, s1 := heapMetrics()
				runtime.KeepAlive(s)
				live += float64(l1) - float64(l0)
				scan += float64(s1) - float64(s0)
			}
			b.ReportMetric(live/float64(b.N), "live-B")
			b.ReportMetric(scan/float64(b.N), "scan-B")
		})
	}
}

// heapMetrics collects garbage and returns the live heap and its
// scannable part.
func heapMetrics() (live, scan uint64) {
	runtime.GC()
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/heap:bytes"}}
	metrics.Read(m)
	return m[0].Value.Uint64(), m[1].Value.Uint64()
}
