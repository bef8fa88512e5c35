package decisionmodel

import (
	"bufio"
	"context"
	"crypto/x509"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
)

// testAPIKey is deliberately not shaped like any redact pattern, so only the
// layer's own scrubbing can keep it out of errors and annotations.
const testAPIKey = "zf-test-key-3b9e1c77d0"

// endpointPath and endpointQuery are the exact parts the fake server must
// see: a custom prefix and a query that go-openai's BaseURL would corrupt.
const (
	endpointPath  = "/custom/prefix/v1/chat/completions"
	endpointQuery = "tenant=a&api-version=2024-10-21"
)

// recorded is one request as the fake model server saw it.
type recorded struct {
	Method   string
	Path     string
	RawQuery string
	Header   http.Header
	Body     []byte
}

// fakeModel is an OpenAI-compatible chat-completions server over real TLS.
// By default it answers every request with the content from reply.
type fakeModel struct {
	srv *httptest.Server

	mu       sync.Mutex
	requests []recorded
	content  string                                                    // the assistant message content to return
	handler  func(w http.ResponseWriter, r *http.Request, body []byte) // overrides the default answer when set
}

func newFakeModel(t *testing.T) *fakeModel {
	t.Helper()
	m := &fakeModel{content: scoresJSON(0.1, 0.1, 0.1, 0.1, 0.1)}
	m.srv = httptest.NewUnstartedServer(http.HandlerFunc(m.serve))
	m.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // TLS failure tests make it complain
	m.srv.StartTLS()
	t.Cleanup(m.srv.Close)
	return m
}

func (m *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m.mu.Lock()
	m.requests = append(m.requests, recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
	handler, content := m.handler, m.content
	m.mu.Unlock()
	if handler != nil {
		handler(w, r, body)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(completionJSON(content))
}

func (m *fakeModel) setContent(content string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.content = content
}

func (m *fakeModel) setHandler(h func(w http.ResponseWriter, r *http.Request, body []byte)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.handler = h
}

func (m *fakeModel) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.requests)
}

func (m *fakeModel) last(t *testing.T) recorded {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.requests) == 0 {
		t.Fatal("fake model received no request")
	}
	return m.requests[len(m.requests)-1]
}

// endpoint is the full configured URL with the custom path and query.
func (m *fakeModel) endpoint() string {
	return m.srv.URL + endpointPath + "?" + endpointQuery
}

// pool is the certificate pool that trusts the fake server.
func (m *fakeModel) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(m.srv.Certificate())
	return p
}

// completionJSON is a chat completion with one choice holding content.
func completionJSON(content string) []byte {
	resp := map[string]any{
		"id":      "chatcmpl-test",
		"object":  "chat.completion",
		"created": 1,
		"model":   "test-model",
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": content},
			"finish_reason": "stop",
		}},
	}
	b, _ := json.Marshal(resp)
	return b
}

// scoresJSON is a valid reply with the five scores in dimension order.
func scoresJSON(dataLoss, systemChange, external, exfiltration, codeExec float64) string {
	return answerString([5]float64{dataLoss, systemChange, external, exfiltration, codeExec})
}

func answerString(scores [5]float64) string {
	var a Answer
	for d := range numDimensions {
		a[d] = Score{Score: scores[d], Why: "because of " + d.String()}
	}
	return string(answerJSON(a))
}

// options returns complete layer options for the fake model; extra pairs
// ("key", "value", ...) override them.
func (m *fakeModel) options(extra ...string) map[string]string {
	o := map[string]string{
		KeyEndpoint:         m.endpoint(),
		KeyModel:            "test-model",
		KeyAPIKey:           testAPIKey,
		KeyStrictness:       "1",
		KeyTimeoutMS:        "3000",
		KeyCache:            "false",
		core.LanguageOption: "en",
	}
	for i := 0; i+1 < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	return o
}

// shellCall is a Bash call with the usual context.
func shellCall(command string, options map[string]string, dataDir string) *core.Call {
	return &core.Call{
		Tool:          "Bash",
		Kind:          core.KindShell,
		Input:         json.RawMessage(`{"command":` + strconv.Quote(command) + `}`),
		Command:       command,
		ProjectRoot:   "/work/project",
		Cwd:           "/work/project/sub",
		WritableRoots: []string{"/work/project", "/tmp"},
		Platform:      "linux",
		Options:       options,
		DataDir:       dataDir,
	}
}

// sentBody decodes a recorded chat-completions request body.
type sentBody struct {
	Model               string           `json:"model"`
	Temperature         *float64         `json:"temperature"`
	MaxTokens           int              `json:"max_tokens"`
	MaxCompletionTokens int              `json:"max_completion_tokens"`
	Stream              bool             `json:"stream"`
	ResponseFormat      *json.RawMessage `json:"response_format"`
	Messages            []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func decodeSent(t *testing.T, r recorded) sentBody {
	t.Helper()
	var b sentBody
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return b
}

// dialMapping dials addr, except that names in hosts are sent to their
// mapped address (a stand-in for DNS, so that tests never leave the machine).
func dialMapping(hosts map[string]string) DialFunc {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if to, ok := hosts[addr]; ok {
			addr = to
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
}

// tunnelLog records the targets a test proxy was asked for.
type tunnelLog struct {
	mu      sync.Mutex
	targets []string
}

func (l *tunnelLog) add(target string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.targets = append(l.targets, target)
}

func (l *tunnelLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.targets...)
}

// startSOCKS5 runs a minimal SOCKS5 server (RFC 1928, no authentication,
// CONNECT only) that records each requested target and connects every one
// of them to backend.
func startSOCKS5(t *testing.T, backend string) (addr string, log *tunnelLog) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	log = &tunnelLog{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSOCKS5(c, backend, log)
		}
	}()
	return ln.Addr().String(), log
}

func serveSOCKS5(c net.Conn, backend string, log *tunnelLog) {
	defer c.Close()
	r := bufio.NewReader(c)
	// Greeting: VER, NMETHODS, METHODS.
	head := make([]byte, 2)
	if _, err := io.ReadFull(r, head); err != nil || head[0] != 5 {
		return
	}
	if _, err := io.ReadFull(r, make([]byte, head[1])); err != nil {
		return
	}
	c.Write([]byte{5, 0}) // no authentication
	// Request: VER, CMD, RSV, ATYP, DST.ADDR, DST.PORT.
	req := make([]byte, 4)
	if _, err := io.ReadFull(r, req); err != nil || req[1] != 1 {
		return
	}
	var host string
	switch req[3] {
	case 1:
		b := make([]byte, 4)
		io.ReadFull(r, b)
		host = net.IP(b).String()
	case 3:
		n, _ := r.ReadByte()
		b := make([]byte, n)
		io.ReadFull(r, b)
		host = string(b)
	case 4:
		b := make([]byte, 16)
		io.ReadFull(r, b)
		host = net.IP(b).String()
	default:
		return
	}
	portBytes := make([]byte, 2)
	if _, err := io.ReadFull(r, portBytes); err != nil {
		return
	}
	log.add(net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(portBytes)))))
	up, err := net.Dial("tcp", backend)
	if err != nil {
		c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	defer up.Close()
	c.Write([]byte{5, 0, 0, 1, 127, 0, 0, 1, 0, 0})
	pipe(c, r, up)
}

// startConnectProxy runs an HTTP proxy that only supports CONNECT, records
// each target and tunnels every one of them to backend.
func startConnectProxy(t *testing.T, backend string) (addr string, log *tunnelLog) {
	t.Helper()
	log = &tunnelLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		log.add(r.Host)
		up, err := net.Dial("tcp", backend)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		c, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			up.Close()
			return
		}
		defer c.Close()
		defer up.Close()
		fmt.Fprint(c, "HTTP/1.1 200 Connection established\r\n\r\n")
		pipe(c, rw.Reader, up)
	}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String(), log
}

// startCountingListener accepts and immediately closes connections,
// counting them: a proxy that must never be used.
func startCountingListener(t *testing.T) (addr string, count func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	n := 0
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			n++
			mu.Unlock()
			c.Close()
		}
	}()
	return ln.Addr().String(), func() int { mu.Lock(); defer mu.Unlock(); return n }
}

// pipe copies both ways until either side closes.
func pipe(client net.Conn, clientReader io.Reader, upstream net.Conn) {
	done := make(chan struct{}, 2)
	go func() { io.Copy(upstream, clientReader); done <- struct{}{} }()
	go func() { io.Copy(client, upstream); done <- struct{}{} }()
	<-done
}

// mustContain fails unless s contains every part.
func mustContain(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s does not contain %q:\n%s", what, p, s)
		}
	}
}

// mustNotContain fails if s contains any part.
func mustNotContain(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(s, p) {
			t.Errorf("%s contains %q:\n%s", what, p, s)
		}
	}
}
