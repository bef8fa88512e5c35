//go:build unix

package layerproto

import (
	"context"
	"os"
	"testing"
	"time"
)

// These tests use the package's one prefetch table and DropPrefetched,
// which empties all of it: none of them runs in parallel.

// prefetchFor waits for the prefetch Prefetch(cfg) registered and returns
// it with the record path it is for; it fails the test if there is none.
func prefetchFor(t *testing.T, cfg LaunchConfig) (*prefetch, string) {
	t.Helper()
	l, err := resolve(cfg)
	if err != nil {
		t.Fatal(err)
	}
	recPath := newWarmTarget(l).recPath
	prefetched.Lock()
	p := prefetched.m[recPath]
	prefetched.Unlock()
	if p == nil {
		t.Fatalf("no prefetch registered for %s", recPath)
	}
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatal("prefetch still running after 30 s")
	}
	return p, recPath
}

func TestPrefetchedConnectionIsTakenOver(t *testing.T) {
	t.Cleanup(DropPrefetched)
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	how, pid := warmLaunch(t, cfg)
	if how != WarmStarted {
		t.Fatalf("first launch: %q, want %q", how, WarmStarted)
	}
	Prefetch(context.Background(), cfg)
	p, recPath := prefetchFor(t, cfg)
	if p.c == nil {
		t.Fatal("the prefetch found no server although one runs")
	}
	// With its record moved away, only the prefetched connection can
	// reach the running server: a Launch that reattached by itself would
	// find no record and start a second one.
	rec, err := os.ReadFile(recPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(recPath); err != nil {
		t.Fatal(err)
	}
	how2, pid2 := warmLaunch(t, cfg)
	if err := os.WriteFile(recPath, rec, 0o600); err != nil { // StopWarm finds the server by it
		t.Fatal(err)
	}
	if how2 != WarmReattached || pid2 != pid {
		t.Fatalf("launch after prefetch: %q pid %d, want %q pid %d", how2, pid2, WarmReattached, pid)
	}
	prefetched.Lock()
	left := len(prefetched.m)
	prefetched.Unlock()
	if left != 0 {
		t.Errorf("%d prefetches left after the launch took its own", left)
	}
}

func TestPrefetchWithoutServerLeavesTheStartToLaunch(t *testing.T) {
	t.Cleanup(DropPrefetched)
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	Prefetch(context.Background(), cfg)
	if p, _ := prefetchFor(t, cfg); p.c != nil {
		t.Fatal("the prefetch connected although no server runs")
	}
	if entries := runEntries(t, dir); len(entries) != 0 {
		t.Fatalf("a prefetch without a server left %v in the run dir (it must never start one)", entries)
	}
	if how, _ := warmLaunch(t, cfg); how != WarmStarted {
		t.Fatalf("launch after an empty prefetch: %q, want %q", how, WarmStarted)
	}
}

func TestDropPrefetchedClosesWhatNoLaunchTook(t *testing.T) {
	t.Cleanup(DropPrefetched)
	dir := warmDir(t)
	cfg := warmConfig(t, selfPath(t), dir, time.Minute)
	_, pid := warmLaunch(t, cfg)
	Prefetch(context.Background(), cfg)
	p, _ := prefetchFor(t, cfg)
	if p.c == nil {
		t.Fatal("the prefetch found no server although one runs")
	}
	DropPrefetched()
	if !p.c.closed.Load() {
		t.Error("DropPrefetched left the untaken connection open")
	}
	// Closing a reattached connection never stops the server.
	if how, pid2 := warmLaunch(t, cfg); how != WarmReattached || pid2 != pid {
		t.Fatalf("launch after the drop: %q pid %d, want %q pid %d", how, pid2, WarmReattached, pid)
	}
}

func TestPrefetchDoesNothingWithoutAWarmServerToReach(t *testing.T) {
	t.Cleanup(DropPrefetched)
	dir := warmDir(t)
	perCall := warmConfig(t, selfPath(t), dir, time.Minute)
	perCall.Warm = nil
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, c := range map[string]struct {
		ctx context.Context
		cfg LaunchConfig
	}{
		"per-call process":  {context.Background(), perCall},
		"cancelled context": {cancelled, warmConfig(t, selfPath(t), dir, time.Minute)},
		"no idle timeout":   {context.Background(), warmConfig(t, selfPath(t), dir, 0)},
	} {
		Prefetch(c.ctx, c.cfg)
		prefetched.Lock()
		n := len(prefetched.m)
		prefetched.Unlock()
		if n != 0 {
			t.Errorf("%s: %d prefetches registered, want none", name, n)
		}
	}
}
