package sdk

import (
	"encoding/json"
	"runtime"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// ShellCall describes a shell tool call for a layer's own tests. Call
// builds the core.Call the host would send for it: the host analyses the
// command with analysis.Analyze in the tool's dialect, starting in the call's
// cwd, with the user's home and environment; ShellCall does the same with
// the home and environment given here, so a test does not depend on the
// machine it runs on.
type ShellCall struct {
	// Tool is "Bash" (the default when ""), "Shell" or "PowerShell".
	Tool string
	// Command is the command text.
	Command string
	// Cwd is the working directory and the project root; "" leaves both
	// unknown.
	Cwd string
	// Home is the home directory ~ and $HOME expand to; "" leaves them
	// unknown.
	Home string
	// Env holds the variables the analysis may expand; nil means none
	// (every other $VAR is unknown, as it would be for an unset variable).
	Env map[string]string
	// Options are the layer's options, as the host would pass them (the
	// host adds "language"; add it here when the test needs it).
	Options map[string]string
}

// Call returns the core.Call for s. Platform is the running OS, Input the
// {"command": ...} object the agent would send, and WritableRoots the
// project root alone (the host adds the temp dirs and configured extras).
func (s ShellCall) Call() *core.Call {
	tool := s.Tool
	if tool == "" {
		tool = "Bash"
	}
	dialect := ir.Bash
	if tool == "PowerShell" {
		dialect = ir.PowerShell
	}
	var lookup func(string) (string, bool)
	if s.Env != nil {
		lookup = func(name string) (string, bool) {
			v, ok := s.Env[name]
			return v, ok
		}
	}
	input, _ := json.Marshal(map[string]string{"command": s.Command})
	call := &core.Call{
		Tool:        tool,
		Kind:        core.KindShell,
		Input:       input,
		Command:     s.Command,
		Script:      analysis.Analyze(s.Command, analysis.Options{Dialect: dialect, Cwd: s.Cwd, Home: s.Home, Lookup: lookup}),
		ProjectRoot: s.Cwd,
		Cwd:         s.Cwd,
		Platform:    runtime.GOOS,
		Options:     s.Options,
	}
	if s.Cwd != "" {
		call.WritableRoots = []string{s.Cwd}
	}
	return call
}
