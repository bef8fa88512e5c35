package danger

import (
	"reflect"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
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
	for i, set := range ruleSets() {
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
	if got := len(buildDispatch(ruleSets())); got != len(dispatch()) || got < 200 {
		t.Errorf("dispatch has %d names, a rebuild %d", len(dispatch()), got)
	}
}

// TestJudgedAfterUnknownWord checks that every command name a rule is
// declared on is judged after a wholly unknown command word ($W NAME,
// $(which sudo) NAME): cmdfacts.Judged knows it, and the analysis reports
// the command under the unknown word.
func TestJudgedAfterUnknownWord(t *testing.T) {
	for name := range dispatch() {
		if !cmdfacts.Judged(name) {
			t.Errorf("%q has a rule but cmdfacts.Judged does not know it: add it to its family or to judgedNames", name)
			continue
		}
		if strings.ContainsAny(name, ":[]") {
			continue // a .NET call ([io.file]::delete), no command word
		}
		for _, text := range []string{"$W " + name + " x", "$(which sudo) " + name + " x"} {
			s := analysis.Analyze(text, analysis.Options{})
			found := false
			for _, c := range s.Commands {
				found = found || strings.EqualFold(c.Name, name) // names are reported lower-cased (VBoxManage)
			}
			if !found {
				t.Errorf("%s: the analysis reports no %s command (%s)", text, name, s.Outline())
			}
		}
	}
}
