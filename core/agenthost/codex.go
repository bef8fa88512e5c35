package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
	"time"
)

// OpenAI Codex CLI (measured with 0.171.0 against a fake Responses API;
// testdata/hosts/).
//
// Evidence: Claude's shape plus the top-level keys turn_id and model (both
// required in Codex's pre-tool-use input schema; no other host sends
// turn_id) and a transcript_path below ~/.codex/sessions; exec_command
// arrives as tool_name "Bash" with tool_input {command}. Any one of turn_id
// and the transcript is enough (the payload says it is Codex's). model
// alone is KeyEvidence: it beats the environment of a host Codex runs
// inside (ZCODE_APP_VERSION in ZCode's terminal) and loses to Claude Code's
// own transcript path, should Claude ever send a model key. A variable an
// npm-installed Codex sets for its children (CODEX_MANAGED_BY_NPM,
// CODEX_MANAGED_PACKAGE_ROOT, measured in the hook's environment) or
// CODEX_THREAD_ID is environment evidence. A payload that no host can be
// told from by more than its shape is answered in the form every host
// stops on (Detect). The payload cwd is the command's working directory
// (exec_command's workdir), not the session's: a call with workdir /tmp
// came with cwd "/tmp". The hook process itself runs in the session's
// directory, and the shell that runs the hook command sets PWD to it, so
// PWD is the project dir. No CODEX_* variable marks a hook reliably
// (CODEX_MANAGED_BY_NPM only says how Codex was installed).
//
// apply_patch (measured with 0.171.0; testdata/hosts/codex-apply_patch.json):
// Codex offers its freeform apply_patch tool to models its catalog marks
// with apply_patch_tool_type "freeform" (a custom tool in the Responses API,
// the patch text as its input); the hook gets tool_name "apply_patch" with
// the text in tool_input.command. The same patch run as `apply_patch
// <<'EOF' ... EOF` through exec_command is applied by Codex too, and the
// hook sees tool_name "Bash" with that command line
// (codex-exec_command-apply_patch.json): the fence reads the patch there
// (cmdfacts.ParsePatch). The input and patch fields are read as well, for
// older builds that sent the function form {"input": ...}.
//
// Answer: Codex rejects "ask" (and a bare "allow") as unsupported, counts
// the hook as failed and runs the command. It honours a deny
// (hookSpecificOutput.permissionDecision "deny" with a reason), so with
// no_ask_fallback=deny (the default) every ask becomes that deny, with a
// reason telling the agent to stop and ask the user; with silent, nothing.
// An unreviewed hook is skipped silently: users must trust it under /hooks.
type codex struct{}

func init() { register(50, codex{}) }

var codexPatch = []Source{{Field: "command", Patch: true}, {Field: "input", Patch: true}, {Field: "patch", Patch: true}}

var codexTools = toolTable{
	{[]string{"Bash"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command"}},
	{[]string{"apply_patch", "ApplyPatch"}, Tool{Name: "ApplyPatch", Kind: core.KindFile, Paths: codexPatch}},
}

func (codex) Name() string { return "codex" }

// codexEnv are variables Codex sets for the processes it starts.
var codexEnv = []string{"CODEX_MANAGED_BY_NPM", "CODEX_MANAGED_PACKAGE_ROOT", "CODEX_THREAD_ID"}

func (codex) Claim(e *Envelope, env Lookup) Evidence {
	if !e.Has("tool_name") {
		return NoEvidence
	}
	if e.Has("turn_id") || e.TranscriptIn(codexDir) {
		return PayloadEvidence
	}
	if e.Has("model") {
		return KeyEvidence
	}
	for _, k := range codexEnv {
		if lookupEnv(env, k) != "" {
			return EnvEvidence
		}
	}
	return NoEvidence
}

func (codex) Tool(name string) (Tool, bool) { return codexTools.lookup(name) }
func (codex) Tools() []Tool                 { return codexTools.list() }
func (codex) ToolNames() []string           { return codexTools.spellings() }
func (codex) ProjectDirEnv() []string       { return []string{"PWD"} }
func (codex) OptionEnvPrefixes() []string   { return nil }

// Packaging: `codex plugin add` reads the Claude marketplace and plugin
// unchanged, hooks/hooks.json included.
func (codex) Packaging() Packaging { return claudePackaging }

func (codex) Answer(a Ask) []byte {
	if !denies(a) {
		return nil
	}
	return claudeDecision("deny", DenyReason(a))
}

// Codex: config.toml ([[hooks.PreToolUse]], features), hooks.json,
// hooks, its plugin store; the project's .codex.
var codexPaths = []HostPath{
	{Rel: codexDir + "/config.toml", Shape: PathFile},
	{Rel: codexDir + "/hooks.json", Shape: PathFile},
	{Rel: codexDir + "/hooks", Shape: PathTree},
	{Rel: codexDir + "/plugins", Shape: PathTree},
	{Rel: codexDir, Shape: PathTree, Project: true},
}

func (codex) HostPaths() []HostPath { return codexPaths }

// Codex (measured with 0.171.0): `codex plugin add` copies the plugin to
// plugins/cache/<market>/zcode-fence/<version> and writes
// [plugins."zcode-fence@<market>"] enabled = true to config.toml; hooks by
// hand go to hooks.json or config.toml [[hooks.PreToolUse]];
// `codex features disable hooks` writes [features] hooks = false; the hooks
// a user reviewed under /hooks are recorded as [hooks.state."<key>"]
// trusted_hash = "sha256:<hex>", the plugin hook's key being
// "zcode-fence@<market>:hooks/hooks.json:pre_tool_use:0:0" (`codex
// app-server` hooks/list shows each hook's key, currentHash and
// trustStatus: untrusted without a record, trusted when trusted_hash is
// the first part of currentHash, modified when it is another: after the
// hook changed). CODEX_HOME moves ~/.codex. Codex cannot ask.
var codexInstall = Install{
	Label: "Codex", Dir: codexDir, DirEnv: "CODEX_HOME",
	Plugins: []string{cachedPlugins}, MarketSegment: 2,
	Enable: CodexPlugins, EnableFile: "config.toml",
	HookFiles: []HookFile{{"hooks.json", HooksJSON}, {"config.toml", HooksTOML}},
	Events:    []string{claudePackaging.Event},
	Timeout:   TimeoutRule{Fields: []TimeoutField{{"timeout", time.Second}}},
	HooksOff:  "features.hooks", HooksOffFile: "config.toml", HooksOffValue: "false",
	CannotAsk: true, TrustTable: "hooks.state", TrustFile: "config.toml",
	InstallHow: "codex plugin marketplace add <this repository>, then codex plugin add " + core.PluginName + "@<market> (README: Install)",
	// The ChatGPT login tokens or API key.
	Credentials: []string{"auth.json"},
}

func (codex) Install() Install { return codexInstall }

// codexDir is the host's config dir below home (and below a project).
const codexDir = ".codex"
