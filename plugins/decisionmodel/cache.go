package decisionmodel

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// transportKey describes how the request for s reaches its server: the
// proxy it is sent through (the explicit setting, else the environment's
// HTTP(S)_PROXY / NO_PROXY as net/http resolves them for this endpoint,
// loopback direct), and the CA roots that verify the server (an injected
// pool, else the system pool with SSL_CERT_FILE / SSL_CERT_DIR). Cost: one
// proxy resolution; a custom pool's subjects are hashed.
func transportKey(s *settings, deps transportDeps) string {
	getenv := deps.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var b strings.Builder
	b.WriteString("proxy=")
	if s.endpoint != nil {
		u, err := proxyFunc(s.proxy, getenv)(&http.Request{URL: s.endpoint})
		switch {
		case err != nil:
			b.WriteString("error:" + err.Error())
		case u == nil:
			b.WriteString("direct")
		default:
			b.WriteString(u.String())
		}
	}
	b.WriteString(" ca=")
	if deps.rootCAs != nil {
		h := sha256.New()
		for _, subj := range deps.rootCAs.Subjects() { //nolint:staticcheck // a custom pool's subjects are its own
			io.WriteString(h, strconv.Itoa(len(subj))+":")
			h.Write(subj)
		}
		b.WriteString("custom:" + hex.EncodeToString(h.Sum(nil)))
	} else {
		b.WriteString("system file=" + getenv("SSL_CERT_FILE") + " dir=" + getenv("SSL_CERT_DIR"))
	}
	return b.String()
}

// Cache defaults.
const (
	// CacheDirName is the cache's directory under the data dir.
	CacheDirName = "model-cache"
	// DefaultCacheTTL is how long an answer stays valid.
	DefaultCacheTTL = 24 * time.Hour
	// DefaultCacheEntries and DefaultCacheBytes cap the cache; past either,
	// the oldest entries are pruned to 90 % of the cap.
	DefaultCacheEntries = 2000
	DefaultCacheBytes   = 4 << 20

	cacheVersion    = 2
	maxEntryBytes   = 16 << 10
	staleTempAge    = time.Minute
	futureTolerance = 5 * time.Minute
	tempPrefix      = ".tmp-"
	entrySuffix     = ".json"
)

// fileCache stores validated answers, one file per key. Every write is a
// temp file renamed into place, so concurrent hook processes never see a
// half-written entry; a torn, foreign or corrupt entry reads as a miss.
// Errors are never fatal: the cache is an optimisation.
type fileCache struct {
	now        func() time.Time
	ttl        time.Duration
	maxEntries int
	maxBytes   int64
}

// cacheEntry is the file format. Answer has the reply shape and is
// re-validated with parseReply on every read.
type cacheEntry struct {
	Version int             `json:"v"`
	Key     string          `json:"key"`
	Created int64           `json:"created_unix_ms"`
	Answer  json.RawMessage `json:"answer"`
}

// cacheKey hashes everything that shaped the answer: endpoint, model,
// strictness, the user prompt and the policy's version, the extra headers,
// the transport (transportKey: the proxy the request goes through, as
// resolved for the endpoint from the setting or the environment, and the
// CA settings that verified the server) and the redacted request body
// (which holds the policy and the call facts). An answer obtained through
// one transport is never served to another: a proxy the agent sets (or a
// CA it adds) gets its own entries. The key names a file and never reveals
// any of them.
func cacheKey(s *settings, req openai.ChatCompletionRequest, transport string) string {
	h := sha256.New()
	field := func(v string) {
		io.WriteString(h, strconv.Itoa(len(v)))
		io.WriteString(h, ":")
		io.WriteString(h, v)
	}
	field("zcode-fence decisionmodel cache v" + strconv.Itoa(cacheVersion))
	field("policy v" + strconv.Itoa(policyVersion))
	field(transport)
	field(s.rawURL)
	field(s.model)
	field(strconv.Itoa(s.strictness))
	field(s.prompt)
	names := make([]string, 0, len(s.headers))
	for name := range s.headers {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		field(name + ": " + strings.Join(s.headers[name], ", "))
	}
	body, _ := json.Marshal(req) // plain data: cannot fail
	field(string(body))
	return hex.EncodeToString(h.Sum(nil))
}

// get returns the answer stored under key, if it is present, intact, of
// this key and younger than the TTL. Cost: one small file read and parse.
func (c *fileCache) get(dir, key string) (Answer, bool) {
	f, err := os.Open(filepath.Join(dir, key+entrySuffix))
	if err != nil {
		return Answer{}, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEntryBytes+1))
	if err != nil || len(data) > maxEntryBytes {
		return Answer{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Version != cacheVersion || e.Key != key {
		return Answer{}, false
	}
	created := time.UnixMilli(e.Created)
	now := c.now()
	if now.Sub(created) >= c.ttl || created.Sub(now) > futureTolerance {
		return Answer{}, false
	}
	a, err := parseReply(string(e.Answer))
	if err != nil {
		return Answer{}, false
	}
	return a, true
}

// put stores a under key atomically, then prunes the directory.
func (c *fileCache) put(dir, key string, a Answer) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	now := c.now()
	data, err := json.Marshal(cacheEntry{Version: cacheVersion, Key: key, Created: now.UnixMilli(), Answer: answerJSON(a)})
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		if werr != nil {
			return werr
		}
		return cerr
	}
	// The file time is the entry's age for pruning, on the same clock as TTL.
	_ = os.Chtimes(tmp.Name(), now, now)
	if err := os.Rename(tmp.Name(), filepath.Join(dir, key+entrySuffix)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	c.prune(dir, now)
	return nil
}

// prune removes expired entries and stale temp files, then the oldest
// entries while the directory is over a cap (down to 90 % of it). Files
// another process removed first are simply skipped. Cost: one directory
// listing and one stat per entry (a few ms at the 2000-entry cap); it runs
// only after a model round trip.
func (c *fileCache) prune(dir string, now time.Time) {
	list, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
		size int64
	}
	var files []file
	var total int64
	for _, de := range list {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		name := de.Name()
		path := filepath.Join(dir, name)
		switch {
		case strings.HasPrefix(name, tempPrefix):
			if now.Sub(info.ModTime()) > staleTempAge {
				os.Remove(path)
			}
		case strings.HasSuffix(name, entrySuffix):
			if now.Sub(info.ModTime()) >= c.ttl {
				os.Remove(path)
				continue
			}
			files = append(files, file{name, info.ModTime(), info.Size()})
			total += info.Size()
		}
	}
	if len(files) <= c.maxEntries && total <= c.maxBytes {
		return
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.Before(files[j].mod) })
	keepEntries, keepBytes := c.maxEntries*9/10, c.maxBytes*9/10
	count := len(files)
	for _, f := range files {
		if count <= keepEntries && total <= keepBytes {
			break
		}
		os.Remove(filepath.Join(dir, f.name))
		count--
		total -= f.size
	}
}

// answerJSON renders a in the reply shape.
func answerJSON(a Answer) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for d := range numDimensions {
		if d > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(d.String())
		score, _ := json.Marshal(a[d])
		b.Write(name)
		b.WriteByte(':')
		b.Write(score)
	}
	b.WriteByte('}')
	return b.Bytes()
}
