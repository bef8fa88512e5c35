package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// fakeModel is a local OpenAI-compatible chat-completions endpoint (plain
// http on loopback, which the model layer allows) that answers every
// request with the scores it is given and records what it was sent.
type fakeModel struct {
	srv    *httptest.Server
	mu     sync.Mutex
	scores map[string]float64
	status int
	bodies []string
	auth   []string
}

func newFakeModel(t testing.TB) *fakeModel {
	m := &fakeModel{status: http.StatusOK}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *fakeModel) set(scores map[string]float64, status int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.scores, m.status = scores, status
}

func (m *fakeModel) requests() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.bodies)
}

func (m *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.bodies = append(m.bodies, string(body))
	m.auth = append(m.auth, r.Header.Get("Authorization"))
	scores, status := m.scores, m.status
	m.mu.Unlock()
	if r.URL.Path != "/v1/chat/completions" || r.URL.RawQuery != "tenant=zf" {
		http.Error(w, "wrong endpoint "+r.URL.String(), http.StatusNotFound)
		return
	}
	if status != http.StatusOK {
		http.Error(w, `{"error":{"message":"overloaded"}}`, status)
		return
	}
	answer := map[string]any{}
	for _, dim := range []string{"data_loss", "system_change", "external_side_effects", "data_exfiltration", "code_execution"} {
		answer[dim] = map[string]any{"score": scores[dim], "why": "fake model says " + dim}
	}
	content, _ := json.Marshal(answer)
	resp := map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": time.Now().Unix(), "model": "test-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": "```json\n" + string(content) + "\n```"}}},
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

// TestDecisionModelThroughTheBinary runs the model layer for real in both
// isolation modes: it is asked only when the deterministic layers are
// silent, its ask names the kind and the model's why, the log keeps all
// five scores, a repeated call is answered from the cache without a
// request, a failing model is silence plus an error record, the API key
// reaches the endpoint but never the log, and file contents never leave.
func TestDecisionModelThroughTheBinary(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			m := newFakeModel(t)
			const key = "sk-zcodefence-e2e-NOT-A-REAL-KEY-0123456789"
			env := s.env("default", false,
				"ZCODE_FENCE_LAYER_ISOLATION="+mode,
				"ZCODE_FENCE_LANGUAGE=en",
				"ZCODE_FENCE_ENABLE_DECISION_MODEL=true",
				"ZCODE_FENCE_DECISION_MODEL_ENDPOINT="+m.srv.URL+"/v1/chat/completions?tenant=zf",
				"ZCODE_FENCE_DECISION_MODEL_MODEL=test-model",
				"ZCODE_FENCE_DECISION_MODEL_API_KEY="+key,
			)
			run := func(payload []byte) (string, string) {
				t.Helper()
				r := runHook(t, env, s.project, payload)
				got, detail := checkAnswer(r)
				if got == "" {
					t.Fatalf("protocol: %s", detail)
				}
				return got, detail
			}

			// A risky call the rules do not cover: the model asks.
			m.set(map[string]float64{"data_loss": 0.92, "code_execution": 0.3}, http.StatusOK)
			got, reason := run(s.bashCall("psql app -f scripts/purge_customers.sql"))
			if got != "ask" || !strings.Contains(reason, "data_loss") && !strings.Contains(reason, "data loss") {
				t.Fatalf("risky call: %s %q", got, reason)
			}
			if m.requests() != 1 || m.auth[0] != "Bearer "+key {
				t.Fatalf("requests %d, auth %q", m.requests(), m.auth)
			}
			rec := lastRecord(t, s.data)
			l := layerRecord(t, rec, "decisionmodel")
			for _, dim := range []string{"data_loss", "system_change", "external_side_effects", "data_exfiltration", "code_execution"} {
				if _, ok := l.Annotations[dim+".score"]; !ok {
					t.Errorf("log lacks the %s score: %v", dim, l.Annotations)
				}
			}

			// The same call again: from the cache, no request.
			if got, _ := run(s.bashCall("psql app -f scripts/purge_customers.sql")); got != "ask" || m.requests() != 1 {
				t.Fatalf("cached call: %s after %d requests", got, m.requests())
			}
			if l := layerRecord(t, lastRecord(t, s.data), "decisionmodel"); l.Annotations["cached"] != "true" {
				t.Errorf("second call not from the cache: %v", l.Annotations)
			}

			// A deterministic ask: the model is not consulted.
			if got, _ := run(s.bashCall("rm -rf /")); got != "ask" || m.requests() != 1 {
				t.Fatalf("rm -rf /: %s, %d requests", got, m.requests())
			}

			// Low scores: silent, with the kind logged.
			m.set(map[string]float64{"code_execution": 0.8}, http.StatusOK)
			if got, _ := run(s.bashCall("python3 tools/gen.py")); got != "silent" {
				t.Fatalf("low scores: %s", got)
			}
			if l := layerRecord(t, lastRecord(t, s.data), "decisionmodel"); l.Annotations["kind"] != "code_execution" {
				t.Errorf("kind = %q", l.Annotations["kind"])
			}

			// A failing model: silent, and an error record.
			m.set(nil, http.StatusServiceUnavailable)
			if got, _ := run(s.bashCall("make deploy-staging")); got != "silent" {
				t.Fatalf("failing model: %s", got)
			}
			if rec := lastRecord(t, s.data); rec.Level != "error" || !strings.Contains(strings.Join(rec.Errors, " "), "503") {
				t.Errorf("failure not logged: level %q errors %q", rec.Level, rec.Errors)
			}

			// A Write inside the project: the content never leaves.
			m.set(map[string]float64{}, http.StatusOK)
			write, _ := json.Marshal(map[string]any{"tool_name": "Write", "cwd": s.project,
				"tool_input": map[string]any{"file_path": s.project + "/notes.txt", "content": "SECRET-FILE-CONTENT-MARKER"}})
			if got, _ := run(write); got != "silent" {
				t.Fatalf("write: %s", got)
			}
			m.mu.Lock()
			for _, b := range m.bodies {
				if strings.Contains(b, "SECRET-FILE-CONTENT-MARKER") {
					t.Error("file content reached the model")
				}
			}
			m.mu.Unlock()
			logText := readLog(t, s.data)
			if strings.Contains(logText, key) {
				t.Error("the API key reached the decision log")
			}
		})
	}
}

func readLog(t testing.TB, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, decisionlog.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// BenchmarkHookWithModel measures whole hooks with the model on, against
// the local fake endpoint: a cache miss (a new command each time, one
// request each) and a cache hit (the same command, no request), in-process
// isolation.
func BenchmarkHookWithModel(b *testing.B) {
	s := newScratch(b)
	m := newFakeModel(b)
	m.set(map[string]float64{"data_loss": 0.1}, http.StatusOK)
	env := s.env("default", false,
		"ZCODE_FENCE_LAYER_ISOLATION=inprocess",
		"ZCODE_FENCE_ENABLE_DECISION_MODEL=true",
		"ZCODE_FENCE_DECISION_MODEL_ENDPOINT="+m.srv.URL+"/v1/chat/completions?tenant=zf",
		"ZCODE_FENCE_DECISION_MODEL_MODEL=test-model",
	)
	b.Run("miss", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			r, err := execHook(env, s.project, s.bashCall(fmt.Sprintf("make target-%d-%d", i, time.Now().UnixNano())))
			if err != nil || len(r.stdout) != 0 {
				b.Fatalf("%v %q", err, r.stdout)
			}
		}
	})
	b.Run("hit", func(b *testing.B) {
		for b.Loop() {
			r, err := execHook(env, s.project, s.bashCall("make target-cached"))
			if err != nil || len(r.stdout) != 0 {
				b.Fatalf("%v %q", err, r.stdout)
			}
		}
	})
}
