package host

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// parseLayerOptions decodes layer_options: {"layer-name": {"key": value}}.
// Values may be strings, numbers or booleans; they reach the layer as
// strings. A bad document is noted and ignored.
func parseLayerOptions(doc string, notes *[]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	if doc == "" {
		return out
	}
	var raw map[string]map[string]any
	if err := json.Unmarshal([]byte(doc), &raw); err != nil {
		*notes = append(*notes, fmt.Sprintf("layer_options does not parse as {\"layer\": {\"key\": value}}: %v; ignored", err))
		return out
	}
	for name, kv := range raw {
		m := map[string]string{}
		for k, v := range kv {
			switch t := v.(type) {
			case string:
				m[k] = t
			case bool:
				m[k] = strconv.FormatBool(t)
			case float64:
				m[k] = strconv.FormatFloat(t, 'f', -1, 64)
			default:
				*notes = append(*notes, fmt.Sprintf("layer_options[%q][%q] is not a string, number or boolean; ignored", name, k))
			}
		}
		out[name] = m
	}
	return out
}
