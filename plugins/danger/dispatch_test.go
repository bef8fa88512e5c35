package danger

import (
	"reflect"
	"testing"
)

// TestDispatchDeclarations checks the rule declarations: every entry
// names at least one command, no name is empty, and no rule is declared
// twice on one name (it would run twice).
func TestDispatchDeclarations(t *testing.T) {
	type key struct {
		rule uintptr
		name string
	}
	seen := map[key]bool{}
	for i, set := range ruleSets {
		if len(set) == 0 {
			t.Errorf("ruleSets[%d] declares nothing", i)
		}
		for _, j := range set {
			if j.rule == nil || len(j.names) == 0 {
				t.Errorf("ruleSets[%d]: a declaration without a rule or names: %v", i, j.names)
			}
			for _, n := range j.names {
				k := key{reflect.ValueOf(j.rule).Pointer(), n}
				if n == "" || seen[k] {
					t.Errorf("ruleSets[%d]: rule declared twice on %q (or an empty name)", i, n)
				}
				seen[k] = true
			}
		}
	}
	if got := len(buildDispatch(ruleSets)); got != len(dispatch) || got < 200 {
		t.Errorf("dispatch has %d names, a rebuild %d", len(dispatch), got)
	}
}
