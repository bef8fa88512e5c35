package agenthost

import "fmt"

// Rule ids of the asks the decoder itself raises (layer "host"). A call
// whose fields the guard cannot read unambiguously asks: the host and the
// guard might see different calls.
const (
	// RuleAmbiguousInput: a field the guard reads appears twice, or also
	// in another letter case (`command` and `COMMAND`).
	RuleAmbiguousInput = "HK-AMBIGUOUS-INPUT"
	// RuleBadInput: a field the guard reads has the wrong type (a shell
	// command that is not a string).
	RuleBadInput = "HK-BAD-INPUT"
)

// FindingLayer is the layer name findings are reported under.
const FindingLayer = "host"

const (
	whyTwice = "twice"
	whyCase  = "case"
)

// Finding is one problem with a field the guard reads.
type Finding struct {
	Rule string
	// Field is the key, with its path inside tool_input ("edits[0].file_path").
	Field string
	// Why is whyTwice, whyCase, or the wrong type's name.
	Why string
	// Other is the other spelling, for a top-level case clash.
	Other string
}

// Message is the finding's reason in lang ("zh" or "en").
func (f Finding) Message(lang string) string {
	field := f.Field
	if lang == "en" {
		switch {
		case f.Rule == RuleBadInput:
			return fmt.Sprintf("[zcode-fence: uninspectable input] the field %s is %s, not a string, so what this call would do cannot be inspected. Ask the user first; don't rewrite the call to evade this check.", field, f.Why)
		case f.Why == whyTwice:
			return fmt.Sprintf("[zcode-fence: ambiguous input] the field %s appears more than once, so which value the host uses is unclear. Ask the user first; don't rewrite the call to evade this check.", field)
		default:
			return fmt.Sprintf("[zcode-fence: ambiguous input] the field %s also appears in another letter case, so which value the host uses is unclear. Ask the user first; don't rewrite the call to evade this check.", field)
		}
	}
	switch {
	case f.Rule == RuleBadInput:
		return fmt.Sprintf("[zcode-fence: 输入无法检查] 字段 %s 是%s而不是字符串，无法检查此调用会做什么。请先征得用户同意；不要改写调用绕过检查。", field, zhType(f.Why))
	case f.Why == whyTwice:
		return fmt.Sprintf("[zcode-fence: 输入歧义] 字段 %s 出现了不止一次，无法确定宿主会使用哪个值。请先征得用户同意；不要改写调用绕过检查。", field)
	default:
		return fmt.Sprintf("[zcode-fence: 输入歧义] 字段 %s 还以另一种大小写出现，无法确定宿主会使用哪个值。请先征得用户同意；不要改写调用绕过检查。", field)
	}
}

func zhType(why string) string {
	switch why {
	case "an array":
		return "数组"
	case "an object":
		return "对象"
	default:
		return "数字或布尔值"
	}
}
