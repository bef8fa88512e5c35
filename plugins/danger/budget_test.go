package danger

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/steps"
)

// budgetCase is a case of testdata/budget.json: a table case judged with a
// step budget of Budget (0: StepBudget); Rules, when set, are the rules of
// the reasons, in order.
type budgetCase struct {
	tcase
	Budget int      `json:"budget"`
	Rules  []string `json:"rules"`
	TwinOf string   `json:"twin_of"`
}

// TestStepBudget: a call whose judging runs out of steps asks with
// DG-INCOMPLETE after the findings made so far (the budget is made tiny
// here to show it on small inputs); the same call within the real budget
// is silent.
func TestStepBudget(t *testing.T) {
	var cases []budgetCase
	readJSONCases(t, "budget.json", &cases)
	for _, bc := range cases {
		budget := bc.Budget
		if budget == 0 {
			budget = StepBudget
		}
		l := New(WithPlatform(testPlatform), WithStepBudget(budget))
		for _, lang := range []string{"zh", "en"} {
			v := check(t, l, bc.tcase, lang)
			if v.Annotations[steps.Annotation] == "" {
				t.Errorf("%s: no %q annotation: %v", bc.name(), steps.Annotation, v.Annotations)
			}
			if bc.Rules != nil {
				var got []string
				for _, r := range v.Reasons {
					got = append(got, r.Rule)
				}
				if !slices.Equal(got, bc.Rules) {
					t.Errorf("%s (%s): rules %v, want %v", bc.name(), lang, got, bc.Rules)
				}
			}
		}
	}
}

// TestEverydayStepsFarBelowBudget: the everyday commands use a small part
// of the budget (the figure the budget is sized by).
func TestEverydayStepsFarBelowBudget(t *testing.T) {
	l := newTestLayer()
	most, which := 0, ""
	for _, cmd := range readEveryday(t) {
		v, err := l.Decide(context.Background(), tcase{Command: cmd}.call("en"))
		if err != nil {
			t.Fatal(err)
		}
		n := atoi(t, v.Annotations[steps.Annotation])
		if n > most {
			most, which = n, cmd
		}
	}
	if most == 0 || most > StepBudget/100 {
		t.Errorf("the largest everyday command took %d steps (%q); want 1..%d", most, which, StepBudget/100)
	}
	t.Logf("largest everyday step count %d of a budget of %d (%q)", most, StepBudget, which)
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("steps annotation %q: %v", s, err)
	}
	return n
}

// readJSONCases reads testdata/file into out.
func readJSONCases(t *testing.T, file string, out any) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}
