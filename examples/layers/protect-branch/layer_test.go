package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto/convert"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// tcase is one row of testdata/cases.json.
type tcase struct {
	Name     string            `json:"name"`
	Tool     string            `json:"tool"`
	Command  string            `json:"command"`
	Env      map[string]string `json:"env"`
	Options  map[string]any    `json:"options"`
	Want     string            `json:"want"`
	Rules    []string          `json:"rules"`
	Contains []string          `json:"contains"`
}

func readCases() ([]tcase, error) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		return nil, err
	}
	var cases []tcase
	if err := json.Unmarshal(data, &cases); err != nil {
		return nil, fmt.Errorf("testdata/cases.json: %w", err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("testdata/cases.json: no cases")
	}
	return cases, nil
}

func loadCases(t *testing.T) []tcase {
	t.Helper()
	cases, err := readCases()
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// options turns a case's options into what the host passes: strings, with
// booleans and numbers formatted as layer_options does, plus language
// (en unless the case says otherwise).
func options(in map[string]any) map[string]string {
	out := map[string]string{"language": "en"}
	for k, v := range in {
		switch t := v.(type) {
		case string:
			out[k] = t
		case bool:
			out[k] = strconv.FormatBool(t)
		case float64:
			out[k] = strconv.FormatFloat(t, 'f', -1, 64)
		default:
			out[k] = fmt.Sprint(t)
		}
	}
	return out
}

// TestCases runs testdata/cases.json through analysis.Analyze (as the host
// builds call.Script) and the layer, once directly and once after the
// call went through the protocol's conversion (what a layer process
// receives), checking the verdict, the rule ids in order and the text.
func TestCases(t *testing.T) {
	asks, silents := 0, 0
	for _, tc := range loadCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			call := sdk.ShellCall{Tool: tc.Tool, Command: tc.Command, Cwd: "/work/project", Home: "/home/user",
				Env: tc.Env, Options: options(tc.Options)}.Call()
			v, err := newLayer().Decide(context.Background(), call)
			if err != nil {
				t.Fatal(err)
			}
			wire, err := newLayer().Decide(context.Background(), convert.CallFromProto(convert.CallToProto(call)))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(v, wire) {
				t.Errorf("verdict differs after the protocol round trip:\n direct %+v\n wire   %+v", v, wire)
			}
			if v.Decision.String() != tc.Want {
				t.Fatalf("%q: %s, want %s; reasons %+v\n%s", tc.Command, v.Decision, tc.Want, v.Reasons, call.Script.Outline())
			}
			var rules, msgs []string
			for _, r := range v.Reasons {
				rules = append(rules, r.Rule)
				msgs = append(msgs, r.Message)
				if r.Layer != layerName || !strings.HasPrefix(r.Message, "[zcode-fence: protect-branch] ") {
					t.Errorf("reason %+v lacks the layer name or the marker", r)
				}
			}
			if !reflect.DeepEqual(rules, tc.Rules) {
				t.Errorf("%q: rules %q, want %q", tc.Command, rules, tc.Rules)
			}
			text := strings.Join(msgs, "\n")
			for _, want := range tc.Contains {
				if !strings.Contains(text, want) {
					t.Errorf("%q: message lacks %q:\n%s", tc.Command, want, text)
				}
			}
			if v.Annotations["protected"] == "" {
				t.Errorf("no protected annotation: %v", v.Annotations)
			}
		})
		if tc.Want == "ask" {
			asks++
		} else {
			silents++
		}
	}
	t.Logf("%d cases: %d ask, %d silent", asks+silents, asks, silents)
}

// TestEveryRuleHasTexts: each rule id has English and Chinese wording and
// appears in at least one ask case.
func TestEveryRuleHasTexts(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range loadCases(t) {
		for _, r := range tc.Rules {
			covered[r] = true
		}
	}
	for rule, tx := range texts {
		if tx[0] == "" || tx[1] == "" {
			t.Errorf("%s: missing wording", rule)
		}
		if !covered[rule] {
			t.Errorf("%s: no case in testdata/cases.json", rule)
		}
	}
}

// TestNotShell: file tools and calls without a script are silent.
func TestNotShell(t *testing.T) {
	for _, call := range []*core.Call{
		nil,
		{Tool: "Write", Kind: core.KindFile, Paths: []string{"main.go"}},
		{Tool: "Bash", Kind: core.KindShell, Command: "git push origin main"}, // no Script
	} {
		v, err := newLayer().Decide(context.Background(), call)
		if err != nil || v.Decision != core.Silent {
			t.Errorf("%+v: %v %v, want silent", call, v.Decision, err)
		}
	}
}

// TestBadOptions: a bad glob or boolean is reported in the annotations and
// does not stop the layer.
func TestBadOptions(t *testing.T) {
	call := sdk.ShellCall{Command: "git push origin '['", Options: map[string]string{
		"branches": "[;main", "ask_on_any_push": "perhaps"}}.Call()
	v, err := newLayer().Decide(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	if v.Decision != core.Ask || v.Reasons[0].Rule != rulePushProtected {
		t.Errorf("a literal [ branch should still match the pattern [: %+v", v)
	}
	note := v.Annotations["config_note"]
	for _, want := range []string{"[ is not a valid glob", "perhaps is not a boolean"} {
		if !strings.Contains(note, want) {
			t.Errorf("config_note %q lacks %q", note, want)
		}
	}
}

// TestCancelled: a call whose context is already done is not judged.
func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	call := sdk.ShellCall{Command: "git push origin main"}.Call()
	if _, err := newLayer().Decide(ctx, call); err == nil {
		t.Error("no error for a cancelled context")
	}
}

// TestReasonCap: many hits give at most maxReasons reasons.
func TestReasonCap(t *testing.T) {
	cmd := strings.Repeat("git branch -D main; git push origin :main; git reset --hard; git push origin master; git branch -D master; ", 3)
	v, err := newLayer().Decide(context.Background(), sdk.ShellCall{Command: cmd}.Call())
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Reasons) != maxReasons {
		t.Errorf("%d reasons, want %d", len(v.Reasons), maxReasons)
	}
}

// BenchmarkDecide is the layer's own share of a hook (the process start
// dominates: see cmd/zcode-fence's BenchmarkHookExternalLayer).
func BenchmarkDecide(b *testing.B) {
	call := sdk.ShellCall{Command: "cd repo && git fetch origin && git -C . push --force-with-lease origin HEAD:main && git branch -D old"}.Call()
	l := newLayer()
	for b.Loop() {
		if _, err := l.Decide(context.Background(), call); err != nil {
			b.Fatal(err)
		}
	}
}
