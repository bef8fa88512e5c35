package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The agent hosts' command-line interfaces, as far as they can switch a
// plugin or its hooks off: which subcommands disable, uninstall or
// reconfigure a plugin or remove a marketplace, and which options run a
// session with hooks, plugins or extensions left out. Verbs were read from
// each CLI's own --help (Claude Code 2.1.332, Codex 0.171.0, Gemini CLI
// 0.61.0, Qwen Code 0.24.4, Copilot CLI 1.0.102, opencode 1.18.33, Kilo 7.7.7,
// Pi 0.73.1, Factory Droid 0.225.2, Cline 3.0.65, OpenClaw 2026.9.6)
// and, for ZCode, from its
// CLI sources (`zcode plugins list|enable|disable|uninstall|configure|
// marketplace remove`).

// AgentChangeKind says what an agent CLI command changes.
type AgentChangeKind uint8

const (
	// PluginChange: disables, uninstalls or reconfigures a plugin or
	// extension, or removes a marketplace (and with it its plugins).
	PluginChange AgentChangeKind = iota + 1
	// HooksChange: edits the hook settings, turns every hook off, or runs a
	// session without hooks, plugins or some extensions.
	HooksChange
)

// AgentChange is one agent CLI command that can switch a guard plugin off.
type AgentChange struct {
	Kind AgentChangeKind
	// Detail is the subcommand or option that matters, as written
	// ("plugin disable", "marketplace remove", "--bare").
	Detail string
	// Targets are the plugin, extension or marketplace names it acts on
	// (for HooksChange, the extensions a session keeps). Marketplace says
	// they name marketplaces.
	Targets     []ir.Word
	Marketplace bool
	// All: it acts on every plugin (claude plugin disable --all; every
	// HooksChange except an extension list).
	All bool
}

// AgentCLI reports whether command name (Command.Name), run with args
// (the words after the command word), is an agent host CLI command that
// can switch a plugin or its hooks off: claude, zcode, codex, gemini, qwen
// and copilot. Reading commands (plugin list, marketplace list,
// configure without --values-stdin) are not. Pure; linear in args.
func AgentCLI(name string, args []ir.Word) (AgentChange, bool) {
	for _, c := range agentCLIs {
		if c.name == name {
			return c.read(name, args)
		}
	}
	return AgentChange{}, false
}

// agentCLIs are the agent host CLIs AgentCLI reads, by command name, with
// the npm package each is published as (what npx and its kin run; "" when
// it is not on npm). The names are the hosts' ids in core/agenthost (a test
// there checks that every adapter has its CLI here and every CLI its
// adapter).
var agentCLIs = []struct {
	name, npmPackage string
	read             func(name string, args []ir.Word) (AgentChange, bool)
}{
	{"claude", "@anthropic-ai/claude-code", func(_ string, a []ir.Word) (AgentChange, bool) { return claudeCLI(a) }},
	{"zcode", "", func(_ string, a []ir.Word) (AgentChange, bool) { return zcodeCLI(a) }},
	{"codex", "@openai/codex", func(_ string, a []ir.Word) (AgentChange, bool) { return codexCLI(a) }},
	{"gemini", "@google/gemini-cli", geminiCLI},
	{"qwen", "@qwen-code/qwen-code", geminiCLI},
	{"copilot", "@github/copilot", func(_ string, a []ir.Word) (AgentChange, bool) { return copilotCLI(a) }},
	{"opencode", "opencode-ai", func(_ string, a []ir.Word) (AgentChange, bool) { return opencodeCLI(a) }},
	{"kilo", "@kilocode/cli", func(_ string, a []ir.Word) (AgentChange, bool) { return opencodeCLI(a) }},
	{"pi", "@mariozechner/pi-coding-agent", func(_ string, a []ir.Word) (AgentChange, bool) { return piCLI(a) }},
	{"droid", "@factory/cli", func(_ string, a []ir.Word) (AgentChange, bool) { return droidCLI(a) }},
	{"cline", "cline", func(_ string, a []ir.Word) (AgentChange, bool) { return clineCLI(a) }},
	{"openclaw", "openclaw", func(_ string, a []ir.Word) (AgentChange, bool) { return openclawCLI(a) }},
}

// AgentCLINames lists the command names AgentCLI reads, in table order.
func AgentCLINames() []string {
	out := make([]string, len(agentCLIs))
	for i, c := range agentCLIs {
		out[i] = c.name
	}
	return out
}

// IsAgentCLI reports whether name (Command.Name) is an agent host's CLI:
// its sessions run the hooks, zcode-fence's included, with the
// environment they were started with.
func IsAgentCLI(name string) bool {
	for _, c := range agentCLIs {
		if c.name == name {
			return true
		}
	}
	return false
}

// AgentCLIPackage maps a package a package runner starts (npx
// @anthropic-ai/claude-code, bunx @google/gemini-cli@latest) to the agent
// CLI it is; ok is false for any other package.
func AgentCLIPackage(pkg string) (name string, ok bool) {
	if at := strings.LastIndexByte(pkg, '@'); at > 0 {
		pkg = pkg[:at] // a version or tag
	}
	pkg = strings.ToLower(pkg)
	for _, c := range agentCLIs {
		if c.npmPackage != "" && c.npmPackage == pkg {
			return c.name, true
		}
	}
	return "", false
}

// claudeSpec lists Claude Code's options that take a value (those an
// agent would plausibly pass; an unlisted one only shifts the operands).
var claudeSpec = Spec{Short: "sr", Long: []string{"settings", "setting-sources", "model", "agent", "agents",
	"add-dir", "plugin-dir", "mcp-config", "permission-mode", "output-format", "input-format", "allowedTools",
	"allowed-tools", "disallowedTools", "disallowed-tools", "append-system-prompt", "system-prompt", "resume",
	"session-id", "fallback-model", "max-turns", "debug", "scope", "config", "marketplace", "accept-command",
	"effort", "max-budget-usd", "json-schema", "name", "tools"}}

func claudeCLI(args []ir.Word) (AgentChange, bool) {
	p := ParseArgs(args, claudeSpec)
	ops := lowerOps(p.Operands)
	// A session started without hooks or with its settings changed.
	if p.Has("bare") {
		return AgentChange{Kind: HooksChange, Detail: "--bare", All: true}, true
	}
	for _, v := range p.Values("settings") {
		if v.Unknown || mentionsHookSettings(v.Value) {
			return AgentChange{Kind: HooksChange, Detail: "--settings", All: true}, true
		}
	}
	for _, v := range p.Values("setting-sources") {
		if v.Unknown || !strings.Contains(strings.ToLower(v.Value), "user") {
			return AgentChange{Kind: HooksChange, Detail: "--setting-sources", All: true}, true
		}
	}
	if len(ops) >= 3 && ops[0] == "config" && (ops[1] == "set" || ops[1] == "add" || ops[1] == "remove") &&
		(p.Operands[2].Unknown || mentionsHookSettings(ops[2])) {
		return AgentChange{Kind: HooksChange, Detail: "config " + ops[1], All: true}, true
	}
	if len(ops) < 2 || ops[0] != "plugin" && ops[0] != "plugins" {
		return AgentChange{}, false
	}
	names := p.Operands[2:]
	switch ops[1] {
	case "disable":
		return AgentChange{Kind: PluginChange, Detail: "plugin disable", Targets: names, All: p.Has("a", "all") || len(names) == 0}, true
	case "uninstall", "remove":
		return AgentChange{Kind: PluginChange, Detail: "plugin " + ops[1], Targets: names}, true
	case "configure":
		if p.Has("values-stdin") {
			return AgentChange{Kind: PluginChange, Detail: "plugin configure --values-stdin", Targets: names}, true
		}
	case "install", "i":
		if p.Has("config") {
			return AgentChange{Kind: PluginChange, Detail: "plugin install --config", Targets: names}, true
		}
	case "marketplace":
		if len(ops) >= 3 && (ops[2] == "remove" || ops[2] == "rm") {
			return AgentChange{Kind: PluginChange, Detail: "plugin marketplace " + ops[2], Targets: p.Operands[3:], Marketplace: true}, true
		}
	}
	return AgentChange{}, false
}

// mentionsHookSettings reports whether a settings key or inline settings
// text touches hooks or plugin enablement.
func mentionsHookSettings(s string) bool {
	l := strings.ToLower(s)
	return strings.Contains(l, "hook") || strings.Contains(l, "enabledplugins") || strings.Contains(l, "plugin")
}

func zcodeCLI(args []ir.Word) (AgentChange, bool) {
	p := ParseArgs(args, Spec{Long: []string{"cwd", "locale", "options-file", "scope", "marketplace", "source"}})
	ops := lowerOps(p.Operands)
	if len(ops) < 2 || ops[0] != "plugins" && ops[0] != "plugin" {
		return AgentChange{}, false
	}
	names := p.Operands[2:]
	switch ops[1] {
	case "disable", "uninstall", "configure":
		return AgentChange{Kind: PluginChange, Detail: "plugins " + ops[1], Targets: names, All: len(names) == 0}, true
	case "marketplace":
		if len(ops) >= 3 && ops[2] == "remove" {
			return AgentChange{Kind: PluginChange, Detail: "plugins marketplace remove", Targets: p.Operands[3:], Marketplace: true}, true
		}
	}
	return AgentChange{}, false
}

func codexCLI(args []ir.Word) (AgentChange, bool) {
	p := ParseArgs(args, Spec{Short: "cmpsCiaP", Long: []string{"config", "enable", "disable", "model", "profile",
		"sandbox", "cd", "image", "ask-for-approval", "output-last-message", "color", "oss-provider", "local-provider", "add-dir", "output-schema"}})
	for _, v := range p.Values("disable") {
		if v.Unknown || strings.Contains(strings.ToLower(v.Value), "hook") {
			return AgentChange{Kind: HooksChange, Detail: "--disable " + v.Value, All: true}, true
		}
	}
	for _, v := range p.Values("c", "config") {
		if v.Unknown || strings.Contains(strings.ToLower(v.Value), "hook") || strings.Contains(strings.ToLower(v.Value), "plugin") {
			return AgentChange{Kind: HooksChange, Detail: "-c " + v.Value, All: true}, true
		}
	}
	ops := lowerOps(p.Operands)
	switch {
	case len(ops) >= 3 && ops[0] == "features" && ops[1] == "disable" && (p.Operands[2].Unknown || strings.Contains(ops[2], "hook")):
		return AgentChange{Kind: HooksChange, Detail: "features disable " + ops[2], All: true}, true
	case len(ops) >= 2 && ops[0] == "plugin" && ops[1] == "remove":
		return AgentChange{Kind: PluginChange, Detail: "plugin remove", Targets: p.Operands[2:]}, true
	case len(ops) >= 3 && ops[0] == "plugin" && ops[1] == "marketplace" && ops[2] == "remove":
		return AgentChange{Kind: PluginChange, Detail: "plugin marketplace remove", Targets: p.Operands[3:], Marketplace: true}, true
	}
	return AgentChange{}, false
}

func geminiCLI(name string, args []ir.Word) (AgentChange, bool) {
	// -e/--extensions is an array: it takes every word up to the next option.
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Unknown && (v == "-e" || v == "--extensions" || strings.HasPrefix(v, "--extensions=")) {
			var keep []ir.Word
			if eq := strings.IndexByte(v, '='); eq >= 0 {
				keep = append(keep, SubWord(args[i], eq+1))
			}
			for i+1 < len(args) && !IsOption(args[i+1]) {
				i++
				keep = append(keep, args[i])
			}
			return AgentChange{Kind: HooksChange, Detail: v, Targets: keep}, true
		}
		if !args[i].Unknown && v == "--safe-mode" && name == "qwen" {
			return AgentChange{Kind: HooksChange, Detail: "--safe-mode", All: true}, true
		}
	}
	p := ParseArgs(args, Spec{Short: "mp", Long: []string{"model", "prompt", "scope", "approval-mode", "output-format", "include-directories"}})
	ops := lowerOps(p.Operands)
	if len(ops) < 2 || ops[0] != "extensions" && ops[0] != "extension" {
		return AgentChange{}, false
	}
	switch ops[1] {
	case "disable", "uninstall":
		return AgentChange{Kind: PluginChange, Detail: "extensions " + ops[1], Targets: p.Operands[2:], All: len(p.Operands) == 2}, true
	}
	return AgentChange{}, false
}

func copilotCLI(args []ir.Word) (AgentChange, bool) {
	all := ParseArgs(args, Spec{}).Operands
	ops := lowerOps(all)
	if len(ops) < 2 || ops[0] != "plugin" && ops[0] != "plugins" {
		return AgentChange{}, false
	}
	switch ops[1] {
	case "disable", "uninstall":
		return AgentChange{Kind: PluginChange, Detail: "plugin " + ops[1], Targets: all[2:], All: len(all) == 2}, true
	case "marketplace":
		if len(ops) >= 3 && ops[2] == "remove" {
			return AgentChange{Kind: PluginChange, Detail: "plugin marketplace remove", Targets: all[3:], Marketplace: true}, true
		}
	}
	return AgentChange{}, false
}

// droidCLI reads Factory Droid's CLI (0.225.2 --help): --settings merges a
// settings file (hooks, enabledPlugins) into the session; plugin
// uninstall (alias remove) and plugin marketplace remove, as Copilot CLI's.
func droidCLI(args []ir.Word) (AgentChange, bool) {
	p := ParseArgs(args, Spec{Long: []string{"settings", "cwd", "auto", "model", "append-system-prompt", "append-system-prompt-file", "fork"}, Short: "mrwf"})
	if p.Has("settings") {
		return AgentChange{Kind: HooksChange, Detail: "--settings", All: true}, true
	}
	ops := lowerOps(p.Operands)
	if len(ops) >= 2 && (ops[0] == "plugin" || ops[0] == "plugins") && ops[1] == "remove" {
		return AgentChange{Kind: PluginChange, Detail: "plugin remove", Targets: p.Operands[2:], All: len(ops) == 2}, true
	}
	return copilotCLI(args)
}

// opencodeCLI reads opencode's and Kilo's CLI (opencode 1.18.33, Kilo
// 7.7.7 --help): --pure runs a session "without external plugins", the
// guard's among them; uninstall removes the host with its config dir.
func opencodeCLI(args []ir.Word) (AgentChange, bool) {
	p := ParseArgs(args, Spec{})
	if p.Has("pure") {
		return AgentChange{Kind: HooksChange, Detail: "--pure", All: true}, true
	}
	// uninstall --keep-config (-c) keeps the config dir, and the guard's
	// plugin in it; --dry-run and --help change nothing.
	if ops := lowerOps(p.Operands); len(ops) >= 1 && ops[0] == "uninstall" && !p.Has("c", "keep-config", "dry-run", "h", "help") {
		return AgentChange{Kind: PluginChange, Detail: "uninstall", All: true}, true
	}
	return AgentChange{}, false
}

// piCLI reads Pi's CLI (0.73.1 --help): --no-extensions (-ne) runs a
// session without discovered extensions; remove (uninstall) takes an
// installed package, the guard's among them, out of its settings.
func piCLI(args []ir.Word) (AgentChange, bool) {
	// Pi spells its short options with one dash and two letters (-ne).
	for _, w := range args {
		if !w.Unknown && (w.Value == "--no-extensions" || w.Value == "-ne") {
			return AgentChange{Kind: HooksChange, Detail: w.Value, All: true}, true
		}
	}
	all := ParseArgs(args, Spec{Short: "e", Long: []string{"extension", "provider", "model", "api-key", "session", "mode"}}).Operands
	if ops := lowerOps(all); len(ops) >= 1 && (ops[0] == "remove" || ops[0] == "uninstall") {
		// A source (a path, npm:..., git:...) names the package as a
		// marketplace names its plugins: by containing the name.
		return AgentChange{Kind: PluginChange, Detail: ops[0], Targets: all[1:], Marketplace: true, All: len(all) == 1}, true
	}
	return AgentChange{}, false
}

// clineCLI reads Cline's CLI (3.0.65 --help): --config <dir> runs it with
// another configuration dir, whose hooks replace ~/.cline's (measured: a
// session with --config elsewhere ran none of ~/.cline/hooks); its
// subcommands take the option too (cline auth --config). --hooks-dir only
// adds hooks, and a hook file is removed by deleting it (a protected path).
func clineCLI(args []ir.Word) (AgentChange, bool) {
	if ParseArgs(args, Spec{Long: []string{"config"}}).Has("config") {
		return AgentChange{Kind: HooksChange, Detail: "--config", All: true}, true
	}
	return AgentChange{}, false
}

// openclawCLI reads OpenClaw's CLI (2026.9.6 plugins --help, config
// --help): plugins disable and uninstall take plugin ids; config set and
// unset of a key under plugins (plugins.enabled, plugins.entries.<id>,
// plugins.load.paths) can switch any plugin off.
func openclawCLI(args []ir.Word) (AgentChange, bool) {
	all := ParseArgs(args, Spec{}).Operands
	ops := lowerOps(all)
	if len(ops) >= 2 && ops[0] == "plugins" && (ops[1] == "disable" || ops[1] == "uninstall") {
		return AgentChange{Kind: PluginChange, Detail: "plugins " + ops[1], Targets: all[2:], All: len(all) == 2}, true
	}
	if len(ops) >= 3 && ops[0] == "config" && (ops[1] == "set" || ops[1] == "unset") &&
		(ops[2] == "plugins" || strings.HasPrefix(ops[2], "plugins.")) {
		return AgentChange{Kind: PluginChange, Detail: "config " + ops[1] + " " + ops[2], All: true}, true
	}
	return AgentChange{}, false
}

// lowerOps returns the operands' values in lower case ("" for unknown
// words, which then match no subcommand).
func lowerOps(ws []ir.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if !w.Unknown {
			out[i] = strings.ToLower(w.Value)
		}
	}
	return out
}
