package secrets

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// The index of a placement: its places in a tree of path segments, so
// judging a path walks the path's own segments (a binary search among a
// node's children per segment) instead of comparing it with every place
// (about five hundred on Linux: the user's and every other home's). It
// only picks the candidates; each candidate is still judged by matches,
// and the first place in catalogue order wins, as in the scan, so both
// give the same Hit. Paths the tree cannot key exactly (a glob in a
// segment; with case folding, a byte outside ASCII) are scanned.

// indexAfter is how many scans a placement serves before it builds its
// index: a hook process judges a handful of paths once (building would
// cost more than it saves), a warm layer server or a long command line
// many.
const indexAfter = 16

// index is a placement's places keyed by segment: a tree of nodes in
// one slice, each node's children an edge list sorted by key, keys spans
// of one string. Like the places, it holds no pointer but its slices'
// and keys' own (the collector scans none of it) and a look-up allocates
// nothing.
type index struct {
	roots []rootEdge // a handful: one per root of the places
	nodes []node
	edges []edge  // the children of every node, node after node
	keys  string  // the edges' and roots' keys (lower-cased when folding)
	ends  []int32 // the places ending at every node, node after node
	named []int32 // the Anywhere places, in catalogue order
	fold  bool
}

// rootEdge leads to the node of a root of kind kind; key is the root,
// lower-cased when roots of kind compare without case (rootFolds).
type rootEdge struct {
	key  span
	node int32
	kind paths.Kind
}

// edge leads to a child by one segment.
type edge struct {
	key   span
	child int32
}

// node is one path segment below a root.
type node struct {
	// edges[edge0:edge0+nedges] are the children by segment, sorted by
	// key; anyUser is the child by the anyUser segment (-1: none).
	edge0, nedges int32
	anyUser       int32
	// ends[end0:end0+nends] are the places whose path ends here, in
	// catalogue order.
	end0, nends int32
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
func (st *indexState) lookupIndex(pl *places, fold bool) *index {
	if st.scans.Load() < indexAfter {
		st.scans.Add(1)
		return nil
	}
	st.once.Do(func() { st.idx = buildIndex(pl, fold) })
	return st.idx
}

// rootFolds reports whether roots of kind k compare without case:
// Windows roots, and every root on a folding platform (judgeOne's
// sameSeg).
func rootFolds(k paths.Kind, fold bool) bool { return fold || k != paths.Unix }

// keyable reports whether seg can be keyed: compared without case only
// ASCII is (the index lower-cases byte by byte).
func keyable(seg string, fold bool) bool { return !fold || isASCII(seg) }

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// cmpKey compares key (lower-cased when fold) with seg, lower-cased when
// fold (ASCII: keyable), as strings.Compare does; it allocates nothing.
func cmpKey(key, seg string, fold bool) int {
	if !fold {
		return strings.Compare(key, seg)
	}
	for i := 0; i < len(key) && i < len(seg); i++ {
		a, b := key[i], seg[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return cmp.Compare(a, b)
		}
	}
	return cmp.Compare(len(key), len(seg))
}

// trie is buildIndex's tree while it is built.
type trie struct {
	next    map[string]*trie // by key
	anyUser *trie
	ends    []int32
	below   int32
}

func newTrie() *trie { return &trie{below: -1} }

// buildIndex indexes the places of pl; nil when one of them cannot be
// keyed (the placement is then always scanned). Cost: one map insert per
// segment of every place into a tree that is then laid out flat and
// dropped, once per placement.
func buildIndex(pl *places, fold bool) *index {
	type rootAt struct {
		kind paths.Kind
		key  string
		t    *trie
	}
	var roots []rootAt
	var named []int32
	for i := range pl.items {
		it := &pl.items[i]
		if it.anywhere() {
			named = append(named, int32(i))
			continue
		}
		root := pl.str(it.root)
		if !keyable(root, rootFolds(it.kind, fold)) {
			return nil
		}
		if rootFolds(it.kind, fold) {
			root = strings.ToLower(root)
		}
		var n *trie
		for _, r := range roots {
			if r.kind == it.kind && r.key == root {
				n = r.t
			}
		}
		if n == nil {
			n = newTrie()
			roots = append(roots, rootAt{it.kind, root, n})
		}
		for k := range int(it.nsegs) {
			seg := pl.seg(it, k)
			if !keyable(seg, fold) {
				return nil
			}
			if n.below < 0 {
				n.below = int32(i)
			}
			n = n.child(seg, fold)
		}
		n.ends = append(n.ends, int32(i))
	}
	ix := &index{named: named, fold: fold}
	var keys strings.Builder
	at := map[string]span{} // each key written once
	key := func(k string) span {
		sp, ok := at[k]
		if !ok {
			sp = put(&keys, k)
			at[k] = sp
		}
		return sp
	}
	for _, r := range roots {
		ix.roots = append(ix.roots, rootEdge{key: key(r.key), node: ix.layOut(r.t, key), kind: r.kind})
	}
	ix.keys = keys.String()
	return ix
}

// child is n's child by seg, added when missing.
func (n *trie) child(seg string, fold bool) *trie {
	if seg == anyUser {
		if n.anyUser == nil {
			n.anyUser = newTrie()
		}
		return n.anyUser
	}
	if fold {
		seg = strings.ToLower(seg)
	}
	c := n.next[seg]
	if c == nil {
		if n.next == nil {
			n.next = map[string]*trie{}
		}
		c = newTrie()
		n.next[seg] = c
	}
	return c
}

// layOut appends t and the tree below it to ix's nodes and returns t's
// node; key writes a key to the keys.
func (ix *index) layOut(t *trie, key func(string) span) int32 {
	id := int32(len(ix.nodes))
	ix.nodes = append(ix.nodes, node{anyUser: -1, below: t.below,
		end0: int32(len(ix.ends)), nends: int32(len(t.ends)),
		edge0: int32(len(ix.edges)), nedges: int32(len(t.next))})
	ix.ends = append(ix.ends, t.ends...)
	e0 := len(ix.edges)
	ix.edges = append(ix.edges, make([]edge, len(t.next))...)
	for k, seg := range slices.Sorted(maps.Keys(t.next)) {
		c := ix.layOut(t.next[seg], key)
		ix.edges[e0+k] = edge{key: key(seg), child: c}
	}
	if t.anyUser != nil {
		c := ix.layOut(t.anyUser, key)
		ix.nodes[id].anyUser = c
	}
	return id
}

// child is node n's child by segment seg (a literal, keyable), -1 when
// none: a binary search of n's edges.
func (ix *index) child(n *node, seg string) int32 {
	lo, hi := int(n.edge0), int(n.edge0+n.nedges)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := &ix.edges[m]
		switch c := cmpKey(ix.keys[e.key.lo:e.key.hi], seg, ix.fold); {
		case c == 0:
			return e.child
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1
}

// root is the node of root (of kind k), -1 when none.
func (ix *index) root(k paths.Kind, root string) int32 {
	for i := range ix.roots {
		r := &ix.roots[i]
		if r.kind == k && cmpKey(ix.keys[r.key.lo:r.key.hi], root, rootFolds(k, ix.fold)) == 0 {
			return r.node
		}
	}
	return -1
}

// judge is judgeOne's scan through the index for x (root and segments
// xs): the first place in catalogue order that x reaches, or -1. ok is
// false when x cannot be keyed (the caller scans).
func (ix *index) judge(s *Set, x paths.Path, root string, xs []string, tree bool) (first int, ok bool) {
	for _, seg := range xs {
		if strings.ContainsAny(seg, "*?[") || seg == anyUser || !keyable(seg, ix.fold) {
			return -1, false
		}
	}
	if !keyable(root, rootFolds(x.Kind, ix.fold)) {
		return -1, false
	}
	best := int32(-1)
	if len(xs) > 0 {
		last := xs[len(xs)-1] // no glob: anywhereMatch is sameSeg
		for _, i := range ix.named {
			if sameSeg(last, s.pl.str(s.pl.items[i].named), ix.fold) {
				best = i
				break
			}
		}
	}
	if n := ix.root(x.Kind, root); n >= 0 {
		ix.walk(s, n, 0, xs, tree, &best)
	}
	return int(best), true
}

// walk judges the places at node n (depth k along xs) and below it.
func (ix *index) walk(s *Set, n int32, k int, xs []string, tree bool, best *int32) {
	nd := &ix.nodes[n]
	for _, i := range ix.ends[nd.end0 : nd.end0+nd.nends] {
		if *best >= 0 && i >= *best {
			break
		}
		if s.matches(&s.pl.items[i], xs, ix.fold, true, tree) {
			*best = i
			break
		}
	}
	if k == len(xs) {
		// Places below x: a recursive read of x reaches them all.
		if tree && nd.below >= 0 && (*best < 0 || nd.below < *best) {
			*best = nd.below
		}
		return
	}
	if c := ix.child(nd, xs[k]); c >= 0 {
		ix.walk(s, c, k+1, xs, tree, best)
	}
	if nd.anyUser >= 0 {
		ix.walk(s, nd.anyUser, k+1, xs, tree, best)
	}
}
