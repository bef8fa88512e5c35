package fence

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// budgetCase is a case of testdata/budget.json: a table case, judged with
// a step budget of Budget (0: StepBudget).
type budgetCase struct {
	tcase
	Budget int    `json:"budget"`
	TwinOf string `json:"twin_of"`
}

// TestStepBudget: a call whose judging runs out of steps asks with
// FN-INCOMPLETE after the targets found so far (the budget is made tiny
// here to show it on small inputs); the same call within the real budget
// is silent, and a truncated analysis asks whatever the budget.
func TestStepBudget(t *testing.T) {
	data, err := os.ReadFile("testdata/budget.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []budgetCase
	if err := json.Unmarshal(data, &cases); err != nil || len(cases) == 0 {
		t.Fatalf("testdata/budget.json: %v (%d cases)", err, len(cases))
	}
	for _, bc := range cases {
		t.Run(bc.ID, func(t *testing.T) {
			c, p := callFor(t, bc.tcase)
			budget := bc.Budget
			if budget == 0 {
				budget = StepBudget
			}
			l := New(WithPlatform(func(string) paths.Platform { return p }), WithStepBudget(budget))
			v, err := l.Decide(context.Background(), c)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			checkVerdict(t, bc.tcase, c, v)
			if v.Annotations[steps.Annotation] == "" {
				t.Errorf("no %q annotation: %v", steps.Annotation, v.Annotations)
			}
		})
	}
}
