package secrets

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// TestIndexAgreesWithScan judges, on each simulated platform, every
// place's own path (another user's for the other homes), each of its
// parents, a file and a directory below it, a sibling, the same paths in
// upper case, and every path of testdata/paths.json, read and read
// recursively, through the index and through the scan: both must name
// the same store (or none).
func TestIndexAgreesWithScan(t *testing.T) {
	data, err := os.ReadFile("testdata/paths.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ OS, Path string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for goos, w := range worlds {
		env := map[string]string{"HOME": w[0]}
		if goos == "windows" {
			env["APPDATA"], env["LOCALAPPDATA"] = w[0]+`\AppData\Roaming`, w[0]+`\AppData\Local`
		}
		p := paths.Simulated(goos, w[0], env)
		s := place(p, w[1])
		fold := goos == "windows" || goos == "darwin"
		ix := buildIndex(s.pl, fold)
		if ix == nil {
			t.Fatalf("%s: no index for the catalogue", goos)
		}
		sep := "/"
		if goos == "windows" {
			sep = `\`
		}
		var xs []string
		for _, c := range cases {
			if c.OS == goos {
				xs = append(xs, c.Path)
			}
		}
		for i := range s.pl.items {
			it := &s.pl.items[i]
			if it.anywhere() {
				named := s.pl.str(it.named)
				xs = append(xs, w[0]+sep+"x"+sep+named, w[0]+sep+named+"2")
				continue
			}
			segs := make([]string, it.nsegs)
			for k := range segs {
				segs[k] = strings.ReplaceAll(s.pl.seg(it, k), anyUser, "bob")
			}
			root := s.pl.str(it.root)
			if root == "/" {
				root = ""
			}
			for k := 0; k <= len(segs); k++ {
				xs = append(xs, root+sep+strings.Join(segs[:k], sep))
			}
			full := root + sep + strings.Join(segs, sep)
			xs = append(xs, full+sep+"f", full+sep+"d"+sep+"g", full+"x", strings.ToUpper(full), full+sep+".git")
		}
		judged, hits := 0, 0
		for _, raw := range xs {
			x := p.Clean(raw)
			if !x.IsAbs() {
				continue
			}
			root, segs := split(x)
			for _, tree := range []bool{false, true} {
				i, ok := ix.judge(s, x, root, segs, tree)
				if !ok {
					continue
				}
				judged++
				want, wantOK := s.scan(x, root, segs, fold, tree)
				got := ""
				if i >= 0 {
					got = s.pl.items[i].store().What
					hits++
				}
				if wantOK != (i >= 0) || wantOK && want.Store != s.pl.items[i].store() {
					t.Errorf("%s %q tree=%v: index %q, scan %q", goos, raw, tree, got, want.Path)
				}
			}
		}
		if judged < 2*s.Len() || hits == 0 {
			t.Errorf("%s: only %d judged (%d hits) over %d places", goos, judged, hits, s.Len())
		}
	}
}

// TestIndexBuiltAfterScans: a placement builds its index only after
// indexAfter scans, and then serves every Set resolved with the same
// inputs.
func TestIndexBuiltAfterScans(t *testing.T) {
	p := paths.Simulated("linux", "/home/u", map[string]string{"HOME": "/home/u"})
	s := Resolve(p, "/home/u/proj/sub")
	x := p.Clean("/home/u/shared/notes.txt")
	for n := 0; n < indexAfter; n++ {
		if _, ok := s.Read(x); ok {
			t.Fatal("notes.txt is no store")
		}
		if s.pl.ixs.idx != nil {
			t.Fatalf("index built after %d scans", n+1)
		}
	}
	key := p.Clean("/home/u/.ssh/id_ed25519")
	if _, ok := Resolve(p, "/home/u/proj/sub").Read(key); !ok {
		t.Fatal("a private key is a store")
	}
	if s.pl.ixs.idx == nil {
		t.Fatal("no index after the scans")
	}
}

// TestIndexChild: in the index of each simulated platform's catalogue,
// every node's edges are sorted without repeats and each is found by its
// own key (and, when folding, by the key in upper case), never by a key
// it is not (the key with a byte more or less, the anyUser segment, which
// has its own child), and each root is found by its kind and key.
func TestIndexChild(t *testing.T) {
	for goos, w := range worlds {
		p := paths.Simulated(goos, w[0], map[string]string{"HOME": w[0]})
		s := place(p, w[1])
		fold := goos == "windows" || goos == "darwin"
		ix := buildIndex(s.pl, fold)
		if ix == nil {
			t.Fatalf("%s: no index for the catalogue", goos)
		}
		key := func(sp span) string { return ix.keys[sp.lo:sp.hi] }
		many, anyUsers := 0, 0
		for n := range ix.nodes {
			nd := &ix.nodes[n]
			edges := ix.edges[nd.edge0 : nd.edge0+nd.nedges]
			if len(edges) > 2 {
				many++
			}
			if nd.anyUser >= 0 {
				anyUsers++
				if c := ix.child(nd, anyUser); c >= 0 {
					t.Errorf("%s node %d: anyUser found as an edge", goos, n)
				}
			}
			keys := map[string]int32{}
			for k, e := range edges {
				keys[key(e.key)] = e.child
				if k > 0 && key(edges[k-1].key) >= key(e.key) {
					t.Errorf("%s node %d: edges %q, %q out of order", goos, n, key(edges[k-1].key), key(e.key))
				}
			}
			for kk, want := range keys {
				if c := ix.child(nd, kk); c != want {
					t.Errorf("%s node %d: child(%q) = %d, want %d", goos, n, kk, c, want)
				}
				up := strings.ToUpper(kk)
				if !fold {
					if c, ok := keys[up]; ok {
						want = c
					} else {
						want = -1
					}
				}
				if c := ix.child(nd, up); c != want {
					t.Errorf("%s node %d: child(%q) = %d, want %d (fold %v)", goos, n, up, c, want, fold)
				}
			}
			for kk := range keys {
				for _, other := range []string{kk + "~", kk + "\x00", kk[:len(kk)-1], ""} {
					if _, ok := keys[other]; !ok && ix.child(nd, other) >= 0 {
						t.Errorf("%s node %d: child(%q) found, no such edge", goos, n, other)
					}
				}
			}
		}
		if many == 0 || anyUsers == 0 {
			t.Errorf("%s: %d nodes with several children, %d with an anyUser child: the test proves little", goos, many, anyUsers)
		}
		for _, r := range ix.roots {
			k := key(r.key)
			if got := ix.root(r.kind, k); got != r.node {
				t.Errorf("%s: root %q = %d, want %d", goos, k, got, r.node)
			}
			if got := ix.root(r.kind, strings.ToUpper(k)); rootFolds(r.kind, fold) != (got == r.node) && strings.ToUpper(k) != k {
				t.Errorf("%s: root %q = %d (folds %v)", goos, strings.ToUpper(k), got, rootFolds(r.kind, fold))
			}
			if got := ix.root(r.kind+1, k); got >= 0 {
				t.Errorf("%s: root %q of another kind found", goos, k)
			}
		}
	}
}
