package decisionmodel

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// checkFailure asserts a fail-open result: the zero verdict, an error
// wrapping want, and no API key in the message.
func checkFailure(t *testing.T, v core.Verdict, err error, want error, mention ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, verdict %+v; want %v", v, want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("error %q does not wrap %q", err, want)
	}
	if v.Decision != core.Silent || len(v.Reasons) != 0 {
		t.Errorf("failure verdict is not silent: %+v", v)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, want.Error()+": ") {
		t.Errorf("error does not start with its cause %q: %q", want, msg)
	}
	mustNotContain(t, "error", msg, testAPIKey)
	mustContain(t, "error", msg, mention...)
}

func TestUnconfigured(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	for name, opts := range map[string]map[string]string{
		"no endpoint": m.options(KeyEndpoint, ""),
		"no model":    m.options(KeyModel, "  "),
		"no options":  nil,
	} {
		t.Run(name, func(t *testing.T) {
			v, err := l.Decide(context.Background(), shellCall("rm -rf build", opts, ""))
			checkFailure(t, v, err, ErrUnconfigured, "not configured")
		})
	}
	if m.count() != 0 {
		t.Errorf("unconfigured layer sent %d requests", m.count())
	}
}

func TestEndpointScheme(t *testing.T) {
	cases := []struct {
		endpoint string
		ok       bool
	}{
		{"https://api.example.com/v1/chat/completions", true},
		{"HTTPS://api.example.com/v1", true},
		{"http://localhost:11434/v1/chat/completions", true},
		{"http://LOCALHOST./v1", true},
		{"http://api.localhost/v1", false},
		{"http://127.0.0.1:8000/v1", true},
		{"http://127.8.9.10/v1", true},
		{"http://[::1]:8080/v1", true},
		{"http://10.1.2.3/v1", true},
		{"http://172.16.0.1/v1", true},
		{"http://172.31.255.255/v1", true},
		{"http://192.168.1.20:1234/v1", true},
		{"http://[fd12:3456::1]/v1", true},
		{"http://169.254.1.1/v1", true},
		{"http://[fe80::1]/v1", true},
		{"http://[::ffff:192.168.0.1]/v1", true},
		{"http://api.example.com/v1", false},
		{"http://172.32.0.1/v1", false},
		{"http://8.8.8.8/v1", false},
		{"http://0.0.0.0/v1", false},
		{"http://localhost.example.com/v1", false},
		{"http://192.168.1.1.nip.io/v1", false},
		{"ftp://127.0.0.1/v1", false},
		{"ws://127.0.0.1/v1", false},
		{"api.example.com/v1", false},
		{"https:///v1", false},
		{"://", false},
	}
	for _, c := range cases {
		_, err := checkEndpoint(c.endpoint)
		if c.ok && err != nil {
			t.Errorf("%s refused: %v", c.endpoint, err)
		}
		if !c.ok && !errors.Is(err, ErrEndpoint) {
			t.Errorf("%s accepted (err %v)", c.endpoint, err)
		}
	}

	// Through the layer: a refused endpoint sends nothing.
	l := New()
	v, err := l.Decide(context.Background(), shellCall("ls", map[string]string{KeyEndpoint: "http://api.example.com/v1/chat/completions", KeyModel: "m", KeyAPIKey: testAPIKey}, ""))
	checkFailure(t, v, err, ErrEndpoint, "https required")
}

func TestBadProxy(t *testing.T) {
	m := newFakeModel(t)
	l := New(WithRootCAs(m.pool()))
	for _, p := range []string{"ftp://proxy:21", "proxy.example.com:3128", "socks4://127.0.0.1:1080"} {
		v, err := l.Decide(context.Background(), shellCall("ls", m.options(KeyProxy, p), ""))
		checkFailure(t, v, err, ErrProxy)
	}
	if m.count() != 0 {
		t.Errorf("a bad proxy still sent %d requests", m.count())
	}
}

// silentListener accepts TCP connections and never answers.
func silentListener(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { <-done; c.Close() }()
		}
	}()
	return ln.Addr().String()
}

func TestTimeoutNoHeaders(t *testing.T) {
	addr := silentListener(t)
	l := New()
	opts := map[string]string{KeyEndpoint: "http://" + addr + "/v1/chat/completions", KeyModel: "m", KeyAPIKey: testAPIKey, KeyTimeoutMS: "200"}
	v, err := l.Decide(context.Background(), shellCall("ls", opts, ""))
	checkFailure(t, v, err, ErrTimeout, "200 ms")
}

// TestTimeoutCallerDeadline: the caller's shorter deadline wins over
// decision_model_timeout_ms.
func TestTimeoutCallerDeadline(t *testing.T) {
	addr := silentListener(t)
	l := New()
	opts := map[string]string{KeyEndpoint: "http://" + addr + "/v1/chat/completions", KeyModel: "m", KeyTimeoutMS: "4000"}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	v, err := l.Decide(ctx, shellCall("ls", opts, ""))
	checkFailure(t, v, err, ErrTimeout)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cause is not the deadline: %v", err)
	}
}

// TestTimeoutTLSHandshake: a server that accepts TCP but never speaks TLS.
func TestTimeoutTLSHandshake(t *testing.T) {
	addr := silentListener(t)
	l := New()
	opts := map[string]string{KeyEndpoint: "https://" + addr + "/v1", KeyModel: "m", KeyTimeoutMS: "200"}
	v, err := l.Decide(context.Background(), shellCall("ls", opts, ""))
	checkFailure(t, v, err, ErrTimeout)
}

func TestSlowBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"id":"x","choices":[`))
		w.(http.Flusher).Flush()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
				w.Write([]byte(" "))
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	l := New()
	opts := map[string]string{KeyEndpoint: srv.URL + "/v1/chat/completions", KeyModel: "m", KeyAPIKey: testAPIKey, KeyTimeoutMS: "300"}
	v, err := l.Decide(context.Background(), shellCall("ls", opts, ""))
	checkFailure(t, v, err, ErrSlowBody, "headers arrived")
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	l := New()
	opts := map[string]string{KeyEndpoint: "http://" + addr + "/v1/chat/completions?key=" + testAPIKey, KeyModel: "m", KeyAPIKey: testAPIKey}
	v, err := l.Decide(context.Background(), shellCall("ls", opts, ""))
	checkFailure(t, v, err, ErrConnRefused, addr)
	mustNotContain(t, "error", err.Error(), "key=")
}

func TestTLSBadCertificate(t *testing.T) {
	m := newFakeModel(t)
	l := New() // the system pool does not trust the test server
	v, err := l.Decide(context.Background(), shellCall("ls", m.options(), ""))
	checkFailure(t, v, err, ErrTLS, "certificate")
	if m.count() != 0 {
		t.Errorf("request reached the server over an untrusted connection")
	}
}

func TestHTTPStatus(t *testing.T) {
	secret := "sk-" + strings.Repeat("L", 32)
	cases := []struct {
		status int
		body   string
	}{
		{http.StatusUnauthorized, `{"error":{"message":"bad key ` + secret + `","type":"invalid_request_error"}}`},
		{http.StatusTooManyRequests, `{"error":{"message":"rate limited","type":"requests"}}`},
		{http.StatusBadGateway, `<html><body>bad gateway ` + secret + `</body></html>`},
		{http.StatusServiceUnavailable, ``},
		{http.StatusTemporaryRedirect, ``},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.status), func(t *testing.T) {
			m := newFakeModel(t)
			var redirected atomic.Bool
			m.setHandler(func(w http.ResponseWriter, r *http.Request, _ []byte) {
				if r.URL.Path == "/elsewhere" {
					redirected.Store(true)
				}
				if c.status == http.StatusTemporaryRedirect {
					w.Header().Set("Location", "/elsewhere")
				}
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			})
			l := New(WithRootCAs(m.pool()))
			v, err := l.Decide(context.Background(), shellCall("ls", m.options(), ""))
			checkFailure(t, v, err, ErrHTTPStatus, fmt.Sprintf("HTTP %d", c.status))
			mustNotContain(t, "error", err.Error(), secret)
			var se *StatusError
			if !errors.As(err, &se) || se.StatusCode != c.status {
				t.Errorf("StatusError = %+v", se)
			}
			if redirected.Load() || m.count() != 1 {
				t.Errorf("redirect followed or more than one request (%d)", m.count())
			}
		})
	}
}

// TestHTTPStatusEchoedKey: a server that echoes the Authorization header
// back cannot leak the key through the error.
func TestHTTPStatusEchoedKey(t *testing.T) {
	m := newFakeModel(t)
	m.setHandler(func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "forbidden for %s and %s", r.Header.Get("Authorization"), r.Header.Get("X-Api-Key"))
	})
	l := New(WithRootCAs(m.pool()))
	v, err := l.Decide(context.Background(), shellCall("ls", m.options(KeyHeaders, "X-Api-Key: header-secret-value-991"), ""))
	checkFailure(t, v, err, ErrHTTPStatus, "HTTP 403", "forbidden for")
	mustNotContain(t, "error", err.Error(), "header-secret-value-991")
}

// TestBadReplies: a 2xx answer that is not a valid verdict fails with the
// right sentinel.
func TestBadReplies(t *testing.T) {
	cases := []struct {
		name string
		body string
		want error
	}{
		{"response not JSON", `<html>hello</html>`, ErrNotJSON},
		{"response empty", ``, ErrNotJSON},
		{"empty choices", `{"id":"x","choices":[]}`, ErrNoChoices},
		{"content prose", string(completionJSON("The command looks safe to me.")), ErrNotJSON},
		{"content prose around fence", string(completionJSON("Sure:\n```json\n" + scoresJSON(0, 0, 0, 0, 0) + "\n```")), ErrNotJSON},
		{"missing dimension", string(completionJSON(`{"data_loss":{"score":0.1,"why":"a"},"system_change":{"score":0.2,"why":"b"},"external_side_effects":{"score":0.3,"why":"c"},"code_execution":{"score":0.5,"why":"e"}}`)), ErrMissingDimension},
		{"score out of range", string(completionJSON(strings.Replace(scoresJSON(0.1, 0, 0, 0, 0), `"score":0.1`, `"score":7`, 1))), ErrScoreRange},
		{"score not a number", string(completionJSON(strings.Replace(scoresJSON(0.1, 0, 0, 0, 0), `"score":0.1`, `"score":"high"`, 1))), ErrBadDimension},
		{"oversized", string(completionJSON(scoresJSON(0, 0, 0, 0, 0) + strings.Repeat(" ", MaxResponseBytes))), ErrOversized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newFakeModel(t)
			m.setHandler(func(w http.ResponseWriter, _ *http.Request, _ []byte) {
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Content-Length", strconv.Itoa(len(c.body)))
				w.Write([]byte(c.body))
			})
			l := New(WithRootCAs(m.pool()))
			v, err := l.Decide(context.Background(), shellCall("ls", m.options(), ""))
			checkFailure(t, v, err, c.want)
		})
	}
}

// TestOversizedChunked: a body without Content-Length that grows past the
// cap is cut off while reading.
func TestOversizedChunked(t *testing.T) {
	m := newFakeModel(t)
	m.setHandler(func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"`))
		chunk := []byte(strings.Repeat("x", 4096))
		for range 40 {
			w.Write(chunk)
			w.(http.Flusher).Flush()
		}
		w.Write([]byte(`","choices":[]}`))
	})
	l := New(WithRootCAs(m.pool()))
	v, err := l.Decide(context.Background(), shellCall("ls", m.options(), ""))
	checkFailure(t, v, err, ErrOversized, "over 65536 bytes")
	if strings.Contains(err.Error(), "declares") {
		t.Errorf("chunked body was judged by a declared length: %v", err)
	}
}

func TestCanceled(t *testing.T) {
	addr := silentListener(t)
	l := New()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	opts := map[string]string{KeyEndpoint: "http://" + addr + "/v1", KeyModel: "m"}
	v, err := l.Decide(ctx, shellCall("ls", opts, ""))
	checkFailure(t, v, err, ErrCanceled)
}
