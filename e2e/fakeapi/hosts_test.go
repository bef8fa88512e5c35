package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// events reads an SSE body into its data payloads.
func events(t *testing.T, body io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

func TestChatCompletionsScript(t *testing.T) {
	s := startServer(t)
	tools := `"tools":[{"type":"function","function":{"name":"bash"}}]`
	first := `{"model":"fake-model","stream":true,` + tools + `,"messages":[{"role":"user","content":"` + Marker + ` go"}]}`
	resp := post(t, s, "/v1/chat/completions", first)
	ev := events(t, resp.Body)
	if len(ev) != 4 || ev[3] != "[DONE]" || !strings.Contains(ev[0], `"name":"Bash"`) || !strings.Contains(ev[0], CallID(0)) ||
		!strings.Contains(ev[1], `"finish_reason":"tool_calls"`) || !strings.Contains(ev[2], `"usage"`) {
		t.Fatalf("first turn events: %q", ev)
	}
	if resp.ContentLength <= 0 {
		t.Errorf("stream without Content-Length")
	}
	second := `{"model":"fake-model","stream":false,` + tools + `,"messages":[{"role":"user","content":"` + Marker + `"},` +
		`{"role":"tool","tool_call_id":"` + CallID(0) + `","content":"blocked: [zcode-fence: x]"},` +
		`{"role":"tool","tool_call_id":"` + CallID(1) + `","content":[{"type":"text","text":"done"}]}]}`
	body, _ := io.ReadAll(post(t, s, "/v1/chat/completions", second).Body)
	if !strings.Contains(string(body), `"content":"`+DoneText+`"`) {
		t.Fatalf("after every step: %s", body)
	}
	outs := s.ToolOutputs()
	if len(outs) != 2 || outs[0].CallID != CallID(0) || outs[0].Text != "blocked: [zcode-fence: x]" || outs[1].Text != "done" {
		t.Fatalf("tool outputs %+v", outs)
	}
	noMarker := `{"model":"fake-model",` + tools + `,"messages":[{"role":"user","content":"title"}]}`
	body, _ = io.ReadAll(post(t, s, "/v1/chat/completions", noMarker).Body)
	if !strings.Contains(string(body), `"content":"ok"`) {
		t.Fatalf("background request: %s", body)
	}
}

func TestResponsesScript(t *testing.T) {
	s := startServer(t)
	req := `{"model":"m","tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"` + Marker + `"}]}]}`
	ev := events(t, post(t, s, "/v1/responses", req).Body)
	if len(ev) != 5 || !strings.Contains(ev[2], `"arguments":"{\"command\":\"touch a.txt\",\"description\":\"make a file\"}"`) ||
		!strings.Contains(ev[4], `"response.completed"`) || !strings.Contains(ev[4], `"total_tokens":15`) {
		t.Fatalf("events %q", ev)
	}
	req2 := strings.Replace(req, `]}]}`, `]},{"type":"function_call_output","call_id":"`+CallID(0)+`","output":"denied: because"}]}`, 1)
	ev = events(t, post(t, s, "/v1/responses", req2).Body)
	if !strings.Contains(ev[len(ev)-1], `"function_call"`) || !strings.Contains(ev[len(ev)-1], CallID(1)) {
		t.Fatalf("second step events %q", ev)
	}
	if outs := s.ToolOutputs(); len(outs) != 1 || outs[0].Text != "denied: because" {
		t.Fatalf("tool outputs %+v", outs)
	}
}

func TestGeminiScript(t *testing.T) {
	s := startServer(t)
	req := `{"contents":[{"role":"user","parts":[{"text":"` + Marker + `"}]}],"tools":[{"functionDeclarations":[]}]}`
	ev := events(t, post(t, s, "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", req).Body)
	var chunk struct {
		Candidates []struct {
			Content struct {
				Parts []struct {
					FunctionCall struct {
						Name string          `json:"name"`
						Args json.RawMessage `json:"args"`
					} `json:"functionCall"`
				} `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if len(ev) != 1 || json.Unmarshal([]byte(ev[0]), &chunk) != nil || chunk.Candidates[0].Content.Parts[0].FunctionCall.Name != "Bash" {
		t.Fatalf("events %q", ev)
	}
	done := `{"contents":[{"role":"user","parts":[{"text":"` + Marker + `"}]},{"role":"user","parts":[{"functionResponse":{"name":"Bash","response":{"output":"x"}}},{"functionResponse":{"name":"Write","response":{"error":"blocked"}}}]}],"tools":[{}]}`
	body, _ := io.ReadAll(post(t, s, "/v1beta/models/m:generateContent", done).Body)
	if !strings.Contains(string(body), `"text":"`+DoneText+`"`) {
		t.Fatalf("after the script: %s", body)
	}
	if outs := s.ToolOutputs(); len(outs) != 2 || outs[1].Name != "Write" || !strings.Contains(outs[1].Text, "blocked") {
		t.Fatalf("tool outputs %+v", outs)
	}
}
