package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/integrity"
)

func TestSetJSON(t *testing.T) {
	var cases []struct {
		Name  string `json:"name"`
		Doc   string `json:"doc"`
		Path  []any  `json:"path"`
		Value any    `json:"value"`
		Want  string `json:"want"`
		Error string `json:"error"`
	}
	data, err := os.ReadFile(filepath.Join("testdata", "setjson.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			path := make([]any, len(c.Path))
			for i, p := range c.Path {
				if f, ok := p.(float64); ok {
					path[i] = int(f)
				} else {
					path[i] = p
				}
			}
			got, err := setJSON([]byte(c.Doc), path, c.Value)
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("setJSON = %q, %v; want an error containing %q", got, err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.Want {
				t.Errorf("setJSON =\n%s\nwant\n%s", got, c.Want)
			}
		})
	}
}

// repoRoot is the checkout holding this tool.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := FindModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestReadPluginSource(t *testing.T) {
	src, err := ReadPluginSource(repoRoot(t))
	if err != nil {
		t.Fatal(err)
	}
	want := PluginSource{Source: "git-subdir", URL: "https://" + modulePath + ".git", Path: "bundle/zcode-fence", Ref: "release"}
	if src != want {
		t.Errorf("the marketplaces name %+v, want %+v (the module's repository, its bundle, the release ref)", src, want)
	}

	// Broken marketplaces, each in a copy of the two files.
	good := `{"name":"m","plugins":[{"name":"zcode-fence","source":{"source":"git-subdir","url":"https://example.org/r.git","path":"p","ref":"release"}}]}`
	cases := []struct{ name, zcode, claude, err string }{
		{"different sources", good, strings.Replace(good, `"ref":"release"`, `"ref":"main"`, 1), "name different plugin sources"},
		{"relative string source", `{"plugins":[{"source":"./p"}]}`, good, "is not a {source, url, path, ref} object"},
		{"unknown field", strings.Replace(good, `"ref"`, `"sha":"x","ref"`, 1), good, "is not a {source, url, path, ref} object"},
		{"github source", strings.Replace(good, "git-subdir", "github", 1), good, "want a git-subdir source"},
		{"no ref", strings.Replace(good, `,"ref":"release"`, "", 1), good, "want a git-subdir source"},
		{"path escapes", strings.Replace(good, `"path":"p"`, `"path":"../p"`, 1), good, "not a clean relative path"},
		{"path not clean", strings.Replace(good, `"path":"p"`, `"path":"p/"`, 1), good, "not a clean relative path"},
		{"two plugins", `{"plugins":[{"source":"./a"},{"source":"./b"}]}`, good, "lists 2 plugins"},
		{"no plugin dir", good, good, "has no .zcode-plugin/plugin.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			for name, doc := range map[string]string{marketplaceFiles[0]: c.zcode, marketplaceFiles[1]: c.claude} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, name), []byte(doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := ReadPluginSource(root)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("ReadPluginSource = %v, want an error containing %q", err, c.err)
			}
		})
	}
}

func TestCheckTag(t *testing.T) {
	root := repoRoot(t)
	if err := CheckTag(root, "v"+core.Version, core.Version); err != nil {
		t.Fatalf("the tag of this commit's version: %v", err)
	}
	err := CheckTag(root, "v9.9.9", core.Version)
	if err == nil {
		t.Fatal("v9.9.9 accepted")
	}
	for _, must := range []string{"core/version.go says " + core.Version, "marketplace.json says", ".claude-plugin/marketplace.json says",
		"bundle/zcode-fence/.zcode-plugin/plugin.json says", "bundle/zcode-fence/.claude-plugin/plugin.json says"} {
		if !strings.Contains(err.Error(), must) {
			t.Errorf("error %q does not name %q", err, must)
		}
	}
	for _, bad := range []string{core.Version, "v1.2", "release-1.0.0", ""} {
		if err := CheckTag(root, bad, core.Version); err == nil || !strings.Contains(err.Error(), "is not v<semver>") {
			t.Errorf("CheckTag(%q) = %v", bad, err)
		}
	}
}

// fakeDist lays out what GoReleaser leaves in dist/ for targets: metadata,
// artifacts (paths relative to the project, as GoReleaser writes them) and
// small stand-in binaries, each in its own target folder under the name
// the build gives it. A release (`goreleaser release`) also lists each as an
// uploadable asset named as the launchers expect, and writes SHA256SUMS.
func fakeDist(t *testing.T, targets []Target, version string, release bool) string {
	t.Helper()
	project := t.TempDir()
	dist := filepath.Join(project, "dist")
	type artifact struct {
		Name   string `json:"name"`
		Path   string `json:"path"`
		GOOS   string `json:"goos,omitempty"`
		GOARCH string `json:"goarch,omitempty"`
		Type   string `json:"type"`
	}
	arts := []artifact{{Name: "metadata.json", Path: "dist/metadata.json", Type: "Metadata"}}
	var uploads []artifact
	var list []integrity.Sum
	for _, tg := range targets {
		data := []byte("binary for " + tg.String())
		name := "zcode-fence"
		if tg.OS == "windows" {
			name += ".exe"
		}
		rel := "dist/zcode-fence_" + tg.OS + "_" + tg.Arch + "/" + name
		if err := os.MkdirAll(filepath.Dir(filepath.Join(project, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, rel), data, 0o755); err != nil {
			t.Fatal(err)
		}
		arts = append(arts, artifact{Name: name, Path: rel, GOOS: tg.OS, GOARCH: tg.Arch, Type: "Binary"})
		uploads = append(uploads, artifact{Name: tg.FileName(), Path: rel, GOOS: tg.OS, GOARCH: tg.Arch, Type: "Binary"})
		list = append(list, integrity.Sum{File: tg.FileName(), SHA256: sha(data)})
	}
	if release {
		arts = append(arts, uploads...)
	}
	write := func(name string, v any) {
		data, _ := json.Marshal(v)
		if err := os.WriteFile(filepath.Join(dist, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("metadata.json", map[string]any{"project_name": "zcode-fence", "tag": "v" + version, "version": version, "commit": "0123456789abcdef0123456789abcdef01234567"})
	write("artifacts.json", arts)
	if release {
		if err := os.WriteFile(filepath.Join(dist, ManifestName), integrity.FormatSums(list), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dist
}

// TestTreeFromDist assembles the tree from a GoReleaser dist/ and checks it
// file by file against the checkout: every plugin file copied unchanged,
// the four manifests changed only where they must, the binaries and
// SHA256SUMS equal to GoReleaser's.
func TestTreeFromDist(t *testing.T) {
	root := repoRoot(t)
	const version = "7.7.7-rc.1"
	dist := fakeDist(t, AllTargets, version, true)
	out := filepath.Join(t.TempDir(), "release tree")
	t.Chdir(root)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-tree", out, "-dist", dist}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	t.Log(stdout.String())

	src, err := ReadPluginSource(root)
	if err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(root, filepath.FromSlash(src.Path))
	// What the tree must hold: the plugin's source files, plus these.
	want := map[string]bool{"LICENSE": true, "README.md": true, marketplaceFiles[0]: true, marketplaceFiles[1]: true,
		src.Path + "/LICENSE": true, src.Path + "/libexec/" + ManifestName: true}
	for _, tg := range AllTargets {
		want[src.Path+"/libexec/"+tg.FileName()] = true
	}
	// The Gemini extension around the plugin.
	for _, f := range extensionFiles {
		want[path.Join(path.Dir(src.Path), f)] = true
	}
	filepath.WalkDir(plugin, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if filepath.Base(filepath.Dir(p)) == "libexec" && isBuilt(d.Name()) {
			return nil // a local build's leftovers
		}
		rel, _ := filepath.Rel(root, p)
		want[filepath.ToSlash(rel)] = true
		return nil
	})
	got := map[string]bool{}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			got[filepath.ToSlash(rel)] = true
		}
		return err
	})
	for f := range want {
		if !got[f] {
			t.Errorf("the tree lacks %s", f)
		}
	}
	for f := range got {
		if !want[f] {
			t.Errorf("the tree holds %s, which it should not", f)
		}
	}

	stamped := map[string][][]any{
		marketplaceFiles[0]: {{"plugins", 0, "source"}, {"plugins", 0, "version"}},
		marketplaceFiles[1]: {{"plugins", 0, "source"}, {"plugins", 0, "version"}},
	}
	for _, m := range pluginManifests {
		stamped[src.Path+"/"+m] = [][]any{{"version"}}
	}
	stamped[agenthost.GeminiManifest] = [][]any{{"version"}}
	for f := range want {
		treeData, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		paths, isStamped := stamped[f]
		srcData, srcErr := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		switch {
		case isStamped:
			// Only the stamped values differ: undo them and compare.
			expect := srcData
			for _, p := range paths {
				var v any = version
				if p[len(p)-1] == "source" {
					v = "./" + src.Path
				}
				if expect, err = setJSON(expect, p, v); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(treeData, expect) {
				t.Errorf("%s differs from the checkout's in more than %v", f, paths)
			}
		case f == "README.md":
			// Generated: says what the tree is (checked below).
		case srcErr == nil:
			if !bytes.Equal(treeData, srcData) {
				t.Errorf("%s differs from the checkout's copy", f)
			}
			st1, _ := os.Stat(filepath.Join(root, filepath.FromSlash(f)))
			st2, _ := os.Stat(filepath.Join(out, filepath.FromSlash(f)))
			if st1.Mode().Perm()&0o111 != st2.Mode().Perm()&0o111 {
				t.Errorf("%s: mode %v in the tree, %v in the checkout", f, st2.Mode(), st1.Mode())
			}
		}
	}
	// The stamped marketplaces parse, with the relative source and version.
	for _, m := range marketplaceFiles {
		var doc struct {
			Plugins []struct {
				Source  string `json:"source"`
				Version string `json:"version"`
			} `json:"plugins"`
		}
		readJSON(t, filepath.Join(out, m), &doc)
		if len(doc.Plugins) != 1 || doc.Plugins[0].Source != "./bundle/zcode-fence" || doc.Plugins[0].Version != version {
			t.Errorf("%s in the tree: %+v", m, doc.Plugins)
		}
	}
	distSums, _ := os.ReadFile(filepath.Join(dist, ManifestName))
	treeSums, _ := os.ReadFile(filepath.Join(out, filepath.FromSlash(src.Path), "libexec", ManifestName))
	if !bytes.Equal(distSums, treeSums) {
		t.Errorf("tree SHA256SUMS\n%s\ndist SHA256SUMS\n%s", treeSums, distSums)
	}
	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	for _, must := range []string{version, "0123456789abcdef0123456789abcdef01234567", "bundle/zcode-fence/"} {
		if !bytes.Contains(readme, []byte(must)) {
			t.Errorf("the tree's README.md does not name %q", must)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestTreeRefusals(t *testing.T) {
	root := repoRoot(t)
	t.Chdir(root)
	nonEmpty := t.TempDir()
	if err := os.WriteFile(filepath.Join(nonEmpty, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	twoTargets := []Target{{"linux", "amd64"}, {"windows", "arm64"}}
	badSums := fakeDist(t, twoTargets, "1.0.0", true)
	if err := os.WriteFile(filepath.Join(badSums, ManifestName),
		integrity.FormatSums([]integrity.Sum{{File: "zcode-fence-linux-amd64", SHA256: strings.Repeat("0", 64)}}), 0o644); err != nil {
		t.Fatal(err)
	}
	renamed := fakeDist(t, twoTargets, "1.0.0", true)
	arts, _ := os.ReadFile(filepath.Join(renamed, "artifacts.json"))
	arts = bytes.ReplaceAll(arts, []byte(`"name":"zcode-fence-linux-amd64"`), []byte(`"name":"zcode-fence_1.0.0_linux_amd64"`))
	os.WriteFile(filepath.Join(renamed, "artifacts.json"), arts, 0o644)

	cases := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"non-empty directory", []string{"-tree", nonEmpty, "-dist", fakeDist(t, twoTargets, "1.0.0", false), "-targets", "linux/amd64,windows/arm64"}, 1, "is not empty"},
		{"a target dist lacks", []string{"-tree", filepath.Join(t.TempDir(), "t"), "-dist", fakeDist(t, twoTargets, "1.0.0", false)}, 1, "has no binary for linux/arm64"},
		{"SHA256SUMS disagrees", []string{"-tree", filepath.Join(t.TempDir(), "t"), "-dist", badSums, "-targets", "linux/amd64,windows/arm64"}, 1, "does not list it so"},
		{"asset named otherwise", []string{"-tree", filepath.Join(t.TempDir(), "t"), "-dist", renamed, "-targets", "linux/amd64"}, 1, "a linux/amd64 binary is named zcode-fence_1.0.0_linux_amd64, not zcode-fence or zcode-fence-linux-amd64"},
		{"snapshot version not semver", []string{"-tree", filepath.Join(t.TempDir(), "t"), "-dist", fakeDist(t, twoTargets, "1.0", false), "-targets", "linux/amd64"}, 1, "is not semver"},
		{"-dist without -tree", []string{"-dist", "dist"}, 2, "-dist needs -tree"},
		{"-tree with -out", []string{"-tree", "x", "-out", "y"}, 2, "do not go together"},
		{"-dist with -version", []string{"-tree", "x", "-dist", "dist", "-version", "1.0.0"}, 2, "leave out -version"},
		{"bad -version", []string{"-version", "v1.0.0"}, 2, "is not semver"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(c.args, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.err) {
				t.Fatalf("run %q = %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.err)
			}
		})
	}
	if data, err := os.ReadFile(filepath.Join(nonEmpty, "keep.txt")); err != nil || string(data) != "mine" {
		t.Errorf("the non-empty directory was touched: %q %v", data, err)
	}
	if entries, _ := os.ReadDir(nonEmpty); len(entries) != 1 {
		t.Errorf("the non-empty directory now holds %d entries", len(entries))
	}
}

func TestPublishRef(t *testing.T) {
	t.Chdir(repoRoot(t))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-publish-ref"}, &stdout, &stderr); code != 0 || stdout.String() != "release\n" {
		t.Fatalf("-publish-ref: %d %q %q", code, stdout.String(), stderr.String())
	}
}

// TestGoreleaserConfigMatches keeps .goreleaser.yaml's build equal to
// BuildArgs, BuildEnv and AllTargets (e2e/reproduce compares the
// bytes the two produce).
func TestGoreleaserConfigMatches(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	var oses, arches []string
	for _, tg := range AllTargets {
		if !slices.Contains(oses, tg.OS) {
			oses = append(oses, tg.OS)
		}
		if !slices.Contains(arches, tg.Arch) {
			arches = append(arches, tg.Arch)
		}
	}
	args := BuildArgs("{{ .Version }}", "OUT")
	want := []string{
		"main: " + mainPackage,
		`name_template: "zcode-fence-{{ .Os }}-{{ .Arch }}"`,
		"formats: [binary]",
		fmt.Sprintf("goos: [%s]", strings.Join(oses, ", ")),
		fmt.Sprintf("goarch: [%s]", strings.Join(arches, ", ")),
		"name_template: " + ManifestName,
		`mod_timestamp: "{{ .CommitTimestamp }}"`,
	}
	for _, a := range args[1:] {
		switch {
		case a == "-o" || a == "OUT" || a == mainPackage:
		case strings.HasPrefix(a, "-ldflags="):
			want = append(want, "- "+strings.TrimPrefix(a, "-ldflags="))
		default:
			want = append(want, "- "+a)
		}
	}
	for _, kv := range BuildEnv(Target{"linux", "amd64"}) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS", "GOARCH":
		case "GOAMD64":
			want = append(want, "goamd64: ["+v+"]")
		default:
			want = append(want, "- "+kv)
		}
	}
	for _, kv := range BuildEnv(Target{"linux", "arm64"}) {
		if k, v, _ := strings.Cut(kv, "="); k == "GOARM64" {
			want = append(want, "goarm64: ["+v+"]")
		}
	}
	for _, w := range want {
		if !lines[w] {
			t.Errorf(".goreleaser.yaml has no line %q (keep it equal to tools/bundle's BuildArgs, BuildEnv and AllTargets)", w)
		}
	}
}

// TestTreeFromBuildDist: `goreleaser build` (no release assets, no
// SHA256SUMS) leaves each binary as zcode-fence[.exe] in its target's
// folder; the tree gets it under the launcher's name, with SHA256SUMS.
func TestTreeFromBuildDist(t *testing.T) {
	t.Chdir(repoRoot(t))
	targets := []Target{{"linux", "amd64"}, {"windows", "arm64"}}
	dist := fakeDist(t, targets, "2.0.0-snapshot.abc1234", false)
	out := filepath.Join(t.TempDir(), "tree")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-tree", out, "-dist", dist, "-targets", "linux/amd64,windows/arm64"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	libexec := filepath.Join(out, "bundle", "zcode-fence", "libexec")
	var want []integrity.Sum
	for _, tg := range targets {
		data, err := os.ReadFile(filepath.Join(libexec, tg.FileName()))
		if err != nil || string(data) != "binary for "+tg.String() {
			t.Errorf("%s in the tree: %q, %v", tg.FileName(), data, err)
		}
		want = append(want, integrity.Sum{File: tg.FileName(), SHA256: sha(data)})
	}
	sums, _ := os.ReadFile(filepath.Join(libexec, ManifestName))
	if !bytes.Equal(sums, integrity.FormatSums(want)) {
		t.Errorf("SHA256SUMS:\n%s", sums)
	}
	var plugin struct {
		Version string `json:"version"`
	}
	readJSON(t, filepath.Join(out, "bundle", "zcode-fence", ".claude-plugin", "plugin.json"), &plugin)
	if plugin.Version != "2.0.0-snapshot.abc1234" {
		t.Errorf("plugin.json version %q, want the snapshot's", plugin.Version)
	}
}
