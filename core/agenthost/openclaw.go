package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
)

// OpenClaw (openclaw on npm; measured with 2026.9.6 on Node 24.22.3 against
// a fake chat-completions API; testdata/hosts/openclaw-*.json, e2e
// TestOpenClawPlugin).
//
// OpenClaw runs no commands before a tool call; its plugins (in-process
// JS/TS modules with an openclaw.plugin.json manifest) register typed
// hooks, and "before_tool_call" gets (event {toolName, params, runId,
// toolCallId}, ctx {agentId, sessionKey, sessionId, runId, toolCallId,
// requester, abortSignal, trace}) before each tool runs. The hook answers
// {block: true, blockReason} (the call is not run; the model gets the
// reason as the tool's result), {requireApproval: {title, description,
// severity, allowedDecisions, timeoutMs}} (a plugin approval request: the
// run pauses until an approval surface connected to the Gateway, or a
// chat's /approve, allows it once; deny, a timeout (120 s by default),
// a cancelled run or no connected surface block it), or nothing. A
// handler that throws, or does not settle within 15 s (hooks.timeoutMs,
// hooks.timeouts.before_tool_call or the plugin's own timeoutMs change
// that), blocks the call: the hook fails closed.
//
// The bundle's plugin (bundle/zcode-fence/openclaw, installed linked with
// `openclaw plugins install --link`) hands each call to the guard with no
// logic of its own: {"hook_event_name": "before_tool_call", "tool_name",
// "tool_input" (event.params), "tool_call_id", "session_id",
// "session_key", "agent_id", "cwd" (the agent's workspace, where its tools
// run)}; an ask becomes a requireApproval with the guard's reason, a deny
// a block. Evidence: that event name with tool_call_id; the process has
// OPENCLAW_CLI=1. The Gateway and `openclaw agent --local` load the plugin
// fully; `openclaw agent exec` (2026.9.6) loads plugins for discovery
// only, and their hooks never ran there (measured): an agent exec run is
// not guarded.
//
// Measured with a probe plugin in `agent --local`: a block's blockReason
// reaches the model verbatim as the tool's result; a requireApproval is
// blocked with "Plugin approval unavailable: non-interactive CLI runs
// have no approval-capable initiating surface." (the model does not learn
// why); a handler that throws blocks the call with "Tool call blocked
// because before_tool_call hook failed".
//
// Tools (2026.9.6, as the model is offered them): exec {command, workdir,
// env, timeoutSeconds, background, ...}, write {path, content}, edit
// {path, edits: [{oldText, newText}]} (a model's {path, oldText, newText}
// arrives as one edits element), read {path, offset, limit}, apply_patch
// {input}.
type openclaw struct{}

func init() { register(64, openclaw{}) }

var openclawTools = toolTable{
	{[]string{"exec"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command", Dir: []string{"workdir"}}},
	{[]string{"write"}, Tool{Name: "Write", Kind: core.KindFile, Paths: []Source{{Field: "path"}}}},
	{[]string{"edit"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: []Source{{Field: "path"}}}},
	{[]string{"apply_patch"}, Tool{Name: "ApplyPatch", Kind: core.KindFile, Paths: []Source{{Field: "input", Patch: true}}}},
}.with(opencodeReads...)

// openclawPluginRel is the plugin's entry below the plugin; its folder is
// the OpenClaw plugin (package.json, openclaw.plugin.json).
const openclawPluginRel = "openclaw/index.js"

// openclawEvent is the event name the bundle's OpenClaw plugin puts in its
// payload: the hook it runs in.
const openclawEvent = "before_tool_call"

func (openclaw) Name() string { return "openclaw" }

func (openclaw) Claim(e *Envelope, env Lookup) Evidence {
	if e.HookEventName() == openclawEvent && e.Has("tool_call_id") && e.Has("tool_name") {
		return PayloadEvidence
	}
	return NoEvidence
}

func (openclaw) Tool(name string) (Tool, bool) { return openclawTools.lookup(name) }
func (openclaw) Tools() []Tool                 { return openclawTools.list() }
func (openclaw) ToolNames() []string           { return openclawTools.spellings() }

// Packaging: the plugin folder bundle/zcode-fence/openclaw, no hooks file.
func (openclaw) Packaging() Packaging {
	return Packaging{Event: openclawEvent, PluginFile: PluginDir + "/" + openclawPluginRel}
}

// ProjectDirEnv: none; the payload's cwd is the agent's workspace.
func (openclaw) ProjectDirEnv() []string     { return nil }
func (openclaw) OptionEnvPrefixes() []string { return nil }

// Answer: the ask line (the plugin turns it into a plugin approval
// request) where an approval surface can be connected: the Gateway, which
// routes it to its Control UI, TUI and chats. `openclaw agent --local` and
// `openclaw agent exec` run the agent in their own process with no
// approval surface (OpenClaw blocks such a request, and the model is told
// approvals are unavailable, not why): there the no_ask_fallback form.
func (openclaw) Answer(a Ask) []byte {
	if !openclawHeadless(a.Env) {
		return AskLine(a.Reason)
	}
	return stoppingAnswer(a)
}

// openclawHeadless: HeadlessEnv when set; else, on Linux, whether the
// nearest OpenClaw process among the hook's ancestors is an embedded run
// (`agent --local`, `agent exec`). The plugin runs inside that process, so
// the guard's parent is it. No OpenClaw ancestor (another OS): whether the
// hook has a terminal.
func openclawHeadless(env Lookup) bool {
	return hostProcess{
		match:  func(args []string) bool { return argsMention(args, "openclaw") },
		decide: openclawEmbedded,
	}.headless(env)
}

// openclawEmbedded reports whether an OpenClaw command line runs the agent
// in its own process: `agent` with `--local`, or `agent exec`.
func openclawEmbedded(args []string) bool {
	agent := -1
	for i, a := range args {
		if a == "agent" && agent < 0 {
			agent = i
			continue
		}
		if agent >= 0 && (a == "--local" || (i == agent+1 && a == "exec")) {
			return true
		}
	}
	return false
}

// OpenClaw: its state dir (openclaw.json with plugins.load.paths and
// plugins.entries, extensions/ where it copies installed plugins, agents/
// with their models.json and auth profiles, exec-approvals.json, .env),
// except workspace/, the directory it gives agents to work in by default;
// and the workspace's .openclaw/extensions, whose plugins it discovers.
// The rest of the workspace's .openclaw is left out: OpenClaw's file tools
// keep their scratch files in its tmp/.
var openclawPaths = []HostPath{
	{Rel: ".openclaw", Shape: PathTree, Except: []string{"workspace"}},
	{Rel: ".openclaw/extensions", Shape: PathTree, Project: true},
}

func (openclaw) HostPaths() []HostPath { return openclawPaths }

// OpenClaw (measured with 2026.9.6): `openclaw plugins install --link DIR
// --force --accept-capabilities` records DIR in openclaw.json
// plugins.load.paths and plugins.entries.<id>.enabled, loading the plugin
// in place; a plain install copies it into extensions/<id>, where it
// would not find the launcher. OPENCLAW_STATE_DIR moves ~/.openclaw,
// OPENCLAW_HOME replaces home.
var openclawInstall = Install{
	Label: "OpenClaw", Dir: ".openclaw", DirEnv: "OPENCLAW_STATE_DIR", HomeEnv: "OPENCLAW_HOME",
	PluginFile: openclawPluginRel, PluginListKey: "plugins.load.paths",
	PluginLists: []string{"openclaw.json"},
	Events:      []string{openclawEvent}, MarketSegment: -1, Enable: PluginPresent,
	InstallHow:  "openclaw plugins install --link --force --accept-capabilities <unpacked release>/" + PluginDir + "/openclaw (README: Install)",
	Credentials: []string{".env"},
}

func (openclaw) Install() Install { return openclawInstall }
