// Package cdchain resolves the cd chains of a shell analysis
// (ir.Command.Cd) for a layer, each distinct chain once: the directory
// after every chain is cached by the chain's identity, and a chain that
// extends the one resolved last reuses the directories of their common
// prefix. A script whose commands share or extend a few chains therefore
// costs one step function call per cd step, not one per step per command
// (a 4,096-command script under a 32-step chain of 4 KiB steps would
// otherwise re-join 512 MiB of path text).
//
// The analysis shares one chain slice between the commands it applies to
// and never modifies a chain once made (ir.Command.Cd's contract), so
// the address of a chain's first element and its length name its content.
// The layer protocol keeps that sharing (core/layerproto/convert sends each
// distinct chain once).
package cdchain

import (
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// Step applies one cd step to cur, in dialect d, and returns the directory
// it leads to. It is the layer's own reading of a cd argument.
type Step[D any] func(cur D, w ir.Word, d ir.Dialect) D

// Cache resolves chains from one start directory (the call's cwd) with one
// Step. It is used by one goroutine (one Decide call).
type Cache[D any] struct {
	start D
	step  Step[D]
	steps *steps.Counter

	whole map[key]D

	last     []ir.Word // the chain resolved last
	lastDirs []D       // the directory after each of its steps
	lastD    ir.Dialect
	haveLast bool
}

type key struct {
	first *ir.Word
	n     int
	d     ir.Dialect
}

// New returns a cache for chains starting at start. Dir spends one step of
// budget per call and one per step it compares with the last chain (the
// Step function spends what its own work costs).
func New[D any](start D, step Step[D], budget *steps.Counter) *Cache[D] {
	return &Cache[D]{start: start, step: step, steps: budget}
}

// Dir returns the directory after chain, in dialect d: start for an empty
// chain. Cost: one map lookup for a chain seen before; otherwise a
// comparison with the last chain's steps (a pointer comparison per step
// when the strings are shared) and one Step call per step past the common
// prefix.
func (c *Cache[D]) Dir(chain []ir.Word, d ir.Dialect) D {
	if len(chain) == 0 {
		return c.start
	}
	c.steps.Spend(1)
	k := key{&chain[0], len(chain), d}
	if dir, ok := c.whole[k]; ok {
		return dir
	}
	p := 0
	if c.haveLast && d == c.lastD {
		for p < len(chain) && p < len(c.last) && same(chain[p], c.last[p]) {
			p++
		}
		c.steps.Spend(p)
	}
	dirs := make([]D, len(chain))
	copy(dirs, c.lastDirs[:p])
	cur := c.start
	if p > 0 {
		cur = dirs[p-1]
	}
	for i := p; i < len(chain); i++ {
		cur = c.step(cur, chain[i], d)
		dirs[i] = cur
	}
	c.last, c.lastDirs, c.lastD, c.haveLast = chain, dirs, d, true
	if c.whole == nil {
		c.whole = map[key]D{}
	}
	c.whole[k] = cur
	return cur
}

func same(a, b ir.Word) bool {
	return a.Value == b.Value && a.Raw == b.Raw && a.Unknown == b.Unknown && a.KnownPrefix == b.KnownPrefix && a.Glob == b.Glob
}
