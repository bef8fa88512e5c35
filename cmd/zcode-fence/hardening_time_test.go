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

	"github.com/zcode-fence/zcode-fence/core/host"
)

// startSlack is what a hook run measured from outside may add to the
// in-process budget: starting and reaping the process on a loaded machine.
// Budget plus slack is the host's 5 s hook timeout. These are correctness
// bounds (the answer must come before the host gives up), not speed claims.
const startSlack = hookKill - host.Budget

// TestTimeBoundEveryPath: every kind of call, including inputs whose
// analysis is expensive, answers inside the global budget. The figures are
// logged; the bound is the budget plus startSlack.
func TestTimeBoundEveryPath(t *testing.T) {
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
	// A generous margin: process start, config, the deterministic layers,
	// the model layer's launch and the request itself on a loaded 2-core
	// machine. timeout+margin stays below the global budget, so an answer
	// inside it shows the model's own timeout governed, not the budget.
	const margin = 2500 * time.Millisecond
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
		name     string
		server   *stallingServer
		env      []string
		command  string
		want     string
		min, max time.Duration
		called   bool
	}
	var cases []stallCase
	add := func(name string, srv *stallingServer, scheme string, timeoutMs int, command, want string, min, max time.Duration, called bool, extra ...string) {
		cases = append(cases, stallCase{name, srv, model(srv.url(scheme), timeoutMs, extra...), command, want, min, max, called})
	}
	add("http loopback, 1000 ms", plain(), "http", 1000, "ls -la", "silent", timeout, timeout+margin, true)
	add("https, 1000 ms", newStallingServer(t, tlsSrv.TLS), "https", 1000, "git status", "silent", timeout, timeout+margin, true)
	add("http loopback, in-process layers", plain(), "http", 1000, "npm test", "silent", timeout, timeout+margin, true, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	add("https, in-process layers", newStallingServer(t, tlsSrv.TLS), "https", 1000, "go test ./...", "silent", timeout, timeout+margin, true, "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
	add("timeout past the cap (60000 ms)", plain(), "http", 60000, "make", "silent", 0, host.Budget+startSlack, true)
	add("deterministic ask skips the model", plain(), "http", 1000, "rm -rf /", "ask", 0, host.Budget+startSlack, false)
	results := make([]runResult, len(cases))
	errs := make([]error, len(cases))
	parallelDo(len(cases), func(i int) {
		results[i], errs[i] = execHook(cases[i].env, s.project, bashStdin(cases[i].command, s.project))
	})
	// A request still in flight when the hook gave up has long sent its
	// headers by now; give the server's reader a moment to count them.
	time.Sleep(50 * time.Millisecond)
	for i, c := range cases {
		r, err := results[i], errs[i]
		expectAnswer(t, c.name, r, err, c.want)
		if err != nil {
			continue
		}
		t.Logf("%s: %s after %v (model timeout %v)", c.name, c.want, r.took.Round(time.Millisecond), timeout)
		if r.took < c.min || r.took > c.max {
			t.Errorf("%s: answered after %v, want between %v and %v", c.name, r.took, c.min, c.max)
		}
		called := c.server.requests.Load() > 0
		switch {
		case called && !c.called:
			t.Errorf("%s: the model was asked; a deterministic ask must not wait for it", c.name)
		case !called && c.called && strings.Contains(strings.Join(c.env, " "), "ISOLATION=inprocess"):
			t.Errorf("%s: the model's request never arrived", c.name)
		case !called && c.called:
			// In process isolation the model layer's own launch counts
			// against its timeout; on a loaded machine it can use all of it.
			t.Logf("%s: the request never arrived (the layer's launch used the model timeout)", c.name)
		}
	}
	recs := logRecords(t, s.data)
	timeouts := 0
	for _, r := range recs {
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
