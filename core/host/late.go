package host

import (
	"strconv"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
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

// Unfinished is the outcome of a judged call whose chain could not give
// its answer: the hook's budget ran out before it did (rules.CauseTimeout)
// or the hook itself failed outside the layers (rules.CauseFailed). Every
// fail-closed built-in that cfg switches on asks for what it could not
// inspect (its Incomplete reason, in the call's language), as it would had
// it run out of time itself (DESIGN §3); other kinds of call are silent.
// Cost: formatting a reason per built-in.
func (h *Host) Unfinished(kind core.ToolKind, cfg config.Config, cause rules.Cause) Outcome {
	if kind != core.KindShell && kind != core.KindFile {
		return Outcome{Verdict: core.SilentVerdict}
	}
	lang := cfg.Get(config.KeyLanguage)
	l, _ := core.ParseLanguage(lang)
	var reasons []core.Reason
	for i := range h.Builtins {
		b := &h.Builtins[i]
		if b.Incomplete == nil || b.Deferred || b.Switch.Key != "" && !cfg.Bool(b.Switch.Key) {
			continue
		}
		r := b.Incomplete(cause, l)
		if r.Layer == "" {
			r.Layer = b.Name
		}
		reasons = append(reasons, r)
	}
	if len(reasons) == 0 {
		return Outcome{Verdict: core.SilentVerdict}
	}
	v := core.AskVerdict(reasons...)
	return Outcome{Verdict: v, Text: FormatReasons(v, lang)}
}
