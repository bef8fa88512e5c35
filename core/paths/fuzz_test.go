package paths_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// FuzzNormalize checks, on Linux, darwin and Windows rules, that no input
// panics, that Normalize is idempotent and kind-stable on its own output,
// that Clean agrees with it on literal results, that absolute results are
// fully folded, and that the functions built on it accept whatever it
// returns.
func FuzzNormalize(f *testing.F) {
	specs := loadPlatformSpecs(f)
	var file struct{ Cases []json.RawMessage }
	loadJSON(f, "normalize.json", &file)
	for _, raw := range file.Cases {
		var plats, in, kind, norm string
		row(f, raw, &plats, &in, &kind, &norm)
		f.Add(in)
	}
	var plats []paths.Platform
	for _, name := range allPlatforms {
		plats = append(plats, specs[name].platform())
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range plats {
			n := p.Normalize(s)
			again := p.Normalize(n.Norm)
			if again.Kind != n.Kind || again.Norm != n.Norm {
				t.Fatalf("%s: Normalize(%q) = %s %q, then %s %q", p.OS, s, n.Kind, n.Norm, again.Kind, again.Norm)
			}
			if n.Kind != paths.Unresolved && n.Kind != paths.Empty {
				if c := p.Clean(n.Norm); c.Kind != n.Kind || c.Norm != n.Norm {
					t.Fatalf("%s: Clean(%q) = %s %q", p.OS, n.Norm, c.Kind, c.Norm)
				}
			}
			if n.IsAbs() {
				checkFolded(t, p, n)
				if !p.Contains(n, n) {
					t.Fatalf("%s: %q does not contain itself", p.OS, n.Norm)
				}
			}
			p.IsCatastrophic(n)
			p.IsWritable(n, nil)
			base := p.Clean(p.Home)
			j := p.Join(base, n)
			if j.Kind != paths.Unresolved {
				if c := p.Clean(j.Norm); c.Kind != j.Kind || c.Norm != j.Norm {
					t.Fatalf("%s: Join(%q, %q) = %s %q, Clean gives %s %q", p.OS, base.Norm, s, j.Kind, j.Norm, c.Kind, c.Norm)
				}
			}
			p.ChangeDir(base, []string{s, "..", "-"})
			p.WritableRoots(s, s)
			p.Clean(s)
		}
	})
}

// checkFolded: an absolute Norm has no empty, "." or ".." segment below
// its root.
func checkFolded(t *testing.T, p paths.Platform, n paths.Path) {
	t.Helper()
	var rest string
	var sep string
	switch n.Kind {
	case paths.Unix:
		rest, sep = strings.TrimPrefix(n.Norm, "/"), "/"
	case paths.Drive:
		rest, sep = n.Norm[3:], `\`
	case paths.UNC: // the server may be "." or "?" (device namespace)
		_, rest, _ = strings.Cut(strings.TrimPrefix(n.Norm, `\\`), `\`)
		sep = `\`
	}
	if rest == "" {
		return
	}
	for _, seg := range strings.Split(rest, sep) {
		if seg == "" || seg == "." || seg == ".." {
			t.Fatalf("%s: %s path %q is not folded", p.OS, n.Kind, n.Norm)
		}
	}
}
