//go:build linux || darwin

package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/e2e/fakeapi"
)

// interactive is how one ask-capable host is driven in a terminal.
type interactive struct {
	// deny are the keys that answer the host's confirmation "no".
	deny []string
	// refused reports, from the screen after deny and what the host told
	// the model, that the host has taken the answer and settled the call
	// (its own words for a call the user refused).
	refused func(screen string, told []fakeapi.ToolOutput) bool
	// first are the host's own questions before any tool runs (folder
	// trust): text on screen and the keys a user answers it with.
	first []hostQuestion
}

// hostQuestion is a question the host asks on its own account.
type hostQuestion struct {
	text string
	keys []string
}

// guardReason is zcode-fence's reason for command in the fixture, in
// English, from the built binary (--eval judges it as the hook would).
func guardReason(t *testing.T, f *fixture, command string) string {
	t.Helper()
	cmd := exec.Command(hostBinary(t), "--eval", command)
	cmd.Dir = f.Project
	cmd.Env = []string{"HOME=" + f.Home, "PATH=/usr/bin:/bin", "ZCODE_FENCE_LANGUAGE=en", "CLAUDE_PROJECT_DIR=" + f.Project,
		"ZCODE_FENCE_DATA_DIR=" + f.Dir + "/eval-data"}
	out, err := cmd.Output()
	// --eval exits 3 when the call would ask (0 silent; see --help).
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 3) {
		t.Fatalf("zcode-fence --eval %q: %v, want exit 3 (ask)", command, err)
	}
	var ask struct {
		HookSpecificOutput struct {
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &ask); err != nil || ask.HookSpecificOutput.PermissionDecisionReason == "" {
		t.Fatalf("zcode-fence --eval %q answered %q, not an ask (%v)", command, out, err)
	}
	return ask.HookSpecificOutput.PermissionDecisionReason
}

// runInteractive drives the real CLI of c in a pseudo-terminal (tmux) with
// the guard installed as a user installs it: the fake model asks for
// find ~ -delete; the host's confirmation must show zcode-fence's reason on
// screen; the test answers no, as a person would, and the fake home must
// survive. The prompt goes in on the command line (-i), so what is typed
// is only the answer.
func runInteractive(t *testing.T, c askHostCase) {
	tmux := findTmux(t)
	cli := findAgentCLI(t, c.host, c.version, c.override, c.versionVar)
	api, err := fakeapi.Start(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { api.Close() })
	f := newFixture(t)
	env := append(withoutVar(c.setup(t, f, api.URL), "TERM"), "TERM=xterm-256color", "COLORTERM=truecolor", "ZCODE_FENCE_LANGUAGE=en")
	w := newAgentWorld(t, f, cli, env)
	c.install(t, w)

	const dangerous = "find ~ -delete"
	reason := flatText(guardReason(t, f, dangerous))
	api.SetSteps([]fakeapi.Step{{Name: c.shell, Input: json.RawMessage(`{"command":"` + dangerous + `","description":"clean up"}`)}})

	start := time.Now()
	pane := startPane(t, tmux, f.Dir, f.Project, env, slices.Concat([]string{cli}, c.flags, []string{"-i", hostPrompt}), 240, 60)
	defer func() {
		if t.Failed() {
			t.Logf("last screen:\n%s", pane.screen())
			t.Logf("tool outputs: %+v", api.ToolOutputs())
		}
	}()
	// The whole reason, as the guard wrote it, is on screen (after the
	// host's own first questions, answered as a user does).
	answered := map[int]bool{}
	screen, ok := pane.waitFor(3*time.Minute, func(s string) bool {
		for i, q := range c.interactive.first {
			if !answered[i] && strings.Contains(s, q.text) {
				answered[i] = true
				pane.send(t, q.keys...)
				return false
			}
		}
		return strings.Contains(flatText(s), reason)
	})
	if !ok {
		t.Fatalf("%s never showed zcode-fence's reason %q; screen:\n%s", c.host, reason, screen)
	}
	shown := time.Since(start)
	t.Logf("%s confirmation after %v:\n%s", c.host, shown.Round(time.Millisecond), screen)
	if _, err := os.Stat(f.Marker); err != nil {
		t.Fatalf("the fake home is gone before anyone answered: %v", err)
	}

	for _, k := range c.interactive.deny {
		// One key at a time, as typed: an Ink UI may read a burst of keys
		// as one and act on the first only.
		pane.send(t, k)
		time.Sleep(300 * time.Millisecond)
	}
	screen, ok = pane.waitFor(time.Minute, func(s string) bool { return c.interactive.refused(s, api.ToolOutputs()) })
	if !ok {
		t.Fatalf("%s did not take the refusal; screen:\n%s", c.host, screen)
	}
	t.Logf("%s after the refusal (%v), the model was told %+v:\n%s", c.host, time.Since(start).Round(time.Millisecond), api.ToolOutputs(), screen)
	if _, err := os.Stat(f.Marker); err != nil {
		t.Errorf("the refused %s ran: the fake home marker is gone (%v)", dangerous, err)
	}
	t.Logf("%s interactive: reason on screen %v, refused %v", c.host, shown.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// withoutVar drops the variable name from env.
func withoutVar(env []string, name string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}

func TestGeminiInteractive(t *testing.T)  { t.Parallel(); runInteractive(t, geminiCase) }
func TestQwenInteractive(t *testing.T)    { t.Parallel(); runInteractive(t, qwenCase) }
func TestCopilotInteractive(t *testing.T) { t.Parallel(); runInteractive(t, copilotCase) }
