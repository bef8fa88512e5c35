package secrets

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
)

// homes and projects of the simulated platforms.
var worlds = map[string][2]string{
	"linux":   {"/home/u", "/home/u/proj"},
	"darwin":  {"/Users/u", "/Users/u/proj"},
	"windows": {`C:\Users\alice`, `C:\Users\alice\proj`},
}

// TestPaths runs testdata/paths.json: which store (if any) reading a path
// (tree: recursively; names: the files below it of those names, as find
// -name picks them) reaches, on each platform, with the project below
// home unless a case says otherwise.
func TestPaths(t *testing.T) {
	data, err := os.ReadFile("testdata/paths.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		OS, Path, Project, Want, Why string
		Tree                         bool
		Names                        []string
		Env                          map[string]string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	asks := 0
	for _, c := range cases {
		w := worlds[c.OS]
		env := map[string]string{"HOME": w[0]}
		if c.OS == "windows" {
			env["APPDATA"], env["LOCALAPPDATA"] = w[0]+`\AppData\Roaming`, w[0]+`\AppData\Local`
		}
		for k, v := range c.Env {
			env[k] = v
		}
		p := paths.Simulated(c.OS, w[0], env)
		project := w[1]
		if c.Project != "" {
			project = c.Project
		}
		s := Resolve(p, project)
		x := p.Clean(c.Path)
		judge := s.Read
		if c.Tree {
			judge = s.Holds
		}
		if len(c.Names) > 0 {
			judge = func(x paths.Path) (Hit, bool) { return s.HoldsNamed(x, c.Names) }
		}
		h, ok := judge(x)
		got := ""
		if ok {
			got = h.Store.ID
			asks++
		}
		if got != c.Want {
			t.Errorf("[%s] %s (tree %v): store %q, want %q (%s)", c.OS, c.Path, c.Tree, got, c.Want, c.Why)
		}
	}
	if asks == 0 || asks == len(cases) {
		t.Fatalf("%d of %d cases reach a store: the table proves nothing", asks, len(cases))
	}
}

// TestCatalogue: every store has an id, names in both languages and a
// place; ids are unique.
func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Stores {
		if s.ID == "" || s.What == "" || s.WhatZh == "" || len(s.Forms) == 0 || seen[s.ID] {
			t.Errorf("store %+v: id, names or forms missing, or id repeated", s.ID)
		}
		seen[s.ID] = true
	}
	for _, id := range []string{"host-claude", "host-codex", "host-gemini", "host-qwen", "host-copilot"} {
		if !seen[id] {
			t.Errorf("no store %s: the agent hosts' auth files come from core/agenthost", id)
		}
	}
}

// TestResolveReuse: a Resolve that reuses the last placement gives the
// places a fresh placement gives, and a change of any input it read (a
// variable, home, the project) places anew.
func TestResolveReuse(t *testing.T) {
	base := map[string]string{"HOME": "/home/u"}
	moved := map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "/srv/cfg", "KUBECONFIG": "/srv/kube/a:/srv/kube/b"}
	steps := []struct {
		home, project string
		env           map[string]string
		probe         string
	}{
		{"/home/u", "/home/u/proj", base, "/home/u/.config/gh/hosts.yml"},
		{"/home/u", "/home/u/proj", base, "/home/u/.config/gh/hosts.yml"},
		{"/home/u", "/home/u/proj", moved, "/srv/cfg/gh/hosts.yml"},
		{"/home/u", "/home/u/proj", moved, "/srv/kube/b"},
		{"/home/u", "/home/u/proj", base, "/home/u/.config/gh/hosts.yml"},
		{"/home/v", "/home/v/proj", map[string]string{"HOME": "/home/v"}, "/home/v/.ssh/id_rsa"},
		{"/home/v", "/home/v/.ssh", map[string]string{"HOME": "/home/v"}, "/home/v/.aws/credentials"},
	}
	for i, st := range steps {
		p := paths.Simulated("linux", st.home, st.env)
		got := Resolve(p, st.project)
		fresh := place(p, st.project)
		if got.Len() != fresh.Len() || got.project != fresh.project {
			t.Fatalf("step %d: %d places (project %q), a fresh placement %d (%q)", i, got.Len(), got.project.Norm, fresh.Len(), fresh.project.Norm)
		}
		for j := range fresh.pl.items {
			a, b := &got.pl.items[j], &fresh.pl.items[j]
			if a.form() != b.form() || a.kind != b.kind || placeText(got.pl, a) != placeText(fresh.pl, b) {
				t.Fatalf("step %d: place %d differs from a fresh placement", i, j)
			}
		}
		if _, ok := got.Read(p.Clean(st.probe)); !ok {
			t.Errorf("step %d: reading %s reaches no store", i, st.probe)
		}
	}
}

// TestNarrowProjectMemo: NarrowProject remembers its last answer; other
// projects, homes and platforms judged in turn get their own.
func TestNarrowProjectMemo(t *testing.T) {
	steps := []struct {
		os, home, project, want string
	}{
		{"linux", "/home/u", "/home/u/proj", "/home/u/proj"},
		{"linux", "/home/u", "/home/u/proj", "/home/u/proj"},
		{"linux", "/home/u/proj", "/home/u/proj", ""}, // the project is home
		{"linux", "/home/u", "/home/u", ""},
		{"linux", "/home/u", " /home/u/proj ", "/home/u/proj"},
		{"linux", "/home/u", "/", ""},
		{"linux", "/home/u", "proj", ""},
		{"darwin", "/Users/U", "/users/u", ""},
		{"linux", "/Users/U", "/users/u", "/users/u"},
		{"windows", `C:\Users\u`, `C:\Users\u\proj`, `C:\Users\u\proj`},
	}
	for i, st := range steps {
		p := paths.Simulated(st.os, st.home, nil)
		if got := NarrowProject(p, st.project); got.Norm != st.want {
			t.Errorf("step %d (%s, home %s): NarrowProject(%q) = %q, want %q", i, st.os, st.home, st.project, got.Norm, st.want)
		}
	}
}

// placeText is a place's root, segments and name, for comparing places.
func placeText(pl *places, it *item) string {
	segs := []string{pl.str(it.root), pl.str(it.named)}
	for k := range int(it.nsegs) {
		segs = append(segs, pl.seg(it, k))
	}
	return strings.Join(segs, "\x00")
}
