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
				if r, ok := hostTwins(t, s, env, c, what); ok {
					checkHostAnswer(t, what, c.Want.Host, m.fallback, m.headless == "1", r.stdout)
				}
			}
		}
	}
}

// readTools are the normalised names of the hosts' read tools
// (core/agenthost/reads.go).
var readTools = map[string]bool{"Read": true, "Grep": true, "ReadMany": true, "NotebookRead": true}

// hostTwins runs call through the binary twice: made harmless, which must
// be silent, and made dangerous, whose result it returns (ok false when
// the run itself failed: reported already).
func hostTwins(t *testing.T, s *scratch, env []string, call hostCapture, what string) (runResult, bool) {
	t.Helper()
	if r, err := execHook(env, s.project, hostPayload(t, call, s.project, s.home, false)); err != nil || r.code != 0 || len(r.stderr) != 0 || len(r.stdout) != 0 {
		t.Errorf("%s, everyday call: exit %d, stdout %q, stderr %q, %v", what, r.code, r.stdout, r.stderr, err)
	}
	r, err := execHook(env, s.project, hostPayload(t, call, s.project, s.home, true))
	if err != nil || r.code != 0 || len(r.stderr) != 0 {
		t.Errorf("%s: exit %d, stderr %q, %v", what, r.code, r.stderr, err)
		return r, false
	}
	return r, true
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
	if roots, ok := p["workspaceRoots"].([]any); ok && len(roots) > 0 {
		// Cline: the first workspace root is the session's directory.
		p["workspaceRoots"] = []any{strings.ReplaceAll(roots[0].(string), "/home/u/proj", project)}
	}
	key := "tool_input"
	if _, ok := p["toolArgs"]; ok {
		key = "toolArgs"
	}
	holder := p
	if call, ok := p["tool_call"].(map[string]any); ok {
		// Cline: the call's input is tool_call.input.
		holder = map[string]any{}
		for k, v := range call {
			holder[k] = v
		}
		p["tool_call"] = holder
		key = "input"
	}
	in, _ := holder[key].(map[string]any)
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
	} else if _, list := out["commands"]; list {
		// Cline's run_commands: a list, each run in a shell of its own.
		out["commands"] = []string{"touch in-project.txt"}
		if dangerous {
			out["commands"] = []string{"ls", "find ~ -delete"}
		}
	} else if files, ok := out["files"].([]any); ok && len(files) > 0 {
		// Cline's read_files: a list of {path} objects.
		out["files"] = []map[string]string{{"path": target}}
	} else {
		for _, f := range []string{"file_path", "filePath", "path", "dir_path", "absolute_path"} {
			if _, ok := out[f]; ok {
				out[f] = target
			}
		}
	}
	holder[key] = out
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkHostAnswer checks stdout is what host must get for an ask.
func checkHostAnswer(t *testing.T, what, host, fallback string, headless bool, stdout []byte) {
	t.Helper()
	canAsk := !stopsOnly(host, headless)
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
	case host == "cline":
		var a struct {
			Cancel       bool
			ErrorMessage string
		}
		if err := json.Unmarshal(stdout, &a); err != nil {
			t.Errorf("%s: %v: %s", what, err, stdout)
			return
		}
		if !a.Cancel || !strings.Contains(a.ErrorMessage, "[zcode-fence") || !strings.Contains(a.ErrorMessage, "ask the user") {
			t.Errorf("%s: answer %s, want cancel with the reason telling the agent to ask the user", what, stdout)
		}
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
		if stopsOnly(host, headless) {
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

// stopsOnly reports whether host gets the no_ask_fallback form instead of
// an ask: Codex, opencode, Kilo and Cline always (they cannot ask), Gemini CLI,
// Factory Droid, Pi and OpenClaw when headless (Gemini would hang, droid
// exec runs the call, Pi has no UI to confirm with, OpenClaw's embedded
// runs have no approval surface).
func stopsOnly(host string, headless bool) bool {
	switch host {
	case "codex", "opencode", "kilo", "cline":
		return true
	case "gemini", "droid", "pi", "openclaw":
		return headless
	}
	return false
}

// TestHostRecognitionFailsSafe: a Codex payload that lost its markers one
// by one (turn_id, then its transcript path, then model, with none of
// Codex's variables) is still stopped through the built binary in both
// isolation modes: by Codex's deny while one marker is left, by the answer
// every host stops on (decision block plus a hookSpecificOutput deny) when
// only the shape is left. Claude Code's own payload, recognised by its
// environment or its transcript, keeps the ask line; an everyday command
// stays silent however little is known.
func TestHostRecognitionFailsSafe(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	var c hostCapture
	data, err := os.ReadFile("../../core/agenthost/testdata/hosts/codex-Bash.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	without := func(keys ...string) hostCapture {
		d := hostCapture{Payload: map[string]any{}, Want: c.Want}
		for k, v := range c.Payload {
			d.Payload[k] = v
		}
		for _, k := range keys {
			delete(d.Payload, k)
		}
		return d
	}
	claude := without("turn_id", "model")
	claude.Payload["transcript_path"] = "/home/u/.claude/projects/-home-u-proj/s.jsonl"
	cases := []struct {
		name string
		call hostCapture
		env  []string
		want string // "deny", "stop", "ask"
	}{
		{"codex as captured", c, nil, "deny"},
		{"codex without turn_id", without("turn_id"), nil, "deny"},
		{"codex without turn_id and its transcript", without("turn_id", "transcript_path"), nil, "deny"},
		{"codex with only its npm variable", without("turn_id", "transcript_path", "model"), []string{"CODEX_MANAGED_BY_NPM=1"}, "deny"},
		{"codex with nothing but the shape", without("turn_id", "transcript_path", "model"), nil, "stop"},
		{"claude by its transcript", claude, nil, "ask"},
		{"claude by its environment", without("turn_id", "transcript_path", "model"), []string{"CLAUDECODE=1"}, "ask"},
	}
	for _, mode := range isolationModes {
		for _, tc := range cases {
			env := s.env("default", true, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_FENCE_LANGUAGE=en")
			env = append(env, tc.env...)
			what := mode + " " + tc.name
			if r, ok := hostTwins(t, s, env, tc.call, what); ok {
				var a struct {
					Decision, Reason   string
					HookSpecificOutput struct{ HookEventName, PermissionDecision, PermissionDecisionReason string }
				}
				if err := json.Unmarshal(r.stdout, &a); err != nil {
					t.Errorf("%s: %v: %s", what, err, r.stdout)
					continue
				}
				h := a.HookSpecificOutput
				switch tc.want {
				case "ask":
					if got, _ := checkAnswer(r); got != "ask" {
						t.Errorf("%s: want the exact ask line, got %s", what, r.stdout)
					}
				case "deny":
					if a.Decision != "" || h.PermissionDecision != "deny" || !strings.Contains(h.PermissionDecisionReason, "cannot show the user a confirmation") {
						t.Errorf("%s: want Codex's deny, got %s", what, r.stdout)
					}
				case "stop":
					if a.Decision != "block" || a.Reason != h.PermissionDecisionReason || h.PermissionDecision != "deny" ||
						h.HookEventName != "PreToolUse" || !strings.Contains(a.Reason, "could not tell which agent host") {
						t.Errorf("%s: want the answer every host stops on, got %s", what, r.stdout)
					}
				}
			}
		}
	}
}
