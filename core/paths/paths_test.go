package paths_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// platformSpec is one entry of testdata/platforms.json.
type platformSpec struct {
	OS      string            `json:"os"`
	Home    string            `json:"home"`
	TempDir string            `json:"tempdir"`
	Env     map[string]string `json:"env"`
}

var allPlatforms = []string{"linux", "darwin", "windows"}

func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func loadPlatformSpecs(t testing.TB) map[string]platformSpec {
	var file struct {
		Platforms map[string]platformSpec `json:"platforms"`
	}
	loadJSON(t, "platforms.json", &file)
	return file.Platforms
}

func (s platformSpec) platform() paths.Platform {
	p := paths.Simulated(s.OS, s.Home, s.Env)
	p.TempDir = s.TempDir
	return p
}

// platformsOf expands a case's platform list ("*" = linux darwin windows).
func platformsOf(t testing.TB, list string, specs map[string]platformSpec) []string {
	t.Helper()
	if list == "*" {
		return allPlatforms
	}
	names := strings.Fields(list)
	for _, n := range names {
		if _, ok := specs[n]; !ok {
			t.Fatalf("unknown platform %q", n)
		}
	}
	return names
}

// row decodes a JSON array row into the given pointers.
func row(t testing.TB, raw json.RawMessage, dst ...any) {
	t.Helper()
	var cells []json.RawMessage
	if err := json.Unmarshal(raw, &cells); err != nil {
		t.Fatalf("row %s: %v", raw, err)
	}
	if len(cells) != len(dst) {
		t.Fatalf("row %s: %d cells, want %d", raw, len(cells), len(dst))
	}
	for i, c := range cells {
		if err := json.Unmarshal(c, dst[i]); err != nil {
			t.Fatalf("row %s cell %d: %v", raw, i, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	specs := loadPlatformSpecs(t)
	var file struct{ Cases []json.RawMessage }
	loadJSON(t, "normalize.json", &file)
	n := 0
	for _, raw := range file.Cases {
		var plats, in, kind, norm string
		row(t, raw, &plats, &in, &kind, &norm)
		for _, name := range platformsOf(t, plats, specs) {
			p := specs[name].platform()
			t.Run(fmt.Sprintf("%s/%q", name, in), func(t *testing.T) {
				got := p.Normalize(in)
				if got.Kind.String() != kind || got.Norm != norm {
					t.Fatalf("Normalize(%q) = %s %q, want %s %q", in, got.Kind, got.Norm, kind, norm)
				}
				if got.Raw != in {
					t.Errorf("Raw = %q, want %q", got.Raw, in)
				}
				again := p.Normalize(got.Norm)
				if again.Kind != got.Kind || again.Norm != got.Norm {
					t.Errorf("not idempotent: Normalize(%q) = %s %q", got.Norm, again.Kind, again.Norm)
				}
				if got.Kind != paths.Unresolved && got.Kind != paths.Empty {
					if c := p.Clean(got.Norm); c.Kind != got.Kind || c.Norm != got.Norm {
						t.Errorf("Clean(%q) = %s %q", got.Norm, c.Kind, c.Norm)
					}
				}
			})
			n++
		}
	}
	t.Logf("%d normalisation checks", n)
}

func TestContains(t *testing.T) {
	specs := loadPlatformSpecs(t)
	var file struct{ Cases []json.RawMessage }
	loadJSON(t, "contains.json", &file)
	for _, raw := range file.Cases {
		var plats, root, target string
		var want bool
		row(t, raw, &plats, &root, &target, &want)
		for _, name := range platformsOf(t, plats, specs) {
			p := specs[name].platform()
			t.Run(fmt.Sprintf("%s/%q in %q", name, target, root), func(t *testing.T) {
				if got := p.Contains(p.Normalize(root), p.Normalize(target)); got != want {
					t.Fatalf("Contains(%q, %q) = %v, want %v", root, target, got, want)
				}
			})
		}
	}
}

func TestIsCatastrophic(t *testing.T) {
	specs := loadPlatformSpecs(t)
	var file struct{ Cases []json.RawMessage }
	loadJSON(t, "catastrophic.json", &file)
	for _, raw := range file.Cases {
		var plats, in, label string
		var want bool
		row(t, raw, &plats, &in, &want, &label)
		for _, name := range platformsOf(t, plats, specs) {
			p := specs[name].platform()
			t.Run(fmt.Sprintf("%s/%q", name, in), func(t *testing.T) {
				x := p.Normalize(in)
				got, gotLabel := p.IsCatastrophic(x)
				if got != want || gotLabel != label {
					t.Fatalf("IsCatastrophic(%q = %s %q) = %v %q, want %v %q", in, x.Kind, x.Norm, got, gotLabel, want, label)
				}
			})
		}
	}
}

func TestJoin(t *testing.T) {
	specs := loadPlatformSpecs(t)
	var file struct{ Join, Chdir []json.RawMessage }
	loadJSON(t, "join.json", &file)
	for _, raw := range file.Join {
		var plats, base, rel, kind, norm string
		row(t, raw, &plats, &base, &rel, &kind, &norm)
		for _, name := range platformsOf(t, plats, specs) {
			p := specs[name].platform()
			t.Run(fmt.Sprintf("%s/%q+%q", name, base, rel), func(t *testing.T) {
				got := p.Join(p.Clean(base), p.Normalize(rel))
				if got.Kind.String() != kind || got.Norm != norm {
					t.Fatalf("Join(%q, %q) = %s %q, want %s %q", base, rel, got.Kind, got.Norm, kind, norm)
				}
			})
		}
	}
	for _, raw := range file.Chdir {
		var plats, cwd, kind, norm string
		var steps []string
		row(t, raw, &plats, &cwd, &steps, &kind, &norm)
		for _, name := range platformsOf(t, plats, specs) {
			p := specs[name].platform()
			t.Run(fmt.Sprintf("%s/cd %q from %q", name, steps, cwd), func(t *testing.T) {
				got := p.ChangeDir(p.Clean(cwd), steps)
				if got.Kind.String() != kind || got.Norm != norm {
					t.Fatalf("ChangeDir(%q, %q) = %s %q, want %s %q", cwd, steps, got.Kind, got.Norm, kind, norm)
				}
			})
		}
	}
}

type rootsCase struct {
	Name      string            `json:"name"`
	Platforms string            `json:"platforms"`
	Env       map[string]string `json:"env"`
	Home      *string           `json:"home"`
	Project   string            `json:"project"`
	Extra     string            `json:"extra"`
	Want      []string          `json:"want"`
}

func TestWritableRoots(t *testing.T) {
	specs := loadPlatformSpecs(t)
	var file struct {
		Roots    []rootsCase
		Writable []json.RawMessage
	}
	loadJSON(t, "roots.json", &file)
	for _, c := range file.Roots {
		for _, name := range platformsOf(t, c.Platforms, specs) {
			spec := specs[name]
			spec.Env = maps.Clone(spec.Env)
			maps.Copy(spec.Env, c.Env)
			if c.Home != nil {
				spec.Home = *c.Home
			}
			p := spec.platform()
			t.Run(name+"/"+c.Name, func(t *testing.T) {
				var got []string
				for _, r := range p.WritableRoots(c.Project, c.Extra) {
					got = append(got, r.Norm)
				}
				if !slices.Equal(got, c.Want) {
					t.Fatalf("WritableRoots(%q, %q)\n got %q\nwant %q", c.Project, c.Extra, got, c.Want)
				}
			})
		}
	}
	for _, raw := range file.Writable {
		var name, target string
		var want bool
		row(t, raw, &name, &target, &want)
		spec, ok := specs[name]
		if !ok {
			t.Fatalf("unknown platform %q", name)
		}
		p := spec.platform()
		project := p.Join(p.Clean(spec.Home), p.Clean("proj")).Norm
		roots := p.WritableRoots(project, "")
		t.Run(fmt.Sprintf("%s/%q", name, target), func(t *testing.T) {
			if got := p.IsWritable(p.Normalize(target), roots); got != want {
				t.Fatalf("IsWritable(%q) = %v, want %v (roots %v)", target, got, want, roots)
			}
		})
	}
}

func TestKindString(t *testing.T) {
	want := []string{"empty", "relative", "unix", "drive", "unc", "null", "unresolved", "invalid"}
	for k, w := range want {
		if got := paths.Kind(k).String(); got != w {
			t.Errorf("Kind(%d) = %q, want %q", k, got, w)
		}
	}
}

func TestWithVars(t *testing.T) {
	p := paths.Simulated("linux", "/home/alice", map[string]string{"A": "/a"})
	q := p.WithVars(map[string]string{"PWD": "/work", "A": "/override"})
	for in, want := range map[string]string{"$PWD/x": "/work/x", "$A": "/override", "$HOME": "/home/alice"} {
		if got := q.Normalize(in).Norm; got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := p.Normalize("$PWD").Kind; got != paths.Unresolved {
		t.Errorf("WithVars changed the original platform: $PWD is %s", got)
	}
	w := paths.Simulated("windows", `C:\Users\a`, nil).WithVars(map[string]string{"Work": `D:\w`})
	if got := w.Normalize(`%WORK%\x`).Norm; got != `D:\w\x` {
		t.Errorf("windows WithVars is case-sensitive: %q", got)
	}
}

func TestZeroPlatform(t *testing.T) {
	var p paths.Platform
	if got := p.Normalize("~/x"); got.Kind != paths.Unresolved {
		t.Errorf("~ without a home = %s %q, want unresolved", got.Kind, got.Norm)
	}
	if got := p.Normalize("$HOME"); got.Kind != paths.Unresolved {
		t.Errorf("$HOME without a lookup = %s", got.Kind)
	}
	if got := p.Normalize("/usr/../bin"); got.Norm != "/bin" {
		t.Errorf("zero platform fold = %q", got.Norm)
	}
	if roots := p.WritableRoots("/proj", ""); len(roots) != 3 || roots[0].Norm != "/proj" || roots[1].Norm != "/tmp" || roots[2].Norm != "/var/tmp" {
		t.Errorf("zero platform roots = %v", roots)
	}
}

// TestHomeMemoFollowsHome: IsCatastrophic remembers the last home it
// cleaned; platforms with other homes, judged in turn, each get their own.
func TestHomeMemoFollowsHome(t *testing.T) {
	steps := []struct {
		os, home, probe string
		want            bool
	}{
		{"linux", "/home/a", "/home/a", true},
		{"linux", "/srv/b", "/srv/b", true},
		{"linux", "/srv/b", "/home/a/x", false},
		{"linux", "/home/a", "/srv", true}, // /srv is a system directory anyway
		{"linux", "/home/a", "/srv/b", false},
		{"darwin", "/Users/A", "/users/a", true},
		{"linux", "/Users/A", "/users/a", false},
		{"windows", `C:\Users\w`, `C:\Users\w`, true},
		{"linux", "/home/a", "/home", true},
	}
	for i, st := range steps {
		p := paths.Platform{OS: st.os, Home: st.home}
		if got, _ := p.IsCatastrophic(p.Clean(st.probe)); got != st.want {
			t.Errorf("step %d (%s, home %s): IsCatastrophic(%s) = %v, want %v", i, st.os, st.home, st.probe, got, st.want)
		}
	}
}

// TestCleanRootFollowsCalls: CleanRoot remembers the last root it
// cleaned; roots and platforms judged in turn each get Clean's answer.
func TestCleanRootFollowsCalls(t *testing.T) {
	for i, st := range []struct{ os, root string }{
		{"linux", "/home/a/proj/"},
		{"linux", "/home/a/proj/"},
		{"darwin", "/home/a/proj/"},
		{"linux", "/srv/x/../y"},
		{"windows", "/tmp/w"},
		{"windows", `C:\Users\w\proj`},
		{"linux", "relative/dir"},
		{"linux", "/home/a/proj/"},
		{"darwin", "/Users/A/Proj"},
		{"linux", "/Users/A/Proj"},
	} {
		p := paths.Platform{OS: st.os, Home: "/home/a", Lookup: func(k string) (string, bool) {
			if k == "TEMP" {
				return `C:\Temp`, true
			}
			return "", false
		}}
		if got, want := p.CleanRoot(st.root), p.Clean(st.root); got != want {
			t.Errorf("step %d (%s): CleanRoot(%q) = %+v, want %+v", i, st.os, st.root, got, want)
		}
	}
}
