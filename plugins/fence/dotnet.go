package fence

import (
	"strings"
)

// dotNetCall is a .NET file API call found in PowerShell text
// ([IO.File]::WriteAllText('C:\x', ...)): its label and the literal
// paths it writes or deletes.
type dotNetCall struct {
	label   string
	targets []target
}

// dotNetArgs says which arguments of a [System.IO.File] /
// [System.IO.Directory] method are targets, and how: "w" written, "d"
// deleted, "m" moved away, "-" not a target.
var dotNetArgs = map[string]string{
	"writealltext": "w", "writealllines": "w", "writeallbytes": "w", "appendalltext": "w", "appendalllines": "w",
	"create": "w", "createtext": "w", "appendtext": "w", "openwrite": "w", "setattributes": "w",
	"setcreationtime": "w", "setlastwritetime": "w", "setlastaccesstime": "w", "encrypt": "w", "decrypt": "w",
	"createdirectory": "w", "createsymboliclink": "w", "delete": "d", "copy": "-w", "move": "mw", "replace": "-ww",
}

// maxDotNetCalls bounds the calls dotNetCalls returns.
const maxDotNetCalls = 32

// dotNetCalls finds [IO.File]::M(...), [System.IO.File]::M(...) and the
// Directory equivalents in PowerShell text (any case, spaces allowed
// around "::" and "("), with the arguments dotNetArgs names, when they are
// quoted literals ('...' with doubled-quote escapes, or "..." holding no
// variable but $env:NAME). Arguments built at run time are not judged.
// Cost: one pass over src.
func dotNetCalls(src string) []dotNetCall {
	var out []dotNetCall
	lower := strings.ToLower(src)
	for i := 0; i < len(lower) && len(out) < maxDotNetCalls; {
		k := strings.Index(lower[i:], "]")
		if k < 0 {
			break
		}
		end := i + k
		start := strings.LastIndexByte(lower[:end], '[')
		i = end + 1
		if start < 0 {
			continue
		}
		typ := strings.TrimSpace(lower[start+1 : end])
		if typ != "io.file" && typ != "system.io.file" && typ != "io.directory" && typ != "system.io.directory" {
			continue
		}
		rest := strings.TrimLeft(lower[i:], " \t")
		if !strings.HasPrefix(rest, "::") {
			continue
		}
		p := i + (len(lower[i:]) - len(rest)) + 2
		for p < len(lower) && (lower[p] == ' ' || lower[p] == '\t') {
			p++
		}
		q := p
		for q < len(lower) && (isASCIILetter(lower[q]) || lower[q] >= '0' && lower[q] <= '9') {
			q++
		}
		method := lower[p:q]
		spec, ok := dotNetArgs[method]
		if !ok {
			continue
		}
		for q < len(lower) && (lower[q] == ' ' || lower[q] == '\t') {
			q++
		}
		if q >= len(lower) || lower[q] != '(' {
			continue
		}
		args, next := psCallArgs(src, q+1)
		i = next
		call := dotNetCall{label: src[start:end+1] + "::" + src[p:p+len(method)]}
		for n, how := range spec {
			if n >= len(args) || args[n] == nil || how == '-' {
				continue
			}
			v := verbWrite
			switch how {
			case 'd':
				v = verbRemove
			case 'm':
				v = verbMove
			}
			call.targets = append(call.targets, target{w: literal(*args[n]), verb: v, del: v != verbWrite})
		}
		if len(call.targets) > 0 {
			out = append(out, call)
		}
	}
	return out
}

// psCallArgs reads the arguments of a method call from src[i:] (just after
// "(") up to the closing ")": each a quoted literal's value, or nil when it
// is anything else. It returns the index after the call.
func psCallArgs(src string, i int) ([]*string, int) {
	var args []*string
	for i < len(src) {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i >= len(src) {
			break
		}
		var val *string
		if c := src[i]; c == '\'' || c == '"' {
			var b strings.Builder
			j := i + 1
			for j < len(src) {
				if src[j] == c {
					if c == '\'' && j+1 < len(src) && src[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				if c == '"' && src[j] == '`' && j+1 < len(src) {
					j++
				}
				b.WriteByte(src[j])
				j++
			}
			s := b.String()
			if j < len(src) && (c == '\'' || onlyEnvVars(s)) {
				val = &s
			}
			i = j + 1
		}
		depth := 0
		for i < len(src) {
			c := src[i]
			if depth == 0 && (c == ',' || c == ')') {
				break
			}
			switch c {
			case '(':
				depth++
				val = nil
			case ')':
				depth--
			case '\'', '"':
				val = nil
			default:
				if c != ' ' && c != '\t' {
					val = nil // more than a literal: an expression
				}
			}
			i++
		}
		args = append(args, val)
		if i >= len(src) || src[i] == ')' {
			return args, i + 1
		}
		i++ // the comma
	}
	return args, i
}

// onlyEnvVars reports whether every "$" in a double-quoted PowerShell
// string starts $env:NAME or ${env:NAME} (which paths.Normalize expands);
// other variables are not known here.
func onlyEnvVars(s string) bool {
	for i := strings.IndexByte(s, '$'); i >= 0; {
		rest := strings.ToLower(s[i+1:])
		if !strings.HasPrefix(rest, "env:") && !strings.HasPrefix(rest, "{env:") {
			return false
		}
		next := strings.IndexByte(s[i+1:], '$')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return true
}
