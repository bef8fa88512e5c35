// Package session implements the session-root lock (lock_session_root).
//
// Some agent hosts inject a project root that follows the agent's shell:
// after `cd src` every later call of the session would see src as the
// project, and after `cd /` the fence would be gone. The lock keeps the
// first root seen for each session id in session-roots.log in the data dir
// and uses it for the rest of the session.
//
// File format: one line per session, "id<TAB>root<TAB>RFC 3339 UTC time of
// first sighting". Entries older than MaxAge are dropped and at most
// MaxEntries are kept whenever a new session is recorded. Reading takes no
// lock (the file is replaced atomically); recording a new session re-reads
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
// root. When the session is known with another root, that first root is
// returned with a note; when it is unknown it is recorded. Invalid ids and
// empty roots are returned unchanged. err reports a state-file problem; the
// returned root is still usable (the injected one).
func Resolve(dir, id, root string, now time.Time) (effective, note string, err error) {
	if !ValidID(id) || root == "" || strings.ContainsAny(root, "\t\n\r") {
		return root, "", nil
	}
	path := filepath.Join(dir, FileName)
	if e, ok := read(path)[id]; ok {
		return pick(e, root)
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
	if e, ok := entries[id]; ok { // another hook recorded it meanwhile
		return pick(e, root)
	}
	entries[id] = entry{id: id, root: root, seen: now.UTC()}
	if err := write(path, entries, now); err != nil {
		return root, "", err
	}
	return root, "", nil
}

func pick(e entry, root string) (string, string, error) {
	if e.root == root {
		return root, "", nil
	}
	return e.root, fmt.Sprintf("session: injected root %s differs from the session's first root %s; judging with the first", root, e.root), nil
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
		list = list[len(list)-MaxEntries:]
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
