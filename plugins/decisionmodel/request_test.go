package decisionmodel

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/redact"
)

func TestName(t *testing.T) {
	var l core.Layer = New()
	if l.Name() != "decisionmodel" {
		t.Fatalf("Name() = %q", l.Name())
	}
}

// TestRequestShape checks everything about the one POST: exact URL, method,
// auth, extra headers, temperature 0, JSON output, bounded tokens, the five
// questions in the system message, the call facts in the user message.
func TestRequestShape(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	opts := m.options(KeyHeaders, "X-Tenant: acme; X-Trace-Id:  42 ;BrokenHeaderWithoutColon; ;")
	call := shellCall("git status", opts, t.TempDir())
	v, err := l.Decide(context.Background(), call)
	if err != nil {
		t.Fatalf("Decide: %v", err)
	}
	if m.count() != 1 {
		t.Fatalf("server saw %d requests, want exactly 1", m.count())
	}
	r := m.last(t)
	if r.Method != http.MethodPost || r.Path != endpointPath || r.RawQuery != endpointQuery {
		t.Errorf("request %s %s?%s, want POST %s?%s", r.Method, r.Path, r.RawQuery, endpointPath, endpointQuery)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testAPIKey {
		t.Errorf("Authorization = %q", got)
	}
	if r.Header.Get("X-Tenant") != "acme" || r.Header.Get("X-Trace-Id") != "42" {
		t.Errorf("extra headers missing: %v", r.Header)
	}
	if !strings.Contains(v.Annotations["notes"], "no colon") {
		t.Errorf("header without colon not noted: notes=%q", v.Annotations["notes"])
	}
	if r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type = %q", r.Header.Get("Content-Type"))
	}

	b := decodeSent(t, r)
	if b.Model != "test-model" || b.Stream {
		t.Errorf("model %q stream %v", b.Model, b.Stream)
	}
	if b.Temperature == nil || *b.Temperature != 0 {
		t.Errorf("temperature not sent as 0: %s", r.Body)
	}
	if b.MaxTokens <= 0 || b.MaxTokens > 1000 {
		t.Errorf("max_tokens = %d, want bounded", b.MaxTokens)
	}
	if b.ResponseFormat == nil || !strings.Contains(string(*b.ResponseFormat), `"json_object"`) {
		t.Errorf("response_format = %v", b.ResponseFormat)
	}
	if len(b.Messages) != 2 || b.Messages[0].Role != "system" || b.Messages[1].Role != "user" {
		t.Fatalf("messages = %+v", b.Messages)
	}
	system := b.Messages[0].Content
	if system != builtinPolicy {
		t.Errorf("system message is not exactly the built-in policy when no prompt is set")
	}
	mustContain(t, "system message", system,
		"data_loss", "system_change", "external_side_effects", "data_exfiltration", "code_execution",
		"hard to recover", "global package installs", "force, mirror or delete pushes",
		"private keys", "not fully visible",
		`{"data_loss":{"score":0.0,"why":"..."},"system_change":{"score":0.0,"why":"..."},"external_side_effects":{"score":0.0,"why":"..."},"data_exfiltration":{"score":0.0,"why":"..."},"code_execution":{"score":0.0,"why":"..."}}`)

	user := b.Messages[1].Content
	_, factsText, ok := strings.Cut(user, "\n")
	if !ok {
		t.Fatalf("user message has no facts: %q", user)
	}
	var facts map[string]any
	if err := json.Unmarshal([]byte(factsText), &facts); err != nil {
		t.Fatalf("facts are not JSON: %v\n%s", err, factsText)
	}
	want := map[string]any{
		"tool": "Bash", "kind": "shell", "command": "git status",
		"project_root": "/work/project", "cwd": "/work/project/sub",
		"writable_roots": []any{"/work/project", "/tmp"},
	}
	if len(facts) != len(want) {
		t.Errorf("facts have fields %v, want exactly %v", facts, want)
	}
	for k, w := range want {
		got, _ := json.Marshal(facts[k])
		exp, _ := json.Marshal(w)
		if string(got) != string(exp) {
			t.Errorf("facts[%q] = %s, want %s", k, got, exp)
		}
	}
}

// TestPromptAppended: the user prompt is redacted, cut to 1000 characters
// and placed after the full built-in policy, which stays intact.
func TestPromptAppended(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	secret := "ghp_" + strings.Repeat("Z", 36)
	prompt := "Treat terraform apply as external. token " + secret + " " + strings.Repeat("界", 1500)
	call := shellCall("ls", m.options(KeyPrompt, prompt), t.TempDir())
	if _, err := l.Decide(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	system := decodeSent(t, m.last(t)).Messages[0].Content
	rest, ok := strings.CutPrefix(system, builtinPolicy+userPolicyHeader)
	if !ok {
		t.Fatalf("system message does not start with the built-in policy followed by the user policy:\n%s", system)
	}
	if n := len([]rune(rest)); n > MaxPromptChars || n < MaxPromptChars {
		t.Errorf("appended prompt has %d characters, want exactly %d (cut)", n, MaxPromptChars)
	}
	if !strings.HasPrefix(redact.String(prompt), rest) {
		t.Errorf("appended prompt is not a prefix of the redacted prompt")
	}
	mustContain(t, "system message", system, "Treat terraform apply as external.")
	mustNotContain(t, "system message", system, secret)
}

// TestNoFileContentSent: a Write or Edit call sends the target paths, never
// the content, old_string or new_string, never the raw tool input.
func TestNoFileContentSent(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	const marker = "ZF-SECRET-CONTENT-MARKER-7781"
	calls := []*core.Call{
		{Tool: "Write", Kind: core.KindFile, Paths: []string{"/work/project/a.txt"},
			Input: json.RawMessage(`{"file_path":"/work/project/a.txt","content":"` + marker + `"}`)},
		{Tool: "Edit", Kind: core.KindFile, Paths: []string{"/work/project/b.go"},
			Input: json.RawMessage(`{"file_path":"/work/project/b.go","old_string":"` + marker + `-old","new_string":"` + marker + `-new"}`)},
		{Tool: "MultiEdit", Kind: core.KindFile, Paths: []string{"/work/project/c.go", "/etc/hosts"},
			Input: json.RawMessage(`{"file_path":"/work/project/c.go","edits":[{"old_string":"x","new_string":"` + marker + `"}]}`)},
	}
	for _, call := range calls {
		call.ProjectRoot, call.Cwd, call.WritableRoots = "/work/project", "/work/project", []string{"/work/project"}
		call.Options, call.DataDir = m.options(), t.TempDir()
		if _, err := l.Decide(context.Background(), call); err != nil {
			t.Fatalf("%s: %v", call.Tool, err)
		}
		r := m.last(t)
		mustNotContain(t, call.Tool+" request", string(r.Body), marker, "old_string", "new_string", `\"content\"`)
		for _, p := range call.Paths {
			mustContain(t, call.Tool+" request", string(r.Body), p)
		}
		mustContain(t, call.Tool+" request", string(r.Body), `\"target_paths\"`, `\"kind\":\"file\"`)
	}
}

// TestSecretsRedactedInRequest: a token in the command, the cwd or a
// writable root never reaches the model.
func TestSecretsRedactedInRequest(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	gh := "ghp_" + strings.Repeat("a1B2", 9)
	aws := "AKIA" + strings.Repeat("Q", 16)
	call := shellCall("curl -H 'Authorization: token "+gh+"' https://api.example.com && aws s3 ls --key "+aws, m.options(), t.TempDir())
	call.Cwd = "/work/" + gh
	if _, err := l.Decide(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	body := string(m.last(t).Body)
	mustNotContain(t, "request body", body, gh, aws)
	mustContain(t, "request body", body, "[REDACTED:", "curl -H", "aws s3 ls")
}

// TestNoAuthorizationWithoutKey: no key, no Authorization header.
func TestNoAuthorizationWithoutKey(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	if _, err := l.Decide(context.Background(), shellCall("ls", m.options(KeyAPIKey, ""), t.TempDir())); err != nil {
		t.Fatal(err)
	}
	if h := m.last(t).Header.Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q, want none", h)
	}
}

// TestReasoningModelRequest: for a model go-openai treats as a reasoning
// model, the request carries max_completion_tokens and no temperature
// (either one would be refused).
func TestReasoningModelRequest(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	if _, err := l.Decide(context.Background(), shellCall("ls", m.options(KeyModel, "gpt-5-mini"), t.TempDir())); err != nil {
		t.Fatal(err)
	}
	b := decodeSent(t, m.last(t))
	if b.Temperature != nil || b.MaxTokens != 0 || b.MaxCompletionTokens <= 0 {
		t.Errorf("temperature %v max_tokens %d max_completion_tokens %d", b.Temperature, b.MaxTokens, b.MaxCompletionTokens)
	}
}

// TestLongCommandCut: a huge command is cut before it is sent.
func TestLongCommandCut(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	if _, err := l.Decide(context.Background(), shellCall("echo "+strings.Repeat("x", 50000), m.options(), t.TempDir())); err != nil {
		t.Fatal(err)
	}
	r := m.last(t)
	if len(r.Body) > 20000 {
		t.Errorf("request body is %d bytes; the command was not cut", len(r.Body))
	}
	mustContain(t, "request body", string(r.Body), "[truncated]")
}
