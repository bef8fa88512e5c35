package fakeapi

// The wire formats of the other agent hosts' model APIs, on the same
// Server and with the same script (shared/spec/hosts.md gives the shapes
// that drove each CLI):
//
//   - OpenAI chat completions (Qwen Code, Copilot CLI, opencode): POST
//     .../chat/completions; step k is the number of role "tool" messages.
//   - OpenAI Responses (Codex): POST .../responses, always streamed; step k
//     is the number of function_call_output input items.
//   - Gemini (Gemini CLI): POST .../models/<model>:streamGenerateContent
//     (SSE) or :generateContent (JSON); step k is the number of
//     functionResponse parts.
//
// A request gets the next tool call only when it offers tools and its body
// contains Marker (hosts send background requests with tools too: titles,
// next-speaker checks); otherwise it gets text — DoneText once the script
// is done, "ok" for a request without the marker. Streams are written whole
// with a Content-Length.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Marker must appear in a prompt for the fake model to call tools.
const Marker = "ZFENCE-E2E"

// CallID is the id the server gives step k's tool call in the OpenAI and
// Codex formats.
func CallID(k int) string { return fmt.Sprintf("call_fake_%02d", k) }

// ToolOutput is what a client sent back for one tool call (the tool's
// output or the hook's reason), in any of the formats.
type ToolOutput struct {
	CallID string
	Name   string
	Text   string
}

// hostRoute answers the non-Anthropic formats; false when path is none of
// them.
func (s *Server) hostRoute(w http.ResponseWriter, r *http.Request, body []byte, steps []Step) bool {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{
			map[string]any{"id": "fake-model", "object": "model", "owned_by": "fakeapi"}}})
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/chat/completions"):
		s.chat(w, body, steps)
	case r.Method == http.MethodPost && strings.HasSuffix(path, "/responses"):
		s.responses(w, body, steps)
	case r.Method == http.MethodPost && (strings.HasSuffix(path, ":streamGenerateContent") || strings.HasSuffix(path, ":generateContent")):
		s.gemini(w, body, steps, strings.HasSuffix(path, ":streamGenerateContent"))
	case r.Method == http.MethodPost && strings.HasSuffix(path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 42})
	default:
		return false
	}
	return true
}

// next picks step k of the script for a request, or text.
func next(body []byte, tools bool, k int, steps []Step) (step *Step, text string) {
	if !tools || !bytes.Contains(body, []byte(Marker)) {
		return nil, "ok"
	}
	if k >= len(steps) {
		return nil, DoneText
	}
	return &steps[k], ""
}

// --- OpenAI chat completions ---

type chatRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		Name       string          `json:"name"`
	} `json:"messages"`
}

func (s *Server) chat(w http.ResponseWriter, body []byte, steps []Step) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "fakeapi: body is not JSON: "+err.Error())
		return
	}
	k := 0
	for _, m := range req.Messages {
		if m.Role == "tool" {
			k++
		}
	}
	model := req.Model
	if model == "" {
		model = "fake-model"
	}
	step, text := next(body, len(req.Tools) > 0, k, steps)
	id := fmt.Sprintf("chatcmpl-fake-%02d", k)
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
	msg := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	if step != nil {
		finish = "tool_calls"
		msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": CallID(k), "type": "function",
			"function": map[string]any{"name": step.Name, "arguments": string(compact(step.Input))}}}}
	}
	if !req.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": 1700000000, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(choices []any, extra map[string]any) map[string]any {
		c := map[string]any{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model, "choices": choices}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	delta := map[string]any{"role": "assistant", "content": text}
	if step != nil {
		tc := msg["tool_calls"].([]any)[0].(map[string]any)
		tc["index"] = 0
		delta = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{tc}}
	}
	var events []sse
	events = append(events,
		sse{data: chunk([]any{map[string]any{"index": 0, "delta": delta, "finish_reason": nil}}, nil)},
		sse{data: chunk([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, nil)},
		sse{data: chunk([]any{}, map[string]any{"usage": usage})},
		sse{raw: "[DONE]"})
	writeEvents(w, events)
}

// --- OpenAI Responses (Codex) ---

type responsesRequest struct {
	Model string            `json:"model"`
	Tools []json.RawMessage `json:"tools"`
	Input []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	} `json:"input"`
}

func (s *Server) responses(w http.ResponseWriter, body []byte, steps []Step) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "fakeapi: body is not JSON: "+err.Error())
		return
	}
	k := 0
	for _, in := range req.Input {
		if in.Type == "function_call_output" || in.Type == "custom_tool_call_output" {
			k++
		}
	}
	step, text := next(body, len(req.Tools) > 0, k, steps)
	respID := fmt.Sprintf("resp_fake_%02d", k)
	var item map[string]any
	var freeform string
	if step != nil && json.Unmarshal(step.Input, &freeform) == nil {
		// A string input is a freeform (custom) tool's text: Codex's
		// apply_patch takes the patch that way.
		item = map[string]any{"type": "custom_tool_call", "id": fmt.Sprintf("ctc_fake_%02d", k), "call_id": CallID(k),
			"name": step.Name, "input": freeform, "status": "completed"}
	} else if step != nil {
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_fake_%02d", k), "call_id": CallID(k),
			"name": step.Name, "arguments": string(compact(step.Input)), "status": "completed"}
	} else {
		item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_fake_%02d", k), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
	response := func(status string, output []any) map[string]any {
		r := map[string]any{"id": respID, "object": "response", "created_at": 1700000000, "status": status,
			"model": req.Model, "output": output}
		if status == "completed" {
			r["usage"] = usage
		}
		return r
	}
	started := map[string]any{}
	for k, v := range item {
		started[k] = v
	}
	started["status"] = "in_progress"
	events := []sse{
		{event: "response.created", data: map[string]any{"type": "response.created", "response": response("in_progress", []any{})}},
		{event: "response.output_item.added", data: map[string]any{"type": "response.output_item.added", "output_index": 0, "item": started}},
	}
	if item["type"] == "function_call" {
		events = append(events, sse{event: "response.function_call_arguments.done", data: map[string]any{
			"type": "response.function_call_arguments.done", "item_id": item["id"], "output_index": 0, "arguments": item["arguments"]}})
	} else if step == nil {
		events = append(events, sse{event: "response.output_text.done", data: map[string]any{
			"type": "response.output_text.done", "item_id": item["id"], "output_index": 0, "content_index": 0, "text": text}})
	}
	events = append(events,
		sse{event: "response.output_item.done", data: map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item}},
		sse{event: "response.completed", data: map[string]any{"type": "response.completed", "response": response("completed", []any{item})}})
	writeEvents(w, events)
}

// --- Gemini ---

type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			FunctionResponse *struct {
				Name     string          `json:"name"`
				Response json.RawMessage `json:"response"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []json.RawMessage `json:"tools"`
}

func (s *Server) gemini(w http.ResponseWriter, body []byte, steps []Step, stream bool) {
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "fakeapi: body is not JSON: "+err.Error())
		return
	}
	k := 0
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			if p.FunctionResponse != nil {
				k++
			}
		}
	}
	step, text := next(body, len(req.Tools) > 0, k, steps)
	part := map[string]any{"text": text}
	if step != nil {
		part = map[string]any{"functionCall": map[string]any{"name": step.Name, "args": step.Input}}
	}
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-flash",
	}
	if !stream {
		writeJSON(w, resp)
		return
	}
	writeEvents(w, []sse{{data: resp}})
}

// ToolOutputs returns, in order, what the client sent back for each tool
// call of the OpenAI, Codex and Gemini formats since the last SetSteps (a
// later request's copy wins; they are the same conversation growing).
func (s *Server) ToolOutputs() []ToolOutput {
	var out []ToolOutput
	for _, r := range s.Requests() {
		var got []ToolOutput
		switch {
		case strings.HasSuffix(r.Path, "/chat/completions"):
			var req chatRequest
			if json.Unmarshal(r.Body, &req) == nil {
				for _, m := range req.Messages {
					if m.Role == "tool" {
						got = append(got, ToolOutput{CallID: m.ToolCallID, Name: m.Name, Text: contentText(m.Content)})
					}
				}
			}
		case strings.HasSuffix(r.Path, "/responses"):
			var req responsesRequest
			if json.Unmarshal(r.Body, &req) == nil {
				for _, in := range req.Input {
					if in.Type == "function_call_output" || in.Type == "custom_tool_call_output" {
						got = append(got, ToolOutput{CallID: in.CallID, Text: outputText(in.Output)})
					}
				}
			}
		case strings.Contains(r.Path, ":streamGenerateContent") || strings.Contains(r.Path, ":generateContent"):
			var req geminiRequest
			if json.Unmarshal(r.Body, &req) == nil {
				for _, c := range req.Contents {
					for _, p := range c.Parts {
						if p.FunctionResponse != nil {
							got = append(got, ToolOutput{Name: p.FunctionResponse.Name, Text: string(p.FunctionResponse.Response)})
						}
					}
				}
			}
		}
		if len(got) >= len(out) {
			out = got
		}
	}
	return out
}

// outputText flattens a Responses function_call_output: a string, or an
// object or array whose text it holds.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if len(bytes.TrimSpace(raw)) == 0 || json.Compact(&b, raw) != nil {
		return []byte("{}")
	}
	return b.Bytes()
}

// sse is one server-sent event: an optional event name and a JSON data
// object, or raw data.
type sse struct {
	event string
	data  any
	raw   string
}

// writeEvents writes the whole stream at once, with a Content-Length.
func writeEvents(w http.ResponseWriter, events []sse) {
	var b bytes.Buffer
	for _, ev := range events {
		if ev.event != "" {
			fmt.Fprintf(&b, "event: %s\n", ev.event)
		}
		data := ev.raw
		if ev.data != nil {
			enc, _ := json.Marshal(ev.data)
			data = string(enc)
		}
		fmt.Fprintf(&b, "data: %s\n\n", data)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Content-Length", fmt.Sprint(b.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}
