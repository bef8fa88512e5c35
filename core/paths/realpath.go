package paths

import (
	"path/filepath"
	"strings"
	"sync"
)

// maxRealWalk bounds how many ancestors RealPath tries.
const maxRealWalk = 128

// RealPath resolves symlinks in x: the deepest ancestor of x that exists
// is passed to EvalSymlinks and the components below it are re-attached
// (and folded) lexically. ".." written in x is applied after the symlink
// before it is resolved, as the kernel does: with link -> /etc/ssh,
// "proj/link/../x" is /etc/x, not proj/x.
//
// Only native kinds are resolved: Unix paths when p.OS is not "windows",
// Drive paths when it is. UNC paths stay lexical (touching a network share
// can block for seconds), and so does everything when p.EvalSymlinks is
// nil. When no ancestor within maxRealWalk (128) levels resolves, x comes
// back unchanged. The result is clean and normally has x's Kind; it is
// Null when a symlink leads to the null device, and Drive when on Linux a
// symlink leads to a one-letter top directory (/c/x reads as C:\x, as
// everywhere).
//
// Cost: EvalSymlinks on x, then on its parent, then a binary search over
// the other ancestors (that an ancestor resolves is monotone: every longer
// prefix walks through it), so O(log depth) calls of O(depth) each, on
// paths no longer than the limits of TooLong; with CachedEvalSymlinks
// repeated calls are map lookups.
func (p Platform) RealPath(x Path) Path {
	if p.EvalSymlinks == nil || !x.wellFormed() || (x.walk != "" && !(Path{Kind: x.Kind, Norm: x.walk}).wellFormed()) {
		return x
	}
	sep := byte('/')
	if p.windows() {
		if x.Kind != Drive {
			return x
		}
		sep = '\\'
	} else if x.Kind != Unix {
		return x
	}
	src := x.walk
	if src == "" {
		src = x.Norm
	}
	if p.TooLong(src) {
		return x
	}
	root := src[:1] // "/"
	if sep == '\\' {
		root = src[:3] // "C:\"
	}
	var buf [32]string
	segs := splitSegs(buf[:0], src[len(root):], sep == '\\', false)
	lo := max(len(segs)-maxRealWalk, 0)
	try := func(i int) (string, bool) {
		resolved, err := p.EvalSymlinks(joinSegs(root, segs[:i], sep))
		return resolved, err == nil && resolved != ""
	}
	// The common cases first: x exists, or only its last name is new.
	best, resolved := -1, ""
	stop := max(lo, len(segs)-1)
	for i := len(segs); i >= stop; i-- {
		if r, ok := try(i); ok {
			best, resolved = i, r
			break
		}
	}
	if best < 0 {
		// Binary search for the deepest ancestor in [lo, stop) that
		// resolves: good does (or is below the range), bad does not.
		good, bad := lo-1, stop
		for bad-good > 1 {
			mid := good + (bad-good)/2
			if r, ok := try(mid); ok {
				good, resolved = mid, r
			} else {
				bad = mid
			}
		}
		if good < lo {
			return x
		}
		best = good
	}
	i := best
	full := resolved
	if i < len(segs) {
		full = joinSegs(strings.TrimRight(resolved, string(sep))+string(sep), segs[i:], sep)
	}
	out := p.Clean(full)
	if !out.IsAbs() && out.Kind != Null {
		return x // EvalSymlinks gave something we cannot use
	}
	if out.walk != "" {
		// The tail held "..": it was folded over names that do not
		// exist yet; what remains may still cross a symlink.
		out.walk = ""
		out = p.RealPath(out)
	}
	out.Raw = x.Raw
	return out
}

// CachedEvalSymlinks is filepath.EvalSymlinks with a process-wide cache of
// answers (errors included), safe for concurrent use; Native uses it. The
// cache holds at most 4096 entries and is never invalidated, which suits a
// hook process that lives for one tool call; a long-lived process that
// must see filesystem changes should use filepath.EvalSymlinks instead.
func CachedEvalSymlinks(path string) (string, error) {
	realCache.mu.RLock()
	e, ok := realCache.m[path]
	realCache.mu.RUnlock()
	if ok {
		return e.path, e.err
	}
	r, err := filepath.EvalSymlinks(path)
	realCache.mu.Lock()
	if realCache.m == nil {
		realCache.m = make(map[string]realEntry)
	}
	if len(realCache.m) < realCacheMax {
		realCache.m[path] = realEntry{r, err}
	}
	realCache.mu.Unlock()
	return r, err
}

const realCacheMax = 4096

type realEntry struct {
	path string
	err  error
}

var realCache struct {
	mu sync.RWMutex
	m  map[string]realEntry
}
