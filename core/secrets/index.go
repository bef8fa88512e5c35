package secrets

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// The index of a placement: its places in a tree of path segments, so
// judging a path walks the path's own segments (a few map look-ups)
// instead of comparing it with every place (about five hundred on
// Linux: the user's and every other home's). It only picks the
// candidates; each candidate is still judged by matches, and the first
// place in catalogue order wins, as in the scan, so both give the same
// Hit. Paths the tree cannot key exactly (a glob in a segment; with
// case folding, a byte outside ASCII) are scanned.

// indexAfter is how many scans a placement serves before it builds its
// index: a hook process judges a handful of paths once (building would
// cost more than it saves), a warm layer server or a long command line
// many.
const indexAfter = 16

// index is a placement's places keyed by segment.
type index struct {
	roots map[string]*node // by rootKey
	named []int32          // the Anywhere places, in catalogue order
	fold  bool
}

// node is one path segment below a root.
type node struct {
	next map[string]*node // by segment (lower-cased when folding); anyUser as is
	ends []int32          // places whose path ends here, in catalogue order
	// below is the first place (in catalogue order) whose path goes on
	// below this node; -1 for none.
	below int32
}

// indexState is what a placement keeps for its index: how many scans it
// served, and the index once built (nil when its places cannot be keyed).
type indexState struct {
	scans atomic.Int32
	once  sync.Once
	idx   *index
}

// lookupIndex returns the placement's index once it has served
// indexAfter scans (building it then, once, for every Set that shares
// the placement), nil before.
func (st *indexState) lookupIndex(items []item, fold bool) *index {
	if st == nil {
		return nil
	}
	if st.scans.Load() < indexAfter {
		st.scans.Add(1)
		return nil
	}
	st.once.Do(func() { st.idx = buildIndex(items, fold) })
	return st.idx
}

// rootKey keys a root of kind k: Windows roots and every root on a
// folding platform compare without case (judgeOne's sameSeg).
func rootKey(k paths.Kind, root string, fold bool) (string, bool) {
	if fold || k != paths.Unix {
		if !isASCII(root) {
			return "", false
		}
		root = strings.ToLower(root)
	}
	return string(rune('0'+int(k))) + root, true
}

// segKey keys one segment.
func segKey(seg string, fold bool) (string, bool) {
	if seg == anyUser {
		return seg, true
	}
	if fold {
		if !isASCII(seg) {
			return "", false
		}
		return strings.ToLower(seg), true
	}
	return seg, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// buildIndex indexes items; nil when one of them cannot be keyed (the
// placement is then always scanned). Cost: one map insert per segment of
// every place, once per placement.
func buildIndex(items []item, fold bool) *index {
	ix := &index{roots: map[string]*node{}, fold: fold}
	for i := range items {
		it := &items[i]
		if it.named != "" {
			ix.named = append(ix.named, int32(i))
			continue
		}
		rk, ok := rootKey(it.kind, it.root, fold)
		if !ok {
			return nil
		}
		n := ix.roots[rk]
		if n == nil {
			n = &node{below: -1}
			ix.roots[rk] = n
		}
		for _, seg := range it.segs {
			k, ok := segKey(seg, fold)
			if !ok {
				return nil
			}
			if n.below < 0 {
				n.below = int32(i)
			}
			c := n.next[k]
			if c == nil {
				if n.next == nil {
					n.next = map[string]*node{}
				}
				c = &node{below: -1}
				n.next[k] = c
			}
			n = c
		}
		n.ends = append(n.ends, int32(i))
	}
	return ix
}

// judge is judgeOne's scan through the index for x (root and segments
// xs): the first place in catalogue order that x reaches, or -1. ok is
// false when x cannot be keyed (the caller scans).
func (ix *index) judge(s *Set, x paths.Path, root string, xs []string, tree bool) (first int, ok bool) {
	keys := xs // without folding a literal segment is its own key
	if ix.fold {
		keys = make([]string, len(xs))
	}
	for k, seg := range xs {
		if strings.ContainsAny(seg, "*?[") || seg == anyUser {
			return -1, false
		}
		if ix.fold {
			key, good := segKey(seg, true)
			if !good {
				return -1, false
			}
			keys[k] = key
		}
	}
	rk, good := rootKey(x.Kind, root, ix.fold)
	if !good {
		return -1, false
	}
	best := int32(-1)
	if len(xs) > 0 {
		last := xs[len(xs)-1]
		for _, i := range ix.named {
			if anywhereMatch(last, s.items[i].named, ix.fold) {
				best = i
				break
			}
		}
	}
	if n := ix.roots[rk]; n != nil {
		ix.walk(s, n, 0, xs, keys, tree, &best)
	}
	return int(best), true
}

// walk judges the places at node n (depth k along xs) and below it.
func (ix *index) walk(s *Set, n *node, k int, xs, keys []string, tree bool, best *int32) {
	for _, i := range n.ends {
		if *best >= 0 && i >= *best {
			break
		}
		if s.matches(&s.items[i], xs, ix.fold, tree) {
			*best = i
			break
		}
	}
	if k == len(xs) {
		// Places below x: a recursive read of x reaches them all.
		if tree && n.below >= 0 && (*best < 0 || n.below < *best) {
			*best = n.below
		}
		return
	}
	if c := n.next[keys[k]]; c != nil {
		ix.walk(s, c, k+1, xs, keys, tree, best)
	}
	if c := n.next[anyUser]; c != nil {
		ix.walk(s, c, k+1, xs, keys, tree, best)
	}
}
