package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// logWorld is a fake home with a decision log in each host's data dir:
// ZCode's (two hook records) and Claude Code's (an --eval trial, a silent
// hook call, an input error), none named by the environment.
type logWorld struct {
	home, zcodeDir, claudeDir string
	env                       []string
}

func newLogWorld(t *testing.T) logWorld {
	t.Helper()
	s := newScratch(t)
	w := logWorld{home: filepath.Join(s.root, "home")}
	w.zcodeDir = filepath.Join(w.home, ".zcode", "cli", "plugins", "data", "zcode-fence@zcode-fence")
	w.claudeDir = filepath.Join(w.home, ".claude", "plugins", "data", "zcode-fence-zcode-fence")
	now := time.Now().UTC()
	at := func(ago time.Duration) string { return now.Add(-ago).Format(time.RFC3339Nano) }
	for dir, recs := range map[string][]decisionlog.Record{
		w.zcodeDir: {
			{TS: at(5 * time.Hour), Source: "hook", Level: "info", Verdict: "ask", Tool: "Bash", Detail: "git reset --hard && git clean -fdx",
				Rules: []string{"DG-GIT-RESET-HARD", "DG-GIT-CLEAN"}, Reasons: []string{"reset reason", "clean reason"}},
			{TS: at(30 * time.Minute), Source: "hook", Level: "info", Verdict: "ask", Tool: "Write", Detail: "/etc/hosts",
				Rules: []string{"FN-WRITE-OUTSIDE"}, Reasons: []string{"outside reason"}},
		},
		w.claudeDir: {
			{TS: at(2 * time.Hour), Source: "eval", Level: "info", Verdict: "ask", Tool: "Bash", Detail: "git push --force",
				Rules: []string{"DG-GIT-FORCE-PUSH"}, Reasons: []string{"push reason\non two lines"}},
			{TS: at(20 * time.Minute), Source: "hook", Level: "info", Verdict: "silent", Tool: "Bash", Detail: "ls -la"},
			{TS: at(10 * time.Minute), Source: "hook", Level: "error", Verdict: "error", Errors: []string{"stdin: invalid JSON"}},
		},
	} {
		for _, r := range recs {
			if err := decisionlog.Append(dir, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, kv := range s.env("", true) {
		k, _, _ := strings.Cut(kv, "=")
		if k != "ZCODE_FENCE_DATA_DIR" && k != "HOME" && k != "CLAUDE_CONFIG_DIR" {
			w.env = append(w.env, kv)
		}
	}
	w.env = append(w.env, "HOME="+w.home, "TZ=UTC")
	return w
}

// TestLogCommand: outside a host, `zcode-fence log` reads both hosts'
// data dirs, shows each record's source, verdict, tool, rules and reasons
// in aligned columns, and filters by time, decision, rule and source.
func TestLogCommand(t *testing.T) {
	t.Parallel()
	w := newLogWorld(t)
	for _, c := range []struct {
		name string
		args []string
		// want are the details of the records shown, oldest first.
		want []string
	}{
		{"all", nil, []string{"git reset", "git push", "/etc/hosts", "ls -la", ""}},
		{"since", []string{"--since", "3h"}, []string{"git push", "/etc/hosts", "ls -la", ""}},
		{"decision", []string{"--decision", "ask"}, []string{"git reset", "git push", "/etc/hosts"}},
		{"rule family", []string{"--rule", "DG-GIT"}, []string{"git reset", "git push"}},
		{"rule id lower case", []string{"--rule", "dg-git-clean"}, []string{"git reset"}},
		{"rule prefix is a whole part", []string{"--rule", "DG-GIT-RE"}, nil},
		{"source", []string{"--source", "eval"}, []string{"git push"}},
		{"combined", []string{"--source", "hook", "--decision", "ask", "--since", "1h"}, []string{"/etc/hosts"}},
		{"last n", []string{"-n", "2"}, []string{"ls -la", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runExe(t, binary, w.env, w.home, nil, append([]string{"log"}, c.args...)...)
			if r.code != 0 || len(r.stderr) != 0 {
				t.Fatalf("exit %d, stderr %s", r.code, r.stderr)
			}
			out := string(r.stdout)
			for _, dir := range []string{w.zcodeDir, w.claudeDir} {
				if !strings.Contains(out, filepath.Join(dir, decisionlog.FileName)) {
					t.Errorf("the log of %s is not listed:\n%s", dir, out)
				}
			}
			rows, header := logRows(t, out)
			if len(rows) != len(c.want) {
				t.Fatalf("%d records shown, want %d:\n%s", len(rows), len(c.want), out)
			}
			for i, row := range rows {
				if !strings.HasPrefix(row.detail, c.want[i]) {
					t.Errorf("record %d is %q, want %q", i, row.detail, c.want[i])
				}
				if len(row.starts) != len(header.starts) {
					t.Fatalf("row %q has %d columns, header %d", row.line, len(row.starts), len(header.starts))
				}
				for k := range row.starts {
					if row.starts[k] != header.starts[k] {
						t.Errorf("column %d of %q starts at %d, the header's at %d", k, row.line, row.starts[k], header.starts[k])
					}
				}
			}
		})
	}

	t.Run("columns", func(t *testing.T) {
		r := runExe(t, binary, w.env, w.home, nil, "log")
		out := string(r.stdout)
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`(?m)^  time +source +verdict +tool +rules +command or path$`),
			regexp.MustCompile(`(?m) hook +ask +Bash +DG-GIT-RESET-HARD,DG-GIT-CLEAN +git reset --hard && git clean -fdx$`),
			regexp.MustCompile(`(?m)^      reason: reset reason\n      reason: clean reason$`),
			regexp.MustCompile(`(?m) eval +ask +Bash +DG-GIT-FORCE-PUSH +git push --force$`),
			regexp.MustCompile(`(?m)^      reason: push reason ⏎ on two lines$`),
			regexp.MustCompile(`(?m) hook +error +\? +- +$`),
			regexp.MustCompile(`(?m)^      error:  stdin: invalid JSON$`),
			regexp.MustCompile(`(?m)^  ask \(eval\) +1$`),
			regexp.MustCompile(`(?m)^  ask \(hook\) +2$`),
			regexp.MustCompile(`(?m)^  DG-GIT-CLEAN +1$`),
		} {
			if !want.MatchString(out) {
				t.Errorf("log output lacks %s:\n%s", want, out)
			}
		}
	})

	t.Run("one data dir named", func(t *testing.T) {
		r := runExe(t, binary, append(w.env, "CLAUDE_PLUGIN_DATA="+w.claudeDir), w.home, nil, "log", "--json")
		lines := strings.Split(strings.TrimSpace(string(r.stdout)), "\n")
		if r.code != 0 || len(lines) != 3 || !strings.Contains(lines[0], `"source":"eval"`) {
			t.Errorf("exit %d, %d records (want Claude Code's 3, the eval first):\n%s%s", r.code, len(lines), r.stdout, r.stderr)
		}
	})

	t.Run("unreadable", func(t *testing.T) {
		dir := filepath.Join(w.home, "bad-data")
		if err := os.MkdirAll(filepath.Join(dir, decisionlog.FileName), 0o755); err != nil {
			t.Fatal(err)
		}
		r := runExe(t, binary, append(w.env, "ZCODE_FENCE_DATA_DIR="+dir), w.home, nil, "log")
		if r.code != exitError || !strings.Contains(string(r.stderr), "not a regular file") {
			t.Errorf("a log that is a directory: exit %d, stderr %q; want %d and the reason", r.code, r.stderr, exitError)
		}
	})
}

// logRow is one record line of the log table: the start of each column
// and the command or path.
type logRow struct {
	line   string
	starts []int
	detail string
}

// logRows parses the table after "last N:": the header and the record
// lines (the indented reason and error lines are skipped). A column starts
// after two or more spaces; the time column holds one space.
func logRows(t *testing.T, out string) (rows []logRow, header logRow) {
	t.Helper()
	_, table, ok := strings.Cut(out, "\nlast ")
	if !ok {
		t.Fatalf("no table:\n%s", out)
	}
	lines := strings.Split(table, "\n")[1:]
	gap := regexp.MustCompile(`  +`)
	for i, line := range lines {
		if line == "" || strings.HasPrefix(line, "      ") {
			continue
		}
		row := logRow{line: line}
		for _, m := range gap.FindAllStringIndex(line, -1) {
			row.starts = append(row.starts, m[1])
		}
		if len(row.starts) > 0 && row.starts[len(row.starts)-1] < len(line) {
			row.detail = line[row.starts[len(row.starts)-1]:]
		}
		if i == 0 {
			header = row
			continue
		}
		rows = append(rows, row)
	}
	return rows, header
}
