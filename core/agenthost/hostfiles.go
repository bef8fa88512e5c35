package agenthost

// The hosts' own files and variables that decide whether (and how) the
// guard runs. This package is their one copy: core/protect builds its host
// entries from HostPaths, PluginDataEnv and PluginRootEnv, and
// core/config reads the same variables (DataDir, GuardEnv).

// PathShape says which paths at a HostPath's place are meant.
type PathShape uint8

const (
	// PathFile: exactly this file.
	PathFile PathShape = iota
	// PathTree: this directory and everything below it, except the
	// HostPath's Except subtrees.
	PathTree
	// PathSettings: every file named settings*.json directly in this
	// directory (settings.json, settings.local.json).
	PathSettings
	// PathNamed: every directory named Rel at any depth below the anchor,
	// with everything below it (nested repositories' .git).
	PathNamed
)

// HostPath is one file or directory of an agent host holding its settings,
// hooks or installed plugins: whoever writes there can switch the guard
// off for the next session.
type HostPath struct {
	// Rel is the path below the user's home directory, or below the
	// project root when Project is set, written with "/".
	Rel   string
	Shape PathShape
	// Project: Rel is below the call's project root (the project's own
	// host settings, read at the project's next session).
	Project bool
	// Except are subtrees of a PathTree (relative to it, with "/") that
	// are the agent's own working space (ZCode's memory dir).
	Except []string
}

// HostPaths is every adapter's HostPaths, in registration order, each
// place once. Pure; it allocates a new slice per call.
func HostPaths() []HostPath {
	var out []HostPath
	type place struct {
		rel     string
		shape   PathShape
		project bool
	}
	seen := map[place]bool{}
	for _, a := range Adapters() {
		for _, p := range a.HostPaths() {
			k := place{p.Rel, p.Shape, p.Project}
			if !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// PluginDataEnv are the variables a host sets to the plugin's data dir, in
// the order the guard prefers them (ZCode's over Claude Code's; Codex and
// Copilot CLI run the Claude form of the plugin and set CLAUDE_PLUGIN_DATA
// too, Gemini CLI and Qwen Code none).
var PluginDataEnv = []string{"ZCODE_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA"}

// PluginRootEnv are the variables a host sets to the installed plugin's
// directory (the hook command's ${CLAUDE_PLUGIN_ROOT}).
var PluginRootEnv = []string{"ZCODE_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"}

// ProjectDirEnvs is every adapter's ProjectDirEnv, without repeats, in
// registration order: the variables that can move a hook call's project
// root on some host (Codex's is PWD).
func ProjectDirEnvs() []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range Adapters() {
		for _, v := range a.ProjectDirEnv() {
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}
