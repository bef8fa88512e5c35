package danger

import (
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/rules"
)

// TestCoverageAsks: every command the reference lists for a rule (the
// coverage catalogue of core/cmdfacts, rendered into docs/rules.md under
// "What each rule covers") asks with that rule, for every name of the
// command and the first spelling of each path word, written as the
// row states it with one target named. The reference is then a
// statement about the gate, not only about the tables.
func TestCoverageAsks(t *testing.T) {
	l := newTestLayer()
	n := 0
	for _, r := range rules.All() {
		for _, c := range r.Covers() {
			for _, cli := range strings.Split(c.CLI, ", ") {
				cmds := c.Commands
				if len(cmds) == 0 {
					cmds = []string{""}
				}
				for _, row := range cmds {
					command := coverageCommand(cli, row)
					check(t, l, tcase{ID: "coverage " + r.ID, Command: command, Expect: "ask", Rule: r.ID,
						Why: "listed under " + r.ID + " as " + cli + " " + row}, "en")
					n++
				}
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d covered commands checked; the catalogue lost its tables?", n)
	}
}

// coverageCommand writes a command line for one row of the reference: the
// first alias of each path word and option, the conditions spelled out
// (onto a device, of root), and a target named like production.
func coverageCommand(cli, row string) string {
	row, _, _ = strings.Cut(row, " (not ")
	if strings.HasPrefix(row, "(not ") {
		row = ""
	}
	target := "prod-main"
	var words []string
	switch {
	case strings.HasSuffix(row, "onto a /dev device"):
		row = strings.TrimSpace(strings.TrimSuffix(row, "onto a /dev device"))
		words = append(words, "disk.img")
		target = "/dev/sdz"
	case strings.HasSuffix(row, "of root or a system account"):
		row = strings.TrimSpace(strings.TrimSuffix(row, "of root or a system account"))
		target = "root"
	}
	path, opts, _ := strings.Cut(row, "with ")
	var out []string
	out = append(out, strings.Fields(cli)...)
	for _, w := range strings.Fields(path) {
		if w == "NAME=VALUE" {
			out = append(out, "boot-args=-v")
			target = ""
			continue
		}
		first, _, _ := strings.Cut(w, "/")
		if first == "" { // -r/-R/--recursive starts with '-', never '/'
			first = w
		}
		out = append(out, first)
	}
	for _, w := range strings.Fields(opts) {
		first, _, _ := strings.Cut(w, "/")
		out = append(out, first)
	}
	out = append(out, words...)
	if cli == "az" { // every az argument is named; the path is exact
		out = append(out, "--name")
	}
	if target != "" {
		out = append(out, target)
	}
	return strings.Join(out, " ")
}
