package config

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// The host's own settings. A layer's settings are declared in the layer's
// package (its Switch and Settings) and reach it as Call.Options.
const (
	KeyLockSessionRoot    = "lock_session_root"
	KeyExtraWritableRoots = "extra_writable_roots"
	KeyEnableLog          = "enable_log"
	KeyLanguage           = core.LanguageOption
	KeyLayerIsolation     = "layer_isolation"
	KeyExternalLayers     = "external_layers"
	KeyLayerOptions       = "layer_options"
	KeyNoAskFallback      = "no_ask_fallback"
	KeyLayerIdleTimeout   = "layer_idle_timeout"
)

// HostSettings declares the host's own settings, in the order the settings
// UI lists them.
var HostSettings = []Spec{
	{
		Key: KeyLockSessionRoot, Kind: Bool, Default: "true",
		Title:       "Lock the session root",
		Description: "Judge every call of a session against the project root first seen for that session, so a cd inside the agent's shell cannot move the fence.",
	},
	{
		Key: KeyExtraWritableRoots, Kind: String,
		Title:       "Extra writable roots",
		Description: "More directories the agent may write to, separated by ';'. ~, $VAR and %VAR% are expanded.",
	},
	{
		Key: KeyEnableLog, Kind: Bool, Default: "true",
		Title:       "Decision log",
		Description: "Record every call in decisions.log in the plugin data directory (asks and errors are always recorded). Secrets are redacted.",
	},
	{
		Key: KeyLanguage, Kind: Enum, Default: core.AutoLanguage,
		Choices:     []string{core.AutoLanguage, string(core.Chinese), string(core.English)},
		Canon:       canonLanguage,
		Title:       "Language of ask reasons",
		Description: "auto (Chinese under ZCode or with a Chinese locale, else English), zh (Chinese) or en (English).",
	},
	{
		Key: KeyLayerIsolation, Kind: Enum, Default: "process", Choices: []string{"process", "inprocess"},
		Title:       "Layer isolation",
		Description: "process runs the built-in layers as plugin subprocesses; inprocess runs them inside the hook (faster). Third-party layers are always subprocesses.",
	},
	{
		Key: KeyLayerIdleTimeout, Kind: Int, Default: "600", Min: 0, Max: 86400,
		Title:       "Layer idle timeout (s)",
		Description: "In process isolation, layer processes stay running between tool calls and exit after this many seconds without one (default 600); 0 starts fresh processes for every call.",
	},
	{
		Key: KeyExternalLayers, Kind: String,
		Title:       "External layers",
		Description: "Third-party layer executables (absolute paths), separated by ';'. Pin one with PATH#sha256=HEX.",
	},
	{
		Key: KeyLayerOptions, Kind: String, JSONObject: true,
		Title:       "Layer options",
		Description: `Options for third-party layers as one JSON object keyed by layer name, e.g. {"protect-branch":{"branches":"main;release/*"}}.`,
	},
	{
		// Read by the host adapters that cannot show a confirmation
		// (core/agenthost: Codex always, Gemini CLI headless).
		Key: KeyNoAskFallback, Kind: Enum, Default: agenthost.FallbackDeny,
		Choices:     []string{agenthost.FallbackDeny, agenthost.FallbackSilent},
		Title:       "When the host cannot ask",
		Description: "For hosts that cannot show a confirmation (Codex; Gemini CLI without a terminal): deny answers with the host's deny form and a reason telling the agent to stop and ask the user in the conversation; silent lets the call through.",
	},
}

// canonLanguage reads "zh-CN", "en_US" and the like as their language.
func canonLanguage(v string) string {
	if l, ok := core.ParseLanguage(v); ok {
		return string(l)
	}
	if t := strings.ToLower(strings.TrimSpace(v)); t == core.AutoLanguage {
		return t
	}
	return v
}
