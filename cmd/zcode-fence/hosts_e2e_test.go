package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// hostCapture is one payload captured from a real CLI
// (core/agenthost/testdata/hosts).
type hostCapture struct {
	Payload map[string]any    `json:"payload"`
	Env     map[string]string `json:"env"`
	Want    struct {
		Host string `json:"host"`
		Tool string `json:"tool"`
	} `json:"want"`
}

// TestHostAnswers sends every captured host payload through the built
// binary with the host's environment, its command or target made
// dangerous, and checks the answer is the form that host turns into a
// confirmation (or, where it cannot ask, its deny form, or nothing with
// no_ask_fallback=silent), with zcode-fence's reason; and that the same
// call made harmless stays silent on every host.
func TestHostAnswers(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	files, err := filepath.Glob("../../core/agenthost/testdata/hosts/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captured host payloads: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		var c hostCapture
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		// The read tools go only to the danger gate (host.Builtin.Reads):
		// they are run in both isolation modes, the others in one.
		isolations := []string{"inprocess"}
		if readTools[c.Want.Tool] {
			isolations = append(isolations, "process")
		}
		modes := []struct{ fallback, headless string }{{"deny", "0"}, {"deny", "1"}, {"silent", "1"}}
		for _, m := range modes {
			for _, isolation := range isolations {
				env := s.env("default", true, "ZCODE_FENCE_LAYER_ISOLATION="+isolation, "ZCODE_FENCE_LANGUAGE=en",
					"ZCODE_FENCE_NO_ASK_FALLBACK="+m.fallback, agenthost.HeadlessEnv+"="+m.headless)
				for k, v := range c.Env {
					env = append(env, k+"="+strings.ReplaceAll(v, "/home/u/proj", s.project))
				}
				what := name + " fallback=" + m.fallback + " headless=" + m.headless + " isolation=" + isolation
				checkHostCall(t, s, c, env, what, m.fallback, m.headless == "1")
			}
		}
	}
}

// readTools are the normalised names of the hosts' read tools
// (core/agenthost/reads.go).
var readTools = map[string]bool{"Read": true, "Grep": true, "ReadMany": true, "NotebookRead": true}

// checkHostCall runs one captured call through the binary, made dangerous
// and harmless, and checks both answers.
func checkHostCall(t *testing.T, s *scratch, c hostCapture, env []string, what, fallback string, headless bool) {
	t.Helper()
	for _, dangerous := range []bool{true, false} {
		r, err := execHook(env, s.project, hostPayload(t, c, s.project, s.home, dangerous))
		switch {
		case err != nil || r.code != 0 || len(r.stderr) != 0:
			t.Errorf("%s: exit %d, stderr %q, %v", what, r.code, r.stderr, err)
		case !dangerous && len(r.stdout) != 0:
			t.Errorf("%s, everyday call: answered %s", what, r.stdout)
		case dangerous:
			checkHostAnswer(t, what, c.Want.Host, fallback, headless, r.stdout)
		}
	}
}

// hostPayload is the captured payload with its paths moved into project
// and its command or target replaced: a catastrophic delete or a write to
// /etc when dangerous (for Codex's apply_patch, a patch adding that file),
// an in-project touch or write otherwise; a read tool's file is the
// private key in home (a search's directory, home's .ssh) when dangerous,
// a project file (directory) otherwise.
func hostPayload(t *testing.T, c hostCapture, project, home string, dangerous bool) []byte {
	t.Helper()
	p := map[string]any{}
	for k, v := range c.Payload {
		p[k] = v
	}
	if cwd, ok := p["cwd"].(string); ok {
		p["cwd"] = strings.ReplaceAll(cwd, "/home/u/proj", project)
	}
	key := "tool_input"
	if _, ok := p["toolArgs"]; ok {
		key = "toolArgs"
	}
	in, _ := p[key].(map[string]any)
	out := map[string]any{}
	for k, v := range in {
		out[k] = v
	}
	target := filepath.Join(project, "src", "in-project.txt")
	switch {
	case readTools[c.Want.Tool] && c.Want.Tool != "Grep" && dangerous:
		target = filepath.Join(home, ".ssh", "id_ed25519")
	case c.Want.Tool == "Grep" && dangerous:
		target = filepath.Join(home, ".ssh")
	case c.Want.Tool == "Grep":
		target = filepath.Join(project, "src")
	case dangerous:
		target = "/etc/zcode-fence-hosts-test.txt"
	}
	if _, shell := out["command"]; shell && c.Want.Tool == "ApplyPatch" {
		// Codex's apply_patch tool: the patch text in "command".
		out["command"] = "*** Begin Patch\n*** Add File: " + target + "\n+x\n*** End Patch\n"
	} else if shell {
		out["command"] = "touch in-project.txt"
		if dangerous {
			out["command"] = "find ~ -delete"
		}
	} else {
		for _, f := range []string{"file_path", "path", "dir_path", "absolute_path"} {
			if _, ok := out[f]; ok {
				out[f] = target
			}
		}
	}
	p[key] = out
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkHostAnswer checks stdout is what host must get for an ask.
func checkHostAnswer(t *testing.T, what, host, fallback string, headless bool, stdout []byte) {
	t.Helper()
	canAsk := host != "codex" && !(host == "gemini" && headless)
	if !canAsk && fallback == "silent" {
		if len(stdout) != 0 {
			t.Errorf("%s: no_ask_fallback=silent, but answered %s", what, stdout)
		}
		return
	}
	if len(stdout) == 0 || strings.Count(string(stdout), "\n") != 1 || !strings.HasSuffix(string(stdout), "\n") {
		t.Errorf("%s: answer is not one line: %q", what, stdout)
		return
	}
	switch {
	case host == "gemini":
		var a struct {
			Decision, Reason, SystemMessage string
		}
		if err := json.Unmarshal(stdout, &a); err != nil {
			t.Errorf("%s: %v: %s", what, err, stdout)
			return
		}
		want := "ask"
		if headless {
			want = "deny"
		}
		if a.Decision != want || !strings.Contains(a.Reason, "[zcode-fence") || (want == "ask") != (a.SystemMessage == a.Reason) {
			t.Errorf("%s: answer %s, want decision %s with the reason", what, stdout, want)
		}
		if want == "deny" && !strings.Contains(a.Reason, "DG-") && !strings.Contains(a.Reason, "FN-") {
			t.Errorf("%s: deny reason names no rule: %s", what, a.Reason)
		}
	default:
		var a struct {
			HookSpecificOutput struct {
				HookEventName, PermissionDecision, PermissionDecisionReason string
			}
		}
		if err := json.Unmarshal(stdout, &a); err != nil {
			t.Errorf("%s: %v: %s", what, err, stdout)
			return
		}
		h := a.HookSpecificOutput
		want := "ask"
		if host == "codex" {
			want = "deny"
		}
		if h.HookEventName != "PreToolUse" || h.PermissionDecision != want || !strings.Contains(h.PermissionDecisionReason, "[zcode-fence") {
			t.Errorf("%s: answer %s, want permissionDecision %s with the reason", what, stdout, want)
		}
		if want == "ask" {
			if got, _ := checkAnswer(runResult{stdout: stdout}); got != "ask" {
				t.Errorf("%s: not the exact ask line: %s", what, stdout)
			}
		}
		if want == "deny" && !strings.Contains(h.PermissionDecisionReason, "ask the user") {
			t.Errorf("%s: the deny reason does not tell the agent to ask the user: %s", what, h.PermissionDecisionReason)
		}
	}
}
