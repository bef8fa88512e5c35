package setup

import (
	"fmt"
	"strconv"
	"strings"
)

// tomlTable is one table of a TOML file: its dotted name with quotes
// removed ("plugins.zcode-fence@market"; "" for the top level), whether it
// is an array-of-tables element, and its scalar values as text (strings
// unquoted, booleans and numbers as written).
type tomlTable struct {
	name   string
	array  bool
	values map[string]string
}

// parseTOML reads the subset of TOML Codex's config.toml uses for what
// doctor checks: [table] and [[array]] headers with bare or quoted dotted
// keys, key = string | literal string | boolean | number lines, comments.
// Arrays and inline tables are skipped as values (a multi-line one is
// skipped to its closing bracket); a line it cannot read is an error
// naming the line.
func parseTOML(data []byte) ([]tomlTable, error) {
	tables := []tomlTable{{values: map[string]string{}}}
	depth := 0 // open brackets of a multi-line value being skipped
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(stripComment(line))
		if depth > 0 {
			depth += strings.Count(line, "[") + strings.Count(line, "{") - strings.Count(line, "]") - strings.Count(line, "}")
			continue
		}
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "[") {
			array := strings.HasPrefix(line, "[[")
			name := strings.TrimSuffix(strings.TrimSuffix(strings.TrimLeft(line, "["), "]"), "]")
			tables = append(tables, tomlTable{name: unquoteKey(name), array: array, values: map[string]string{}})
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: not a key = value line", i+1)
		}
		key, val = unquoteKey(strings.TrimSpace(key)), strings.TrimSpace(val)
		switch {
		case strings.HasPrefix(val, `"`):
			s, err := strconv.Unquote(val)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			val = s
		case strings.HasPrefix(val, "'"):
			val = strings.TrimSuffix(strings.TrimPrefix(val, "'"), "'")
		case strings.HasPrefix(val, "[") || strings.HasPrefix(val, "{"):
			depth = strings.Count(val, "[") + strings.Count(val, "{") - strings.Count(val, "]") - strings.Count(val, "}")
			continue
		}
		tables[len(tables)-1].values[key] = val
	}
	return tables, nil
}

// stripComment drops a # comment outside quotes.
func stripComment(line string) string {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '#':
			return line[:i]
		}
	}
	return line
}

// unquoteKey turns a dotted key with quoted parts (plugins."a@b") into
// its parts joined by "." without quotes.
func unquoteKey(k string) string {
	var parts []string
	for k != "" {
		k = strings.TrimSpace(k)
		var part string
		if strings.HasPrefix(k, `"`) || strings.HasPrefix(k, "'") {
			end := strings.IndexByte(k[1:], k[0])
			if end < 0 {
				return strings.Join(append(parts, k), ".")
			}
			part, k = k[1:end+1], k[end+2:]
		} else {
			part, k, _ = strings.Cut(k, ".")
			part = strings.TrimSpace(part)
			parts = append(parts, part)
			continue
		}
		parts = append(parts, part)
		k = strings.TrimPrefix(strings.TrimSpace(k), ".")
	}
	return strings.Join(parts, ".")
}
