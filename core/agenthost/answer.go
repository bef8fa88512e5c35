package agenthost

import (
	"bytes"
	"encoding/json"
)

// claudeAsk is Claude Code's PreToolUse answer; field order is part of the
// contract (DESIGN §4).
type claudeAsk struct {
	HookSpecificOutput claudeAskBody `json:"hookSpecificOutput"`
}

type claudeAskBody struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// AskLine is the Claude Code ask answer for reason: exactly
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"..."}}
// compact, HTML characters not escaped, and a newline. ZCode, Copilot CLI
// and Qwen Code take it as it is.
func AskLine(reason string) []byte {
	return claudeDecision("ask", reason)
}

// claudeDecision is the Claude-shaped answer with decision d.
func claudeDecision(d, reason string) []byte {
	return encodeLine(claudeAsk{claudeAskBody{"PreToolUse", d, reason}})
}

// encodeLine encodes v as one compact JSON line, HTML not escaped.
func encodeLine(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Every value encoded here is a struct of strings: it cannot fail.
	_ = enc.Encode(v)
	return buf.Bytes()
}
