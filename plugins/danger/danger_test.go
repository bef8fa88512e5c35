package danger

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/layerproto/convert"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk/ondisktest"
)

// testPlatforms are the simulated platforms every case runs on, by the
// name cases use (core.Call.Platform).
var testPlatforms = map[string]paths.Platform{
	"linux": paths.Simulated("linux", "/home/u", map[string]string{
		"HOME": "/home/u", "TMPDIR": "/tmp", "USER": "u", "PATH": "/usr/bin:/bin",
	}),
	"darwin": paths.Simulated("darwin", "/Users/u", map[string]string{
		"HOME": "/Users/u", "TMPDIR": "/var/folders/xy/T", "USER": "u", "PATH": "/usr/bin:/bin",
	}),
	"windows": paths.Simulated("windows", `C:\Users\alice`, map[string]string{
		"HOME": `C:\Users\alice`, "USERPROFILE": `C:\Users\alice`, "TEMP": `C:\Users\alice\AppData\Local\Temp`,
		"TMP": `C:\Users\alice\AppData\Local\Temp`, "SystemRoot": `C:\Windows`, "windir": `C:\Windows`,
		"SystemDrive": "C:", "ProgramFiles": `C:\Program Files`, "APPDATA": `C:\Users\alice\AppData\Roaming`,
	}),
}

// defaultCwd is where a case's command runs unless it says otherwise: a
// project below the home directory.
var defaultCwd = map[string]string{
	"linux":   "/home/u/proj",
	"darwin":  "/Users/u/proj",
	"windows": `C:\Users\alice\proj`,
}

func testPlatform(goos string) paths.Platform {
	if p, ok := testPlatforms[goos]; ok {
		return p
	}
	return testPlatforms["linux"]
}

func newTestLayer() *Layer { return New(WithPlatform(testPlatform)) }

// tcase is one table case (testdata/cases_*.json, seed-dg.json).
type tcase struct {
	ID          string `json:"id,omitempty"`
	Command     string `json:"command"`
	Platform    string `json:"platform,omitempty"` // linux (default), darwin, windows
	Tool        string `json:"tool,omitempty"`     // Bash (default) or PowerShell
	Cwd         string `json:"cwd,omitempty"`
	Expect      string `json:"expect"`         // ask or silent
	Rule        string `json:"rule,omitempty"` // the rule an ask must carry
	Why         string `json:"why,omitempty"`
	CustomRules string `json:"custom_rules,omitempty"`
	Config      string `json:"config,omitempty"` // seed cases: custom, invalid
	Desc        string `json:"desc,omitempty"`
	// Mentions (messages.json) must each appear in the message of the
	// case's rule, in both languages: the command and what it acts on.
	Mentions []string `json:"mentions,omitempty"`
	// Files (ondisk_cases.json) are files on disk, by path relative to the
	// cwd (ondisktest.Spec): the analysis reads the ones the command runs.
	Files ondisktest.Spec `json:"files,omitempty"`
}

func (c tcase) platform() string {
	if c.Platform == "" {
		return "linux"
	}
	return c.Platform
}

func (c tcase) name() string {
	n := c.Command
	if c.ID != "" {
		n = c.ID + " " + n
	}
	if c.Platform != "" || c.Tool != "" {
		n = "[" + c.platform() + " " + c.Tool + "] " + n
	}
	return strings.ReplaceAll(n, "\n", `\n`)
}

// seedCustomRules are the custom_rules of the seed corpus's config fixtures.
var seedCustomRules = map[string]string{
	"custom":  "^special-cleanup",
	"invalid": "special-cleanup;([",
}

// call builds the core.Call the host would build for the case (see
// core/host.Prepare): normalised tool, cwd, platform, options, and the
// shell analysis made with the platform's home and environment.
func (c tcase) call(language string) *core.Call {
	goos := c.platform()
	plat := testPlatform(goos)
	cwd := c.Cwd
	if cwd == "" {
		cwd = defaultCwd[goos]
	}
	cwd = plat.Clean(cwd).Norm
	tool, dialect := "Bash", ir.Bash
	if c.Tool == "PowerShell" {
		tool, dialect = "PowerShell", ir.PowerShell
	}
	command := strings.ReplaceAll(c.Command, "{PROJECT}", cwd)
	custom := c.CustomRules
	if c.Config != "" {
		custom = seedCustomRules[c.Config]
	}
	call := &core.Call{
		Tool: tool, Kind: core.KindShell, Command: command, Cwd: cwd, ProjectRoot: cwd, Platform: goos,
		Options: map[string]string{core.LanguageOption: language},
		Script:  analysis.Analyze(command, analysis.Options{Dialect: dialect, Cwd: cwd, Home: plat.Home, Lookup: plat.Lookup, Files: c.Files.Reader(cwd)}),
	}
	if custom != "" {
		call.Options[KeyCustomRules] = custom
	}
	if isReadTool(c.Tool) { // a host's read tool: the command is the path read
		call.Tool, call.Kind, call.Paths, call.Command, call.Script = c.Tool, core.KindRead, []string{command}, "", nil
	}
	return call
}

// isReadTool: the normalised read tools (core/agenthost's reads.go).
func isReadTool(tool string) bool {
	switch tool {
	case "Read", "Grep", "NotebookRead", "ReadMany":
		return true
	}
	return false
}

func readCases(t testing.TB, file string) []tcase {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []tcase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return cases
}

// familyCases reads every testdata/cases_<family>.json (one file per rule
// family: delete, disk, power, git, exec, persist, custom), in name order.
func familyCases(t testing.TB) []tcase {
	t.Helper()
	files, err := filepath.Glob("testdata/cases_*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/cases_*.json: %v", err)
	}
	var all []tcase
	for _, f := range files {
		all = append(all, readCases(t, filepath.Base(f))...)
	}
	return all
}

// readEveryday reads testdata/everyday.txt: one command per line, # for
// comments.
func readEveryday(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/everyday.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// check judges the case in one language and reports what is wrong.
func check(t *testing.T, l *Layer, c tcase, language string) core.Verdict {
	t.Helper()
	v, err := l.Decide(context.Background(), c.call(language))
	if err != nil {
		t.Errorf("%s: error %v", c.name(), err)
		return v
	}
	got := v.Decision.String()
	if got != c.Expect {
		t.Errorf("%s (%s): got %s, want %s (%s)\n%s%s", c.name(), language, got, c.Expect, c.Why, reasonsText(v), c.call(language).Script.Outline())
		return v
	}
	if c.Expect == "ask" && c.Rule != "" && !hasRule(v, c.Rule) {
		t.Errorf("%s (%s): asked without rule %s (%s)\n%s", c.name(), language, c.Rule, c.Why, reasonsText(v))
	}
	checkMessages(t, c.name(), language, v)
	for _, m := range c.Mentions {
		named := false
		for _, r := range v.Reasons {
			named = named || r.Rule == c.Rule && strings.Contains(r.Message, m)
		}
		if !named {
			t.Errorf("%s (%s): the %s message does not name %q\n%s", c.name(), language, c.Rule, m, reasonsText(v))
		}
	}
	return v
}

// checkMessages: every reason is the danger layer's, has a rule id, the
// language's prefix, a bounded length, and no two are the same.
func checkMessages(t *testing.T, name, language string, v core.Verdict) {
	t.Helper()
	prefix := prefixZh
	if language == "en" {
		prefix = prefixEn
	}
	seen := map[string]bool{}
	for _, r := range v.Reasons {
		if r.Layer != Name || !strings.HasPrefix(r.Rule, "DG-") {
			t.Errorf("%s: bad reason origin %+v", name, r)
		}
		if !strings.HasPrefix(r.Message, prefix) {
			t.Errorf("%s (%s): message without prefix %q: %q", name, language, prefix, r.Message)
		}
		if n := utf8.RuneCountInString(r.Message); n > 240 {
			t.Errorf("%s (%s): message of %d characters: %q", name, language, n, r.Message)
		}
		if seen[r.Message] {
			t.Errorf("%s (%s): duplicate reason %q", name, language, r.Message)
		}
		seen[r.Message] = true
		if rule, ok := rules.Lookup(r.Rule); !ok || rule.Family.Layer != Name {
			t.Errorf("%s: rule %s is not one of the danger gate's rules in core/rules", name, r.Rule)
		}
	}
}

func hasRule(v core.Verdict, rule string) bool {
	for _, r := range v.Reasons {
		if r.Rule == rule {
			return true
		}
	}
	return false
}

func reasonsText(v core.Verdict) string {
	var sb strings.Builder
	for _, r := range v.Reasons {
		fmt.Fprintf(&sb, "  %s: %s\n", r.Rule, r.Message)
	}
	return sb.String()
}

// TestCases runs testdata/cases_*.json in both languages, checking the
// verdict, the rule of every ask and the messages.
func TestCases(t *testing.T) {
	cases := familyCases(t)
	l := newTestLayer()
	asks, silents := 0, 0
	rulesSeen := map[string]int{}
	for _, c := range cases {
		if c.Expect != "ask" && c.Expect != "silent" {
			t.Fatalf("%s: expect %q", c.name(), c.Expect)
		}
		if c.Expect == "ask" {
			asks++
			if c.Rule == "" {
				t.Errorf("%s: ask case without a rule", c.name())
			}
			rulesSeen[c.Rule]++
		} else {
			silents++
		}
		if c.Why == "" {
			t.Errorf("%s: case without why", c.name())
		}
		for _, lang := range []string{"zh", "en"} {
			check(t, l, c, lang)
		}
	}
	// Scripts, task files and hooks read from disk.
	for _, c := range readCases(t, "ondisk_cases.json") {
		if c.Expect == "ask" {
			asks++
			rulesSeen[c.Rule]++
		} else {
			silents++
		}
		for _, lang := range []string{"zh", "en"} {
			check(t, l, c, lang)
		}
	}
	// Every rule of the layer has at least one ask case (DG-INCOMPLETE's
	// are in budget.json, judged with a tiny budget by TestStepBudget).
	for _, c := range readCases(t, "budget.json") {
		if c.Expect == "ask" {
			rulesSeen[c.Rule]++
		}
	}
	for _, r := range layerRules() {
		if rulesSeen[r.ID] == 0 {
			t.Errorf("no ask case for %s", r.ID)
		}
	}
	if len(cases) < 400 {
		t.Errorf("only %d cases; want at least 400", len(cases))
	}
	t.Logf("cases_*.json: %d cases (%d ask, %d silent), %d rules covered", len(cases), asks, silents, len(rulesSeen))
}

// TestMessages: messages name the command and its target or subject
// (testdata/messages.json: one or more cases per rule that has one).
func TestMessages(t *testing.T) {
	cases := readCases(t, "messages.json")
	l := newTestLayer()
	for _, c := range cases {
		if len(c.Mentions) == 0 {
			t.Errorf("%s: messages.json case without mentions", c.name())
		}
		for _, lang := range []string{"zh", "en"} {
			check(t, l, c, lang)
		}
	}
	t.Logf("messages.json: %d cases", len(cases))
}

// TestSeedCases runs every danger-group case of the acceptance seed
// corpus (testdata/seed-dg.json, copied from shared/acceptance).
func TestSeedCases(t *testing.T) {
	cases := readCases(t, "seed-dg.json")
	l := newTestLayer()
	for _, c := range cases {
		for _, lang := range []string{"zh", "en"} {
			check(t, l, c, lang)
		}
	}
	t.Logf("seed-dg.json: %d cases", len(cases))
}

// TestEveryday: 100 everyday agent commands stay silent, on every
// platform.
func TestEveryday(t *testing.T) {
	cmds := readEveryday(t)
	if len(cmds) != 100 {
		t.Errorf("everyday.txt has %d commands; want 100", len(cmds))
	}
	l := newTestLayer()
	for _, goos := range []string{"linux", "darwin", "windows"} {
		for _, cmd := range cmds {
			check(t, l, tcase{Command: cmd, Platform: goos, Expect: "silent", Why: "everyday work"}, "zh")
		}
	}
}

// TestCustomRulesAnnotation: a rule that does not compile is skipped and
// named in the annotations, silent or not; the others still apply.
func TestCustomRulesAnnotation(t *testing.T) {
	l := newTestLayer()
	for _, tc := range []struct {
		command, rules, want string
		skipped              bool
	}{
		{"special-cleanup --all", "special-cleanup;([", "ask", true},
		{"ls -la", "special-cleanup;([", "silent", true},
		{"ls -la", "^ls", "ask", false},
		{"ls -la", " ; ;", "silent", false},
	} {
		c := tcase{Command: tc.command, Expect: tc.want, CustomRules: tc.rules, Rule: rules.Custom.ID, Why: "custom"}
		v := check(t, l, c, "en")
		note, ok := v.Annotations[AnnotationCustomSkipped]
		if ok != tc.skipped || ok && !strings.Contains(note, "#2 ([") {
			t.Errorf("%q with %q: annotations %v", tc.command, tc.rules, v.Annotations)
		}
	}
}

// TestProcessIsolation: every case gives the same verdict after the call
// and the verdict travel through the layer protocol's conversions, as they
// do when the layer runs as a plugin process.
func TestProcessIsolation(t *testing.T) {
	l := newTestLayer()
	cases := append(familyCases(t), readCases(t, "seed-dg.json")...)
	for _, c := range cases {
		for _, lang := range []string{"zh", "en"} {
			call := c.call(lang)
			direct, err := l.Decide(context.Background(), call)
			if err != nil {
				t.Fatal(err)
			}
			remote, err := l.Decide(context.Background(), convert.CallFromProto(convert.CallToProto(call)))
			if err != nil {
				t.Fatal(err)
			}
			back, err := convert.VerdictFromProto(convert.VerdictToProto(remote))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(direct.Reasons, back.Reasons) || direct.Decision != back.Decision ||
				len(direct.Annotations) != len(back.Annotations) {
				t.Errorf("%s: in process %v %v, through the protocol %v %v", c.name(), direct.Decision, direct.Reasons, back.Decision, back.Reasons)
			}
		}
	}
}

// TestConcurrentDecide runs every case at once on one layer (run with
// -race): Decide shares nothing mutable between calls but the custom-rule
// cache.
func TestConcurrentDecide(t *testing.T) {
	l := newTestLayer()
	cases := familyCases(t)
	want := make([]core.Decision, len(cases))
	for i, c := range cases {
		v, _ := l.Decide(context.Background(), c.call("zh"))
		want[i] = v.Decision
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(cases))
	for round := 0; round < 4; round++ {
		for i, c := range cases {
			wg.Add(1)
			go func() {
				defer wg.Done()
				lang := "zh"
				if (i+round)%2 == 0 {
					lang = "en"
				}
				v, err := l.Decide(context.Background(), c.call(lang))
				if err != nil || v.Decision != want[i] {
					errs <- fmt.Sprintf("%s: %v %v", c.name(), v.Decision, err)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestNonShellAndNil: file tools, other tools and a nil call are silent;
// a shell call without a Script is analysed by the layer.
func TestNonShellAndNil(t *testing.T) {
	l := newTestLayer()
	ctx := context.Background()
	for _, c := range []*core.Call{
		nil,
		{Tool: "Write", Kind: core.KindFile, Paths: []string{"/etc/passwd"}, Platform: "linux"},
		{Tool: "Read", Kind: core.KindOther, Platform: "linux"},
		{Tool: "Bash", Kind: core.KindShell, Platform: "linux"},
	} {
		v, err := l.Decide(ctx, c)
		if err != nil || v.Decision != core.Silent {
			t.Errorf("%+v: %v %v", c, v, err)
		}
	}
	v, err := l.Decide(ctx, &core.Call{Tool: "Bash", Kind: core.KindShell, Command: "sudo rm -rf /", Cwd: "/home/u/proj", Platform: "linux"})
	if err != nil || !hasRule(v, rules.RmRecursive.ID) {
		t.Errorf("nil Script: %v %v", v, err)
	}
	v, err = l.Decide(ctx, &core.Call{Tool: "PowerShell", Kind: core.KindShell, Command: `Remove-Item -Recurse C:\`, Platform: "windows"})
	if err != nil || !hasRule(v, rules.PSRemove.ID) {
		t.Errorf("nil Script, PowerShell: %v %v", v, err)
	}
}

// TestDeadline: a cancelled context is honoured on a long command list.
func TestDeadline(t *testing.T) {
	l := newTestLayer()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c := tcase{Command: strings.Repeat("ls; ", 2000), Expect: "silent"}.call("zh")
	if _, err := l.Decide(ctx, c); err == nil {
		t.Error("cancelled context: no error")
	}
}

// layerRules are the danger gate's rules in the catalog.
func layerRules() []*rules.Rule {
	var out []*rules.Rule
	for _, r := range rules.All() {
		if r.Family.Layer == Name {
			out = append(out, r)
		}
	}
	return out
}

// TestTemplatesUseKnownPlaceholders: a danger template may use {cmd},
// {detail}, {subject} and {targets} (what message fills), nothing else,
// and PathAdvice only where the rule names path targets.
func TestTemplatesUseKnownPlaceholders(t *testing.T) {
	known := map[string]bool{"cmd": true, "detail": true, "subject": true, "targets": true}
	if len(layerRules()) == 0 {
		t.Fatal("the catalog has no danger rule")
	}
	for _, r := range layerRules() {
		for _, tmpl := range []string{r.Zh, r.En} {
			for _, p := range rules.Placeholders(tmpl) {
				if !known[p] {
					t.Errorf("%s: template %q uses {%s}", r.ID, tmpl, p)
				}
			}
		}
		if r.PathAdvice && (!strings.Contains(r.Zh, "{targets}") || !strings.Contains(r.En, "{targets}")) {
			t.Errorf("%s: offers a path in its advice but names no {targets}", r.ID)
		}
		if !strings.HasPrefix(r.ID, "DG-") {
			t.Errorf("%s: a danger rule id starts with DG-", r.ID)
		}
	}
}
