// Package session implements the session-root lock (lock_session_root).
//
// Some agent hosts inject a project root that follows the agent's shell:
// after `cd /` every later call of the session would see / as the
// project, and the fence would be gone. The lock keeps the first root
// seen for each session id in session-roots.log in the data dir and uses
// it for the rest of the session, as long as it is not wider than what
// the host injects now.
//
// What the lock never does, whoever wrote the file (the agent can run the
// guard's binary with a session id of its choice; that asks, see
// DG-TAMPER-GUARD, but the file must not trust it either):
//   - record or use a root that is wide (Policy.Wide: /, a drive root, home,
//     an ancestor of home, a whole user profile);
//   - use a recorded root wider than the injected one (one that holds it):
//     the narrower root is the one judged with;
//   - evict a session seen in the last LiveWindow to make room: when the
//     file is full of live sessions, a new session is judged with its
//     injected root and not recorded.
//
// Every case is reported as a note for the decision log.
//
// File format: one line per session, "id<TAB>root<TAB>RFC 3339 UTC time
// the session was last seen" (refreshed at most every RefreshEvery).
// Entries not seen for MaxAge are dropped and at most MaxEntries are kept
// whenever a new session is recorded. Reading takes no lock (the file is
// replaced atomically); recording a new session or refreshing one re-reads
// and rewrites it under a file lock, so concurrent hooks agree on one root.
package session

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core/internal/filelock"
	"github.com/zcode-fence/zcode-fence/core/internal/lines"
)

// FileName is the state file inside the data dir.
const FileName = "session-roots.log"

// MaxAge is how long an entry is kept.
const MaxAge = 30 * 24 * time.Hour

// MaxEntries caps the number of sessions kept.
const MaxEntries = 200

// LiveWindow: a session seen this recently is never evicted.
const LiveWindow = 24 * time.Hour

// RefreshEvery is how stale an entry's time may get before a call of its
// session rewrites it (one write per session per interval, not per call).
const RefreshEvery = time.Hour

// Policy says which roots the lock may record and use. Its functions get
// clean absolute roots as the host computed them.
type Policy struct {
	// Wide reports a root too wide to be a project root, and why
	// (paths.Platform.IsWideRoot). Nil: none is.
	Wide func(root string) (why string, wide bool)
	// Contains reports whether dir is root or lies below it, by the
	// platform's rules (paths.Platform.Contains). Nil: plain equality.
	Contains func(root, dir string) bool
}

func (p Policy) wide(root string) (string, bool) {
	if p.Wide == nil {
		return "", false
	}
	return p.Wide(root)
}

// holds reports whether outer is strictly wider than inner.
func (p Policy) holds(outer, inner string) bool {
	if p.Contains == nil || outer == inner {
		return false
	}
	return p.Contains(outer, inner) && !p.Contains(inner, outer)
}

// lockWait bounds the wait for the state file's lock when recording a new
// session; past it the call goes on with the injected root.
const lockWait = 1500 * time.Millisecond

// ValidID reports whether id can be recorded: 1 to 128 ASCII letters,
// digits, - and _. (A loop, not a regexp: `{1,128}` compiled at start-up
// cost 0.9 ms on every hook process.)
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

type entry struct {
	id, root string
	seen     time.Time
}

// Resolve returns the root to use for session id whose host-injected root is
// root. When the session is known with another root that pol allows, that
// first root is returned with a note; when it is unknown it is recorded
// (unless pol finds root wide, or the file is full of live sessions).
// Invalid ids and empty roots are returned unchanged. err reports a
// state-file problem; the returned root is still usable (the injected one).
func Resolve(dir, id, root string, now time.Time, pol Policy) (effective, note string, err error) {
	if !ValidID(id) || root == "" || strings.ContainsAny(root, "\t\n\r") {
		return root, "", nil
	}
	path := filepath.Join(dir, FileName)
	if e, ok := read(path)[id]; ok {
		if eff, n, usable := pick(e, root, pol); usable {
			if now.Sub(e.seen) >= RefreshEvery {
				refresh(path, id, e.root, now) // best effort
			}
			return eff, n, nil
		}
	}
	if why, wide := pol.wide(root); wide {
		return root, fmt.Sprintf("session: injected root %s is %s: not recorded for the session", root, why), nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return root, "", fmt.Errorf("session: %w", err)
	}
	lock, err := filelock.Acquire(path+".lock", lockWait)
	if err != nil {
		return root, "", fmt.Errorf("session: %w", err)
	}
	defer lock.Unlock()
	entries := read(path)
	replaced := ""
	if e, ok := entries[id]; ok { // another hook recorded it meanwhile, or a root we may not use
		eff, n, usable := pick(e, root, pol)
		if usable {
			return eff, n, nil
		}
		replaced = n + "; the injected root is recorded instead"
		delete(entries, id)
	}
	if !roomFor(entries, now) {
		return root, fmt.Sprintf("session: %d sessions seen in the last %s are recorded; this one is judged with its injected root %s and not recorded", MaxEntries, LiveWindow, root), nil
	}
	entries[id] = entry{id: id, root: root, seen: now.UTC()}
	if err := write(path, entries, now); err != nil {
		return root, "", err
	}
	return root, replaced, nil
}

// pick decides about a recorded entry: usable is false when pol does not
// allow its root (wide, or wider than the injected root); the note says why
// either way.
func pick(e entry, root string, pol Policy) (eff, note string, usable bool) {
	if e.root == root {
		return root, "", true
	}
	if why, wide := pol.wide(e.root); wide {
		return root, fmt.Sprintf("session: recorded root %s is %s: ignored, judging with the injected root %s", e.root, why, root), false
	}
	if pol.holds(e.root, root) {
		return root, fmt.Sprintf("session: recorded root %s is wider than the injected root %s: judging with the injected one", e.root, root), false
	}
	return e.root, fmt.Sprintf("session: injected root %s differs from the session's first root %s; judging with the first", root, e.root), true
}

// roomFor reports whether one more session can be recorded: there is room
// under MaxEntries once entries older than MaxAge are dropped, or an entry
// not seen for LiveWindow can be evicted.
func roomFor(entries map[string]entry, now time.Time) bool {
	n := 0
	evictable := false
	for _, e := range entries {
		if now.Sub(e.seen) > MaxAge {
			continue
		}
		n++
		if now.Sub(e.seen) > LiveWindow {
			evictable = true
		}
	}
	return n < MaxEntries || evictable
}

// refresh rewrites the time of session id (still recorded with root) to
// now, if the lock is free at once; it never fails the call.
func refresh(path, id, root string, now time.Time) {
	lock, err := filelock.Acquire(path+".lock", 0)
	if err != nil {
		return
	}
	defer lock.Unlock()
	entries := read(path)
	if e, ok := entries[id]; ok && e.root == root {
		e.seen = now.UTC()
		entries[id] = e
		_ = write(path, entries, now)
	}
}

// read loads the state file; a missing or unreadable file is empty, corrupt
// lines are skipped, an unparsable time counts as very old.
func read(path string) map[string]entry {
	out := map[string]entry{}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return out // missing, or a device or pipe that could block or never end
	}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	_, _ = lines.Each(io.LimitReader(f, maxFile), maxLine, func(line []byte) {
		parts := strings.Split(string(line), "\t")
		if len(parts) < 3 || !ValidID(parts[0]) || parts[1] == "" {
			return
		}
		seen, _ := time.Parse(time.RFC3339Nano, parts[2])
		out[parts[0]] = entry{id: parts[0], root: parts[1], seen: seen}
	})
	return out
}

// maxLine bounds one line of the state file; longer (corrupt) lines are
// skipped, the rest is still read. maxFile bounds the whole read (the file
// holds at most MaxEntries short lines).
const (
	maxLine = 64 << 10
	maxFile = 4 << 20
)

// write prunes and atomically replaces the state file.
func write(path string, entries map[string]entry, now time.Time) error {
	list := make([]entry, 0, len(entries))
	for _, e := range entries {
		if now.Sub(e.seen) <= MaxAge {
			list = append(list, e)
		}
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].seen.Equal(list[j].seen) {
			return list[i].seen.Before(list[j].seen)
		}
		return list[i].id < list[j].id
	})
	if len(list) > MaxEntries {
		// Oldest first; a session seen in the last LiveWindow stays (the
		// caller checked there is room: roomFor).
		drop := len(list) - MaxEntries
		kept := list[:0]
		for _, e := range list {
			if drop > 0 && now.Sub(e.seen) > LiveWindow {
				drop--
				continue
			}
			kept = append(kept, e)
		}
		list = kept
	}
	var b strings.Builder
	for _, e := range list {
		fmt.Fprintf(&b, "%s\t%s\t%s\n", e.id, e.root, e.seen.UTC().Format(time.RFC3339Nano))
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), FileName+".tmp*")
	if err != nil {
		return fmt.Errorf("session: %w", err)
	}
	_, werr := tmp.WriteString(b.String())
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("session: write %s: %w", path, werr)
	}
	return nil
}
