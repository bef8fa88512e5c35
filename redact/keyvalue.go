package redact

import "strings"

// The key/value rule. Its triggers are the words secret key names contain
// (pass, pwd, token, secret, key, credential, auth, cookie, sig, bearer).
// At a trigger the whole key name is read around it and classified; when
// the name says secret, the value after "=", ":" (also ":=", "=>"), or
// after white space for a --flag, a "set"/"config" command or a .netrc
// entry, is redacted unless it only points at a secret.

// maxKey bounds a key name; longer runs are not keys (and the bound keeps a
// pathological text linear).
const maxKey = 128

// maxValue bounds the search for a closing quote or line end; a value that
// long is cut there (at a rune boundary).
const maxValue = 8192

var (
	keyChar = byteSet(lowers + uppers + digits + "_.-")
	// valueStop ends an unquoted value.
	valueStop = byteSet(" \t\r\n\f\v&;,\"'`)}]<>|")
)

// keyValue is the handler of every key-name trigger at t.
func (sc *scanner) keyValue(t int) int {
	s := sc.s
	next := t + 1
	ks := t
	for ks > 0 && keyChar[s[ks-1]] {
		if t-ks >= maxKey {
			return next
		}
		ks--
	}
	ke := t + 1
	for ke < len(s) && keyChar[s[ke]] {
		if ke-ks >= maxKey {
			return next
		}
		ke++
	}
	for ke > t+1 && (s[ke-1] == '.' || s[ke-1] == '-') {
		ke--
	}
	dashes := 0
	for ks+dashes < ke && s[ks+dashes] == '-' {
		dashes++
	}
	flag := dashes == 1 || dashes == 2
	name := s[ks+dashes : ke]
	if ks >= len(markerPrefix) && s[ks-len(markerPrefix):ks] == markerPrefix {
		return next // the kind inside a marker: [REDACTED:password]
	}
	var prev byte
	if ks > 0 {
		prev = s[ks-1]
	}
	if prev == '/' {
		return next // a path: /etc/passwd, /run/secrets/token
	}
	if prev == '{' && ks >= 2 && s[ks-2] == '$' {
		if kind := classifyKey(name); kind != "" {
			sc.paramDefault(ke, kind)
		}
		return next
	}

	// Closing quote or bracket of the key itself: "key": ..., 'key' => ...,
	// {\"key\":...}, form[key]=...
	p := ke
	closed := false
	for k := 0; k < 2 && p < len(s); k++ {
		c := s[p]
		if c == '"' || c == '\'' {
			closed = true
			p++
		} else if c == '\\' && p+1 < len(s) && (s[p+1] == '"' || s[p+1] == '\'') {
			closed = true
			p += 2
		} else if c == ']' {
			p++
		} else {
			break
		}
	}
	var encl byte // the quote a "KEY=value" string is enclosed in
	if !closed && (prev == '"' || prev == '\'') {
		encl = prev
	}
	q := p
	for q < len(s) && q-p < 32 && hspace[s[q]] {
		q++
	}
	var sep byte
	if q < len(s) {
		switch s[q] {
		case '=':
			if q+1 < len(s) && s[q+1] == '=' {
				return next // a comparison
			}
			sep = '='
			q++
			if q < len(s) && s[q] == '>' {
				q++
			}
		case ':':
			if q+1 < len(s) && (s[q+1] == ':' || (s[q+1] == '/' && q+2 < len(s) && s[q+2] == '/')) {
				return next // Token::new, scheme://
			}
			sep = ':'
			q++
			if q < len(s) && s[q] == '=' {
				q++
			}
		}
	}
	if prev == '$' && sep != '=' {
		return next // $TOKEN is a use of a variable, not an assignment
	}
	if sep == 0 {
		if q == p || closed || prev == '$' {
			return next
		}
		if dashes == 1 && !singleDashKey(name) {
			return next // -pSecretPass is a glued short flag; ffmpeg -pass 1
		}
		if q >= len(s) || s[q] == '-' || segmentEnd[s[q]] {
			return next
		}
		kind := classifyKey(name)
		if kind == "" {
			return next
		}
		vs, ve, ok := valueAt(s, q, 0)
		if !ok || nonSecretValue(s[vs:ve]) {
			return next
		}
		sqlLiteral := eqFold(name, "password") && s[q] == '\'' // ALTER USER x WITH PASSWORD 'pw'
		if !flag && !sqlLiteral && !(name == "password" && netrcContext(s, ks)) && !setContext(s, ks, ke) &&
			!(kind == "aws-secret-key" && awsSecretShape(s[vs:ve])) {
			return next
		}
		sc.addValue(vs, ve, kind, prioKeyValue)
		return next
	}
	for q < len(s) && q-p < 64 && hspace[s[q]] {
		q++
	}
	if q >= len(s) {
		return next
	}
	kind := classifyKey(name)
	if kind == "" {
		return next
	}
	if sep == ':' && isHeaderKey(name) {
		sc.headerValue(q, encl, kind)
		return next
	}
	vs, ve, ok := valueAt(s, q, encl)
	if !ok || nonSecretValue(s[vs:ve]) {
		return next
	}
	sc.addValue(vs, ve, kind, prioKeyValue)
	return next
}

var awsSecretChar = byteSet(lowers + uppers + digits + "/+")

// awsSecretShape reports whether w is shaped like an AWS secret access key:
// 40 characters of base64 (which a name like secret_access_key announces).
func awsSecretShape(w string) bool {
	return len(w) == 40 && runOf(w, 0, &awsSecretChar) == 40
}

// paramDefault handles ${KEY:-default} (also -, :=, =): the default of a
// secret variable is a secret.
func (sc *scanner) paramDefault(p int, kind string) {
	s := sc.s
	if p < len(s) && s[p] == ':' {
		p++
	}
	if p >= len(s) || (s[p] != '-' && s[p] != '=') {
		return
	}
	a := p + 1
	if a < len(s) && (s[a] == '$' || s[a] == '`') {
		return // a reference: no need to find its end
	}
	e := a
	for e < len(s) && e-a < maxValue && s[e] != '}' && !space[s[e]] {
		e++
	}
	if e > a && !nonSecretValue(s[a:e]) {
		sc.addValue(a, e, kind, prioKeyValue)
	}
}

// valueAt reads the value starting at v: the inside of a quoted string
// ("...", '...', \"...\", $'...'), or an unquoted run up to valueStop. ok is false
// when there is no value: v is the closing quote of the string the pair is
// enclosed in, or a command substitution in backquotes.
func valueAt(s string, v int, encl byte) (vs, ve int, ok bool) {
	c := s[v]
	switch {
	case c == '"' || c == '\'':
		if c == encl || (v+1 < len(s) && (s[v+1] == '$' || s[v+1] == '`')) {
			return 0, 0, false // no value, or a reference (no need to find its end)
		}
		return v + 1, closeQuote(s, v+1, c), true
	case c == '\\' && v+1 < len(s) && (s[v+1] == '"' || s[v+1] == '\''):
		return v + 2, closeEscapedQuote(s, v+2, s[v+1]), true
	case c == '$' && v+1 < len(s) && (s[v+1] == '\'' || s[v+1] == '"'):
		// ANSI-C $'...' (and locale $"..."): a literal, escapes and all.
		return v + 2, closeQuote(s, v+2, s[v+1]), true
	case c == '`' || c == '$':
		return 0, 0, false
	}
	return v, unquotedEnd(s, v), true
}

// closeQuote returns the index of the quote q closing a string whose inside
// starts at i (backslash escapes skipped), or of the line end, or the
// bound.
func closeQuote(s string, i int, q byte) int {
	j := i
	for j < len(s) {
		if j-i >= maxValue {
			return runeStartAtOrBefore(s, j)
		}
		switch s[j] {
		case q, '\n':
			return j
		case '\\':
			if j+1 < len(s) && s[j+1] == '\n' {
				return j
			}
			j += 2
			continue
		}
		j++
	}
	return len(s)
}

// closeEscapedQuote is closeQuote for a string written with escaped quotes
// (\"...\"), as JSON inside a shell string is.
func closeEscapedQuote(s string, i int, q byte) int {
	j := i
	for j < len(s) {
		if j-i >= maxValue {
			return runeStartAtOrBefore(s, j)
		}
		if s[j] == '\n' {
			return j
		}
		if s[j] == '\\' && j+1 < len(s) {
			if s[j+1] == q {
				return j
			}
			j += 2
			continue
		}
		j++
	}
	return min(j, len(s))
}

// unquotedEnd returns the end of an unquoted value starting at i. A
// backslash before a quote or before n, r, t ends it too: in logged JSON
// those are the escapes of the enclosing string.
func unquotedEnd(s string, i int) int {
	j := i
	for j < len(s) {
		if j-i >= maxValue {
			return runeStartAtOrBefore(s, j)
		}
		c := s[j]
		if valueStop[c] {
			return j
		}
		if c == '\\' && j+1 < len(s) {
			switch s[j+1] {
			case '"', '\'', 'n', 'r', 't':
				return j
			}
			j += 2
			continue
		}
		j++
	}
	return min(j, len(s))
}

// lineEnd returns the end of a header value that runs to the end of its
// line or to quote q (any quote when q is 0), including the escaped forms
// of both.
func lineEnd(s string, i int, q byte) int {
	j := i
	for j < len(s) {
		if j-i >= maxValue {
			return runeStartAtOrBefore(s, j)
		}
		c := s[j]
		switch {
		case c == '\n' || c == '\r':
			return j
		case q != 0 && c == q, q == 0 && (c == '"' || c == '\''):
			return j
		case c == '\\' && j+1 < len(s):
			switch s[j+1] {
			case 'n', 'r', '"', '\'':
				return j
			}
			j += 2
			continue
		}
		j++
	}
	return min(j, len(s))
}

// isHeaderKey reports whether a key names a header whose value has spaces:
// Authorization (with its scheme) and Cookie.
func isHeaderKey(name string) bool {
	return eqFold(name, "authorization") || eqFold(name, "proxy-authorization") ||
		eqFold(name, "cookie") || eqFold(name, "set-cookie")
}

var (
	schemeChar = byteSet(lowers + uppers + digits + "-")
	// bearerBefore: what may come before a bare Bearer scheme word.
	bearerBefore = byteSet(" \t\r\n\"'`:(,[{")
)

// headerValue redacts an Authorization or Cookie header value starting at
// v. Quoted, or inside a quoted header string, it runs to the quote;
// otherwise a Cookie runs to the line end and an Authorization is its
// scheme and one credential word. The scheme (Bearer, Basic, token, ...)
// is kept.
func (sc *scanner) headerValue(v int, encl byte, kind string) {
	s := sc.s
	cookie := kind == "cookie"
	var a, e int
	c := s[v]
	switch {
	case c == '"' || c == '\'':
		if c == encl {
			return
		}
		a, e = v+1, closeQuote(s, v+1, c)
	case c == '\\' && v+1 < len(s) && (s[v+1] == '"' || s[v+1] == '\''):
		a, e = v+2, closeEscapedQuote(s, v+2, s[v+1])
	case encl != 0 || cookie:
		a, e = v, lineEnd(s, v, encl)
	default:
		a = v
		e = -1 // after the scheme, one word
	}
	if !cookie {
		w := a
		for w < len(s) && w-a < 32 && schemeChar[s[w]] {
			w++
		}
		if w > a && w < len(s) && hspace[s[w]] {
			r := w
			for r < len(s) && hspace[s[r]] {
				r++
			}
			if e < 0 || r < e {
				kind = schemeKind(s[a:w])
				a = r
			}
		}
		if e < 0 {
			e = unquotedEnd(s, a)
		}
	}
	for e > a && space[s[e-1]] {
		e--
	}
	if a >= e || nonSecretValue(s[a:e]) {
		return
	}
	sc.addValue(a, e, kind, prioContext)
}

// schemeKind names the secret after an Authorization scheme.
func schemeKind(scheme string) string {
	switch {
	case eqFold(scheme, "bearer"):
		return "bearer-token"
	case eqFold(scheme, "basic"):
		return "basic-auth"
	}
	return "authorization"
}

// bearer handles "Bearer <token>" anywhere (and "bearer" as a key name,
// --oauth2-bearer TOKEN). A prose word after Bearer is not a token.
func (sc *scanner) bearer(i int) int {
	s := sc.s
	next := sc.keyValue(i)
	if i > 0 && !bearerBefore[s[i-1]] {
		return next // token_type=bearer, --oauth2-bearer: the key rule's
	}
	p := i + len("bearer")
	q := p
	for q < len(s) && q-p < 16 && hspace[s[q]] {
		q++
	}
	if q == p || q >= len(s) {
		return next
	}
	end := runOf(s, q, &tokenChars)
	tok := strings.TrimRight(s[q:end], ".,:")
	if len(tok) < 8 || plainWord(tok) || strings.IndexByte(strings.TrimRight(tok, "="), '=') >= 0 {
		return next // prose ("Bearer authentication"), or key=value pairs
	}
	sc.add(q, end, "bearer-token", prioContext)
	return next
}

// netrcContext reports whether a "password" at ks is a .netrc entry: a
// machine or default word comes before it, close by, or it follows
// "login <name>".
func netrcContext(s string, ks int) bool {
	lo := max(0, ks-256)
	back := s[lo:ks]
	for _, w := range []string{"machine ", "default "} {
		if j := strings.LastIndex(back, w); j >= 0 && (lo+j == 0 || space[s[lo+j-1]] || s[lo+j-1] == '"' || s[lo+j-1] == '\'') {
			return true
		}
	}
	name, _ := wordBefore(s, ks)
	a, e := wordBefore(s, name)
	return s[a:e] == "login"
}

// wordBefore returns the space-separated word that ends before the white
// space preceding i (empty at the start of the text).
func wordBefore(s string, i int) (a, e int) {
	e = i
	for e > 0 && i-e < 32 && hspace[s[e-1]] {
		e--
	}
	a = e
	for a > 0 && e-a < 64 && !space[s[a-1]] {
		a--
	}
	return a, e
}

// setContext reports whether the word holding a key at ks is the name
// argument of a "set" or "config" command (aws configure set, npm config
// set, git config, setx, fish set -x), whose value follows after a space.
func setContext(s string, ks, ke int) bool {
	if !strings.ContainsAny(s[ks:ke], "_.:"+uppers) {
		return false // kubectl config set-credentials: a subcommand, not a name
	}
	w := ks
	for w > 0 && ks-w < 256 && !space[s[w-1]] {
		w--
	}
	for n := 0; n < 4; n++ {
		e := w
		for e > 0 && hspace[s[e-1]] {
			e--
		}
		if e == w || e == 0 {
			return false
		}
		w = e
		for w > 0 && e-w < 64 && !space[s[w-1]] {
			w--
		}
		word := s[w:e]
		switch word {
		case "set", "config", "setx", "configure":
			return true
		}
		if word == "" || word[0] != '-' {
			return false
		}
	}
	return false
}

// classifyKey returns the kind of secret a key name stands for, or "" when
// it names no secret. The name is split into parts (at _ - . and camelCase
// humps); trailing parts that only say how the secret is stored (value,
// data, base, b64, hash, digits ...) are dropped, and the last remaining part
// decides: password_file, token_type, max_tokens and api_url name no secret.
func classifyKey(name string) string {
	var parts [8]string
	n := splitKey(name, &parts)
	for n > 1 && neutralPart(parts[n-1]) {
		n--
	}
	if n == 0 {
		return ""
	}
	last := parts[n-1]
	for len(last) > 0 && digit[last[len(last)-1]] {
		last = last[:len(last)-1]
	}
	var prev, prev2 string
	if n >= 2 {
		prev = parts[n-2]
	}
	if n >= 3 {
		prev2 = parts[n-3]
	}
	switch {
	case eqFold(last, "pass"), eqFold(last, "pwd"), eqFold(last, "pw"),
		hasSuffixFold(last, "password"), hasSuffixFold(last, "passwd"), hasSuffixFold(last, "passphrase"),
		hasSuffixFold(last, "storepass"), hasSuffixFold(last, "keypass"):
		return "password"
	case hasSuffixFold(last, "token"):
		return "token"
	case hasSuffixFold(last, "secret"):
		return "secret"
	case hasSuffixFold(last, "apikey"):
		return "api-key"
	case hasSuffixFold(last, "privatekey"):
		return "private-key"
	case hasSuffixFold(last, "secretkey"), hasSuffixFold(last, "accountkey"):
		return "secret-key"
	case eqFold(last, "credential"), eqFold(last, "credentials"):
		return "credential"
	case eqFold(last, "auth"):
		return "auth"
	case eqFold(last, "authorization"):
		return "authorization"
	case hasSuffixFold(last, "cookie"):
		return "cookie"
	case hasSuffixFold(last, "signature"), eqFold(last, "sig"):
		return "signature"
	case eqFold(last, "bearer"):
		return "bearer-token"
	case eqFold(last, "id") && eqFold(prev, "key") && eqFold(prev2, "private"):
		return "private-key-id" // a service account's private_key_id
	case eqFold(last, "key") && prev != "":
		switch {
		case eqFold(prev, "api"):
			return "api-key"
		case eqFold(prev, "private"):
			return "private-key"
		case eqFold(prev, "access"):
			if eqFold(prev2, "secret") {
				return "aws-secret-key"
			}
			if eqFold(prev2, "shared") {
				return "secret-key"
			}
		case keyPrefix(prev):
			return "secret-key"
		}
	}
	return ""
}

// singleDashKey lists the one-dash flags that take a secret (keytool,
// jarsigner, and tools that spell long flags with one dash). Others are
// short flags with a glued value (-pSecretPass) or mean something else
// (ffmpeg -pass 1).
func singleDashKey(name string) bool {
	switch name {
	case "storepass", "keypass", "srcstorepass", "deststorepass", "srckeypass", "destkeypass",
		"password", "passwd", "passphrase", "token", "secret", "apikey", "api-key", "api_key":
		return true
	}
	return false
}

// keyPrefix lists the words that make "<word>_key" a secret.
func keyPrefix(p string) bool {
	for _, w := range []string{"secret", "signing", "encryption", "encrypt", "master", "account", "shared",
		"auth", "client", "consumer", "subscription", "license", "deploy", "app", "role", "webhook",
		"storage", "primary", "secondary", "session", "hmac", "jwt", "service"} {
		if eqFold(p, w) {
			return true
		}
	}
	return false
}

// neutralPart reports whether a trailing key part only says how the secret
// is written down (DB_PASSWORD_B64, SECRET_KEY_BASE, TOKEN_2).
func neutralPart(p string) bool {
	if runOf(p, 0, &digit) == len(p) {
		return true
	}
	for _, w := range []string{"value", "base", "data", "str", "string", "raw", "b64", "base64", "hex",
		"enc", "encrypted", "hash", "plain", "plaintext", "text", "binary", "literal"} {
		if eqFold(p, w) {
			return true
		}
	}
	return false
}

// splitKey splits a key name into its parts, keeping the last len(parts)
// (it reads from the end, which is all classifyKey needs).
func splitKey(name string, parts *[8]string) int {
	var rev [8]string
	n := 0
	end := len(name)
	emit := func(a int) bool {
		if a < end {
			rev[n] = name[a:end]
			n++
		}
		end = a
		return n == len(rev)
	}
	for i := len(name) - 1; i > 0 && n < len(rev); i-- {
		c := name[i]
		if c == '_' || c == '-' || c == '.' {
			if emit(i + 1) {
				break
			}
			end = i
			continue
		}
		if 'A' <= c && c <= 'Z' {
			p := name[i-1]
			lowerBefore := ('a' <= p && p <= 'z') || ('0' <= p && p <= '9')
			upperRunEnd := 'A' <= p && p <= 'Z' && i+1 < len(name) && 'a' <= name[i+1] && name[i+1] <= 'z'
			if (lowerBefore || upperRunEnd) && emit(i) {
				break
			}
		}
	}
	if n < len(rev) && end > 0 {
		c := name[0]
		if c == '_' || c == '-' || c == '.' {
			emit(1)
		} else {
			emit(0)
		}
	}
	for k := 0; k < n; k++ {
		parts[k] = rev[n-1-k]
	}
	return n
}

// eqFold reports whether s equals lower, a lower-case ASCII word, ignoring
// ASCII case (cheaper than strings.EqualFold, which handles Unicode).
func eqFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// hasSuffixFold is strings.HasSuffix ignoring ASCII case; suffix is lower
// case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && eqFold(s[len(s)-len(suffix):], suffix)
}

// allOf reports whether v is c repeated (at least once).
func allOf(v string, c byte) bool {
	for i := 0; i < len(v); i++ {
		if v[i] != c {
			return false
		}
	}
	return v != ""
}

// nonSecretValue reports whether a value only points at a secret or is not
// one: empty, a variable or command substitution, a template, a path or
// file name, a boolean or null, a mask, a placeholder.
func nonSecretValue(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '`', '/', '{', '[', '<':
		return true
	case '%':
		if strings.IndexByte(v[1:], '%') >= 0 || (len(v) == 2 && letter[v[1]]) {
			return true // %VAR%, %s
		}
	case '~':
		if len(v) == 1 || v[1] == '/' || v[1] == '\\' {
			return true
		}
	case '.':
		if strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, ".\\") ||
			strings.HasPrefix(v, ".*") {
			return true // paths, and a regular expression (sed 's/^password=.*/.../')
		}
	case '\\':
		if strings.HasPrefix(v, `\\`) {
			return true
		}
	}
	if len(v) >= 3 && letter[v[0]] && v[1] == ':' && (v[2] == '\\' || v[2] == '/') {
		return true // C:\keys\x.pem
	}
	if allOf(v, '*') || (len(v) >= 3 && (allOf(v, 'x') || allOf(v, 'X'))) || v == "-" {
		return true // masks, stdin
	}
	for _, p := range []string{"file:", "env:", "fd:", "process.env.", "os.environ", "os.getenv", "getenv(",
		"env(", "ENV[", "ENV.fetch", "System.getenv", "secrets.", "vars.", "id=", "src=", "type="} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	for _, w := range []string{"true", "false", "null", "nil", "none", "undefined", "yes", "no", "on", "off",
		"required", "optional", "enabled", "disabled", "prompt", "stdin"} {
		if eqFold(v, w) {
			return true
		}
	}
	if dot := strings.LastIndexByte(v, '.'); dot > 0 {
		ext := v[dot+1:]
		for _, x := range []string{"json", "yaml", "yml", "txt", "pem", "key", "crt", "cer", "p12", "pfx", "jks",
			"keystore", "env", "ini", "conf", "cfg", "toml", "properties", "gpg", "asc", "kdbx", "pub", "der", "csr"} {
			if eqFold(ext, x) {
				return true
			}
		}
	}
	return false
}
