// Package redact removes secrets from text before it leaves the machine (the
// decision-model request) or is written to disk (the decision log). Every
// outbound or logged string goes through String.
//
// A secret is replaced by a marker that names its kind, "[REDACTED:<kind>]",
// and the text around it stays, so a reader still sees what was done:
//
//	curl -H 'Authorization: Bearer [REDACTED:bearer-token]' https://api.example.com
//	git clone https://oauth2:[REDACTED:gitlab-token]@gitlab.com/team/app.git
//	mysql -u root -p[REDACTED:password] shop
//
// What is recognised:
//
//   - provider keys by their shape: OpenAI, Anthropic, GitHub, GitLab, AWS
//     access key ids, Slack tokens and webhooks, Discord webhooks, Telegram
//     bot tokens, Google API keys and OAuth tokens, Stripe, npm, Hugging
//     Face, PyPI, SendGrid, Vault, DigitalOcean, age secret keys; JWTs; PEM
//     private key blocks (also with escaped "\n" line ends and cut short);
//   - Authorization and Cookie header values (the scheme is kept) and a bare
//     "Bearer <token>";
//   - the value of a key whose name says secret (password, passwd, pwd, pass,
//     token, secret, api_key, private_key, credential, auth, cookie,
//     signature ...) after "=", ":" or as a "--flag value", in JSON, env
//     assignments, URL queries, headers, ini and YAML; keys that only describe
//     a secret are left alone (--password-file, token_type, max_tokens,
//     *_url, *_id);
//   - the password (or a token used as the user) in URL userinfo, .netrc
//     password entries, openssl "pass:" values;
//   - once a value is known to be secret, its other occurrences in the same
//     text (8 bytes or more, not a plain word).
//
// The -p rule: a short password flag is redacted only for tools known to
// take a password there, because "-p" means port, parents or pager
// elsewhere. mysql, mariadb and mysqldump only with the value glued on
// ("-pSecret"; "mysql -p db" prompts and db is the database); sshpass -p
// (scanning stops at the wrapped command, so a later "ssh -p 2222" stays);
// docker, podman, helm, nerdctl, az, oc and cf "login -p"; the mongo tools
// -p; redis-cli -a; sqlcmd and bcp -P; the ldap tools -w; zip and unzip -P;
// 7z and rar -p glued; ssh-keygen -N and -P; plink -pw; openssl -k; curl
// -u user:pass (only the password); httpie -a; smbclient -U user%pass;
// htpasswd -b; gh secret set -b; az keyvault secret set --value; and the
// piped password of "echo pw | sudo -S" (also chpasswd, docker login
// --password-stdin, gh auth login --with-token). "mkdir -p", "ssh -p",
// "psql -p", "docker run -p" and "git -p" are never touched.
//
// Values that only point at a secret are kept: $VAR, ${...}, $(...), %VAR%,
// $env:X, paths and file names, true/false/null. Ordinary text is kept too:
// git commit hashes, UUIDs, version numbers, short base64, image digests.
//
// Cost: one pass over the text finds every rule's trigger words; a rule does
// work only where its trigger occurs, and the common rules are hand-written
// scanners rather than regular expressions. Text without a secret is
// returned as is, without allocating.
package redact

import (
	"slices"
	"strings"
)

// markerPrefix starts every marker; markers are never detected as secrets.
const markerPrefix = "[REDACTED:"

// failed is what String returns when redaction itself went wrong (a panic,
// or text that does not settle): nothing of the input is let through.
const failed = markerPrefix + kindFailed + "]"

const kindFailed = "redaction-failed"

// maxPasses bounds the rescans: a replacement can reveal a secret the first
// pass could not see (its context was another secret), so String scans its
// own output until nothing more is found.
const maxPasses = 8

// String returns s with every secret it recognises replaced by a marker that
// keeps the kind, e.g. "[REDACTED:github-token]". Text without a secret is
// returned unchanged (the same string, no copy). The result is stable:
// String(String(s)) == String(s). If redaction fails internally the whole
// text becomes "[REDACTED:redaction-failed]"; String never panics.
func String(s string) string {
	out, _ := redact(s, false)
	return out
}

// Kinds returns the sorted, distinct kinds of the secrets String would
// replace in s (the names inside the markers it adds), or nil when s holds
// none. It costs as much as String.
func Kinds(s string) []string {
	_, kinds := redact(s, true)
	return kinds
}

// passHook, when set (by tests only), runs before every pass.
var passHook func(s string)

// redact runs passes until the text is stable, collecting kinds if asked.
func redact(s string, wantKinds bool) (out string, kinds []string) {
	defer func() {
		if recover() != nil {
			out, kinds = failed, []string{kindFailed}
		}
	}()
	out = s
	for range maxPasses {
		if passHook != nil {
			passHook(out)
		}
		next, found := redactOnce(out, wantKinds, &kinds)
		if !found {
			if wantKinds && len(kinds) > 0 {
				slices.Sort(kinds)
				kinds = slices.Compact(kinds)
			}
			return out, kinds
		}
		out = next
	}
	return failed, []string{kindFailed}
}

// redactOnce finds the secrets of one pass and replaces them; found reports
// whether there were any.
func redactOnce(s string, wantKinds bool, kinds *[]string) (out string, found bool) {
	sc := scanner{s: s}
	sc.run()
	if len(sc.spans) == 0 {
		return s, false
	}
	sc.addRepeats()
	spans := merge(sc.spans)
	var b strings.Builder
	b.Grow(len(s) + 24*len(spans))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		b.WriteString(markerPrefix)
		b.WriteString(sp.kind)
		b.WriteByte(']')
		last = sp.end
		if wantKinds {
			*kinds = append(*kinds, sp.kind)
		}
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// span is a byte range [start, end) of the text to replace with a marker of
// kind. Where spans overlap, the union is replaced and the kind of the most
// specific rule (highest prio) wins.
type span struct {
	start, end int
	kind       string
	prio       uint8
}

// Rule priorities, from least to most specific.
const (
	prioKeyValue = 1 // key=value pairs, .netrc, repeated values
	prioContext  = 2 // URL userinfo, headers, tool flags
	prioShape    = 3 // provider key shapes, JWTs, PEM blocks
)

// merge sorts spans and joins the overlapping ones.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.start < last.end {
			if sp.end > last.end {
				last.end = sp.end
			}
			if sp.prio > last.prio {
				last.kind, last.prio = sp.kind, sp.prio
			}
			continue
		}
		out = append(out, sp)
	}
	return out
}

// markerLen returns the length of the marker starting at s[i], or 0 when
// there is none. A marker is "[REDACTED:" + 1..40 of [A-Za-z0-9_.-] + "]".
func markerLen(s string, i int) int {
	if !strings.HasPrefix(s[i:], markerPrefix) {
		return 0
	}
	j := i + len(markerPrefix)
	k := j
	for k < len(s) && k-j <= 40 && kindChar[s[k]] {
		k++
	}
	if k == j || k-j > 40 || k >= len(s) || s[k] != ']' {
		return 0
	}
	return k + 1 - i
}

// findMarkers returns the [start, end) ranges of the markers in s, in order.
func findMarkers(s string) [][2]int {
	var out [][2]int
	for off := 0; ; {
		j := strings.Index(s[off:], markerPrefix)
		if j < 0 {
			return out
		}
		j += off
		if n := markerLen(s, j); n > 0 {
			out = append(out, [2]int{j, j + n})
			off = j + n
		} else {
			off = j + 1
		}
	}
}

var kindChar = byteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
