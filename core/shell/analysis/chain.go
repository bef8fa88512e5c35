package analysis

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The cd chain (Command.Cd) is kept short whatever the script, because
// every Command carries it and every cd copies it:
//
//   - consecutive known relative steps are merged into one, joined with
//     the dialect's separator ("a", "b" give "a/b"; ".." is kept, not
//     cleaned, since cd is logical and a realpath check may still need to
//     resolve it after a symlink);
//   - a known absolute step drops the chain before it;
//   - consecutive wholly unknown steps collapse into the first;
//   - a step longer than maxCdStepLen becomes an unknown step, and a chain
//     that would grow past maxCdSteps ends in one unknown step (the
//     directory is unknown from there on, until an absolute step).
//
// A chain therefore holds at most maxCdSteps steps of at most about
// maxCdStepLen bytes each, and applying a step costs O(maxCdSteps) plus,
// when it merges, the merged step's length (at most maxCdStepLen).

const (
	// maxCdSteps bounds the steps of a cd chain.
	maxCdSteps = 32
	// maxCdStepLen bounds the bytes of one step's Value and Raw.
	maxCdStepLen = 4 << 10
	// maxDirStack bounds the pushd stack.
	maxDirStack = 64
)

// cdChainTooLong and cdStepTooLong are the unknown steps standing for
// what the chain bounds dropped.
var (
	cdChainTooLong = unknownStep("(cd chain too long)")
	cdStepTooLong  = unknownStep("(cd step too long)")
)

// appendStep returns chain followed by step, bounded as described above,
// for a cd made in dialect d. chain is never modified: the result is a
// new slice or chain itself.
func appendStep(chain []ir.Word, step ir.Word, d ir.Dialect) []ir.Word {
	if len(step.Value) > maxCdStepLen || len(step.Raw) > maxCdStepLen {
		step = cdStepTooLong
	}
	if !step.Unknown && !step.Glob && cdAbsolute(step.Value, d) {
		return []ir.Word{step}
	}
	n := len(chain)
	if n == 0 {
		return []ir.Word{step}
	}
	last := chain[n-1]
	if plainRelativeStep(last, d) && plainRelativeStep(step, d) {
		if merged, ok := joinSteps(last, step, d); ok {
			out := slices.Clone(chain)
			out[n-1] = merged
			return out
		}
	}
	if whollyUnknown(last) && (whollyUnknown(step) || sameStep(last, cdChainTooLong)) {
		return chain // the directory stays unknown
	}
	if n >= maxCdSteps {
		return append(slices.Clip(chain[:maxCdSteps-1]), cdChainTooLong)
	}
	return append(slices.Clip(chain), step)
}

// whollyUnknown reports a step of which nothing is known.
func whollyUnknown(w ir.Word) bool { return w.Unknown && w.KnownPrefix == "" }

// cdAbsolute reports whether a cd to v replaces the whole directory: a
// path from / in bash; a drive path (C:\, C:/) or a UNC path (\\host) in
// the Windows dialects, where a path from \ alone keeps the drive.
func cdAbsolute(v string, d ir.Dialect) bool {
	if d == ir.Bash {
		return strings.HasPrefix(v, "/")
	}
	if strings.HasPrefix(v, `\\`) || strings.HasPrefix(v, "//") {
		return true
	}
	return len(v) >= 3 && (v[0]|0x20 >= 'a' && v[0]|0x20 <= 'z') && v[1] == ':' && (v[2] == '\\' || v[2] == '/')
}

// plainRelativeStep reports a known relative step that may be merged
// with its neighbour: no glob, not empty, and nothing in its value or
// source that any reading could take for an absolute, drive or provider
// path (a leading slash or backslash, a colon, a backslash in bash text).
func plainRelativeStep(w ir.Word, d ir.Dialect) bool {
	if w.Unknown || w.Glob || w.Value == "" {
		return false
	}
	for _, s := range [2]string{w.Value, w.Raw} {
		if strings.ContainsRune(s, ':') || strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) {
			return false
		}
		if d == ir.Bash && strings.ContainsRune(s, '\\') {
			return false
		}
	}
	return true
}

// joinSteps merges two relative steps into one, joining Value and Raw
// with the dialect's separator; ok is false when the result would be
// longer than maxCdStepLen.
func joinSteps(a, b ir.Word, d ir.Dialect) (ir.Word, bool) {
	sep := "/"
	if d != ir.Bash {
		sep = `\`
	}
	join := func(x, y string) string {
		if strings.HasSuffix(x, "/") || strings.HasSuffix(x, `\`) && d != ir.Bash {
			return x + y
		}
		return x + sep + y
	}
	rawOf := func(w ir.Word) string {
		if w.Raw == "" {
			return w.Value
		}
		return w.Raw
	}
	if len(a.Value)+len(b.Value)+1 > maxCdStepLen || len(rawOf(a))+len(rawOf(b))+1 > maxCdStepLen {
		return ir.Word{}, false
	}
	v := join(a.Value, b.Value)
	raw := v // the common case: steps written as plain words
	if rawOf(a) != a.Value || rawOf(b) != b.Value {
		raw = join(rawOf(a), rawOf(b))
	}
	return ir.Word{Value: v, Raw: raw, KnownPrefix: v}, true
}
