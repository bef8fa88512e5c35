package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cliCase is one command line run through the built binary: the exit code
// it must give and what stdout and stderr must hold. Stdout and Stderr are
// "empty", "ask-line" (stdout only: exactly the hook's ask line) or a
// substring; "" checks nothing. Env adds variables to the scratch
// environment. JSONDecision, when set, wants stdout to be
// one JSON object whose "decision" is that value.
type cliCase struct {
	Name         string   `json:"name"`
	Args         []string `json:"args"`
	Env          []string `json:"env"`
	Stdin        string   `json:"stdin"`
	Exit         int      `json:"exit"`
	Stdout       string   `json:"stdout"`
	Stderr       string   `json:"stderr"`
	JSONDecision string   `json:"json_decision"`
}

func loadCLICases(t *testing.T) []cliCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "cli-cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []cliCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("testdata/cli-cases.json: %v", err)
	}
	return cases
}

// TestCommandLine runs every case of testdata/cli-cases.json through the
// built binary, inside a scratch project: a command line the binary does
// not know is a usage error (exit 2, usage on stderr, nothing on stdout),
// never hook mode; the judging modes exit 0 for silent and 3 for ask.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	s := newScratch(t)
	env := s.env("default", false, "ZCODE_FENCE_LANGUAGE=en")
	cases := loadCLICases(t)
	results := make([]runResult, len(cases))
	parallelDo(len(cases), func(i int) {
		results[i] = runExe(t, binary, append(append([]string{}, env...), cases[i].Env...), s.project, []byte(cases[i].Stdin), cases[i].Args...)
	})
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			checkCLIResult(t, c, results[i])
		})
	}
}

func checkCLIResult(t *testing.T, c cliCase, r runResult) {
	t.Helper()
	if r.code != c.Exit {
		t.Errorf("%q: exit %d, want %d\nstdout: %s\nstderr: %s", c.Args, r.code, c.Exit, r.stdout, firstLines(r.stderr, 3))
	}
	checkStream(t, "stdout", c.Stdout, r.stdout)
	checkStream(t, "stderr", c.Stderr, r.stderr)
	if c.Exit == exitUsage && !strings.Contains(string(r.stderr), "Usage:\n") {
		t.Errorf("%q: a usage error must print the usage on stderr", c.Args)
	}
	if c.JSONDecision != "" {
		var rep explainReport
		if err := json.Unmarshal(r.stdout, &rep); err != nil {
			t.Fatalf("%q: stdout is not one JSON object: %v\n%s", c.Args, err, r.stdout)
		}
		if rep.Decision != c.JSONDecision || len(rep.Layers) == 0 {
			t.Errorf("%q: JSON decision %q with %d layers, want %q", c.Args, rep.Decision, len(rep.Layers), c.JSONDecision)
		}
	}
}

func checkStream(t *testing.T, name, want string, got []byte) {
	t.Helper()
	switch want {
	case "":
	case "empty":
		if len(got) != 0 {
			t.Errorf("%s not empty: %s", name, firstLines(got, 3))
		}
	case "ask-line":
		if !askShape.Match(got) {
			t.Errorf("%s is not the exact ask line: %q", name, got)
		}
	default:
		if !strings.Contains(string(got), want) {
			t.Errorf("%s does not contain %q:\n%s", name, want, firstLines(got, 5))
		}
	}
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, "\n")
}

// exitCode is the exit status behind a cmd.Run error (0 for nil, -1 when
// the process did not run or was killed).
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
