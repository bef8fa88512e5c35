package redact

import (
	"strings"
	"testing"
)

// benchCommand is a realistic 200-byte command without a secret.
const benchCommand = `cd /home/dev/projects/shop && git fetch origin main && git rebase origin/main && ` +
	`go test ./internal/... -run TestCheckout -count=1 && docker compose -p shop up -d --build web ` +
	`&& curl -fsS http://localhost:8080/healthz`

// benchTokenCommand is the same size with one token in a header.
const benchTokenCommand = `cd /home/dev/projects/shop && curl -fsS -H "Authorization: Bearer ` +
	`ghp_EXAMPLEexample0123456789EXAMPLEab" https://api.github.com/repos/acme/shop/pulls ` +
	`&& go test ./internal/... -run TestCheckout -count=1 && git push origin main`

// benchText builds about 100 KiB of log-like text: corpus inputs, mostly
// clean, some with secrets.
func benchText(b *testing.B) string {
	c := loadCorpus(b)
	var sb strings.Builder
	for i := 0; sb.Len() < 100<<10; i++ {
		sb.WriteString(c.Clean[i%len(c.Clean)].In)
		sb.WriteByte('\n')
		if i%5 == 0 {
			sb.WriteString(c.Secret[(i/5)%len(c.Secret)].In)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

func benchString(b *testing.B, s string) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		String(s)
	}
}

// BenchmarkStringClean: the common case, a command without a secret.
func BenchmarkStringClean(b *testing.B) { benchString(b, benchCommand) }

// BenchmarkStringToken: a command of the same size with one token.
func BenchmarkStringToken(b *testing.B) { benchString(b, benchTokenCommand) }

// BenchmarkStringCorpus: every corpus input once per iteration.
func BenchmarkStringCorpus(b *testing.B) {
	c := loadCorpus(b)
	all := append(append([]corpusCase{}, c.Secret...), c.Clean...)
	b.ReportAllocs()
	for b.Loop() {
		for _, tc := range all {
			String(tc.In)
		}
	}
}

// BenchmarkString100KiB: a large log-like text.
func BenchmarkString100KiB(b *testing.B) { benchString(b, benchText(b)) }

// BenchmarkStringPathological: 100 KiB of one trigger repeated, each unit
// built so that a naive scanner would rescan the rest of the text from
// every trigger. The cost must stay near the linear cases above.
func BenchmarkStringPathological(b *testing.B) {
	units := map[string]string{
		"sk-":         "sk-",
		"quote":       `password="`,
		"cookie":      "Cookie: a ",
		"mysql":       "mysql ",
		"scheme":      "a://",
		"pem":         "-----BEGIN PRIVATE KEY-----",
		"jwt":         "eyJhbGciOiJIUzI1NiJ9.",
		"bearer":      "Bearer ",
		"sudo":        "echo x | sudo -S ",
		"param":       "${TOKEN:-",
		"keychars":    "token_key_pass_",
		"setcontext":  "set a.token ",
		"dollarparen": "$(",
		"markers":     "[REDACTED:x] password=abc12345 ",
		"sudonest":    "sudo $(",
		"docker":      "docker ",
		"sudoquote":   "sudo 'a ",
		"base64":      "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw+/",
	}
	for name, unit := range units {
		s := strings.Repeat(unit, (100<<10)/len(unit))
		b.Run(name, func(b *testing.B) { benchString(b, s) })
	}
}

// BenchmarkStringLongLine: 100 KiB of trigger-dense text (key names,
// schemes, tool words) without a secret: the worst ordinary case.
func BenchmarkStringLongLine(b *testing.B) {
	unit := "token_type=bearer max_tokens=10 --password-file /run/pw mysql -p db ssh -p 22 https://github.com/o/r key.txt "
	benchString(b, strings.Repeat(unit, (100<<10)/len(unit)))
}
