package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// logFilter is what `zcode-fence log` keeps of the records.
type logFilter struct {
	since    time.Time // zero: no limit
	decision string    // "", "ask", "silent", "error"
	rule     string    // "": any; else a rule id or a family prefix
	source   string    // "", "hook", "eval"
}

// keep reports whether r passes the filter. A rule matches when it equals
// the filter or starts with it followed by "-" (a family: "DG-GIT" matches
// DG-GIT-RESET-HARD), case-insensitively.
func (f logFilter) keep(r decisionlog.Record) bool {
	if f.decision != "" && r.Verdict != f.decision {
		return false
	}
	if f.source != "" && r.Source != f.source {
		return false
	}
	if !f.since.IsZero() {
		ts, err := time.Parse(time.RFC3339Nano, r.TS)
		if err != nil || ts.Before(f.since) {
			return false
		}
	}
	if f.rule != "" {
		want := strings.ToUpper(f.rule)
		for _, rule := range r.Rules {
			rule = strings.ToUpper(rule)
			if rule == want || strings.HasPrefix(rule, strings.TrimSuffix(want, "-")+"-") {
				return true
			}
		}
		return false
	}
	return true
}

// parseSince reads --since: a duration back from now ("24h", "90m", "7d")
// or a date or time ("2026-12-01", "2026-12-01T10:00:00Z"; a date alone is
// local midnight).
func parseSince(v string, now time.Time) (time.Time, error) {
	if d, ok := strings.CutSuffix(v, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(d, "%d", &days); err == nil && fmt.Sprint(days) == d && days >= 0 {
			return now.AddDate(0, 0, -days), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation("2006-01-02", v, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (24h, 7d) or a date (2026-12-01, 2026-12-01T10:00:00Z)", v)
}

// logMode summarises the decision log: where it is, how often each
// verdict and rule occurred among the matching records, then the last
// matching records with their source (hook or eval), rules and reasons.
// Outside a host it reads every host's data dir (config.DataDirs). Records
// that could not be written (decisionlog.ReadFailures) are reported on
// stderr first.
func logMode(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 20, "number of recent records to show")
	asJSON := fs.Bool("json", false, "print the recent records as JSON lines")
	since := fs.String("since", "", "only records since a duration ago or a date")
	var f logFilter
	fs.StringVar(&f.decision, "decision", "", "ask, silent or error")
	fs.StringVar(&f.rule, "rule", "", "a rule id or family prefix")
	fs.StringVar(&f.source, "source", "", "hook or eval")
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, "log: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "log: unexpected argument %q", fs.Arg(0))
	}
	if *n < 0 {
		return usageError(stderr, "log: -n %d: want 0 or more", *n)
	}
	switch f.decision {
	case "", "ask", "silent", "error":
	default:
		return usageError(stderr, "log: --decision %q: want ask, silent or error", f.decision)
	}
	switch f.source {
	case "", "hook", "eval":
	default:
		return usageError(stderr, "log: --source %q: want hook or eval", f.source)
	}
	if *since != "" {
		t, err := parseSince(*since, time.Now())
		if err != nil {
			return usageError(stderr, "log: %v", err)
		}
		f.since = t
	}

	var all []decisionlog.Record
	type source struct {
		path      string
		n, bad    int
		readError error
	}
	var sources []source
	for _, dir := range config.DataDirs(config.OSEnv()) {
		recs, bad, err := decisionlog.Read(dir)
		sources = append(sources, source{path: filepath.Join(dir, decisionlog.FileName), n: len(recs), bad: bad, readError: err})
		all = append(all, recs...)
		if f := decisionlog.ReadFailures(dir); f.Count > 0 {
			fmt.Fprintf(stderr, "zcode-fence log: %s: %s; the records are missing below (notes: %s)\n",
				dir, f, strings.Join(f.Paths, ", "))
		}
	}
	failed := 0
	for _, s := range sources {
		if s.readError != nil {
			fmt.Fprintf(stderr, "zcode-fence log: %v\n", s.readError)
			failed++
		}
	}
	if failed == len(sources) {
		return exitError
	}
	if len(sources) > 1 {
		decisionlog.SortByTime(all)
	}
	var recs []decisionlog.Record
	for _, r := range all {
		if f.keep(r) {
			recs = append(recs, r)
		}
	}
	if *asJSON {
		for _, r := range tail(recs, *n) {
			line, _ := json.Marshal(r)
			fmt.Fprintln(stdout, string(line))
		}
		return exitSilent
	}
	for _, s := range sources {
		if s.readError != nil {
			continue
		}
		fmt.Fprintf(stdout, "log: %s and %s (%d records", s.path, decisionlog.EvalFileName, s.n)
		if s.bad > 0 {
			fmt.Fprintf(stdout, ", %d unreadable lines", s.bad)
		}
		fmt.Fprintln(stdout, ")")
	}
	if len(recs) != len(all) {
		fmt.Fprintf(stdout, "matching: %d of %d\n", len(recs), len(all))
	}
	verdicts, rules := map[string]int{}, map[string]int{}
	for _, r := range recs {
		verdicts[r.Verdict+" ("+orUnknown(r.Source)+")"]++
		if r.Level == "error" && r.Verdict != "error" {
			verdicts[r.Verdict+" (with errors)"]++
		}
		for _, rule := range r.Rules {
			rules[rule]++
		}
	}
	fmt.Fprintln(stdout, "by verdict:")
	printCounts(stdout, verdicts, false)
	if len(rules) > 0 {
		fmt.Fprintln(stdout, "by rule:")
		printCounts(stdout, rules, true)
	}
	shown := tail(recs, *n)
	fmt.Fprintf(stdout, "last %d:\n", len(shown))
	printRecords(stdout, shown)
	return exitSilent
}

// printCounts prints one aligned "name count" line per key, by name or,
// with byCount, most frequent first.
func printCounts(w io.Writer, m map[string]int, byCount bool) {
	keys := sortedKeys(m)
	if byCount {
		sort.SliceStable(keys, func(a, b int) bool { return m[keys[a]] > m[keys[b]] })
	}
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	for _, k := range keys {
		fmt.Fprintf(w, "  %-*s  %d\n", width, k, m[k])
	}
}

// printRecords prints the records as a table whose columns are as wide as
// their widest cell (time, source, verdict, tool, rules), the command or
// path last; each record's reasons (or errors) follow on their own
// indented lines, so a long value never shifts the next record's columns.
func printRecords(w io.Writer, recs []decisionlog.Record) {
	if len(recs) == 0 {
		return
	}
	header := [5]string{"time", "source", "verdict", "tool", "rules"}
	rows := make([][5]string, len(recs))
	var widths [5]int
	for c, cell := range header {
		widths[c] = len(cell)
	}
	for i, r := range recs {
		ts := r.TS
		if t, err := time.Parse(time.RFC3339Nano, r.TS); err == nil {
			ts = t.Local().Format("2006-01-02 15:04:05")
		}
		rules := strings.Join(r.Rules, ",")
		if rules == "" {
			rules = "-"
		}
		rows[i] = [5]string{ts, orUnknown(r.Source), r.Verdict, orUnknown(r.Tool), rules}
		for c, cell := range rows[i] {
			widths[c] = max(widths[c], len(cell))
		}
	}
	row := func(c [5]string, last string) {
		fmt.Fprintf(w, "  %-*s  %-*s  %-*s  %-*s  %-*s  %s\n", widths[0], c[0], widths[1], c[1],
			widths[2], c[2], widths[3], c[3], widths[4], c[4], last)
	}
	row(header, "command or path")
	for i, r := range recs {
		row(rows[i], oneLineText(r.Detail))
		for _, reason := range r.Reasons {
			fmt.Fprintf(w, "      reason: %s\n", oneLineText(reason))
		}
		for _, e := range r.Errors {
			fmt.Fprintf(w, "      error:  %s\n", oneLineText(e))
		}
	}
}

// oneLineText keeps a logged value on one table line.
func oneLineText(s string) string {
	return strings.NewReplacer("\r\n", " ⏎ ", "\n", " ⏎ ", "\r", " ⏎ ", "\t", " ").Replace(s)
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func tail(recs []decisionlog.Record, n int) []decisionlog.Record {
	if n < 0 {
		n = 0
	}
	if len(recs) > n {
		return recs[len(recs)-n:]
	}
	return recs
}
