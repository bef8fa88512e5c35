package main

import (
	"crypto/tls"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/host"
)

// TestTimeBoundEveryPath: every kind of call, including inputs whose
// analysis is expensive, answers before the host's kill by the hook's own
// clock (runCases: each run's decision-log record). Wall figures are logged
// only.
func TestTimeBoundEveryPath(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	if err := s.addFenceFixtures(); err != nil {
		t.Fatal(err)
	}
	p := func(command string) []byte { return bashStdin(command, s.project) }
	// Cheap paths run in both isolation modes; the inputs whose analysis
	// is expensive run in-process (the analysis runs in the host before
	// any layer, so the mode does not change their cost).
	cheap := []hookCase{
		{"bash ask", p("rm -rf /"), "ask"},
		{"bash silent", p("git status && go test ./..."), "silent"},
		{"write-fence ask", p("echo x > /etc/zcode-fence-x"), "ask"},
		{"Write ask", hookPayload("Write", "/etc/zcode-fence-x", s.project, "", true), "ask"},
		{"Write silent", hookPayload("Write", filepath.Join(s.project, "src", "a.go"), s.project, "", true), "silent"},
		{"PowerShell ask", hookPayload("PowerShell", `Remove-Item -Recurse -Force C:\`, s.project, "", false), "ask"},
		{"ApplyPatch ask", []byte(`{"tool_name":"ApplyPatch","tool_input":{"patch":"*** Begin Patch\n*** Delete File: /etc/passwd\n*** End Patch"},"cwd":` + quoteJSON(s.project) + `}`), "ask"},
		{"unknown tool", []byte(`{"tool_name":"WebSearch","tool_input":{"query":"rm -rf /"}}`), "silent"},
		{"invalid JSON", []byte(`{"tool_name":`), "silent"},
		{"session call", hookPayload("Bash", "ls", s.project, "time-bound", false), "silent"},
	}
	expensive := []hookCase{
		{"1 MB one-word command (too long to analyse)", p("echo " + strings.Repeat("a", 1<<20)), "ask"},
		{"256 KB quoted heredoc into the project", p("cat > data.txt <<'EOF'\n" + strings.Repeat("x = 1  # data\n", 18000) + "EOF"), "silent"},
		{"100000 commands in a list", p(strings.Repeat("ls;", 100000) + "rm -rf /"), "ask"},
		{"a word of 40000 quoted parts", p("rm -rf /; echo " + strings.Repeat("'a'", 40000)), "ask"},
		{"a word of 300000 quoted parts", p("rm -rf /; echo " + strings.Repeat("'a'", 300000)), "ask"},
		{"a word of 40000 parameter parts", p("rm -rf /; echo " + strings.Repeat("a$x", 40000)), "ask"},
		{"bash -c depth 11", p(nestBashC("rm -rf /", 11)), "ask"},
		{"4000-line unquoted heredoc", p("cat > gen.sh <<EOF\n" + strings.Repeat("echo \"$a ${b} $(date)\"\n", 4000) + "EOF"), "silent"},
	}
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			cases := cheap
			if mode == "inprocess" {
				cases = append(append([]hookCase{}, cheap...), expensive...)
			}
			env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode)
			results := runCases(t, env, s.project, cases)
			var worst time.Duration
			for i, c := range cases {
				t.Logf("%-46s %8v", c.name, results[i].took.Round(time.Millisecond))
				worst = max(worst, results[i].took)
			}
			t.Logf("%s: slowest answer %v (budget %v, host kill %v)", mode, worst.Round(time.Millisecond), host.Budget, hookKill)
		})
	}
}

// stallingServer accepts connections and reads requests but never answers
// (the model that hangs). It counts requests whose headers arrived.
type stallingServer struct {
	ln       net.Listener
	requests atomic.Int32
	mu       sync.Mutex
	conns    []net.Conn
}

func newStallingServer(t *testing.T, tlsConfig *tls.Config) *stallingServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
	}
	s := &stallingServer{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			go func() {
				buf := make([]byte, 4096)
				var head []byte
				counted := false
				for {
					n, err := c.Read(buf)
					head = append(head, buf[:n]...)
					if !counted && strings.Contains(string(head), "\r\n\r\n") {
						counted = true
						s.requests.Add(1)
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *stallingServer) close() {
	s.ln.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
}

func (s *stallingServer) url(scheme string) string {
	return fmt.Sprintf("%s://%s/v1/chat/completions", scheme, s.ln.Addr())
}

// TestTimeBoundStalledModel: with the decision model on and an endpoint
// that accepts the request and never answers, a call the deterministic
// layers are silent on answers (silently: the model fails open) at the
// model's timeout plus a small margin — over plain http on loopback and
// over https with a certificate the hook trusts through SSL_CERT_FILE. A
// timeout set past the cap still answers inside the budget, and a call a
// deterministic layer asks on never waits for the model.
func TestTimeBoundStalledModel(t *testing.T) {
	t.Parallel() // it mostly waits (for timeouts) and takes little CPU
	const timeout = 1000 * time.Millisecond
	s := newScratch(t)

	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.StartTLS() // only for its certificate and TLS config
	tlsSrv.Close()
	certFile := filepath.Join(s.root, "model-ca.pem")
	pemCert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw})
	if err := os.WriteFile(certFile, pemCert, 0o600); err != nil {
		t.Fatal(err)
	}
	model := func(endpoint string, timeoutMs int, extra ...string) []string {
		return s.env("default", false, append([]string{
			"ZCODE_FENCE_ENABLE_DECISION_MODEL=true",
			"ZCODE_FENCE_DECISION_MODEL_ENDPOINT=" + endpoint,
			"ZCODE_FENCE_DECISION_MODEL_MODEL=stalled-test-model",
			"ZCODE_FENCE_DECISION_MODEL_API_KEY=sk-test-not-a-real-key",
			fmt.Sprintf("ZCODE_FENCE_DECISION_MODEL_TIMEOUT_MS=%d", timeoutMs),
			"ZCODE_FENCE_DECISION_MODEL_CACHE=false",
			"SSL_CERT_FILE=" + certFile,
		}, extra...)...)
	}
	// Each case has its own server, so the cases run at once and each
	// knows whether its own request arrived.
	plain := func() *stallingServer { return newStallingServer(t, nil) }
	type stallCase struct {
		name    string
		server  *stallingServer
		env     []string
		command string
		want    string
		min     time.Duration // the model's own timeout, which must govern (0: the budget governs)
		called  bool
	}
	var cases []stallCase
	add := func(name string, srv *stallingServer, scheme string, timeoutMs int, command, want string, min time.Duration, called bool, extra ...string) {
		cases = append(cases, stallCase{name, srv, model(srv.url(scheme), timeoutMs, extra...), command, want, min, called})
	}
	add("http loopback, 1000 ms", plain(), "http", 1000, "ls -la", "silent", timeout, true)
	add("https, 1000 ms", newStallingServer(t, tlsSrv.TLS), "https", 1000, "git status", "silent", timeout, true)
	add("http loopback, in-process layers", plain(), "http", 1000, "npm test", "silent", timeout, true, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	add("https, in-process layers", newStallingServer(t, tlsSrv.TLS), "https", 1000, "go test ./...", "silent", timeout, true, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	add("timeout past the cap (60000 ms)", plain(), "http", 60000, "make", "silent", 0, true)
	add("deterministic ask skips the model", plain(), "http", 1000, "rm -rf /", "ask", 0, false)
	results := make([]runResult, len(cases))
	errs := make([]error, len(cases))
	parallelDo(len(cases), func(i int) {
		results[i], errs[i] = execHook(cases[i].env, s.project, bashStdin(cases[i].command, s.project))
	})
	// A request still in flight when the hook gave up has long sent its
	// headers by now; give the server's reader a moment to count them.
	time.Sleep(50 * time.Millisecond)
	// Time is judged on the hook's own clock (its decision-log record),
	// never on this test's wall clock, which a loaded machine stretches.
	recs := recordsByPID(t, s.data)
	for i, c := range cases {
		r, err := results[i], errs[i]
		expectAnswer(t, c.name, r, err, c.want)
		if err != nil {
			continue
		}
		if !checkHookClock(t, c.name, r, recs) {
			t.Errorf("%s: no decision-log record for pid %d", c.name, r.pid)
			continue
		}
		rec := recs[r.pid]
		var model *decisionlog.LayerRecord
		for j := range rec.Layers {
			if rec.Layers[j].Name == "decisionmodel" {
				model = &rec.Layers[j]
			}
		}
		t.Logf("%s: %s, hook clock %.0f ms (wall %v), model layer %+v", c.name, c.want, rec.Ms, r.took.Round(time.Millisecond), model)
		switch {
		case !c.called:
			if model != nil && model.Verdict != "skipped" && model.Ms >= float64(timeout.Milliseconds()) {
				t.Errorf("%s: the model layer ran %.0f ms; a deterministic ask must not wait for it", c.name, model.Ms)
			}
		case model == nil || model.Verdict != "error":
			t.Errorf("%s: the record shows no decision-model error (layer %+v): the stalled model's deadline was not what ended the call", c.name, model)
		case c.min > 0 && rec.Ms < 0.95*float64(c.min.Milliseconds()):
			// The hook waited for the stalled model until its deadline, not
			// less (the layer's own Ms is 0 when the host cut it there).
			t.Errorf("%s: the hook answered after %.0f ms by its clock, before the model's %v timeout", c.name, rec.Ms, c.min)
		case c.min > 0 && model.Ms > 0 && model.Ms < 0.95*float64(c.min.Milliseconds()):
			t.Errorf("%s: the model layer gave up after %.0f ms, before its %v timeout", c.name, model.Ms, c.min)
		}
		called := c.server.requests.Load() > 0
		switch {
		case called && !c.called:
			t.Errorf("%s: the model was asked; a deterministic ask must not wait for it", c.name)
		case !called && c.called && strings.Contains(strings.Join(c.env, " "), "ISOLATION=inprocess") &&
			!(model != nil && strings.Contains(model.Error, "timed out: POST ")):
			t.Errorf("%s: the model's request never arrived (layer %+v)", c.name, model)
		case !called && c.called && strings.Contains(strings.Join(c.env, " "), "ISOLATION=inprocess"):
			// The record says the request was made and timed out: on a
			// loaded machine the connection (and TLS handshake) can use
			// the whole model timeout before the server reads a header.
			t.Logf("%s: the request was made but never reached the server in time (%s)", c.name, model.Error)
		case !called && c.called:
			// In process isolation the model layer's own launch counts
			// against its timeout; on a loaded machine it can use all of it.
			t.Logf("%s: the request never arrived (the layer's launch used the model timeout)", c.name)
		}
	}
	timeouts := 0
	for _, r := range logRecords(t, s.data) {
		for _, l := range r.Layers {
			if l.Name == "decisionmodel" && l.Verdict == "error" {
				timeouts++
			}
		}
		for _, line := range append(r.Errors, r.Notes...) {
			if strings.Contains(line, "sk-test-not-a-real-key") {
				t.Errorf("the API key reached the decision log: %q", line)
			}
		}
	}
	if timeouts < 5 {
		t.Errorf("%d decision-model error records, want 5 (one per stalled call)", timeouts)
	}
}
