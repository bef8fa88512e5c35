package agenthost

import "testing"

// TestOpenClawEmbedded: the command lines of OpenClaw's embedded runs
// (no approval surface: the stopping form) and of the processes that can
// route a plugin approval (the Gateway, a Gateway-backed agent turn).
func TestOpenClawEmbedded(t *testing.T) {
	node, script := "/opt/node/bin/node", "/usr/lib/node_modules/openclaw/openclaw.mjs"
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{node, script, "agent", "--local", "--message", "hi"}, true},
		{[]string{node, script, "agent", "--agent", "main", "--local"}, true},
		{[]string{node, script, "agent", "exec", "fix the tests"}, true},
		{[]string{node, script, "agent", "exec", "--cwd", "/p", "--json", "task"}, true},
		// silent twins: the Gateway and a turn through it route approvals
		{[]string{node, script, "gateway", "run"}, false},
		{[]string{node, script, "agent", "--agent", "main", "--message", "exec"}, false},
		{[]string{node, script, "tui"}, false},
	}
	for _, c := range cases {
		if got := openclawEmbedded(c.args); got != c.want {
			t.Errorf("openclawEmbedded(%q) = %v, want %v", c.args[2:], got, c.want)
		}
	}
}
