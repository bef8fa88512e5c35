package agenthost

import (
	"path/filepath"
	"strings"
	"time"
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

// PluginData is where ZCode and Claude Code keep plugins' data dirs
// (the guard's log and state), below their config dir.
const PluginData = "plugins/data"
