package ondisk

import (
	"encoding/json"
	"sort"
	"strings"
)

// JSON task files: package.json scripts (npm, yarn, pnpm, bun), composer.json
// scripts and deno.json(c) tasks. Each names commands by script name; the
// line of a script is the line of its key in the file.

// Script is one named script of a JSON task file.
type Script struct {
	Name string
	// Commands are the command lines it runs, in order: one for npm and
	// deno, one per entry of a composer array ("@other" and "@php ..."
	// entries included as written).
	Commands []string
	// Deps are the tasks a deno task depends on (run before it).
	Deps []string
	Line int
}

// ScriptFile is a parsed JSON task file.
type ScriptFile struct {
	Scripts map[string]Script
	// Name, Version and Config are package.json's fields npm exports to
	// scripts (npm_package_name, npm_package_version,
	// npm_package_config_KEY).
	Name, Version string
	Config        map[string]string
}

// ParsePackageJSON reads package.json's scripts (key "scripts"), composer
// .json's ("scripts": string or array of strings) or deno.json(c)'s (key
// "tasks": a string or {"command", "dependencies"}). key picks the member.
// ok is false when the text is not a JSON object.
func ParseScripts(text, key string) (ScriptFile, bool) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stripJSONComments(text)), &top); err != nil {
		return ScriptFile{}, false
	}
	out := ScriptFile{Scripts: map[string]Script{}}
	_ = json.Unmarshal(top["name"], &out.Name)
	_ = json.Unmarshal(top["version"], &out.Version)
	var cfg map[string]any
	if json.Unmarshal(top["config"], &cfg) == nil {
		out.Config = map[string]string{}
		for k, v := range cfg {
			if s, ok := v.(string); ok {
				out.Config[k] = s
			}
		}
	}
	var scripts map[string]json.RawMessage
	if json.Unmarshal(top[key], &scripts) != nil {
		return out, true
	}
	base := strings.Index(text, `"`+key+`"`)
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		raw := scripts[n]
		s := Script{Name: n, Line: keyLine(text, base, n)}
		var one string
		var many []string
		var task struct {
			Command      string   `json:"command"`
			Dependencies []string `json:"dependencies"`
		}
		switch {
		case json.Unmarshal(raw, &one) == nil:
			s.Commands = []string{one}
		case json.Unmarshal(raw, &many) == nil:
			s.Commands = many
		case json.Unmarshal(raw, &task) == nil:
			if task.Command != "" {
				s.Commands = []string{task.Command}
			}
			s.Deps = task.Dependencies
		default:
			continue
		}
		out.Scripts[n] = s
	}
	return out, true
}

// keyLine is the line of "name": after offset base in text (1 if not
// found).
func keyLine(text string, base int, name string) int {
	if base < 0 {
		base = 0
	}
	q, _ := json.Marshal(name)
	for from := base; from < len(text); {
		i := strings.Index(text[from:], string(q))
		if i < 0 {
			break
		}
		at := from + i
		rest := strings.TrimLeft(text[at+len(q):], " \t\r\n")
		if strings.HasPrefix(rest, ":") { // a key, not a value naming it
			return strings.Count(text[:at], "\n") + 1
		}
		from = at + len(q)
	}
	return 1
}

// stripJSONComments removes // and /* */ comments outside strings (deno
// .jsonc), keeping newlines so lines still count.
func stripJSONComments(s string) string {
	if !strings.Contains(s, "/") {
		return s
	}
	var sb strings.Builder
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			sb.WriteByte(c)
			if c == '\\' && i+1 < len(s) {
				i++
				sb.WriteByte(s[i])
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
			sb.WriteByte(c)
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				sb.WriteByte('\n')
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return sb.String()
			}
			sb.WriteString(strings.Repeat("\n", strings.Count(s[i:i+2+end], "\n")))
			i += end + 3
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
