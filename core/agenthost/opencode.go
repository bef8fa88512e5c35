package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
)

// opencode (measured with 1.18.33 against a fake chat-completions API;
// testdata/hosts/opencode-*.json, e2e TestOpencodePlugin).
//
// opencode runs no commands before a tool call: its only pre-tool
// extension point is an in-process JS/TS plugin's "tool.execute.before"
// (input {tool, sessionID, callID}, output {args}); a plugin that throws
// stops the call, and the model gets the error's message as the tool's
// result (the session goes on). A plugin cannot ask: opencode 1.18 has no
// plugin hook that opens its permission dialog for a call (its own
// permission rules do, per tool or path pattern, not per judged call), so
// the guard answers with no_ask_fallback, in the TUI and in `opencode
// run` alike.
//
// The bundle's plugin (JSPluginFile) hands each call to the guard with no
// logic of its own: {"hook_event_name": "tool.execute.before",
// "tool_name", "tool_input" (output.args as opencode gives them),
// "session_id", "call_id", "cwd" (the plugin's directory: the session's
// project), "worktree"}, and throws the reason of a deny. Evidence: that
// event name (no host sends it) with call_id; the process has OPENCODE=1
// and OPENCODE_PID (Kilo, a fork, sets them too and KILO_PID besides: the
// kilo adapter claims those first).
//
// Tools (1.18.33, as the model is offered them): bash {command, timeout,
// workdir, description}, write {filePath, content}, edit {filePath,
// oldString, newString, replaceAll}; apply_patch {patchText} for the
// models opencode gives it instead of edit and write (GPT-family ids).
// opencode checks its own external_directory permission for file tools
// after the plugin (auto-rejected in `opencode run`), not for bash.
type opencode struct{}

func init() { register(61, opencode{}) }

// opencodeTools is the tool table of opencode and its fork Kilo.
var opencodeTools = toolTable{
	{[]string{"bash"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command", Dir: []string{"workdir"}}},
	{[]string{"write"}, Tool{Name: "Write", Kind: core.KindFile, Paths: []Source{{Field: "filePath"}}}},
	{[]string{"edit"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: []Source{{Field: "filePath"}}}},
	{[]string{"apply_patch", "patch"}, Tool{Name: "ApplyPatch", Kind: core.KindFile, Paths: []Source{{Field: "patchText", Patch: true}}}},
}.with(opencodeReads...)

// jsPluginEvent is the event name the bundle's JS plugin puts in its
// payload: the opencode hook it runs in.
const jsPluginEvent = "tool.execute.before"

// jsPluginFile is the plugin opencode and Kilo load, relative to the
// repository root (inside the Claude plugin, so that it finds the
// launcher at ../libexec).
const jsPluginFile = PluginDir + "/" + jsPluginRel

// jsPluginRel is the plugin file below the plugin.
const jsPluginRel = "opencode/zcode-fence.js"

// jsPluginPackaging: no hooks file; the plugin file calls the launcher.
var jsPluginPackaging = Packaging{Event: jsPluginEvent, PluginFile: jsPluginFile}

// fromJSPlugin reports whether e came from the bundle's JS plugin.
func fromJSPlugin(e *Envelope) bool {
	return e.HookEventName() == jsPluginEvent && e.Has("call_id") && e.Has("tool_name")
}

func (opencode) Name() string { return "opencode" }

func (opencode) Claim(e *Envelope, env Lookup) Evidence {
	if fromJSPlugin(e) {
		return PayloadEvidence
	}
	return NoEvidence
}

func (opencode) Tool(name string) (Tool, bool) { return opencodeTools.lookup(name) }
func (opencode) Tools() []Tool                 { return opencodeTools.list() }
func (opencode) ToolNames() []string           { return opencodeTools.spellings() }
func (opencode) Packaging() Packaging          { return jsPluginPackaging }

// ProjectDirEnv: none; the payload's cwd is the plugin's directory, the
// session's project.
func (opencode) ProjectDirEnv() []string     { return nil }
func (opencode) OptionEnvPrefixes() []string { return nil }

// Answer: the host cannot ask; the plugin throws the deny's reason.
func (opencode) Answer(a Ask) []byte { return stoppingAnswer(a) }

// stoppingAnswer is the no_ask_fallback answer of a host that cannot ask:
// Claude's deny form with DenyReason, or nothing for silent.
func stoppingAnswer(a Ask) []byte {
	if !denies(a) {
		return nil
	}
	return claudeDecision("deny", DenyReason(a))
}

// opencode: its config dir (opencode.json/opencode.jsonc/config.json with
// the "plugin" list, plugins/ and plugin/ loaded at start, the
// node_modules it installs there), and the project's .opencode. The
// project's opencode.json is left out: it can add plugins but not remove
// the user's, and protecting a plain file at the project root would make
// every glob there (rm -rf *) ask.
var opencodePaths = []HostPath{
	{Rel: ".config/opencode", Shape: PathTree},
	{Rel: ".opencode", Shape: PathTree, Project: true},
}

func (opencode) HostPaths() []HostPath { return opencodePaths }

// opencode (measured with 1.18.33): plugins are the .js/.ts files in
// plugins/ (and plugin/) of ~/.config/opencode ($XDG_CONFIG_HOME/opencode)
// and of the project's .opencode, loaded at start, or the "plugin" list of
// opencode.json naming npm packages or file:// URLs. None can be switched
// off but by removing it. The guard has no timeout there but the plugin's.
var opencodeInstall = Install{
	Label: "opencode", Dir: ".config/opencode", ConfigHomeEnv: "XDG_CONFIG_HOME",
	PluginFile: jsPluginRel, PluginListKey: "plugin",
	JSPlugins:   []string{"plugins/*", "plugin/*"},
	PluginLists: []string{"opencode.json", "opencode.jsonc", "config.json"},
	Events:      []string{jsPluginEvent}, CannotAsk: true, MarketSegment: -1, Enable: PluginPresent,
	InstallHow: "ln -s <unpacked release>/" + jsPluginFile + " ~/.config/opencode/plugins/ (README: Install)",
}

func (opencode) Install() Install { return opencodeInstall }
