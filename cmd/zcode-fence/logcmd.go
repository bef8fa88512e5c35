package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
)

// logMode summarises the decision log: how often each verdict and rule
// occurred, then the last records.
func logMode(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("log", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 20, "number of recent records to show")
	asJSON := fs.Bool("json", false, "print the recent records as JSON lines")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	dir := config.DataDir(config.OSEnv())
	recs, bad, err := decisionlog.Read(dir)
	if err != nil {
		fmt.Fprintf(stderr, "zcode-fence log: %v\n", err)
		return 1
	}
	if *asJSON {
		for _, r := range tail(recs, *n) {
			line, _ := json.Marshal(r)
			fmt.Fprintln(stdout, string(line))
		}
		return 0
	}
	fmt.Fprintf(stdout, "log: %s (%d records", filepath.Join(dir, decisionlog.FileName), len(recs))
	if bad > 0 {
		fmt.Fprintf(stdout, ", %d unreadable lines", bad)
	}
	fmt.Fprintln(stdout, ")")
	verdicts, rules := map[string]int{}, map[string]int{}
	for _, r := range recs {
		verdicts[r.Verdict]++
		if r.Level == "error" && r.Verdict != "error" {
			verdicts[r.Verdict+" (with errors)"]++
		}
		for _, rule := range r.Rules {
			rules[rule]++
		}
	}
	fmt.Fprintln(stdout, "by verdict:")
	for _, k := range sortedKeys(verdicts) {
		fmt.Fprintf(stdout, "  %-22s %d\n", k, verdicts[k])
	}
	if len(rules) > 0 {
		fmt.Fprintln(stdout, "by rule:")
		keys := sortedKeys(rules)
		sort.SliceStable(keys, func(a, b int) bool { return rules[keys[a]] > rules[keys[b]] })
		for _, k := range keys {
			fmt.Fprintf(stdout, "  %-28s %d\n", k, rules[k])
		}
	}
	fmt.Fprintf(stdout, "last %d:\n", min(*n, len(recs)))
	for _, r := range tail(recs, *n) {
		what := r.Detail
		if r.Verdict == "error" && len(r.Errors) > 0 {
			what = r.Errors[0]
		}
		fmt.Fprintf(stdout, "  %s  %-6s %-10s %-24s %s\n", r.TS, r.Verdict, r.Tool, strings.Join(r.Rules, ","), what)
	}
	return 0
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
