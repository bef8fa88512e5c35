// Package redact removes secrets from text before it leaves the machine (the
// decision-model request) or is written to disk (the decision log). Every
// outbound or logged string goes through String.
package redact

import "regexp"

// placeholder patterns until the full corpus-tested set lands.
var basic = []struct {
	kind string
	re   *regexp.Regexp
}{
	{"openai-key", regexp.MustCompile(`sk-[A-Za-z0-9_-]{20,}`)},
	{"github-token", regexp.MustCompile(`gh[pousr]_[A-Za-z0-9]{20,}`)},
	{"aws-access-key", regexp.MustCompile(`AKIA[0-9A-Z]{16}`)},
}

// String returns s with every secret it recognises replaced by a marker that
// keeps the kind, e.g. "[REDACTED:github-token]".
func String(s string) string {
	for _, p := range basic {
		s = p.re.ReplaceAllString(s, "[REDACTED:"+p.kind+"]")
	}
	return s
}
