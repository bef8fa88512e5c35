package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/agenthost/setup"
	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
	"github.com/zcode-fence/zcode-fence/plugins"
	"github.com/zcode-fence/zcode-fence/plugins/decisionmodel"
)

// nameRE is the plugin and marketplace name rule of ZCode's validator.
var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,127}$`)

// categories ZCode's official marketplace accepts.
var categories = []string{"developer-tools", "productivity", "utilities", "guides", "finance", "template", "other"}

// hookMatcher is the tool list every host reading hooks/hooks.json must
// send to the hook: each tool name those hosts' adapters know.
func hookMatcher(t *testing.T) string {
	t.Helper()
	for _, f := range setup.HooksFiles() {
		if f.Path == agenthost.PluginDir+"/hooks/hooks.json" {
			var doc struct {
				Hooks map[string][]struct {
					Matcher string `json:"matcher"`
				} `json:"hooks"`
			}
			if err := json.Unmarshal(f.Data, &doc); err != nil {
				t.Fatal(err)
			}
			return doc.Hooks["PreToolUse"][0].Matcher
		}
	}
	t.Fatal("agenthost generates no hooks/hooks.json")
	return ""
}

type i18n struct {
	En   string `json:"en"`
	ZhCN string `json:"zh-CN"`
}

type zcodeMarket struct {
	Name            string `json:"name"`
	Description     string `json:"description"`
	DescriptionI18n i18n   `json:"description_i18n"`
	Owner           struct {
		Name string `json:"name"`
	} `json:"owner"`
	Plugins []struct {
		Name            string          `json:"name"`
		Source          json.RawMessage `json:"source"`
		Description     string          `json:"description"`
		DescriptionI18n i18n            `json:"description_i18n"`
		Version         string          `json:"version"`
		Author          struct {
			Name string `json:"name"`
		} `json:"author"`
		Category string   `json:"category"`
		Keywords []string `json:"keywords"`
	} `json:"plugins"`
}

type claudeMarket struct {
	Name  string `json:"name"`
	Owner struct {
		Name string `json:"name"`
	} `json:"owner"`
	Metadata struct {
		Description string `json:"description"`
	} `json:"metadata"`
	Plugins []struct {
		Name        string          `json:"name"`
		Source      json.RawMessage `json:"source"`
		Description string          `json:"description"`
		Version     string          `json:"version"`
	} `json:"plugins"`
}

type pluginManifest struct {
	Name            string                                `json:"name"`
	Version         string                                `json:"version"`
	Description     string                                `json:"description"`
	DescriptionI18n i18n                                  `json:"description_i18n"`
	UserConfig      map[string]map[string]json.RawMessage `json:"userConfig"`
	Hooks           json.RawMessage                       `json:"hooks"`
}

func manifestPaths(t *testing.T) (zMarket, cMarket, zPlugin, cPlugin string) {
	root := kit.RepoRoot(t)
	b := bundleDir(t)
	return filepath.Join(root, "marketplace.json"),
		filepath.Join(root, ".claude-plugin", "marketplace.json"),
		filepath.Join(b, ".zcode-plugin", "plugin.json"),
		filepath.Join(b, ".claude-plugin", "plugin.json")
}

func TestVersionsMatchCoreVersion(t *testing.T) {
	zm, cm, zp, cp := manifestPaths(t)
	var zMarket zcodeMarket
	var cMarket claudeMarket
	var zPlugin, cPlugin pluginManifest
	kit.ReadJSON(t, zm, &zMarket)
	kit.ReadJSON(t, cm, &cMarket)
	kit.ReadJSON(t, zp, &zPlugin)
	kit.ReadJSON(t, cp, &cPlugin)
	if len(zMarket.Plugins) != 1 || len(cMarket.Plugins) != 1 {
		t.Fatalf("marketplaces list %d and %d plugins, want 1 each", len(zMarket.Plugins), len(cMarket.Plugins))
	}
	versions := map[string]string{
		"marketplace.json plugins[0].version":                zMarket.Plugins[0].Version,
		".claude-plugin/marketplace.json plugins[0].version": cMarket.Plugins[0].Version,
		"bundle .zcode-plugin/plugin.json version":           zPlugin.Version,
		"bundle .claude-plugin/plugin.json version":          cPlugin.Version,
	}
	var gemini struct {
		Name, Version string
	}
	kit.ReadJSON(t, filepath.Join(kit.RepoRoot(t), filepath.FromSlash(agenthost.GeminiManifest)), &gemini)
	versions[agenthost.GeminiManifest+" version"] = gemini.Version
	if gemini.Name != pluginName {
		t.Errorf("gemini-extension.json name %q, want %q", gemini.Name, pluginName)
	}
	for where, v := range versions {
		if v != kit.CoreVersion(t) {
			t.Errorf("%s = %q, core.Version = %q", where, v, kit.CoreVersion(t))
		}
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`).MatchString(kit.CoreVersion(t)) {
		t.Errorf("core.Version %q is not semver", kit.CoreVersion(t))
	}
}

func checkI18n(t *testing.T, where string, d i18n, description string) {
	t.Helper()
	if strings.TrimSpace(d.En) == "" || strings.TrimSpace(d.ZhCN) == "" {
		t.Errorf("%s: description_i18n needs non-empty en and zh-CN, got %+v", where, d)
	}
	if d.En != description {
		t.Errorf("%s: description_i18n.en differs from description", where)
	}
}

func TestZCodeMarketplace(t *testing.T) {
	zm, _, zp, _ := manifestPaths(t)
	var m zcodeMarket
	kit.ReadJSON(t, zm, &m)
	var plugin pluginManifest
	kit.ReadJSON(t, zp, &plugin)

	if !nameRE.MatchString(m.Name) {
		t.Errorf("marketplace name %q does not match %s", m.Name, nameRE)
	}
	if m.Name != marketName {
		t.Errorf("marketplace name %q, the tests and docs use %q", m.Name, marketName)
	}
	if strings.TrimSpace(m.Description) == "" || strings.TrimSpace(m.Owner.Name) == "" {
		t.Errorf("marketplace needs description and owner.name: %+v", m)
	}
	checkI18n(t, "marketplace.json", m.DescriptionI18n, m.Description)
	if len(m.Plugins) != 1 {
		t.Fatalf("marketplace lists %d plugins, want 1", len(m.Plugins))
	}
	p := m.Plugins[0]
	if p.Name != pluginName || p.Name != plugin.Name {
		t.Errorf("plugins[0].name %q, plugin.json name %q, want %q", p.Name, plugin.Name, pluginName)
	}
	checkReleaseSource(t, "marketplace.json", p.Source, ".zcode-plugin")
	if strings.TrimSpace(p.Description) == "" || p.Version == "" || strings.TrimSpace(p.Author.Name) == "" {
		t.Errorf("plugins[0] needs description, version and author.name: %+v", p)
	}
	checkI18n(t, "marketplace.json plugins[0]", p.DescriptionI18n, p.Description)
	if p.DescriptionI18n != plugin.DescriptionI18n || p.Description != plugin.Description {
		t.Errorf("plugins[0] descriptions differ from plugin.json's")
	}
	if !slices.Contains(categories, p.Category) {
		t.Errorf("plugins[0].category %q is not one of %v", p.Category, categories)
	}
	if len(p.Keywords) == 0 || slices.Contains(p.Keywords, "") {
		t.Errorf("plugins[0].keywords %q", p.Keywords)
	}
}

func TestClaudeCodeMarketplace(t *testing.T) {
	_, cm, _, cp := manifestPaths(t)
	var m claudeMarket
	kit.ReadJSON(t, cm, &m)
	var plugin pluginManifest
	kit.ReadJSON(t, cp, &plugin)
	if !nameRE.MatchString(m.Name) || m.Name != marketName {
		t.Errorf("marketplace name %q, want %q", m.Name, marketName)
	}
	if strings.TrimSpace(m.Owner.Name) == "" || strings.TrimSpace(m.Metadata.Description) == "" {
		t.Errorf("marketplace needs owner.name and metadata.description: %+v", m)
	}
	if len(m.Plugins) != 1 {
		t.Fatalf("marketplace lists %d plugins, want 1", len(m.Plugins))
	}
	p := m.Plugins[0]
	if p.Name != pluginName || p.Description != plugin.Description || p.Version == "" {
		t.Errorf("plugins[0] = %+v", p)
	}
	checkReleaseSource(t, ".claude-plugin/marketplace.json", p.Source, ".claude-plugin")
}

// releaseSource is where both marketplaces on the default branch install the
// plugin from: the bundle directory of the tree the release workflow
// publishes at the release branch of this repository (README.md, "Cutting
// a release"). The git-subdir form is Claude Code's (its `plugin validate`
// accepts it; installing through it is e2e TestReleaseInstall).
var releaseSource = map[string]string{
	"source": "git-subdir",
	"url":    "https://github.com/zcode-fence/zcode-fence.git",
	"path":   "bundle/zcode-fence",
	"ref":    "release",
}

// checkReleaseSource checks a marketplace's plugin source against
// releaseSource, the url against go.mod's module path, and that the path
// holds the plugin (with the host's manifest) on this branch too.
func checkReleaseSource(t *testing.T, where string, raw json.RawMessage, manifestDir string) {
	t.Helper()
	var src map[string]string
	if err := json.Unmarshal(raw, &src); err != nil {
		t.Errorf("%s plugins[0].source %s is not an object of strings: %v", where, raw, err)
		return
	}
	if !reflect.DeepEqual(src, releaseSource) {
		t.Errorf("%s plugins[0].source = %v, want %v", where, src, releaseSource)
	}
	gomod, err := os.ReadFile(filepath.Join(kit.RepoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(gomod)
	if module == nil || "https://"+string(module[1])+".git" != src["url"] {
		t.Errorf("%s plugins[0].source.url %q is not the repository of module %s", where, src["url"], module)
	}
	if _, err := os.Stat(filepath.Join(kit.RepoRoot(t), filepath.FromSlash(src["path"]), manifestDir, "plugin.json")); err != nil {
		t.Errorf("%s plugins[0].source.path has no %s/plugin.json: %v", where, manifestDir, err)
	}
}

// optionFields are the keys Claude Code allows in a userConfig option (its
// option objects are strict).
var optionFields = []string{"type", "title", "description", "required", "default", "multiple", "sensitive", "min", "max"}

func TestPluginManifests(t *testing.T) {
	_, _, zp, cp := manifestPaths(t)
	zData, err := os.ReadFile(zp)
	if err != nil {
		t.Fatal(err)
	}
	cData, err := os.ReadFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	var zAny, cAny any
	json.Unmarshal(zData, &zAny)
	json.Unmarshal(cData, &cAny)
	if !reflect.DeepEqual(zAny, cAny) {
		t.Errorf(".zcode-plugin/plugin.json and .claude-plugin/plugin.json differ; keep them equal")
	}

	var m pluginManifest
	kit.ReadJSON(t, zp, &m)
	if m.Name != pluginName || !nameRE.MatchString(m.Name) {
		t.Errorf("name %q", m.Name)
	}
	if strings.TrimSpace(m.Description) == "" {
		t.Error("description is empty")
	}
	checkI18n(t, "plugin.json", m.DescriptionI18n, m.Description)
	if len(m.Hooks) != 0 {
		// hooks/hooks.json is found by both hosts; naming it again in the
		// manifest makes it a duplicate.
		t.Errorf("plugin.json declares hooks %s; leave hooks to hooks/hooks.json", m.Hooks)
	}

	// userConfig is exactly what the settings declarations render (keys in
	// schema order, title, description, type, default, sensitive, min/max):
	// go generate ./plugins writes it.
	var want bytes.Buffer
	if err := json.Compact(&want, plugins.Schema.UserConfig()); err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(zData, &top); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := json.Compact(&got, top["userConfig"]); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("userConfig differs from the settings declarations (plugins.Schema); run go generate ./plugins\n got %s\nwant %s", got.String(), want.String())
	}
	if keys := userConfigOrder(t, zData); len(keys) != len(plugins.Schema.Specs()) {
		t.Errorf("userConfig has %d keys, the schema %d", len(keys), len(plugins.Schema.Specs()))
	}

	for _, s := range plugins.Schema.Specs() {
		opt, ok := m.UserConfig[s.Key]
		if !ok {
			continue // reported above
		}
		for field := range opt {
			if !slices.Contains(optionFields, field) {
				t.Errorf("%s: field %q is not a userConfig option field", s.Key, field)
			}
		}
		if strings.TrimSpace(s.Title) == "" || strings.TrimSpace(s.Description) == "" {
			t.Errorf("%s: needs title and description", s.Key)
		}
	}
	for _, k := range []string{decisionmodel.KeyAPIKey, decisionmodel.KeyHeaders} {
		var sensitive bool
		json.Unmarshal(m.UserConfig[k]["sensitive"], &sensitive)
		if !sensitive {
			t.Errorf("%s must be sensitive", k)
		}
	}
}

// userConfigOrder lists the userConfig keys in document order.
func userConfigOrder(t *testing.T, data []byte) []string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(top["userConfig"]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("userConfig is not an object")
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestHooksFileCommonForm keeps hooks/hooks.json in the one form both hosts
// load: Claude Code rejects a whole plugin over ZCode's "process" type, and
// ZCode reads timeout as seconds like Claude Code does.
func TestHooksFileCommonForm(t *testing.T) {
	path := filepath.Join(bundleDir(t), "hooks", "hooks.json")
	var doc map[string]json.RawMessage
	kit.ReadJSON(t, path, &doc)
	if keys := keysOf(doc); !slices.Equal(keys, []string{"hooks"}) {
		t.Fatalf("top-level keys %v, want [hooks]", keys)
	}
	var events map[string][]map[string]json.RawMessage
	if err := json.Unmarshal(doc["hooks"], &events); err != nil {
		t.Fatalf("hooks: %v", err)
	}
	if keys := keysOf(events); !slices.Equal(keys, []string{"PreToolUse"}) {
		t.Fatalf("events %v, want [PreToolUse]", keys)
	}
	groups := events["PreToolUse"]
	if len(groups) != 1 {
		t.Fatalf("%d PreToolUse groups, want 1", len(groups))
	}
	if keys := keysOf(groups[0]); !slices.Equal(keys, []string{"hooks", "matcher"}) {
		t.Errorf("group keys %v, want [hooks matcher]", keys)
	}
	var matcher string
	json.Unmarshal(groups[0]["matcher"], &matcher)
	if want := hookMatcher(t); matcher != want {
		t.Errorf("matcher %q, want %q", matcher, want)
	}
	var hooks []map[string]json.RawMessage
	if err := json.Unmarshal(groups[0]["hooks"], &hooks); err != nil || len(hooks) != 1 {
		t.Fatalf("want one hook, got %s", groups[0]["hooks"])
	}
	h := hooks[0]
	if keys := keysOf(h); !slices.Equal(keys, []string{"command", "timeout", "type"}) {
		t.Errorf("hook keys %v, want [command timeout type] (no timeoutMs, args or shell)", keys)
	}
	var typ, command string
	var timeout float64
	json.Unmarshal(h["type"], &typ)
	json.Unmarshal(h["command"], &command)
	if err := json.Unmarshal(h["timeout"], &timeout); err != nil {
		t.Errorf("timeout %s is not a number", h["timeout"])
	}
	if typ != "command" {
		t.Errorf("type %q, want command", typ)
	}
	// Seconds, and room for the binary's 4.5 s budget.
	if timeout != float64(int(timeout)) || timeout < 5 || timeout > 60 {
		t.Errorf("timeout %v: want whole seconds between 5 and 60", timeout)
	}
	const want = `"${CLAUDE_PLUGIN_ROOT}/libexec/zcode-fence"`
	if command != want {
		t.Errorf("command %q, want %q (quoted, so a root with spaces works; libexec, not bin, which Claude Code puts on the agent's PATH)", command, want)
	}
	launcher := filepath.Join(bundleDir(t), "libexec", "zcode-fence")
	if st, err := os.Stat(launcher); err != nil || st.Mode().Perm()&0o111 == 0 {
		t.Errorf("the command's target %s is missing or not executable (%v)", launcher, err)
	}
}

func TestBundleFiles(t *testing.T) {
	b := bundleDir(t)
	skill, err := os.ReadFile(filepath.Join(b, "skills", "zcode-fence", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	front := regexp.MustCompile(`(?s)\A---\n(.*?)\n---\n`).FindSubmatch(skill)
	if front == nil {
		t.Fatal("SKILL.md has no front matter")
	}
	if !regexp.MustCompile(`(?m)^name: zcode-fence$`).Match(front[1]) ||
		!regexp.MustCompile(`(?m)^description: \S`).Match(front[1]) {
		t.Errorf("SKILL.md front matter needs name: zcode-fence and a description:\n%s", front[1])
	}
	for _, must := range []string{"[zcode-fence", "retry", "temp"} {
		if !strings.Contains(string(skill), must) {
			t.Errorf("SKILL.md does not mention %q", must)
		}
	}
	for _, readme := range []string{"README.md", "README.zh-CN.md"} {
		data, err := os.ReadFile(filepath.Join(b, readme))
		if err != nil {
			t.Error(err)
			continue
		}
		text := string(data)
		for _, s := range plugins.Schema.Specs() {
			if !strings.Contains(text, "`"+s.Key+"`") {
				t.Errorf("%s does not document option %s", readme, s.Key)
			}
		}
		for _, must := range []string{"echo x > ~/fence-test.txt", "go run ./tools/bundle", "claude plugin install " + pluginID} {
			if !strings.Contains(text, must) {
				t.Errorf("%s does not say %q", readme, must)
			}
		}
	}

	// ZCode's marketplace refuses symlinks; the launchers keep their line ends.
	filepath.WalkDir(b, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeSymlink != 0 {
			t.Errorf("%s is a symlink", path)
		}
		return nil
	})
	sh, err := os.ReadFile(filepath.Join(b, "libexec", "zcode-fence"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(sh, []byte("#!/bin/sh\n")) || bytes.Contains(sh, []byte("\r")) {
		t.Error("libexec/zcode-fence must start with #!/bin/sh and use LF line ends")
	}
	cmd, err := os.ReadFile(filepath.Join(b, "libexec", "zcode-fence.cmd"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(cmd, []byte("\n")) != bytes.Count(cmd, []byte("\r\n")) {
		t.Error("libexec/zcode-fence.cmd must use CRLF line ends")
	}
}

// TestBuiltBinariesAreIgnored checks .gitignore keeps every binary the build
// script writes out of commits.
func TestBuiltBinariesAreIgnored(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed; cannot ask it what .gitignore ignores")
	}
	root := kit.RepoRoot(t)
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("not a git checkout")
	}
	for _, osName := range []string{"linux", "darwin", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			name := "zcode-fence-" + osName + "-" + arch
			if osName == "windows" {
				name += ".exe"
			}
			rel := "bundle/zcode-fence/libexec/" + name
			cmd := exec.Command(git, "check-ignore", "-q", "--no-index", rel)
			cmd.Dir = root
			if err := cmd.Run(); err != nil {
				t.Errorf("%s is not ignored by .gitignore (git check-ignore: %v)", rel, err)
			}
		}
	}
	for _, rel := range []string{"bundle/zcode-fence/libexec/zcode-fence", "bundle/zcode-fence/libexec/zcode-fence.cmd"} {
		cmd := exec.Command(git, "check-ignore", "-q", "--no-index", rel)
		cmd.Dir = root
		if cmd.Run() == nil {
			t.Errorf("%s is ignored, but the launcher must be committed", rel)
		}
	}
}

// TestHooksFilesGenerated keeps one hooks file per host format, each equal
// to what core/agenthost generates from the adapters that read it (tool
// names, event, command, timeout in that host's unit), so a file cannot
// drift from the hosts' tables: go generate ./core/agenthost rewrites them.
func TestHooksFilesGenerated(t *testing.T) {
	files := setup.HooksFiles()
	if len(files) < 2 {
		t.Fatalf("%d hooks files, want the Claude form and Gemini's", len(files))
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(kit.RepoRoot(t), filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("%s (read by %v): %v", f.Path, f.Hosts, err)
			continue
		}
		if !bytes.Equal(got, f.Data) {
			t.Errorf("%s (read by %v) differs from core/agenthost's; run go generate ./core/agenthost\ngot:\n%s\nwant:\n%s", f.Path, f.Hosts, got, f.Data)
		}
	}
}
