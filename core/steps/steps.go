// Package steps bounds the work of one judgement — an analysis, one
// built-in layer's Decide — by counting it in steps, not by the clock: a
// crafted input then runs out of budget the same way on an idle machine and
// under load, and everyday work, far below the budget, never does.
//
// A step is a unit of work of bounded cost: one command or word visited,
// one path operation (Normalize, Clean, Join) per started PathChunk bytes of
// the path, one file-system call per component it walks. Paths are never
// longer than paths.MaxUnixPath bytes (paths.MaxWindowsPath on Windows) and
// paths.MaxComponents components, so no single step costs more than a few
// microseconds and a budget bounds the time too.
//
// A Counter is used by one goroutine (one judgement); it is not safe for
// concurrent use.
package steps

import (
	"strconv"
	"sync/atomic"
)

// Annotation is the verdict annotation under which a built-in layer reports
// the steps it used (decimal), for the decision log and for measuring how
// far everyday work stays below the budget.
const Annotation = "steps"

// PathChunk is how many bytes of a path one step covers.
const PathChunk = 256

// Counter counts steps against a limit.
type Counter struct {
	used, limit int
}

// New returns a counter with limit steps; limit <= 0 means no step may be
// spent.
func New(limit int) *Counter { return &Counter{limit: limit} }

// Reset makes c a new counter with limit steps (New without the
// allocation, for a counter kept inside another value).
func (c *Counter) Reset(limit int) { *c = Counter{limit: limit} }

// Spend adds n steps and reports whether the total is still within the
// limit. Once it is not, it never is again.
func (c *Counter) Spend(n int) bool {
	c.used += n
	return c.used <= c.limit
}

// Exhausted reports whether more steps were spent than the limit allows.
func (c *Counter) Exhausted() bool { return c.used > c.limit }

// Used returns the steps spent so far.
func (c *Counter) Used() int { return c.used }

// Limit returns the budget.
func (c *Counter) Limit() int { return c.limit }

// String returns the steps used, in decimal (the Annotation's value).
func (c *Counter) String() string { return strconv.Itoa(c.used) }

// Annotations returns a verdict's annotations holding the steps used
// ({Annotation: String()}). The map is shared and must never be written
// (core.Verdict's annotations are read-only once returned; copy before
// adding a key): a count below sharedCounts gets the one map made for it
// on first use, so the everyday verdict allocates nothing. Safe for
// concurrent use.
func (c *Counter) Annotations() map[string]string {
	n := c.used
	if n < 0 || n >= sharedCounts {
		return map[string]string{Annotation: strconv.Itoa(n)}
	}
	if m := shared[n].Load(); m != nil {
		return *m
	}
	m := map[string]string{Annotation: strconv.Itoa(n)}
	shared[n].Store(&m) // a racing caller may store its own equal map
	return m
}

// sharedCounts bounds the step counts whose annotations are shared:
// the danger gate's everyday calls use under twenty steps. The table is
// a global the garbage collector scans on every cycle, so it stays small
// (2 KiB).
const sharedCounts = 256

// shared holds the annotations of each count below sharedCounts, once made.
var shared [sharedCounts]atomic.Pointer[map[string]string]

// Path is the cost of one string operation on a path (or any text) of n
// bytes: one step, plus one per started PathChunk bytes.
func Path(n int) int { return 1 + n/PathChunk }

// FS is the cost of one file-system call on path: one step, plus one per
// separator (each component is one lookup in the kernel, or in
// filepath.EvalSymlinks one Lstat).
func FS(path string) int {
	n := 1
	for i := 0; i < len(path); i++ {
		if path[i] == '/' || path[i] == '\\' {
			n++
		}
	}
	return n
}
