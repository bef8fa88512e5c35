package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// ManifestType is the userConfig "type" the hosts' settings UI shows for s:
// "boolean" for a Bool, "number" for an Enum whose choices are all whole
// numbers, else "string" (an Int too: the seed offers
// decision_model_timeout_ms as the string "3500").
func (s Spec) ManifestType() string {
	switch s.Kind {
	case Bool:
		return "boolean"
	case Enum:
		if _, _, ok := s.numberRange(); ok {
			return "number"
		}
	}
	return "string"
}

// numberRange returns the first and last choice of an Enum whose choices
// are all whole numbers.
func (s Spec) numberRange() (lo, hi int, ok bool) {
	if s.Kind != Enum || len(s.Choices) == 0 {
		return 0, 0, false
	}
	for i, ch := range s.Choices {
		n, err := strconv.Atoi(ch)
		if err != nil {
			return 0, 0, false
		}
		if i == 0 {
			lo = n
		}
		hi = n
	}
	return lo, hi, true
}

// UserConfig renders the schema as the plugin manifests' userConfig object
// (bundle/zcode-fence/.claude-plugin/plugin.json and .zcode-plugin/plugin.json
// carry the same one): every key in schema order, each with title,
// description, type and default, then sensitive and min/max where they
// apply. The result is compact JSON with HTML characters not escaped.
func (s *Schema) UserConfig() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, sp := range s.specs {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, sp.Key)
		b.WriteString(`:{"title":`)
		writeJSON(&b, sp.Title)
		b.WriteString(`,"description":`)
		writeJSON(&b, sp.Description)
		typ := sp.ManifestType()
		b.WriteString(`,"type":`)
		writeJSON(&b, typ)
		b.WriteString(`,"default":`)
		switch typ {
		case "boolean", "number":
			b.WriteString(sp.Default) // "true"/"false" or a whole number, checked by NewSchema
		default:
			writeJSON(&b, sp.Default)
		}
		if sp.Sensitive {
			b.WriteString(`,"sensitive":true`)
		}
		if lo, hi, ok := sp.numberRange(); ok {
			fmt.Fprintf(&b, `,"min":%d,"max":%d`, lo, hi)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes()
}

// writeJSON writes v as JSON without escaping <, > and &.
func writeJSON(b *bytes.Buffer, v string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)       // a string always encodes
	b.Truncate(b.Len() - 1) // Encode's newline
}
