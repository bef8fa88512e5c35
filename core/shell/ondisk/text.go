package ondisk

import "strings"

// Seg is a piece of text a task file expands to: known text, or a part
// whose value is not known until it runs (Unknown: Text is its source).
type Seg struct {
	Text    string
	Unknown bool
}

// Text is expanded text as segments.
type Text []Seg

// Known returns t as known text.
func Known(s string) Text {
	if s == "" {
		return nil
	}
	return Text{{Text: s}}
}

// String joins the segments.
func (t Text) String() string {
	var sb strings.Builder
	for _, s := range t {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// IsKnown reports text with no unknown part.
func (t Text) IsKnown() bool {
	for _, s := range t {
		if s.Unknown {
			return false
		}
	}
	return true
}

// Unknown parts travel inside expansion strings between these bytes (a
// task file with a control byte below 0x03 is binary and never parsed).
const (
	uStart = "\x01"
	uEnd   = "\x02"
)

// lMark starts a listing word inside an expansion string: the names a
// bounded listing prints ($(shell git ls-files ...), see
// MakeOptions.Listing), as a glob. A makefile holding the byte is not
// parsed, as one holding uStart or uEnd.
const lMark = "\x03"

// unknownMark wraps source text as an unknown part inside a string.
func unknownMark(src string) string {
	return uStart + strings.NewReplacer(uStart, "", uEnd, "", lMark, "").Replace(src) + uEnd
}

// toText splits a marked string into segments; a listing word comes out
// as its glob.
func toText(s string) Text {
	s = strings.ReplaceAll(s, lMark, "")
	var out Text
	for s != "" {
		i := strings.Index(s, uStart)
		if i < 0 {
			out = append(out, Seg{Text: s})
			break
		}
		if i > 0 {
			out = append(out, Seg{Text: s[:i]})
		}
		s = s[i+1:]
		j := strings.Index(s, uEnd)
		if j < 0 {
			j = len(s)
		}
		out = append(out, Seg{Text: s[:j], Unknown: true})
		s = s[min(j+1, len(s)):]
	}
	return out
}

// fromText marks a Text as a string.
func fromText(t Text) string {
	var sb strings.Builder
	for _, s := range t {
		if s.Unknown {
			sb.WriteString(unknownMark(s.Text))
		} else {
			sb.WriteString(strings.ReplaceAll(s.Text, lMark, ""))
		}
	}
	return sb.String()
}

// hasControl reports the bytes that mark unknown parts.
func hasControl(s string) bool { return strings.ContainsAny(s, uStart+uEnd) }
