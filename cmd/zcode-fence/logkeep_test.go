package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// TestEvalLoopKeepsHookAsks: a hook ask, then rounds of `zcode-fence
// --eval` in which the file each eval record lands in is filled to its
// rotation size, so every round rotates it: after more rounds than any
// log keeps generations, `zcode-fence log --source hook` still shows the
// ask (a single shared log would have rotated it out after Keep+1
// rounds).
func TestEvalLoopKeepsHookAsks(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("", false, "ZCODE_FENCE_ENABLE_LOG=true")
	const ask = "rm -rf / # the hook's ask"
	if v, detail := checkAnswer(runHook(t, env, s.project, hookPayload("Bash", ask, s.project, "keep-asks", false))); v != "ask" {
		t.Fatalf("the hook did not ask: %s", detail)
	}
	filler, _ := decisionlog.Marshal(decisionlog.Record{Source: "filler", Detail: strings.Repeat("f", 1000)})
	rounds := decisionlog.Keep + decisionlog.EvalKeep + 2
	for round := range rounds {
		for k := range 2 {
			r := runHook(t, env, s.project, nil, "--eval", fmt.Sprintf("git push --force # round %d.%d", round, k))
			if r.code != exitAsk && r.code != 0 {
				t.Fatalf("--eval exit %d: %s", r.code, r.stderr)
			}
			// Fill the file that took this record up to the rotation
			// size: the next record rotates it.
			path := fileHolding(t, s.data, r.pid)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				pad := bytes.Repeat(filler, int(decisionlog.MaxSize-st.Size())/len(filler))
				f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				f.Write(pad)
				f.Close()
			}
		}
	}
	res := runExe(t, binary, env, s.project, nil, "log", "--source", "hook", "--json")
	if res.code != 0 {
		t.Fatalf("log: exit %d, %s", res.code, res.stderr)
	}
	var found bool
	for _, line := range bytes.Split(bytes.TrimSpace(res.stdout), []byte("\n")) {
		var rec decisionlog.Record
		if json.Unmarshal(line, &rec) == nil && rec.Verdict == "ask" && strings.HasPrefix(rec.Detail, "rm -rf /") {
			found = true
		}
	}
	if !found {
		t.Fatalf("%d rounds of --eval rotated the hook's ask out of the log; log --source hook:\n%s", rounds, res.stdout)
	}
	hookLog, _ := os.ReadFile(filepath.Join(s.data, decisionlog.FileName))
	if bytes.Contains(hookLog, []byte(`"source":"eval"`)) {
		t.Error("eval records reached the hook log")
	}
}

// fileHolding returns the log file in dir whose last record was written
// by the process pid.
func fileHolding(t *testing.T, dir string, pid int) string {
	t.Helper()
	for _, name := range decisionlog.Files() {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		data = bytes.TrimSpace(data)
		last := data[bytes.LastIndexByte(data, '\n')+1:]
		if bytes.Contains(last, []byte(`"pid":`+strconv.Itoa(pid)+`,`)) {
			return filepath.Join(dir, name)
		}
	}
	t.Fatalf("no log file in %s ends with a record of pid %d", dir, pid)
	return ""
}

// TestLogFailuresAreReported: when the decision log cannot be written —
// the data dir lies under a regular file (cannot be created), or the log
// is a directory — the hook still asks, and the next `zcode-fence doctor`
// and `zcode-fence log` say how many records were lost and where the
// notes are. A healthy data dir reports nothing of the kind.
func TestLogFailuresAreReported(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		setup func(s *scratch) string // returns the data dir
	}{
		{"data dir under a file", func(s *scratch) string {
			blocker := filepath.Join(s.root, "blocker")
			os.WriteFile(blocker, nil, 0o600)
			return filepath.Join(blocker, "data")
		}},
		{"log is a directory", func(s *scratch) string {
			os.MkdirAll(filepath.Join(s.data, decisionlog.FileName), 0o700)
			return s.data
		}},
		{"healthy", func(s *scratch) string { return s.data }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newScratch(t)
			dir := c.setup(s)
			env := append(s.env("", false), "ZCODE_FENCE_DATA_DIR="+dir, "XDG_CACHE_HOME="+filepath.Join(s.root, "cache"),
				"TMPDIR="+filepath.Join(s.root, "tmp"), "ZCODE_FENCE_LAYER_ISOLATION=inprocess")
			os.MkdirAll(filepath.Join(s.root, "tmp"), 0o700)
			for i := range 2 {
				r := runHook(t, env, s.project, hookPayload("Bash", "rm -rf /", s.project, "lost-"+strconv.Itoa(i), false))
				if v, detail := checkAnswer(r); v != "ask" {
					t.Fatalf("the hook did not ask with a broken log: %s", detail)
				}
			}
			doc := runExe(t, binary, env, s.project, nil, "doctor")
			lg := runExe(t, binary, env, s.project, nil, "log")
			const lost = "2 decision-log records could not be written"
			if c.name == "healthy" {
				if strings.Contains(string(doc.stdout), "could not be written") || strings.Contains(string(lg.stderr), "could not be written") {
					t.Fatalf("a healthy log reports lost records:\n%s\n%s", doc.stdout, lg.stderr)
				}
				return
			}
			if !strings.Contains(string(doc.stdout), lost) || doc.code == 0 {
				t.Errorf("doctor (exit %d) does not report the lost records:\n%s", doc.code, doc.stdout)
			}
			if !strings.Contains(string(lg.stderr), lost) {
				t.Errorf("log does not report the lost records:\n%s\n%s", lg.stdout, lg.stderr)
			}
			notes := decisionlog.FailurePlaces(dir)
			if c.name == "log is a directory" && !strings.Contains(string(doc.stdout), notes[0]) {
				t.Errorf("doctor does not name the notes in the data dir %s:\n%s", notes[0], doc.stdout)
			}
			if c.name == "data dir under a file" && !strings.Contains(string(doc.stdout), filepath.Join(s.root, "cache")) {
				t.Errorf("doctor does not name the notes in the cache dir:\n%s", doc.stdout)
			}
		})
	}
}

// TestPlantedEnvIgnored: Gemini CLI and Qwen Code put the project's .env
// into their hooks' environment (e2e/planted_env_test.go). A guard
// setting whose value the project's .env (or .gemini/.env, .qwen/.env)
// assigns is ignored: git push --force still asks, and the log says why.
// The same settings made by the user (no file sets them) switch the
// gate off as always.
func TestPlantedEnvIgnored(t *testing.T) {
	t.Parallel()
	off := []string{"ZCODE_FENCE_ENABLE_DANGER_GATE=false", "ZCODE_FENCE_ENABLE_FENCE=false"}
	for _, c := range []struct {
		name, file, text, want string
	}{
		{"project .env", ".env", "NODE_ENV=development\nZCODE_FENCE_ENABLE_DANGER_GATE=false\nexport ZCODE_FENCE_ENABLE_FENCE=false\n", "ask"},
		{"gemini .env", ".gemini/.env", "ZCODE_FENCE_ENABLE_DANGER_GATE=\"false\"\n", "ask"},
		{"qwen .env", ".qwen/.env", "ZCODE_FENCE_ENABLE_DANGER_GATE='false' # planted\n", "ask"},
		{"the user's own setting", "", "", "silent"},
		{"a .env with another value", ".env", "ZCODE_FENCE_ENABLE_DANGER_GATE=true\n", "silent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newScratch(t)
			if c.file != "" {
				p := filepath.Join(s.project, filepath.FromSlash(c.file))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env := s.env("", false, append(off, "GEMINI_PROJECT_DIR="+s.project, "ZCODE_FENCE_ENABLE_LOG=true")...)
			r := runHook(t, env, filepath.Join(s.project, "src"), hookPayload("Bash", "git push --force origin main", s.project, "planted", false))
			got, detail := checkAnswer(r)
			if got != c.want {
				t.Fatalf("got %q (%s), want %s; log: %s", got, detail, c.want, hookRecord(s.data, r.pid))
			}
			rec := lastRecord(t, s.data)
			noted := strings.Contains(strings.Join(rec.Notes, "\n"), "ZCODE_FENCE_ENABLE_DANGER_GATE=\"false\" is set by "+filepath.Join(s.project, filepath.FromSlash(c.file)))
			if noted != (c.want == "ask") {
				t.Errorf("notes %q", rec.Notes)
			}
		})
	}
}
