package decisionmodel

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

// fakeClock is a settable clock safe for concurrent use.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Now()} }

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func cacheFiles(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*"+entrySuffix))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// sameDecision compares what the host acts on: decision and reasons, and
// every annotation except cached and latency_ms.
func sameDecision(t *testing.T, a, b core.Verdict) {
	t.Helper()
	if a.Decision != b.Decision || !reflect.DeepEqual(a.Reasons, b.Reasons) {
		t.Errorf("verdicts differ:\n%+v\n%+v", a, b)
	}
	for k, v := range a.Annotations {
		if k == "cached" || k == "latency_ms" {
			continue
		}
		if b.Annotations[k] != v {
			t.Errorf("annotation %s: %q vs %q", k, v, b.Annotations[k])
		}
	}
}

func TestCacheHit(t *testing.T) {
	m := newFakeModel(t)
	m.setContent(scoresJSON(0.95, 0, 0, 0, 0))
	data := t.TempDir()
	l := New(WithRootCAs(m.pool()))
	call := shellCall("dropdb production", m.options(KeyCache, "true"), data)

	first, err := l.Decide(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	second, err := l.Decide(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if m.count() != 1 {
		t.Errorf("server saw %d requests, want 1 (second call cached)", m.count())
	}
	if first.Annotations["cached"] != "false" || second.Annotations["cached"] != "true" {
		t.Errorf("cached annotations %q, %q", first.Annotations["cached"], second.Annotations["cached"])
	}
	if first.Decision != core.Ask {
		t.Fatalf("first verdict %+v", first)
	}
	sameDecision(t, first, second)
	if files := cacheFiles(t, filepath.Join(data, CacheDirName)); len(files) != 1 {
		t.Errorf("cache files %v", files)
	}
	// A fresh Layer (a new hook process) reads the same cache.
	third, err := New(WithRootCAs(m.pool())).Decide(context.Background(), call)
	if err != nil || third.Annotations["cached"] != "true" || m.count() != 1 {
		t.Errorf("new layer: err %v cached %q requests %d", err, third.Annotations["cached"], m.count())
	}
}

// TestCacheKeyParts: endpoint, model, strictness, prompt and the call all
// separate entries; the API key and the language do not.
func TestCacheKeyParts(t *testing.T) {
	m := newFakeModel(t)
	data := t.TempDir()
	l := New(WithRootCAs(m.pool()))
	base := m.options(KeyCache, "1")
	decide := func(command string, extra ...string) {
		t.Helper()
		opts := map[string]string{}
		for k, v := range base {
			opts[k] = v
		}
		for i := 0; i+1 < len(extra); i += 2 {
			opts[extra[i]] = extra[i+1]
		}
		if _, err := l.Decide(context.Background(), shellCall(command, opts, data)); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name    string
		run     func()
		network bool
	}{
		{"first", func() { decide("ls") }, true},
		{"repeat", func() { decide("ls") }, false},
		{"other command", func() { decide("ls -la") }, true},
		{"other strictness", func() { decide("ls", KeyStrictness, "2") }, true},
		{"other model", func() { decide("ls", KeyModel, "other-model") }, true},
		{"other prompt", func() { decide("ls", KeyPrompt, "be strict about docker") }, true},
		{"other endpoint", func() { decide("ls", KeyEndpoint, m.srv.URL+endpointPath) }, true},
		{"other header", func() { decide("ls", KeyHeaders, "X-Route: b") }, true},
		{"other key", func() { decide("ls", KeyAPIKey, "another-key-0000") }, false},
		{"other language", func() { decide("ls", core.LanguageOption, "zh") }, false},
	}
	for _, s := range steps {
		before := m.count()
		s.run()
		if got := m.count() > before; got != s.network {
			t.Errorf("%s: network round trip %v, want %v", s.name, got, s.network)
		}
	}
}

func TestCacheTTL(t *testing.T) {
	m := newFakeModel(t)
	clock := newFakeClock()
	data := t.TempDir()
	l := New(WithRootCAs(m.pool()), WithClock(clock.now))
	call := shellCall("terraform plan", m.options(KeyCache, "true"), data)
	for i, step := range []struct {
		advance time.Duration
		want    int
	}{{0, 1}, {23 * time.Hour, 1}, {59 * time.Minute, 1}, {2 * time.Minute, 2}, {time.Hour, 2}} {
		clock.advance(step.advance)
		if _, err := l.Decide(context.Background(), call); err != nil {
			t.Fatal(err)
		}
		if m.count() != step.want {
			t.Errorf("step %d (+%v): %d requests, want %d", i, step.advance, m.count(), step.want)
		}
	}
}

func TestCacheSkipsFailures(t *testing.T) {
	m := newFakeModel(t)
	data := t.TempDir()
	l := New(WithRootCAs(m.pool()))
	call := shellCall("make release", m.options(KeyCache, "true"), data)

	m.setContent("not json at all")
	if _, err := l.Decide(context.Background(), call); err == nil {
		t.Fatal("bad reply accepted")
	}
	m.setHandler(func(w http.ResponseWriter, _ *http.Request, _ []byte) { w.WriteHeader(http.StatusInternalServerError) })
	if _, err := l.Decide(context.Background(), call); err == nil {
		t.Fatal("HTTP 500 accepted")
	}
	if files := cacheFiles(t, filepath.Join(data, CacheDirName)); len(files) != 0 {
		t.Fatalf("failures were cached: %v", files)
	}
	m.setHandler(nil)
	m.setContent(scoresJSON(0, 0, 0, 0, 0))
	for range 2 {
		if _, err := l.Decide(context.Background(), call); err != nil {
			t.Fatal(err)
		}
	}
	if m.count() != 3 {
		t.Errorf("%d requests, want 3 (two failures, one answer, one hit)", m.count())
	}
}

func TestCacheDisabled(t *testing.T) {
	m := newFakeModel(t)
	data := t.TempDir()
	l := New(WithRootCAs(m.pool()))
	for _, off := range []string{"false", "0", "FALSE"} {
		for range 2 {
			if _, err := l.Decide(context.Background(), shellCall("ls", m.options(KeyCache, off), data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if m.count() != 6 {
		t.Errorf("%d requests with the cache off, want 6", m.count())
	}
	if _, err := os.Stat(filepath.Join(data, CacheDirName)); !os.IsNotExist(err) {
		t.Errorf("cache dir created with the cache off: %v", err)
	}
	// Default (key absent) is on; garbage also means the default.
	for _, opt := range []map[string]string{m.options(KeyCache, "maybe"), withoutKey(m.options(), KeyCache)} {
		before := m.count()
		for range 2 {
			if _, err := l.Decide(context.Background(), shellCall("pwd", opt, data)); err != nil {
				t.Fatal(err)
			}
		}
		if m.count()-before > 1 {
			t.Errorf("cache not on by default: %d requests", m.count()-before)
		}
	}
}

func withoutKey(m map[string]string, key string) map[string]string {
	delete(m, key)
	return m
}

func TestCacheCorruptEntry(t *testing.T) {
	m := newFakeModel(t)
	m.setContent(scoresJSON(0, 0, 0.9, 0, 0))
	data := t.TempDir()
	l := New(WithRootCAs(m.pool()))
	call := shellCall("npm publish", m.options(KeyCache, "true"), data)
	want, err := l.Decide(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	files := cacheFiles(t, filepath.Join(data, CacheDirName))
	if len(files) != 1 {
		t.Fatalf("cache files %v", files)
	}
	original, _ := os.ReadFile(files[0])
	corruptions := []string{
		"",
		"{",
		"garbage",
		strings.Replace(string(original), `"v":2`, `"v":99`, 1),
		strings.Replace(string(original), `"key":"`, `"key":"0`, 1),
		strings.Replace(string(original), `"score":0.9`, `"score":9`, 1),
		strings.Replace(string(original), `"data_loss"`, `"data_gain"`, 1),
		string(original[:len(original)/2]),
	}
	for i, bad := range corruptions {
		if err := os.WriteFile(files[0], []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		before := m.count()
		got, err := l.Decide(context.Background(), call)
		if err != nil {
			t.Fatalf("corruption %d: %v", i, err)
		}
		if m.count() != before+1 || got.Annotations["cached"] != "false" {
			t.Errorf("corruption %d was used as a hit", i)
		}
		sameDecision(t, want, got)
	}
}

func TestCachePruneEntries(t *testing.T) {
	clock := newFakeClock()
	dir := t.TempDir()
	c := fileCache{now: clock.now, ttl: DefaultCacheTTL, maxEntries: 10, maxBytes: DefaultCacheBytes}
	var a Answer
	for i := range 25 {
		clock.advance(time.Second)
		if err := c.put(dir, fmt.Sprintf("%064d", i), a); err != nil {
			t.Fatal(err)
		}
	}
	files := cacheFiles(t, dir)
	if len(files) > 10 {
		t.Errorf("%d entries, cap 10", len(files))
	}
	if _, ok := c.get(dir, fmt.Sprintf("%064d", 24)); !ok {
		t.Error("newest entry pruned")
	}
	if _, ok := c.get(dir, fmt.Sprintf("%064d", 0)); ok {
		t.Error("oldest entry kept")
	}
}

func TestCachePruneBytesExpiredAndTemp(t *testing.T) {
	clock := newFakeClock()
	dir := t.TempDir()
	c := fileCache{now: clock.now, ttl: time.Hour, maxEntries: 1000, maxBytes: 3000}
	var a Answer
	for d := range numDimensions {
		a[d].Why = strings.Repeat("w", 40)
	}
	stale := filepath.Join(dir, tempPrefix+"left-by-a-crash")
	if err := os.WriteFile(stale, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := clock.now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	for i := range 20 {
		clock.advance(time.Second)
		if err := c.put(dir, fmt.Sprintf("%064d", i), a); err != nil {
			t.Fatal(err)
		}
	}
	var total int64
	for _, f := range cacheFiles(t, dir) {
		info, _ := os.Stat(f)
		total += info.Size()
	}
	if total > 3000 {
		t.Errorf("cache holds %d bytes, cap 3000", total)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("stale temp file not removed")
	}
	// Everything expires: the next write prunes the rest.
	clock.advance(2 * time.Hour)
	if err := c.put(dir, fmt.Sprintf("%064d", 99), a); err != nil {
		t.Fatal(err)
	}
	if files := cacheFiles(t, dir); len(files) != 1 {
		t.Errorf("expired entries kept: %d files", len(files))
	}
}

// TestCacheConcurrentGoroutines: many writers and readers on overlapping
// keys; every read is either a miss or the exact answer written.
func TestCacheConcurrentGoroutines(t *testing.T) {
	dir := t.TempDir()
	c := fileCache{now: time.Now, ttl: DefaultCacheTTL, maxEntries: 40, maxBytes: DefaultCacheBytes}
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 60 {
				key := fmt.Sprintf("%064d", (w*7+i)%50)
				a := answerForKey(key)
				if err := c.put(dir, key, a); err != nil {
					errs <- err
					return
				}
				if got, ok := c.get(dir, key); ok && got != a {
					errs <- fmt.Errorf("key %s: read %+v", key, got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	checkCacheIntact(t, c, dir, 40)
}

// answerForKey derives a distinct answer from a key, so readers can check
// they got the entry written for that key.
func answerForKey(key string) Answer {
	n, _ := strconv.Atoi(strings.TrimLeft(key, "0")) // all zeros: 0
	var a Answer
	for d := range numDimensions {
		a[d] = Score{Score: float64((n+int(d))%11) / 10, Why: "key " + key[len(key)-4:]}
	}
	return a
}

// checkCacheIntact: every entry left is valid, holds its own key's answer,
// and the directory is within the entry cap with no temp files left.
func checkCacheIntact(t *testing.T, c fileCache, dir string, maxEntries int) {
	t.Helper()
	files := cacheFiles(t, dir)
	if len(files) == 0 || len(files) > maxEntries {
		t.Errorf("%d entries after concurrent writes, cap %d", len(files), maxEntries)
	}
	for _, f := range files {
		key := strings.TrimSuffix(filepath.Base(f), entrySuffix)
		got, ok := c.get(dir, key)
		if !ok || got != answerForKey(key) {
			t.Errorf("entry %s unreadable or wrong: %v %+v", key, ok, got)
		}
	}
	if temps, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*")); len(temps) != 0 {
		t.Errorf("temp files left: %v", temps)
	}
}

const helperEnv = "ZF_DECISIONMODEL_CACHE_HELPER_DIR"

// TestMain turns the test binary into a cache-writer process when
// helperEnv is set (see TestCacheConcurrentProcesses).
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		w, _ := strconv.Atoi(os.Getenv("ZF_HELPER_WORKER"))
		if err := cacheWriterProcess(dir, w); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// cacheWriterProcess is the body of one helper process: overlapping puts
// and gets on the shared directory.
func cacheWriterProcess(dir string, worker int) error {
	c := fileCache{now: time.Now, ttl: DefaultCacheTTL, maxEntries: 30, maxBytes: DefaultCacheBytes}
	for i := range 150 {
		key := fmt.Sprintf("%064d", (worker*13+i)%45)
		a := answerForKey(key)
		if err := c.put(dir, key, a); err != nil {
			return err
		}
		if got, ok := c.get(dir, key); ok && got != a {
			return fmt.Errorf("worker %d: key %s read %+v", worker, key, got)
		}
	}
	return nil
}

// TestCacheConcurrentProcesses: several real processes (this test binary
// re-executed) write and read one cache directory at once, as concurrent
// hook processes do.
func TestCacheConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for w := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+dir, "ZF_HELPER_WORKER="+strconv.Itoa(w))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper process: %v", err)
		}
	}
	c := fileCache{now: time.Now, ttl: DefaultCacheTTL, maxEntries: 30, maxBytes: DefaultCacheBytes}
	checkCacheIntact(t, c, dir, 30)
}
