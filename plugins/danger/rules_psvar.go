package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// decodedVariable: a PowerShell command that runs code from its words
// (iex $s, Invoke-Expression $s, [scriptblock]::Create($s)) given a
// variable, in a script where a decoder ran earlier (not deeper) and
// its output went nowhere the analysis sees — into a variable:
// $s = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('…'));
// iex $s runs what it decodes (DG-RCE-DECODED), as iex (…decode…) does.
// The PowerShell splitter keeps only literal values of variables, so the
// link between the assignment and the use is made here: the variable is
// not tracked, the decoder's unused output is. Cost: one pass over the
// commands before this one, once per code-running command.
func (v *cmdv) decodedVariable(words bool) {
	if !words || v.c.Dialect != ir.PowerShell || len(v.j.feeders(v.i)) > 0 || !v.codeFromVariable() {
		return
	}
	for k := v.i - 1; k >= 0; k-- {
		u := v.j.view(k)
		if u.c.Dialect != ir.PowerShell || u.c.Depth > v.c.Depth || u.c.FeedsInto >= 0 || !u.isDecoder() {
			continue
		}
		v.j.add(finding{rule: rules.RCEDecoded, cmd: u.display(), detail: v.display()})
		return
	}
}

// codeFromVariable reports whether an argument of the command is a
// variable reference ($s, ${s}, $script:s). & $s is not one: it runs the
// command the string names, not the string as a script.
func (v *cmdv) codeFromVariable() bool {
	if v.name == "" {
		return false
	}
	for _, w := range v.args {
		if !w.Unknown {
			continue
		}
		r := strings.Trim(w.Raw, "()\"")
		if strings.HasPrefix(r, "$") && !strings.ContainsAny(r, " ([") {
			return true
		}
	}
	return false
}
