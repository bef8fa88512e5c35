package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
)

type externalCase struct {
	Name     string `json:"name"`
	Setup    string `json:"setup"`
	Calls    int    `json:"calls"`
	Expect   string `json:"expect"`
	Rule     string `json:"rule"`
	Note     string `json:"note"`
	Launched bool   `json:"launched"`
}

// TestExternalLayerVetting runs testdata/external-cases.json: refused
// places, pinned layers that pass (and run from their verified copy),
// and pinned layers that fail (every call asks with HK-LAYER-INTEGRITY).
func TestExternalLayerVetting(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "external-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []externalCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if runtime.GOOS == "windows" && strings.Contains(c.Setup, "writable") {
				t.Skip("modes: Unix only")
			}
			e := newExternalEnv(t, c.Setup)
			var launched []LaunchSpec
			var mu sync.Mutex
			var closed atomic.Int32
			h := Host{Launch: func(ctx context.Context, spec LaunchSpec) (Remote, error) {
				mu.Lock()
				launched = append(launched, spec)
				mu.Unlock()
				return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name}, closed: &closed}, nil
			}}
			cfg := cfgWith(map[string]string{"external_layers": e.path + e.pin, "language": "en"})
			call := &core.Call{DataDir: e.dataDir, ProjectRoot: e.root, WritableRoots: []string{e.root}}
			var out Outcome
			for i := 0; i < max(c.Calls, 1); i++ {
				if i == 1 {
					e.afterFirstCall(c.Setup)
				}
				mu.Lock()
				launched = nil
				mu.Unlock()
				var release func()
				out, release = h.Run(context.Background(), call, cfg, time.Now())
				release()
			}
			e.check(c, out, launched)
		})
	}
}

// externalEnv is one case's layer file, project and data dir.
type externalEnv struct {
	t                        *testing.T
	path, pin, root, dataDir string
	body                     []byte
}

// newExternalEnv lays out a case's files for setup (mismatch, missing,
// in-root, group-writable, dir-writable, unpinned; anything else: a good
// pinned layer).
func newExternalEnv(t *testing.T, setup string) *externalEnv {
	base := t.TempDir()
	dir := filepath.Join(base, "layers")
	e := &externalEnv{t: t, root: filepath.Join(base, "project"), dataDir: filepath.Join(base, "data"),
		body: []byte("#!/bin/sh\necho layer\n"), path: filepath.Join(dir, "checker")}
	for _, d := range []string{dir, e.root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sum := sha256.Sum256(e.body)
	e.pin = "#sha256=" + hex.EncodeToString(sum[:])
	switch setup {
	case "mismatch":
		e.write(e.path, []byte("something else"), 0o755)
	case "missing":
	case "in-root":
		e.path = filepath.Join(e.root, "tools", "checker")
		os.MkdirAll(filepath.Dir(e.path), 0o755)
		e.write(e.path, e.body, 0o755)
	case "group-writable":
		e.write(e.path, e.body, 0o775)
	case "dir-writable":
		e.write(e.path, e.body, 0o755)
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	case "unpinned":
		e.write(e.path, e.body, 0o755)
		e.pin = ""
	default:
		e.write(e.path, e.body, 0o755)
	}
	return e
}

func (e *externalEnv) write(p string, b []byte, mode os.FileMode) {
	e.t.Helper()
	if err := os.WriteFile(p, b, mode); err != nil {
		e.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		e.t.Fatal(err)
	}
}

// afterFirstCall changes the layer between the first and the second call
// (swap: replaced; tamper-copy: its verified copy changed).
func (e *externalEnv) afterFirstCall(setup string) {
	switch setup {
	case "swap": // replaced after a good call
		tmp := e.path + ".new"
		e.write(tmp, []byte("#!/bin/sh\necho evil\n"), 0o755)
		if err := os.Rename(tmp, e.path); err != nil {
			e.t.Fatal(err)
		}
	case "tamper-copy":
		cp := filepath.Join(e.dataDir, LayersDirName, strings.TrimPrefix(e.pin, "#sha256="), "checker")
		e.write(cp, []byte("#!/bin/sh\necho tampered\n"), 0o700)
	}
}

// check judges the last call's outcome and launches against case c.
func (e *externalEnv) check(c externalCase, out Outcome, launched []LaunchSpec) {
	t := e.t
	if got := out.Verdict.Decision.String(); got != c.Expect {
		t.Fatalf("got %s, want %s: %+v notes %q", got, c.Expect, out.Verdict, out.Notes)
	}
	if c.Rule != "" {
		r := out.Verdict.Reasons[0]
		if r.Rule != c.Rule || r.Layer != "host" || !strings.Contains(r.Message, "layer checker failed its integrity check") {
			t.Fatalf("reason %+v", r)
		}
	}
	notes := strings.Join(out.Notes, "\n")
	if c.Note != "" && !strings.Contains(notes, c.Note) {
		t.Fatalf("notes %q lack %q", notes, c.Note)
	}
	if c.Note == "" && notes != "" {
		t.Fatalf("unexpected notes %q", notes)
	}
	if (len(launched) > 0) != c.Launched {
		t.Fatalf("launched %+v, want launched=%v", launched, c.Launched)
	}
	if c.Launched && e.pin != "" {
		e.checkCopy(launched[0])
	}
}

// checkCopy: a pinned layer runs from its verified copy in the data dir.
func (e *externalEnv) checkCopy(l LaunchSpec) {
	t := e.t
	cp := l.Path
	if !strings.HasPrefix(cp, filepath.Join(e.dataDir, LayersDirName)) || l.Checksum != "" {
		t.Fatalf("pinned layer launched from %s (checksum %q), not its verified copy", cp, l.Checksum)
	}
	// The launcher learns the copy's hash (a warm server is reattached
	// only when its record holds it).
	if !strings.EqualFold(l.Verified, strings.TrimPrefix(e.pin, "#sha256=")) {
		t.Fatalf("verified copy launched with Verified %q, pin %q", l.Verified, e.pin)
	}
	got, err := os.ReadFile(cp)
	if err != nil || string(got) != string(e.body) {
		t.Fatalf("the copy that runs holds %q (%v)", got, err)
	}
	if fi, _ := os.Stat(filepath.Dir(cp)); fi.Mode().Perm() != 0o700 && runtime.GOOS != "windows" {
		t.Fatalf("copy dir mode %v", fi.Mode().Perm())
	}
}

// BenchmarkVerifiedCopy is the per-call cost of a pinned layer once its
// copy is made: a few stats and the record read.
func BenchmarkVerifiedCopy(b *testing.B) {
	dir := b.TempDir()
	body := make([]byte, 8<<20)
	src := filepath.Join(dir, "layer")
	os.WriteFile(src, body, 0o755)
	sum := sha256.Sum256(body)
	pin := hex.EncodeToString(sum[:])
	if _, bad, err := verifiedCopy(src, pin, filepath.Join(dir, "data")); bad != nil || err != nil {
		b.Fatal(bad, err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, bad, err := verifiedCopy(src, pin, filepath.Join(dir, "data")); bad != nil || err != nil {
			b.Fatal(bad, err)
		}
	}
}
