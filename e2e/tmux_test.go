//go:build linux || darwin

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tmuxPane is one agent CLI running in a pseudo-terminal: a tmux server of
// its own (socket in the fixture), one window of a fixed size whose screen
// the test reads as a person would see it (capture-pane renders the
// terminal: escape sequences applied, redraws settled) and types into.
type tmuxPane struct {
	tmux, socket string
}

// findTmux returns the tmux executable, or skips the test visibly when
// there is none (a failure under ZCODE_FENCE_E2E_REQUIRE_TMUX=1, which
// .ci/run sets when tmux is installed).
func findTmux(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("tmux")
	if err == nil {
		return p
	}
	if os.Getenv("ZCODE_FENCE_E2E_REQUIRE_TMUX") == "1" {
		t.Fatalf("e2e: tmux not found and ZCODE_FENCE_E2E_REQUIRE_TMUX=1: %v", err)
	}
	fmt.Fprintf(os.Stderr, "SKIP %s: tmux not found\n", t.Name())
	t.Skipf("SKIPPED, NOT RUN: the interactive confirmation is driven in tmux, which is not installed (%v)", err)
	return ""
}

// startPane runs argv with exactly env in dir, in a width×height terminal.
// The tmux server is killed when the test ends, and with it whatever the
// pane still runs.
func startPane(t *testing.T, tmux, sockDir, dir string, env, argv []string, width, height int) *tmuxPane {
	t.Helper()
	p := &tmuxPane{tmux: tmux, socket: filepath.Join(sockDir, "tmux.sock")}
	// env -i: the pane gets the fixture's environment and nothing of the
	// tmux server's. remain-on-exit keeps the last screen of a CLI that
	// quits early, for the log.
	args := []string{"-f", "/dev/null", "new-session", "-d", "-s", "zf", "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), "-c", dir,
		"--", "/usr/bin/env", "-i"}
	args = append(append(args, env...), argv...)
	if out, err := p.cmd(args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	// The pane's process leads its own process group (tmux makes it a
	// session leader); the CLI and whatever it started (Gemini re-executes
	// itself, hooks, shells) are in it. At the end the whole group gets
	// SIGKILL, as a headless run's group does, before the server goes: a
	// CLI slow to take the hangup would otherwise outlive the test.
	pid := 0
	if out, err := p.cmd("display-message", "-p", "-t", "zf", "#{pane_pid}").Output(); err == nil {
		pid, _ = strconv.Atoi(strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if pid > 1 {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
		_ = p.cmd("kill-server").Run()
	})
	_ = p.cmd("set-option", "-t", "zf", "remain-on-exit", "on").Run()
	return p
}

func (p *tmuxPane) cmd(args ...string) *exec.Cmd {
	return exec.Command(p.tmux, append([]string{"-S", p.socket}, args...)...)
}

// screen is the pane's visible text, wrapped lines joined.
func (p *tmuxPane) screen() string {
	out, err := p.cmd("capture-pane", "-p", "-J", "-t", "zf").Output()
	if err != nil {
		return "(capture-pane: " + err.Error() + ")"
	}
	return string(out)
}

// send types keys (tmux key names: "Escape", "Enter", "C-c", or text).
func (p *tmuxPane) send(t *testing.T, keys ...string) {
	t.Helper()
	if out, err := p.cmd(append([]string{"send-keys", "-t", "zf"}, keys...)...).CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys %q: %v\n%s", keys, err, out)
	}
}

// waitFor polls the screen until ok accepts it or timeout passes; it
// returns the last screen and whether ok accepted it.
func (p *tmuxPane) waitFor(timeout time.Duration, ok func(screen string) bool) (string, bool) {
	end := time.Now().Add(timeout)
	for {
		s := p.screen()
		if ok(s) {
			return s, true
		}
		if time.Now().After(end) {
			return s, false
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// flatText is screen text as a reader takes it in: box-drawing borders and
// runs of white space (line ends included) become one space, so a sentence
// a dialog wrapped over lines inside a frame reads as one line.
func flatText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 0x2500 && r <= 0x257f { // box drawing
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
