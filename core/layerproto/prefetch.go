package layerproto

import (
	"context"
	"sync"
)

// A prefetch is a reattach to a warm server begun before the call's
// Launch, so that the connection is made while the caller does other
// work (a hook reads and analyses its payload meanwhile).
type prefetch struct {
	done chan struct{}
	c    *Client // set before done is closed; nil: no usable server
}

// prefetched holds this process's prefetches by record path, until a
// Launch takes one or DropPrefetched closes it.
var prefetched struct {
	sync.Mutex
	m map[string]*prefetch
}

// Prefetch begins, in the background, reattaching to the warm server that
// Launch(ctx, cfg) would reattach to; the first such Launch in this
// process takes the connection over instead of making its own. It never
// starts a server and never waits: without a warm configuration, or when
// the record is missing or unusable, it leaves things to Launch (an
// unusable record is removed, as Launch would). A reattach in flight ends
// with ctx or the start timeout, whichever comes first.
//
// Cost: the reattach's own (a record read, two stats, one connection and
// its HTTP/2 handshake) moved off the caller's path. Call DropPrefetched
// once the call is over: it closes what no Launch took.
func Prefetch(ctx context.Context, cfg LaunchConfig) {
	l, err := resolve(cfg)
	if err != nil || !l.warm() || ctx.Err() != nil {
		return
	}
	t := newWarmTarget(l)
	p := &prefetch{done: make(chan struct{})}
	prefetched.Lock()
	if _, dup := prefetched.m[t.recPath]; dup {
		prefetched.Unlock()
		return
	}
	if prefetched.m == nil {
		prefetched.m = map[string]*prefetch{}
	}
	prefetched.m[t.recPath] = p
	prefetched.Unlock()
	go func() {
		defer close(p.done)
		p.c = t.try(ctx)
	}()
}

// takePrefetched takes the prefetch for recPath, if there is one, and
// waits for it until ctx ends. ok is true when it yields a connected
// client; otherwise the caller reattaches or launches as usual (a
// prefetch still running when ctx ends is closed when it finishes).
func takePrefetched(ctx context.Context, recPath string) (c *Client, ok bool) {
	prefetched.Lock()
	p := prefetched.m[recPath]
	delete(prefetched.m, recPath)
	prefetched.Unlock()
	if p == nil {
		return nil, false
	}
	select {
	case <-p.done:
		return p.c, p.c != nil
	case <-ctx.Done():
		go closeWhenDone(p)
		return nil, false
	}
}

func closeWhenDone(p *prefetch) {
	<-p.done
	if p.c != nil {
		_ = p.c.Close()
	}
}

// DropPrefetched closes every prefetched connection no Launch took,
// waiting for reattaches still in flight (each ends with its context or
// its start timeout: cancel the context given to Prefetch first). Closing
// a reattached client never stops its server.
func DropPrefetched() {
	prefetched.Lock()
	m := prefetched.m
	prefetched.m = nil
	prefetched.Unlock()
	for _, p := range m {
		closeWhenDone(p)
	}
}
