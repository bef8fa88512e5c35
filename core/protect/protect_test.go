package protect

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

type matchCase struct {
	ID       string            `json:"id"`
	Platform string            `json:"platform"` // linux (default) or windows
	Env      map[string]string `json:"env"`
	Data     string            `json:"data"` // the call's data dir
	Path     string            `json:"path"`
	Below    bool              `json:"below"` // judge with Below instead of Match
	Want     string            `json:"want"`  // the protected path hit, "" for none
}

// worlds are the simulated machines of the cases.
var worlds = map[string]struct{ home, project string }{
	"linux":   {"/home/alice", "/work/proj"},
	"windows": {`C:\Users\alice`, `C:\work\proj`},
}

// TestMatch runs testdata/cases.json: which protected path a target hits.
func TestMatch(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []matchCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	hits := 0
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			goos := c.Platform
			if goos == "" {
				goos = "linux"
			}
			w := worlds[goos]
			env := map[string]string{"HOME": w.home}
			for k, v := range c.Env {
				env[k] = v
			}
			p := paths.Simulated(goos, w.home, env)
			s := Resolve(p, w.project, c.Data)
			x := p.Clean(c.Path)
			h, ok := s.Match(x)
			if c.Below {
				h, ok = s.Below(x, nil)
			}
			got := ""
			if ok {
				got = h.Path
				if h.Entry.What == "" || h.Entry.WhatZh == "" {
					t.Errorf("entry %+v has no message", h.Entry)
				}
			}
			if got != c.Want {
				t.Errorf("%s: hit %q, want %q", c.Path, got, c.Want)
			}
		})
		if c.Want != "" {
			hits++
		}
	}
	if hits < len(cases)/2 || hits == len(cases) {
		t.Fatalf("%d of %d cases hit: the table needs both kinds", hits, len(cases))
	}
}

// TestTableEntries: every entry is well formed and has both messages, and
// no path is listed twice.
func TestTableEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Table {
		key := string(rune('0'+e.Anchor)) + e.Env + "|" + e.Rel + "|" + string(rune('0'+e.Shape))
		if seen[key] {
			t.Errorf("entry listed twice: %+v", e)
		}
		seen[key] = true
		if e.What == "" || e.WhatZh == "" {
			t.Errorf("entry without a message: %+v", e)
		}
		if (e.Anchor == Env) != (e.Env != "") || e.Anchor == Env && e.Rel != "" {
			t.Errorf("Env entries name a variable and nothing else: %+v", e)
		}
		if e.Anchor == Abs && !strings.HasPrefix(e.Rel, "/") || e.Anchor != Abs && strings.HasPrefix(e.Rel, "/") {
			t.Errorf("only Abs entries are absolute: %+v", e)
		}
		if len(e.Except) > 0 && e.Shape != Tree && e.Shape != Named {
			t.Errorf("Except only applies to trees: %+v", e)
		}
	}
}

// TestUnknownAnchors: without home, project or environment, only the
// system-wide entries are left, and nothing panics on odd inputs.
func TestUnknownAnchors(t *testing.T) {
	s := Resolve(paths.Platform{OS: "linux"}, "", "")
	for _, it := range s.items {
		if it.e.Anchor != Abs {
			t.Errorf("entry resolved without its anchor: %+v", it.e)
		}
	}
	if _, ok := s.Match(paths.Path{}); ok {
		t.Error("the zero path matched")
	}
	var none *Set
	if _, ok := none.Below(paths.Platform{}.Clean("/"), nil); ok {
		t.Error("a nil set matched")
	}
}

func BenchmarkMatch(b *testing.B) {
	p := paths.Simulated("linux", "/home/alice", map[string]string{"HOME": "/home/alice"})
	s := Resolve(p, "/work/proj", "/home/alice/.zcode/cli/plugins/data/zcode-fence")
	x := p.Clean("/work/proj/src/main.go")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.Match(x); ok {
			b.Fatal("matched")
		}
	}
}

// BenchmarkResolveNative is the first use of the list in one hook process
// on this machine: placing it and resolving every entry's real path
// (uncached EvalSymlinks: what a fresh hook process pays).
func BenchmarkResolveNative(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		p := paths.Native()
		p.EvalSymlinks = filepath.EvalSymlinks
		s := Resolve(p, "/work/wt-protect", "")
		s.Match(p.Clean("/work/wt-protect/x.go"))
	}
}

// TestLinkedDotDirs: a dotfile manager links ~/.claude elsewhere; the
// settings file named by its real path is still protected, and an entry
// whose anchor is a link is too.
func TestLinkedDotDirs(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	dots := filepath.Join(base, "dotfiles", "claude")
	for _, d := range []string{home, dots, filepath.Join(base, "real-project")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(dots, filepath.Join(home, ".claude")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(filepath.Join(base, "real-project"), filepath.Join(base, "project")); err != nil {
		t.Fatal(err)
	}
	p := paths.Native()
	p.Home = home
	p.Lookup = func(string) (string, bool) { return "", false }
	p.EvalSymlinks = filepath.EvalSymlinks
	s := Resolve(p, filepath.Join(base, "project"), "")
	for _, target := range []string{
		filepath.Join(dots, "settings.json"),
		filepath.Join(home, ".claude", "settings.local.json"),
		filepath.Join(base, "real-project", ".claude", "settings.json"),
	} {
		if _, ok := s.Match(p.Clean(target)); !ok {
			t.Errorf("%s is not protected", target)
		}
	}
	if _, ok := s.Match(p.Clean(filepath.Join(dots, "agents", "x.md"))); ok {
		t.Error("a non-settings file under the linked dir matched")
	}
}

// TestDiscoveredPlaces: on the real file system, a project whose .git is a
// gitdir: file (a worktree) protects the git dir it points to and that
// dir's common dir; the active hooks directory of the repository's
// configuration (husky's .husky/_, so .husky too) and of the user's
// (~/.githooks) are protected whole, and so are the files git
// configuration includes (also conditionally, also nested); a project
// without hooksPath leaves .husky alone.
func TestDiscoveredPlaces(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	main := filepath.Join(base, "main")
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(base, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proj/.git", "gitdir: ../main/.git/worktrees/proj\n")
	write("main/.git/worktrees/proj/commondir", "../..\n")
	write("main/.git/worktrees/proj/config.worktree", "[core]\n\thooksPath = .husky/_\n")
	write("main/.git/config", "[include]\n\tpath = ../../team.gitconfig\n[core]\n\tbare = false\n")
	write("team.gitconfig", "[includeIf \"gitdir:~/work/\"]\n\tpath = nested.gitconfig\n")
	write("nested.gitconfig", "[alias]\n\tst = status\n")
	write("home/.gitconfig", "[core]\n\thooksPath = ~/.githooks\n")
	write("other/.git/config", "[core]\n")
	p := paths.Native()
	p.Home = home
	p.Lookup = func(string) (string, bool) { return "", false }
	p.EvalSymlinks = filepath.EvalSymlinks
	s := Resolve(p, proj, "")
	for target, want := range map[string]string{
		filepath.Join(main, ".git", "worktrees", "proj", "config.worktree"): filepath.Join(main, ".git", "worktrees", "proj"),
		filepath.Join(main, ".git", "hooks", "pre-commit"):                  filepath.Join(main, ".git"),
		filepath.Join(proj, ".husky", "_", "h"):                             filepath.Join(proj, ".husky", "_"),
		filepath.Join(proj, ".husky", "pre-commit"):                         filepath.Join(proj, ".husky"),
		filepath.Join(home, ".githooks", "pre-push"):                        filepath.Join(home, ".githooks"),
		filepath.Join(base, "team.gitconfig"):                               filepath.Join(base, "team.gitconfig"),
		filepath.Join(base, "nested.gitconfig"):                             filepath.Join(base, "nested.gitconfig"),
		filepath.Join(proj, ".git"):                                         filepath.Join(proj, ".git"),
		filepath.Join(main, ".git", "index.lock"):                           "",
		filepath.Join(proj, "src", "a.go"):                                  "",
	} {
		h, ok := s.Match(p.Clean(target))
		got := ""
		if ok {
			got = h.Path
		}
		if got != want {
			t.Errorf("%s: hit %q, want %q", target, got, want)
		}
	}
	// A repository without hooksPath: .husky is an ordinary directory.
	write("plain/.git/config", "[core]\n\tbare = false\n")
	plain := Resolve(p, filepath.Join(base, "plain"), "")
	if h, ok := plain.Match(p.Clean(filepath.Join(base, "plain", ".husky", "pre-commit"))); ok && h.Entry.Anchor == GitHooks {
		t.Errorf("a husky-less repository protects .husky: %+v", h)
	}
	// hooksPath "." (the project root) would fence the project: left out.
	write("dot/.git/config", "[core]\n\thooksPath = .\n")
	dot := Resolve(p, filepath.Join(base, "dot"), "")
	if h, ok := dot.Match(p.Clean(filepath.Join(base, "dot", "src", "a.go"))); ok {
		t.Errorf("hooksPath . fences the project: %+v", h)
	}
}

// TestResolveReusesOnlyEqualInputs: a placement is reused only when every
// input it read is the same; a changed variable, home, project or data
// dir places again, and going back gives the first places again.
func TestResolveReusesOnlyEqualInputs(t *testing.T) {
	env := map[string]string{"HOME": "/home/alice"}
	withXDG := map[string]string{"HOME": "/home/alice", "XDG_CONFIG_HOME": "/srv/cfg", "ZCODE_FENCE_HOME": "/srv/zf"}
	type in struct {
		env           map[string]string
		home, project string
		data          string
	}
	ins := []in{
		{env, "/home/alice", "/home/alice/p", ""},
		{withXDG, "/home/alice", "/home/alice/p", ""},
		{env, "/home/bob", "/home/alice/p", ""},
		{env, "/home/alice", "/home/alice/q", "/var/zf"},
		{env, "/home/alice", "/home/alice", ""},
	}
	placed := func(s *Set) string {
		var b strings.Builder
		for _, it := range s.items {
			b.WriteString(it.at.Norm + "\n")
		}
		return b.String()
	}
	fresh := map[int]string{}
	for round := 0; round < 2; round++ {
		for k, c := range ins {
			p := paths.Simulated("linux", c.home, c.env)
			if round == 0 { // placed afresh; in round 1 after another input's placement
				lastPlaced.Store(nil)
			}
			want := placed(Resolve(p, c.project, c.data))
			if round == 0 {
				fresh[k] = want
			}
			if got := placed(Resolve(p, c.project, c.data)); got != want || got != fresh[k] {
				t.Errorf("inputs %d: reused placement differs:\n%s\nwant\n%s", k, got, want)
			}
		}
	}
	for k := 1; k < len(ins); k++ {
		if fresh[k] == fresh[0] {
			t.Errorf("inputs %d place the same paths as inputs 0: the test does not vary them", k)
		}
	}
}

// TestLinkedNames: one read of a directory tells a link from a file, a
// directory and a name that is not there; a directory larger than
// listAtMost is left to Lstat (no answer for any name).
func TestLinkedNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, ".claude")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".bashrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".ssh"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{".claude", ".bashrc", ".ssh", ".codex"}
	for i := range names {
		names[i] = filepath.Join(dir, names[i])
	}
	linked := map[string]bool{}
	linkedNames(dir, names, linked)
	want := map[string]bool{names[0]: true, names[1]: false, names[2]: false, names[3]: false}
	for fp, l := range want {
		if got, ok := linked[fp]; !ok || got != l {
			t.Errorf("%s: linked %v (known %v), want %v", filepath.Base(fp), got, ok, l)
		}
	}
	for i := 0; i < listAtMost; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	linked = map[string]bool{}
	linkedNames(dir, names, linked)
	if len(linked) != 0 {
		t.Errorf("a directory of %d entries was read: %v", listAtMost+3, linked)
	}
}
