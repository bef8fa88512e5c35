package host

import (
	"strconv"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// LateInput is the outcome of a hook call whose payload was still
// arriving when the hook's wait for it ended (agenthost.ReadPayload's
// *LateError): p holds what had arrived, received bytes of it, after
// waited from the hook's start. The host is slow, not broken,
// and runs the call once the hook exits: the call asks (HK-INPUT-LATE,
// DESIGN §3, revised 2026-12-05), unless what arrived already names a tool
// the guard does not judge, which stays silent as it would whole. No layer
// runs: the wait has used the time they would have had. lang is the
// language setting. Cost: formatting one reason.
func LateInput(p agenthost.Payload, received int64, waited time.Duration, lang string) Outcome {
	if p.ToolName != "" && !p.Judged && !judgedByAnyHost(p.ToolName) {
		return Outcome{Verdict: core.SilentVerdict}
	}
	l, _ := core.ParseLanguage(lang)
	msg := rules.Fill(rules.HostInputLate.Template(l),
		"bytes", strconv.FormatInt(received, 10), "wait", waited.Round(100*time.Millisecond).String())
	v := core.AskVerdict(core.Reason{Layer: "host", Rule: rules.HostInputLate.ID, Message: msg})
	return Outcome{Verdict: v, Text: FormatReasons(v, lang)}
}

// judgedByAnyHost reports whether some host's adapter judges a tool of
// this name.
func judgedByAnyHost(name string) bool {
	for _, a := range agenthost.Adapters() {
		if _, ok := a.Tool(name); ok {
			return true
		}
	}
	return false
}
