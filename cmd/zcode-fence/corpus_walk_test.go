package main

import (
	"sort"
	"strings"
)

// corpusCall is one call found in a corpus file.
type corpusCall struct {
	tool, text string // text: the command, or the path of a file tool
	file       bool
}

// renderCorpus fills the placeholders the corpora use.
func (s *scratch) renderCorpus(v string) string {
	return fillPlaceholders(s.render(v), map[string]string{"ROOT": s.root, "HOME": s.home, "PROJECT": s.project})
}

// walkJSON collects calls from any JSON shape.
func walkJSON(v any, out *[]corpusCall) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			walkJSON(e, out)
		}
	case map[string]any:
		tool, _ := x["tool"].(string)
		if d, _ := x["dialect"].(string); strings.EqualFold(d, "powershell") && tool == "" {
			tool = "PowerShell"
		}
		file := isFileToolName(tool)
		shellTool := tool
		if file || shellTool == "" {
			shellTool = "Bash"
		}
		for _, k := range []string{"cmd", "command", "src", "in"} {
			if s, ok := x[k].(string); ok && s != "" && !file {
				*out = append(*out, corpusCall{tool: shellTool, text: s})
			}
		}
		if file {
			for _, k := range []string{"paths", "file_path", "path"} {
				switch p := x[k].(type) {
				case string:
					*out = append(*out, corpusCall{tool: tool, text: p, file: true})
				case []any:
					for _, e := range p {
						if s, ok := e.(string); ok && s != "" {
							*out = append(*out, corpusCall{tool: tool, text: s, file: true})
						}
					}
				}
			}
		}
		// A step {"tool" or "name": TOOL, "input": {...}} passes its tool
		// down to the tool input it holds.
		if in, ok := x["input"].(map[string]any); ok && in["tool"] == nil {
			named := tool
			if n, _ := x["name"].(string); named == "" && (isFileToolName(n) || n == "Bash" || n == "PowerShell") {
				named = n
			}
			if named != "" {
				withTool := map[string]any{"tool": named}
				for k, v := range in {
					withTool[k] = v
				}
				x = mapWithout(x, "input")
				walkJSON(withTool, out)
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			walkJSON(x[k], out)
		}
	}
}

// mapWithout is m without key (m itself is not changed).
func mapWithout(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func isFileToolName(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit", "ApplyPatch":
		return true
	}
	return false
}
