package cmdfacts

import "testing"

// FuzzSedExecs checks that the sed script scanner never panics, and that
// every range it returns lies inside the script, in order.
func FuzzSedExecs(f *testing.F) {
	for _, s := range []string{"1e make", "s/.*/ls/e", "s|^|ls |ge;p", "/x/{e date\n}", "e", "a\\\ntext\\\nmore",
		":a;N;$!ba;s/\\n/ /g", "y/abc/xye/", "\\,x,e ls", "s/a/b/w out", "s", "s/", "s/a", "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range sedExecs(s) {
			if c.from < 0 || c.to < c.from || c.to > len(s) {
				t.Fatalf("range [%d,%d) outside %q", c.from, c.to, s)
			}
		}
	})
}
