package agenthost

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// capturedCall is one hook call captured from a real CLI
// (testdata/hosts/*.json): its stdin, the host-specific part of its
// environment, and what the guard must read from it.
type capturedCall struct {
	Payload json.RawMessage   `json:"payload"`
	Env     map[string]string `json:"env"`
	Want    struct {
		Host       string   `json:"host"`
		Tool       string   `json:"tool"`
		Command    string   `json:"command"`
		Paths      []string `json:"paths"`
		ProjectDir string   `json:"project_dir"`
		Cwd        string   `json:"cwd"`
	} `json:"want"`
}

// TestCapturedPayloads: every payload captured from a real host is claimed
// by that host's adapter (from the payload and environment it really sent),
// and the tool, command or paths, and project dir are read as that host
// means them.
func TestCapturedPayloads(t *testing.T) {
	files, err := filepath.Glob("testdata/hosts/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no captured payloads: %v", err)
	}
	hosts := map[string]bool{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			var c capturedCall
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			p, err := Decode(c.Payload, mapEnv(c.Env))
			if err != nil {
				t.Fatal(err)
			}
			hosts[p.Host.Name()] = true
			if p.Host.Name() != c.Want.Host || !p.Judged || p.Tool.Name != c.Want.Tool {
				t.Fatalf("host %s tool %q (judged %v), want %s %q", p.Host.Name(), p.Tool.Name, p.Judged, c.Want.Host, c.Want.Tool)
			}
			if p.Command != c.Want.Command || strings.Join(p.Paths, "|") != strings.Join(c.Want.Paths, "|") {
				t.Errorf("command %q paths %q, want %q %q", p.Command, p.Paths, c.Want.Command, c.Want.Paths)
			}
			dir := ""
			for _, k := range p.Host.ProjectDirEnv() {
				if v := c.Env[k]; v != "" {
					dir = v
					break
				}
			}
			if dir != c.Want.ProjectDir {
				t.Errorf("project dir %q (from %v), want %q", dir, p.Host.ProjectDirEnv(), c.Want.ProjectDir)
			}
			if c.Want.Cwd != "" && p.Cwd != c.Want.Cwd {
				t.Errorf("cwd %q, want %q", p.Cwd, c.Want.Cwd)
			}
			// The same payload without the host's environment is still
			// that host's when the payload itself says so.
			if q, _ := Decode(c.Payload, nil); q.Host.Name() != c.Want.Host && payloadOnlyEvidence[c.Want.Host] {
				t.Errorf("without its environment the payload is claimed by %s", q.Host.Name())
			}
		})
	}
	for _, h := range []string{"codex", "copilot", "gemini", "qwen", "opencode", "kilo", "pi", "droid", "cline", "openclaw"} {
		if !hosts[h] {
			t.Errorf("no captured payload of %s", h)
		}
	}
}

// payloadOnlyEvidence are the hosts whose payload alone identifies them.
var payloadOnlyEvidence = map[string]bool{"codex": true, "gemini": true, "qwen": true, "opencode": true, "pi": true, "droid": true, "cline": true, "openclaw": true}

// TestAnswers: the exact bytes each host gets for an ask, in each mode.
func TestAnswers(t *testing.T) {
	reason := `[zcode-fence: 危险命令] rm <x> & "y"`
	ask := Ask{Reason: reason, Rules: []string{"DG-RM-RECURSIVE", "FN-COMMAND-WRITE-OUTSIDE"}, Lang: "en", NoAskFallback: FallbackDeny}
	interactive := mapEnv(map[string]string{HeadlessEnv: "0"})
	headless := mapEnv(map[string]string{HeadlessEnv: "1"})
	claudeLine := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"[zcode-fence: 危险命令] rm <x> & \"y\""}}` + "\n"
	deny := `[zcode-fence] This host cannot show the user a confirmation, so zcode-fence stopped this call (rule DG-RM-RECURSIVE, FN-COMMAND-WRITE-OUTSIDE). Stop here and ask the user in the conversation whether they want it; do not retry it in another form. Reason: [zcode-fence: 危险命令] rm <x> & \"y\"`
	cases := []struct {
		host     string
		env      Lookup
		fallback string
		want     string
	}{
		{"claude", nil, FallbackDeny, claudeLine},
		{"zcode", nil, FallbackDeny, claudeLine},
		{"qwen", headless, FallbackDeny, claudeLine},
		{"copilot", headless, FallbackDeny, claudeLine},
		{"gemini", interactive, FallbackDeny, `{"decision":"ask","reason":"[zcode-fence: 危险命令] rm <x> & \"y\"","systemMessage":"[zcode-fence: 危险命令] rm <x> & \"y\""}` + "\n"},
		{"gemini", headless, FallbackDeny, `{"decision":"deny","reason":"` + deny + `"}` + "\n"},
		{"gemini", headless, FallbackSilent, ""},
		{"codex", interactive, FallbackDeny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + deny + `"}}` + "\n"},
		{"codex", interactive, FallbackSilent, ""},
		// opencode and Kilo cannot ask from a plugin, in the TUI either:
		// the bundle's plugin throws the deny's reason.
		{"opencode", interactive, FallbackDeny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + deny + `"}}` + "\n"},
		{"opencode", headless, FallbackSilent, ""},
		// Droid's exec runs an asked call: the stopping form there.
		{"droid", interactive, FallbackDeny, claudeLine},
		{"droid", headless, FallbackDeny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + deny + `"}}` + "\n"},
		// Pi asks through its extension where it has a UI.
		{"pi", interactive, FallbackDeny, claudeLine},
		{"pi", headless, FallbackDeny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + deny + `"}}` + "\n"},
		{"pi", headless, FallbackSilent, ""},
		// Cline cannot ask: its cancel answer stops the run with the reason.
		{"cline", interactive, FallbackDeny, `{"cancel":true,"errorMessage":"` + deny + `"}` + "\n"},
		{"cline", headless, FallbackSilent, ""},
		{"kilo", interactive, FallbackDeny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + deny + `"}}` + "\n"},
		// OpenClaw asks through a plugin approval request where the
		// Gateway can route it; its embedded runs get the stopping form.
		{"openclaw", interactive, FallbackDeny, claudeLine},
		{"openclaw", headless, FallbackDeny, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"` + deny + `"}}` + "\n"},
		{"openclaw", headless, FallbackSilent, ""},
	}
	for _, c := range cases {
		a, ok := ByName(c.host)
		if !ok {
			t.Fatalf("no adapter %s", c.host)
		}
		in := ask
		in.Env, in.NoAskFallback = c.env, c.fallback
		if got := string(a.Answer(in)); got != c.want {
			t.Errorf("%s (%s):\n got %s\nwant %s", c.host, c.fallback, got, c.want)
		}
	}
}

// TestDenyReasonChinese: the zh deny reason names the rules and tells the
// agent to ask the user.
func TestDenyReasonChinese(t *testing.T) {
	got := DenyReason(Ask{Reason: "R", Rules: []string{"DG-A", "FN-B"}, Lang: "zh"})
	for _, want := range []string{"DG-A、FN-B", "请停下，在对话中询问用户", "原因：R"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

// TestOptionPrefixesOrder: the config loader reads Claude's option
// variables before ZCode's (a later one wins), as it always has.
func TestOptionPrefixesOrder(t *testing.T) {
	if got := strings.Join(OptionEnvPrefixes(), ","); got != "CLAUDE_PLUGIN_OPTION_,ZCODE_PLUGIN_OPTION_" {
		t.Fatalf("OptionEnvPrefixes = %s", got)
	}
}

// TestEveryAdapterIsComplete: names are unique, every tool is a shell or
// file tool reading at least one field, and every host has packaging.
func TestEveryAdapterIsComplete(t *testing.T) {
	names := map[string]bool{}
	for _, a := range Adapters() {
		if names[a.Name()] {
			t.Errorf("two adapters named %s", a.Name())
		}
		names[a.Name()] = true
		if len(a.Tools()) == 0 || len(a.ToolNames()) == 0 {
			t.Errorf("%s has no tools", a.Name())
		}
		for _, n := range a.ToolNames() {
			if _, ok := a.Tool(n); !ok && a.Name() != "copilot" {
				t.Errorf("%s: tool name %s does not look up", a.Name(), n)
			}
		}
		for _, tool := range a.Tools() {
			if tool.Command == "" && len(tool.Paths) == 0 {
				t.Errorf("%s: tool %s reads nothing", a.Name(), tool.Name)
			}
		}
		p := a.Packaging()
		jsPlugin := p.HooksFile == "" && p.PluginFile != "" && p.Event != ""
		if !jsPlugin && (p.HooksFile == "" || p.Event == "" || p.Command == "" || p.TimeoutUnit == 0) {
			t.Errorf("%s: incomplete packaging %+v", a.Name(), p)
		}
		var user, project bool
		for _, p := range a.HostPaths() {
			if p.Rel == "" || strings.HasPrefix(p.Rel, "/") || strings.Contains(p.Rel, "\\") {
				t.Errorf("%s: host path %q is not a relative slash path", a.Name(), p.Rel)
			}
			user, project = user || !p.Project, project || p.Project
		}
		if !user || !project {
			t.Errorf("%s: host paths %+v lack user (%v) or project (%v) settings", a.Name(), a.HostPaths(), user, project)
		}
		// A JS plugin names the project in the payload's cwd (the
		// directory the host gives the plugin).
		if len(a.ProjectDirEnv()) == 0 && !jsPlugin {
			t.Errorf("%s: no project-dir variable", a.Name())
		}
	}
}

// TestEveryHostHasItsCLI: the agent CLIs the danger gate reads for
// tampering (cmdfacts.AgentCLI) are exactly the hosts adapted here, by the
// same names, so a new host cannot arrive without its CLI's tampering
// commands (or the reverse).
func TestEveryHostHasItsCLI(t *testing.T) {
	var hosts []string
	for _, a := range Adapters() {
		hosts = append(hosts, a.Name())
	}
	clis := cmdfacts.AgentCLINames()
	slices.Sort(hosts)
	slices.Sort(clis)
	if !slices.Equal(hosts, clis) {
		t.Fatalf("adapters %q, agent CLIs %q: they must name the same hosts", hosts, clis)
	}
}

// TestHostPathsOnce: HostPaths keeps each place once (ZCode and Claude
// Code share none, but a later host may), in registration order.
func TestHostPathsOnce(t *testing.T) {
	all := HostPaths()
	seen := map[string]bool{}
	n := 0
	for _, a := range Adapters() {
		n += len(a.HostPaths())
	}
	for _, p := range all {
		k := fmt.Sprint(p.Rel, p.Shape, p.Project)
		if seen[k] {
			t.Errorf("%s listed twice", k)
		}
		seen[k] = true
	}
	if len(all) == 0 || len(all) > n {
		t.Fatalf("HostPaths has %d places from %d declared", len(all), n)
	}
	if all[0].Rel != ".zcode" {
		t.Errorf("first host path %q, want ZCode's (registered first)", all[0].Rel)
	}
}

// detectCase is one row of testdata/detect-cases.json.
type detectCase struct {
	Name     string            `json:"name"`
	Stdin    json.RawMessage   `json:"stdin"`
	Env      map[string]string `json:"env"`
	Host     string            `json:"host"`
	Unsure   bool              `json:"unsure"`
	Fallback string            `json:"fallback"`
	Tool     string            `json:"tool"`
	// Answer is the form of an ask: "ask" (Claude's line), "deny"
	// (Claude's deny form), "stop" (StopLine), "gemini-deny".
	Answer string `json:"answer"`
}

// TestDetectFailsSafe runs testdata/detect-cases.json: each host is
// recognised by more than one marker (payload keys, its transcript path,
// its environment), the stronger marker wins where two hosts' markers
// meet, and a payload only the shape can be judged by is Unsure and gets
// the answer every host stops on.
func TestDetectFailsSafe(t *testing.T) {
	data, err := os.ReadFile("testdata/detect-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []detectCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	unsure := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			p, err := Decode(c.Stdin, mapEnv(c.Env))
			if err != nil {
				t.Fatal(err)
			}
			_, isUnsure := p.Host.(Unsure)
			if p.Host.Name() != c.Host || isUnsure != c.Unsure {
				t.Fatalf("host %s (unsure %v), want %s (unsure %v)", p.Host.Name(), isUnsure, c.Host, c.Unsure)
			}
			if isUnsure {
				unsure++
			}
			if c.Tool != "" && (!p.Judged || p.Tool.Name != c.Tool) {
				t.Errorf("tool %q (judged %v), want %q", p.Tool.Name, p.Judged, c.Tool)
			}
			fallback := FallbackDeny
			if c.Fallback != "" {
				fallback = c.Fallback
			}
			a := Ask{Reason: "R", Rules: []string{"DG-X"}, Lang: "en", NoAskFallback: fallback, Env: mapEnv(c.Env)}
			got := string(p.Host.Answer(a))
			var want string
			switch c.Answer {
			case "ask":
				want = string(AskLine("R"))
			case "deny":
				want = string(claudeDecision("deny", DenyReason(a)))
			case "stop":
				want = string(StopLine(UnsureReason(a)))
			case "gemini-deny":
				want = `{"decision":"deny","reason":"` + DenyReason(a) + `"}` + "\n"
			default:
				t.Fatalf("unknown answer form %q", c.Answer)
			}
			if got != want {
				t.Errorf("answer\n got %s\nwant %s", got, want)
			}
		})
	}
	if unsure == 0 {
		t.Error("no case is unsure: the fail-safe answer is untested")
	}
}

// TestStopLineEveryHostStops: the unsure answer carries, in one line, each
// host's stopping form: Claude's deny (which Claude Code, Codex, Copilot
// CLI and Qwen Code read) and the top-level "block" with its reason (which
// Gemini CLI reads, and which is the one legacy value Codex's output
// schema accepts besides "approve"); no other key (Codex rejects unknown
// ones).
func TestStopLineEveryHostStops(t *testing.T) {
	line := StopLine(`a "b" <c>`)
	var got map[string]any
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["decision"] != "block" || got["reason"] != `a "b" <c>` {
		t.Fatalf("top level %v", got)
	}
	hso, _ := got["hookSpecificOutput"].(map[string]any)
	if len(hso) != 3 || hso["hookEventName"] != "PreToolUse" || hso["permissionDecision"] != "deny" || hso["permissionDecisionReason"] != `a "b" <c>` {
		t.Fatalf("hookSpecificOutput %v", hso)
	}
	if strings.Count(string(line), "\n") != 1 || !strings.HasSuffix(string(line), "\n") || strings.Contains(string(line), `\u003c`) {
		t.Fatalf("not one compact unescaped line: %q", line)
	}
}
