// Command zcode-fence is the PreToolUse guard for AI coding agents.
//
// With no arguments (or the single argument "hook") it is a hook: it reads
// one tool call as JSON on stdin and prints either nothing (silent) or one
// "ask" line, always exiting 0. Any other command line is one of the modes
// listed in --help; one it does not know is a usage error (exit 2), never
// hook mode, so a mistyped check is never mistaken for a silent answer.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

// Exit codes of the modes that judge (--eval, --eval-write, --eval-edit,
// explain) and of the others. Hook mode always exits exitSilent: a host
// reads its answer from stdout.
const (
	// exitSilent: the call would pass in silence (or the command worked).
	exitSilent = 0
	// exitError: the input could not be judged (the hook would fail open),
	// or the command failed (an unreadable log, a problem doctor found).
	exitError = 1
	// exitUsage: an unknown flag or subcommand, or a missing argument.
	exitUsage = 2
	// exitAsk: the call would be answered "ask".
	exitAsk = 3
)

const usage = `zcode-fence %s — asks before an AI agent crosses a hard line.

It stops three things and only asks (never allows, never denies):
catastrophic commands, writes outside the project's writable roots, and
irreversible loss (including destructive Git inside the project).

Usage:
  zcode-fence                     hook mode (also: zcode-fence hook): one
                                  PreToolUse payload on stdin; prints nothing
                                  or one ask line, always exit 0
  zcode-fence --eval 'CMD'        judge a shell command as the Bash tool would;
                                  stdout as in hook mode, a summary on stderr
  zcode-fence --eval-write PATH   judge a Write of PATH (--eval-edit: an Edit)
  zcode-fence explain [--json] [--host NAME] 'CMD'
                                  every layer's verdict, rule ids and timings,
                                  how the command was parsed, settings and
                                  their sources, the answer NAME's host gets
  zcode-fence explain [--json] [--host NAME] --write PATH   (--edit PATH)
  zcode-fence log [-n N] [--since D] [--decision V] [--rule R] [--source S] [--json]
                                  the decision log: counts by verdict and rule,
                                  then the last N matching records (default 20);
                                  D is a duration (24h) or a date (2026-12-01),
                                  V ask|silent|error, R a rule id or family
                                  prefix, S hook|eval
  zcode-fence doctor [--online] [--json]
                                  check the install for each host found, the
                                  config, data dirs and layers (--online: also
                                  one request to the decision model); each
                                  problem with its fix, exit 1 if any
  zcode-fence layer serve NAME    serve a built-in layer (danger, fence,
                                  decisionmodel) over the plugin protocol
  zcode-fence version             print the version
  zcode-fence --help              this text

Exit codes:
  0  silent (--eval*, explain), or done; hook mode always exits 0
  1  the call could not be judged (the hook would fail open and stay
     silent), or the command failed (an unreadable log, a problem doctor
     found)
  2  usage error: unknown flag or subcommand, or a missing argument
  3  ask (--eval*, explain): the hook would ask for confirmation

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
	if simBatch != nil && len(os.Args) == 2 && os.Args[1] == simBatchArg {
		os.Exit(simBatch(os.Stdin, os.Stdout))
	}
	os.Exit(mainRun(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// mainRun is one process's work: run, then the clean-up main owes every
// call. It returns the exit code.
func mainRun(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	code := run(args, stdin, stdout, stderr)
	layerproto.RemoveCallDirs() // the socket dirs of layers launched per call, if done() did not run
	return code
}

// simBatch is nil in every release binary: only a binary built with the
// test-only zcodefence_sim tag (batch_zcodefence_sim.go) sets it, so no
// argument or environment variable can reach it in a shipped build.
var simBatch func(requests io.Reader, responses io.Writer) int

// simBatchArg is the single argument that selects simBatch.
const simBatchArg = "__sim-batch"

// run dispatches on the arguments and returns the exit code. Hook mode
// needs no arguments (or exactly "hook"); anything else it does not
// recognise is a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || (len(args) == 1 && args[0] == "hook") {
		return hookMode(stdin, stdout)
	}
	name, inline, hasInline := strings.Cut(args[0], "=")
	if !hasInline || !strings.HasPrefix(name, "--eval") {
		name, inline, hasInline = args[0], "", false
	}
	rest := args[1:]
	if hasInline {
		rest = append([]string{inline}, rest...)
	}
	switch name {
	case "--help", "-h", "help":
		if len(rest) > 0 {
			return usageError(stderr, "%s takes no arguments", name)
		}
		fmt.Fprintf(stdout, usage, core.Version)
		return exitSilent
	case "version", "--version":
		if len(rest) > 0 {
			return usageError(stderr, "%s takes no arguments", name)
		}
		fmt.Fprintf(stdout, "zcode-fence %s (%s/%s, %s)\n", core.Version, runtime.GOOS, runtime.GOARCH, runtime.Version())
		return exitSilent
	case "hook":
		return usageError(stderr, "hook mode takes no arguments (the payload comes on stdin)")
	case "--eval":
		command := strings.Join(rest, " ")
		if strings.TrimSpace(command) == "" {
			return usageError(stderr, "--eval needs a command: zcode-fence --eval 'CMD'")
		}
		return evalMode(bashPayload(command), stdout, stderr)
	case "--eval-write", "--eval-edit":
		if len(rest) != 1 || rest[0] == "" {
			return usageError(stderr, "%s needs exactly one path (quote a path with spaces)", name)
		}
		tool := "Write"
		if name == "--eval-edit" {
			tool = "Edit"
		}
		return evalMode(filePayload(tool, rest[0]), stdout, stderr)
	case "explain":
		return explainMode(rest, stdout, stderr)
	case "log":
		return logMode(rest, stdout, stderr)
	case "doctor":
		return doctorMode(rest, stdout, stderr)
	case "layer":
		if len(rest) == 2 && rest[0] == "serve" && rest[1] != "" {
			return serveMode(rest[1], stderr)
		}
		return usageError(stderr, "usage: zcode-fence layer serve NAME")
	}
	if strings.HasPrefix(name, "-") {
		return usageError(stderr, "unknown flag %q", args[0])
	}
	return usageError(stderr, "unknown command %q", args[0])
}

// usageError prints what was wrong and the usage on stderr and returns
// exitUsage. Nothing goes to stdout: a host or script reading stdout for
// an ask line must not mistake a usage error for an answer.
func usageError(stderr io.Writer, format string, a ...any) int {
	fmt.Fprintf(stderr, "zcode-fence: "+format+"\n\n", a...)
	fmt.Fprintf(stderr, usage, core.Version)
	return exitUsage
}

// judgedExit is the exit code of a mode that judged one call.
func judgedExit(j *judgement) int {
	switch {
	case j.inputErr != nil:
		return exitError
	case j.ask():
		return exitAsk
	}
	return exitSilent
}
