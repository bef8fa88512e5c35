package sdk

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
)

// LanguageOption is the option the host adds to every external layer's
// options: "zh" or "en", the language the user reads ask reasons in.
const LanguageOption = core.LanguageOption

// Language returns "zh" when the call's language option names Chinese (as
// core.Call.Language reads it: "zh", " ZH ", "zh-CN") and "en" otherwise,
// also when the option is absent, as in a test that sets none.
func Language(call *core.Call) string {
	if call.Language() == core.Chinese {
		return string(core.Chinese)
	}
	return string(core.English)
}

// Message returns an ask message in the call's language, with the marker
// every zcode-fence reason starts with: "[zcode-fence: LAYER] " followed
// by zh when Language(call) is "zh", else by en.
func Message(call *core.Call, layer, en, zh string) string {
	text := en
	if Language(call) == "zh" {
		text = zh
	}
	return "[zcode-fence: " + layer + "] " + text
}

// ListOption splits the option key on ";" into trimmed, non-empty items.
// When the option is absent or holds no item, it splits def instead.
func ListOption(call *core.Call, key, def string) []string {
	if call != nil {
		if items := splitList(call.Option(key, "")); len(items) > 0 {
			return items
		}
	}
	return splitList(def)
}

func splitList(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ";") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// BoolOption reads the option key as a boolean: true/false, 1/0, yes/no
// and on/off, in any case. ok is false when the option is present but none
// of these (the value is then def, and a layer may note the problem in an
// annotation); an absent option gives def and ok true. The host turns a
// JSON true/false in layer_options into "true"/"false".
func BoolOption(call *core.Call, key string, def bool) (value, ok bool) {
	if call == nil {
		return def, true
	}
	raw, present := call.Options[key]
	if !present {
		return def, true
	}
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "true", "1", "yes", "on":
		return true, true
	case "false", "0", "no", "off":
		return false, true
	}
	return def, false
}
