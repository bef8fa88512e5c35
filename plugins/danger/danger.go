// Package danger is the danger layer. This placeholder answers Silent until the
// real rules land; the whole host path (decode, launch, RPC, merge, output,
// log) already runs through it.
package danger

import (
	"context"

	"github.com/zcode-fence/zcode-fence/core"
)

// Name is the layer's name.
const Name = "danger"

// Layer is the danger layer.
type Layer struct{}

var _ core.Layer = (*Layer)(nil)

// New returns the layer.
func New() *Layer { return &Layer{} }

// Name returns "danger".
func (*Layer) Name() string { return Name }

// Decide answers Silent.
func (*Layer) Decide(ctx context.Context, c *core.Call) (core.Verdict, error) {
	return core.SilentVerdict, nil
}
