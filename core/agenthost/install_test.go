package agenthost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// installCases is testdata/install-cases.json.
type installCases struct {
	Matchers []struct {
		Name, Matcher string
		Tools, Misses []string
	} `json:"matchers"`
	TOML []struct {
		Name, Text, Error string
		Keys              map[string]string
	} `json:"toml"`
	Overrides []struct {
		Name      string
		Overrides []string
		Dir       string
		On        bool
	} `json:"overrides"`
	Hooks []struct {
		Name, Host, Format, Text, Error string
		Want                            []struct {
			Event, Matcher, Command string
			TimeoutMS               int64 `json:"timeout_ms"`
			Set                     bool
		}
	} `json:"hooks"`
}

func loadInstallCases(t *testing.T) installCases {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "install-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c installCases
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMatcherMisses(t *testing.T) {
	for _, c := range loadInstallCases(t).Matchers {
		t.Run(c.Name, func(t *testing.T) {
			if got := MatcherMisses(c.Matcher, c.Tools); !slices.Equal(got, c.Misses) {
				t.Errorf("MatcherMisses(%q, %v) = %v, want %v", c.Matcher, c.Tools, got, c.Misses)
			}
		})
	}
}

func TestParseTOML(t *testing.T) {
	for _, c := range loadInstallCases(t).TOML {
		t.Run(c.Name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if err := os.WriteFile(path, []byte(c.Text), 0o600); err != nil {
				t.Fatal(err)
			}
			keys, err := readKeys(path)
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("error %v, want one with %q", err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(keys) != len(c.Keys) {
				t.Errorf("keys %v, want %v", keys, c.Keys)
			}
			for k, v := range c.Keys {
				if keys[k] != v {
					t.Errorf("%s = %q, want %q (all: %v)", k, keys[k], v, keys)
				}
			}
		})
	}
}

func TestExtensionOverrides(t *testing.T) {
	for _, c := range loadInstallCases(t).Overrides {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			in := Install{Enable: ExtensionOverrides, EnableFile: "enablement.json"}
			doc, _ := json.Marshal(map[string]any{core.PluginName: map[string]any{"overrides": c.Overrides}})
			if err := os.WriteFile(filepath.Join(dir, in.EnableFile), doc, 0o600); err != nil {
				t.Fatal(err)
			}
			on, why := in.Enabled(dir, InstalledPlugin{Installed: filepath.Join(dir, core.PluginName)}, c.Dir)
			if on != c.On || on != (why == "") {
				t.Errorf("Enabled for %s with %v = %v (%q), want %v", c.Dir, c.Overrides, on, why, c.On)
			}
		})
	}
}

func TestReadHooks(t *testing.T) {
	for _, c := range loadInstallCases(t).Hooks {
		t.Run(c.Name, func(t *testing.T) {
			a, ok := ByName(c.Host)
			if !ok {
				t.Fatalf("no host %q", c.Host)
			}
			format, name := HooksJSON, "settings.json"
			if c.Format == "toml" {
				format, name = HooksTOML, "config.toml"
			}
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, []byte(c.Text), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := a.Install().ReadHooks(path, format)
			if c.Error != "" {
				if err == nil || !strings.Contains(err.Error(), c.Error) {
					t.Fatalf("error %v, want one with %q", err, c.Error)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.Want) {
				t.Fatalf("got %d hooks %+v, want %d", len(got), got, len(c.Want))
			}
			for i, w := range c.Want {
				g := got[i]
				if g.File != path || g.Event != w.Event || g.Matcher != w.Matcher || g.Command != w.Command ||
					g.Timeout != time.Duration(w.TimeoutMS)*time.Millisecond || g.TimeoutSet != w.Set {
					t.Errorf("hook %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// TestInstallFacts: every adapter says where it lives and how the guard
// is hooked in, consistently with its packaging; the plugin's own hooks
// files, as generated, pass what doctor checks for each host that reads
// them (events, matcher covering the host's tools, a timeout within the
// budget that HookTimeout declares).
func TestInstallFacts(t *testing.T) {
	files := map[string][]byte{}
	for _, f := range HooksFiles() {
		files[f.Path] = f.Data
	}
	for _, h := range Installs() {
		name := h.Adapter.Name()
		pkg := h.Adapter.Packaging()
		if pkg.PluginFile != "" {
			checkJSPluginInstall(t, h)
			continue
		}
		if h.Label == "" || h.Dir == "" || len(h.Plugins) == 0 || len(h.Events) == 0 || h.InstallHow == "" || len(h.Timeout.Fields) == 0 {
			t.Errorf("%s: incomplete Install %+v", name, h.Install)
			continue
		}
		if h.Events[0] != pkg.Event {
			t.Errorf("%s: first event %s, packaging's %s", name, h.Events[0], pkg.Event)
		}
		if !strings.Contains(pkg.Command, pkg.RootVar) || pkg.RootVar == "" {
			t.Errorf("%s: command %s does not use its root variable %q", name, pkg.Command, pkg.RootVar)
		}
		root := filepath.Join("/installed", "root")
		resolved := pkg.ResolveCommand(pkg.Command, root)
		wantExe := filepath.Join(root, filepath.FromSlash(h.PluginBelow), "libexec", core.PluginName)
		if resolved != `"`+wantExe+`"` {
			t.Errorf("%s: resolved command %s, want %q", name, resolved, wantExe)
		}
		path := filepath.Join(t.TempDir(), "hooks.json")
		if err := os.WriteFile(path, files[pkg.HooksFile], 0o600); err != nil {
			t.Fatal(err)
		}
		entries, err := h.ReadHooks(path, HooksJSON)
		if err != nil || len(entries) != 1 {
			t.Errorf("%s: the generated %s gives %v, %v", name, pkg.HooksFile, entries, err)
			continue
		}
		if miss := MatcherMisses(entries[0].Matcher, GuardedToolNames(h.Adapter)); len(miss) > 0 {
			t.Errorf("%s: the generated matcher misses %v", name, miss)
		}
		if entries[0].Timeout != HookTimeout {
			t.Errorf("%s: the generated hook's timeout reads as %v, want %v", name, entries[0].Timeout, HookTimeout)
		}
	}
}

// checkJSPluginInstall: a host that runs the bundle's JS plugin says where
// it loads plugins from, the plugin file is in the bundle and runs the
// launcher beside it, and doctor finds it linked from the plugins folder
// and named in a config's "plugin" list, at the plugin it belongs to.
func checkJSPluginInstall(t *testing.T, h HostInstall) {
	t.Helper()
	name, pkg := h.Adapter.Name(), h.Adapter.Packaging()
	if h.Label == "" || h.Dir == "" || len(h.JSPlugins) == 0 || len(h.Events) == 0 || h.Events[0] != pkg.Event ||
		h.InstallHow == "" || h.Enable != PluginPresent || h.PluginFile == "" || PluginDir+"/"+h.PluginFile != pkg.PluginFile {
		t.Errorf("%s: incomplete Install %+v", name, h.Install)
		return
	}
	src, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(pkg.PluginFile)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, want := range []string{`"guard.mjs"`, `"` + pkg.Event + `"`, "hook_event_name", "tool_input"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("%s: %s does not mention %s", name, pkg.PluginFile, want)
		}
	}
	// The module the plugins share runs the launcher beside them.
	shared, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(PluginDir), "js", "guard.mjs"))
	if err != nil || !strings.Contains(string(shared), `"libexec"`) {
		t.Errorf("%s: js/guard.mjs does not run libexec's launcher (%v)", name, err)
	}
	// An unpacked release, a link to its plugin file in the plugins
	// folder, and a file:// URL to it in the first plugin list.
	release := t.TempDir()
	plugin := filepath.Join(release, filepath.FromSlash(pkg.PluginFile))
	if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugin, src, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	folder := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(h.JSPlugins[0], "/*")))
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(plugin, filepath.Join(folder, filepath.Base(plugin))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "other.js"), []byte("export const X = async () => ({})\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := `{"` + h.PluginListKey + `": ["npm:other", "file://` + filepath.ToSlash(plugin) + `"]}`
	if err := os.WriteFile(filepath.Join(dir, h.PluginLists[0]), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	found := h.FindPlugins(dir)
	want := filepath.Join(release, filepath.FromSlash(PluginDir))
	if len(found) != 2 || found[0].Plugin != want || found[1].Plugin != want {
		t.Fatalf("%s: FindPlugins = %+v, want the plugin %s twice (the link, the list)", name, found, want)
	}
	// The folder that holds the file, as Pi's packages name it.
	folderList := `{"` + h.PluginListKey + `": ["` + filepath.ToSlash(filepath.Dir(plugin)) + `"]}`
	if err := os.WriteFile(filepath.Join(dir, h.PluginLists[0]), []byte(folderList), 0o644); err != nil {
		t.Fatal(err)
	}
	if found := h.FindPlugins(dir); len(found) != 2 || found[1].Plugin != want {
		t.Errorf("%s: with the folder listed, FindPlugins = %+v, want the plugin %s twice", name, found, want)
	}
	if on, why := h.Enabled(dir, found[0], dir); !on {
		t.Errorf("%s: a present plugin is off: %s", name, why)
	}
}
