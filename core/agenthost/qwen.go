package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
	"time"
)

// Qwen Code (measured with 0.24.4 on Node 22 against a fake API;
// testdata/hosts/).
//
// Evidence: hook_event_name "PreToolUse" with Gemini's tool names
// (run_shell_command, write_file, edit) and the top-level keys prompt_id,
// tool_use_id and tool_call_id, and a transcript_path below ~/.qwen; the
// hook process gets QWEN_PROJECT_DIR,
// QWEN_CODE_SESSION_ID and friends, plus GEMINI_PROJECT_DIR and
// CLAUDE_PROJECT_DIR. QWEN_CODE_PROJECT_DIR is NOT the project: it is the
// session store under ~/.qwen/projects/. write_file and edit reject a
// relative file_path before the hook runs. The hook also inherits what
// Qwen loaded from the project's .env (.qwen/.env or .env, from the
// workspace up) at start: config.WithoutPlanted keeps a guard setting from
// there out (e2e/planted_env_test.go).
//
// Answer: Claude's ask line. Interactive: "Do you want to proceed?" (even in
// YOLO mode). Headless Qwen turns the ask into a deny carrying the reason
// by itself, so no fallback is needed.
type qwen struct{}

func init() { register(30, qwen{}) }

var qwenTools = toolTable{
	{[]string{"run_shell_command"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command", Dir: []string{"directory", "dir_path"}}},
	{[]string{"write_file"}, Tool{Name: "Write", Kind: core.KindFile, Paths: []Source{{Field: "file_path"}}}},
	{[]string{"edit", "replace"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: []Source{{Field: "file_path"}}}},
}.with(geminiReads...)

// qwenEnv are variables only Qwen Code sets in the hook's environment.
var qwenEnv = []string{"QWEN_PROJECT_DIR", "QWEN_CODE_SESSION_ID"}

func (qwen) Name() string { return "qwen" }

func (qwen) Claim(e *Envelope, env Lookup) Evidence {
	if e.HookEventName() == "PreToolUse" && e.Has("tool_call_id") || e.TranscriptIn(qwenDir) {
		if _, ok := qwenTools.lookup(e.ToolName()); ok {
			return PayloadEvidence
		}
	}
	for _, k := range qwenEnv {
		if lookupEnv(env, k) != "" {
			return EnvEvidence
		}
	}
	return NoEvidence
}

func (qwen) Tool(name string) (Tool, bool) { return qwenTools.lookup(name) }
func (qwen) Tools() []Tool                 { return qwenTools.list() }
func (qwen) ToolNames() []string           { return qwenTools.spellings() }
func (qwen) ProjectDirEnv() []string       { return []string{"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} }
func (qwen) OptionEnvPrefixes() []string   { return nil }

// Packaging: `qwen extensions install` converts the Claude plugin and keeps
// its hooks/hooks.json.
func (qwen) Packaging() Packaging { return claudePackaging }
func (qwen) Answer(a Ask) []byte  { return AskLine(a.Reason) }

// Qwen Code: as Gemini CLI, under .qwen, plus extension-store/ whose
// state.json records each extension's activation (measured with 0.24.4).
var qwenPaths = []HostPath{
	{Rel: qwenDir + "/settings.json", Shape: PathFile},
	{Rel: qwenDir + "/extensions", Shape: PathTree},
	{Rel: qwenDir + "/extension-store", Shape: PathTree},
	{Rel: qwenDir, Shape: PathTree, Project: true},
}

func (qwen) HostPaths() []HostPath { return qwenPaths }

// Qwen Code (measured with 0.24.4): `qwen extensions install
// <market>:zcode-fence` converts the Claude plugin into
// extensions/zcode-fence (hooks/hooks.json kept) and records it in
// extensions/extension-enablement.json, as Gemini CLI does (its install
// record is .qwen-extension-install.json, a link read as Gemini's: not
// measured); hooks by hand
// go to settings.json, timeout in seconds (1000 and above read as
// milliseconds), 60 s by default. QWEN_HOME moves ~/.qwen.
var qwenInstall = Install{
	Label: "Qwen Code", Dir: qwenDir, DirEnv: "QWEN_HOME",
	Plugins: []string{"extensions/" + core.PluginName}, MarketSegment: -1,
	LinkFile: ".qwen-extension-install.json",
	Enable:   ExtensionOverrides, EnableFile: "extensions/extension-enablement.json",
	HookFiles:  []HookFile{{"settings.json", HooksJSON}},
	Events:     []string{claudePackaging.Event},
	Timeout:    TimeoutRule{Fields: []TimeoutField{{"timeout", time.Second}}, Default: 60 * time.Second, MsFrom: 1000},
	InstallHow: "qwen extensions install <this repository>:" + core.PluginName + " --consent (README: Install)",
	// The Qwen OAuth tokens.
	Credentials: []string{"oauth_creds.json"},
}

func (qwen) Install() Install { return qwenInstall }

// qwenDir is the host's config dir below home (and below a project).
const qwenDir = ".qwen"
