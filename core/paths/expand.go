package paths

import "strings"

// expand performs Normalize's steps 1 and 2. ok is false when the result is
// Unresolved. It returns s itself when nothing was expanded.
func (p Platform) expand(s string) (string, bool) {
	if strings.IndexAny(s, "~$%") < 0 {
		return s, true
	}
	var out []byte // nil until the first substitution
	i, copied := 0, 0
	if s[0] == '~' {
		switch {
		case len(s) == 1 || s[1] == '/' || s[1] == '\\':
			if p.Home == "" || strings.ContainsAny(p.Home, "\r\n") {
				return "", false
			}
			out = append(make([]byte, 0, len(p.Home)+len(s)+16), p.Home...)
			i, copied = 1, 1
		case isTildeUserChar(s[1]):
			return "", false // ~user, ~+, ~-: another directory we do not know
		}
	}
	for i < len(s) {
		c := s[i]
		if c != '$' && c != '%' {
			i++
			continue
		}
		name, n, st := scanVar(s[i:])
		switch st {
		case varLiteral:
			i++
			continue
		case varUnknown:
			return "", false
		}
		val, ok := p.lookup(name)
		if !ok || strings.ContainsAny(val, ";\r\n") {
			return "", false
		}
		if out == nil {
			out = make([]byte, 0, len(s)+len(val)+16)
		}
		out = append(out, s[copied:i]...)
		out = append(out, val...)
		i += n
		copied = i
	}
	if out == nil {
		return s, true
	}
	out = append(out, s[copied:]...)
	res := string(out)
	// A value is text, not more syntax: when the result would expand again
	// ("%A" followed by $X = "B%", or a value holding "$Y"), the shell's
	// answer and ours could differ. Unknown, not guessed.
	if hasVariable(res) {
		return "", false
	}
	return res, true
}

// hasVariable reports whether s holds a $ or % that starts a variable (or
// something that makes a path unresolved).
func hasVariable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '$' || s[i] == '%' {
			if _, _, st := scanVar(s[i:]); st != varLiteral {
				return true
			}
		}
	}
	return false
}

type varStatus uint8

const (
	varLiteral  varStatus = iota // not a variable: keep the character
	varVariable                  // the variable name, spelled in n bytes
	varUnknown                   // syntax that makes the path Unresolved
)

// scanVar reads the $- or %-expression at the start of s: $NAME, ${NAME},
// $env:NAME, ${env:NAME}, %NAME%.
func scanVar(s string) (name string, n int, st varStatus) {
	if len(s) < 2 {
		return "", 0, varLiteral
	}
	if s[0] == '%' {
		return scanPercent(s)
	}
	c := s[1]
	switch {
	case c == '{':
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", 0, varUnknown
		}
		inner := s[2:end]
		if len(inner) > 4 && strings.EqualFold(inner[:4], "env:") {
			if !isPercentName(inner[4:]) {
				return "", 0, varUnknown
			}
			return inner[4:], end + 1, varVariable
		}
		if !isShellName(inner) {
			return "", 0, varUnknown // ${#X}, ${X:-y}, ${X/a/b}, ${1} ...
		}
		return inner, end + 1, varVariable
	case isNameStart(c):
		j := 2
		for j < len(s) && isNameChar(s[j]) {
			j++
		}
		if j+1 < len(s) && s[j] == ':' && strings.EqualFold(s[1:j], "env") && isNameStart(s[j+1]) {
			k := j + 2
			for k < len(s) && isNameChar(s[k]) {
				k++
			}
			return s[j+1 : k], k, varVariable // PowerShell $env:NAME
		}
		return s[1:j], j, varVariable
	case c >= '0' && c <= '9', strings.IndexByte("?!#*@-$([", c) >= 0:
		return "", 0, varUnknown // positional/special parameters, $(...), $((...)), $[...]
	}
	return "", 0, varLiteral
}

func scanPercent(s string) (name string, n int, st varStatus) {
	if c := s[1]; c == '~' || c == '*' {
		return "", 0, varUnknown // batch parameters %~dp0, %*
	}
	if !isNameStart(s[1]) {
		return "", 0, varLiteral
	}
	j := 2
	for j < len(s) && isPercentNameChar(s[j]) {
		j++
	}
	if j < len(s) {
		switch s[j] {
		case '%':
			return s[1:j], j + 1, varVariable
		case ':':
			return "", 0, varUnknown // %X:~0,2% and %X:a=b%
		}
	}
	return "", 0, varLiteral
}

func isNameStart(c byte) bool { return isLetter(c) || c == '_' }
func isNameChar(c byte) bool  { return isNameStart(c) || (c >= '0' && c <= '9') }

func isPercentNameChar(c byte) bool { return isNameChar(c) || c == '(' || c == ')' }

func isTildeUserChar(c byte) bool { return isNameChar(c) || c == '+' || c == '-' }

func isShellName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

func isPercentName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isPercentNameChar(s[i]) {
			return false
		}
	}
	return true
}
