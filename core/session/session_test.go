package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func TestFirstRootWins(t *testing.T) {
	dir := t.TempDir()
	root, note, err := Resolve(dir, "s1", "/p", t0, Policy{})
	if err != nil || root != "/p" || note != "" {
		t.Fatalf("first: %q %q %v", root, note, err)
	}
	root, note, _ = Resolve(dir, "s1", "/p/src", t0.Add(time.Minute), Policy{})
	if root != "/p" || !strings.Contains(note, "/p/src") {
		t.Fatalf("drift: %q %q", root, note)
	}
	root, note, _ = Resolve(dir, "s1", "/p", t0.Add(time.Hour), Policy{})
	if root != "/p" || note != "" {
		t.Fatalf("same: %q %q", root, note)
	}
	root, _, _ = Resolve(dir, "s2", "/q", t0, Policy{})
	if root != "/q" {
		t.Fatalf("other session: %q", root)
	}
}

func TestInvalidIDsAreNotRecorded(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"", "a b", "../x", strings.Repeat("a", 129), "id\tx"} {
		root, note, err := Resolve(dir, id, "/p", t0, Policy{})
		if root != "/p" || note != "" || err != nil {
			t.Fatalf("id %q: %q %q %v", id, root, note, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, FileName)); err == nil {
		t.Fatal("invalid ids were recorded")
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"":                       false,
		"a":                      true,
		"Ab-09_z":                true,
		strings.Repeat("a", 128): true,
		strings.Repeat("a", 129): false,
		"a b":                    false,
		"a/b":                    false,
		"a.b":                    false,
		"caf\u00e9":              false,
		"\u00e9":                 false,
		"id\n":                   false,
	} {
		if got := ValidID(id); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestPruning(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	var b strings.Builder
	fmt.Fprintf(&b, "old\t/old\t%s\n", t0.Add(-31*24*time.Hour).Format(time.RFC3339))
	fmt.Fprintf(&b, "corrupt line without tabs\n")
	fmt.Fprintf(&b, "huge\t/%s\t%s\n", strings.Repeat("x", 100<<10), t0.Format(time.RFC3339))
	fmt.Fprintf(&b, "bad id!\t/x\t%s\n", t0.Format(time.RFC3339))
	fmt.Fprintf(&b, "nodate\t/nodate\tyesterday\n")
	for i := 0; i < 250; i++ {
		fmt.Fprintf(&b, "s%03d\t/r%d\t%s\n", i, i, t0.Add(-LiveWindow-time.Duration(250-i)*time.Minute).Format(time.RFC3339))
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	if _, _, err := Resolve(dir, "new", "/new", t0, Policy{}); err != nil {
		t.Fatal(err)
	}
	got := read(path)
	if len(got) != MaxEntries {
		t.Fatalf("%d entries kept, want %d", len(got), MaxEntries)
	}
	for _, gone := range []string{"old", "nodate", "huge", "s000", "s050"} {
		if _, ok := got[gone]; ok {
			t.Errorf("%s should have been pruned", gone)
		}
	}
	for _, kept := range []string{"new", "s249", "s051"} {
		if _, ok := got[kept]; !ok {
			t.Errorf("%s should have been kept", kept)
		}
	}
}

// TestConcurrentHooks: 20 hooks at once, half of them for one session with
// different roots; every new session lands, and the shared session gets
// exactly one root that all of its callers agree on.
func TestConcurrentHooks(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	var mu sync.Mutex
	sharedRoots := map[string]bool{}
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if i%2 == 0 {
				root, _, err := Resolve(dir, "shared", fmt.Sprintf("/root%d", i), t0, Policy{})
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				sharedRoots[root] = true
				mu.Unlock()
				return
			}
			if _, _, err := Resolve(dir, fmt.Sprintf("own%d", i), "/own", t0, Policy{}); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if len(sharedRoots) != 1 {
		t.Fatalf("callers of one session saw %d roots: %v", len(sharedRoots), sharedRoots)
	}
	got := read(filepath.Join(dir, FileName))
	if len(got) != 11 {
		t.Fatalf("%d sessions recorded, want 11", len(got))
	}
	// No temp files left behind.
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		if strings.Contains(f.Name(), ".tmp") {
			t.Fatalf("temp file left: %s", f.Name())
		}
	}
}

func TestUnwritableDataDir(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "f")
	os.WriteFile(blocker, nil, 0o600)
	root, _, err := Resolve(filepath.Join(blocker, "data"), "s", "/p", t0, Policy{})
	if err == nil || root != "/p" {
		t.Fatalf("root=%q err=%v", root, err)
	}
}

// TestDeviceOrPipeStateFile: a state file that is a device (reads never
// end) or a named pipe (opening blocks) is treated as empty, never read.
func TestDeviceOrPipeStateFile(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero on this system")
	}
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, FileName)); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() {
		root, _, _ := Resolve(dir, "s", "/p", t0, Policy{})
		done <- root
	}()
	select {
	case root := <-done:
		if root != "/p" {
			t.Fatalf("root = %q", root)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Resolve hung on a device state file")
	}
}

// policy is the test's path rules: Unix, home /home/u.
var policy = Policy{
	Wide: func(root string) (string, bool) {
		switch root {
		case "/":
			return "the filesystem root", true
		case "/home", "/home/u":
			return "home or an ancestor", true
		}
		return "", false
	},
	Contains: func(root, dir string) bool {
		return root == dir || root == "/" || strings.HasPrefix(dir, strings.TrimSuffix(root, "/")+"/")
	},
}

// writeEntries writes n sessions ids p000... last seen at seen(i).
func writeEntries(t *testing.T, dir string, n int, seen func(i int) time.Time) {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "p%03d\t/r%d\t%s\n", i, i, seen(i).Format(time.RFC3339))
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLiveSessionsAreNotEvicted: a file full of sessions seen in the last
// day keeps them all; the new session is judged with its injected root and
// not recorded. Once one entry is older than a day, it makes room.
func TestLiveSessionsAreNotEvicted(t *testing.T) {
	dir := t.TempDir()
	writeEntries(t, dir, MaxEntries, func(i int) time.Time { return t0.Add(-LiveWindow + time.Duration(i+1)*time.Minute) })
	root, note, err := Resolve(dir, "flood", "/flood", t0, policy)
	if err != nil || root != "/flood" || !strings.Contains(note, "not recorded") {
		t.Fatalf("full of live sessions: %q %q %v", root, note, err)
	}
	got := read(filepath.Join(dir, FileName))
	if _, ok := got["flood"]; ok || len(got) != MaxEntries {
		t.Fatalf("the flood was recorded or evicted a live session: %d entries", len(got))
	}
	// The oldest is now older than the window: it goes, the new one lands.
	later := t0.Add(2 * time.Minute)
	if _, _, err := Resolve(dir, "next", "/next", later, policy); err != nil {
		t.Fatal(err)
	}
	got = read(filepath.Join(dir, FileName))
	if _, ok := got["next"]; !ok {
		t.Fatal("a session was not recorded though an entry was past the live window")
	}
	if _, ok := got["p000"]; ok {
		t.Fatal("the entry past the live window was kept")
	}
	if _, ok := got["p199"]; !ok || len(got) != MaxEntries {
		t.Fatalf("live sessions lost: %d entries", len(got))
	}
}

// TestWideRootsAreNeverUsed: a wide injected root is not recorded; a wide
// recorded root (written by anyone) is ignored and replaced; a recorded
// root wider than the injected one is not used.
func TestWideRootsAreNeverUsed(t *testing.T) {
	dir := t.TempDir()
	for _, r := range []string{"/", "/home/u", "/home"} {
		root, note, err := Resolve(dir, "w", r, t0, policy)
		if err != nil || root != r || !strings.Contains(note, "not recorded") {
			t.Fatalf("%s: %q %q %v", r, root, note, err)
		}
	}
	if _, ok := read(filepath.Join(dir, FileName))["w"]; ok {
		t.Fatal("a wide root was recorded")
	}
	os.WriteFile(filepath.Join(dir, FileName), []byte("s\t/\t"+t0.Format(time.RFC3339)+"\nt\t/work\t"+t0.Format(time.RFC3339)+"\n"), 0o600)
	root, note, _ := Resolve(dir, "s", "/work/proj", t0.Add(time.Minute), policy)
	if root != "/work/proj" || !strings.Contains(note, "ignored") {
		t.Fatalf("recorded /: %q %q", root, note)
	}
	if e := read(filepath.Join(dir, FileName))["s"]; e.root != "/work/proj" {
		t.Fatalf("recorded / not replaced: %+v", e)
	}
	root, note, _ = Resolve(dir, "t", "/work/proj", t0.Add(time.Minute), policy)
	if root != "/work/proj" || !strings.Contains(note, "wider") {
		t.Fatalf("recorded wider root: %q %q", root, note)
	}
	// Drift outwards still keeps the narrower first root.
	root, note, _ = Resolve(dir, "t", "/work", t0.Add(2*time.Minute), policy)
	if root != "/work/proj" || note == "" {
		t.Fatalf("drift out: %q %q", root, note)
	}
}

// TestRefresh: a call after RefreshEvery moves the session's time, so an
// active session stays inside the live window.
func TestRefresh(t *testing.T) {
	dir := t.TempDir()
	Resolve(dir, "s", "/p", t0, policy)
	Resolve(dir, "s", "/p", t0.Add(RefreshEvery/2), policy)
	if e := read(filepath.Join(dir, FileName))["s"]; !e.seen.Equal(t0) {
		t.Fatalf("refreshed too early: %v", e.seen)
	}
	at := t0.Add(2 * RefreshEvery)
	Resolve(dir, "s", "/p", at, policy)
	if e := read(filepath.Join(dir, FileName))["s"]; !e.seen.Equal(at) {
		t.Fatalf("not refreshed: %v", e.seen)
	}
}
