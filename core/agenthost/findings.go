package agenthost

import (
	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// The asks the decoder itself raises (layer "host") are the rules of
// rules.HostInput: a call whose fields the guard cannot read unambiguously
// asks, because the host and the guard might see different calls.

// FindingLayer is the layer name findings are reported under: their rule
// family's.
var FindingLayer = rules.HostInput.Layer

const (
	whyTwice = "twice"
	whyCase  = "case"
)

// Finding is one problem with a field the guard reads.
type Finding struct {
	// Rule is rules.HostAmbiguousInput or rules.HostBadInput.
	Rule *rules.Rule
	// Field is the key, with its path inside tool_input ("edits[0].file_path").
	Field string
	// Why is whyTwice, whyCase, or the wrong type's name (typeName).
	Why string
	// Other is the other spelling, for a top-level case clash.
	Other string
	// Object: the field should have been an object (tool_input itself),
	// not a string (HostBadInput).
	Object bool
}

// Message is the finding's reason in lang: the rule's template filled.
func (f Finding) Message(lang core.Language) string {
	en := lang == core.English
	switch f.Rule {
	case rules.HostBadInput:
		t, want := f.Why, "a string"
		if f.Object {
			want = "an object"
		}
		if !en {
			t, want = zhType(f.Why), zhType(want)
		}
		return rules.Fill(f.Rule.Template(lang), "field", f.Field, "type", t, "want", want)
	default:
		how := "also appears in another letter case"
		switch {
		case f.Why == whyTwice && en:
			how = "appears more than once"
		case f.Why == whyTwice:
			how = "出现了不止一次"
		case !en:
			how = "还以另一种大小写出现"
		}
		return rules.Fill(f.Rule.Template(lang), "field", f.Field, "how", how)
	}
}

func zhType(why string) string {
	switch why {
	case "an array":
		return "数组"
	case "an object":
		return "对象"
	case "a string":
		return "字符串"
	default:
		return "数字或布尔值"
	}
}
