package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// Readers of the hosts' files, for zcode-fence doctor: the hooks a file
// registers, whether an installed plugin is switched on, and single
// settings. Each reads one small file per call; none writes.

// maxHostFile bounds a host file read (settings files are a few KB).
const maxHostFile = 4 << 20

// HookEntry is one command hook a host file registers.
type HookEntry struct {
	// File is where it is registered.
	File string
	// Event is the hook event it runs on; Matcher the tool-name pattern
	// ("" or "*": every tool).
	Event, Matcher string
	// Command is the command as written (host variables unexpanded).
	Command string
	// Timeout is what the host allows it: its own field, else the host's
	// default (TimeoutSet false).
	Timeout    time.Duration
	TimeoutSet bool
}

// ReadHooks returns the command hooks file registers for the host's
// Events (in.Events); a missing file is (nil, nil), a file that does not parse an
// error naming it.
func ReadHooks(in agenthost.Install, file string, format agenthost.HookFormat) ([]HookEntry, error) {
	data, err := readSmall(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if format == agenthost.HooksTOML {
		return tomlHooks(in, file, data)
	}
	var doc struct {
		Hooks map[string][]map[string]any `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s does not parse: %v", file, err)
	}
	var out []HookEntry
	for _, event := range in.Events {
		for _, group := range doc.Hooks[event] {
			matcher, _ := group["matcher"].(string)
			hooks, isGroup := group["hooks"].([]any)
			if !isGroup { // a hook itself (Copilot's form): every tool
				hooks = []any{group}
			}
			for _, h := range hooks {
				hm, _ := h.(map[string]any)
				if e, ok := entry(in, file, event, matcher, hm); ok {
					out = append(out, e)
				}
			}
		}
	}
	return out, nil
}

// entry turns one decoded hook object into a HookEntry (false: not a
// command hook).
func entry(in agenthost.Install, file, event, matcher string, h map[string]any) (HookEntry, bool) {
	if t, _ := h["type"].(string); t != "" && t != "command" && t != "process" {
		return HookEntry{}, false
	}
	cmd, _ := h["command"].(string)
	if cmd == "" {
		cmd, _ = h["bash"].(string)
	}
	if cmd == "" {
		return HookEntry{}, false
	}
	e := HookEntry{File: file, Event: event, Matcher: matcher, Command: cmd, Timeout: in.Timeout.Default}
	for _, f := range in.Timeout.Fields {
		n, ok := number(h[f.Key])
		if !ok {
			continue
		}
		unit := f.Unit
		if in.Timeout.MsFrom > 0 && unit == time.Second && n >= in.Timeout.MsFrom {
			unit = time.Millisecond
		}
		e.Timeout, e.TimeoutSet = time.Duration(n)*unit, true
		break
	}
	return e, true
}

// number reads a JSON number or a TOML integer kept as a string.
func number(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		return int64(n), true
	case string:
		i, err := strconv.ParseInt(n, 10, 64)
		return i, err == nil
	}
	return 0, false
}

// tomlHooks reads Codex's [[hooks.<Event>]] tables and the
// [[hooks.<Event>.hooks]] tables that follow each.
func tomlHooks(in agenthost.Install, file string, data []byte) ([]HookEntry, error) {
	tables, err := parseTOML(data)
	if err != nil {
		return nil, fmt.Errorf("%s does not parse: %v", file, err)
	}
	var out []HookEntry
	for _, event := range in.Events {
		matcher := ""
		for _, t := range tables {
			switch t.name {
			case "hooks." + event:
				matcher = t.values["matcher"]
			case "hooks." + event + ".hooks":
				h := map[string]any{}
				for k, v := range t.values {
					h[k] = v
				}
				if e, ok := entry(in, file, event, matcher, h); ok {
					out = append(out, e)
				}
			}
		}
	}
	return out, nil
}

// PluginID is the plugin's id in a marketplace: zcode-fence@<market>.
func PluginID(market string) string { return core.PluginName + "@" + market }

// Enabled reports whether the installed plugin p is switched on in the
// host whose config dir is dir, for a session in cwd, and otherwise why
// not (a sentence naming the file).
func Enabled(in agenthost.Install, dir string, p InstalledPlugin, cwd string) (bool, string) {
	if in.Enable == agenthost.PluginPresent {
		return true, ""
	}
	file := filepath.Join(dir, filepath.FromSlash(in.EnableFile))
	data, err := readSmall(file)
	switch {
	case errors.Is(err, os.ErrNotExist) && in.Enable == agenthost.ExtensionOverrides:
		return true, "" // no record: enabled
	case err != nil:
		return false, "no " + file + " to enable it in"
	}
	switch in.Enable {
	case agenthost.CodexPlugins:
		tables, err := parseTOML(data)
		if err != nil {
			return false, file + " does not parse: " + err.Error()
		}
		id := PluginID(p.Market)
		for _, t := range tables {
			if t.name == "plugins."+id {
				if t.values["enabled"] == "false" {
					return false, id + " is disabled in " + file
				}
				return true, ""
			}
		}
		return false, "[plugins.\"" + id + "\"] is not in " + file
	case agenthost.ExtensionOverrides:
		var doc map[string]struct {
			Overrides []string `json:"overrides"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return false, file + " does not parse: " + err.Error()
		}
		name := filepath.Base(p.Installed)
		on := true
		for _, o := range doc[name].Overrides {
			neg := strings.HasPrefix(o, "!")
			if overrideMatches(strings.TrimPrefix(o, "!"), cwd) {
				on = !neg
			}
		}
		if !on {
			return false, "extension " + name + " is disabled for " + cwd + " in " + file
		}
		return true, ""
	default:
		var doc struct {
			Enabled map[string]bool `json:"enabledPlugins"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return false, file + " does not parse: " + err.Error()
		}
		id := PluginID(p.Market)
		enabled, listed := doc.Enabled[id]
		switch {
		case !listed:
			return false, id + " is not in enabledPlugins of " + file
		case !enabled:
			return false, id + " is disabled in " + file
		}
		return true, ""
	}
}

// overrideMatches: an extension-enablement pattern is a directory, "/*"
// meaning it and everything below.
func overrideMatches(pattern, dir string) bool {
	if base, ok := strings.CutSuffix(pattern, "/*"); ok {
		return dir == base || strings.HasPrefix(dir, strings.TrimSuffix(base, "/")+"/")
	}
	return dir == pattern
}

// HooksSwitchedOff reports whether the host's HooksOff setting is set
// to its off value in the config dir, with the file it is in.
func HooksSwitchedOff(in agenthost.Install, dir string) (bool, string) {
	if in.HooksOff == "" {
		return false, ""
	}
	file := filepath.Join(dir, filepath.FromSlash(in.HooksOffFile))
	keys, err := readKeys(file)
	if err != nil {
		return false, ""
	}
	return keys[in.HooksOff] == in.HooksOffValue, file
}

// Trusted reports whether the host's record of reviewed hooks (Codex's
// [hooks.state."<key>"] with trusted_hash) has an entry for a hook of
// zcode-fence. The record can be stale (the hook changed since, and the
// host wants a new review): telling that needs the host's own hash of
// the hook, which doctor does not compute. known is false when the host
// keeps no such record or its file cannot be read.
func Trusted(in agenthost.Install, dir string) (trusted, known bool) {
	if in.TrustTable == "" {
		return false, false
	}
	data, err := readSmall(filepath.Join(dir, filepath.FromSlash(in.TrustFile)))
	if err != nil { // no file: no record, so not trusted
		return false, errors.Is(err, os.ErrNotExist)
	}
	tables, err := parseTOML(data)
	if err != nil {
		return false, false
	}
	for _, t := range tables {
		if strings.HasPrefix(t.name, in.TrustTable+".") && strings.Contains(t.name, core.PluginName) && t.values["trusted_hash"] != "" {
			return true, true
		}
	}
	return false, true
}

// MatcherMisses lists the names in tools that a hook matcher does not
// match. Matchers are regular expressions over the whole tool name, ""
// and "*" matching every tool (Claude Code's rule, which the other hosts
// follow); one that does not compile is read as "|"-separated names.
func MatcherMisses(matcher string, tools []string) []string {
	if matcher == "" || matcher == "*" {
		return nil
	}
	match := func(name string) bool {
		for _, alt := range strings.Split(matcher, "|") {
			if strings.TrimSpace(alt) == name {
				return true
			}
		}
		return false
	}
	if re, err := regexp.Compile("^(?:" + matcher + ")$"); err == nil {
		match = re.MatchString
	}
	var miss []string
	for _, t := range tools {
		if !match(t) {
			miss = append(miss, t)
		}
	}
	return miss
}

// GuardedToolNames lists the tool names of a that the guard judges as
// shell, file or read calls, as the host sends them: what a hook matcher
// must cover.
func GuardedToolNames(a agenthost.Adapter) []string {
	var out []string
	for _, n := range a.ToolNames() {
		if t, ok := a.Tool(n); ok && t.Kind != core.KindOther {
			out = append(out, n)
		}
	}
	return out
}

func readSmall(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHostFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxHostFile {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, maxHostFile)
	}
	return data, nil
}

// readKeys flattens a JSON or TOML (by extension) file into dotted keys
// and their scalar values as text.
func readKeys(path string) (map[string]string, error) {
	data, err := readSmall(path)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if strings.HasSuffix(path, ".toml") {
		tables, err := parseTOML(data)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			for k, v := range t.values {
				if t.name != "" {
					k = t.name + "." + k
				}
				out[k] = v
			}
		}
		return out, nil
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			switch x := v.(type) {
			case map[string]any:
				walk(prefix+k+".", x)
			case string:
				out[prefix+k] = x
			case bool, float64:
				out[prefix+k] = fmt.Sprint(x)
			}
		}
	}
	walk("", doc)
	return out, nil
}
