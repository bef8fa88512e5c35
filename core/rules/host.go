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
