package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/agenthost/setup"
	"github.com/zcode-fence/zcode-fence/core/integrity"
)

// The installable tree is what the release workflow publishes at the ref the
// marketplaces name (README.md, "Cutting a release"): the same layout as the
// default branch's marketplace, with binaries.
//
//	marketplace.json, .claude-plugin/marketplace.json   source "./<path>", version stamped
//	LICENSE, README.md                                   README.md says what this tree is
//	<path>/                                              the plugin (bundle/zcode-fence)
//	  .zcode-plugin/plugin.json, .claude-plugin/plugin.json   version stamped
//	  hooks/, skills/, opencode/, pi/, openclaw/, cline/, js/ (the JS plugins), README*.md, LICENSE, libexec/ launchers
//	  libexec/zcode-fence-<os>-<arch>[.exe], libexec/SHA256SUMS
//	<path>/../gemini-extension.json, hooks/hooks.json    the Gemini CLI extension
//	                                                     (agenthost.ExtensionDir), version stamped
//
// Adding that tree as a marketplace (a clone of the ref, or the directory)
// installs a plugin that runs with no toolchain; on the default branch the
// marketplaces reach it through a git-subdir source. Gemini CLI installs the
// extension directory from a clone of the ref: it holds the plugin, so the
// copy Gemini makes carries the launcher and the binaries.

// marketplaceFiles are the two marketplaces at the repository root
// (setup.MarketplaceFiles).
var marketplaceFiles = setup.MarketplaceFiles

// pluginManifests are the plugin's manifests, relative to the plugin.
var pluginManifests = []string{".zcode-plugin/plugin.json", ".claude-plugin/plugin.json"}

// extensionFiles are the Gemini extension's files besides the plugin,
// relative to the extension directory (the plugin's parent).
var extensionFiles = []string{"gemini-extension.json", "hooks/hooks.json"}

// PluginSource is the plugin entry's source in both marketplaces on the
// default branch: the plugin at Path of the tree published at Ref of the
// repository at URL.
type PluginSource struct {
	Source string `json:"source"`
	URL    string `json:"url"`
	Path   string `json:"path"`
	Ref    string `json:"ref"`
}

// ReadPluginSource reads the plugin source of both marketplaces in the
// checkout at root. Both must list one plugin with the same git-subdir
// source, a clean relative path to a directory holding the plugin's
// manifests, and a ref.
func ReadPluginSource(root string) (PluginSource, error) {
	var first PluginSource
	for i, name := range marketplaceFiles {
		doc, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			return PluginSource{}, fmt.Errorf("bundle: %w", err)
		}
		var m struct {
			Plugins []struct {
				Source json.RawMessage `json:"source"`
			} `json:"plugins"`
		}
		if err := json.Unmarshal(doc, &m); err != nil {
			return PluginSource{}, fmt.Errorf("bundle: %s: %w", name, err)
		}
		if len(m.Plugins) != 1 {
			return PluginSource{}, fmt.Errorf("bundle: %s lists %d plugins, want 1", name, len(m.Plugins))
		}
		var src PluginSource
		dec := json.NewDecoder(bytes.NewReader(m.Plugins[0].Source))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&src); err != nil {
			return PluginSource{}, fmt.Errorf("bundle: %s plugins[0].source is not a {source, url, path, ref} object: %v", name, err)
		}
		if src.Source != "git-subdir" || src.URL == "" || src.Ref == "" {
			return PluginSource{}, fmt.Errorf("bundle: %s plugins[0].source = %s; want a git-subdir source with url, path and ref", name, m.Plugins[0].Source)
		}
		if src.Path == "" || path.Clean(src.Path) != src.Path || path.IsAbs(src.Path) || strings.HasPrefix(src.Path, "..") {
			return PluginSource{}, fmt.Errorf("bundle: %s plugins[0].source.path %q is not a clean relative path", name, src.Path)
		}
		if i == 0 {
			first = src
		} else if src != first {
			return PluginSource{}, fmt.Errorf("bundle: %s and %s name different plugin sources (%+v, %+v)", marketplaceFiles[0], name, first, src)
		}
	}
	for _, m := range pluginManifests {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(first.Path), filepath.FromSlash(m))); err != nil {
			return PluginSource{}, fmt.Errorf("bundle: the marketplaces' plugin path %s has no %s: %w", first.Path, m, err)
		}
	}
	if first.Path != agenthost.PluginDir || path.Dir(first.Path) != agenthost.ExtensionDir {
		return PluginSource{}, fmt.Errorf("bundle: the marketplaces' plugin path %s is not agenthost.PluginDir %s inside agenthost.ExtensionDir %s (the hooks files name it)", first.Path, agenthost.PluginDir, agenthost.ExtensionDir)
	}
	return first, nil
}

// Tree assembles the installable tree in Out from the checkout at Root.
type Tree struct {
	Root    string
	Out     string
	Version string
	Commit  string // the source commit, named in the tree's README.md
	Source  PluginSource
}

// NewTree checks the inputs and creates Out, which must not exist or be an
// empty directory (the tool never deletes anything of the caller's).
func NewTree(root, out, version, commit string) (*Tree, error) {
	if err := CheckVersion(version); err != nil {
		return nil, err
	}
	src, err := ReadPluginSource(root)
	if err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("bundle: -tree %s is not empty; give a new or empty directory", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("bundle: -tree: %w", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("bundle: %w", err)
	}
	return &Tree{Root: root, Out: out, Version: version, Commit: commit, Source: src}, nil
}

// Plugin is the plugin directory inside the tree.
func (tr *Tree) Plugin() string { return filepath.Join(tr.Out, filepath.FromSlash(tr.Source.Path)) }

// Libexec is where the binaries and SHA256SUMS go.
func (tr *Tree) Libexec() string { return filepath.Join(tr.Plugin(), "libexec") }

// WriteFiles writes everything but the binaries: the plugin copied from
// the checkout (without built binaries), its manifests and the marketplaces
// stamped with the version, the marketplaces' source made relative, the
// license and a README.
func (tr *Tree) WriteFiles() error {
	src := filepath.Join(tr.Root, filepath.FromSlash(tr.Source.Path))
	if err := copyPlugin(src, tr.Plugin()); err != nil {
		return err
	}
	for _, m := range pluginManifests {
		if err := tr.stamp(filepath.Join(tr.Source.Path, m), filepath.Join(tr.Source.Path, m), [][]any{{"version"}}, nil); err != nil {
			return err
		}
	}
	for _, m := range marketplaceFiles {
		paths := [][]any{{"plugins", 0, "source"}, {"plugins", 0, "version"}}
		if err := tr.stamp(m, m, paths, []any{"./" + tr.Source.Path, tr.Version}); err != nil {
			return err
		}
	}
	ext := path.Dir(tr.Source.Path)
	for _, f := range extensionFiles {
		var paths [][]any
		if f == path.Base(agenthost.GeminiManifest) {
			paths = [][]any{{"version"}}
		}
		if err := tr.stamp(path.Join(ext, f), path.Join(ext, f), paths, nil); err != nil {
			return err
		}
	}
	license, err := os.ReadFile(filepath.Join(tr.Root, "LICENSE"))
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	for _, dst := range []string{filepath.Join(tr.Out, "LICENSE"), filepath.Join(tr.Plugin(), "LICENSE")} {
		if err := os.WriteFile(dst, license, 0o644); err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
	}
	return os.WriteFile(filepath.Join(tr.Out, "README.md"), []byte(tr.readme()), 0o644)
}

// stamp copies the JSON file from (relative to Root) to to (relative to
// Out) with the values at paths replaced: by values[i], or by the version
// when values is nil.
func (tr *Tree) stamp(from, to string, paths [][]any, values []any) error {
	doc, err := os.ReadFile(filepath.Join(tr.Root, filepath.FromSlash(from)))
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	for i, p := range paths {
		var v any = tr.Version
		if values != nil {
			v = values[i]
		}
		if doc, err = setJSON(doc, p, v); err != nil {
			return fmt.Errorf("bundle: %s: %v: %w", from, p, err)
		}
	}
	dst := filepath.Join(tr.Out, filepath.FromSlash(to))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	return os.WriteFile(dst, doc, 0o644)
}

func (tr *Tree) readme() string {
	return fmt.Sprintf(`# zcode-fence %[1]s, ready to install

This tree is written by the release workflow from commit %[2]s.
Do not edit it: every release replaces it.

It is a plugin marketplace for ZCode (marketplace.json) and Claude Code
(.claude-plugin/marketplace.json), which Codex, Copilot CLI and Qwen Code
read too; %[4]s/ is a Gemini CLI extension (gemini extensions install
%[4]s). Its plugin, %[3]s/, carries prebuilt,
static zcode-fence binaries for Linux, macOS and Windows on amd64 and arm64
(libexec/), and their SHA256SUMS; the binary checks itself against
SHA256SUMS on its first run. Nothing needs Go or any other toolchain.

Install: see "Install" in the README of the default branch. The source,
the tests and the way to rebuild these exact bytes are there too.
`, tr.Version, tr.Commit, tr.Source.Path, path.Dir(tr.Source.Path))
}

// isBuilt reports whether name, in libexec/, is a build product that the
// tree gets fresh (binaries, SHA256SUMS, build leftovers), not a source file.
func isBuilt(name string) bool {
	return strings.HasPrefix(name, "zcode-fence-") || name == ManifestName || strings.HasPrefix(name, ".")
}

// copyPlugin copies the plugin directory, leaving out build products in
// libexec/. A symlink is an error: ZCode's marketplace refuses them.
func copyPlugin(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
		rel, _ := filepath.Rel(src, p)
		if filepath.Base(filepath.Dir(p)) == "libexec" && filepath.Dir(rel) == "libexec" && isBuilt(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("bundle: %s is a symlink; the plugin must hold only files and folders", p)
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		}
		return copyFile(p, target)
	})
}

// copyFile copies a regular file, keeping its executable bits.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	mode := os.FileMode(0o644)
	if st.Mode().Perm()&0o111 != 0 {
		mode = 0o755
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("bundle: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	return os.Chmod(dst, mode) // not the umask's idea of it
}

// Dist is what GoReleaser left in dist/: the release's version and commit,
// the binary of each target, and its SHA256SUMS (after `goreleaser
// release`; `goreleaser build` writes none).
type Dist struct {
	Version, Commit string
	Binaries        map[Target]string
	Sums            []byte
}

// ReadDist reads dist/metadata.json and dist/artifacts.json and finds the
// binary of every target in targets under the name the launchers expect.
func ReadDist(dir string, targets []Target) (Dist, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Dist{}, fmt.Errorf("bundle: %w", err)
	}
	var meta struct {
		Version string `json:"version"`
		Commit  string `json:"commit"`
	}
	if err := readJSONFile(filepath.Join(dir, "metadata.json"), &meta); err != nil {
		return Dist{}, err
	}
	var artifacts []struct {
		Name   string `json:"name"`
		Path   string `json:"path"`
		GOOS   string `json:"goos"`
		GOARCH string `json:"goarch"`
		Type   string `json:"type"`
	}
	if err := readJSONFile(filepath.Join(dir, "artifacts.json"), &artifacts); err != nil {
		return Dist{}, err
	}
	d := Dist{Version: meta.Version, Commit: meta.Commit, Binaries: map[Target]string{}}
	// `goreleaser build` lists each binary once, as built (zcode-fence[.exe]
	// in its target's folder); `goreleaser release` lists it a second time,
	// as the release asset named as the launchers expect, with the same path
	// (archives format binary). Both have the type "Binary".
	for _, a := range artifacts {
		t := Target{a.GOOS, a.GOARCH}
		if a.Type != "Binary" || !slices.Contains(targets, t) {
			continue
		}
		built := strings.TrimPrefix(t.FileName(), "zcode-fence-"+t.OS+"-"+t.Arch)
		built = "zcode-fence" + built // zcode-fence, or zcode-fence.exe
		if a.Name != built && a.Name != t.FileName() {
			return Dist{}, fmt.Errorf("bundle: dist: a %s binary is named %s, not %s or %s (.goreleaser.yaml builds.binary, archives.name_template)", t, a.Name, built, t.FileName())
		}
		p := a.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(dir), filepath.FromSlash(p)) // relative to GoReleaser's working directory
		}
		if prev := d.Binaries[t]; prev != "" && prev != p {
			return Dist{}, fmt.Errorf("bundle: dist: two %s binaries, %s and %s", t, prev, p)
		}
		d.Binaries[t] = p
	}
	for _, t := range targets {
		if d.Binaries[t] == "" {
			return Dist{}, fmt.Errorf("bundle: dist: %s has no binary for %s", dir, t)
		}
	}
	if data, err := os.ReadFile(filepath.Join(dir, ManifestName)); err == nil {
		d.Sums = data
	} else if !errors.Is(err, os.ErrNotExist) {
		return Dist{}, fmt.Errorf("bundle: dist: %w", err)
	}
	return d, nil
}

func readJSONFile(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("bundle: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("bundle: %s: %w", path, err)
	}
	return nil
}

// CheckDistSums compares the tree's SHA256SUMS with the one GoReleaser
// published: every binary in the tree must be listed there with the same
// hash, and with every target in the tree the two files must be identical.
func CheckDistSums(tree, dist []byte, all bool) error {
	mine, err := integrity.ParseSums(tree)
	if err != nil {
		return fmt.Errorf("bundle: tree %s: %w", ManifestName, err)
	}
	theirs, err := integrity.ParseSums(dist)
	if err != nil {
		return fmt.Errorf("bundle: dist %s: %w", ManifestName, err)
	}
	for _, s := range mine {
		i := slices.IndexFunc(theirs, func(o integrity.Sum) bool { return o.File == s.File })
		if i < 0 || theirs[i].SHA256 != s.SHA256 {
			return fmt.Errorf("bundle: %s in the tree has sha256 %s, but GoReleaser's %s does not list it so", s.File, s.SHA256, ManifestName)
		}
	}
	if all && !bytes.Equal(tree, dist) {
		return fmt.Errorf("bundle: the tree's %s differs from GoReleaser's:\n%s\nvs\n%s", ManifestName, tree, dist)
	}
	return nil
}

// gitCommit is the checkout's HEAD commit, or "unknown" outside git.
func gitCommit(root string) string {
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// CheckTag checks that tag (a release tag, vX.Y.Z) names the version on
// this branch: core.Version's default and every manifest's version.
func CheckTag(root, tag, coreVersion string) error {
	if err := CheckVersion(strings.TrimPrefix(tag, "v")); err != nil || !strings.HasPrefix(tag, "v") {
		return fmt.Errorf("bundle: tag %q is not v<semver>", tag)
	}
	var wrong []string
	if v := strings.TrimPrefix(tag, "v"); v != coreVersion {
		wrong = append(wrong, fmt.Sprintf("core/version.go says %s", coreVersion))
	}
	src, err := ReadPluginSource(root)
	if err != nil {
		return err
	}
	check := func(rel string, p []any) error {
		doc, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("bundle: %w", err)
		}
		var v string
		if err := getJSON(doc, p, &v); err != nil {
			return fmt.Errorf("bundle: %s %v: %w", rel, p, err)
		}
		if v != strings.TrimPrefix(tag, "v") {
			wrong = append(wrong, fmt.Sprintf("%s says %s", rel, v))
		}
		return nil
	}
	for _, m := range marketplaceFiles {
		if err := check(m, []any{"plugins", 0, "version"}); err != nil {
			return err
		}
	}
	for _, m := range pluginManifests {
		if err := check(path.Join(src.Path, m), []any{"version"}); err != nil {
			return err
		}
	}
	if err := check(agenthost.GeminiManifest, []any{"version"}); err != nil {
		return err
	}
	if len(wrong) > 0 {
		return fmt.Errorf("bundle: tag %s does not match this commit's version: %s (bump core.Version and the manifests first; e2e TestVersionsMatchCoreVersion keeps them equal)", tag, strings.Join(wrong, "; "))
	}
	return nil
}
