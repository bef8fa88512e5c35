package core

import (
	"context"
	"encoding/json"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Layer is one link of the chain. Decide must be safe to call from several
// goroutines, must honour ctx's deadline (the host gives every layer a share
// of one global budget of about 4.5 s), and must not write to stdout or
// stderr: stdout is the hook protocol.
//
// Returning an error means "could not decide"; the host logs it and treats
// the layer as Silent. A Silent verdict is an answer, not an error.
type Layer interface {
	Name() string
	Decide(ctx context.Context, call *Call) (Verdict, error)
}

// ToolKind tells a layer what sort of call it is looking at.
type ToolKind int

const (
	// KindOther is any tool the guard does not judge (Read, WebSearch, ...).
	KindOther ToolKind = iota
	// KindShell is a shell command: Bash, Shell or PowerShell.
	KindShell
	// KindFile is a file-writing tool: Write, Edit, MultiEdit, NotebookEdit,
	// ApplyPatch.
	KindFile
	// KindRead is a tool that reads files into the agent's context: Read,
	// Grep, NotebookRead and the hosts' equivalents (Gemini's read_file,
	// read_many_files, search_file_content; Copilot's view). Only the
	// fourth line (secrets stay home) judges them: the host sends such a
	// call to the built-in layers that declare they read them
	// (host.Builtin.Reads), never to the fence, a third-party layer or the
	// decision model. Call.Paths are the files or directories read.
	KindRead
)

// String returns "shell", "file", "read" or "other".
func (k ToolKind) String() string {
	switch k {
	case KindShell:
		return "shell"
	case KindFile:
		return "file"
	case KindRead:
		return "read"
	default:
		return "other"
	}
}

// Call is one tool call as the host decoded it. The host fills every field
// before any layer sees it; layers treat it as read-only.
type Call struct {
	// Tool is the normalised tool name: Bash, Shell, PowerShell, Write, Edit,
	// MultiEdit, NotebookEdit or ApplyPatch; any other name as received.
	Tool string
	// Kind classifies Tool.
	Kind ToolKind
	// Input is the raw tool_input object, exactly as received (it may be
	// large: Write carries the file content). Layers should prefer the
	// decoded fields below.
	Input json.RawMessage

	// Command is the command text of a shell tool, else "".
	Command string
	// Script is the analysis of Command (every simple command that would
	// run, with argv resolved). Nil for non-shell tools, and for a shell
	// call whose analysis was too large to send over the layer protocol
	// (convert.MaxScriptBytes): analyse Command then (core/shell/analysis,
	// as the built-in layers do), or treat it as unknown, never as
	// harmless.
	Script *ir.Script

	// Paths are the target paths of a file tool, as written by the agent
	// (possibly relative to Cwd): file_path, every edits[].file_path,
	// notebook_path, and every path named in an ApplyPatch patch. For a
	// read tool (KindRead), the files, directories or globs it reads.
	Paths []string

	// ProjectRoot is the project root in effect for this call (after the
	// session-root lock), or "" when no project is known. When "", the
	// project fence is off.
	ProjectRoot string
	// Cwd is the agent's working directory for this call (payload cwd, else
	// the project root).
	Cwd string
	// SessionID is the agent host's session id, or "".
	SessionID string
	// WritableRoots are the directories a write may land in, normalised
	// and with symlinks resolved (paths.Platform.WritableRoots): the
	// project root, the real temp dirs, the agent memory dir and
	// extra_writable_roots. Layers take them as real paths and do not
	// resolve them again. Empty when ProjectRoot is "".
	WritableRoots []string
	// Platform is the path semantics to judge with: "linux", "darwin" or
	// "windows". Normally runtime.GOOS; tests inject others.
	Platform string

	// Options are this layer's own settings, plus LanguageOption (read it
	// with Language). Built-in layers receive the settings they declare
	// (host.Builtin.Settings, for example custom_rules for the danger
	// gate); third-party layers receive their layer_options entry.
	Options map[string]string
	// DataDir is the plugin data directory (logs, caches, state).
	DataDir string
}

// ShellDialect is the language of a shell call's Command: PowerShell for
// the PowerShell tool, else bash (Bash, Shell).
func (c *Call) ShellDialect() ir.Dialect {
	if c != nil && c.Tool == "PowerShell" {
		return ir.PowerShell
	}
	return ir.Bash
}

// Option returns Options[key], or def when the key is absent.
func (c *Call) Option(key, def string) string {
	if v, ok := c.Options[key]; ok {
		return v
	}
	return def
}
