package convert

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/layerproto/internal/wiretest"
)

// BenchmarkCallToProto is the conversion and marshalling share of a Decide.
func BenchmarkCallToProto(b *testing.B) {
	call := wiretest.Pipeline(b)
	for b.Loop() {
		_ = CallFromProto(CallToProto(call))
	}
}
