package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/zcode-fence/zcode-fence/e2e/internal/kit"
)

// zcodeCase is one tool call as ZCode would hand it to the hook.
type zcodeCase struct {
	Name    string          `json:"name"`
	Tool    string          `json:"tool"`
	Input   json.RawMessage `json:"input"`
	Options json.RawMessage `json:"options"` // plugins.options entry in ~/.zcode/cli/config.json
	Want    string          `json:"want"`    // "ask" or "silent"
	// Lang, when set, is the language the ask reason must be in.
	Lang string `json:"lang"`
	// Reason, when set, must appear in the ask reason: the marker of the
	// layer that has to ask, such as "[zcode-fence: 危险命令]".
	Reason string `json:"reason"`
}

// zcodeShape is one spelling of ZCode's PreToolUse stdin, from
// testdata/zcode-payloads.json: the payload with {{TOOL_NAME}},
// {{TOOL_INPUT}}, {{SESSION}} and the fixture placeholders to fill in.
type zcodeShape struct {
	Name    string          `json:"name"`
	Note    string          `json:"note"`
	Payload json.RawMessage `json:"payload"`
}

// zcodeAliases are the Claude-compatible keys newer ZCode builds add
// (hook-protocol.md §2.5); the camelCase+snake_case shape must carry all.
var zcodeAliases = []string{"hook_event_name", "session_id", "permission_mode", "agent_type",
	"transcript_path", "transcriptPath", "tool_name", "tool_input", "tool_use_id"}

func loadZCodeShapes(t *testing.T) []zcodeShape {
	t.Helper()
	var shapes []zcodeShape
	kit.ReadJSON(t, filepath.Join("testdata", "zcode-payloads.json"), &shapes)
	names := map[string]bool{}
	for _, sh := range shapes {
		names[sh.Name] = true
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(sh.Payload, &keys); err != nil {
			t.Fatalf("testdata: payload %s: %v", sh.Name, err)
		}
		for _, k := range []string{"cwd", "hookEventName", "sessionId", "toolCallId", "toolInput", "toolName"} {
			if keys[k] == nil {
				t.Fatalf("testdata: payload %s lacks ZCode's %s", sh.Name, k)
			}
		}
		for _, k := range zcodeAliases {
			if has := keys[k] != nil; has != strings.Contains(sh.Name, "snake_case") {
				t.Fatalf("testdata: payload %s: alias %s present=%v", sh.Name, k, has)
			}
		}
	}
	if !names["camelCase"] || !names["camelCase+snake_case"] || len(shapes) != 2 {
		t.Fatalf("testdata: want the shapes camelCase and camelCase+snake_case, got %v", keysOf(names))
	}
	return shapes
}

// payload fills in the shape for one call; ZCode ends it with a newline.
func (sh zcodeShape) payload(t *testing.T, f *fixture, tool string, input json.RawMessage, session string) []byte {
	t.Helper()
	var in any
	if err := json.Unmarshal(f.expandJSON(t, input), &in); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(sh.Payload, &doc); err != nil {
		t.Fatal(err)
	}
	for k, v := range doc {
		s, ok := v.(string)
		if !ok {
			continue
		}
		switch s {
		case "{{TOOL_INPUT}}":
			doc[k] = in
		case "{{TOOL_NAME}}":
			doc[k] = tool
		case "{{SESSION}}":
			doc[k] = session
		default:
			doc[k] = f.expand(s)
		}
	}
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

// zcodeHookCommand is hooks.json's command as ZCode runs it: ${CLAUDE_PLUGIN_ROOT}
// (and the ZCODE_ spelling) substituted, then given to a shell.
func zcodeHookCommand(t *testing.T, pluginRoot string) string {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	kit.ReadJSON(t, filepath.Join(pluginRoot, "hooks", "hooks.json"), &doc)
	return strings.NewReplacer("${CLAUDE_PLUGIN_ROOT}", pluginRoot, "${ZCODE_PLUGIN_ROOT}", pluginRoot).
		Replace(doc.Hooks["PreToolUse"][0].Hooks[0].Command)
}

// zcodeEnv is the environment ZCode gives a plugin hook (§2.4), and nothing
// of the test's own, so a developer's ZCODE_FENCE_* settings do not leak in.
func zcodeEnv(f *fixture, session string) []string {
	data := filepath.Join(f.Home, ".zcode", "cli", "plugins", "data", "zcode-fence_zcode-fence")
	return []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"HOME=" + f.Home,
		"LANG=C.UTF-8",
		"ZCODE_APP_VERSION=3.11.2",
		"ZCODE_PROJECT_DIR=" + f.Project,
		"ZCODE_SESSION_ID=" + session,
		"CLAUDE_PROJECT_DIR=" + f.Project,
		"CLAUDE_SESSION_ID=" + session,
		"CLAUDE_CODE_SESSION_ID=" + session,
		"ZCODE_PLUGIN_ROOT=" + f.Plugin,
		"ZCODE_PLUGIN_DATA=" + data,
		"ZCODE_PLUGIN_ID=" + pluginID,
		"ZCODE_PLUGIN_NAME=" + pluginName,
		"CLAUDE_PLUGIN_ROOT=" + f.Plugin,
		"CLAUDE_PLUGIN_DATA=" + data,
	}
}

// writeZCodeOptions stores options the way ZCode's settings page does, or
// removes the config file when there are none.
func writeZCodeOptions(t *testing.T, f *fixture, options json.RawMessage) {
	t.Helper()
	path := filepath.Join(f.Home, ".zcode", "cli", "config.json")
	if len(options) == 0 {
		os.Remove(path)
		return
	}
	doc := fmt.Sprintf(`{"plugins":{"enabled":true,"enabledPlugins":{%q:true},"options":{%q:%s}}}`,
		pluginID, pluginID, f.expandJSON(t, options))
	writeFile(t, path, doc)
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// TestZCodePayloads feeds ZCode's payloads through hooks.json's command, the
// sh launcher and a freshly built binary, and checks the answer ZCode would
// parse: silent is zero bytes, ask is the one three-key line (§2.6); exit 0
// and nothing on stderr either way.
func TestZCodePayloads(t *testing.T) {
	needSh(t)
	f := newFixture(t)
	command := zcodeHookCommand(t, f.Plugin)
	var cases []zcodeCase
	kit.ReadJSON(t, filepath.Join("testdata", "zcode-cases.json"), &cases)
	if len(cases) == 0 {
		t.Fatal("testdata/zcode-cases.json has no cases")
	}
	shapes := loadZCodeShapes(t)
	for i, c := range cases {
		for _, shape := range shapes {
			t.Run(c.Name+"/"+shape.Name, func(t *testing.T) {
				writeZCodeOptions(t, f, c.Options)
				session := fmt.Sprintf("zcode-e2e-%02d-%s", i, shape.Name)
				payload := shape.payload(t, f, c.Tool, c.Input, session)
				cmd := exec.Command("sh", "-c", command)
				cmd.Dir = f.Project
				cmd.Env = zcodeEnv(f, session)
				cmd.Stdin = bytes.NewReader(payload)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				var exit *exec.ExitError
				if errors.As(err, &exit) {
					t.Fatalf("exit %d (ZCode discards the output of any exit but 0 and 2); stderr %q", exit.ExitCode(), stderr.Bytes())
				} else if err != nil {
					t.Fatal(err)
				}
				if stderr.Len() != 0 {
					t.Errorf("stderr %q, want nothing in hook mode", stderr.Bytes())
				}
				switch c.Want {
				case "silent":
					if stdout.Len() != 0 {
						t.Errorf("want silent (zero bytes), got %q", stdout.Bytes())
					}
				case "ask":
					if stdout.Len() == 0 {
						t.Fatalf("want ask, got silence for %s", payload)
					}
					reason := checkAskLine(t, stdout.Bytes())
					if c.Lang == "en" && hasHan(reason) {
						t.Errorf("language en, but the reason has Chinese: %q", reason)
					}
					if c.Lang == "zh" && !hasHan(reason) {
						t.Errorf("language zh, but the reason has no Chinese: %q", reason)
					}
					if !strings.Contains(reason, c.Reason) {
						t.Errorf("reason %q, want it to contain %q", reason, c.Reason)
					}
				default:
					t.Fatalf("testdata: want %q", c.Want)
				}
			})
		}
	}
}
