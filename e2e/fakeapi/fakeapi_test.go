package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

var testSteps = []Step{
	{Name: "Bash", Input: json.RawMessage(`{"command":"touch a.txt","description":"make a file"}`)},
	{Name: "Write", Input: json.RawMessage(`{"file_path":"/x/b.txt","content":"hi\n"}`)},
}

// conversation builds a main-loop request body with n tool results.
func conversation(n int, stream bool) string {
	msgs := []any{map[string]any{"role": "user", "content": "do it"}}
	for i := 0; i < n; i++ {
		msgs = append(msgs,
			map[string]any{"role": "assistant", "content": []any{map[string]any{
				"type": "tool_use", "id": ToolUseID(i), "name": testSteps[i].Name, "input": testSteps[i].Input}}},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": ToolUseID(i), "content": "done " + ToolUseID(i)},
				map[string]any{"type": "text", "text": "reminder"}}},
		)
	}
	body, _ := json.Marshal(map[string]any{
		"model": "claude-test", "stream": stream, "max_tokens": 100,
		"tools":    []any{map[string]any{"name": "Bash", "input_schema": map[string]any{"type": "object"}}},
		"messages": msgs,
	})
	return string(body)
}

func post(t *testing.T, s *Server, path, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(s.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

type message struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	Role       string `json:"role"`
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
}

func startServer(t *testing.T) *Server {
	t.Helper()
	s, err := Start(testSteps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestServerListensOnLoopbackOnly(t *testing.T) {
	s := startServer(t)
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	if u.Hostname() != "127.0.0.1" {
		t.Fatalf("server listens on %q, want 127.0.0.1", u.Hostname())
	}
}

func TestNonStreamingFollowsTheScript(t *testing.T) {
	s := startServer(t)
	cases := []struct {
		results          int
		wantStop         string
		wantType         string
		wantName, wantID string
		wantInput        string
		wantText         string
	}{
		{0, "tool_use", "tool_use", "Bash", "toolu_fake_00", string(testSteps[0].Input), ""},
		{1, "tool_use", "tool_use", "Write", "toolu_fake_01", string(testSteps[1].Input), ""},
		{2, "end_turn", "text", "", "", "", DoneText},
	}
	for _, c := range cases {
		resp := post(t, s, "/v1/messages?beta=true", conversation(c.results, false))
		if resp.StatusCode != 200 {
			t.Fatalf("%d results: status %d", c.results, resp.StatusCode)
		}
		var m message
		if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
			t.Fatal(err)
		}
		if m.Type != "message" || m.Role != "assistant" || m.Model != "claude-test" || m.StopReason != c.wantStop || len(m.Content) != 1 {
			t.Fatalf("%d results: got %+v", c.results, m)
		}
		b := m.Content[0]
		if b.Type != c.wantType || b.Name != c.wantName || b.ID != c.wantID || b.Text != c.wantText {
			t.Errorf("%d results: block %+v", c.results, b)
		}
		if c.wantInput != "" && !jsonEqual(t, string(b.Input), c.wantInput) {
			t.Errorf("%d results: input %s, want %s", c.results, b.Input, c.wantInput)
		}
	}
}

// readStream reassembles a message from the server-sent events.
func readStream(t *testing.T, r io.Reader) (message, []string) {
	t.Helper()
	var m message
	var names []string
	var partial strings.Builder
	sc := bufio.NewScanner(r)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
			names = append(names, event)
		case strings.HasPrefix(line, "data: "):
			var d map[string]json.RawMessage
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("event %s: data is not JSON: %v", event, err)
			}
			var typ string
			json.Unmarshal(d["type"], &typ)
			if typ != event {
				t.Fatalf("event %q carries data of type %q", event, typ)
			}
			switch event {
			case "message_start":
				json.Unmarshal(d["message"], &m)
			case "content_block_start":
				var b struct {
					Type, Text, ID, Name string
				}
				json.Unmarshal(d["content_block"], &b)
				m.Content = append(m.Content, struct {
					Type  string          `json:"type"`
					Text  string          `json:"text"`
					ID    string          `json:"id"`
					Name  string          `json:"name"`
					Input json.RawMessage `json:"input"`
				}{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name})
			case "content_block_delta":
				var delta struct {
					Type        string `json:"type"`
					Text        string `json:"text"`
					PartialJSON string `json:"partial_json"`
				}
				json.Unmarshal(d["delta"], &delta)
				switch delta.Type {
				case "text_delta":
					m.Content[len(m.Content)-1].Text += delta.Text
				case "input_json_delta":
					partial.WriteString(delta.PartialJSON)
				default:
					t.Fatalf("unknown delta type %q", delta.Type)
				}
			case "content_block_stop":
				if partial.Len() > 0 {
					m.Content[len(m.Content)-1].Input = json.RawMessage(partial.String())
				}
			case "message_delta":
				var delta struct {
					StopReason string `json:"stop_reason"`
				}
				json.Unmarshal(d["delta"], &delta)
				m.StopReason = delta.StopReason
			}
		}
	}
	return m, names
}

func TestStreamingCarriesTheSameAnswer(t *testing.T) {
	s := startServer(t)
	wantEvents := "message_start content_block_start content_block_delta content_block_stop message_delta message_stop"
	for results := 0; results <= len(testSteps); results++ {
		resp := post(t, s, "/v1/messages?beta=true", conversation(results, true))
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("content type %q", ct)
		}
		got, names := readStream(t, resp.Body)
		if strings.Join(names, " ") != wantEvents {
			t.Fatalf("events %v", names)
		}
		var want message
		json.NewDecoder(post(t, s, "/v1/messages", conversation(results, false)).Body).Decode(&want)
		if got.StopReason != want.StopReason || len(got.Content) != 1 || got.Content[0].Type != want.Content[0].Type ||
			got.Content[0].ID != want.Content[0].ID || got.Content[0].Name != want.Content[0].Name ||
			got.Content[0].Text != want.Content[0].Text {
			t.Errorf("%d results: stream %+v, message %+v", results, got, want)
		}
		if want.Content[0].Type == "tool_use" && !jsonEqual(t, string(got.Content[0].Input), string(want.Content[0].Input)) {
			t.Errorf("%d results: stream input %s, message input %s", results, got.Content[0].Input, want.Content[0].Input)
		}
	}
}

func TestOtherRoutes(t *testing.T) {
	s := startServer(t)
	cases := []struct {
		method, path, body string
		status             int
		wantInBody         string
	}{
		{"POST", "/v1/messages", `{"model":"m","messages":[{"role":"user","content":"title?"}]}`, 200, `"text":"ok"`},
		{"POST", "/v1/messages/count_tokens?beta=true", `{"messages":[]}`, 200, `"input_tokens":42`},
		{"POST", "/v1/messages", `not json`, 400, `invalid_request_error`},
		{"GET", "/v1/models", ``, 200, `"id":"fake-model"`},
		{"GET", "/v1/unknown", ``, 404, `not_found_error`},
		{"POST", "/api/event_logging/batch", `{}`, 404, `not_found_error`},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, s.URL+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.wantInBody) {
			t.Errorf("%s %s: %d %s, want %d with %s", c.method, c.path, resp.StatusCode, body, c.status, c.wantInBody)
		}
	}
	if n := len(s.Requests()); n != len(cases) {
		t.Errorf("recorded %d requests, want %d", n, len(cases))
	}
}

func TestToolResultsAndSetSteps(t *testing.T) {
	s := startServer(t)
	body := `{"model":"m","tools":[{"name":"Bash"}],"messages":[
	  {"role":"user","content":"go"},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_fake_00","content":"plain text"}]},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_fake_01","is_error":true,
	    "content":[{"type":"text","text":"[zcode-fence: danger] no"},{"type":"image"}]}]}]}`
	post(t, s, "/v1/messages", body)
	got := s.ToolResults()
	want := map[string]ToolResult{
		"toolu_fake_00": {ToolUseID: "toolu_fake_00", Text: "plain text"},
		"toolu_fake_01": {ToolUseID: "toolu_fake_01", IsError: true, Text: "[zcode-fence: danger] no"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: got %+v, want %+v", id, got[id], w)
		}
	}
	s.SetSteps(nil)
	if len(s.Requests()) != 0 || len(s.ToolResults()) != 0 {
		t.Fatal("SetSteps did not forget the requests")
	}
	var m message
	json.NewDecoder(post(t, s, "/v1/messages", conversation(0, false)).Body).Decode(&m)
	if m.StopReason != "end_turn" || m.Content[0].Text != DoneText {
		t.Errorf("with no steps: %+v", m)
	}
}

func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal([]byte(a), &x); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal([]byte(b), &y); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return string(xs) == string(ys)
}
