package core

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Decision is what a layer concluded.
type Decision int

const (
	// Silent: nothing to say; the agent host decides as it always would.
	Silent Decision = iota
	// Ask: the host must show the user a confirmation before the call runs.
	Ask
)

// String returns "silent" or "ask".
func (d Decision) String() string {
	if d == Ask {
		return "ask"
	}
	return "silent"
}

// Reason explains one ask: which layer, which rule, and a message for the
// agent and the user. Message is complete on its own (it names the command
// or path and tells the agent to ask the user instead of working around it).
type Reason struct {
	Layer   string `json:"layer"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Verdict is a layer's answer. Annotations carry extra facts for the
// decision log (for example the model layer's kind and scores); they never
// change the decision. They are read-only once returned: a layer may give
// several verdicts the same map (core/steps shares one per step count), so
// whoever adds a key copies first.
type Verdict struct {
	Decision    Decision
	Reasons     []Reason
	Annotations map[string]string
}

// SilentVerdict is the zero verdict, spelled out for readability.
var SilentVerdict = Verdict{}

// AskVerdict builds an Ask verdict from reasons.
func AskVerdict(reasons ...Reason) Verdict {
	return Verdict{Decision: Ask, Reasons: reasons}
}

// MaxReasonUnits caps the merged reason, in UTF-16 code units (what the
// JavaScript side of an agent host counts), so the host never cuts the JSON.
const MaxReasonUnits = 800

// Merge combines the verdicts of several layers: any Ask wins; reasons keep
// their first-seen order and duplicates (same message) are dropped.
func Merge(verdicts ...Verdict) Verdict {
	var out Verdict
	seen := map[string]bool{}
	for _, v := range verdicts {
		if v.Decision != Ask {
			continue
		}
		out.Decision = Ask
		for _, r := range v.Reasons {
			if r.Message == "" || seen[r.Message] {
				continue
			}
			seen[r.Message] = true
			out.Reasons = append(out.Reasons, r)
		}
	}
	return out
}

// ReasonText joins the messages of v's reasons with sep and caps the result
// at MaxReasonUnits UTF-16 code units, appending "…" when cut.
func ReasonText(v Verdict, sep string) string {
	msgs := make([]string, 0, len(v.Reasons))
	for _, r := range v.Reasons {
		msgs = append(msgs, r.Message)
	}
	return CapUTF16(strings.Join(msgs, sep), MaxReasonUnits)
}

// CapUTF16 cuts s to at most max UTF-16 code units (never inside a
// character) and appends "…" when it had to cut.
func CapUTF16(s string, max int) string {
	units := 0
	for i, r := range s {
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1
		}
		if units+n > max {
			return s[:i] + "…"
		}
		units += n
	}
	return s
}

// CutMarked cuts s to at most max bytes (never inside a UTF-8 character)
// and, when it had to cut, appends a marker saying how many bytes went:
// "…[cut 1234 bytes]". For logs and notes, where a value's size is set by
// whoever wrote it and one long value must not crowd out the rest.
func CutMarked(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	i := max(0, limit)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…[cut " + strconv.Itoa(len(s)-i) + " bytes]"
}
