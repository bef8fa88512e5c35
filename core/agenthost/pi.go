package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
)

// Pi (@mariozechner/pi-coding-agent; measured with 0.73.1 against a fake
// chat-completions API; testdata/hosts/pi-*.json, e2e TestPiExtension).
//
// Pi runs no commands before a tool call; its extensions (TypeScript
// modules loaded in-process) get a "tool_call" event {toolName,
// toolCallId, input} before each tool runs and stop it by returning
// {block: true, reason}; the model gets the reason as the tool's error.
// An extension can ask: ctx.ui.confirm(title, message) opens Pi's dialog
// when ctx.hasUI (its TUI), and returns false at once without one (`pi -p`,
// JSON and RPC modes).
//
// The bundle's extension (bundle/zcode-fence/pi, a Pi package) hands each
// call to the guard with no logic of its own: {"hook_event_name":
// "tool_call", "tool_name", "tool_input" (event.input), "tool_call_id",
// "cwd" (ctx.cwd, the session's directory)}, with ZCODE_FENCE_HEADLESS set
// from ctx.hasUI; it turns an ask into ctx.ui.confirm with the reason and
// a deny into a block. Evidence: that event name with tool_call_id; the
// process has PI_CODING_AGENT=true.
//
// Tools (0.73.1): bash {command, timeout}, write {path, content}, edit
// {path, edits: [{oldText, newText}]} (a model's {path, oldText, newText}
// arrives as one edits element).
type piAgent struct{}

func init() { register(62, piAgent{}) }

var piTools = toolTable{
	{[]string{"bash"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command"}},
	{[]string{"write"}, Tool{Name: "Write", Kind: core.KindFile, Paths: []Source{{Field: "path"}}}},
	{[]string{"edit"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: []Source{{Field: "path"}}}},
}.with(opencodeReads...)

// piExtensionRel is the extension file below the plugin; its folder is the
// Pi package.
const piExtensionRel = "pi/zcode-fence.ts"

// piEvent is the event name the bundle's Pi extension puts in its payload.
const piEvent = "tool_call"

// piProcess: the extension says whether Pi has a UI (HeadlessEnv).
var piProcess = hostProcess{match: func([]string) bool { return false }}

func (piAgent) Name() string { return "pi" }

func (piAgent) Claim(e *Envelope, env Lookup) Evidence {
	if e.HookEventName() == piEvent && e.Has("tool_call_id") && e.Has("tool_name") {
		return PayloadEvidence
	}
	return NoEvidence
}

func (piAgent) Tool(name string) (Tool, bool) { return piTools.lookup(name) }
func (piAgent) Tools() []Tool                 { return piTools.list() }
func (piAgent) ToolNames() []string           { return piTools.spellings() }

// Packaging: the Pi package bundle/zcode-fence/pi (its package.json names
// the extension), no hooks file.
func (piAgent) Packaging() Packaging {
	return Packaging{Event: piEvent, PluginFile: PluginDir + "/" + piExtensionRel}
}

// ProjectDirEnv: none; the payload's cwd is the session's directory.
func (piAgent) ProjectDirEnv() []string     { return nil }
func (piAgent) OptionEnvPrefixes() []string { return nil }

// Answer: the ask line where Pi has a UI (the extension shows it with
// ctx.ui.confirm); without one the no_ask_fallback form, since confirm
// would refuse silently and the model would not learn why.
func (piAgent) Answer(a Ask) []byte {
	if !piProcess.headless(a.Env) {
		return AskLine(a.Reason)
	}
	return stoppingAnswer(a)
}

// Pi: ~/.pi/agent (settings.json with its packages list, extensions/,
// models.json, the packages it installs), the project's .pi.
var piPaths = []HostPath{
	{Rel: ".pi/agent", Shape: PathTree},
	{Rel: ".pi", Shape: PathTree, Project: true},
}

func (piAgent) HostPaths() []HostPath { return piPaths }

// Pi (measured with 0.73.1): `pi install <dir>` records a local package's
// path in settings.json "packages" and loads it in place; extensions are
// also auto-discovered in extensions/*.ts (and */index.ts). PI_CODING_AGENT_DIR
// moves ~/.pi/agent.
var piInstall = Install{
	Label: "Pi", Dir: ".pi/agent", DirEnv: "PI_CODING_AGENT_DIR",
	PluginFile: piExtensionRel, PluginListKey: "packages",
	JSPlugins: []string{"extensions/*"}, PluginLists: []string{"settings.json"},
	Events: []string{piEvent}, MarketSegment: -1, Enable: PluginPresent,
	InstallHow: "pi install <unpacked release>/" + PluginDir + "/pi (README: Install)",
}

func (piAgent) Install() Install { return piInstall }
