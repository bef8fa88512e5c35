package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
	"time"
)

// GitHub Copilot CLI (measured with 1.0.102 against a fake API;
// testdata/hosts/).
//
// Evidence: for a Claude-format hook (event PreToolUse, the plugin's
// hooks.json) Copilot sends Claude's shape with Claude's tool names (bash
// becomes Bash, create becomes Write {path, file_text}, edit becomes Edit
// {path, old_str, new_str}); for its own event preToolUse it sends
// camelCase {sessionId, timestamp, cwd, toolName, toolArgs} with its own
// names (bash, create, edit). toolArgs is a key no other host sends. The
// hook process gets COPILOT_CLI=1, COPILOT_PROJECT_DIR and
// CLAUDE_PROJECT_DIR; the hook's working directory is the plugin root, so
// the project comes from those, never from the process.
//
// Answer: Claude's ask line (Copilot also reads a flat permissionDecision).
// Interactive: a "Hook permission request" dialog with the reason, even
// with --allow-all-tools. Headless: Copilot turns it into a deny, "unable
// to ask user for confirmation: <reason>".
type copilot struct{}

func init() { register(40, copilot{}) }

var copilotTools = claudeTools.with(
	toolEntry{[]string{"create"}, Tool{Name: "Write", Kind: core.KindFile, Paths: fileSources}},
).with(copilotReads...)

func (copilot) Name() string { return "copilot" }

func (copilot) Claim(e *Envelope, env Lookup) Evidence {
	if e.Has("toolArgs") {
		return PayloadEvidence
	}
	if lookupEnv(env, "COPILOT_CLI") == "1" || lookupEnv(env, "COPILOT_PROJECT_DIR") != "" {
		return EnvEvidence
	}
	return NoEvidence
}

func (copilot) Tool(name string) (Tool, bool) { return copilotTools.lookup(name) }
func (copilot) Tools() []Tool                 { return copilotTools.list() }

// ToolNames are the names in a Claude-format hook (the plugin's): Claude's.
func (copilot) ToolNames() []string         { return claudeTools.spellings() }
func (copilot) ProjectDirEnv() []string     { return []string{"COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} }
func (copilot) OptionEnvPrefixes() []string { return nil }

// Packaging: `copilot plugin install` loads the Claude plugin unchanged.
func (copilot) Packaging() Packaging { return claudePackaging }
func (copilot) Answer(a Ask) []byte  { return AskLine(a.Reason) }

// Copilot CLI: settings.json (hooks, enabledPlugins), installed plugins
// (installed-plugins/, measured with 1.0.102); the project's
// .github/hooks.
var copilotPaths = []HostPath{
	{Rel: copilotDir + "/settings.json", Shape: PathFile},
	{Rel: copilotDir + "/plugins", Shape: PathTree},
	{Rel: copilotDir + "/installed-plugins", Shape: PathTree},
	{Rel: ".github/hooks", Shape: PathTree, Project: true},
}

func (copilot) HostPaths() []HostPath { return copilotPaths }

// Copilot CLI (measured with 1.0.102): `copilot plugin install` copies a
// plugin from a git marketplace to installed-plugins/<market>/zcode-fence
// and loads one from a directory marketplace in place
// (extraKnownMarketplaces); either way settings.json enabledPlugins has
// "zcode-fence@<market>": true. Hooks by hand go to settings.json, as
// PreToolUse (Claude's form) or preToolUse (its own: {"type": "command",
// "bash": ..., "timeoutSec": N}, 30 s by default). COPILOT_HOME moves
// ~/.copilot.
var copilotInstall = Install{
	Label: "Copilot CLI", Dir: copilotDir, DirEnv: "COPILOT_HOME",
	Plugins: []string{"installed-plugins/*/" + core.PluginName}, MarketSegment: 1,
	DirectoryMarkets: true,
	Enable:           EnabledPlugins, EnableFile: "settings.json",
	HookFiles:  []HookFile{{"settings.json", HooksJSON}},
	Events:     []string{claudePackaging.Event, "preToolUse"},
	Timeout:    TimeoutRule{Fields: []TimeoutField{{"timeoutSec", time.Second}, {"timeout", time.Second}}, Default: 30 * time.Second},
	InstallHow: "copilot plugin marketplace add <this repository>, then copilot plugin install " + core.PluginName + "@<market> (README: Install)",
	// The GitHub tokens when no system keychain holds them.
	Credentials: []string{"config.json"},
}

func (copilot) Install() Install { return copilotInstall }

// copilotDir is the host's config dir below home (and below a project).
const copilotDir = ".copilot"
