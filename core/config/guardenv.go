package config

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// guardEnvNames are the variables besides the EnvPrefixes ones that change
// where zcode-fence reads its configuration, keeps its state or finds its
// project. The hosts' variables (data dirs, installed plugin, project dir on
// every host) come from core/agenthost, their one copy.
var guardEnvNames = hostEnvNames(map[string]bool{
	// Home and the XDG config home move the config files and the default data dir.
	"HOME": true, "USERPROFILE": true, "XDG_CONFIG_HOME": true,
})

// transportEnvNames are the variables that change how the decision model
// is reached: proxies (any case) and TLS roots.
var transportEnvNames = map[string]bool{
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true,
	"SSL_CERT_FILE": true, "SSL_CERT_DIR": true,
}

// hostEnvNames adds the hosts' data-dir, plugin-root and project-dir
// variables to m (DataDir reads the first; every adapter's ProjectDirEnv
// can move a hook call's project root).
func hostEnvNames(m map[string]bool) map[string]bool {
	for _, l := range [][]string{agenthost.PluginDataEnv, agenthost.PluginRootEnv, agenthost.ProjectDirEnvs()} {
		for _, v := range l {
			m[v] = true
		}
	}
	return m
}

// GuardEnv reports whether the environment variable name changes how
// zcode-fence runs: a setting (GuardSettingsEnv) or the proxy and TLS
// variables the decision model's transport reads. The danger gate asks when
// an agent runs the guard's binary with one of them set (DG-TAMPER-GUARD).
// Proxy names are matched in any case, as net/http reads them.
func GuardEnv(name string) bool {
	if GuardSettingsEnv(name) || transportEnvNames[name] {
		return true
	}
	u := strings.ToUpper(name)
	return strings.HasSuffix(u, "_PROXY") && transportEnvNames[u]
}

// GuardSettingsEnv reports whether the environment variable name changes
// what zcode-fence decides or where it keeps its state: every setting
// override (ZCODE_FENCE_*, and the hosts' CLAUDE_PLUGIN_OPTION_* /
// ZCODE_PLUGIN_OPTION_*), ZCODE_FENCE_CONFIG and ZCODE_FENCE_DATA_DIR, the
// hosts' data and plugin dirs, the project dir, home and XDG_CONFIG_HOME.
// An agent host started with one of them runs its hooks, the guard
// included, with it (DG-TAMPER-GUARD); a proxy for the agent is everyday
// and is not one of them.
func GuardSettingsEnv(name string) bool {
	for _, p := range EnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return guardEnvNames[name]
}
