package decisionmodel

import (
	"fmt"
	"testing"
	"time"
)

func BenchmarkParseReply(b *testing.B) {
	plain := scoresJSON(0.12, 0.05, 0.8, 0.02, 0.4)
	fenced := "```json\n" + plain + "\n```"
	for _, c := range []struct{ name, content string }{{"plain", plain}, {"fenced", fenced}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parseReply(c.content); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCacheGet measures a hit in a cache directory filled to the
// default entry cap.
func BenchmarkCacheGet(b *testing.B) {
	dir := b.TempDir()
	c := fileCache{now: time.Now, ttl: DefaultCacheTTL, maxEntries: DefaultCacheEntries, maxBytes: DefaultCacheBytes}
	var a Answer
	for d := range numDimensions {
		a[d] = Score{Score: 0.5, Why: "a short explanation of about this length"}
	}
	for i := range DefaultCacheEntries {
		if err := c.put(dir, fmt.Sprintf("%064d", i), a); err != nil {
			b.Fatal(err)
		}
	}
	key := fmt.Sprintf("%064d", DefaultCacheEntries-1)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := c.get(dir, key); !ok {
			b.Fatal("miss")
		}
	}
}

// BenchmarkCacheKey measures hashing one request for the cache.
func BenchmarkCacheKey(b *testing.B) {
	s := &settings{rawURL: "https://api.example.com/v1/chat/completions", model: "m", strictness: 1}
	req, _ := buildRequest(s, shellCall("git push --force origin main", nil, ""))
	b.ReportAllocs()
	for b.Loop() {
		cacheKey(s, req, transportKey(s, transportDeps{getenv: noEnv}))
	}
}
