package rules

// The host's own rules (layer "host": core/host, not a layer of the
// chain): asks the host raises before or besides the layers. Templates may
// use {layer} (an external layer's name), {path} and {why}.

// Host is the host's family.
var Host = family(&Family{Layer: "host", Name: "host", Title: "Host",
	Doc: "Asks the host itself raises, whatever the layers say."})

// The Host family.
var (
	HostLayerIntegrity = def(&Rule{ID: "HK-LAYER-INTEGRITY", Family: Host,
		Doc: "A third-party layer pinned with #sha256= is missing, unreadable or does not match its pin (external_layers): it may have been swapped. Every guarded call asks until the file or the pin is fixed; a layer that passes runs from a private verified copy in the data dir.",
		Zh:  "[zcode-fence: 层完整性] 外部层 {layer}（{path}）未通过完整性检查：{why}。在修复该文件或 external_layers 中的 sha256 之前，每次受保护的调用都会请求确认；请让用户检查；不要绕过此检查。",
		En:  "[zcode-fence: layer integrity] layer {layer} failed its integrity check ({path}: {why}). Every guarded call asks until the file or its sha256 pin in external_layers is fixed; ask the user to check it; do not work around this check."})
)

// The rules the host seam raises itself (layer "host", core/agenthost)
// while it decodes a hook payload, before any layer runs: a field the guard
// reads that the agent host and the guard might read differently. Templates
// may use {field} (the key, with its path inside tool_input:
// "edits[0].file_path"), {how} (what is ambiguous about it), {type} (the
// JSON type found) and {want} (the type expected: a string for a field, an
// object for tool_input itself), each filled in the message's language.

// The host seam's one family.
var HostInput = family(&Family{Layer: "host", Name: "input", Title: "Hook input",
	Doc: "Raised while the payload is decoded, whatever the host. Keys are matched exactly; a field the guard does not read is never looked at, so these rules only concern the tool name, tool_input and the fields that hold the command or the target paths."})

const (
	hostAdvice   = "Ask the user first; don't rewrite the call to evade this check."
	hostAdviceZh = "请先征得用户同意；不要改写调用绕过检查。"
)

// The HostInput family.
var (
	HostAmbiguousInput = def(&Rule{ID: "HK-AMBIGUOUS-INPUT", Family: HostInput,
		Doc: "A field the guard reads appears twice in its object (`command` twice), or also in another letter case (`command` and `COMMAND`; the guard reads only the exact key): the host may act on a value the guard did not judge.",
		Zh:  "[zcode-fence: 输入歧义] 字段 {field} {how}，无法确定宿主会使用哪个值。" + hostAdviceZh,
		En:  "[zcode-fence: ambiguous input] the field {field} {how}, so which value the host uses is unclear. " + hostAdvice})
	HostBadInput = def(&Rule{ID: "HK-BAD-INPUT", Family: HostInput,
		Doc: "A field the guard reads has the wrong JSON type (a shell command or a target path that is an array, an object, a number or a boolean), or a shell or file tool's tool_input is not an object (a string, an array, a number; a bare string is read as patch text only by an apply_patch tool), so what the call would do cannot be inspected.",
		Zh:  "[zcode-fence: 输入无法检查] 字段 {field} 是{type}而不是{want}，无法检查此调用会做什么。" + hostAdviceZh,
		En:  "[zcode-fence: uninspectable input] the field {field} is {type}, not {want}, so what this call would do cannot be inspected. " + hostAdvice})
	HostInputLate = def(&Rule{ID: "HK-INPUT-LATE", Family: HostInput,
		Doc: "The payload was still arriving when the hook's wait for it ended (the host had not finished writing it, or the machine was too loaded to read it in time). The host is slow, not broken, and runs the call once the hook exits, so it cannot be left unjudged (DESIGN §3, 2026-12-05). A call whose first bytes already name a tool the guard does not judge stays silent, and so does input that ended empty.",
		Zh:  "[zcode-fence: 输入未能及时读取] 等待结束时宿主仍在发送此调用（{wait} 内收到 {bytes} 字节），无法检查它会做什么。" + hostAdviceZh,
		En:  "[zcode-fence: input not read in time] the host was still sending this call when the guard's wait for it ended ({bytes} bytes in {wait}), so what it would do cannot be inspected. " + hostAdvice})
)
