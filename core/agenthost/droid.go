package agenthost

import (
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// Factory Droid (measured with 0.225.2 against a fake chat-completions API
// given as a customModels entry; testdata/hosts/droid-*.json, e2e
// TestDroidPlugin).
//
// Droid runs Claude-style command hooks: "hooks" in ~/.factory/settings.json
// (and the project's .factory/settings.json), or a plugin's hooks/hooks.json
// (`droid plugin marketplace add` + `droid plugin install` read Claude's
// marketplace and plugin unchanged, ${CLAUDE_PLUGIN_ROOT} included). The
// payload is Claude's shape (session_id, transcript_path under
// ~/.factory/sessions, cwd, permission_mode, hook_event_name "PreToolUse",
// tool_name, tool_input) with Droid's tool names: Execute {command,
// summary, timeout, riskLevel, riskLevelReason}, Create {file_path,
// content}, Edit {file_path, old_str, new_str}. Evidence: those tool names
// or a permission_mode "auto-low|medium|high" (Droid's autonomy levels) in
// the payload; the hook process has DROID_PROJECT_DIR and
// FACTORY_PROJECT_DIR (and CLAUDE_PROJECT_DIR).
//
// Answer: `droid exec` runs the call when a hook answers ask (measured: the
// command ran), and honours a deny, whose reason the model gets as
// "Error: <reason>"; so headless (`droid exec`) the guard answers with
// no_ask_fallback, and in the TUI with Claude's ask line.
type droid struct{}

func init() { register(45, droid{}) }

var droidTools = claudeTools.with(
	toolEntry{[]string{"Execute"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command"}},
	toolEntry{[]string{"Create"}, Tool{Name: "Write", Kind: core.KindFile, Paths: fileSources}},
)

// droidProcess recognises `droid` (the platform binary) and its headless
// subcommand.
var droidProcess = hostProcess{
	match:         func(args []string) bool { return argsMention(args, "droid") },
	headlessFlags: []string{"exec"},
}

// droidEnv are variables only Droid sets in the hook's environment.
var droidEnv = []string{"DROID_PROJECT_DIR", "FACTORY_PROJECT_DIR"}

func (droid) Name() string { return "droid" }

func (droid) Claim(e *Envelope, env Lookup) Evidence {
	if e.HookEventName() == "PreToolUse" {
		switch e.ToolName() {
		case "Execute", "Create":
			return PayloadEvidence
		}
		switch e.String(modeKeys...) {
		case "auto-low", "auto-medium", "auto-high":
			return PayloadEvidence
		}
	}
	for _, k := range droidEnv {
		if lookupEnv(env, k) != "" {
			return EnvEvidence
		}
	}
	return NoEvidence
}

func (droid) Tool(name string) (Tool, bool) { return droidTools.lookup(name) }
func (droid) Tools() []Tool                 { return droidTools.list() }
func (droid) ToolNames() []string           { return droidTools.spellings() }
func (droid) ProjectDirEnv() []string {
	return []string{"DROID_PROJECT_DIR", "FACTORY_PROJECT_DIR", "CLAUDE_PROJECT_DIR"}
}
func (droid) OptionEnvPrefixes() []string { return nil }

// Packaging: `droid plugin install` loads the Claude plugin unchanged.
func (droid) Packaging() Packaging { return claudePackaging }

func (droid) Answer(a Ask) []byte {
	if !droidProcess.headless(a.Env) {
		return AskLine(a.Reason)
	}
	return stoppingAnswer(a)
}

// Factory Droid: settings.json (hooks, customModels), plugins and
// marketplaces below ~/.factory; the project's .factory.
var droidPaths = []HostPath{
	{Rel: droidDir + "/settings.json", Shape: PathFile},
	{Rel: droidDir + "/settings.local.json", Shape: PathFile},
	{Rel: droidDir + "/hooks", Shape: PathTree},
	{Rel: droidDir + "/plugins", Shape: PathTree},
	{Rel: droidDir, Shape: PathTree, Project: true},
}

func (droid) HostPaths() []HostPath { return droidPaths }

// Factory Droid (measured with 0.225.2): hooks by hand go to settings.json
// (Claude's form, timeout in seconds); `droid plugin marketplace add DIR`
// names the marketplace after DIR's base name, and `droid plugin install
// zcode-fence@<market>` copies the plugin to plugins/cache/<market>-<12
// hex>/zcode-fence-<12 hex>/<version id> (writing .factory-plugin/ beside
// .claude-plugin/) and records "zcode-fence@<market>": true in
// settings.json enabledPlugins.
var droidInstall = Install{
	Label: "Factory Droid", Dir: droidDir,
	Plugins: []string{"plugins/cache/*/" + core.PluginName + "-*/*"}, MarketSegment: 2, MarketHashed: true,
	Enable: EnabledPlugins, EnableFile: "settings.json",
	HookFiles:  []HookFile{{"settings.json", HooksJSON}, {"settings.local.json", HooksJSON}},
	Events:     []string{claudePackaging.Event},
	Timeout:    TimeoutRule{Fields: []TimeoutField{{"timeout", time.Second}}, Default: 60 * time.Second},
	InstallHow: "droid plugin marketplace add <this repository>, then droid plugin install " + core.PluginName + "@<market> (README: Install)",
}

func (droid) Install() Install { return droidInstall }

// droidDir is the host's config dir below home (and below a project).
const droidDir = ".factory"
