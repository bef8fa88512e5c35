package cdchain

import (
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

func word(s string) ir.Word { return ir.Word{Value: s, Raw: s, KnownPrefix: s} }

// TestEachStepOnce: commands sharing a chain, extending the chain resolved
// last, or returning to one resolved before cost no step call beyond the
// new steps; the directories are the joined steps.
func TestEachStepOnce(t *testing.T) {
	calls := 0
	join := func(cur string, w ir.Word, _ ir.Dialect) string {
		calls++
		return cur + "/" + w.Value
	}
	budget := steps.New(1 << 20)
	c := New("/p", join, budget)
	a := []ir.Word{word("a"), word("b")}
	ab := append(append([]ir.Word{}, a...), word("c")) // a copy: another slice, same strings
	other := []ir.Word{word("x")}
	for _, tc := range []struct {
		chain []ir.Word
		d     ir.Dialect
		want  string
		calls int
	}{
		{nil, ir.Bash, "/p", 0},
		{a, ir.Bash, "/p/a/b", 2},
		{a, ir.Bash, "/p/a/b", 2},       // the same chain: cached
		{ab, ir.Bash, "/p/a/b/c", 3},    // extends the last: one more step
		{other, ir.Bash, "/p/x", 4},     // another chain
		{a, ir.Bash, "/p/a/b", 4},       // back to the first: cached by identity
		{a, ir.PowerShell, "/p/a/b", 6}, // another dialect reads the steps anew
	} {
		if got := c.Dir(tc.chain, tc.d); got != tc.want || calls != tc.calls {
			t.Errorf("Dir(%v, %v) = %q after %d step calls, want %q after %d", tc.chain, tc.d, got, calls, tc.want, tc.calls)
		}
	}
	if budget.Used() == 0 {
		t.Error("no step counted")
	}
}

// TestSharedChainIsLinear: 4,096 commands under one chain of 32 steps of
// 4 KiB (the issue 13 shape) make 32 step calls, not 131,072.
func TestSharedChainIsLinear(t *testing.T) {
	chain := make([]ir.Word, 32)
	for i := range chain {
		chain[i] = word(strings.Repeat("d", 4000))
	}
	calls := 0
	c := New(0, func(cur int, w ir.Word, _ ir.Dialect) int { calls++; return cur + len(w.Value) }, steps.New(1<<20))
	for range 4096 {
		c.Dir(chain, ir.Bash)
	}
	if calls != 32 {
		t.Fatalf("%d step calls, want 32", calls)
	}
}
