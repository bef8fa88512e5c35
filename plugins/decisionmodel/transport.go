package decisionmodel

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"syscall"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"golang.org/x/net/http/httpproxy"

	"github.com/zcode-fence/zcode-fence/redact"
)

const (
	// MaxResponseBytes caps the response body; a bigger body fails with
	// ErrOversized.
	MaxResponseBytes = 64 << 10
	// statusSnippetBytes is how much of an error response body is kept.
	statusSnippetBytes = 512
	// clientTimeoutSlack lets the context deadline fire before the
	// http.Client backstop, so the error says which phase was slow.
	clientTimeoutSlack = 250 * time.Millisecond
)

// DialFunc dials a network connection (net.Dialer.DialContext's shape).
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// transportDeps are the injectable parts of the HTTP stack.
type transportDeps struct {
	rootCAs *x509.CertPool          // nil: the system pool
	dial    DialFunc                // nil: a net.Dialer
	getenv  func(key string) string // proxy environment
}

// newHTTPClient builds a client for one call: its own transport (timeouts
// from s, proxy from s or the environment), no redirects (one POST to the
// exact endpoint, a 3xx is an HTTP error). The caller closes idle
// connections when done.
func newHTTPClient(s *settings, deps transportDeps) (*http.Client, *http.Transport) {
	dial := deps.dial
	if dial == nil {
		dial = (&net.Dialer{Timeout: s.timeout}).DialContext
	}
	tr := &http.Transport{
		Proxy:                  proxyFunc(s.proxy, deps.getenv),
		DialContext:            dial,
		TLSClientConfig:        &tls.Config{RootCAs: deps.rootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    s.timeout,
		ResponseHeaderTimeout:  s.timeout,
		MaxResponseHeaderBytes: MaxResponseBytes,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           1,
		IdleConnTimeout:        time.Second,
	}
	client := &http.Client{
		Transport:     tr,
		Timeout:       s.timeout + clientTimeoutSlack,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return client, tr
}

// proxyFunc returns the Transport.Proxy for one call. An explicit proxy is
// used for every destination except loopback. Without one, the environment
// (HTTP_PROXY, HTTPS_PROXY, NO_PROXY and their lowercase forms) decides with
// net/http's rules, which also never proxy loopback; the environment is read
// on every call, not cached per process.
func proxyFunc(explicit *url.URL, getenv func(string) string) func(*http.Request) (*url.URL, error) {
	if explicit != nil {
		return func(req *http.Request) (*url.URL, error) {
			if isLoopbackName(req.URL.Hostname()) {
				return nil, nil
			}
			return explicit, nil
		}
	}
	env := func(upper, lower string) string {
		if v := getenv(upper); v != "" {
			return v
		}
		return getenv(lower)
	}
	cfg := httpproxy.Config{
		HTTPProxy:  env("HTTP_PROXY", "http_proxy"),
		HTTPSProxy: env("HTTPS_PROXY", "https_proxy"),
		NoProxy:    env("NO_PROXY", "no_proxy"),
		CGI:        getenv("REQUEST_METHOD") != "",
	}
	f := cfg.ProxyFunc()
	return func(req *http.Request) (*url.URL, error) { return f(req.URL) }
}

// exactDoer is the go-openai HTTPDoer. go-openai composes BaseURL +
// "/chat/completions" and would corrupt a query string; the doer instead
// sends to the configured endpoint exactly (path and query as given). It
// also adds the configured headers, writes the explicit "temperature":0
// go-openai omits, caps the response body and turns a non-2xx status into a
// *StatusError.
type exactDoer struct {
	client          *http.Client
	endpoint        *url.URL
	headers         http.Header
	temperatureZero bool
	sc              *scrubber
}

func (d *exactDoer) Do(req *http.Request) (*http.Response, error) {
	u := *d.endpoint
	req.URL = &u
	req.Host = ""
	for name, values := range d.headers {
		req.Header[name] = values
	}
	if d.temperatureZero && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = withTemperatureZero(body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > MaxResponseBytes {
		resp.Body.Close()
		return nil, fail(ErrOversized, nil, "response declares %d bytes, cap %d", resp.ContentLength, MaxResponseBytes)
	}
	body := &cappedBody{r: resp.Body, ctx: req.Context()}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		head, _ := io.ReadAll(io.LimitReader(body, statusSnippetBytes))
		resp.Body.Close()
		return nil, &StatusError{StatusCode: resp.StatusCode, Snippet: d.sc.clean(snippet(string(head)))}
	}
	resp.Body = body
	return resp, nil
}

// withTemperatureZero inserts "temperature":0 as the first field of the
// JSON object body (go-openai omits it because its field is omitempty).
// A body that is not a non-empty JSON object is returned unchanged.
func withTemperatureZero(body []byte) []byte {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) < 2 || trimmed[0] != '{' || bytes.HasPrefix(bytes.TrimSpace(trimmed[1:]), []byte("}")) {
		return body
	}
	out := make([]byte, 0, len(trimmed)+16)
	out = append(out, `{"temperature":0,`...)
	out = append(out, trimmed[1:]...)
	if !json.Valid(out) {
		return body
	}
	return out
}

// cappedBody fails a response body past MaxResponseBytes with ErrOversized
// and a body read cut by the deadline with ErrSlowBody.
type cappedBody struct {
	r   io.ReadCloser
	ctx context.Context
	n   int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > MaxResponseBytes {
		return 0, fail(ErrOversized, nil, "response body over %d bytes", MaxResponseBytes)
	}
	if err != nil && err != io.EOF {
		var ne net.Error
		if b.ctx.Err() == context.DeadlineExceeded || errors.As(err, &ne) && ne.Timeout() {
			return n, fail(ErrSlowBody, err, "headers arrived but the body did not complete in time (%d bytes read)", b.n)
		}
		if b.ctx.Err() == context.Canceled {
			return n, fail(ErrCanceled, err, "canceled while reading the body")
		}
		return n, fail(ErrNetwork, err, "reading the response body failed")
	}
	return n, err
}

func (b *cappedBody) Close() error { return b.r.Close() }

// classify turns an error from the go-openai call into a failure with a
// scrubbed message. Failures built by the doer pass through unchanged.
// budget is the time the request had (min of ctx deadline and timeout).
func classify(err error, s *settings, sc *scrubber, budget time.Duration) error {
	var f *failure
	if errors.As(err, &f) {
		return f
	}
	target := displayURL(s.endpoint)
	var se *StatusError
	if errors.As(err, &se) {
		return fail(ErrHTTPStatus, se, "POST %s: HTTP %d: %s", target, se.StatusCode, se.Snippet)
	}
	// *url.Error repeats the method and the full URL (query included);
	// the message names the endpoint itself, so keep only the inner error.
	inner := err
	var ue *url.Error
	if errors.As(err, &ue) {
		inner = ue.Err
	}
	detail := sc.clean(inner.Error())
	var ne net.Error
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.Is(err, openai.ErrChatCompletionInvalidModel):
		return fail(ErrUnconfigured, err, "model %q cannot be used for chat completions", redact.String(s.model))
	case errors.Is(err, context.DeadlineExceeded):
		return fail(ErrTimeout, err, "POST %s: no response within %d ms", target, budget.Milliseconds())
	case errors.Is(err, context.Canceled):
		return fail(ErrCanceled, err, "POST %s: %s", target, detail)
	case isTLSError(err):
		return fail(ErrTLS, err, "POST %s: %s", target, detail)
	case isRefused(err):
		return fail(ErrConnRefused, err, "POST %s: %s", target, detail)
	case errors.As(err, &ne) && ne.Timeout():
		return fail(ErrTimeout, err, "POST %s: %s", target, detail)
	case errors.As(err, &syntax), errors.As(err, &typeErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fail(ErrNotJSON, err, "POST %s: response is not a chat completion: %s", target, detail)
	default:
		return fail(ErrNetwork, err, "POST %s: %s", target, detail)
	}
}

func isTLSError(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	var alert tls.AlertError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) ||
		errors.As(err, &invalid) || errors.As(err, &record) || errors.As(err, &alert)
}

// wsaECONNREFUSED is Windows' "connection actively refused" error number.
const wsaECONNREFUSED = 10061

func isRefused(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) {
		return true
	}
	var errno syscall.Errno
	return runtime.GOOS == "windows" && errors.As(err, &errno) && errno == wsaECONNREFUSED
}

// displayURL is the endpoint as it may appear in a message: scheme, host
// and path; never userinfo or query (either may carry a key).
func displayURL(u *url.URL) string {
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}

// scrubber removes a call's known secrets from text: the API key, header
// values, the endpoint's userinfo and query, the proxy's userinfo; then the
// general redact patterns.
type scrubber struct {
	replacer *strings.Replacer
}

func newScrubber(s *settings) *scrubber {
	var pairs []string
	add := func(secret, marker string) {
		if len(secret) >= 3 {
			pairs = append(pairs, secret, marker)
		}
	}
	// The full endpoint first, so a query string inside it disappears with it.
	if s.endpoint != nil {
		add(s.endpoint.String(), displayURL(s.endpoint))
		add(s.rawURL, displayURL(s.endpoint))
		add(s.endpoint.RawQuery, "[REDACTED:query]")
		if p, ok := s.endpoint.User.Password(); ok {
			add(p, "[REDACTED:password]")
		}
	}
	add(s.apiKey, "[REDACTED:api-key]")
	for _, values := range s.headers {
		for _, v := range values {
			add(v, "[REDACTED:header]")
		}
	}
	if s.proxy != nil {
		if p, ok := s.proxy.User.Password(); ok {
			add(p, "[REDACTED:password]")
		}
		add(s.proxy.User.String(), "[REDACTED:userinfo]")
	}
	return &scrubber{replacer: strings.NewReplacer(pairs...)}
}

func (sc *scrubber) clean(text string) string {
	return redact.String(sc.replacer.Replace(text))
}
