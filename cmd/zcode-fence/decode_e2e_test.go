package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// decodeCase is one payload for the exact-decoding tests: what the built
// binary must answer and which rule ids the decision log must show.
type decodeCase struct {
	name  string
	stdin []byte
	want  string   // "ask" or "silent"
	rules []string // rule ids of the record, in order (asks)
	// lang, when set, is the language of the reason (ZCODE_FENCE_LANGUAGE).
	lang string
	// reason, when set, must appear in the ask reason.
	reason string
}

// TestExactDecoding runs payloads whose keys collide, repeat, nest deep,
// come as a JSON string, carry a BOM or a non-string command through the
// built binary in both isolation modes: only exact-case keys are read,
// ambiguity and wrong types ask with their own rule id, and fields the guard
// does not read never break decoding.
func TestExactDecoding(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	inside := filepath.Join(s.project, "src", "a.txt")
	deep := strings.Repeat(`{"a":[`, 10001) + strings.Repeat(`]}`, 10001)
	payload := func(toolName, input string, extra ...string) []byte {
		return []byte(`{"hook_event_name":"PreToolUse","tool_name":` + quoteJSON(toolName) + `,"cwd":` + quoteJSON(s.project) +
			strings.Join(extra, "") + `,"tool_input":` + input + `}`)
	}
	stringInput, _ := json.Marshal(`{"command": "rm -rf ~"}`)
	cases := []decodeCase{
		{name: "command and COMMAND: the exact key is read, the clash asks",
			stdin: payload("Bash", `{"command":"ls","COMMAND":"rm -rf ~"}`), want: "ask", rules: []string{rules.HostAmbiguousInput.ID}},
		{name: "command twice: the last one (what a host runs) is judged, and the repeat asks",
			stdin: payload("Bash", `{"command":"ls","command":"rm -rf ~"}`), want: "ask", rules: []string{rules.HostAmbiguousInput.ID, "DG-RM-RECURSIVE", "FN-COMMAND-WRITE-OUTSIDE"}},
		{name: "file_path and FILE_PATH on a Write",
			stdin: payload("Write", `{"file_path":`+quoteJSON(inside)+`,"FILE_PATH":"/etc/zcode-fence-x","content":"x"}`), want: "ask", rules: []string{rules.HostAmbiguousInput.ID}},
		{name: "tool_input twice: the last one is judged, and the repeat asks",
			stdin: payload("Bash", `{"command":"rm -rf ~"}`, `,"tool_input":{"command":"ls"}`), want: "ask", rules: []string{rules.HostAmbiguousInput.ID, "DG-RM-RECURSIVE", "FN-COMMAND-WRITE-OUTSIDE"}},
		{name: "tool_input twice, the last one everyday",
			stdin: payload("Bash", `{"command":"ls"}`, `,"tool_input":{"command":"rm -rf ~"}`), want: "ask", rules: []string{rules.HostAmbiguousInput.ID}},
		{name: "a clash in a field the tool does not read is not ambiguous",
			stdin: payload("Bash", `{"command":"ls","file_path":"a","FILE_PATH":"b","description":"x","DESCRIPTION":"y"}`), want: "silent"},
		{name: "an unrelated field nested 10001 deep does not hide the command",
			stdin: payload("Bash", `{"meta":`+deep+`,"command":"rm -rf ~"}`), want: "ask", rules: []string{"DG-RM-RECURSIVE", "FN-COMMAND-WRITE-OUTSIDE"}},
		{name: "an unrelated field nested 10001 deep next to an everyday command",
			stdin: payload("Bash", `{"meta":`+deep+`,"command":"ls -la"}`, `,"transcript":`+deep), want: "silent"},
		{name: "tool_input as a JSON string holding the object",
			stdin: payload("Bash", string(stringInput)), want: "ask", rules: []string{"DG-RM-RECURSIVE", "FN-COMMAND-WRITE-OUTSIDE"}},
		{name: "a command that is an array asks",
			stdin: payload("Bash", `{"command":["rm","-rf","~"]}`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "a command that is a number asks",
			stdin: payload("Bash", `{"command":42}`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "a tool_input that is a bare string asks",
			stdin: payload("Bash", `"rm -rf ~"`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "a tool_input that is an array asks",
			stdin: payload("Bash", `["rm -rf ~"]`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "a tool_input that is a number asks",
			stdin: payload("Write", `7`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "a tool_input string holding broken JSON asks",
			stdin: payload("Edit", `"{\"file_path\": \"/etc/hosts\""`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "the not-an-object reason in English", lang: "en", reason: "the field tool_input is a string, not an object",
			stdin: payload("Bash", `"ls"`), want: "ask", rules: []string{rules.HostBadInput.ID}},
		{name: "a tool_input of null is absent: nothing to run",
			stdin: payload("Bash", `null`), want: "silent"},
		{name: "a bare patch string is apply_patch's own input",
			stdin: payload("apply_patch", `"*** Begin Patch\n*** Add File: src/new.go\n+package src\n*** End Patch\n"`), want: "silent"},
		{name: "a UTF-8 byte order mark is accepted",
			stdin: append([]byte("\xef\xbb\xbf"), payload("Bash", `{"command":"rm -rf ~"}`)...), want: "ask", rules: []string{"DG-RM-RECURSIVE", "FN-COMMAND-WRITE-OUTSIDE"}},
		{name: "the ambiguity reason in English", lang: "en", reason: "[zcode-fence: ambiguous input] the field command",
			stdin: payload("Bash", `{"command":"ls","Command":"ls"}`), want: "ask", rules: []string{rules.HostAmbiguousInput.ID}},
		{name: "the wrong-type reason in Chinese", lang: "zh", reason: "[zcode-fence: 输入无法检查] 字段 command 是数组",
			stdin: payload("Bash", `{"command":["ls"]}`), want: "ask", rules: []string{rules.HostBadInput.ID}},
	}
	for _, mode := range []string{"inprocess", "process"} {
		t.Run(mode, func(t *testing.T) {
			for i, c := range cases {
				data := filepath.Join(s.root, "data-"+mode, fmt.Sprintf("case-%02d", i))
				env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "ZCODE_FENCE_DATA_DIR="+data)
				if c.lang != "" {
					env = append(env, "ZCODE_FENCE_LANGUAGE="+c.lang)
				}
				r, err := execHook(env, s.project, c.stdin)
				expectAnswer(t, c.name, r, err, c.want)
				if c.want != "ask" || t.Failed() {
					continue
				}
				if _, reason := checkAnswer(r); !strings.Contains(reason, c.reason) {
					t.Errorf("%s: reason %q lacks %q", c.name, reason, c.reason)
				}
				recs := logRecords(t, data)
				if len(recs) != 1 || !slices.Equal(recs[0].Rules, c.rules) {
					t.Errorf("%s: logged rules %v, want %v", c.name, rulesOf(recs), c.rules)
				}
			}
		})
	}
}

func rulesOf(recs []decisionlog.Record) [][]string {
	var out [][]string
	for _, r := range recs {
		out = append(out, r.Rules)
	}
	return out
}

// TestOverCapLoggedAsSuch: a payload past the 64 MiB cap fails open and the
// log says it was over the cap (not "unexpected EOF"). The payload comes
// from a file, as from a host that has it all ready: through a pipe from
// this race-instrumented test process, busy with the other tests, the
// hook's reads blocked for its whole stdin wait (3 s) before the cap was
// reached, and it rightly logged an incomplete payload instead.
func TestOverCapLoggedAsSuch(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	payload := filepath.Join(s.root, "over-cap.json")
	if err := os.WriteFile(payload, hugeWrite(s.project, "/etc/zcode-fence-huge.txt", agenthost.MaxInput+(1<<20)), 0o600); err != nil {
		t.Fatal(err)
	}
	stdin, err := os.Open(payload)
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	r, err := execHookFrom(hookBinary(), env, s.project, stdin, hookLimit)
	expectAnswer(t, "payload past the cap", r, err, "silent")
	recs := logRecords(t, s.data)
	if len(recs) != 1 || len(recs[0].Errors) != 1 || !strings.Contains(recs[0].Errors[0], "over the 64 MiB cap") {
		t.Fatalf("log records %+v, want one error saying the payload is over the 64 MiB cap", recs)
	}
}

// TestHugeWritePeakRSS: a 50 MB Write is judged by its path while its
// content streams past; the hook's peak RSS stays within the payload size
// plus 30 MiB. The figure is the hook's own rusage ru_maxrss, read by a
// small launcher (this test binary re-run in rssLauncher mode, which
// streams the payload from a file): on Linux ru_maxrss also counts the
// memory of the process that forked and exec'd the hook, so the test
// process itself, holding the payload, must not be that process.
func TestHugeWritePeakRSS(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	const size = 50 << 20
	for _, c := range []struct {
		name, path, want string
	}{
		{"outside the project", "/etc/zcode-fence-huge.txt", "ask"},
		{"in the project", filepath.Join(s.project, "src", "huge.txt"), "silent"},
	} {
		stdin := hugeWrite(s.project, c.path, size) // the same payload in both modes
		for _, mode := range []string{"inprocess", "process"} {
			env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode)
			r, err := execHookMeasured(t, env, s.project, stdin)
			expectAnswer(t, c.name, r, err, c.want)
			if r.peakRSS < 0 {
				t.Logf("%s: peak RSS unknown on this platform", c.name)
				continue
			}
			limit := int64(len(stdin)) + 30<<20
			t.Logf("50 MB Write %s (%s): peak RSS %.1f MiB (payload %.1f MiB, limit %.1f MiB), %v",
				c.name, mode, float64(r.peakRSS)/(1<<20), float64(len(stdin))/(1<<20), float64(limit)/(1<<20), r.took.Round(time.Millisecond))
			if r.peakRSS > limit {
				t.Errorf("%s (%s): peak RSS %d bytes, over payload + 30 MiB = %d", c.name, mode, r.peakRSS, limit)
			}
		}
	}
}

// hugeWrite is a Write payload of about size bytes whose content is lines
// of text with escaped newlines.
func hugeWrite(cwd, path string, size int) []byte {
	var b bytes.Buffer
	b.Grow(size + 200)
	b.WriteString(`{"tool_name":"Write","cwd":` + quoteJSON(cwd) + `,"tool_input":{"file_path":` + quoteJSON(path) + `,"content":"`)
	line := strings.Repeat("x", 98) + `\n`
	for b.Len() < size {
		b.WriteString(line)
	}
	b.WriteString(`"}}`)
	return b.Bytes()
}
