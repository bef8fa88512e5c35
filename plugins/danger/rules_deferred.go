package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// moreRules are rules registered by name in files of their own (the
// dispatch table in rules.go adds them).
var moreRules = map[string]func(*cmdv){
	"at":    ruleAt,
	"batch": ruleAt,
}

// addRules registers a rule under names in moreRules; a file calls it in
// a package-level declaration (var _ = addRules(...)), which runs before
// the init that builds the dispatch table.
func addRules(f func(*cmdv), names ...string) bool {
	for _, n := range names {
		moreRules[n] = f
	}
	return true
}

// ruleAt: at or batch scheduling a job (DG-PERSIST-AT). What the job runs
// is analysed by the shell analysis (Via "at") and judged like any other
// command.
func ruleAt(v *cmdv) {
	if !cmdfacts.AtSchedules(v.name, v.args) {
		return
	}
	detail := strings.Join(lowerValues(cmdfacts.Operands(v.args, "-q", "-f", "-t")), " ")
	if f := cmdfacts.Value(v.args, "-f"); f != nil {
		detail = "-f " + wordText(*f)
	}
	v.flag(rules.PersistAt, detail)
}
