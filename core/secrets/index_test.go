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
		ix := buildIndex(s.items, fold)
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
		for _, it := range s.items {
			if it.named != "" {
				xs = append(xs, w[0]+sep+"x"+sep+it.named, w[0]+sep+it.named+"2")
				continue
			}
			segs := make([]string, len(it.segs))
			for k, seg := range it.segs {
				segs[k] = strings.ReplaceAll(seg, anyUser, "bob")
			}
			root := it.root
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
					got = s.items[i].s.What
					hits++
				}
				if wantOK != (i >= 0) || wantOK && want.Store != s.items[i].s {
					t.Errorf("%s %q tree=%v: index %q, scan %q", goos, raw, tree, got, want.Path)
				}
			}
		}
		if judged < 2*len(s.items) || hits == 0 {
			t.Errorf("%s: only %d judged (%d hits) over %d places", goos, judged, hits, len(s.items))
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
		if s.ixs.idx != nil {
			t.Fatalf("index built after %d scans", n+1)
		}
	}
	key := p.Clean("/home/u/.ssh/id_ed25519")
	if _, ok := Resolve(p, "/home/u/proj/sub").Read(key); !ok {
		t.Fatal("a private key is a store")
	}
	if s.ixs.idx == nil {
		t.Fatal("no index after the scans")
	}
}
