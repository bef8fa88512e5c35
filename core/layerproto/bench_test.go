package layerproto

import (
	"context"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/layerproto/internal/wiretest"
)

// BenchmarkLaunchDecideClose is the per-hook cost of one process layer:
// start the process, handshake, Describe, one Decide, SIGKILL, reap and
// socket removal. It also reports the launch and close parts.
func BenchmarkLaunchDecideClose(b *testing.B) {
	cfg := modeConfig(b, "serve")
	call := wiretest.Pipeline(b)
	ctx := context.Background()
	var launch, closing time.Duration
	for b.Loop() {
		t0 := time.Now()
		c, err := Launch(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := c.Decide(ctx, call); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
		launch += t1.Sub(t0)
		closing += time.Since(t2)
	}
	b.ReportMetric(float64(launch.Microseconds())/float64(b.N)/1000, "launch-ms/op")
	b.ReportMetric(float64(closing.Microseconds())/float64(b.N)/1000, "close-ms/op")
}

// BenchmarkDecideRPC is one Decide on a running layer process.
func BenchmarkDecideRPC(b *testing.B) {
	c := launch(b, "serve")
	call := wiretest.Pipeline(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := c.Decide(ctx, call); err != nil {
			b.Fatal(err)
		}
	}
}
