package redact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// Property tests: generated secrets of every known shape, put in many
// contexts with random text around them, never survive; markers in any
// context are never taken for secrets.

const (
	alnumChars  = lowers + uppers + digits
	b64urlChars = alnumChars + "_-"
	hexChars    = "0123456789abcdef"
)

func randFrom(r *rand.Rand, chars string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	return string(b)
}

// shapes generates a key of each provider shape.
var shapes = []struct {
	kind string
	gen  func(r *rand.Rand) string
}{
	{"openai-key", func(r *rand.Rand) string { return "sk-" + randFrom(r, uppers, 1) + randFrom(r, alnumChars, 47) }},
	{"openai-key", func(r *rand.Rand) string { return "sk-proj-" + randFrom(r, b64urlChars, 100) }},
	{"anthropic-key", func(r *rand.Rand) string { return "sk-ant-api03-" + randFrom(r, b64urlChars, 90) }},
	{"github-token", func(r *rand.Rand) string { return "gh" + randFrom(r, "pousr", 1) + "_" + randFrom(r, alnumChars, 36) }},
	{"github-token", func(r *rand.Rand) string {
		return "github_pat_" + randFrom(r, alnumChars, 22) + "_" + randFrom(r, alnumChars, 59)
	}},
	{"gitlab-token", func(r *rand.Rand) string { return "glpat-" + randFrom(r, b64urlChars, 20) }},
	{"aws-access-key", func(r *rand.Rand) string {
		return []string{"AKIA", "ASIA"}[r.IntN(2)] + randFrom(r, uppers+digits, 16)
	}},
	{"slack-token", func(r *rand.Rand) string {
		return "xox" + randFrom(r, "abp", 1) + "-" + randFrom(r, digits, 12) + "-" + randFrom(r, digits, 13) + "-" + randFrom(r, alnumChars, 24)
	}},
	{"google-api-key", func(r *rand.Rand) string { return "AIza" + randFrom(r, b64urlChars, 35) }},
	{"google-oauth-token", func(r *rand.Rand) string { return "ya29." + randFrom(r, b64urlChars, 120) }},
	{"stripe-key", func(r *rand.Rand) string {
		return []string{"sk_live_", "sk_test_", "rk_live_", "pk_live_"}[r.IntN(4)] + randFrom(r, alnumChars, 24)
	}},
	{"npm-token", func(r *rand.Rand) string { return "npm_" + randFrom(r, alnumChars, 36) }},
	{"huggingface-token", func(r *rand.Rand) string { return "hf_" + randFrom(r, lowers+uppers, 34) }},
	{"pypi-token", func(r *rand.Rand) string { return "pypi-AgEIcHlwaS5vcmc" + randFrom(r, b64urlChars, 60) }},
	{"sendgrid-key", func(r *rand.Rand) string {
		return "SG." + randFrom(r, b64urlChars, 22) + "." + randFrom(r, b64urlChars, 43)
	}},
	{"vault-token", func(r *rand.Rand) string { return "hvs." + randFrom(r, b64urlChars, 90) }},
	{"digitalocean-token", func(r *rand.Rand) string { return "dop_v1_" + randFrom(r, hexChars, 64) }},
	{"age-secret-key", func(r *rand.Rand) string { return "AGE-SECRET-KEY-1" + randFrom(r, uppers+digits, 58) }},
	{"jwt", func(r *rand.Rand) string {
		return "eyJ" + randFrom(r, b64urlChars, 30) + ".eyJ" + randFrom(r, b64urlChars, 60) + "." + randFrom(r, b64urlChars, 43)
	}},
}

// contexts are places a key shows up in commands, configs and logs.
var contexts = []string{
	"%s",
	"echo %s",
	"export TOKEN=%s",
	"export DB_PASSWORD='%s'",
	`curl -H "Authorization: Bearer %s" https://api.example.com`,
	`curl -H 'X-Api-Key: %s' https://api.example.com`,
	`{"key": "%s"}`,
	`{\"token\":\"%s\"}`,
	"git clone https://%s@github.com/org/repo.git",
	"git clone https://x-access-token:%s@github.com/org/repo.git",
	"'%s'", `"%s"`, "(%s)", "[%s]", "<%s>", "%s,", "%s;", "%s.",
	"key=%s&page=2",
	"--token=%s --verbose",
	"--api-key %s",
	"sshpass -p %s ssh -p 2222 host",
	"echo %s | docker login --password-stdin",
	"password: %s",
	"\n%s\n",
	"\t%s\t",
	"# %s",
	"$(%s)",
	"%s %s",
}

// cleanWords is text around secrets: nothing in it is a secret, and no
// word opens a quote or a value that would swallow what follows.
var cleanWords = []string{
	"build", "src/main.go", "--verbose", "-n", "2222", "&&", "||", ";", "|", "界", "é", "ñandú",
	"x.y", "v1.2.3", "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3", "123e4567-e89b-12d3-a456-426614174000",
	"mkdir", "ssh", "docker", "run", "git", "log", "#", "=", ":", "{", "}", "(", ")", "~/x", "/tmp/y",
	"max_tokens", "token_type", "sk-2024-fix", "ok", "\n", "\t", "😀",
}

func surroundings(r *rand.Rand) string {
	n := r.IntN(6)
	words := make([]string, n)
	for i := range words {
		words[i] = cleanWords[r.IntN(len(cleanWords))]
	}
	return strings.Join(words, " ")
}

// TestShapesNeverSurvive: every generated key, in every context, with
// random text around it, is gone from the output, and its kind is
// reported (unless a more specific neighbour took the span).
func TestShapesNeverSurvive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 0
	for _, sh := range shapes {
		for _, ctx := range contexts {
			for range 20 {
				key := sh.gen(r)
				body := strings.ReplaceAll(ctx, "%s", key)
				in := surroundings(r) + " " + body + " " + surroundings(r)
				out := String(in)
				n++
				if strings.Contains(out, key) {
					t.Fatalf("%s survived in context %q:\n in: %q\nout: %q", sh.kind, ctx, in, out)
				}
				if !strings.Contains(out, markerPrefix+sh.kind+"]") {
					t.Errorf("%s: no %s marker:\n in: %q\nout: %q", sh.kind, sh.kind, in, out)
				}
				if String(out) != out || !utf8.ValidString(out) {
					t.Fatalf("unstable or invalid output for %q: %q", in, out)
				}
			}
		}
	}
	t.Logf("%d generated inputs", n)
}

// TestPrivateKeyBlocksNeverSurvive: PEM private keys of every type, with
// real or escaped line ends, whole or cut short.
func TestPrivateKeyBlocksNeverSurvive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, label := range []string{"RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"} {
		for _, nl := range []string{"\n", `\n`, "\r\n"} {
			for _, cut := range []bool{false, true} {
				for range 10 {
					var lines []string
					for range 1 + r.IntN(8) {
						lines = append(lines, randFrom(r, alnumChars+"+/", 64))
					}
					block := "-----BEGIN " + label + "-----" + nl + strings.Join(lines, nl) + nl + "-----END " + label + "-----"
					if cut {
						block = block[:len(block)-len(label)-20]
					}
					in := surroundings(r) + ` echo "` + block + `" > key ` + surroundings(r)
					out := String(in)
					for _, l := range lines {
						if strings.Contains(out, l[:16]) {
							t.Fatalf("key material survived:\n in: %q\nout: %q", in, out)
						}
					}
					if !strings.Contains(out, "[REDACTED:private-key]") || String(out) != out {
						t.Fatalf("bad output for %q: %q", in, out)
					}
				}
			}
		}
	}
}

// markerContexts put a marker where a secret would be.
var markerContexts = []string{
	"%s", "password=%s", "token: %s", `{"api_key": "%s"}`, "Bearer %s", "Authorization: Basic %s\n",
	"Cookie: %s\n", "https://bob:%s@example.com/r.git", "https://%s@github.com/o/r", "mysql -u root -p%s shop",
	"sshpass -p %s ssh host", "docker login -u u -p %s reg", "echo %s | sudo -S true", "curl -u bob:%s x",
	"--password %s", "--token=%s", "export GITHUB_TOKEN=%s", "machine h login u password %s",
	"aws configure set aws_secret_access_key %s", "pass:%s", "${TOKEN:-%s}", "-----BEGIN X-----%s",
	"%s%s", "x-api-key: %s", "PRIVATE-TOKEN: %s\n",
}

// TestMarkersAreNotSecrets: text whose secrets are already markers comes
// back unchanged.
func TestMarkersAreNotSecrets(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	kinds := []string{"password", "token", "secret", "api-key", "github-token", "url-password", "private-key",
		"bearer-token", "header", "query", "redaction-failed", "x", "a.b_c-9"}
	for _, ctx := range markerContexts {
		for range 30 {
			m := markerPrefix + kinds[r.IntN(len(kinds))] + "]"
			in := surroundings(r) + " " + strings.ReplaceAll(ctx, "%s", m) + " " + surroundings(r)
			if out := String(in); out != in {
				t.Errorf("marker text changed:\n in: %q\nout: %q", in, out)
			}
			if k := Kinds(in); k != nil {
				t.Errorf("Kinds(%q) = %q, want nil", in, k)
			}
		}
	}
}

// TestCleanWordsStayClean: random text from the clean vocabulary is never
// changed (no rule fires on ordinary command words).
func TestCleanWordsStayClean(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		in := surroundings(r) + " " + surroundings(r)
		if out := String(in); out != in {
			t.Fatalf("clean text changed:\n in: %q\nout: %q", in, out)
		}
	}
}

// TestCombinedCorpusIsStable: corpus inputs joined together (in one log
// line, one heredoc) stay stable, valid UTF-8, and every secret of the
// parts is still gone.
func TestCombinedCorpusIsStable(t *testing.T) {
	c := loadCorpus(t)
	all := append(append([]corpusCase{}, c.Secret...), c.Clean...)
	r := rand.New(rand.NewPCG(9, 10))
	seps := []string{" ", "\n", " && ", "; ", " | ", "\t"}
	for range 3000 {
		a, b := all[r.IntN(len(all))], all[r.IntN(len(all))]
		in := a.In + seps[r.IntN(len(seps))] + b.In
		out := String(in)
		if String(out) != out {
			t.Fatalf("unstable: %q -> %q -> %q", in, out, String(out))
		}
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 from %q", in)
		}
	}
}

// TestPanicBecomesFailureMarker: a failure inside redaction hides the whole
// text instead of leaking it, and Kinds says so.
func TestPanicBecomesFailureMarker(t *testing.T) {
	passHook = func(string) { panic("boom") }
	defer func() { passHook = nil }()
	const in = "export TOKEN=ghp_" + "0123456789abcdefghij0123456789abcdef"
	if got := String(in); got != "[REDACTED:redaction-failed]" {
		t.Errorf("String = %q, want the failure marker", got)
	}
	if got := Kinds(in); fmt.Sprint(got) != "[redaction-failed]" {
		t.Errorf("Kinds = %q", got)
	}
}
