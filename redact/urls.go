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
	sc.urlPathTokens(s[max(a, at+1):e], e)
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

var (
	// pathStop ends a URL path segment (and, but for '/', the path).
	pathStop = byteSet("/?#\\\"'`<>{}|^[] \t\r\n;&,)")
	hexByte  = byteSet(digits + "abcdefABCDEF")
)

// minHexToken is the shortest all-hex path segment taken for a token;
// maxURLPath bounds how much of a path is read, so text with many URLs
// stays linear.
const (
	minHexToken = 32
	maxURLPath  = 2048
)

// urlPathTokens redacts the path segments of the URL whose path starts at
// p (host is its host) that are hex tokens: 32 or more hex digits mixing
// digits and letters (webhook and API keys in the path). Content hashes
// are not tokens: on code hosts (a commit, a blob) and after a segment
// that names one (commit, blob, sha256, objects ...).
func (sc *scanner) urlPathTokens(host string, p int) {
	s := sc.s
	if p >= len(s) || s[p] != '/' || codeHost(host) {
		return
	}
	prev := ""
	start := p
	for p < len(s) && s[p] == '/' && p-start < maxURLPath {
		a := p + 1
		e := a
		for e < len(s) && e-a < 256 && !pathStop[s[e]] {
			e++
		}
		seg := s[a:e]
		if seg == "" {
			return // "//" or the end: no more path (and a://a://... stays linear)
		}
		if len(seg) >= minHexToken && runOf(seg, 0, &hexByte) == len(seg) && mixedHex(seg) && !hashSegment(prev) {
			sc.add(a, e, "url-token", prioContext)
		}
		prev, p = seg, e
	}
}

// mixedHex: both digits and letters (a run of one kind is an id, not a key).
func mixedHex(s string) bool {
	return strings.IndexAny(s, digits) >= 0 && strings.IndexAny(s, "abcdefABCDEF") >= 0
}

// codeHost: hosts whose hex path segments are commit and object hashes.
func codeHost(host string) bool {
	host = strings.ToLower(host)
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	for _, h := range []string{"github.com", "githubusercontent.com", "gitlab.com", "bitbucket.org", "codeberg.org",
		"sr.ht", "gitee.com", "googlesource.com"} {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	return false
}

// hashSegment: a path segment after which a hex segment is a content hash.
func hashSegment(p string) bool {
	switch strings.ToLower(p) {
	case "commit", "commits", "tree", "blob", "blobs", "raw", "archive", "compare", "sha", "sha1", "sha256",
		"sha512", "md5", "objects", "manifests", "ipfs", "hash", "hashes", "checksum", "checksums", "rev",
		"revision", "changeset", "snapshot", "snapshots", "build", "builds", "digest":
		return true
	}
	return false
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
