// Command zcode-fence is the PreToolUse guard for AI coding agents.
//
// With no arguments it is a hook: it reads one tool call as JSON on stdin
// and prints either nothing (silent) or one "ask" line, always exiting 0.
// See --help for the other modes.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
)

const usage = `zcode-fence %s — asks before an AI agent crosses a hard line.

It stops three things and only asks (never allows, never denies):
catastrophic commands, writes outside the project's writable roots, and
irreversible loss (including destructive Git inside the project).

Usage:
  zcode-fence                     hook mode: one PreToolUse payload on stdin;
                                  prints nothing or one ask line, exit 0
  zcode-fence --eval 'CMD'        judge a shell command as the Bash tool would;
                                  stdout as in hook mode, a summary on stderr
  zcode-fence --eval-write PATH   judge a Write of PATH (--eval-edit: an Edit)
  zcode-fence explain [--host NAME] 'CMD'
                                  every layer's verdict, rule ids and timings,
                                  how the command was parsed, settings and
                                  their sources, the answer NAME's host gets
  zcode-fence explain --write PATH
  zcode-fence log [-n N] [--json] the decision log: counts by verdict and rule,
                                  then the last N records (default 20)
  zcode-fence layer serve NAME    serve a built-in layer (danger, fence,
                                  decisionmodel) over the plugin protocol
  zcode-fence version             print the version
  zcode-fence --help              this text

Environment:
  ZCODE_PROJECT_DIR, CLAUDE_PROJECT_DIR   project root (else the payload cwd;
                                          --eval uses the current directory);
                         each agent host has its own (explain --host NAME)
  ~/.config/zcode-fence/config.json       host-neutral settings (flat JSON;
                         $XDG_CONFIG_HOME/zcode-fence/config.json when set)
  ZCODE_FENCE_CONFIG     ZCode config file (default ~/.zcode/cli/config.json)
  ZCODE_FENCE_DATA_DIR   data dir for decisions.log and session-roots.log
                         (else ZCODE_PLUGIN_DATA, CLAUDE_PLUGIN_DATA,
                         ~/.zcode/cli/plugins/data/zcode-fence)
  ZCODE_FENCE_<KEY>      override any setting, e.g. ZCODE_FENCE_ENABLE_FENCE=false
  ZCODE_FENCE_DECISION_MODEL_API_KEY   the decision model's API key
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches on the arguments. Anything it does not recognise is hook
// mode, so a host that passes extra arguments still gets a guard.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return hookMode(stdin, stdout)
	}
	switch args[0] {
	case "--help", "-h", "help":
		fmt.Fprintf(stdout, usage, core.Version)
		return 0
	case "version", "--version":
		fmt.Fprintf(stdout, "zcode-fence %s (%s/%s, %s)\n", core.Version, runtime.GOOS, runtime.GOARCH, runtime.Version())
		return 0
	case "--eval":
		return evalMode(bashPayload(strings.Join(args[1:], " ")), stdout, stderr)
	case "--eval-write", "--eval-edit":
		tool := "Write"
		if args[0] == "--eval-edit" {
			tool = "Edit"
		}
		return evalMode(filePayload(tool, strings.Join(args[1:], " ")), stdout, stderr)
	case "explain":
		return explainMode(args[1:], stdout, stderr)
	case "log":
		return logMode(args[1:], stdout, stderr)
	case "layer":
		if len(args) == 3 && args[1] == "serve" {
			return serveMode(args[2], stderr)
		}
		fmt.Fprintln(stderr, "usage: zcode-fence layer serve NAME")
		return 2
	}
	return hookMode(stdin, stdout)
}
