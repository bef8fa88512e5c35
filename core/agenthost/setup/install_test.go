package setup

import (
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
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
			in := agenthost.Install{Enable: agenthost.ExtensionOverrides, EnableFile: "enablement.json"}
			doc, _ := json.Marshal(map[string]any{core.PluginName: map[string]any{"overrides": c.Overrides}})
			if err := os.WriteFile(filepath.Join(dir, in.EnableFile), doc, 0o600); err != nil {
				t.Fatal(err)
			}
			on, why := Enabled(in, dir, InstalledPlugin{Installed: filepath.Join(dir, core.PluginName)}, c.Dir)
			if on != c.On || on != (why == "") {
				t.Errorf("Enabled for %s with %v = %v (%q), want %v", c.Dir, c.Overrides, on, why, c.On)
			}
		})
	}
}

func TestReadHooks(t *testing.T) {
	for _, c := range loadInstallCases(t).Hooks {
		t.Run(c.Name, func(t *testing.T) {
			a, ok := agenthost.ByName(c.Host)
			if !ok {
				t.Fatalf("no host %q", c.Host)
			}
			format, name := agenthost.HooksJSON, "settings.json"
			if c.Format == "toml" {
				format, name = agenthost.HooksTOML, "config.toml"
			}
			path := filepath.Join(t.TempDir(), name)
			if err := os.WriteFile(path, []byte(c.Text), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := ReadHooks(a.Install(), path, format)
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
		if len(h.HookScripts) > 0 {
			checkHookScriptInstall(t, h)
			continue
		}
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
		resolved := ResolveCommand(pkg, pkg.Command, root)
		wantExe := filepath.Join(root, filepath.FromSlash(h.PluginBelow), "libexec", core.PluginName)
		if resolved != `"`+wantExe+`"` {
			t.Errorf("%s: resolved command %s, want %q", name, resolved, wantExe)
		}
		path := filepath.Join(t.TempDir(), "hooks.json")
		if err := os.WriteFile(path, files[pkg.HooksFile], 0o600); err != nil {
			t.Fatal(err)
		}
		entries, err := ReadHooks(h.Install, path, agenthost.HooksJSON)
		if err != nil || len(entries) != 1 {
			t.Errorf("%s: the generated %s gives %v, %v", name, pkg.HooksFile, entries, err)
			continue
		}
		if miss := MatcherMisses(entries[0].Matcher, GuardedToolNames(h.Adapter)); len(miss) > 0 {
			t.Errorf("%s: the generated matcher misses %v", name, miss)
		}
		if entries[0].Timeout != agenthost.HookTimeout {
			t.Errorf("%s: the generated hook's timeout reads as %v, want %v", name, entries[0].Timeout, agenthost.HookTimeout)
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
	if h.Label == "" || h.Dir == "" || len(h.JSPlugins)+len(h.PluginLists) == 0 || len(h.Events) == 0 || h.Events[0] != pkg.Event ||
		h.InstallHow == "" || h.Enable != agenthost.PluginPresent || h.PluginFile == "" || agenthost.PluginDir+"/"+h.PluginFile != pkg.PluginFile {
		t.Errorf("%s: incomplete Install %+v", name, h.Install)
		return
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(pkg.PluginFile)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, want := range []string{`"guard.mjs"`, `"` + pkg.Event + `"`, "hook_event_name", "tool_input"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("%s: %s does not mention %s", name, pkg.PluginFile, want)
		}
	}
	// The module the plugins share runs the launcher beside them.
	shared, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(agenthost.PluginDir), "js", "guard.mjs"))
	if err != nil || !strings.Contains(string(shared), `"libexec"`) {
		t.Errorf("%s: js/guard.mjs does not run libexec's launcher (%v)", name, err)
	}
	// An unpacked release, a link to its plugin file in the plugins
	// folder (for a host that has one), and a file:// URL to it in the
	// first plugin list.
	release := t.TempDir()
	plugin := filepath.Join(release, filepath.FromSlash(pkg.PluginFile))
	if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugin, src, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	links := 0
	if len(h.JSPlugins) > 0 {
		links = 1
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
	}
	writeList := func(entries ...string) {
		t.Helper()
		// a dotted key names nested objects (OpenClaw's plugins.load.paths)
		var doc any = entries
		keys := strings.Split(h.PluginListKey, ".")
		for i := len(keys) - 1; i >= 0; i-- {
			doc = map[string]any{keys[i]: doc}
		}
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, h.PluginLists[0]), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeList("npm:other", "file://"+filepath.ToSlash(plugin))
	found := FindPlugins(h.Install, dir)
	want := filepath.Join(release, filepath.FromSlash(agenthost.PluginDir))
	if len(found) != links+1 || found[0].Plugin != want || found[links].Plugin != want {
		t.Fatalf("%s: FindPlugins = %+v, want the plugin %s %d times (the link, the list)", name, found, want, links+1)
	}
	// The folder that holds the file, as Pi's packages name it.
	writeList(filepath.ToSlash(filepath.Dir(plugin)))
	if found := FindPlugins(h.Install, dir); len(found) != links+1 || found[links].Plugin != want {
		t.Errorf("%s: with the folder listed, FindPlugins = %+v, want the plugin %s %d times", name, found, want, links+1)
	}
	if on, why := Enabled(h.Install, dir, found[0], dir); !on {
		t.Errorf("%s: a present plugin is off: %s", name, why)
	}
}

// checkHookScriptInstall: for a host whose hook file must be a copy
// (Cline), the bundle's install.sh beside the hook, run with sh as README
// says from an unpacked release, writes a hook script that FindPlugins
// traces back to the release's plugin; it runs again over its own file,
// and leaves a foreign hook file alone.
func checkHookScriptInstall(t *testing.T, h HostInstall) {
	t.Helper()
	name, pkg := h.Adapter.Name(), h.Adapter.Packaging()
	if h.Label == "" || h.Dir == "" || h.DirEnv == "" || len(h.Events) == 0 || h.Events[0] != pkg.Event || !h.CannotAsk ||
		h.InstallHow == "" || h.Enable != agenthost.PluginPresent || agenthost.PluginDir+"/"+h.PluginFile != pkg.PluginFile {
		t.Errorf("%s: incomplete Install %+v", name, h.Install)
		return
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("SKIPPED, NOT RUN: no sh to run %s's install.sh: %v", name, err)
	}
	release := t.TempDir()
	src := filepath.Join("..", "..", "..", filepath.FromSlash(path.Dir(pkg.PluginFile)))
	dst := filepath.Join(release, filepath.FromSlash(path.Dir(pkg.PluginFile)))
	for _, f := range []string{path.Base(pkg.PluginFile), "install.sh"} {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "config")
	install := func() ([]byte, error) {
		cmd := exec.Command(sh, filepath.Join(dst, "install.sh"))
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), h.DirEnv + "=" + dir}
		return cmd.CombinedOutput()
	}
	for i := 0; i < 2; i++ {
		if out, err := install(); err != nil {
			t.Fatalf("%s: install.sh (run %d): %v\n%s", name, i+1, err, out)
		}
	}
	want := filepath.Join(release, filepath.FromSlash(agenthost.PluginDir))
	if r, err := filepath.EvalSymlinks(want); err == nil {
		want = r
	}
	found := FindPlugins(h.Install, dir)
	if len(found) != 1 || found[0].Plugin != want || filepath.Base(found[0].Installed) != pkg.Event {
		t.Fatalf("%s: FindPlugins = %+v, want the plugin %s installed as %s", name, found, want, pkg.Event)
	}
	if on, why := Enabled(h.Install, dir, found[0], dir); !on {
		t.Errorf("%s: an installed hook is off: %s", name, why)
	}
	foreign := filepath.Join(dir, "hooks", pkg.Event)
	if err := os.WriteFile(foreign, []byte("#!/bin/sh\necho mine\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := install(); err == nil {
		t.Errorf("%s: install.sh replaced a foreign hook file: %s", name, out)
	}
	if data, _ := os.ReadFile(foreign); string(data) != "#!/bin/sh\necho mine\n" {
		t.Errorf("%s: the foreign hook file changed: %q", name, data)
	}
}

// TestClineHookFile runs the bundle's Cline hook file (through the script
// its install.sh writes, as Cline runs it) over stand-in launchers: the
// call on stdin reaches the launcher, Cline's stopping form and silence
// pass through, and wherever the guard cannot answer in Cline's form (no
// launcher, a failing one, an answer in another host's form, which Cline
// would ignore and run the call) the hook stops the call itself.
func TestClineHookFile(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("SKIPPED, NOT RUN: no sh: %v", err)
	}
	a, _ := agenthost.ByName("cline")
	pkg := a.Packaging()
	hookSrc, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(pkg.PluginFile)))
	if err != nil {
		t.Fatal(err)
	}
	installSrc, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(path.Dir(pkg.PluginFile)), "install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	const couldNot = `{"cancel":true,"errorMessage":"[zcode-fence] the guard could not judge this call (`
	cases := []struct {
		name, launcher string // "" for none
		want           string // exact, or a prefix when it ends in "("
	}{
		{"cancel passes", `read -r line; printf '{"cancel":true,"errorMessage":"%s"}\n' "$line"`, `{"cancel":true,"errorMessage":"the call"}` + "\n"},
		{"silence passes", `cat >/dev/null`, ""},
		{"Claude's ask line stops", `cat >/dev/null; printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"x"}}\n'`, couldNot},
		{"a failing launcher stops", `exit 3`, couldNot},
		{"no launcher stops", "", couldNot},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plugin := filepath.Join(t.TempDir(), "release", filepath.FromSlash(agenthost.PluginDir))
			files := map[string]string{path.Base(path.Dir(pkg.PluginFile)) + "/" + path.Base(pkg.PluginFile): string(hookSrc),
				path.Base(path.Dir(pkg.PluginFile)) + "/install.sh": string(installSrc)}
			if c.launcher != "" {
				files["libexec/"+core.PluginName] = "#!/bin/sh\n" + c.launcher + "\n"
			}
			for rel, data := range files {
				p := filepath.Join(plugin, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			config := t.TempDir()
			inst := exec.Command(sh, filepath.Join(plugin, path.Base(path.Dir(pkg.PluginFile)), "install.sh"))
			inst.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + config, "CLINE_DIR=" + config}
			if out, err := inst.CombinedOutput(); err != nil {
				t.Fatalf("install.sh: %v\n%s", err, out)
			}
			run := exec.Command(filepath.Join(config, "hooks", pkg.Event))
			run.Env = []string{"PATH=/usr/bin:/bin"}
			run.Stdin = strings.NewReader("the call\n")
			out, err := run.Output()
			if err != nil {
				t.Fatalf("the hook exited %v (Cline runs the call on a failing hook)", err)
			}
			got := string(out)
			if strings.HasSuffix(c.want, "(") {
				if !strings.HasPrefix(got, c.want) || !json.Valid(out) {
					t.Fatalf("answer %q, want valid JSON starting %q", got, c.want)
				}
				return
			}
			if got != c.want {
				t.Fatalf("answer %q, want %q", got, c.want)
			}
		})
	}
}
