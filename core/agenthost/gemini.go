package agenthost

import (
	"path"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// Gemini CLI (measured with 0.61.0 against a fake API; testdata/hosts/).
//
// Evidence: hook_event_name "BeforeTool" (no other host uses it), or a
// transcript_path below ~/.gemini/tmp; tools
// run_shell_command {command, description, dir_path}, write_file
// {file_path (relative as the model wrote it), content}, replace
// {file_path, old_string, new_string, instruction}. The hook process gets
// GEMINI_PROJECT_DIR, GEMINI_CWD, GEMINI_SESSION_ID, GEMINI_PLANS_DIR and
// CLAUDE_PROJECT_DIR (all the session cwd). Qwen Code also sets
// GEMINI_PROJECT_DIR, so only GEMINI_CWD and GEMINI_PLANS_DIR count as
// Gemini's environment. The hook also inherits what Gemini loaded from the
// project's .env (.gemini/.env or .env, from the workspace up) at start:
// config.WithoutPlanted keeps a guard setting from there out
// (e2e/planted_env_test.go).
//
// Answer: Gemini ignores Claude's hookSpecificOutput; it reads a top-level
// decision. "ask" shows its confirmation dialog with systemMessage (even in
// YOLO mode). Headless (-p, or no terminal) an ask hangs until killed, so
// there the guard answers with no_ask_fallback instead: {"decision":"deny",
// "reason":...} by default. Hooks come from the extension's hooks/hooks.json
// (event BeforeTool, timeout in milliseconds: a Claude-style 5 means 5 ms);
// an extension installed from a local path is a copy of that path, so the
// launcher must be inside it (see Packaging).
type gemini struct{}

func init() { register(20, gemini{}) }

var geminiTools = toolTable{
	{[]string{"run_shell_command"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command", Dir: []string{"dir_path", "directory"}}},
	{[]string{"write_file"}, Tool{Name: "Write", Kind: core.KindFile, Paths: []Source{{Field: "file_path"}}}},
	{[]string{"replace"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: []Source{{Field: "file_path"}}}},
}.with(geminiReads...)

// geminiProcess recognises `gemini` (node .../@google/gemini-cli/bundle/gemini.js).
var geminiProcess = hostProcess{
	match:            func(args []string) bool { return argsMention(args, "gemini", "gemini-cli") },
	headlessFlags:    []string{"-p", "--prompt"},
	interactiveFlags: []string{"-i", "--prompt-interactive"},
}

func (gemini) Name() string { return "gemini" }

func (gemini) Claim(e *Envelope, env Lookup) Evidence {
	if e.HookEventName() == "BeforeTool" || e.TranscriptIn(geminiDir) && e.Has("tool_name") {
		return PayloadEvidence
	}
	if lookupEnv(env, "GEMINI_CWD") != "" || lookupEnv(env, "GEMINI_PLANS_DIR") != "" {
		return EnvEvidence
	}
	return NoEvidence
}

func (gemini) Tool(name string) (Tool, bool) { return geminiTools.lookup(name) }
func (gemini) Tools() []Tool                 { return geminiTools.list() }
func (gemini) ToolNames() []string           { return geminiTools.spellings() }
func (gemini) ProjectDirEnv() []string       { return []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"} }
func (gemini) OptionEnvPrefixes() []string   { return nil }

// Packaging: the Gemini extension is bundle/ (ExtensionDir:
// gemini-extension.json and hooks/hooks.json), the directory that holds
// the plugin, so that `gemini extensions install` copies the launcher and
// the binaries along with the manifest; the hook runs the plugin's
// launcher below ${extensionPath}.
func (gemini) Packaging() Packaging {
	const root, sep = "${extensionPath}", "${/}"
	return Packaging{HooksFile: ExtensionDir + "/hooks/hooks.json", Event: "BeforeTool",
		Command:     `"` + root + sep + path.Base(PluginDir) + sep + "libexec" + sep + `zcode-fence"`,
		TimeoutUnit: time.Millisecond, RootVar: root, SepVar: sep}
}

type geminiAnswer struct {
	Decision      string `json:"decision"`
	Reason        string `json:"reason"`
	SystemMessage string `json:"systemMessage,omitempty"`
}

func (gemini) Answer(a Ask) []byte {
	if !geminiProcess.headless(a.Env) {
		return encodeLine(geminiAnswer{"ask", a.Reason, a.Reason})
	}
	if !denies(a) {
		return nil
	}
	return encodeLine(geminiAnswer{Decision: "deny", Reason: DenyReason(a)})
}

// Gemini CLI: settings.json (hooks) and extensions (where the guard is
// installed); the project's .gemini.
var geminiPaths = []HostPath{
	{Rel: geminiDir + "/settings.json", Shape: PathFile},
	{Rel: geminiDir + "/extensions", Shape: PathTree},
	{Rel: geminiDir, Shape: PathTree, Project: true},
}

func (gemini) HostPaths() []HostPath { return geminiPaths }

// Gemini CLI (measured with 0.61.0): `gemini extensions install` copies the
// extension to extensions/zcode-fence (the plugin in its zcode-fence/
// subdir) and records it in extensions/extension-enablement.json
// (`extensions disable` adds a "!<dir>/*" override); `gemini extensions
// link DIR` leaves only .gemini-extension-install.json {"source": DIR,
// "type": "link"} there and loads DIR in place; hooks by hand go to
// settings.json, event BeforeTool, timeout in milliseconds (60000 by
// default). GEMINI_CLI_HOME replaces home. Headless, an ask hangs.
var geminiInstall = Install{
	Label: "Gemini CLI", Dir: geminiDir, HomeEnv: "GEMINI_CLI_HOME",
	Plugins: []string{"extensions/" + core.PluginName}, MarketSegment: -1, PluginBelow: path.Base(PluginDir),
	LinkFile: ".gemini-extension-install.json",
	Enable:   ExtensionOverrides, EnableFile: "extensions/extension-enablement.json",
	HookFiles:        []HookFile{{"settings.json", HooksJSON}},
	Events:           []string{"BeforeTool"},
	Timeout:          TimeoutRule{Fields: []TimeoutField{{"timeout", time.Millisecond}}, Default: 60 * time.Second},
	HeadlessAskHangs: true,
	InstallHow:       "gemini extensions install <a clone of this repository>/" + ExtensionDir + " --consent (README: Install)",
	// The Google OAuth tokens and the MCP servers' OAuth tokens.
	Credentials: []string{"oauth_creds.json", "mcp-oauth-tokens.json"},
}

func (gemini) Install() Install { return geminiInstall }

// geminiDir is the host's config dir below home (and below a project).
const geminiDir = ".gemini"
