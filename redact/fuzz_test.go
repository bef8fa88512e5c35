package redact

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// oracle holds independent regular expressions for the most distinctive
// key shapes (each a subset of what the scanners accept); no match may be
// left in String's output.
var oracle = []*regexp.Regexp{
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(gh[pousr]_[A-Za-z0-9]{36})(?:[^A-Za-z0-9]|$)`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(github_pat_[A-Za-z0-9_]{40,})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])((?:AKIA|ASIA)[A-Z0-9]{16})(?:[^A-Za-z0-9]|$)`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(glpat-[A-Za-z0-9_-]{20,})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(xox[bp]-[A-Za-z0-9-]{10,})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(AIza[A-Za-z0-9_-]{35})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(sk_live_[A-Za-z0-9]{24,})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(npm_[A-Za-z0-9]{36})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(sk-ant-[A-Za-z0-9_-]{20,})`),
	regexp.MustCompile(`(?:^|[^A-Za-z0-9])(sk-[A-Z][A-Za-z0-9]{40,})`),
	regexp.MustCompile(`-----BEGIN [A-Z ]{0,40}PRIVATE KEY[A-Z ]{0,10}-----`),
}

var markerRE = regexp.MustCompile(`\[REDACTED:([A-Za-z0-9_.-]{1,40})\]`)

// markerCounts counts the markers of each kind in s.
func markerCounts(s string) map[string]int {
	m := map[string]int{}
	for _, sm := range markerRE.FindAllStringSubmatch(s, -1) {
		m[sm[1]]++
	}
	return m
}

// FuzzString: no input breaks redaction (a failure would show as the
// failure marker), the output is stable, holds no oracle match, stays valid
// UTF-8 when the input was, and Kinds names exactly the markers String
// added.
func FuzzString(f *testing.F) {
	c := loadCorpus(f)
	for _, tc := range c.Secret {
		f.Add(tc.In)
	}
	for _, tc := range c.Clean {
		f.Add(tc.In)
	}
	for _, s := range []string{"", "[REDACTED:", "[REDACTED:x]", "password=", "-----BEGIN PRIVATE KEY-----",
		"https://:@", "${X:-", "echo x | sudo -S", "mysql -p", "\"password\":\"", "Authorization: ", "Bearer "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := String(in)
		if out == failed && in != failed {
			t.Fatalf("redaction failed on %q", in)
		}
		if again := String(out); again != out {
			t.Fatalf("not stable:\n in: %q\nout: %q\nagain: %q", in, out, again)
		}
		for _, re := range oracle {
			if m := re.FindString(out); m != "" {
				t.Fatalf("secret %q left in output:\n in: %q\nout: %q", m, in, out)
			}
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("valid input gave invalid output:\n in: %q\nout: %q", in, out)
		}
		kinds := Kinds(in)
		if (kinds == nil) != (out == in) {
			t.Fatalf("Kinds %q disagrees with String (changed: %v) for %q", kinds, out != in, in)
		}
		if !slices.IsSorted(kinds) || len(slices.Compact(slices.Clone(kinds))) != len(kinds) {
			t.Fatalf("Kinds %q not sorted and distinct", kinds)
		}
		before, after := markerCounts(in), markerCounts(out)
		var added []string
		for k, n := range after {
			if n > before[k] {
				added = append(added, k)
			}
			if n < before[k] {
				t.Fatalf("marker %q lost:\n in: %q\nout: %q", k, in, out)
			}
		}
		slices.Sort(added)
		if !slices.Equal(added, kinds) && !(len(added) == 0 && len(kinds) == 0) {
			t.Fatalf("Kinds %q, markers added %q:\n in: %q\nout: %q", kinds, added, in, out)
		}
		if out != in && !strings.Contains(out, markerPrefix) {
			t.Fatalf("changed without a marker: %q -> %q", in, out)
		}
	})
}
