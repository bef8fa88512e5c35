package agenthost

import (
	"strings"
)

// NoAskFallback values (config key no_ask_fallback): what a host that
// cannot show a confirmation gets instead of an ask.
const (
	// FallbackDeny (the default) answers with the host's deny form and a
	// reason telling the agent to stop and ask the user in the conversation.
	FallbackDeny = "deny"
	// FallbackSilent answers nothing: the host runs the call. Never the
	// default: it turns every ask into a pass-through.
	FallbackSilent = "silent"
)

// DenyReason is the reason a host that cannot ask gets: the guard's own
// reason, preceded by what happened and what the agent must do, naming the
// rules that asked.
func DenyReason(a Ask) string {
	return stopReason(a, "This host cannot show the user a confirmation, so zcode-fence stopped this call",
		"此宿主无法向用户弹出确认，zcode-fence 因此阻止了此调用")
}

// UnsureReason is the reason an Unsure adapter's stop carries: the guard's
// reason, preceded by why the call was stopped rather than asked about.
func UnsureReason(a Ask) string {
	return stopReason(a, "zcode-fence could not tell which agent host sent this call, and some hosts run a call they are asked about, so it stopped this one",
		"zcode-fence 无法确定是哪个代理宿主发来此调用，而有的宿主会直接执行被要求确认的调用，因此阻止了它")
}

// stopReason is a stopped call's reason: why it was stopped (en or zh),
// the rules that asked, what the agent must do, and the guard's reason.
func stopReason(a Ask, why, whyZh string) string {
	if a.Lang == "en" {
		return "[zcode-fence] " + why + " (rule " + strings.Join(a.Rules, ", ") +
			"). Stop here and ask the user in the conversation whether they want it; do not retry it in another form. Reason: " + a.Reason
	}
	return "[zcode-fence] " + whyZh + "（规则 " + strings.Join(a.Rules, "、") +
		"）。请停下，在对话中询问用户是否要执行；不要换一种写法重试。原因：" + a.Reason
}

// stopLine is the answer every host reads as "do not run this call":
// Claude Code, Codex, Copilot CLI and Qwen Code read
// hookSpecificOutput.permissionDecision "deny" (Codex then ignores the
// legacy fields); Gemini CLI ignores hookSpecificOutput and reads the
// top-level decision, and "block" is the one legacy value Codex's output
// schema also accepts (an unknown value there would make the whole answer
// invalid, and the call would run). Field order is fixed.
type stopLine struct {
	Decision           string        `json:"decision"`
	Reason             string        `json:"reason"`
	HookSpecificOutput claudeAskBody `json:"hookSpecificOutput"`
}

// StopLine is stopLine's answer for reason, one compact line.
func StopLine(reason string) []byte {
	return encodeLine(stopLine{"block", reason, claudeAskBody{"PreToolUse", "deny", reason}})
}

// denies reports whether a host that cannot ask now should answer with its
// deny form (false: stay silent, as no_ask_fallback=silent asks).
func denies(a Ask) bool { return a.NoAskFallback != FallbackSilent }
