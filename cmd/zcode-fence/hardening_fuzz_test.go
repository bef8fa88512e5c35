package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
)

// fuzzHookBound is the hang guard of FuzzHook: far above the hook's own
// 4.5 s budget, because a fuzz worker runs instrumented code next to other
// workers. The real deadline is measured on the built binary in
// hardening_time_test.go.
const fuzzHookBound = 15 * time.Second

// FuzzHook runs the whole hook — stdin reading, decoding, Prepare (paths,
// session lock, shell analysis), the danger gate and the fence in-process,
// the answer and the decision log — on arbitrary stdin bytes, the way
// hookMode does in the binary. It must not panic, must finish in bounded
// time, and must print nothing, exactly the ask line, or (for a payload no host is
// recognised by) exactly the stop line: never allow, never anything else.
//
// The configuration is the default one with in-process layers (a fuzz
// worker cannot re-run itself as `layer serve`), the model off, and no
// project variable, so the payload's own cwd and session id are used.
func FuzzHook(f *testing.F) {
	data := f.TempDir()
	f.Setenv("ZCODE_FENCE_DATA_DIR", data)
	f.Setenv("ZCODE_FENCE_CONFIG", filepath.Join(data, "no-config.json"))
	f.Setenv("ZCODE_FENCE_LAYER_ISOLATION", "inprocess")
	f.Setenv("ZCODE_FENCE_ENABLE_DECISION_MODEL", "false")
	f.Setenv("ZCODE_FENCE_EXTERNAL_LAYERS", "")
	f.Setenv("ZCODE_FENCE_ENABLE_LOG", "false")
	for _, k := range []string{"ZCODE_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "ZCODE_PLUGIN_DATA", "CLAUDE_PLUGIN_DATA"} {
		f.Setenv(k, "")
		os.Unsetenv(k)
	}
	project := filepath.Join(data, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		f.Fatal(err)
	}
	for _, seed := range hookFuzzSeeds(f, project) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, stdin []byte) {
		var out bytes.Buffer
		start := time.Now()
		judgeLikeHookMode(stdin, &out)
		took := time.Since(start)
		if took > fuzzHookBound {
			t.Fatalf("hook took %v for %q", took, stdin)
		}
		if got, detail := checkAnswer(runResult{stdout: out.Bytes()}); got == "" && !isStopLine(out.Bytes()) {
			t.Fatalf("%s, for stdin %q", detail, stdin)
		}
	})
}

// isStopLine reports whether out is exactly the stop line an unrecognised
// host gets (agenthost.StopLine: decision block, the same reason in
// hookSpecificOutput as a deny) with the guard's own reason in it. A
// payload with no host marker (most fuzz inputs) is answered this way.
func isStopLine(out []byte) bool {
	var line struct {
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		HookSpecificOutput struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if len(out) == 0 || out[len(out)-1] != '\n' || json.Unmarshal(out, &line) != nil {
		return false
	}
	h := line.HookSpecificOutput
	return bytes.Equal(out, agenthost.StopLine(line.Reason)) && line.Decision == "block" &&
		h.PermissionDecision == "deny" && h.PermissionDecisionReason == line.Reason &&
		strings.Contains(line.Reason, "[zcode-fence:")
}

// judgeLikeHookMode is hookMode's body without its recover, so that a
// panic anywhere on the judging path fails the fuzz target instead of being
// turned into silence: read stdin, newJudgement, run, answer, log.
func judgeLikeHookMode(stdin []byte, stdout *bytes.Buffer) {
	j := newJudgement("hook", time.Now())
	p, raw, err := agenthost.ReadPayload(bytes.NewReader(stdin), stdinWait, j.env.Lookup)
	if err != nil {
		j.failInput(fmt.Errorf("stdin: %w", err), raw)
		j.log()
		return
	}
	j.run(p)
	if line := j.answer(); line != nil {
		stdout.Write(line)
	}
	j.done()
	j.log()
}

// hookFuzzSeeds are real payloads: every seed case, every case of the
// bypass corpus (in both payload spellings), and a few broken inputs.
func hookFuzzSeeds(f *testing.F, project string) [][]byte {
	var seeds [][]byte
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	raw, err := os.ReadFile("testdata/seed-cases.json")
	if err != nil {
		f.Fatal(err)
	}
	var cases []seedCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		f.Fatal(err)
	}
	s := &scratch{project: project, extra: project, home: project}
	for _, c := range cases {
		seeds = append(seeds, s.payload(c))
	}
	corpus, err := readBypassCorpus()
	if err != nil {
		f.Fatal(err)
	}
	for i, c := range corpus {
		input := map[string]any{"command": c.Command}
		if c.isFileTool() {
			input = map[string]any{"file_path": c.Command}
		}
		if i%2 == 0 {
			add(map[string]any{"tool_name": c.tool(), "tool_input": input, "cwd": project, "session_id": "fuzz-snake"})
		} else {
			add(map[string]any{"toolName": c.tool(), "toolInput": input, "cwd": project, "sessionId": "fuzz-camel"})
		}
	}
	for _, b := range []string{
		``, `{`, `null`, `[]`, `"Bash"`, `{"tool_name":"Bash"}`, `{"tool_name":"Bash","tool_input":{"command":7}}`,
		`{"tool_name":"ApplyPatch","tool_input":"*** Begin Patch\n*** Delete File: /etc/passwd\n*** End Patch","cwd":"/"}`,
		`{"tool_name":"MultiEdit","tool_input":{"edits":[{"file_path":"../../x"},{"filePath":"C:\\Windows\\x"}]},"cwd":"/tmp"}`,
		"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\xff\xfe\"},\"cwd\":\"/\"}",
		`{"tool_name":"PowerShell","tool_input":{"command":"Remove-Item -Recurse -Force C:\\"},"cwd":"C:\\proj"}`,
		`{"tool_name":"Bash","tool_input":{"command":"$($($($($($($($($(rm -rf /)))))))))"},"cwd":"/tmp"}`,
		`{"tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp","session_id":"../../etc\tx"}`,
	} {
		seeds = append(seeds, []byte(b))
	}
	return seeds
}
