package redact

import "strings"

var (
	schemeByte = byteSet(lowers + uppers + digits + "+.-")
	// authorityStop ends the authority part of a URL (and so the search for
	// the '@' after userinfo).
	authorityStop = byteSet("/?#\\\"'`<>{}|^[] \t\r\n")
	userChar      = byteSet(lowers + uppers + digits + "_.-")
)

// urlUserinfo handles scheme://user:password@host: the password is
// redacted and the user kept; a user without a password that looks like a
// token (https://<token>@github.com) is redacted itself.
func (sc *scanner) urlUserinfo(i int) int {
	s := sc.s
	next := i + 1
	b := i
	for b > 0 && i-b < 32 && schemeByte[s[b-1]] {
		b--
	}
	for b < i && !letter[s[b]] {
		b++
	}
	if i-b < 2 {
		return next
	}
	a := i + 3
	e, at := a, -1
	for e < len(s) && e-a < 1024 && !authorityStop[s[e]] {
		if s[e] == '@' {
			at = e
		}
		e++
	}
	if at <= a {
		return next
	}
	if colon := strings.IndexByte(s[a:at], ':'); colon >= 0 {
		ps := a + colon + 1
		if !nonSecretURLPart(s[ps:at]) {
			sc.add(ps, at, "url-password", prioContext)
		}
		return next
	}
	if tokenLike(s[a:at]) {
		sc.add(a, at, "url-token", prioContext)
	}
	return next
}

// nonSecretURLPart reports whether a URL password only points at a secret:
// empty, $VAR, a printf verb (%s), a mask. Percent-encoding is not a
// reference: p%40ss is a password.
func nonSecretURLPart(p string) bool {
	switch {
	case p == "", p[0] == '$', allOf(p, '*'):
		return true
	case len(p) == 2 && p[0] == '%' && letter[p[1]]:
		return true
	}
	return false
}

// tokenLike reports whether a URL user is a generated token rather than a
// name: 20 or more token characters mixing cases or digits.
func tokenLike(u string) bool {
	if len(u) < 20 {
		return false
	}
	for i := 0; i < len(u); i++ {
		if !userChar[u[i]] {
			return false
		}
	}
	return mixed(u)
}
