package analysis

import "mvdan.cc/sh/v3/syntax"

// ${x#pat}, ${x##pat}, ${x%pat} and ${x%%pat} with a glob pattern (*, ?,
// [...], backslash escapes): the shortest or longest matching prefix or
// suffix is removed, as bash does (* matches any text, / included).
// ${0%/*} then names a script's directory.

// maxTrimLen bounds the value trimmed with a pattern: matching tries every
// cut, each in time linear in the pattern times the text.
const maxTrimLen = 4096

// trimPattern removes the prefix or suffix of s that glob pattern p
// matches, per op; ok is false for a pattern it cannot read or a value too
// long.
func trimPattern(s, p string, op syntax.ParExpOperator) (string, bool) {
	if len(s) > maxTrimLen || len(p) > 256 {
		return "", false
	}
	if _, ok := globMatch(p, ""); !ok {
		return "", false
	}
	n := len(s)
	switch op {
	case syntax.RemSmallPrefix:
		for i := 0; i <= n; i++ {
			if m, _ := globMatch(p, s[:i]); m {
				return s[i:], true
			}
		}
	case syntax.RemLargePrefix:
		for i := n; i >= 0; i-- {
			if m, _ := globMatch(p, s[:i]); m {
				return s[i:], true
			}
		}
	case syntax.RemSmallSuffix:
		for i := n; i >= 0; i-- {
			if m, _ := globMatch(p, s[i:]); m {
				return s[:i], true
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= n; i++ {
			if m, _ := globMatch(p, s[i:]); m {
				return s[:i], true
			}
		}
	}
	return s, true
}

// globMatch reports whether shell pattern p matches all of s; ok is false
// for a malformed pattern (an unclosed [). Iterative with one star
// backtrack point: time O(len(p) * len(s)).
func globMatch(p, s string) (match, ok bool) {
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; c {
			case '*':
				star, mark = pi, si
				pi++
				continue
			case '?':
				pi++
				si++
				continue
			case '[':
				end, m, good := classMatch(p, pi, s[si])
				if !good {
					return false, false
				}
				if m {
					pi, si = end, si+1
					continue
				}
			case '\\':
				if pi+1 < len(p) && p[pi+1] == s[si] {
					pi, si = pi+2, si+1
					continue
				}
			default:
				if c == s[si] {
					pi++
					si++
					continue
				}
			}
		}
		if star < 0 {
			return false, classesOK(p)
		}
		pi, mark = star+1, mark+1
		si = mark
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p), classesOK(p)
}

// classMatch matches byte c against the bracket expression at p[i]; end is
// the index after it.
func classMatch(p string, i int, c byte) (end int, match, ok bool) {
	j := i + 1
	neg := j < len(p) && (p[j] == '!' || p[j] == '^')
	if neg {
		j++
	}
	first := true
	for j < len(p) && (p[j] != ']' || first) {
		first = false
		lo := p[j]
		if lo == '\\' && j+1 < len(p) {
			j++
			lo = p[j]
		}
		hi := lo
		if j+2 < len(p) && p[j+1] == '-' && p[j+2] != ']' {
			hi = p[j+2]
			j += 2
		}
		if lo <= c && c <= hi {
			match = true
		}
		j++
	}
	if j >= len(p) {
		return 0, false, false
	}
	return j + 1, match != neg, true
}

// classesOK reports every [ of p closed.
func classesOK(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			end, _, ok := classMatch(p, i, 0)
			if !ok {
				return false
			}
			i = end - 1
		}
	}
	return true
}
