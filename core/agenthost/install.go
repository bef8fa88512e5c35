package agenthost

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// Install is where one host keeps its user configuration and how
// zcode-fence gets hooked into it: the facts `zcode-fence doctor` checks
// (measured with each host's CLI in a fake home: the plugin or extension
// installed the way README says, then disabled, to see what changes).
// Paths are "/"-separated and relative to the host's config dir (ConfigDir).
type Install struct {
	// Label is the host's name for people ("Claude Code").
	Label string
	// Dir is the host's user config dir, relative to home (".claude").
	Dir string
	// DirEnv names a variable whose value replaces the whole config dir
	// (CLAUDE_CONFIG_DIR, CODEX_HOME, QWEN_HOME, COPILOT_HOME); "" for none.
	DirEnv string
	// HomeEnv names a variable whose value replaces home when the config
	// dir is found (Gemini CLI's GEMINI_CLI_HOME); "" for none.
	HomeEnv string
	// ConfigHomeEnv names a variable whose value replaces home's .config
	// (XDG_CONFIG_HOME: Dir then starts with ".config/"); "" for none.
	ConfigHomeEnv string
	// PluginFile is the bundle's JS plugin (or extension) such a host
	// loads, relative to the plugin (PluginDir): "opencode/zcode-fence.js".
	PluginFile string
	// JSPlugins are globs, in the config dir, of the files a host that
	// loads JS plugins runs at start (opencode's plugins/*): a link there
	// to PluginFile installs it.
	JSPlugins []string
	// PluginLists are the config files whose PluginListKey array can name
	// PluginFile (as a path or file:// URL) or the folder that holds it
	// (Pi's packages); a dotted key names nested objects (OpenClaw's
	// plugins.load.paths).
	PluginLists   []string
	PluginListKey string
	// HookScripts are globs, in the config dir, of hook files that are
	// small scripts exec'ing PluginFile by its absolute path (Cline runs
	// no linked hook file): the path on their exec line installs it.
	HookScripts []string
	// Plugins are globs of the installed plugin's (or extension's) roots.
	Plugins []string
	// MarketSegment is the index, in a Plugins glob split at "/", of the
	// segment that names the marketplace; -1 when the path does not say.
	MarketSegment int
	// MarketHashed: the marketplace segment ends in "-" and 12 hex digits
	// the host appends (Factory Droid); they are not part of its name.
	MarketHashed bool
	// LinkFile is the install record in an installed extension's dir;
	// when its "type" is "link" the extension is loaded in place from its
	// "source" (`gemini extensions link`). "" for hosts without links.
	LinkFile string
	// DirectoryMarkets: the host loads a plugin from a directory
	// marketplace in place, without a copy: EnableFile's
	// extraKnownMarketplaces names the directory (Copilot CLI).
	DirectoryMarkets bool
	// PluginBelow is where the plugin itself (libexec/, the launcher)
	// lies below an installed root: "" for a copy of the Claude plugin,
	// "zcode-fence" for the Gemini extension that contains it.
	PluginBelow string
	// Enable is how an installed plugin is switched on or off.
	Enable Enablement
	// EnableFile is the file that records it.
	EnableFile string
	// HookFiles are the user files where hooks can be registered by
	// hand, besides the plugin's own hooks file.
	HookFiles []HookFile
	// Events are the hook events the guard may run on in this host (the
	// plugin's Packaging.Event first).
	Events []string
	// Timeout is how the host reads a hook's timeout.
	Timeout TimeoutRule
	// HooksOff is a setting that switches every hook off, "" for none:
	// a dotted key in the file HooksOffFile, off when it has the value
	// HooksOffValue.
	HooksOff, HooksOffFile, HooksOffValue string
	// CannotAsk: the host rejects an ask and runs the call (Codex); the
	// guard answers with no_ask_fallback there (FallbackDeny by default).
	CannotAsk bool
	// HeadlessAskHangs: a headless run hangs on an ask (Gemini CLI); the
	// guard answers with no_ask_fallback there.
	HeadlessAskHangs bool
	// TrustTable is the dotted table prefix of the host's record of hooks
	// the user reviewed (Codex skips an unreviewed hook silently); "" when
	// the host runs hooks without review.
	TrustTable, TrustFile string
	// InstallHow is how a person installs the plugin in this host (the
	// fix doctor prints when it is missing).
	InstallHow string
	// Credentials are the host's own auth files, relative to Dir (or to
	// DirEnv's dir): its login tokens. core/secrets guards them as
	// credential stores.
	Credentials []string
}

// Enablement is how a host records that an installed plugin is on.
type Enablement uint8

const (
	// EnabledPlugins: a JSON object "enabledPlugins" maps
	// "zcode-fence@<market>" to true (Claude Code, ZCode, Copilot CLI).
	EnabledPlugins Enablement = iota
	// CodexPlugins: config.toml has [plugins."zcode-fence@<market>"]
	// with enabled = true.
	CodexPlugins
	// ExtensionOverrides: extension-enablement.json maps the extension's
	// name to {"overrides": [...]}, path globs ("<dir>/*"), a leading "!"
	// meaning disabled there, the last match winning; no entry means
	// enabled (Gemini CLI, Qwen Code).
	ExtensionOverrides
	// PluginPresent: an installed plugin is on; the host has no switch
	// but removing it (opencode's JS plugins).
	PluginPresent
)

// HookFormat is the shape of a file holding hooks.
type HookFormat uint8

const (
	// HooksJSON: {"hooks": {"<Event>": [{"matcher": "...", "hooks":
	// [{"type": "command", "command": "...", "timeout": N}]}]}}; an
	// event's element may also be a hook itself (Copilot CLI's own form,
	// {"type": "command", "bash": "...", "timeoutSec": N}), for every tool.
	HooksJSON HookFormat = iota
	// HooksTOML: Codex's config.toml, [[hooks.PreToolUse]] with matcher,
	// then [[hooks.PreToolUse.hooks]] with type, command and timeout.
	HooksTOML
)

// HookFile is one user file that can register hooks.
type HookFile struct {
	Rel    string
	Format HookFormat
}

// TimeoutRule is how a host reads a hook's timeout fields.
type TimeoutRule struct {
	// Fields are the keys, in the order the host prefers them, each with
	// its unit.
	Fields []TimeoutField
	// Default applies when no field is set.
	Default time.Duration
	// MsFrom: a seconds value at least this big is read as milliseconds
	// (Qwen Code reads 1000 and above so); 0 for never.
	MsFrom int64
}

// TimeoutField is one timeout key and its unit.
type TimeoutField struct {
	Key  string
	Unit time.Duration
}

// claudeTimeout: "timeout" in seconds, 60 s by default (Claude Code, and
// the hosts that load Claude plugins unchanged).
var claudeTimeout = TimeoutRule{Fields: []TimeoutField{{"timeout", time.Second}}, Default: 60 * time.Second}

// Installs lists every host's Install, in adapter order, with its adapter.
func Installs() []HostInstall {
	var out []HostInstall
	for _, a := range Adapters() {
		out = append(out, HostInstall{Adapter: a, Install: a.Install()})
	}
	return out
}

// HostInstall pairs an adapter with its Install.
type HostInstall struct {
	Adapter Adapter
	Install
}

// ConfigDir is the host's user config dir for this home and environment.
func (in Install) ConfigDir(home string, env Lookup) string {
	if v := lookupEnv(env, in.DirEnv); in.DirEnv != "" && v != "" {
		return v
	}
	if v := lookupEnv(env, in.HomeEnv); in.HomeEnv != "" && v != "" {
		home = v
	}
	if v := lookupEnv(env, in.ConfigHomeEnv); in.ConfigHomeEnv != "" && v != "" {
		if rest, ok := strings.CutPrefix(in.Dir, ".config/"); ok {
			return filepath.Join(v, filepath.FromSlash(rest))
		}
	}
	return filepath.Join(home, filepath.FromSlash(in.Dir))
}

// InstalledPlugin is one installed copy of the plugin.
type InstalledPlugin struct {
	// Root is the installed root (the hooks file is Root/hooks/hooks.json);
	// Plugin is the plugin inside it (Root/PluginBelow).
	Root, Plugin string
	// Market is the marketplace it came from, "" when the path does not
	// say (an extension).
	Market string
	// Installed is the dir the host installed it as (an extension's
	// name is its base name); Root differs for a linked extension.
	Installed string
}

// FindPlugins lists the plugin's installed copies under the config dir.
// Cost: one glob per pattern.
func (in Install) FindPlugins(dir string) []InstalledPlugin {
	var out []InstalledPlugin
	for _, g := range in.Plugins {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(g)))
		for _, m := range matches {
			if st, err := os.Stat(m); err != nil || !st.IsDir() {
				continue
			}
			root := m
			if src := in.linkSource(m); src != "" {
				root = src
			}
			p := InstalledPlugin{Root: root, Plugin: filepath.Join(root, filepath.FromSlash(in.PluginBelow)), Installed: m}
			if in.MarketSegment >= 0 {
				rel, _ := filepath.Rel(dir, m)
				if segs := strings.Split(filepath.ToSlash(rel), "/"); in.MarketSegment < len(segs) {
					p.Market = segs[in.MarketSegment]
					if in.MarketHashed {
						p.Market = trimHash(p.Market)
					}
				}
			}
			out = append(out, p)
		}
	}
	if in.DirectoryMarkets {
		out = append(out, in.directoryPlugins(dir)...)
	}
	return append(out, in.jsPlugins(dir)...)
}

// linkSource is the directory a linked extension at dir is loaded from,
// "" when it is a copy.
func (in Install) linkSource(dir string) string {
	if in.LinkFile == "" {
		return ""
	}
	data, err := readSmall(filepath.Join(dir, in.LinkFile))
	if err != nil {
		return ""
	}
	var rec struct {
		Type   string `json:"type"`
		Source string `json:"source"`
	}
	if json.Unmarshal(data, &rec) != nil || rec.Type != "link" {
		return ""
	}
	return rec.Source
}

// directoryPlugins finds the plugin in the directory marketplaces the
// host's EnableFile lists (extraKnownMarketplaces.<market>.source
// {"source": "directory", "path": ...}): the plugin entry's relative
// source in the marketplace's marketplace.json.
func (in Install) directoryPlugins(dir string) []InstalledPlugin {
	data, err := readSmall(filepath.Join(dir, filepath.FromSlash(in.EnableFile)))
	if err != nil {
		return nil
	}
	var doc struct {
		Markets map[string]struct {
			Source struct {
				Source string `json:"source"`
				Path   string `json:"path"`
			} `json:"source"`
		} `json:"extraKnownMarketplaces"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []InstalledPlugin
	for market, m := range doc.Markets {
		if m.Source.Source != "directory" || m.Source.Path == "" {
			continue
		}
		for _, manifest := range MarketplaceFiles {
			data, err := readSmall(filepath.Join(m.Source.Path, filepath.FromSlash(manifest)))
			if err != nil {
				continue
			}
			var mk struct {
				Plugins []struct {
					Name   string `json:"name"`
					Source any    `json:"source"`
				} `json:"plugins"`
			}
			if json.Unmarshal(data, &mk) != nil {
				continue
			}
			for _, p := range mk.Plugins {
				if src, ok := p.Source.(string); ok && p.Name == core.PluginName {
					root := filepath.Join(m.Source.Path, filepath.FromSlash(src))
					out = append(out, InstalledPlugin{Root: root, Plugin: root, Market: market, Installed: root})
				}
			}
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Root < out[j].Root })
	return out
}

// MarketplaceFiles are the marketplace manifests at the root of a
// marketplace (this repository, the published tree): ZCode's, then Claude
// Code's, which Codex, Copilot CLI and Qwen Code read. tools/bundle checks
// that both name the same plugin source.
var MarketplaceFiles = []string{"marketplace.json", ".claude-plugin/marketplace.json"}

// PluginData is where ZCode and Claude Code keep plugins' data dirs
// (the guard's log and state), below their config dir.
const PluginData = "plugins/data"

// HooksFileOf is the hooks file of an installed root.
func HooksFileOf(root string) string { return filepath.Join(root, "hooks", "hooks.json") }

// ResolveCommand substitutes the plugin root into a hook command written
// in the host's variable syntax (Packaging.RootVar, Packaging.SepVar).
func (p Packaging) ResolveCommand(command, root string) string {
	if p.SepVar != "" {
		command = strings.ReplaceAll(command, p.SepVar, string(filepath.Separator))
	}
	return strings.ReplaceAll(command, p.RootVar, root)
}

// jsPlugins finds the bundle's JS plugin where a host that loads JS
// plugins runs it: a file (or a link to one) named as PluginFile among
// JSPlugins, or an entry of a PluginLists config's PluginListKey array
// naming it (a path or file:// URL) or the folder that holds it. Each is
// reported at the plugin it belongs to (PluginFile's folders up from the
// file's real path). Cost: one glob per pattern, one small read per list
// file.
func (in Install) jsPlugins(dir string) []InstalledPlugin {
	if in.PluginFile == "" {
		return nil
	}
	name := path.Base(in.PluginFile)
	var files []string
	installed := map[string]string{} // a script's target → the script
	for _, g := range in.JSPlugins {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(g)))
		for _, m := range matches {
			if filepath.Base(m) == name {
				files = append(files, m)
			}
		}
	}
	for _, g := range in.HookScripts {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(g)))
		for _, m := range matches {
			if target := execTarget(m); filepath.Base(target) == name {
				files = append(files, target)
				installed[target] = m
			}
		}
	}
	for _, l := range in.PluginLists {
		data, err := readSmall(filepath.Join(dir, filepath.FromSlash(l)))
		if err != nil {
			continue
		}
		list, ok := jsonList(data, in.PluginListKey)
		if !ok {
			continue
		}
		for _, v := range list {
			entry, _ := v.(string)
			entry = filepath.FromSlash(strings.TrimPrefix(entry, "file://"))
			if !filepath.IsAbs(entry) {
				continue
			}
			if filepath.Base(entry) != name {
				entry = filepath.Join(entry, name) // the folder that holds it
				if _, err := os.Stat(entry); err != nil {
					continue
				}
			}
			files = append(files, entry)
		}
	}
	up := strings.Count(in.PluginFile, "/") + 1
	var out []InstalledPlugin
	for _, f := range files {
		root := f
		if r, err := filepath.EvalSymlinks(f); err == nil {
			root = r
		}
		for i := 0; i < up; i++ {
			root = filepath.Dir(root)
		}
		at := f
		if s, ok := installed[f]; ok {
			at = s
		}
		out = append(out, InstalledPlugin{Root: root, Plugin: root, Installed: at})
	}
	return out
}

// jsonList is the array at a dotted key ("plugins.load.paths": nested
// objects) of a JSON document; false when the document or a step is not
// there or not of that shape.
func jsonList(data []byte, key string) ([]any, bool) {
	raw := json.RawMessage(data)
	for _, k := range strings.Split(key, ".") {
		var doc map[string]json.RawMessage
		if json.Unmarshal(raw, &doc) != nil {
			return nil, false
		}
		raw = doc[k]
	}
	var list []any
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	return list, true
}

// execTarget is the absolute path a small hook script execs: the first
// word, single- or double-quoted or bare, after "exec " on one of its lines;
// "" when there is none.
func execTarget(file string) string {
	data, err := readSmall(file)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "exec ")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		var word string
		if q := rest[:1]; q == "'" || q == `"` {
			end := strings.Index(rest[1:], q)
			if end < 0 {
				continue
			}
			word = rest[1 : 1+end]
		} else {
			word, _, _ = strings.Cut(rest, " ")
		}
		if filepath.IsAbs(word) {
			return word
		}
	}
	return ""
}

// trimHash drops a trailing "-" and 12 hex digits from a name.
func trimHash(name string) string {
	i := len(name) - 13
	if i < 1 || name[i] != '-' {
		return name
	}
	for _, c := range name[i+1:] {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return name
		}
	}
	return name[:i]
}
