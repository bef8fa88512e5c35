package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// deferredRules are the rules of this file and the command names they judge.
var deferredRules = []judging{
	on(ruleAt, "at", "batch"),
}

// ruleAt: at or batch scheduling a job (DG-PERSIST-AT). What the job runs
// is analysed by the shell analysis (Via "at") and judged like any other
// command.
func ruleAt(v *cmdv) {
	if !cmdfacts.AtSchedules(v.name, v.args) {
		return
	}
	detail := strings.Join(lowerValues(cmdfacts.ParseCommand("at", v.args).Operands), " ")
	if f := cmdfacts.Value(v.args, "-f"); f != nil {
		detail = "-f " + wordText(*f)
	}
	v.flag(rules.PersistAt, detail)
}
