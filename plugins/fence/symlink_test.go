package fence

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// symlinkSuite is testdata/symlinks.json: a file-system layout made for
// real and the cases judged against it.
type symlinkSuite struct {
	Dirs  []string          `json:"dirs"`
	Files []string          `json:"files"`
	Links map[string]string `json:"links"`
	Cases []tcase           `json:"cases"`
}

// TestSymlinks builds the layout under t.TempDir() and judges every case
// with the real file system (filepath.EvalSymlinks); the project is the
// only writable root, so the temp dir holding it does not count.
func TestSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the symlink layout needs a Unix file system")
	}
	data, err := os.ReadFile(filepath.Join("testdata", "symlinks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var suite symlinkSuite
	if err := json.Unmarshal(data, &suite); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := func(s string) string { return strings.ReplaceAll(s, "{ROOT}", root) }
	for _, d := range suite.Dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range suite.Files {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range suite.Links {
		if err := os.Symlink(sub(to), filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(root, "home")
	env := map[string]string{"HOME": home}
	p := paths.Platform{OS: runtime.GOOS, Home: home, Lookup: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		EvalSymlinks: filepath.EvalSymlinks}
	l := New(WithPlatform(func(string) paths.Platform { return p }))
	for _, tc := range suite.Cases {
		t.Run(tc.ID, func(t *testing.T) {
			project := filepath.Join(root, "proj")
			if tc.Project != "" {
				project = sub(tc.Project)
			}
			cwd := project
			if tc.Cwd != "" {
				cwd = sub(tc.Cwd)
			}
			c := &core.Call{Tool: tc.Tool, ProjectRoot: project, Cwd: cwd, Platform: runtime.GOOS,
				WritableRoots: []string{project}, Options: map[string]string{}}
			if c.Tool == "" {
				c.Tool, c.Kind = "Bash", core.KindShell
				c.Command = sub(tc.Command)
				c.Script = analysis.Analyze(c.Command, analysis.Options{Cwd: cwd, Home: home, Lookup: p.Lookup})
			} else {
				c.Kind = core.KindFile
				for _, s := range tc.Paths {
					c.Paths = append(c.Paths, sub(s))
				}
			}
			v, err := l.Decide(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			tc.Contains = append([]string(nil), tc.Contains...)
			for i := range tc.Contains {
				// each entry is a path: the reason shows it as the guard
				// does, shortened around "…" when it is long (a deep
				// TMPDIR makes the test's paths long)
				tc.Contains[i] = shorten(sub(tc.Contains[i]))
			}
			checkVerdict(t, tc, c, v)
		})
	}
	t.Logf("%d symlink cases on a real file system", len(suite.Cases))
}
