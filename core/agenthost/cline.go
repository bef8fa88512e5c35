package agenthost

import (
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// Cline CLI (npm "cline"; measured with 3.0.65 against a fake
// chat-completions API given with `cline auth -p openai -b URL`;
// testdata/hosts/cline-*.json, e2e TestClineHook).
//
// Cline runs hook files: an executable named after the event (PreToolUse,
// or PreToolUse.sh, .js, .py, ...) in ~/.cline/hooks ($CLINE_DIR/hooks),
// ~/Documents/Cline/Hooks, or the workspace's .cline/hooks and
// .clinerules/hooks. It finds them by listing those directories and keeps
// regular files only: a symbolic link there is skipped, silently
// (measured). It runs every one found, with the workspace as its working
// directory and the payload on stdin, before each tool call: {"clineVersion",
// "timestamp", "taskId", "sessionContext", "workspaceRoots" (the first is
// the session's), "workspaceInfo", "userId", "agent_id", "hookName":
// "tool_call", "iteration", "tool_call": {"id", "name", "input"},
// "preToolUse": {"toolName", "parameters" (each value as a JSON string)}};
// no cwd key, no variable naming the project (CLINE_BUILD_ENV and
// CLINE_CONNECTOR_CLI_LAUNCH are in its environment). The decoder reads
// tool_call's name and input and the first workspace root as the cwd.
//
// Answer: stdout's JSON (or its last "HOOK_CONTROL\t" line) with
// "cancel": true and "errorMessage" stops the whole run (the agent loop
// ends with a ControlledStopError carrying the message, which goes to
// ~/.cline/data/logs/cline.log; the user sees "[abort] aborted by another
// client"); "context" adds text for the model and the call runs; "review"
// is read but acted on by nothing in 3.0.65. There is no way to ask, so
// the guard answers with no_ask_fallback, in the TUI and headless alike:
// {"cancel": true, "errorMessage": DenyReason}. A hook that fails (exits
// without JSON, prints what is not JSON, or runs past the 120 s timeout,
// which no setting changes) is logged and the call runs: the bundle's hook
// file therefore answers with cancel itself when it cannot run the guard.
//
// Tools (3.0.65): run_commands {commands: [...]}, each command run by
// bash -c from the workspace in a shell of its own (a cd in one does not
// carry over: measured); editor {path, old_text, new_text, insert_line},
// which creates a missing file; apply_patch {input} (the patch text, for
// the models Cline gives it); read_files {files: [{path, start_line,
// end_line}]}.
type cline struct{}

func init() { register(63, cline{}) }

var clineTools = toolTable{
	{[]string{"run_commands"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "commands", Commands: true}},
	{[]string{"editor"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: []Source{{Field: "path"}}}},
	{[]string{"apply_patch"}, Tool{Name: "ApplyPatch", Kind: core.KindFile, Paths: []Source{{Field: "input", Patch: true}}}},
}.with(clineReads...)

// clineHookRel is the bundle's hook file below the plugin; clineEvent the
// hook it is (the file's name).
const (
	clineHookRel = "cline/PreToolUse"
	clineEvent   = "PreToolUse"
)

// clineEnv are variables the Cline CLI sets in its hooks' environment.
var clineEnv = []string{"CLINE_BUILD_ENV", "CLINE_CONNECTOR_CLI_LAUNCH"}

func (cline) Name() string { return "cline" }

func (cline) Claim(e *Envelope, env Lookup) Evidence {
	if e.HookEventName() == "tool_call" && (e.Has("preToolUse") || e.Has("clineVersion")) {
		return PayloadEvidence
	}
	for _, k := range clineEnv {
		if lookupEnv(env, k) != "" {
			return EnvEvidence
		}
	}
	return NoEvidence
}

func (cline) Tool(name string) (Tool, bool) { return clineTools.lookup(name) }
func (cline) Tools() []Tool                 { return clineTools.list() }
func (cline) ToolNames() []string           { return clineTools.spellings() }

// Packaging: the hook file bundle/zcode-fence/cline/PreToolUse, which runs
// the launcher beside it (a copy in ~/.cline/hooks execs it).
func (cline) Packaging() Packaging {
	return Packaging{Event: clineEvent, PluginFile: PluginDir + "/" + clineHookRel}
}

// ProjectDirEnv: none; the payload's first workspace root is the project.
func (cline) ProjectDirEnv() []string     { return nil }
func (cline) OptionEnvPrefixes() []string { return nil }

// clineCancel is Cline's hook answer that stops the run.
type clineCancel struct {
	Cancel       bool   `json:"cancel"`
	ErrorMessage string `json:"errorMessage"`
}

// Answer: Cline cannot ask; the no_ask_fallback form, in Cline's words.
func (cline) Answer(a Ask) []byte {
	if !denies(a) {
		return nil
	}
	return encodeLine(clineCancel{true, DenyReason(a)})
}

// Cline: ~/.cline's hooks and plugins (in-process JS plugins can change a
// call's input) and its settings, ~/Documents/Cline's hooks and plugins;
// the workspace's .cline (hooks, plugins) and .clinerules/hooks.
var clinePaths = []HostPath{
	{Rel: clineDir + "/hooks", Shape: PathTree},
	{Rel: clineDir + "/plugins", Shape: PathTree},
	{Rel: clineDir + "/data/settings", Shape: PathTree},
	{Rel: "Documents/Cline/Hooks", Shape: PathTree},
	{Rel: "Documents/Cline/Plugins", Shape: PathTree},
	{Rel: clineDir, Shape: PathTree, Project: true},
	{Rel: ".clinerules/hooks", Shape: PathTree, Project: true},
}

func (cline) HostPaths() []HostPath { return clinePaths }

// Cline (measured with 3.0.65): the hook file is a copy (Cline runs no
// link) that execs the bundle's cline/PreToolUse by its absolute path;
// `sh <unpacked release>/bundle/zcode-fence/cline/install.sh` writes it.
// CLINE_DIR moves ~/.cline. The timeout is Cline's own, 120 s.
var clineInstall = Install{
	Label: "Cline CLI", Dir: clineDir, DirEnv: "CLINE_DIR",
	PluginFile: clineHookRel, HookScripts: []string{"hooks/" + clineEvent + "*"},
	Events: []string{clineEvent}, CannotAsk: true, MarketSegment: -1, Enable: PluginPresent,
	Timeout:     TimeoutRule{Default: 120 * time.Second},
	InstallHow:  "sh <unpacked release>/" + PluginDir + "/cline/install.sh (README: Install)",
	Credentials: []string{"data/settings/providers.json"},
}

func (cline) Install() Install { return clineInstall }

// clineDir is the host's config dir below home (and below a project).
const clineDir = ".cline"
