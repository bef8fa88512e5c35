// Package fakeapi is a scripted stand-in for the Anthropic Messages API, for
// driving the real Claude Code CLI offline (ANTHROPIC_BASE_URL pointing at it),
// and for the model APIs of the other agent hosts (hosts.go: OpenAI chat
// completions, OpenAI Responses, Gemini).
//
// It listens on 127.0.0.1 only and answers statelessly from the request:
//
//   - POST .../v1/messages with a non-empty "tools" array is the agent's main
//     loop. With k tool_result blocks already in "messages", it replies with
//     tool_use step k of the script (id "toolu_fake_%02d", stop_reason
//     "tool_use"), or, once every step has a result, with the text "FAKE-DONE"
//     (stop_reason "end_turn").
//   - POST .../v1/messages without tools (titles, summaries) gets the text "ok".
//   - POST .../v1/messages/count_tokens gets {"input_tokens":42}.
//   - Anything else is a 404 with an Anthropic-shaped error body.
//
// "stream": true is answered as server-sent events (message_start,
// content_block_start, one content_block_delta, content_block_stop,
// message_delta, message_stop); otherwise as one JSON message. Every request
// body is kept, so a test can read what the model was told (Requests,
// ToolResults).
package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// Step is one scripted tool call: the tool's name and its input object.
type Step struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ToolUseID is the id the server gives step k's tool_use block.
func ToolUseID(k int) string { return fmt.Sprintf("toolu_fake_%02d", k) }

// DoneText is the final answer once every step has a result.
const DoneText = "FAKE-DONE"

// Request is one request the server received.
type Request struct {
	Method string
	Path   string
	Body   []byte
}

// ToolResult is a tool_result block the client sent back to the model.
type ToolResult struct {
	ToolUseID string
	IsError   bool
	Text      string // the block's text content, joined
}

// Server is a running fake API. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL to give the client, e.g. http://127.0.0.1:41234.
	URL string

	srv *http.Server
	ln  net.Listener

	mu       sync.Mutex
	steps    []Step
	requests []Request
}

// Start listens on a free loopback port and serves until Close.
func Start(steps []Step) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("fakeapi: listen: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), ln: ln, steps: steps}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and drops its connections.
func (s *Server) Close() error { return s.srv.Close() }

// SetSteps replaces the script and forgets the requests seen so far, so one
// server can back several client runs in turn.
func (s *Server) SetSteps(steps []Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = steps
	s.requests = nil
}

// Requests returns a copy of the requests received since the last SetSteps.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ToolResults returns, by tool_use id, the tool_result blocks found in the
// message requests received since the last SetSteps (a later request's copy
// of a block wins; they are the same conversation growing).
func (s *Server) ToolResults() map[string]ToolResult {
	out := map[string]ToolResult{}
	for _, r := range s.Requests() {
		var body messagesRequest
		if json.Unmarshal(r.Body, &body) != nil {
			continue
		}
		for _, b := range body.blocks() {
			if b.Type == "tool_result" {
				out[b.ToolUseID] = ToolResult{ToolUseID: b.ToolUseID, IsError: b.IsError, Text: contentText(b.Content)}
			}
		}
	}
	return out
}

type messagesRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type block struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
	Text      string          `json:"text"`
}

// blocks lists every content block of every message (string contents have
// none).
func (m messagesRequest) blocks() []block {
	var out []block
	for _, msg := range m.Messages {
		var bs []block
		if json.Unmarshal(msg.Content, &bs) == nil {
			out = append(out, bs...)
		}
	}
	return out
}

// contentText flattens a tool_result content: a string, or text blocks.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil {
		return ""
	}
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err != nil || !net.ParseIP(host).IsLoopback() {
		writeError(w, http.StatusForbidden, "permission_error", "fakeapi: loopback clients only")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "fakeapi: read body: "+err.Error())
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Body: body})
	steps := s.steps
	s.mu.Unlock()

	if s.hostRoute(w, r, body, steps) {
		return
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		writeJSON(w, map[string]any{"input_tokens": 42})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
		var req messagesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "fakeapi: body is not JSON: "+err.Error())
			return
		}
		reply := decide(req, steps)
		if req.Stream {
			writeStream(w, reply)
		} else {
			writeJSON(w, reply.message(true))
		}
	default:
		writeError(w, http.StatusNotFound, "not_found_error", "fakeapi: no route for "+r.Method+" "+r.URL.Path)
	}
}

// reply is the one content block of an answer.
type reply struct {
	model      string
	seq        int
	text       string // a text block, when tool is empty
	tool       string
	toolID     string
	input      json.RawMessage
	stopReason string
}

// decide picks the answer to a messages request.
func decide(req messagesRequest, steps []Step) reply {
	model := req.Model
	if model == "" {
		model = "claude-fake"
	}
	if len(req.Tools) == 0 {
		return reply{model: model, text: "ok", stopReason: "end_turn"}
	}
	k := 0
	for _, b := range req.blocks() {
		if b.Type == "tool_result" {
			k++
		}
	}
	if k >= len(steps) {
		return reply{model: model, seq: k, text: DoneText, stopReason: "end_turn"}
	}
	input := steps[k].Input
	if len(bytes.TrimSpace(input)) == 0 {
		input = json.RawMessage(`{}`)
	}
	return reply{model: model, seq: k, tool: steps[k].Name, toolID: ToolUseID(k), input: input, stopReason: "tool_use"}
}

// contentBlock is the finished block; withInput false gives the empty-input
// form that opens a stream.
func (r reply) contentBlock(withInput bool) map[string]any {
	if r.tool == "" {
		text := r.text
		if !withInput {
			text = ""
		}
		return map[string]any{"type": "text", "text": text}
	}
	var input any = json.RawMessage(`{}`)
	if withInput {
		input = r.input
	}
	return map[string]any{"type": "tool_use", "id": r.toolID, "name": r.tool, "input": input}
}

func (r reply) message(complete bool) map[string]any {
	m := map[string]any{
		"id":            fmt.Sprintf("msg_fake_%02d", r.seq),
		"type":          "message",
		"role":          "assistant",
		"model":         r.model,
		"content":       []any{},
		"stop_reason":   nil,
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": 10, "output_tokens": 1},
	}
	if complete {
		m["content"] = []any{r.contentBlock(true)}
		m["stop_reason"] = r.stopReason
		m["usage"] = map[string]any{"input_tokens": 10, "output_tokens": 5}
	}
	return m
}

func writeStream(w http.ResponseWriter, r reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	var delta map[string]any
	if r.tool == "" {
		delta = map[string]any{"type": "text_delta", "text": r.text}
	} else {
		delta = map[string]any{"type": "input_json_delta", "partial_json": string(r.input)}
	}
	events := []struct {
		name string
		data map[string]any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": r.message(false)}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": r.contentBlock(false)}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": r.stopReason, "stop_sequence": nil},
			"usage": map[string]any{"output_tokens": 5}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}
	flusher, _ := w.(http.Flusher)
	for _, ev := range events {
		data, _ := json.Marshal(ev.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, data)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{
		"type":  "error",
		"error": map[string]any{"type": kind, "message": msg},
	})
}
