package danger

import (
	"github.com/zcode-fence/zcode-fence/core/ir"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// powerRules are the rules of this file and the command names they judge.
var powerRules = []judging{
	on(ruleShutdown, "shutdown"),
	on(rulePowerCmd, "reboot", "halt", "poweroff"),
	on(ruleStopComputer, "stop-computer", "restart-computer"),
	on(ruleSystemctl, "systemctl"),
	on(ruleLoginctl, "loginctl"),
	on(ruleInit, "init", "telinit"),
	on(ruleBcdedit, "bcdedit"),
}

// shutdownHarmless are the shutdown arguments that abort a pending
// shutdown, only warn, or print help.
var shutdownHarmless = map[string]bool{
	"/a": true, "-a": true, "-c": true, "--cancel": true, "-k": true, "/?": true, "-?": true, "--help": true, "--show": true,
}

// ruleShutdown: shutdown, unless it aborts, warns or prints help
// (DG-POWEROFF).
func ruleShutdown(v *cmdv) {
	for _, a := range v.args {
		if shutdownHarmless[strings.ToLower(a.Value)] {
			return
		}
	}
	v.flag(rules.Poweroff, "")
}

// rulePowerCmd: reboot, halt, poweroff (DG-POWEROFF).
func rulePowerCmd(v *cmdv) {
	if hasWord(v.args, "--help") {
		return
	}
	v.flag(rules.Poweroff, "")
}

// ruleStopComputer: Stop-Computer, Restart-Computer (DG-POWEROFF).
func ruleStopComputer(v *cmdv) {
	if winshell.ParsePowerShellCommand(v.c.Args).WhatIf || hasWord(v.args, "-WhatIf") {
		return
	}
	v.flag(rules.Poweroff, "")
}

// systemctlPower are the systemctl/loginctl verbs that power off, reboot
// or leave normal operation.
var systemctlPower = map[string]bool{
	"poweroff": true, "reboot": true, "halt": true, "kexec": true, "soft-reboot": true,
	"rescue": true, "emergency": true,
}

// powerTargets are the systemd targets isolate must not switch to.
var powerTargets = map[string]bool{
	"poweroff.target": true, "reboot.target": true, "halt.target": true, "kexec.target": true,
	"rescue.target": true, "emergency.target": true, "shutdown.target": true,
	"runlevel0.target": true, "runlevel1.target": true, "runlevel6.target": true,
}

// firewallUnits are the services whose stop turns the firewall off.
var firewallUnits = map[string]bool{
	"firewalld": true, "ufw": true, "nftables": true, "iptables": true, "ip6tables": true,
	"netfilter-persistent": true, "pf": true, "shorewall": true, "csf": true,
}

// unitName strips ".service" and lower-cases a unit.
func unitName(s string) string {
	return strings.TrimSuffix(strings.ToLower(s), ".service")
}

// systemctlValued are systemctl's options that take a separate value.
var systemctlValued = []string{
	"-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-n", "--lines", "-o", "--output",
	"-s", "--signal", "--root", "--state", "--job-mode", "--what", "--kill-whom", "--kill-value", "--message",
	"--timestamp", "--boot-loader-entry", "--boot-loader-menu", "--reboot-argument", "--preset-mode", "--image",
}

// ruleSystemctl: power verbs (DG-SYSTEMCTL-POWER), enable
// (DG-PERSIST-SYSTEMD), stopping a firewall (DG-FIREWALL-OFF).
func ruleSystemctl(v *cmdv) {
	ops := cmdfacts.Operands(v.args, systemctlValued...)
	if len(ops) == 0 || ops[0].Unknown {
		return
	}
	verb := strings.ToLower(ops[0].Value)
	units := ops[1:]
	switch {
	case systemctlPower[verb] && systemctlCancels(v.args):
		// --when cancel withdraws a scheduled shutdown; nothing goes down.
	case systemctlPower[verb]:
		v.flag(rules.SystemctlPower, verb)
	case verb == "isolate" && len(units) > 0 && powerTargets[strings.ToLower(units[0].Value)]:
		v.flag(rules.SystemctlPower, verb+" "+units[0].Value)
	case verb == "enable" || verb == "reenable":
		detail := verb
		if len(units) > 0 {
			detail += " " + units[0].Value
		}
		v.flag(rules.PersistSystemd, detail)
	case verb == "stop" || verb == "disable" || verb == "mask" || verb == "kill":
		for _, u := range units {
			if firewallUnits[unitName(u.Value)] {
				v.flag(rules.FirewallOff, verb+" "+u.Value)
				return
			}
		}
	}
}

// systemctlCancels reports systemctl's --when cancel (also --when=cancel).
func systemctlCancels(args []ir.Word) bool {
	for i, a := range args {
		if a.Unknown {
			continue
		}
		if strings.EqualFold(a.Value, "--when=cancel") ||
			a.Value == "--when" && i+1 < len(args) && !args[i+1].Unknown && strings.EqualFold(args[i+1].Value, "cancel") {
			return true
		}
	}
	return false
}

// loginctlEnds are the loginctl verbs that end sessions: every process of
// a user or a session is killed (the agent's own, when it is the caller's).
var loginctlEnds = map[string]bool{"terminate-user": true, "terminate-session": true, "kill-user": true, "kill-session": true}

// ruleLoginctl: loginctl power verbs (DG-SYSTEMCTL-POWER) and the verbs
// that end a user's or a session's processes (DG-SESSION-END).
func ruleLoginctl(v *cmdv) {
	verb := firstOperand(v.args)
	switch {
	case systemctlPower[verb]:
		v.flag(rules.SystemctlPower, verb)
	case loginctlEnds[verb]:
		v.flag(rules.SessionEnd, verb)
	}
}

// ruleInit: init/telinit 0 or 6 (DG-INIT-RUNLEVEL).
func ruleInit(v *cmdv) {
	if len(v.args) > 0 && (v.args[0].Value == "0" || v.args[0].Value == "6") {
		v.flag(rules.InitRunlevel, v.args[0].Value)
	}
}

// bcdeditWrites are the bcdedit switches that change the boot
// configuration.
var bcdeditWrites = map[string]bool{
	"set": true, "deletevalue": true, "delete": true, "import": true, "restore": true, "create": true,
	"copy": true, "default": true, "displayorder": true, "bootsequence": true, "timeout": true,
	"toolsdisplayorder": true, "bootdebug": true, "debug": true, "bootems": true, "ems": true,
	"hypervisorsettings": true, "dbgsettings": true, "emssettings": true, "bootstatuspolicy": true, "clean": true,
}

// ruleBcdedit: bcdedit switches that write (DG-BCDEDIT-WRITE); /enum, /v
// and /export only read.
func ruleBcdedit(v *cmdv) {
	switches, _ := winshell.CmdSwitches(v.c.Args)
	for _, s := range switches {
		if bcdeditWrites[s] {
			v.flag(rules.BcdeditWrite, "/"+s)
			return
		}
	}
}
