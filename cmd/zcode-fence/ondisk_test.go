package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/shell/ondisk/ondisktest"
)

// ondiskCase is a case of the scripts-on-disk tables: files laid out in a
// directory of the project, a command run there, the verdict, and text
// the reason must name (the file and line).
type ondiskCase struct {
	Command  string          `json:"command"`
	Expect   string          `json:"expect"`
	Files    ondisktest.Spec `json:"files"`
	Mentions []string        `json:"mentions"`
	Why      string          `json:"why"`
}

// ondiskTables are the case files judged through the built binary: the
// danger gate's table (plugins/danger), this package's (fence asks, the
// decision log's file records) and the runner matrix (ondisk-runners.json:
// for bash, a shebang script, make, npm, yarn, pnpm, just, task, composer
// and a git hook, a script deleting /etc directly, behind a variable, in
// a function called later and in one branch of an if, each with a silent
// twin; generated once, kept as data) and the SQL clients' script files
// (sqlfiles-cases.json: psql -f, < FILE, \i and source includes, mysql,
// sqlite3, duckdb, cqlsh, sqlcmd, snowsql, clickhouse-client, bq query,
// with silent twins).
var ondiskTables = []string{"../../plugins/danger/testdata/ondisk_cases.json", "testdata/ondisk-cases.json", "testdata/ondisk-runners.json",
	"testdata/sqlfiles-cases.json"}

// layOut writes the files of spec below dir, with their modes; FIFOs are
// made with mkfifo, symbolic links with their target as written.
func layOut(dir string, spec ondisktest.Spec) error {
	for rel, f := range spec {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		switch {
		case f.Mode&fs.ModeSymlink != 0:
			if err := os.Symlink(f.Data, p); err != nil {
				return err
			}
		case f.Mode&fs.ModeNamedPipe != 0:
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				return err
			}
		case f.Mode.IsDir():
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		default:
			mode := f.Mode.Perm()
			if mode == 0 {
				mode = 0o644
			}
			if err := os.WriteFile(p, []byte(f.Data), mode); err != nil {
				return err
			}
			if err := os.Chmod(p, mode); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestScriptsOnDisk runs the scripts-on-disk tables through the built
// binary in both isolation modes: each case's files are laid out in a
// directory of its own inside the project, the command runs there, and an
// ask must name the file and line in its reason. Every file read is in the
// decision log with its sha256.
func TestScriptsOnDisk(t *testing.T) {
	t.Parallel()
	var cases []ondiskCase
	for _, f := range ondiskTables {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cs []ondiskCase
		if err := json.Unmarshal(data, &cs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cases = append(cases, cs...)
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			// A home of the scratch's own: with the machine's HOME under /tmp,
			// a script extracting into /tmp (jq's compile-ios.sh) would really
			// reach the guard's configuration, and the corpus would measure the
			// machine instead of the projects.
			env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "LANG=en_US.UTF-8", "HOME="+fakeHome(t, s))
			payloads := make([][]byte, len(cases))
			for i, c := range cases {
				dir := filepath.Join(s.project, fmt.Sprintf("c%02d", i))
				if err := layOut(dir, c.Files); err != nil {
					t.Fatal(err)
				}
				payloads[i] = hookPayload("Bash", c.Command, dir, "ondisk", false)
			}
			results, errs := runHooks(env, s.project, payloads)
			asks := 0
			for i, c := range cases {
				if errs[i] != nil {
					t.Errorf("%d %q: %v", i, c.Command, errs[i])
					continue
				}
				got, reason := checkAnswer(results[i])
				if got == "" {
					t.Errorf("%d %q: %s", i, c.Command, reason)
					continue
				}
				if got == "ask" {
					asks++
				}
				if got != c.Expect {
					t.Errorf("%d %q: got %s, want %s (%s)\n%s", i, c.Command, got, c.Expect, c.Why, reason)
					continue
				}
				for _, want := range c.Mentions {
					if !strings.Contains(reason, want) {
						t.Errorf("%d %q: the reason does not name %q: %s", i, c.Command, want, reason)
					}
				}
			}
			checkFileRecords(t, s.data)
			t.Logf("%s: %d cases, %d asks", mode, len(cases), asks)
		})
	}
}

// checkFileRecords reads the decision log: some records list files read,
// each read one with its size and a sha256 of 64 hex digits.
func checkFileRecords(t *testing.T, data string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(data, "decisions.log"))
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			Files []struct {
				Path, Status, SHA256 string
				Size                 int64
			} `json:"files"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		for _, f := range r.Files {
			if f.Status == "read" {
				read++
				if len(f.SHA256) != 64 || f.Size <= 0 && f.Path == "" {
					t.Errorf("file record %+v", f)
				}
			}
		}
	}
	if read == 0 {
		t.Error("no decision-log record lists a file read")
	}
}

// corpusCase is one everyday command on a real project's files
// (testdata/ondisk-corpus.json over testdata/ondisk-projects).
type corpusCase struct {
	Project string `json:"project"`
	Command string `json:"command"`
	Expect  string `json:"expect"`
	Why     string `json:"why"`
}

// TestRealProjectCorpus runs everyday commands (make, make test, npm test,
// bash scripts/x.sh ...) on the build files and scripts of 33 public
// projects through the built binary, in both isolation modes: a command
// recorded silent must stay silent, one whose ask is justified (the file
// really crosses a line) must ask, and the known wrong asks are counted
// (each may be fixed; none may be added).
func TestRealProjectCorpus(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/ondisk-corpus.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	projects := map[string]bool{}
	for _, c := range cases {
		projects[c.Project] = true
	}
	if len(projects) < 30 || len(cases) < 200 {
		t.Fatalf("%d projects, %d commands: want at least 30 and 200", len(projects), len(cases))
	}
	src, err := filepath.Abs("testdata/ondisk-projects")
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"process", "inprocess"} {
		t.Run(mode, func(t *testing.T) {
			s := newScratch(t)
			if err := os.CopyFS(filepath.Join(s.project, "p"), os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			// A home of the scratch's own: with the machine's HOME under /tmp,
			// a script extracting into /tmp (jq's compile-ios.sh) would really
			// reach the guard's configuration, and the corpus would measure the
			// machine instead of the projects.
			env := s.env("default", false, "ZCODE_FENCE_LAYER_ISOLATION="+mode, "LANG=en_US.UTF-8", "HOME="+fakeHome(t, s))
			payloads := make([][]byte, len(cases))
			for i, c := range cases {
				dir := filepath.Join(s.project, "p", c.Project)
				payloads[i] = hookPayload("Bash", c.Command, dir, "corpus", false)
			}
			results, errs := runHooks(env, s.project, payloads)
			justified, wrong, late := 0, 0, 0
			for i, c := range cases {
				if errs[i] != nil {
					t.Errorf("%s: %q: %v", c.Project, c.Command, errs[i])
					continue
				}
				got, reason := checkAnswer(results[i])
				switch {
				case got == "":
					t.Errorf("%s: %q: %s", c.Project, c.Command, reason)
				case got == "ask" && outOfTime(reason):
					late++ // a loaded machine: the built-ins fail closed
				case c.Expect == "silent" && got != "silent":
					t.Errorf("%s: %q: a new ask: %s", c.Project, c.Command, reason)
				case strings.HasPrefix(c.Why, "justified") && got != "ask":
					t.Errorf("%s: %q: silent, but the file crosses a line (%s)", c.Project, c.Command, c.Why)
				case got == "ask" && strings.HasPrefix(c.Why, "justified"):
					justified++
				case got == "ask":
					wrong++
					t.Logf("known wrong ask: %s: %q: %s", c.Project, c.Command, reason)
				case c.Expect == "ask":
					t.Errorf("%s: %q: a known wrong ask is now silent: record it silent (%s)", c.Project, c.Command, c.Why)
				}
			}
			t.Logf("%s: %d projects, %d commands: %d justified asks, %d known wrong asks, %d out of time (load)", mode, len(projects), len(cases), justified, wrong, late)
		})
	}
}
