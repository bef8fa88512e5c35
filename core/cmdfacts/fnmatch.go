package cmdfacts

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// fnmatch reports whether s matches pattern, the glob of one of find's
// name tests (-name, -path, -wholename and their -i forms), the way
// find's fnmatch reads it without FNM_PATHNAME or FNM_PERIOD:
//
//   - "*" matches any run of runes, "/" and a leading "." included; "?"
//     matches one rune;
//   - "\c" matches c itself; a trailing "\" matches a backslash;
//   - "[...]" matches one rune: a leading "!" or "^" negates it; a "]"
//     right after "[" (or after the negation) is a member ("[]a]" is "]"
//     or "a", "[!]]" any rune but "]"), and the next "]" ends it; "x-y"
//     is a range, and a "-" first, last or right after a range is itself;
//     "[:name:]" is a POSIX class (alpha, digit, alnum, upper, lower,
//     space, blank, punct, xdigit, cntrl, print, graph: "[[:upper:]]*"),
//     and a "[" with no ":]" after its ":" is itself; a backslash in a
//     bracket is itself (it escapes nothing);
//   - everything else matches itself; with fold, runes compare under
//     Unicode simple case folding (K matches k and the Kelvin sign);
//   - s is read as UTF-8, each invalid byte as U+FFFD.
//
// ok is false, whatever s, for a pattern that reading cannot pin down:
// invalid UTF-8; a "[" without its "]" ("[]", "[!]": the "]" is a
// member); a range whose ends are reversed ("[z-a]"); a class name
// outside the list, or a collating element or equivalence class ("[.",
// "[=").
//
// These are the semantics of the regular-expression translation find's
// name tests went through before (fnmatch_test.go checks fnmatch against
// it on generated patterns and names), except that the translation read
// a non-ASCII rune outside brackets byte by byte ("é" as "Ã©"), and that
// it read neither a "]" after a negation as a member nor POSIX classes
// (it ended the bracket at the class's first "]").
//
// Cost: a pass over pattern to check it, then a byte comparison for a
// plain name or "*" and a plain suffix, else at worst
// O(len(pattern)·len(s)) (a mismatch after a "*" retries from the last
// "*" only), typically linear; no allocation, nothing cached.
func fnmatch(pattern, s string, fold bool) (match, ok bool) {
	if !globValid(pattern) {
		return false, false
	}
	if !fold {
		// The everyday shapes, a name (.git, node_modules) and a "*" before
		// one (*.o, *~), compare bytes.
		if globPlain(pattern) {
			return pattern == s, true
		}
		if pattern[0] == '*' && globPlain(pattern[1:]) {
			return strings.HasSuffix(s, pattern[1:]), true
		}
	}
	return globMatch(pattern, s, fold), true
}

// globPlain reports whether the (valid) pattern p matches just the bytes
// of its own text: no "*", "?", "[" or "\", and no U+FFFD (which an
// invalid byte of a name reads as).
func globPlain(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '*', '?', '[', '\\':
			return false
		case "\uFFFD"[0]:
			if strings.HasPrefix(p[i:], "\uFFFD") {
				return false
			}
		}
	}
	return true
}

// globValid reports whether fnmatch can read pattern (see fnmatch).
func globValid(p string) bool {
	if !utf8.ValidString(p) {
		return false
	}
	for at, next, content, ok := globNextBracket(p, 0); at >= 0; at, next, content, ok = globNextBracket(p, next) {
		if !ok || !classValid(content) {
			return false
		}
	}
	return true
}

// globNextBracket finds the first bracket of p at or after from (a "["
// no backslash escapes): where it opens (at; -1 for none), its contents
// and the index after its "]" (see globBracket; ok false when no "]"
// ends it).
func globNextBracket(p string, from int) (at, next int, content string, ok bool) {
	for i := from; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			content, next, ok = globBracket(p, i)
			return i, next, content, ok
		}
	}
	return -1, 0, "", true
}

// globBracket returns the contents of the bracket that opens at p[i] and
// the index after its "]"; ok is false when no "]" ends it. A "]" first
// (after the negation) is a member, and so is every "]" inside a
// "[:name:]", "[.x.]" or "[=x=]".
func globBracket(p string, i int) (content string, next int, ok bool) {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) {
		switch {
		case p[j] == ']':
			return p[i+1 : j], j + 1, true
		case namedItemLen(p[j:]) > 0:
			j += namedItemLen(p[j:])
			continue
		}
		j++
	}
	return "", 0, false
}

// namedItemLen is the length of the "[:name:]", "[.x.]" or "[=x=]" item
// t starts with, 0 when it starts with none (a "[:" with no ":]" after
// it is two members).
func namedItemLen(t string) int {
	if len(t) < 2 || t[0] != '[' || t[1] != ':' && t[1] != '.' && t[1] != '=' {
		return 0
	}
	for k := 2; k+1 < len(t); k++ {
		if t[k] == t[1] && t[k+1] == ']' {
			return k + 2
		}
	}
	return 0
}

// bracketItem reads the first item of a bracket's members t: a rune or a
// range (lo, hi), or a "[:name:]" class (class set); n is its length.
// valid is false for a reversed range, an unknown class, a collating
// element or an equivalence class.
func bracketItem(t string) (lo, hi rune, class string, n int, valid bool) {
	if n := namedItemLen(t); n > 0 {
		name := t[2 : n-2]
		if t[1] != ':' || !knownClass(name) {
			return 0, 0, "", 0, false
		}
		return 0, 0, name, n, true
	}
	lo, n = utf8.DecodeRuneInString(t)
	hi = lo
	if len(t) >= n+2 && t[n] == '-' {
		var m int
		hi, m = utf8.DecodeRuneInString(t[n+1:])
		if hi < lo {
			return 0, 0, "", 0, false
		}
		n += 1 + m
	}
	return lo, hi, "", n, true
}

// knownClass reports whether name is a POSIX character class classIs
// knows.
func knownClass(name string) bool {
	switch name {
	case "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "xdigit", "cntrl", "print", "graph":
		return true
	}
	return false
}

// classIs reports whether c is in the POSIX class name (knownClass), as
// a UTF-8 locale reads it.
func classIs(name string, c rune) bool {
	switch name {
	case "alpha":
		return unicode.IsLetter(c)
	case "digit":
		return '0' <= c && c <= '9'
	case "alnum":
		return unicode.IsLetter(c) || unicode.IsDigit(c)
	case "upper":
		return unicode.IsUpper(c)
	case "lower":
		return unicode.IsLower(c)
	case "space":
		return unicode.IsSpace(c)
	case "blank":
		return c == ' ' || c == '\t'
	case "punct":
		if c < utf8.RuneSelf {
			return c > ' ' && c < 0x7f && !unicode.IsLetter(c) && !unicode.IsDigit(c)
		}
		return unicode.IsPunct(c) || unicode.IsSymbol(c)
	case "xdigit":
		return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f'
	case "cntrl":
		return unicode.IsControl(c)
	case "print":
		return unicode.IsPrint(c)
	case "graph":
		return unicode.IsGraphic(c) && !unicode.IsSpace(c)
	}
	return false
}

// classValid reports whether a bracket's contents can be read (see
// fnmatch).
func classValid(content string) bool {
	t := content
	if t != "" && (t[0] == '!' || t[0] == '^') {
		t = t[1:]
	}
	if t == "" {
		return false
	}
	for t != "" {
		_, _, _, n, valid := bracketItem(t)
		if !valid {
			return false
		}
		t = t[n:]
	}
	return true
}

// globMatch matches s against p, which globValid accepts.
func globMatch(p, s string, fold bool) bool {
	px, sx := 0, 0
	starP, starS := -1, 0 // after the last "*", and where its match ends
	for {
		if px < len(p) {
			if p[px] == '*' {
				px++
				starP, starS = px, sx
				continue
			}
			if sx < len(s) {
				c, n := utf8.DecodeRuneInString(s[sx:])
				if next, hit := globOne(p, px, c, fold); hit {
					px, sx = next, sx+n
					continue
				}
			}
		} else if sx == len(s) {
			return true
		}
		if starP < 0 || starS == len(s) {
			return false
		}
		_, n := utf8.DecodeRuneInString(s[starS:])
		starS += n
		px, sx = starP, starS
	}
}

// globOne matches the rune c against the item of p at px (not "*"),
// returning the index after that item.
func globOne(p string, px int, c rune, fold bool) (next int, hit bool) {
	switch p[px] {
	case '?':
		return px + 1, true
	case '[':
		content, next, _ := globBracket(p, px)
		return next, classMatch(content, c, fold)
	case '\\':
		if px+1 == len(p) {
			return px + 1, runeEq('\\', c, fold)
		}
		px++
	}
	r, n := utf8.DecodeRuneInString(p[px:])
	return px + n, runeEq(r, c, fold)
}

// runeEq reports whether c is r, or (fold) in r's case-folding orbit.
func runeEq(r, c rune, fold bool) bool {
	if r == c {
		return true
	}
	if !fold {
		return false
	}
	if r < utf8.RuneSelf && c < utf8.RuneSelf {
		return r|0x20 == c|0x20 && 'a' <= r|0x20 && r|0x20 <= 'z'
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == c {
			return true
		}
	}
	return false
}

// classMatch reports whether the bracket with these (valid) contents
// matches c: with fold, whether it holds c or a rune of c's orbit.
func classMatch(content string, c rune, fold bool) bool {
	negate := content[0] == '!' || content[0] == '^'
	if negate {
		content = content[1:]
	}
	in := classHas(content, c)
	if !in && fold {
		for f := unicode.SimpleFold(c); f != c && !in; f = unicode.SimpleFold(f) {
			in = classHas(content, f)
		}
	}
	return in != negate
}

// classHas reports whether a bracket's members (contents without the
// negation, valid) include c.
func classHas(t string, c rune) bool {
	for t != "" {
		lo, hi, class, n, _ := bracketItem(t)
		t = t[n:]
		if class != "" && classIs(class, c) || class == "" && lo <= c && c <= hi {
			return true
		}
	}
	return false
}
