package decisionmodel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/redact"
)

// maxSubjectChars cuts the command or path quoted in an ask message.
const maxSubjectChars = 160

var kindNamesZH = [4]string{
	DataLoss:            "数据损失",
	SystemChange:        "系统变更",
	ExternalSideEffects: "外部副作用",
	DataExfiltration:    "数据外带",
}

var kindNamesEN = [4]string{
	DataLoss:            "data loss",
	SystemChange:        "system change",
	ExternalSideEffects: "external side effects",
	DataExfiltration:    "data exfiltration",
}

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
	if lang == "en" {
		return fmt.Sprintf("[zcode-fence: decision model] The model rates this call as a %s risk (%s): %s. Call: %s. Explain this to the user and ask for confirmation; do not retry it unchanged or work around it.",
			kindNamesEN[d], score, strings.TrimRight(why, "."), subject)
	}
	return fmt.Sprintf("[zcode-fence: 决策模型] 模型判定此调用有%s风险（%s）：%s。调用：%s。请向用户说明并请求确认；不要原样重试，也不要绕过。",
		kindNamesZH[d], score, strings.TrimRight(why, "。."), subject)
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
