package paths_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// symlinkTree builds, in a fresh temp dir (returned as a real path):
//
//	proj/src/            a directory inside the project
//	outside/sub/         a directory outside it
//	proj/out     -> <dir>/outside      (absolute link out)
//	proj/sub     -> <dir>/outside/sub  (link out, one level down)
//	proj/rel     -> ../outside         (relative link out)
//	proj/inner   -> src                (link that stays inside)
//	proj/devnull -> /dev/null
//	proj/loop    -> loop               (a loop)
//	rootlink     -> proj               (the project reached through a link)
func symlinkTree(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"proj/src", "outside/sub"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := [][2]string{
		{"proj/out", filepath.Join(dir, "outside")},
		{"proj/sub", filepath.Join(dir, "outside", "sub")},
		{"proj/rel", filepath.Join("..", "outside")},
		{"proj/inner", "src"},
		{"proj/devnull", "/dev/null"},
		{"proj/loop", "loop"},
		{"rootlink", "proj"},
	}
	for _, l := range links {
		if err := os.Symlink(l[1], filepath.Join(dir, l[0])); err != nil {
			t.Fatalf("symlink %s: %v", l[0], err)
		}
	}
	return dir
}

func realFSPlatform(goos string) paths.Platform {
	return paths.Platform{OS: goos, Home: "/nonexistent/home", EvalSymlinks: filepath.EvalSymlinks}
}

func TestRealPathSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the symlink tree uses Unix paths; Windows real paths are covered by TestRealPathWindowsWalk")
	}
	dir := symlinkTree(t)
	cases := []struct {
		target   string // below dir
		real     string // below dir, or an absolute path
		writable bool   // with the project as the only root
	}{
		{"proj/src/a.go", "proj/src/a.go", true},
		{"proj/new/deep/file.txt", "proj/new/deep/file.txt", true},
		{"proj", "proj", true},
		{"proj/out/x", "outside/x", false},
		{"proj/out", "outside", false},
		{"proj/sub/../x", "outside/x", false},         // ".." applies after the link, as the kernel does
		{"proj/missing/../out/x", "outside/x", false}, // folded tail re-resolved
		{"proj/rel/x", "outside/x", false},            // relative link
		{"proj/inner/x", "proj/src/x", true},          // link that stays inside
		{"proj/loop/x", "proj/loop/x", true},          // a loop does not hang; the write fails anyway
		{"proj/out/../proj/x", "proj/x", true},        // outside/../proj is dir/proj
		{"outside/../proj/src", "proj/src", true},     // lexically outside, really inside
		{"rootlink/x", "proj/x", true},                // project reached through a link
		{"proj/src/../../outside/y", "outside/y", false},
	}
	for _, goos := range []string{"linux", "darwin"} {
		p := realFSPlatform(goos)
		roots := []paths.Path{p.RealPath(p.Clean(filepath.Join(dir, "proj")))}
		for _, c := range cases {
			t.Run(goos+"/"+c.target, func(t *testing.T) {
				target := p.Clean(dir + "/" + c.target)
				got := p.RealPath(target)
				want := filepath.Join(dir, c.real)
				if got.Kind != paths.Unix || got.Norm != want {
					t.Errorf("RealPath(%s) = %s %q, want %q", c.target, got.Kind, got.Norm, want)
				}
				if got.Raw != target.Raw {
					t.Errorf("Raw = %q, want %q", got.Raw, target.Raw)
				}
				if w := p.IsWritable(target, roots); w != c.writable {
					t.Errorf("IsWritable(%s) = %v, want %v", c.target, w, c.writable)
				}
			})
		}
		t.Run(goos+"/devnull", func(t *testing.T) {
			got := p.RealPath(p.Clean(dir + "/proj/devnull"))
			if got.Kind != paths.Null {
				t.Errorf("link to /dev/null = %s %q, want null", got.Kind, got.Norm)
			}
			if !p.IsWritable(p.Clean(dir+"/proj/devnull"), roots) {
				t.Error("link to /dev/null is not writable")
			}
		})
	}

	// Darwin compares case-insensitively even where this host's file
	// system does not: the lexical tail keeps its case and still matches.
	p := realFSPlatform("darwin")
	roots := []paths.Path{p.RealPath(p.Clean(dir + "/proj"))}
	if !p.IsWritable(p.Clean(dir+"/PROJ/SRC/x"), roots) {
		t.Error("darwin: proj in other case is not inside the project")
	}
	if p.IsWritable(p.Clean(dir+"/proj/out/x"), roots) {
		t.Error("darwin: link out of the project not caught")
	}
}

func TestWritableRootsRealProject(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the symlink tree uses Unix paths")
	}
	dir := symlinkTree(t)
	p := realFSPlatform(runtime.GOOS)
	roots := p.WritableRoots(dir+"/rootlink", dir+"/proj/out")
	if len(roots) < 2 {
		t.Fatalf("roots = %v", roots)
	}
	if want := dir + "/proj"; roots[0].Norm != want {
		t.Errorf("project root = %q, want its real path %q", roots[0].Norm, want)
	}
	if last, want := roots[len(roots)-1].Norm, dir+"/outside"; last != want {
		t.Errorf("extra root = %q, want its real path %q", last, want)
	}
	for _, r := range roots {
		if r.Norm == dir+"/rootlink" {
			t.Errorf("lexical project root kept beside the real one: %v", roots)
		}
	}
}

// fakeFS resolves exactly the paths it knows (case-insensitively, like
// Windows) and records every call.
type fakeFS struct {
	mu    sync.Mutex
	known map[string]string
	calls []string
}

func (f *fakeFS) eval(path string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, path)
	for k, v := range f.known {
		if strings.EqualFold(k, path) {
			return v, nil
		}
	}
	return "", &fs.PathError{Op: "lstat", Path: path, Err: fs.ErrNotExist}
}

func TestRealPathWindowsWalk(t *testing.T) {
	f := &fakeFS{known: map[string]string{
		`C:\`:                `C:\`,
		`C:\proj`:            `C:\proj`,
		`C:\proj\link`:       `D:\elsewhere`,
		`C:\proj\link\..`:    `D:\`,
		`C:\proj\UNCLINK`:    `\\?\UNC\srv\share\x`,
		`C:\proj\device`:     `\\?\C:\proj\src`,
		`C:\proj\null`:       `\\.\NUL`,
		`C:\proj\broken`:     `relative\answer`,
		`C:\Users\a\AppData`: `C:\Users\a\AppData`,
	}}
	p := paths.Simulated("windows", `C:\Users\a`, nil)
	p.EvalSymlinks = f.eval
	cases := []struct{ in, kind, want string }{
		{`C:\proj\src\a.go`, "drive", `C:\proj\src\a.go`},
		{`c:/PROJ/link/x`, "drive", `D:\elsewhere\x`},
		{`C:\proj\link\..\y`, "drive", `D:\y`},
		{`/c/proj/link/z`, "drive", `D:\elsewhere\z`},
		{`C:\proj\UNCLINK\f`, "unc", `\\srv\share\x\f`},
		{`C:\proj\device\f`, "drive", `C:\proj\src\f`},
		{`C:\proj\null`, "null", `NUL`},
		{`C:\proj\broken\f`, "drive", `C:\proj\broken\f`},
		{`Z:\nothing\here`, "drive", `Z:\nothing\here`},
		{`\\srv\share\f`, "unc", `\\srv\share\f`}, // UNC stays lexical
		{`/etc/passwd`, "unix", `/etc/passwd`},    // not native on Windows
	}
	for _, c := range cases {
		f.calls = nil
		got := p.RealPath(p.Normalize(c.in))
		if got.Kind.String() != c.kind || got.Norm != c.want {
			t.Errorf("RealPath(%q) = %s %q, want %s %q", c.in, got.Kind, got.Norm, c.kind, c.want)
		}
		for _, call := range f.calls {
			if !strings.Contains(call, `:\`) {
				t.Errorf("RealPath(%q) called EvalSymlinks(%q): not a drive path", c.in, call)
			}
		}
	}
	roots := p.WritableRoots(`C:\proj`, "")
	if p.IsWritable(p.Normalize(`C:\proj\link\x`), roots) || !p.IsWritable(p.Normalize(`C:\PROJ\device\x`), roots) {
		t.Errorf("IsWritable through links wrong (roots %v)", roots)
	}
}

func TestRealPathNonNativeKinds(t *testing.T) {
	f := &fakeFS{known: map[string]string{"/": "/"}}
	p := paths.Simulated("linux", "/home/a", nil)
	p.EvalSymlinks = f.eval
	for _, in := range []string{`C:\Users\x`, `\\srv\share\x`, "relative", "$NOPE", "/dev/null", ""} {
		x := p.Normalize(in)
		if got := p.RealPath(x); got != x {
			t.Errorf("RealPath(%q) changed a non-native path: %+v", in, got)
		}
	}
	if len(f.calls) != 0 {
		t.Errorf("EvalSymlinks called for non-native kinds: %q", f.calls)
	}
	// Lexical only when EvalSymlinks is nil.
	q := paths.Simulated("linux", "/home/a", nil)
	if x := q.Normalize("/a/b"); q.RealPath(x) != x {
		t.Error("RealPath without EvalSymlinks is not the identity")
	}
}

func TestRealPathBoundedWalk(t *testing.T) {
	calls := 0
	p := paths.Platform{OS: "linux", EvalSymlinks: func(string) (string, error) {
		calls++
		return "", errors.New("no")
	}}
	x := p.Clean(strings.Repeat("/dd", 200))
	if got := p.RealPath(x); got.Norm != x.Norm {
		t.Errorf("unresolvable path changed: %q", got.Norm)
	}
	// The path, its parent, then a binary search over the 127 ancestors
	// left within maxRealWalk: 2 + 7.
	if calls != 9 {
		t.Errorf("EvalSymlinks called %d times, want 9 (the path, its parent, a binary search over 127)", calls)
	}

	// Past the limits the path is unresolved and never walked.
	calls = 0
	for _, s := range []string{strings.Repeat("/dd", paths.MaxComponents+1), "/" + strings.Repeat("d", paths.MaxUnixPath)} {
		if x := p.Clean(s); x.Kind != paths.Unresolved || p.RealPath(x) != x {
			t.Errorf("Clean(%d bytes, %d separators) = %v, want unresolved and left alone", len(s), strings.Count(s, "/"), x.Kind)
		}
	}
	if calls != 0 {
		t.Errorf("EvalSymlinks called %d times on paths past the limits", calls)
	}
}

// TestRealPathFindsDeepestAncestor checks the binary search against the
// plain walk: with the first k components existing (a fake file system
// where /d/d/.../d resolves up to depth k), RealPath re-attaches the rest.
func TestRealPathFindsDeepestAncestor(t *testing.T) {
	const depth = 150
	for _, k := range []int{0, 1, 2, 21, 22, 100, 148, 149, 150} {
		calls := 0
		p := paths.Platform{OS: "linux", EvalSymlinks: func(s string) (string, error) {
			calls++
			if s == "/" {
				return "/real", nil
			}
			if strings.Count(s, "/dd") <= k {
				return "/real" + s, nil
			}
			return "", errors.New("missing")
		}}
		x := p.Clean(strings.Repeat("/dd", depth))
		got := p.RealPath(x)
		want := "/real" + strings.Repeat("/dd", depth)
		if depth-k > 128 {
			want = x.Norm // no ancestor within maxRealWalk resolves
		}
		if got.Norm != p.Clean(want).Norm {
			t.Errorf("k=%d: RealPath = %q, want %q", k, got.Norm, p.Clean(want).Norm)
		}
		if calls > 12 {
			t.Errorf("k=%d: %d EvalSymlinks calls, want at most 12", k, calls)
		}
	}
}

func TestCachedEvalSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the symlink tree uses Unix paths")
	}
	dir := symlinkTree(t)
	link := dir + "/proj/out"
	want, err := filepath.EvalSymlinks(link)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 50 {
				if got, err := paths.CachedEvalSymlinks(link); err != nil || got != want {
					t.Errorf("CachedEvalSymlinks = %q, %v; want %q", got, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
	missing := dir + "/proj/missing"
	for range 2 {
		if _, err := paths.CachedEvalSymlinks(missing); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing path: err = %v, want not-exist", err)
		}
	}
}

func TestNativeAndForOS(t *testing.T) {
	t.Setenv("ZCODE_FENCE_HOME", "/fence/home")
	t.Setenv("HOME", "/plain/home")
	if got := paths.Native().Home; got != "/fence/home" {
		t.Errorf("Native().Home = %q, want ZCODE_FENCE_HOME", got)
	}
	t.Setenv("ZCODE_FENCE_HOME", "")
	if got := paths.Native().Home; got != "/plain/home" {
		t.Errorf("Native().Home = %q, want HOME", got)
	}
	t.Setenv("HOME", "")
	t.Setenv("USERPROFILE", `C:\Users\p`)
	if got := paths.Native().Home; got != `C:\Users\p` {
		t.Errorf("Native().Home = %q, want USERPROFILE", got)
	}
	n := paths.Native()
	if n.OS != runtime.GOOS || n.EvalSymlinks == nil || n.Lookup == nil || n.TempDir == "" {
		t.Errorf("Native() = %+v", n)
	}
	if p := paths.ForOS(""); p.OS != runtime.GOOS || p.EvalSymlinks == nil {
		t.Errorf("ForOS(\"\") is not native: %+v", p)
	}
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	p := paths.ForOS(other)
	if p.OS != other || p.EvalSymlinks != nil {
		t.Errorf("ForOS(%q): OS %q, real paths %v; want lexical", other, p.OS, p.EvalSymlinks != nil)
	}
	t.Setenv("ZFTEST_Work", `D:\work`)
	if got := paths.ForOS("windows").Normalize(`%zftest_work%\x`); got.Norm != `D:\work\x` {
		t.Errorf("ForOS(windows) lookup is case-sensitive: %s %q", got.Kind, got.Norm)
	}
}
