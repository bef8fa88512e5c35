package setup

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// Installs lists every host's Install, in adapter order, with its adapter.
func Installs() []HostInstall {
	var out []HostInstall
	for _, a := range agenthost.Adapters() {
		out = append(out, HostInstall{Adapter: a, Install: a.Install()})
	}
	return out
}

// HostInstall pairs an adapter with its Install.
type HostInstall struct {
	Adapter agenthost.Adapter
	agenthost.Install
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
func FindPlugins(in agenthost.Install, dir string) []InstalledPlugin {
	var out []InstalledPlugin
	for _, g := range in.Plugins {
		matches, _ := filepath.Glob(filepath.Join(dir, filepath.FromSlash(g)))
		for _, m := range matches {
			if st, err := os.Stat(m); err != nil || !st.IsDir() {
				continue
			}
			root := m
			if src := linkSource(in, m); src != "" {
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
		out = append(out, directoryPlugins(in, dir)...)
	}
	return append(out, jsPlugins(in, dir)...)
}

// linkSource is the directory a linked extension at dir is loaded from,
// "" when it is a copy.
func linkSource(in agenthost.Install, dir string) string {
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
func directoryPlugins(in agenthost.Install, dir string) []InstalledPlugin {
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

// HooksFileOf is the hooks file of an installed root.
func HooksFileOf(root string) string { return filepath.Join(root, "hooks", "hooks.json") }

// ResolveCommand substitutes the plugin root into a hook command written
// in the host's variable syntax (Packaging.RootVar, Packaging.SepVar).
func ResolveCommand(p agenthost.Packaging, command, root string) string {
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
func jsPlugins(in agenthost.Install, dir string) []InstalledPlugin {
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
