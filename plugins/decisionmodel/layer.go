// Package decisionmodel is the optional decision-model layer: when every
// deterministic layer is silent, it asks an OpenAI-compatible chat model
// five questions about the call (data loss, system change, external side
// effects, data exfiltration, code execution) and asks the user when a risk
// score reaches its strictness threshold.
//
// What leaves the machine is the tool name, the command or target paths,
// the project root, cwd and writable roots, all redacted; never file
// contents, the raw tool input, the conversation or memory. Every failure
// is an error wrapping one of the Err* sentinels, which the host logs and
// treats as silent. Answers are cached on disk (see fileCache).
package decisionmodel

import (
	"context"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/zcode-fence/zcode-fence/core"
)

// LayerName is the layer's Name() and the Layer field of its reasons.
const LayerName = "decisionmodel"

// Layer implements core.Layer. It holds only injected dependencies, never
// per-call state, so one Layer serves concurrent calls.
type Layer struct {
	now      func() time.Time
	deps     transportDeps
	cacheDir string // "" : <DataDir>/model-cache
	cache    fileCache
}

// Option configures a Layer; the defaults suit production.
type Option func(*Layer)

// WithClock sets the clock used for cache ages and latency.
func WithClock(now func() time.Time) Option {
	return func(l *Layer) { l.now = now }
}

// WithRootCAs sets the certificate pool that verifies the endpoint (and an
// https proxy); nil means the system pool.
func WithRootCAs(pool *x509.CertPool) Option {
	return func(l *Layer) { l.deps.rootCAs = pool }
}

// WithDialContext replaces the TCP dialer (the proxy, when one is used, is
// dialed through it too).
func WithDialContext(dial DialFunc) Option {
	return func(l *Layer) { l.deps.dial = dial }
}

// WithGetenv replaces os.Getenv for the proxy environment (HTTP_PROXY,
// HTTPS_PROXY, NO_PROXY and lowercase forms).
func WithGetenv(getenv func(string) string) Option {
	return func(l *Layer) { l.deps.getenv = getenv }
}

// WithCacheDir stores the cache in dir instead of <DataDir>/model-cache.
func WithCacheDir(dir string) Option {
	return func(l *Layer) { l.cacheDir = dir }
}

// WithCacheLimits overrides the cache TTL and caps; a value ≤ 0 keeps the
// default.
func WithCacheLimits(ttl time.Duration, maxEntries int, maxBytes int64) Option {
	return func(l *Layer) {
		if ttl > 0 {
			l.cache.ttl = ttl
		}
		if maxEntries > 0 {
			l.cache.maxEntries = maxEntries
		}
		if maxBytes > 0 {
			l.cache.maxBytes = maxBytes
		}
	}
}

// New returns the layer with production defaults changed by opts.
func New(opts ...Option) *Layer {
	l := &Layer{
		now:   time.Now,
		deps:  transportDeps{getenv: os.Getenv},
		cache: fileCache{ttl: DefaultCacheTTL, maxEntries: DefaultCacheEntries, maxBytes: DefaultCacheBytes},
	}
	for _, o := range opts {
		o(l)
	}
	l.cache.now = l.now
	return l
}

// Name returns "decisionmodel".
func (l *Layer) Name() string { return LayerName }

// Decide asks the model about call and returns Ask when a risk dimension
// reaches its threshold, else Silent; both carry annotations (kind, the
// five scores and whys, cached, latency_ms). It makes at most one HTTP
// request, bounded by min(ctx deadline, decision_model_timeout_ms), and
// none on a cache hit. Any failure returns an error (see the Err*
// sentinels) and the zero verdict.
func (l *Layer) Decide(ctx context.Context, call *core.Call) (v core.Verdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = core.SilentVerdict, fail(ErrInternal, nil, "panic: %v", fmt.Sprint(r))
		}
	}()
	s, err := parseSettings(call)
	if err != nil {
		return core.SilentVerdict, err
	}
	req, temperatureZero := buildRequest(s, call)

	dir, key := "", ""
	if s.cache {
		dir = l.cacheDirFor(call)
	}
	if dir != "" {
		key = cacheKey(s, req, transportKey(s, l.deps))
		if a, ok := l.cache.get(dir, key); ok {
			return verdictFor(s, call, a, judge(a, s.strictness), true, 0), nil
		}
	}

	budget := budgetOf(ctx, s.timeout)
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	start := l.now()
	a, err := l.ask(ctx, s, req, temperatureZero, budget)
	latency := l.now().Sub(start).Milliseconds()
	if err != nil {
		return core.SilentVerdict, err
	}
	if dir != "" {
		if err := l.cache.put(dir, key, a); err != nil {
			s.addNote("cache write failed: " + err.Error())
		}
	}
	return verdictFor(s, call, a, judge(a, s.strictness), false, latency), nil
}

func (l *Layer) cacheDirFor(call *core.Call) string {
	if l.cacheDir != "" {
		return l.cacheDir
	}
	if call.DataDir == "" {
		return ""
	}
	return filepath.Join(call.DataDir, CacheDirName)
}

// ask sends the one request and validates the reply.
func (l *Layer) ask(ctx context.Context, s *settings, req openai.ChatCompletionRequest, temperatureZero bool, budget time.Duration) (Answer, error) {
	client, tr := newHTTPClient(s, l.deps)
	defer tr.CloseIdleConnections()
	sc := newScrubber(s)
	cfg := openai.DefaultConfig(s.apiKey)
	cfg.BaseURL = displayURL(s.endpoint) // unused: exactDoer sends to s.endpoint
	cfg.HTTPClient = &exactDoer{client: client, endpoint: s.endpoint, headers: s.headers, temperatureZero: temperatureZero, sc: sc}

	resp, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(ctx, req)
	if err != nil {
		return Answer{}, classify(err, s, sc, budget)
	}
	if len(resp.Choices) == 0 {
		return Answer{}, fail(ErrNoChoices, nil, "POST %s: empty choices", displayURL(s.endpoint))
	}
	a, err := parseReply(resp.Choices[0].Message.Content)
	if err != nil {
		if f, ok := err.(*failure); ok {
			f.msg = sc.clean(f.msg)
		}
		return Answer{}, err
	}
	return a, nil
}

// budgetOf is the time the request gets: timeout, or the time left before
// ctx's deadline when that is shorter (real clock: it is what net/http
// waits on). Taken before the timeout's own context is made, so a
// configured timeout is reported as configured, however loaded the
// machine.
func budgetOf(ctx context.Context, timeout time.Duration) time.Duration {
	if d, ok := ctx.Deadline(); ok {
		if left := time.Until(d).Round(time.Millisecond); left < timeout {
			return left
		}
	}
	return timeout
}
