package decisionmodel

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error Decide returns wraps exactly one of them, so
// the host (and tests) can tell the causes apart with errors.Is. Every one of
// them means "could not decide": the host logs it and stays silent
// (fail-open). No error text ever contains the API key.
var (
	// ErrUnconfigured: decision_model_endpoint or decision_model_model is empty.
	ErrUnconfigured = errors.New("decision model not configured")
	// ErrEndpoint: the endpoint is not a usable URL, or it is plain http to a
	// host that is neither loopback nor a private address.
	ErrEndpoint = errors.New("bad decision model endpoint")
	// ErrProxy: decision_model_proxy is not an http, https, socks5 or
	// socks5h URL.
	ErrProxy = errors.New("bad decision model proxy")
	// ErrTimeout: no response headers before the deadline.
	ErrTimeout = errors.New("decision model timed out")
	// ErrSlowBody: headers arrived but the body did not complete before the
	// deadline.
	ErrSlowBody = errors.New("decision model response body too slow")
	// ErrCanceled: the caller's context was canceled.
	ErrCanceled = errors.New("decision model request canceled")
	// ErrConnRefused: the endpoint (or proxy) refused the connection.
	ErrConnRefused = errors.New("decision model connection refused")
	// ErrTLS: TLS handshake or certificate verification failed.
	ErrTLS = errors.New("decision model TLS failure")
	// ErrNetwork: any other transport failure (DNS, reset, proxy refusal).
	ErrNetwork = errors.New("decision model network error")
	// ErrHTTPStatus: the endpoint answered with a non-2xx status; see
	// *StatusError for the code.
	ErrHTTPStatus = errors.New("decision model HTTP error")
	// ErrOversized: the response body exceeded the size cap.
	ErrOversized = errors.New("decision model oversized response")
	// ErrNotJSON: the response or the reply content is not the expected
	// JSON (including prose outside a code fence).
	ErrNotJSON = errors.New("decision model reply is not JSON")
	// ErrNoChoices: the chat completion had no choices.
	ErrNoChoices = errors.New("decision model reply has no choices")
	// ErrMissingDimension: one of the five dimensions is absent.
	ErrMissingDimension = errors.New("decision model reply misses a dimension")
	// ErrBadDimension: a dimension is not {"score": number, "why": string}.
	ErrBadDimension = errors.New("decision model reply has a malformed dimension")
	// ErrScoreRange: a score is outside [0, 1].
	ErrScoreRange = errors.New("decision model score out of range")
	// ErrInternal: a bug in this layer (a recovered panic).
	ErrInternal = errors.New("decision model layer internal error")
)

// failure is the error Decide returns: a fixed sentinel, a message already
// scrubbed of secrets, and the underlying cause (kept for errors.Is/As, never
// printed, because causes such as *url.Error embed the raw endpoint URL).
type failure struct {
	kind  error
	msg   string
	cause error
}

// Error starts with the sentinel's text ("decision model timed out: ...");
// the host names the layer when it logs it.
func (f *failure) Error() string {
	return f.kind.Error() + ": " + f.msg
}

// Unwrap exposes the sentinel and the cause to errors.Is and errors.As.
func (f *failure) Unwrap() []error {
	if f.cause == nil {
		return []error{f.kind}
	}
	return []error{f.kind, f.cause}
}

func fail(kind error, cause error, format string, args ...any) error {
	return &failure{kind: kind, msg: fmt.Sprintf(format, args...), cause: cause}
}

// StatusError is the cause of an ErrHTTPStatus failure: the HTTP status code
// and the start of the response body, redacted.
type StatusError struct {
	StatusCode int
	Snippet    string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.StatusCode, e.Snippet)
}

// Is makes errors.Is(err, ErrHTTPStatus) true for a *StatusError.
func (e *StatusError) Is(target error) bool { return target == ErrHTTPStatus }
