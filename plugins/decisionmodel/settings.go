package decisionmodel

import (
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/redact"
)

// settings are one call's options, parsed and validated.
type settings struct {
	endpoint   *url.URL
	rawURL     string // the endpoint exactly as configured (cache key only)
	model      string
	apiKey     string
	strictness int
	timeout    time.Duration
	headers    http.Header
	proxy      *url.URL // nil: environment proxies
	prompt     string   // redacted and cut; "" when not sent
	cache      bool
	language   string // "zh" or "en"
	notes      []string
}

// parseSettings reads call.Options. It fails with ErrUnconfigured,
// ErrEndpoint or ErrProxy; every other bad value falls back to its default
// with a note.
func parseSettings(call *core.Call) (*settings, error) {
	s := &settings{
		rawURL:     strings.TrimSpace(call.Option(KeyEndpoint, "")),
		model:      strings.TrimSpace(call.Option(KeyModel, "")),
		apiKey:     strings.TrimSpace(call.Option(KeyAPIKey, "")),
		strictness: parseStrictness(call.Option(KeyStrictness, defaultStrictness)),
		language:   "zh",
		cache:      true,
		headers:    http.Header{},
	}
	if s.rawURL == "" || s.model == "" {
		var missing []string
		if s.rawURL == "" {
			missing = append(missing, KeyEndpoint)
		}
		if s.model == "" {
			missing = append(missing, KeyModel)
		}
		return nil, fail(ErrUnconfigured, nil, "%s empty", strings.Join(missing, " and "))
	}
	u, err := checkEndpoint(s.rawURL)
	if err != nil {
		return nil, err
	}
	s.endpoint = u

	if p := strings.TrimSpace(call.Option(KeyProxy, "")); p != "" {
		pu, err := checkProxy(p)
		if err != nil {
			return nil, err
		}
		s.proxy = pu
	}

	var note string
	s.timeout, note = parseTimeout(call.Option(KeyTimeoutMS, ""))
	s.addNote(note)
	for _, n := range parseHeaders(call.Option(KeyHeaders, ""), s.headers) {
		s.addNote(n)
	}
	s.prompt = cleanPrompt(call.Option(KeyPrompt, ""))
	switch strings.ToLower(strings.TrimSpace(call.Option(KeyCache, defaultCache))) {
	case "false", "0":
		s.cache = false
	}
	if call.Language() == core.English {
		s.language = "en"
	}
	return s, nil
}

func (s *settings) addNote(n string) {
	if n != "" {
		s.notes = append(s.notes, n)
	}
}

// parseStrictness maps "0", "1", "2" to themselves and anything else to 1
// (the default).
func parseStrictness(v string) int {
	switch strings.TrimSpace(v) {
	case "0":
		return 0
	case "2":
		return 2
	default:
		return 1
	}
}

// parseTimeout parses decision_model_timeout_ms: a positive integer number of
// milliseconds, capped at MaxTimeout; anything else gives DefaultTimeout.
func parseTimeout(v string) (time.Duration, string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return DefaultTimeout, ""
	}
	ms, err := strconv.Atoi(v)
	if err != nil || ms <= 0 {
		return DefaultTimeout, KeyTimeoutMS + " not a positive integer; using " + defaultTimeoutMS
	}
	if d := time.Duration(ms) * time.Millisecond; d < MaxTimeout {
		return d, ""
	}
	return MaxTimeout, ""
}

// parseHeaders parses "Name: Value; Name: Value" into h and returns a note
// for every part it ignored. Names must be HTTP tokens; values must not hold
// control characters. Notes never quote a value (it may be a secret).
func parseHeaders(v string, h http.Header) []string {
	var notes []string
	for i, part := range strings.Split(v, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, ok := strings.Cut(part, ":")
		name = strings.TrimSpace(name)
		value = strings.TrimSpace(value)
		switch {
		case !ok:
			notes = append(notes, "decision_model_headers part "+strconv.Itoa(i+1)+" has no colon; ignored")
		case !isToken(name):
			notes = append(notes, "decision_model_headers part "+strconv.Itoa(i+1)+" has an invalid name; ignored")
		case strings.ContainsFunc(value, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }):
			notes = append(notes, "decision_model_headers "+name+" has control characters; ignored")
		default:
			h.Set(name, value)
		}
	}
	return notes
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// cleanPrompt redacts decision_model_prompt and cuts it to MaxPromptChars
// characters.
func cleanPrompt(p string) string {
	p = strings.TrimSpace(redact.String(p))
	return cutRunes(p, MaxPromptChars)
}

// cutRunes returns s cut to at most n characters (never inside one).
func cutRunes(s string, n int) string {
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// checkEndpoint accepts https URLs, and plain http only when the host is
// loopback or a private address. Hostnames are never resolved for this
// check: only "localhost" and IP literals count as local.
func checkEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, fail(ErrEndpoint, nil, "%s is not an absolute URL", KeyEndpoint)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u, nil
	case "http":
		if isLocalHost(u.Hostname()) {
			return u, nil
		}
		return nil, fail(ErrEndpoint, nil, "plain http to %s: https required except for loopback and private addresses", redact.String(u.Hostname()))
	default:
		return nil, fail(ErrEndpoint, nil, "scheme %q: https required", redact.String(u.Scheme))
	}
}

// isLocalHost reports whether host is loopback (localhost, 127/8, ::1),
// private (10/8, 172.16/12, 192.168/16, fc00::/7) or link-local.
func isLocalHost(host string) bool {
	if isLoopbackName(host) {
		return true
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast()
}

// isLoopbackName reports whether host is "localhost" or a loopback IP
// literal. Names under ".localhost" do not count: nothing guarantees the
// resolver maps them to loopback.
func isLoopbackName(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap().IsLoopback()
	}
	return false
}

// checkProxy accepts http, https, socks5 and socks5h proxy URLs.
func checkProxy(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fail(ErrProxy, nil, "%s is not an absolute URL", KeyProxy)
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "socks5", "socks5h":
		return u, nil
	default:
		return nil, fail(ErrProxy, nil, "scheme %q: use http, https, socks5 or socks5h", redact.String(u.Scheme))
	}
}
