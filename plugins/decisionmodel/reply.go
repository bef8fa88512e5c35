package decisionmodel

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/redact"
)

// Dimension is one of the five questions, in reply order.
type Dimension int

const (
	DataLoss Dimension = iota
	SystemChange
	ExternalSideEffects
	DataExfiltration
	CodeExecution
	numDimensions
)

var dimensionNames = [numDimensions]string{
	"data_loss", "system_change", "external_side_effects", "data_exfiltration", "code_execution",
}

// String returns the dimension's JSON field name, e.g. "data_loss".
func (d Dimension) String() string {
	if d >= 0 && d < numDimensions {
		return dimensionNames[d]
	}
	return "unknown"
}

// Score is the model's answer to one question.
type Score struct {
	Score float64 `json:"score"`
	Why   string  `json:"why"`
}

// Answer is a validated reply: one Score per Dimension, indexed by it.
type Answer [numDimensions]Score

// maxWhyChars cuts each why kept from a reply (after redaction).
const maxWhyChars = 200

// parseReply validates the message content of a chat completion: exactly
// one JSON object, optionally inside one Markdown code fence (``` or
// ```json), holding all five dimensions, each {"score": number in [0,1],
// "why": string}. Unknown extra top-level fields are ignored. The whys are
// returned redacted, on one line, cut to maxWhyChars. Cost: one pass of
// encoding/json over the content.
func parseReply(content string) (Answer, error) {
	var a Answer
	body, err := unfence(content)
	if err != nil {
		return a, err
	}
	dec := json.NewDecoder(strings.NewReader(body))
	var fields map[string]json.RawMessage
	if err := dec.Decode(&fields); err != nil || fields == nil {
		return a, fail(ErrNotJSON, err, "content is not one JSON object: %q", snippet(content))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return a, fail(ErrNotJSON, nil, "content has data after the JSON object: %q", snippet(content))
	}
	for d := range numDimensions {
		raw, ok := fields[d.String()]
		if !ok {
			return a, fail(ErrMissingDimension, nil, "%s absent", d)
		}
		s, err := parseScore(d, raw)
		if err != nil {
			return a, err
		}
		a[d] = s
	}
	return a, nil
}

// parseScore validates one dimension object.
func parseScore(d Dimension, raw json.RawMessage) (Score, error) {
	var s Score
	var parts map[string]json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil || parts == nil {
		return s, fail(ErrBadDimension, nil, "%s is not an object", d)
	}
	score := bytes.TrimSpace(parts["score"])
	if len(score) == 0 || !(score[0] == '-' || score[0] >= '0' && score[0] <= '9') {
		return s, fail(ErrBadDimension, nil, "%s.score is not a number", d)
	}
	f, err := strconv.ParseFloat(string(score), 64)
	if err != nil {
		return s, fail(ErrBadDimension, nil, "%s.score is not a number", d)
	}
	if f < 0 || f > 1 {
		return s, fail(ErrScoreRange, nil, "%s.score %s not in [0, 1]", d, strconv.FormatFloat(f, 'g', 6, 64))
	}
	why := bytes.TrimSpace(parts["why"])
	if len(why) == 0 || why[0] != '"' || json.Unmarshal(why, &s.Why) != nil {
		return s, fail(ErrBadDimension, nil, "%s.why is not a string", d)
	}
	s.Score = f
	s.Why = cleanWhy(s.Why)
	return s, nil
}

// unfence returns content without surrounding whitespace and, when it is a
// Markdown code fence, without the fence. Text outside a fence is an error.
func unfence(content string) (string, error) {
	s := strings.TrimSpace(content)
	if !strings.HasPrefix(s, "```") {
		return s, nil
	}
	first, rest, ok := strings.Cut(s, "\n")
	tag := strings.TrimSpace(strings.TrimPrefix(first, "```"))
	if !ok || (tag != "" && !strings.EqualFold(tag, "json")) {
		return "", fail(ErrNotJSON, nil, "unexpected code fence %q", snippet(first))
	}
	rest = strings.TrimRight(rest, " \t\r\n")
	inner, ok := strings.CutSuffix(rest, "```")
	if !ok || strings.Contains(inner, "```") {
		return "", fail(ErrNotJSON, nil, "code fence not closed or followed by text: %q", snippet(content))
	}
	return inner, nil
}

// cleanWhy redacts a model explanation, folds it onto one line and cuts it.
func cleanWhy(why string) string {
	why = redact.String(why)
	why = strings.Join(strings.Fields(why), " ")
	return cutMarkedShort(why, maxWhyChars)
}

// cutMarkedShort cuts s to n characters, ending with "…" when cut.
func cutMarkedShort(s string, n int) string {
	if c := cutRunes(s, n); len(c) < len(s) {
		return c + "…"
	}
	return s
}

// snippet is a short, redacted, one-line excerpt for error messages.
func snippet(s string) string {
	return cutMarkedShort(strings.Join(strings.Fields(redact.String(s)), " "), 80)
}
