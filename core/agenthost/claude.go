package agenthost

import (
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// Claude Code (hook-protocol.md §1, measured live with 2.1.332).
//
// Evidence: the hook process has CLAUDECODE=1, CLAUDE_CODE_ENTRYPOINT and
// CLAUDE_PROJECT_DIR (the last one other hosts set too); the payload is
// snake_case (tool_name, tool_input, hook_event_name "PreToolUse") with no
// key only another host sends, and its transcript_path lies below
// ~/.claude/projects (payload evidence). Other hosts that load Claude
// plugins send the same shape, so the shape alone is the weakest claim and
// every other adapter's evidence beats it; a payload with nothing more than
// the shape may be Codex's, so Detect answers it in the form every host
// stops on.
type claudeCode struct{}

func init() { register(90, claudeCode{}) }

// fileSources are where the Claude Code and ZCode file tools name their
// targets, in the order the guard reports them.
var fileSources = []Source{{Field: "file_path"}, {Field: "filePath"}, {Field: "notebook_path"}, {Field: "notebookPath"}, {Field: "edits", Edits: true}, {Field: "path"}}

// patchSources add ApplyPatch's patch text, read before "path".
var patchSources = append(append(append([]Source{}, fileSources[:5]...),
	Source{Field: "patch", Patch: true}, Source{Field: "input", Patch: true},
	Source{Field: "patch_text", Patch: true}, Source{Field: "patchText", Patch: true}), fileSources[5:]...)

// claudeTools is the tool table Claude Code and ZCode share (ZCode uses
// Claude's tool names and adds Shell, PowerShell and ApplyPatch).
var claudeTools = toolTable{
	{[]string{"Bash"}, Tool{Name: "Bash", Kind: core.KindShell, Command: "command"}},
	{[]string{"Shell"}, Tool{Name: "Shell", Kind: core.KindShell, Command: "command"}},
	{[]string{"PowerShell"}, Tool{Name: "PowerShell", Kind: core.KindShell, Command: "command"}},
	{[]string{"Write"}, Tool{Name: "Write", Kind: core.KindFile, Paths: fileSources}},
	{[]string{"Edit"}, Tool{Name: "Edit", Kind: core.KindFile, Paths: fileSources}},
	{[]string{"MultiEdit"}, Tool{Name: "MultiEdit", Kind: core.KindFile, Paths: fileSources}},
	{[]string{"NotebookEdit"}, Tool{Name: "NotebookEdit", Kind: core.KindFile, Paths: fileSources}},
	{[]string{"ApplyPatch", "apply_patch"}, Tool{Name: "ApplyPatch", Kind: core.KindFile, Paths: patchSources}},
}.with(claudeReads...)

// claudePackaging: Claude Code reads the plugin's hooks/hooks.json
// (timeout in seconds, ${CLAUDE_PLUGIN_ROOT}); so do the hosts that load
// Claude plugins unchanged.
var claudePackaging = Packaging{HooksFile: PluginDir + "/hooks/hooks.json", Event: "PreToolUse",
	Command: `"` + claudeRootVar + `/libexec/zcode-fence"`, TimeoutUnit: time.Second, RootVar: claudeRootVar}

// claudeRootVar is the installed plugin's root in a Claude-form hook
// command; every host that loads the Claude plugin substitutes it.
const claudeRootVar = "${CLAUDE_PLUGIN_ROOT}"

func (claudeCode) Name() string { return "claude" }

func (claudeCode) Claim(e *Envelope, env Lookup) Evidence {
	switch {
	case !e.Has("tool_name"):
		return NoEvidence
	case e.TranscriptIn(claudeDir):
		return PayloadEvidence
	case lookupEnv(env, "CLAUDECODE") == "1" || lookupEnv(env, "CLAUDE_CODE_ENTRYPOINT") != "":
		return EnvEvidence
	}
	return ShapeEvidence
}

func (claudeCode) Tool(name string) (Tool, bool) { return claudeTools.lookup(name) }
func (claudeCode) Tools() []Tool                 { return claudeTools.list() }
func (claudeCode) ToolNames() []string           { return claudeTools.spellings() }
func (claudeCode) Packaging() Packaging          { return claudePackaging }
func (claudeCode) ProjectDirEnv() []string       { return []string{"CLAUDE_PROJECT_DIR"} }
func (claudeCode) OptionEnvPrefixes() []string   { return []string{"CLAUDE_PLUGIN_OPTION_"} }
func (claudeCode) Answer(a Ask) []byte           { return AskLine(a.Reason) }

// Claude Code: user and project settings*.json (hooks,
// disableAllHooks, enabledPlugins), hooks dirs, installed plugins and
// marketplaces.
var claudePaths = []HostPath{
	{Rel: claudeDir, Shape: PathSettings},
	{Rel: claudeDir + "/hooks", Shape: PathTree},
	{Rel: claudeDir + "/plugins", Shape: PathTree},
	{Rel: claudeDir, Shape: PathSettings, Project: true},
	{Rel: claudeDir + "/hooks", Shape: PathTree, Project: true},
}

func (claudeCode) HostPaths() []HostPath { return claudePaths }

// cachedPlugins is where ZCode, Claude Code and Codex copy an installed
// plugin, below their config dir: plugins/cache/<market>/zcode-fence/
// <version> (the market is segment 2).
const cachedPlugins = "plugins/cache/*/" + core.PluginName + "/*"

// Claude Code: the plugin copy in plugins/cache, enabledPlugins and
// disableAllHooks in settings.json (which can also hold hooks by hand);
// CLAUDE_CONFIG_DIR moves ~/.claude.
var claudeInstall = Install{
	Label: "Claude Code", Dir: claudeDir, DirEnv: "CLAUDE_CONFIG_DIR",
	Plugins: []string{cachedPlugins}, MarketSegment: 2,
	Enable: EnabledPlugins, EnableFile: "settings.json",
	HookFiles: []HookFile{{"settings.json", HooksJSON}, {"settings.local.json", HooksJSON}},
	Events:    []string{claudePackaging.Event},
	Timeout:   claudeTimeout,
	HooksOff:  "disableAllHooks", HooksOffFile: "settings.json", HooksOffValue: "true",
	InstallHow: "claude plugin marketplace add <this repository>, then claude plugin install " + core.PluginName + "@<market> (README: Install)",
	// The OAuth tokens on Linux and Windows (macOS keeps them in the keychain).
	Credentials: []string{".credentials.json"},
}

func (claudeCode) Install() Install { return claudeInstall }

// claudeDir is the host's config dir below home (and below a project).
const claudeDir = ".claude"
