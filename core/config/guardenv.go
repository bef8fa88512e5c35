package config

import "strings"

// guardEnvNames are the variables besides the EnvPrefixes ones that change
// where zcode-fence reads its configuration, keeps its state or finds its
// project, or how it reaches the decision model.
var guardEnvNames = map[string]bool{
	// Data dirs and the installed plugin (DataDir; the hosts inject them).
	"ZCODE_PLUGIN_DATA": true, "CLAUDE_PLUGIN_DATA": true, "ZCODE_PLUGIN_ROOT": true, "CLAUDE_PLUGIN_ROOT": true,
	// The project root of a hook call.
	"ZCODE_PROJECT_DIR": true, "CLAUDE_PROJECT_DIR": true,
	// Home and the XDG config home move the config files and the default data dir.
	"HOME": true, "USERPROFILE": true, "XDG_CONFIG_HOME": true,
	// The decision model's transport: proxies (any case) and TLS roots.
	"HTTP_PROXY": true, "HTTPS_PROXY": true, "ALL_PROXY": true, "NO_PROXY": true,
	"SSL_CERT_FILE": true, "SSL_CERT_DIR": true,
}

// GuardEnv reports whether the environment variable name changes how
// zcode-fence runs: every setting override (ZCODE_FENCE_*, and the hosts'
// CLAUDE_PLUGIN_OPTION_* / ZCODE_PLUGIN_OPTION_*), ZCODE_FENCE_CONFIG and
// ZCODE_FENCE_DATA_DIR, the hosts' data and plugin dirs, the project dir,
// home and XDG_CONFIG_HOME, and the proxy and TLS variables the decision
// model's transport reads. The danger gate asks when an agent runs the
// guard's binary with one of them set (DG-TAMPER-GUARD). Proxy names are
// matched in any case, as net/http reads them.
func GuardEnv(name string) bool {
	for _, p := range EnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if guardEnvNames[name] {
		return true
	}
	u := strings.ToUpper(name)
	return strings.HasSuffix(u, "_PROXY") && guardEnvNames[u]
}
