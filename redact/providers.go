package redact

import "strings"

// Provider key shapes. Each handler is called at its trigger, checks the
// shape (a boundary before it, the body's characters and length) and adds
// the whole key as one span. Bodies are read as a run of their characters,
// so a key is never cut short by a minimum length.

// maxDecide bounds how much of a key body is inspected to decide whether it
// looks generated (a random key shows a capital letter or mixed classes
// within its first 64 bytes); the whole run is redacted either way. It keeps
// a text of repeated triggers (sk-sk-sk-...) linear.
const maxDecide = 64

// shape adds s[i:end] as kind when the key starts at a boundary; it returns
// where the main loop continues.
func (sc *scanner) shape(i, end int, kind string) int {
	sc.add(i, end, kind, prioShape)
	return end
}

// openAI: sk-... keys. sk-ant- is Anthropic. A plain sk- body must look
// generated: 20+ characters with a capital letter, or 32+ letters and
// digits with no '-' or '_' — so a branch name like sk-2024-fix-login stays.
func (sc *scanner) openAI(i int) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	body := i + 3
	end := sc.runOf(body, &b64url)
	b := s[body:end]
	if strings.HasPrefix(b, "ant-") {
		if end-body-4 >= 20 {
			return sc.shape(i, end, "anthropic-key")
		}
		return i + 1
	}
	for _, p := range []string{"proj-", "svcacct-", "admin-"} {
		if strings.HasPrefix(b, p) && len(b)-len(p) >= 20 {
			return sc.shape(i, end, "openai-key")
		}
	}
	d := b[:min(len(b), maxDecide)]
	if len(b) >= 20 && (hasUpper(d) || (len(b) >= 32 && strings.IndexAny(d, "-_") < 0)) {
		return sc.shape(i, end, "openai-key")
	}
	return i + 1
}

// stripe: sk_live_, sk_test_, rk_live_, rk_test_, pk_live_ and whsec_.
func (sc *scanner) stripe(i int) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	rest := s[i:]
	var p string
	switch {
	case strings.HasPrefix(rest, "sk_live_"), strings.HasPrefix(rest, "sk_test_"),
		strings.HasPrefix(rest, "rk_live_"), strings.HasPrefix(rest, "rk_test_"),
		strings.HasPrefix(rest, "pk_live_"):
		p = rest[:8]
	case strings.HasPrefix(rest, "whsec_"):
		p = "whsec_"
	default:
		return i + 1
	}
	end := sc.runOf(i+len(p), &alnum)
	if end-i-len(p) < 10 {
		return i + 1
	}
	return sc.shape(i, end, "stripe-key")
}

// github: ghp_ gho_ ghu_ ghs_ ghr_ and github_pat_.
func (sc *scanner) github(i int) int {
	s := sc.s
	if !leftBoundary(s, i) || len(s)-i < 4 {
		return i + 1
	}
	if strings.HasPrefix(s[i:], "github_pat_") {
		end := sc.runOf(i+11, &alnumUnder)
		if end-i-11 >= 20 {
			return sc.shape(i, end, "github-token")
		}
		return i + 1
	}
	if !strings.ContainsRune("pousr", rune(s[i+2])) || s[i+3] != '_' {
		return i + 1
	}
	end := sc.runOf(i+4, &alnum)
	if end-i-4 < 20 {
		return i + 1
	}
	return sc.shape(i, end, "github-token")
}

// gitlab: glpat- (personal), glptt- (pipeline trigger), glrt- (runner),
// gldt- (deploy), gloas- (OAuth app secret), glft- (feed), glcbt- (CI job).
func (sc *scanner) gitlab(i int) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	for _, p := range []string{"glpat-", "glptt-", "glrt-", "gldt-", "gloas-", "glft-", "glcbt-"} {
		if strings.HasPrefix(s[i:], p) {
			end := sc.runOf(i+len(p), &b64url)
			if end-i-len(p) >= 20 {
				return sc.shape(i, end, "gitlab-token")
			}
			return i + 1
		}
	}
	return i + 1
}

// upperA: AWS access key ids (AKIA, ASIA, ABIA, ACCA + 16 upper-case letters
// and digits), Google API keys (AIza...) and age secret keys.
func (sc *scanner) upperA(i int) int {
	s := sc.s
	if !leftBoundary(s, i) || len(s)-i < 4 {
		return i + 1
	}
	switch p := s[i : i+4]; p {
	case "AKIA", "ASIA", "ABIA", "ACCA":
		end := sc.runOf(i+4, &upperDigit)
		if end-i == 20 && (end == len(s) || !alnum[s[end]]) {
			return sc.shape(i, end, "aws-access-key")
		}
	case "AIza":
		end := sc.runOf(i+4, &b64url)
		if end-i-4 >= 30 {
			return sc.shape(i, end, "google-api-key")
		}
	case "AGE-":
		if strings.HasPrefix(s[i:], "AGE-SECRET-KEY-1") {
			end := sc.runOf(i+16, &upperDigit)
			if end-i-16 >= 20 {
				return sc.shape(i, end, "age-secret-key")
			}
		}
	}
	return i + 1
}

// slackToken: xoxa- xoxb- xoxe- xoxo- xoxp- xoxr- xoxs- and xapp- tokens.
func (sc *scanner) slackToken(i int) int {
	s := sc.s
	if !leftBoundary(s, i) || len(s)-i < 5 {
		return i + 1
	}
	body := i + 5
	if s[i+1] == 'o' && (!strings.ContainsRune("abeoprs", rune(s[i+3])) || s[i+4] != '-') {
		return i + 1
	}
	end := sc.runOf(body, &b64url)
	if end-body < 10 {
		return i + 1
	}
	return sc.shape(i, end, "slack-token")
}

// googleOAuth: ya29. access tokens.
func (sc *scanner) googleOAuth(i int) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	end := sc.runOf(i+5, &tokenChars)
	if end-i-5 < 20 {
		return i + 1
	}
	return sc.shape(i, end, "google-oauth-token")
}

// npm: npm_ + 36 letters and digits (30 or more taken).
func (sc *scanner) npm(i int) int {
	return sc.prefixed(i, 4, 30, &alnum, "npm-token")
}

// huggingFace: hf_ + 34 letters (30 or more letters and digits taken).
func (sc *scanner) huggingFace(i int) int {
	return sc.prefixed(i, 3, 30, &alnum, "huggingface-token")
}

// prefixed adds a key that is a fixed prefix of plen bytes and a body of at
// least min bytes of set.
func (sc *scanner) prefixed(i, plen, min int, set *[256]bool, kind string) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	end := sc.runOf(i+plen, set)
	if end-i-plen < min {
		return i + 1
	}
	return sc.shape(i, end, kind)
}

// pypi: pypi- + a macaroon (always "AgE..." in practice; anything long and
// mixed is taken too, so a project name like pypi-server stays).
func (sc *scanner) pypi(i int) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	end := sc.runOf(i+5, &b64url)
	b := s[i+5 : end]
	if (strings.HasPrefix(b, "AgE") && len(b) >= 20) || (len(b) >= 32 && mixed(b[:min(len(b), maxDecide)])) {
		return sc.shape(i, end, "pypi-token")
	}
	return i + 1
}

// sendGrid: SG.<16+>.<16+>.
func (sc *scanner) sendGrid(i int) int {
	s := sc.s
	if !leftBoundary(s, i) {
		return i + 1
	}
	a := sc.runOf(i+3, &b64url)
	if a-i-3 < 16 || a >= len(s) || s[a] != '.' {
		return i + 1
	}
	end := sc.runOf(a+1, &b64url)
	if end-a-1 < 16 {
		return i + 1
	}
	return sc.shape(i, end, "sendgrid-key")
}

// vault: hvs. (service), hvb. (batch), hvr. (recovery) tokens.
func (sc *scanner) vault(i int) int {
	s := sc.s
	if !leftBoundary(s, i) || len(s)-i < 4 || s[i+3] != '.' || !strings.ContainsRune("sbr", rune(s[i+2])) {
		return i + 1
	}
	end := sc.runOf(i+4, &b64url)
	if end-i-4 < 24 {
		return i + 1
	}
	return sc.shape(i, end, "vault-token")
}

// digitalOcean: dop_v1_, doo_v1_, dor_v1_ + 64 hex digits (32 or more taken).
func (sc *scanner) digitalOcean(i int) int {
	s := sc.s
	if !leftBoundary(s, i) || len(s)-i < 7 || !strings.ContainsRune("por", rune(s[i+2])) || s[i+3:i+7] != "_v1_" {
		return i + 1
	}
	end := sc.runOf(i+7, &alnum)
	if end-i-7 < 32 {
		return i + 1
	}
	return sc.shape(i, end, "digitalocean-token")
}

// jwt: header.payload.signature in base64url, the header starting "eyJ"
// (the encoding of `{"`); more dot-separated parts (JWE) are taken too.
func (sc *scanner) jwt(i int) int {
	s := sc.s
	if i > 0 && b64url[s[i-1]] {
		return i + 1
	}
	a := sc.runOf(i, &b64url)
	if a-i < 10 || a >= len(s) || s[a] != '.' {
		return i + 1
	}
	b := sc.runOf(a+1, &b64url)
	if b-a-1 < 10 || b >= len(s) || s[b] != '.' {
		return i + 1
	}
	end := sc.runOf(b+1, &b64url)
	for parts := 3; parts < 5 && end < len(s) && s[end] == '.' && end+1 < len(s) && b64url[s[end+1]]; parts++ {
		end = sc.runOf(end+1, &b64url)
	}
	return sc.shape(i, end, "jwt")
}

// pemBody holds what may appear inside a PEM block: base64, line ends (also
// written as "\n"), and the header lines of encrypted keys
// ("Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,...", PGP "Version:").
var pemBody = byteSet(lowers + uppers + digits + "+/=\\:,-._() \t\r\n")

// pemBlock: "-----BEGIN ... PRIVATE KEY-----" up to its END line. A block
// cut short (no END) is redacted up to the first byte that cannot be part of
// it, or the end of the text.
func (sc *scanner) pemBlock(i int) int {
	s := sc.s
	l := i + len("-----BEGIN ")
	j := l
	for j < len(s) && j-l < 64 && (upperDigit[s[j]] || s[j] == ' ') {
		j++
	}
	if !strings.Contains(s[l:j], "PRIVATE KEY") {
		return i + 1
	}
	if !strings.HasPrefix(s[j:], "-----") {
		if j == len(s) {
			return sc.shape(i, j, "private-key") // cut inside the BEGIN line
		}
		return i + 1
	}
	j += 5
	for j < len(s) {
		if s[j] == '-' && strings.HasPrefix(s[j:], "-----END ") {
			k := j + len("-----END ")
			for k < len(s) && k-j < 80 && (upperDigit[s[k]] || s[k] == ' ') {
				k++
			}
			if strings.HasPrefix(s[k:], "-----") {
				k += 5
			}
			return sc.shape(i, min(k, len(s)), "private-key")
		}
		if !pemBody[s[j]] {
			break
		}
		j++
	}
	for j > i && space[s[j-1]] {
		j--
	}
	return sc.shape(i, min(j, len(s)), "private-key")
}

// slackWebhook: https://hooks.slack.com/services/T../B../xxx (also
// workflows/ and triggers/); the path after the section is redacted.
func (sc *scanner) slackWebhook(i int) int {
	s := sc.s
	p := i + len("hooks.slack.com/")
	for _, sec := range []string{"services/", "workflows/", "triggers/"} {
		if strings.HasPrefix(s[p:], sec) {
			a := p + len(sec)
			end := sc.runOf(a, &webhookPath)
			if end-a >= 8 {
				return sc.shape(a, end, "slack-webhook")
			}
		}
	}
	return i + 1
}

// discordWebhook: discord(app).com/api/[v10/]webhooks/<id>/<token>.
func (sc *scanner) discordWebhook(i int) int {
	s := sc.s
	p := i + len("discord")
	if strings.HasPrefix(s[p:], "app") {
		p += 3
	}
	if !strings.HasPrefix(s[p:], ".com/api/") {
		return i + 1
	}
	p += len(".com/api/")
	if p < len(s) && s[p] == 'v' {
		q := sc.runOf(p+1, &digit)
		if q > p+1 && q < len(s) && s[q] == '/' {
			p = q + 1
		}
	}
	if !strings.HasPrefix(s[p:], "webhooks/") {
		return i + 1
	}
	a := p + len("webhooks/")
	end := sc.runOf(a, &webhookPath)
	if end-a < 10 {
		return i + 1
	}
	return sc.shape(a, end, "discord-webhook")
}

// telegramBot: api.telegram.org/bot<id>:<secret>/method; the token after
// "bot" is redacted.
func (sc *scanner) telegramBot(i int) int {
	s := sc.s
	a := i + len("telegram.org/bot")
	d := runOf(s, a, &digit)
	if d-a < 5 || d >= len(s) || s[d] != ':' {
		return i + 1
	}
	end := sc.runOf(d+1, &b64url)
	if end-d-1 < 30 {
		return i + 1
	}
	return sc.shape(a, end, "telegram-token")
}

var (
	webhookPath = byteSet(lowers + uppers + digits + "/_-")
	digit       = byteSet(digits)
)

// hasUpper reports whether b has an upper-case ASCII letter.
func hasUpper(b string) bool {
	for i := 0; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			return true
		}
	}
	return false
}

// mixed reports whether b mixes at least two of lower case, upper case and
// digits, as generated tokens do.
func mixed(b string) bool {
	var lo, up, dg bool
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case 'a' <= c && c <= 'z':
			lo = true
		case 'A' <= c && c <= 'Z':
			up = true
		case '0' <= c && c <= '9':
			dg = true
		}
	}
	n := 0
	for _, x := range []bool{lo, up, dg} {
		if x {
			n++
		}
	}
	return n >= 2
}
