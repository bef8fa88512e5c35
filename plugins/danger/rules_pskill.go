package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// pskillRules are the rules of this file and the command names they judge.
var pskillRules = []judging{
	on(ruleStopProcess, "stop-process"),
	on(ruleTaskkill, "taskkill"),
}

// ruleStopProcess: PowerShell's Stop-Process (kill, spps) of every
// process (DG-KILL-ALL): fed by a Get-Process that names no process
// (Get-Process | Stop-Process), or given -Name * — the session, the agent
// and, elevated, the system. A named or filtered process list
// (Get-Process node | Stop-Process, ... | Where-Object ... | Stop-Process)
// is everyday work.
func ruleStopProcess(v *cmdv) {
	if v.c.Dialect != ir.PowerShell {
		return
	}
	ps := winshell.ParsePowerShellCommand(v.c.Args)
	if ps.WhatIf {
		return
	}
	for _, n := range ps.Named["name"] {
		if !n.Unknown && n.Value != "" && strings.Trim(n.Value, "*") == "" {
			v.flag(rules.KillAll, "-Name "+n.Value)
			return
		}
	}
	if len(ps.Named["id"])+len(ps.Named["name"])+len(ps.Named["inputobject"]) > 0 {
		return
	}
	for _, k := range v.j.feeders(v.i) {
		if _, kind := v.j.feedTarget(k); kind != ir.FeedPipe {
			continue
		}
		u := v.j.view(k)
		if u.name != "get-process" {
			continue
		}
		g := winshell.ParsePowerShellCommand(u.c.Args)
		if len(g.Named) == 0 && len(g.Positional) == 0 {
			v.flag(rules.KillAll, "Get-Process | "+v.display())
			return
		}
	}
}

// ruleTaskkill: taskkill /IM * (every image name) is DG-KILL-ALL (an
// unquoted * in bash is a glob of file names, not every process).
func ruleTaskkill(v *cmdv) {
	for i := 0; i+1 < len(v.args); i++ {
		a := v.args[i]
		if !a.Unknown && strings.EqualFold(a.Value, "/im") && !v.args[i+1].Unknown && !(v.args[i+1].Glob && v.c.Dialect == ir.Bash) &&
			v.args[i+1].Value != "" && strings.Trim(v.args[i+1].Value, "*.") == "" {
			v.flag(rules.KillAll, "/IM "+v.args[i+1].Value)
			return
		}
	}
}
