// Package config loads zcode-fence's settings. It is read afresh on every
// call (a hook process lives for one tool call), from, later wins:
//
//  1. built-in defaults;
//  2. the host-neutral config file, for hosts without plugin options
//     (Gemini CLI, Qwen Code, Copilot CLI, Codex):
//     $XDG_CONFIG_HOME/zcode-fence/config.json (default
//     ~/.config/zcode-fence/config.json), a flat JSON object of the keys below;
//  3. the ZCode config file (~/.zcode/cli/config.json, or ZCODE_FENCE_CONFIG),
//     object plugins.options["zcode-fence@<market>"] (or bare "zcode-fence");
//     then, only when no host started the process (a person running
//     --eval, explain, log or doctor), the options Claude Code stored with
//     `claude plugin configure` (settings.json pluginConfigs, claude_options.go);
//  4. the agent hosts' plugin-option variables (Claude Code's
//     CLAUDE_PLUGIN_OPTION_<KEY>, and ZCODE_PLUGIN_OPTION_<KEY> should a
//     ZCode build export them; the list is agenthost.OptionEnvPrefixes);
//  5. explicit overrides ZCODE_FENCE_<KEY> (for example
//     ZCODE_FENCE_ENABLE_FENCE=false, ZCODE_FENCE_DECISION_MODEL_API_KEY).
//
// A bad value never fails: it falls back to the default and leaves a note
// that the decision log records. Loading costs a stat of each config file
// and one read of each that exists.
//
// Settings are declared where they are read: the host's own in HostSpecs,
// each built-in layer's in its package (a Switch and its Settings). This
// package holds only the host's declarations and the machinery: a Schema
// joins the declarations, and the loader (Schema.Load), the plugin
// manifests' userConfig (Schema.UserConfig) and the environment scrub list
// for third-party layers (Schema.SensitiveEnv) are derived from it.
//
// Adding a setting: declare one Spec where it is read (HostSettings here,
// or the layer's Settings; a built-in layer receives its declared
// settings' values as Call.Options), run `go generate ./plugins` to write
// it into both plugin manifests, and add its row to the option tables of
// README.md and the bundle's READMEs (e2e checks the manifests and the
// bundle READMEs against the schema).
package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
)

// Env is the environment the loader reads. Lookup returns a variable's
// value; Home is the user's home directory.
type Env struct {
	Lookup func(string) (string, bool)
	Home   string
	// Ignored are notes on the guard settings hidden from Lookup because
	// a project env file set them (WithoutPlanted); Load adds them to the
	// configuration's notes.
	Ignored []string
}

// OSEnv is the process environment, with home resolved as ZCODE_FENCE_HOME,
// then HOME, then USERPROFILE, then the OS's idea of home; without the
// guard settings a project env file put there (WithoutPlanted, searched
// from the working directory and the hosts' project dirs).
func OSEnv() Env {
	env := Env{Lookup: os.LookupEnv, Home: HomeDir(os.LookupEnv)}
	names := make([]string, 0, 64)
	for _, kv := range os.Environ() {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			names = append(names, k)
		}
	}
	env, env.Ignored = WithoutPlanted(env, names, plantedStarts(os.LookupEnv))
	return env
}

// HomeDir resolves the home directory from an environment.
func HomeDir(lookup func(string) (string, bool)) string {
	for _, k := range []string{"ZCODE_FENCE_HOME", "HOME", "USERPROFILE"} {
		if v, ok := lookup(k); ok && v != "" {
			return v
		}
	}
	h, _ := os.UserHomeDir()
	return h
}

func (e Env) get(k string) (string, bool) {
	if e.Lookup == nil {
		return "", false
	}
	v, ok := e.Lookup(k)
	return v, ok && v != ""
}

// Config is the effective configuration of one call.
type Config struct {
	schema *Schema
	values map[string]string
	// Notes explain every fallback and choice the loader made ("config:
	// enable_fence: \"yes\" is not a boolean, using true").
	Notes []string
	// Source names where options came from, e.g. the file and key used.
	Source string
	// LanguageChoice says how language "auto" was resolved ("auto:
	// LANG=zh_CN.UTF-8"); "" when the language was set.
	LanguageChoice string
	// from names, per key, the source of its effective value ("default",
	// a file, or an environment variable).
	from map[string]string
}

// SourceOf names where key's effective value came from: "default", a
// config file (path, and entry for the ZCode file) or an environment
// variable.
func (c Config) SourceOf(key string) string {
	if f, ok := c.from[key]; ok {
		return f
	}
	return "default"
}

// Get returns the effective string value of key ("" for unknown keys).
func (c Config) Get(key string) string { return c.values[key] }

// Bool returns the effective value of a boolean key.
func (c Config) Bool(key string) bool { return c.values[key] == "true" }

// Int returns the effective value of an integer key.
func (c Config) Int(key string) int {
	n, _ := strconv.Atoi(c.values[key])
	return n
}

// Subset returns the effective values of keys, for a layer's Options.
func (c Config) Subset(keys ...string) map[string]string {
	m := make(map[string]string, len(keys))
	for _, k := range keys {
		if v, ok := c.values[k]; ok {
			m[k] = v
		}
	}
	return m
}

// Schema returns the declarations c was loaded with.
func (c Config) Schema() *Schema { return c.schema }

// Public returns every non-sensitive value, for explain and logs.
func (c Config) Public() map[string]string {
	m := map[string]string{}
	if c.schema == nil {
		return m
	}
	for _, s := range c.schema.specs {
		if !s.Sensitive {
			m[s.Key] = c.values[s.Key]
		}
	}
	return m
}

// List splits a ;-separated setting into trimmed, non-empty items.
func List(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Defaults returns the configuration with every setting at its default.
func (s *Schema) Defaults() Config {
	c := Config{schema: s, values: make(map[string]string, len(s.specs)), Source: "defaults", from: map[string]string{}}
	for _, sp := range s.specs {
		c.values[sp.Key] = sp.Default
	}
	return c
}

// Load builds the effective configuration from env: defaults, then the
// host-neutral config file, then the ZCode config file, then (outside a
// host's hook) the options Claude Code stored for the plugin, then each
// spec's environment variables (Spec.EnvNames).
func (s *Schema) Load(env Env) Config {
	c := s.Defaults()
	c.Notes = append(c.Notes, env.Ignored...)
	c.fromNeutralFile(env)
	c.fromFile(env)
	c.fromClaudeSettings(env)
	for _, sp := range s.specs {
		for _, name := range sp.EnvNames() {
			if v, ok := env.get(name); ok {
				c.set(sp, v, name)
				c.from[sp.Key] = name
			}
		}
	}
	c.resolveLanguage(env)
	return c
}

// resolveLanguage turns the language setting "auto" into zh or en
// (core.AutoLanguageFor), so that every reader sees a language;
// LanguageChoice says how it was chosen.
func (c *Config) resolveLanguage(env Env) {
	if _, declared := c.values[KeyLanguage]; !declared || c.values[KeyLanguage] != core.AutoLanguage {
		return
	}
	lookup := env.Lookup
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	l, why := core.AutoLanguageFor(lookup)
	c.values[KeyLanguage] = string(l)
	c.LanguageChoice = why
}

// FilePath is the ZCode config file the loader reads.
func FilePath(env Env) string {
	if p, ok := env.get("ZCODE_FENCE_CONFIG"); ok {
		return p
	}
	return hostFile(env, "zcode", "")
}

// hostFile is a file of a host's config dir (agenthost's Install: the
// dir, its variables and, for rel "", the file that enables plugins).
func hostFile(env Env, host, rel string) string {
	a, _ := agenthost.ByName(host)
	in := a.Install()
	if rel == "" {
		rel = in.EnableFile
	}
	return filepath.Join(in.ConfigDir(env.Home, env.get), filepath.FromSlash(rel))
}

// maxFile bounds the config file read on every call (ZCode's config.json
// holds every plugin's settings; a few MiB at most).
const maxFile = 32 << 20

func (c *Config) fromFile(env Env) {
	path := FilePath(env)
	data, ok := c.readFile(path)
	if !ok {
		return
	}
	var doc struct {
		Plugins struct {
			Options map[string]json.RawMessage `json:"options"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		c.note("config: %s does not parse (%v), using defaults", path, err)
		return
	}
	key, ok := pickKey(doc.Plugins.Options, env)
	if !ok {
		return
	}
	if n := countCandidates(doc.Plugins.Options); n > 1 {
		c.note("config: %d zcode-fence entries in %s, using %q", n, path, key)
	}
	var opts map[string]any
	if err := json.Unmarshal(doc.Plugins.Options[key], &opts); err != nil {
		c.note("config: plugins.options[%q] is not an object, using defaults", key)
		return
	}
	c.Source = path + " " + key
	c.apply(opts, path+" "+key)
}

// NeutralFilePath is the host-neutral config file:
// $XDG_CONFIG_HOME/zcode-fence/config.json, else
// ~/.config/zcode-fence/config.json.
func NeutralFilePath(env Env) string {
	if x, ok := env.get("XDG_CONFIG_HOME"); ok && filepath.IsAbs(x) {
		return filepath.Join(x, "zcode-fence", "config.json")
	}
	return filepath.Join(env.Home, ".config", "zcode-fence", "config.json")
}

// fromNeutralFile reads the host-neutral file: one flat JSON object of
// settings, the same keys as everywhere else.
func (c *Config) fromNeutralFile(env Env) {
	path := NeutralFilePath(env)
	data, ok := c.readFile(path)
	if !ok {
		return
	}
	var opts map[string]any
	if err := json.Unmarshal(data, &opts); err != nil {
		c.note("config: %s is not a JSON object of settings (%v), skipped", path, err)
		return
	}
	c.Source = path
	c.apply(opts, path)
}

// readFile reads a config file; false when it is absent or unusable (noted).
func (c *Config) readFile(path string) ([]byte, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, false // no file: nothing to note
	}
	if !st.Mode().IsRegular() || st.Size() > maxFile {
		c.note("config: %s is not a regular file of at most %d bytes, using defaults", path, maxFile)
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		c.note("config: %s cannot be read (%v), using defaults", path, err)
		return nil, false
	}
	return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), true // a BOM from a Windows editor
}

// apply sets every known key of opts; source names the file for SourceOf.
func (c *Config) apply(opts map[string]any, source string) {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	for _, k := range c.schema.UnknownKeys(keys) {
		c.note("config: %s: %q is not a setting (ignored)", source, core.CutMarked(k, maxShownValue))
	}
	for _, s := range c.schema.specs {
		raw, present := opts[s.Key]
		if !present || raw == nil {
			continue
		}
		c.from[s.Key] = source
		switch v := raw.(type) {
		case string:
			c.set(s, v, s.Key)
		case bool:
			c.set(s, strconv.FormatBool(v), s.Key)
		case float64:
			c.set(s, strconv.FormatFloat(v, 'f', -1, 64), s.Key)
		case map[string]any:
			if s.JSONObject {
				b, _ := json.Marshal(v)
				c.set(s, string(b), s.Key)
				continue
			}
			c.note("config: %s has an unusable value, using %q", s.Key, display(s, s.Default))
		default:
			c.note("config: %s has an unusable value, using %q", s.Key, display(s, s.Default))
		}
	}
}

// pickKey chooses the options entry: the host's plugin id when it names one
// that exists, else bare "zcode-fence", else the first "zcode-fence@..." in
// sorted order.
func pickKey(opts map[string]json.RawMessage, env Env) (string, bool) {
	if id, ok := env.get("ZCODE_PLUGIN_ID"); ok {
		if _, exists := opts[id]; exists {
			return id, true
		}
	}
	if _, ok := opts["zcode-fence"]; ok {
		return "zcode-fence", true
	}
	var keys []string
	for k := range opts {
		if strings.HasPrefix(k, "zcode-fence@") {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "", false
	}
	sort.Strings(keys)
	return keys[0], true
}

func countCandidates(opts map[string]json.RawMessage) int {
	n := 0
	for k := range opts {
		if k == "zcode-fence" || strings.HasPrefix(k, "zcode-fence@") {
			n++
		}
	}
	return n
}

func (c *Config) note(format string, args ...any) {
	c.Notes = append(c.Notes, fmt.Sprintf(format, args...))
}

// display is how a note shows a value: hidden when sensitive, else cut to
// maxShownValue bytes with a marker (a value of any size may come from the
// environment, and notes go to the decision log with every record).
func display(s Spec, v string) string {
	if s.Sensitive && v != "" {
		return "<hidden>"
	}
	return core.CutMarked(v, maxShownValue)
}

// maxShownValue bounds a value quoted in a note.
const maxShownValue = 200

// set validates v for s and stores it, or keeps the current value and notes
// why. from names the source for the note.
func (c *Config) set(s Spec, v, from string) {
	norm, ok := s.normalise(v)
	if !ok {
		c.note("config: %s=%q is not valid for %s, using %q", from, display(s, v), s.Key, display(s, s.Default))
		c.values[s.Key] = s.Default
		return
	}
	if s.Kind == Int && norm != strings.TrimSpace(v) {
		c.note("config: %s=%q capped to %s", from, display(s, v), norm)
	}
	c.values[s.Key] = norm
}

// DataDir is where zcode-fence keeps its log and state: ZCODE_FENCE_DATA_DIR,
// else the host-injected ZCODE_PLUGIN_DATA, else CLAUDE_PLUGIN_DATA
// (agenthost.PluginDataEnv), else
// ~/.zcode/cli/plugins/data/zcode-fence.
func DataDir(env Env) string {
	for _, k := range append([]string{"ZCODE_FENCE_DATA_DIR"}, agenthost.PluginDataEnv...) {
		if v, ok := env.get(k); ok {
			return v
		}
	}
	return hostFile(env, "zcode", agenthost.PluginData+"/zcode-fence")
}

// DataDirs is every data dir a reader of the log (zcode-fence log, run
// from a terminal, outside any host) should look in: DataDir's answer when
// one of its variables is set, else every existing data dir a host gives
// the plugin — ZCode's ~/.zcode/cli/plugins/data/zcode-fence@<market> (and
// the bare zcode-fence), Claude Code's
// ${CLAUDE_CONFIG_DIR:-~/.claude}/plugins/data/zcode-fence-<market> (and
// zcode-fence-inline for --plugin-dir) — in that order. With none found it
// is DataDir's default. Cost: two directory globs.
func DataDirs(env Env) []string {
	for _, k := range append([]string{"ZCODE_FENCE_DATA_DIR"}, agenthost.PluginDataEnv...) {
		if v, ok := env.get(k); ok {
			return []string{v}
		}
	}
	claude := filepath.Dir(claudeSettingsPath(env)) // Claude Code's config dir
	zcode := hostFile(env, "zcode", agenthost.PluginData)
	var dirs []string
	for _, pattern := range []string{
		filepath.Join(zcode, "zcode-fence@*"),
		filepath.Join(zcode, "zcode-fence"),
		filepath.Join(claude, filepath.FromSlash(agenthost.PluginData), "zcode-fence-*"),
	} {
		matches, _ := filepath.Glob(pattern)
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.IsDir() {
				dirs = append(dirs, m)
			}
		}
	}
	if len(dirs) == 0 {
		return []string{DataDir(env)}
	}
	return dirs
}
