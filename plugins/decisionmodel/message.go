package decisionmodel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/redact"
)

// maxSubjectChars cuts the command or path quoted in an ask message.
const maxSubjectChars = 160

// askMessage is the complete reason shown to the agent and the user: the
// marker, the kind, the score against its threshold, the model's why, the
// command or path, and the instruction to ask rather than work around.
func askMessage(lang string, call *core.Call, d Dimension, s Score, threshold float64) string {
	why := s.Why
	if why == "" {
		why = "-"
	}
	score := fmt.Sprintf("%s %s ≥ %s", d, fmtScore(s.Score), fmtScore(threshold))
	subject := subjectOf(call)
	rule := ruleOf[d]
	if lang == "en" {
		return rules.Fill(rule.En, "score", score, "why", strings.TrimRight(why, "."), "subject", subject)
	}
	return rules.Fill(rule.Zh, "score", score, "why", strings.TrimRight(why, "。."), "subject", subject)
}

func fmtScore(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

// subjectOf names what the call acts on: the command, the target paths, or
// the tool. Redacted, on one line, cut.
func subjectOf(call *core.Call) string {
	var s string
	switch {
	case call.Kind == core.KindShell && call.Command != "":
		s = call.Command
	case call.Kind == core.KindFile && len(call.Paths) > 0:
		s = call.Tool + " " + call.Paths[0]
		if n := len(call.Paths) - 1; n > 0 {
			s += fmt.Sprintf(" (+%d)", n)
		}
	default:
		s = call.Tool
	}
	s = strings.Join(strings.Fields(redact.String(s)), " ")
	return cutMarkedShort(s, maxSubjectChars)
}
