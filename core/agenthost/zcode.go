package agenthost

import (
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// ZCode (hook-protocol.md §2, from its sources; no client can be run here).
//
// Evidence: the native payload is camelCase (hookEventName, toolName,
// toolInput, sessionId, toolCallId); newer builds add Claude's snake_case
// aliases in the same object. The hook process gets ZCODE_PROJECT_DIR,
// ZCODE_SESSION_ID and, for plugin hooks, ZCODE_PLUGIN_ROOT; every ZCode
// child process has ZCODE_APP_VERSION. It takes Claude Code's ask line.
type zcode struct{}

func init() { register(10, zcode{}) }

// zcodeEnv are the variables only ZCode sets.
var zcodeEnv = []string{"ZCODE_PROJECT_DIR", "ZCODE_APP_VERSION", "ZCODE_PLUGIN_ROOT", "ZCODE_SESSION_ID"}

func (zcode) Name() string { return "zcode" }

func (zcode) Claim(e *Envelope, env Lookup) Evidence {
	if e.Has("toolInput") || e.Has("hookEventName") || e.Has("toolCallId") {
		return PayloadEvidence
	}
	for _, k := range zcodeEnv {
		if lookupEnv(env, k) != "" {
			return EnvEvidence
		}
	}
	return NoEvidence
}

func (zcode) Tool(name string) (Tool, bool) { return claudeTools.lookup(name) }
func (zcode) Tools() []Tool                 { return claudeTools.list() }
func (zcode) ToolNames() []string           { return claudeTools.spellings() }

// Packaging: ZCode reads hooks/hooks.json in the Claude form
// (hook-protocol.md §2.3) and substitutes ${CLAUDE_PLUGIN_ROOT}.
func (zcode) Packaging() Packaging { return claudePackaging }

// ProjectDirEnv: ZCode sets both; CLAUDE_PROJECT_DIR also covers a call
// made without a host (--eval), for which this is the default adapter.
func (zcode) ProjectDirEnv() []string     { return []string{"ZCODE_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} }
func (zcode) OptionEnvPrefixes() []string { return []string{"ZCODE_PLUGIN_OPTION_"} }
func (zcode) Answer(a Ask) []byte         { return AskLine(a.Reason) }

// ZCode's whole state: config.json (plugins.enabled and the guard's
// options), plugins, marketplaces, plugin data; its memory dir is a
// writable root and stays writable. The project's .zcode likewise.
var zcodePaths = []HostPath{
	{Rel: ".zcode", Shape: PathTree, Except: []string{"cli/memories"}},
	{Rel: ".zcode", Shape: PathTree, Except: []string{"cli/memories"}, Project: true},
}

func (zcode) HostPaths() []HostPath { return zcodePaths }

// ZCode installs a plugin to ~/.zcode/cli/plugins/cache/<market>/
// zcode-fence/<version> and enables it in config.json enabledPlugins
// (hook-protocol.md §2.2); a hook's timeout is timeoutMs or timeout
// (seconds), 60 s by default (§2.3).
var zcodeInstall = Install{
	Label: "ZCode", Dir: ".zcode/cli",
	Plugins: []string{cachedPlugins}, MarketSegment: 2,
	Enable: EnabledPlugins, EnableFile: "config.json",
	Events:     []string{claudePackaging.Event},
	Timeout:    TimeoutRule{Fields: []TimeoutField{{"timeoutMs", time.Millisecond}, {"timeout", time.Second}}, Default: 60 * time.Second},
	InstallHow: "zcode plugins marketplace add <this repository>, then install and enable " + core.PluginName + " (README: Install)",
}

func (zcode) Install() Install { return zcodeInstall }
