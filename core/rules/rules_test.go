package rules

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the module root, two levels above this package.
const repoRoot = "../.."

func TestDocIsCurrent(t *testing.T) {
	got, err := os.ReadFile(filepath.Join(repoRoot, DocPath))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Markdown()) {
		t.Errorf("%s is not what the catalog renders; run go generate ./core/rules", DocPath)
	}
}

// layerPrefix is the id prefix of each built-in layer's rules.
var layerPrefix = map[string]string{"danger": "DG-", "fence": "FN-", "decisionmodel": "DM-", "host": "HK-"}

// TestCoversNamed: a rule whose commands come from a table names them in
// its text ({list}), and only such a rule does; every listed command has
// a name.
func TestCoversNamed(t *testing.T) {
	for _, r := range All() {
		cs := r.Covers()
		if (len(cs) > 0) != strings.Contains(r.Doc, "{list}") {
			t.Errorf("%s: %d commands from tables, {list} in its doc: %v", r.ID, len(cs), strings.Contains(r.Doc, "{list}"))
		}
		for _, c := range cs {
			if strings.TrimSpace(c.CLI) == "" {
				t.Errorf("%s: a covered row without a command: %+v", r.ID, c)
			}
		}
	}
}

func TestCatalog(t *testing.T) {
	if len(All()) != len(all) {
		t.Errorf("All lists %d rules, %d are declared (a rule without a registered family?)", len(All()), len(all))
	}
	names := map[string]bool{}
	for _, f := range Families() {
		if names[f.Name] || f.Name == "" || f.Title == "" {
			t.Errorf("family %+v: name empty, repeated or without title", f)
		}
		names[f.Name] = true
		if len(f.Rules()) == 0 {
			t.Errorf("family %s has no rule", f.Name)
		}
		documented := false
		for _, l := range layerDocs {
			documented = documented || l.name == f.Layer
		}
		if !documented {
			t.Errorf("family %s: layer %q has no part in %s", f.Name, f.Layer, DocPath)
		}
	}
	for _, r := range All() {
		prefix, ok := layerPrefix[r.Family.Layer]
		if !ok || !strings.HasPrefix(r.ID, prefix) || r.ID != strings.ToUpper(r.ID) || strings.ContainsAny(r.ID, " _") {
			t.Errorf("%s: id does not fit layer %s (%s, upper case, dashes)", r.ID, r.Family.Layer, prefix)
		}
		if strings.TrimSpace(r.Documentation()) == "" || strings.Contains(r.Documentation(), "{list}") || strings.TrimSpace(r.Zh) == "" || strings.TrimSpace(r.En) == "" {
			t.Errorf("%s: needs a doc and both templates", r.ID)
		}
		zh, en := Placeholders(r.Zh), Placeholders(r.En)
		slices.Sort(zh)
		slices.Sort(en)
		if !slices.Equal(zh, en) {
			t.Errorf("%s: the templates use different placeholders: zh %v, en %v", r.ID, zh, en)
		}
		if got, ok := Lookup(r.ID); !ok || got != r {
			t.Errorf("Lookup(%s) does not find it", r.ID)
		}
	}
	if _, ok := Lookup("DG-NOPE"); ok {
		t.Error("Lookup found an id nobody declared")
	}
}

// TestFill: placeholders are replaced once, in one pass; braces in the
// template or in the values stay as they are.
func TestFill(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"{cmd} {detail}{subject} x {targets}.", "rm {targets}  (s) x /a."},
		{"{unknown} {cmd", "{unknown} {cmd"},
		{"", ""},
		{"{{cmd}}", "{rm {targets}}"},
		{"{cmd}{cmd}", "rm {targets}rm {targets}"},
		{"{}", "{}"},
	} {
		got := Fill(tc.body, "cmd", "rm {targets}", "detail", "", "subject", " (s)", "targets", "/a")
		if got != tc.want {
			t.Errorf("Fill(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
	if got := Placeholders("{a} {b}{a} {c d} {} {e"); strings.Join(got, ",") != "a,b" {
		t.Errorf("Placeholders = %v", got)
	}
}

// testCase is what TestEveryRuleHasAnAskCaseAndASilentTwin reads of a
// table case in a layer's testdata: the layers' formats share these
// fields.
type testCase struct {
	Expect string   `json:"expect"` // "ask" or "silent"
	Ask    *bool    `json:"ask"`    // the decision model's threshold cases
	Rule   string   `json:"rule"`
	Rules  []string `json:"rules"`
	// TwinOf links a silent case to the rule it nearly triggers: the same
	// shape of command or call, one detail away from the ask (rm -rf ./x
	// next to rm -rf /), which proves the rule stays silent on everyday
	// work.
	TwinOf string `json:"twin_of"`
}

// TestEveryRuleHasAnAskCaseAndASilentTwin reads every table of cases in
// plugins/*/testdata, core/host/testdata and core/agenthost's payloads (a
// JSON array of objects, or an object with such an
// array as "cases"): each rule of the catalog
// needs an asking case that names it (rule or rules) and a silent case
// linked to it with twin_of; every id a case names must be in the catalog.
func TestEveryRuleHasAnAskCaseAndASilentTwin(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "plugins", "*", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata found (%v)", err)
	}
	// The host's own rules (HK-*) have their cases beside the host.
	hostFiles, _ := filepath.Glob(filepath.Join(repoRoot, "core", "host", "testdata", "*.json"))
	files = append(files, hostFiles...)
	// The host seam's rules are raised while decoding payloads.
	files = append(files, filepath.Join(repoRoot, "core", "agenthost", "testdata", "payloads.json"))
	asks, twins := map[string][]string{}, map[string][]string{}
	tables := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(data) {
			t.Errorf("%s: not valid JSON", file)
			continue
		}
		var cases []testCase
		if err := json.Unmarshal(data, &cases); err != nil {
			var suite struct { // a fixture with its cases in a member
				Cases []testCase `json:"cases"`
			}
			if err2 := json.Unmarshal(data, &suite); err2 != nil || len(suite.Cases) == 0 {
				if strings.HasPrefix(filepath.Base(file), "cases_") {
					t.Errorf("%s: a case file that does not read as a table of cases: %v", file, err)
				}
				continue // not a table of cases (messages, budgets, fixtures)
			}
			cases = suite.Cases
		}
		tables++
		name := filepath.Base(filepath.Dir(filepath.Dir(file))) + "/" + filepath.Base(file)
		for i, c := range cases {
			ask := c.Expect == "ask" || c.Ask != nil && *c.Ask
			silent := c.Expect == "silent" || c.Ask != nil && !*c.Ask
			ids := c.Rules
			if c.Rule != "" {
				ids = append([]string{c.Rule}, ids...)
			}
			for _, id := range append(slices.Clone(ids), c.TwinOf) {
				if _, ok := Lookup(id); id != "" && !ok {
					t.Errorf("%s case %d names %s, which the catalog does not declare", name, i, id)
				}
			}
			if ask {
				for _, id := range ids {
					asks[id] = append(asks[id], name)
				}
			}
			if c.TwinOf != "" {
				if !silent {
					t.Errorf("%s case %d: twin_of %s on a case that is not silent", name, i, c.TwinOf)
				}
				twins[c.TwinOf] = append(twins[c.TwinOf], name)
			}
		}
	}
	if tables < 3 {
		t.Fatalf("read only %d tables of cases", tables)
	}
	var missing []string
	for _, r := range All() {
		if len(asks[r.ID]) == 0 {
			missing = append(missing, r.ID+": no ask case")
		}
		if len(twins[r.ID]) == 0 {
			missing = append(missing, r.ID+": no silent twin")
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Error(m)
	}
}
