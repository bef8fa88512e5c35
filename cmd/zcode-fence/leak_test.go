package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoLeftoversAfter200Calls runs 200 hooks in process isolation — the
// built-in layers as plugin processes of a copy of the binary — with a mix
// of asking and silent calls, and third-party layers that panic or hang in
// Decide on some of them. Afterwards no process runs from the binary's or
// the layers' directory and the hooks' TMPDIR (where every plugin socket
// directory is made) is empty.
func TestNoLeftoversAfter200Calls(t *testing.T) {
	s := newScratch(t)
	binDir := filepath.Join(s.root, "bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(binDir, filepath.Base(binary))
	if err := os.WriteFile(self, data, 0o755); err != nil {
		t.Fatal(err)
	}
	layerDir := filepath.Join(s.root, "layers")
	panics := faultLayer(t, layerDir, "panic-decide")
	hangs := faultLayer(t, layerDir, "hang-decide")
	configs := map[string]string{
		"plain":  writeConfig(t, s.configs, "leak-plain", map[string]any{}),
		"panics": writeConfig(t, s.configs, "leak-panics", map[string]any{"external_layers": panics}),
		"hangs":  writeConfig(t, s.configs, "leak-hangs", map[string]any{"external_layers": hangs}),
	}
	calls := []struct {
		payload []byte
		want    string
	}{
		{s.bashCall("rm -rf /"), "ask"},
		{s.bashCall("ls -la src"), "silent"},
		{s.bashCall("echo x > /etc/zcode-fence-leak"), "ask"},
		{s.bashCall("git status && go test ./..."), "silent"},
		{hookPayload("Write", "/etc/zcode-fence-leak", s.project, "leak-session", true), "ask"},
	}
	tmp := freshTempDir(t)
	for i := 0; i < 200; i++ {
		cfg := configs["plain"]
		switch {
		case i%40 == 7:
			cfg = configs["panics"]
		case i%40 == 23:
			cfg = configs["hangs"]
		}
		c := calls[i%len(calls)]
		r, err := execHookWith(self, s.hookEnv(cfg, "process", tmp), s.project, c.payload)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		got, detail := checkAnswer(r)
		if got != c.want {
			t.Fatalf("call %d (%s): got %q (%s), want %s", i, filepath.Base(cfg), got, detail, c.want)
		}
	}
	checkNoneLeft(t, binDir, tmp)
	checkNoneLeft(t, layerDir, tmp)
	if t.Failed() {
		return
	}
	recs := logRecords(t, s.data)
	if len(recs) < 200 {
		t.Fatalf("%d log records for 200 calls", len(recs))
	}
	errs, fallbacks := 0, 0
	for _, r := range recs {
		if r.Level != "error" {
			continue
		}
		broken := false
		for _, e := range r.Errors {
			switch {
			case strings.Contains(e, "layer panic-decide:"), strings.Contains(e, "layer hang-decide:"):
				broken = true
			case strings.Contains(e, "judged in-process instead"):
				// A loaded machine missed a built-in's start timeout: the
				// host judged it itself (the verdict was checked above).
				fallbacks++
			default:
				t.Errorf("unexpected error in the log: %s", e)
			}
		}
		if broken {
			errs++
		}
	}
	// Ten calls had a broken layer.
	if errs != 10 {
		t.Errorf("%d records name a broken layer, want 10", errs)
	}
	if fallbacks > 0 {
		t.Logf("%d built-in launches fell back to in-process judging (machine load)", fallbacks)
	}
	t.Logf("200 calls, %d records, %d logged errors, no process or socket left", len(recs), errs)
}
