package fence

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	corerules "github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// tcase is one table case of testdata/cases_*.json (and of the symlink
// suite).
type tcase struct {
	ID       string            `json:"id"`
	Tool     string            `json:"tool"`     // Bash (default), Shell, PowerShell, Write, Edit, ...
	Command  string            `json:"command"`  // shell tools
	Paths    []string          `json:"paths"`    // file tools
	Platform string            `json:"platform"` // linux (default), windows, darwin
	Cwd      string            `json:"cwd"`      // default: the project
	Project  string            `json:"project"`  // default: the platform's project; "-" for none
	Extra    string            `json:"extra"`    // extra_writable_roots
	Env      map[string]string `json:"env"`      // added to the platform's environment
	Home     string            `json:"home"`     // the home directory (default: the platform's)
	Lang     string            `json:"lang"`
	Options  map[string]string `json:"options"` // the layer's settings (enable_fence)
	Expect   string            `json:"expect"`  // ask | silent
	Rule     string            `json:"rule"`    // every reason has this rule
	Rules    []string          `json:"rules"`   // the reasons' rules, in order
	Contains []string          `json:"contains"`
	Note     string            `json:"note"`
}

// world is a simulated machine: home, environment, default project.
type world struct {
	home, project string
	env           map[string]string
}

var worlds = map[string]world{
	"linux": {home: "/home/alice", project: "/work/proj", env: map[string]string{
		"HOME": "/home/alice", "TMPDIR": "/tmp", "USER": "alice"}},
	"darwin": {home: "/Users/alice", project: "/Users/alice/proj", env: map[string]string{
		"HOME": "/Users/alice", "TMPDIR": "/var/folders/zz/abc123/T", "USER": "alice"}},
	"windows": {home: `C:\Users\alice`, project: `C:\work\proj`, env: map[string]string{
		"USERPROFILE": `C:\Users\alice`, "TEMP": `C:\Users\alice\AppData\Local\Temp`,
		"TMP": `C:\Users\alice\AppData\Local\Temp`, "SystemRoot": `C:\Windows`, "USERNAME": "alice"}},
}

// callFor builds the call the host would build for tc, with the shell
// analysis done exactly as the host does it (core/host.Prepare).
func callFor(t testing.TB, tc tcase) (*core.Call, paths.Platform) {
	goos := tc.Platform
	if goos == "" {
		goos = "linux"
	}
	w, ok := worlds[goos]
	if !ok {
		t.Fatalf("%s: unknown platform %q", tc.ID, goos)
	}
	env := map[string]string{}
	for k, v := range w.env {
		env[k] = v
	}
	for k, v := range tc.Env {
		env[k] = v
	}
	if tc.Home != "" {
		w.home = tc.Home
		env["HOME"] = tc.Home
	}
	p := paths.Simulated(goos, w.home, env)
	project := w.project
	switch tc.Project {
	case "":
	case "-":
		project = ""
	default:
		project = tc.Project
	}
	cwd := tc.Cwd
	if cwd == "" {
		cwd = project
	}
	tool := tc.Tool
	if tool == "" {
		tool = "Bash"
	}
	c := &core.Call{Tool: tool, ProjectRoot: project, Cwd: cwd, Platform: goos, Options: map[string]string{}}
	if tc.Lang != "" {
		c.Options["language"] = tc.Lang
	}
	for k, v := range tc.Options {
		c.Options[k] = v
	}
	for _, r := range p.WritableRoots(project, tc.Extra) {
		c.WritableRoots = append(c.WritableRoots, r.Norm)
	}
	switch tool {
	case "Bash", "Shell", "PowerShell":
		c.Kind = core.KindShell
		c.Command = tc.Command
		d := ir.Bash
		if tool == "PowerShell" {
			d = ir.PowerShell
		}
		c.Script = analysis.Analyze(tc.Command, analysis.Options{Dialect: d, Cwd: cwd, Home: w.home, Lookup: p.Lookup})
	default:
		c.Kind = core.KindFile
		c.Paths = tc.Paths
	}
	return c, p
}

func loadCases(t *testing.T, pattern string) []tcase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/%s: %v", pattern, err)
	}
	var all []tcase
	ids := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cases []tcase
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, tc := range cases {
			if prev, dup := ids[tc.ID]; dup || tc.ID == "" {
				t.Fatalf("%s: case id %q empty or also in %s", f, tc.ID, prev)
			}
			ids[tc.ID] = f
			if tc.Expect != "ask" && tc.Expect != "silent" {
				t.Fatalf("%s: %s: expect must be ask or silent", f, tc.ID)
			}
			all = append(all, tc)
		}
	}
	return all
}

// rulesIncomplete is the one rule whose message names no root: the fence
// could not finish, whatever the targets.
var rulesIncomplete = corerules.FenceIncomplete.ID

// maxMessageRunes bounds one reason: about 100 (Chinese) or 170 (English)
// characters of text plus two paths of at most maxShown.
const maxMessageRunes = 320

func checkVerdict(t *testing.T, tc tcase, c *core.Call, v core.Verdict) {
	t.Helper()
	got := v.Decision.String()
	explain := func() string {
		var b strings.Builder
		if c.Script != nil {
			b.WriteString(c.Script.Outline())
		}
		for _, r := range v.Reasons {
			fmt.Fprintf(&b, "  %s: %s\n", r.Rule, r.Message)
		}
		return b.String()
	}
	if got != tc.Expect {
		t.Fatalf("%s: got %s, want %s\n%s", tc.ID, got, tc.Expect, explain())
	}
	if tc.Expect == "silent" {
		if len(v.Reasons) != 0 {
			t.Fatalf("%s: silent verdict with reasons\n%s", tc.ID, explain())
		}
		return
	}
	if len(v.Reasons) == 0 {
		t.Fatalf("%s: ask without reasons", tc.ID)
	}
	root := paths.Simulated(c.Platform, "", nil).Clean(c.ProjectRoot).Norm
	var rules []string
	for _, r := range v.Reasons {
		rules = append(rules, r.Rule)
		if r.Layer != Name {
			t.Errorf("%s: reason layer %q", tc.ID, r.Layer)
		}
		if !strings.HasPrefix(r.Message, "[zcode-fence: ") {
			t.Errorf("%s: message without prefix: %q", tc.ID, r.Message)
		}
		if n := len([]rune(r.Message)); n > maxMessageRunes {
			t.Errorf("%s: message of %d characters: %q", tc.ID, n, r.Message)
		}
		if r.Rule != rulesIncomplete && !strings.Contains(r.Message, shorten(root)) {
			t.Errorf("%s: message does not name the project root %q: %q", tc.ID, root, r.Message)
		}
	}
	if tc.Rule != "" {
		for _, r := range rules {
			if r != tc.Rule {
				t.Errorf("%s: rules %v, want all %s\n%s", tc.ID, rules, tc.Rule, explain())
				break
			}
		}
	}
	if tc.Rules != nil && !slices.Equal(rules, tc.Rules) {
		t.Errorf("%s: rules %v, want %v\n%s", tc.ID, rules, tc.Rules, explain())
	}
	text := core.ReasonText(v, "\n")
	for _, s := range tc.Contains {
		if !strings.Contains(text, s) {
			t.Errorf("%s: reason does not contain %q:\n%s", tc.ID, s, text)
		}
	}
}

// TestCases runs every table case of testdata/cases_*.json through Decide.
func TestCases(t *testing.T) {
	cases := loadCases(t, "cases_*.json")
	counts := map[string]int{}
	var lengths []int
	for _, tc := range cases {
		t.Run(tc.ID, func(t *testing.T) {
			c, p := callFor(t, tc)
			l := New(WithPlatform(func(string) paths.Platform { return p }))
			v, err := l.Decide(context.Background(), c)
			if err != nil {
				t.Fatalf("%s: error %v", tc.ID, err)
			}
			checkVerdict(t, tc, c, v)
			for _, r := range v.Reasons {
				lengths = append(lengths, len([]rune(r.Message)))
			}
		})
		counts[tc.Expect]++
	}
	slices.Sort(lengths)
	under := 0
	for _, n := range lengths {
		if n <= 200 {
			under++
		}
	}
	if len(lengths) > 0 {
		t.Logf("%d table cases: %d ask, %d silent; %d reasons, length median %d, max %d, %d%% within 200 characters",
			len(cases), counts["ask"], counts["silent"], len(lengths), lengths[len(lengths)/2], lengths[len(lengths)-1], 100*under/len(lengths))
	}
}
