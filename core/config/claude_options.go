package config

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// claudeSettingsPath is Claude Code's user settings file,
// ${CLAUDE_CONFIG_DIR:-~/.claude}/settings.json, where `claude plugin
// configure` stores a plugin's non-sensitive options under
// pluginConfigs["<plugin>@<market>"].options (sensitive ones go to its
// credentials store, which zcode-fence does not read).
func claudeSettingsPath(env Env) string { return hostFile(env, "claude", "") }

// underHost reports whether an agent host started this process as a
// plugin hook (agenthost.PluginRootEnv is set): it then exports the
// plugin's options itself (Claude Code's CLAUDE_PLUGIN_OPTION_<KEY>), and
// the stored copy must not be read.
func underHost(env Env) bool {
	for _, k := range agenthost.PluginRootEnv {
		if _, ok := env.get(k); ok {
			return true
		}
	}
	return false
}

// fromClaudeSettings applies the options Claude Code stored for
// zcode-fence, when this process was not started by a host (a person
// running --eval, explain, log or doctor in a terminal sees the options
// the hook gets). Several zcode-fence@<market> entries: the first in
// sorted order, noted.
func (c *Config) fromClaudeSettings(env Env) {
	if underHost(env) {
		return
	}
	path := claudeSettingsPath(env)
	data, ok := c.readFile(path)
	if !ok {
		return
	}
	var doc struct {
		PluginConfigs map[string]struct {
			Options map[string]any `json:"options"`
		} `json:"pluginConfigs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		c.note("config: %s does not parse (%v), Claude Code's stored options skipped", path, err)
		return
	}
	var ids []string
	for id := range doc.PluginConfigs {
		if strings.HasPrefix(id, "zcode-fence@") && doc.PluginConfigs[id].Options != nil {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return
	}
	sort.Strings(ids)
	if len(ids) > 1 {
		c.note("config: %d zcode-fence entries in %s pluginConfigs, using %q", len(ids), path, ids[0])
	}
	c.apply(doc.PluginConfigs[ids[0]].Options, path+" pluginConfigs["+ids[0]+"]")
}
