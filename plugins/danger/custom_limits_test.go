package danger

import (
	"strings"
	"testing"
)

// TestCustomRuleLimits: an over-long rule is skipped and named, later
// rules still work, and rules past maxRules are ignored with one note.
func TestCustomRuleLimits(t *testing.T) {
	long := strings.Repeat("a", maxRuleBytes+1)
	cs := compileCustom(long + ";^special-cleanup")
	if len(cs.rules) != 1 || cs.rules[0].index != 2 || !cs.rules[0].re.MatchString("special-cleanup --all") {
		t.Fatalf("rules = %+v", cs.rules)
	}
	if len(cs.bad) != 1 || !strings.Contains(cs.bad[0], "#1 ") || !strings.Contains(cs.bad[0], "longer than") {
		t.Fatalf("bad = %q", cs.bad)
	}

	many := make([]string, maxRules+40)
	for i := range many {
		many[i] = "^rule" + strings.Repeat("x", i%7)
	}
	cs = compileCustom(strings.Join(many, ";"))
	if len(cs.rules) != maxRules || len(cs.bad) != 1 || !strings.Contains(cs.bad[0], "more than") {
		t.Fatalf("%d rules, bad %q", len(cs.rules), cs.bad)
	}
}
