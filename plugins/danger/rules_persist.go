package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// persistRules are the rules of this file and the command names they judge.
var persistRules = []judging{
	on(ruleCrontab, "crontab"),
	on(ruleSc, "sc", "set-content"),
	on(ruleNewService, "new-service"),
	on(ruleUpdateRcd, "update-rc.d"),
	on(ruleChkconfig, "chkconfig"),
	on(ruleSchtasks, "schtasks"),
	on(ruleRegisterTask, "register-scheduledtask"),
	on(ruleItemProperty, "set-itemproperty", "new-itemproperty"),
	on(ruleLaunchctl, "launchctl"),
	on(ruleUfw, "ufw"),
	on(ruleNetsh, "netsh"),
	on(ruleFirewallProfile, "set-netfirewallprofile"),
	on(ruleMpPreference, "set-mppreference"),
	on(ruleStopService, "stop-service", "set-service"),
	on(ruleNet, "net"),
	on(ruleService, "service"),
	on(ruleSetenforce, "setenforce"),
	on(ruleSpctl, "spctl"),
	on(ruleCsrutil, "csrutil"),
	on(ruleIptables, "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft"),
	on(ruleNft, "nft"),
	on(rulePfctl, "pfctl"),
}

// ---------------------------------------------------------------------------
// Persistence

// ruleCrontab: crontab -r, or crontab installing a file or stdin
// (DG-PERSIST-CRON); -l, -e and -u alone are silent.
func ruleCrontab(v *cmdv) {
	if cmdfacts.HasShort(v.args, "r") {
		v.flag(rules.PersistCron, "-r")
		return
	}
	if cmdfacts.HasShort(v.args, "leTV") || hasWord(v.args, "--help") {
		return
	}
	ops := cmdfacts.ParseCommand("crontab", v.args).Operands
	switch {
	case len(ops) > 0:
		v.flag(rules.PersistCron, ops[0].Value)
	case len(v.args) == 0 && len(v.j.feeders(v.i)) > 0:
		v.flag(rules.PersistCron, "-")
	}
}

// ruleSc: sc create/config (DG-PERSIST-SERVICE); sc stop/config of the
// Defender or firewall service (DG-FIREWALL-OFF). In PowerShell sc is
// Set-Content's alias, so that name comes here too.
func ruleSc(v *cmdv) {
	vals := lowerValues(v.args)
	if len(vals) == 0 {
		return
	}
	sub := vals[0]
	if sub != "create" && sub != "config" && sub != "stop" && sub != "delete" {
		return
	}
	if len(vals) > 1 && securityServices[vals[1]] && (sub == "stop" || sub == "config" || sub == "delete") {
		v.flag(rules.FirewallOff, sub+" "+v.args[1].Value)
		return
	}
	if sub == "create" || sub == "config" {
		detail := sub
		if len(v.args) > 1 {
			detail += " " + v.args[1].Value
		}
		v.j.add(finding{rule: rules.PersistService, cmd: "sc", detail: detail})
	}
}

// securityServices are the Windows services whose stop turns off the
// firewall or the antivirus.
var securityServices = map[string]bool{"windefend": true, "mpssvc": true, "wscsvc": true, "sense": true, "bfe": true}

// ruleNewService: New-Service (DG-PERSIST-SERVICE).
func ruleNewService(v *cmdv) { v.flag(rules.PersistService, "") }

// ruleUpdateRcd: update-rc.d NAME defaults/enable (DG-PERSIST-SERVICE).
func ruleUpdateRcd(v *cmdv) {
	if hasWord(v.args, "defaults", "enable", "start", "defaults-disabled") {
		v.flag(rules.PersistService, strings.Join(v.c.ArgValues(), " "))
	}
}

// ruleChkconfig: chkconfig NAME on, chkconfig --add NAME
// (DG-PERSIST-SERVICE).
func ruleChkconfig(v *cmdv) {
	if hasWord(v.args, "on", "--add") {
		v.flag(rules.PersistService, strings.Join(v.c.ArgValues(), " "))
	}
}

// ruleSchtasks: schtasks /create or /change (DG-PERSIST-SCHTASKS).
func ruleSchtasks(v *cmdv) {
	switches, _ := winshell.CmdSwitches(v.c.Args)
	for _, s := range switches {
		if s == "create" || s == "change" {
			v.flag(rules.PersistSchtasks, "/"+s)
			return
		}
	}
}

// ruleRegisterTask: Register-ScheduledTask (DG-PERSIST-SCHTASKS).
func ruleRegisterTask(v *cmdv) { v.flag(rules.PersistSchtasks, "") }

// ruleItemProperty: Set-/New-ItemProperty on a Run, RunOnce or Winlogon
// key (DG-PERSIST-REG).
func ruleItemProperty(v *cmdv) {
	for _, a := range v.args {
		l := strings.ToLower(a.Value)
		if strings.HasPrefix(l, "hk") || strings.HasPrefix(l, "registry::") {
			if strings.Contains(l, `\run`) || strings.Contains(l, `\winlogon`) || strings.Contains(l, `\services\`) {
				v.flag(rules.PersistReg, a.Value)
				return
			}
		}
	}
}

// ruleLaunchctl: launchctl load/unload/bootstrap/bootout
// (DG-PERSIST-LAUNCHCTL).
func ruleLaunchctl(v *cmdv) {
	switch sub := firstOperand(v.args); sub {
	case "load", "unload", "bootstrap", "bootout":
		v.flag(rules.PersistLaunchctl, sub)
	}
}

// ---------------------------------------------------------------------------
// Protections turned off (DG-FIREWALL-OFF)

func ruleUfw(v *cmdv) {
	if hasWord(v.args, "disable") && !hasWord(v.args, "--dry-run") {
		v.flag(rules.FirewallOff, "disable")
	}
}

// ruleNetsh: netsh advfirewall set ... state off, netsh firewall set
// opmode disable.
func ruleNetsh(v *cmdv) {
	vals := lowerValues(v.args)
	joined := " " + strings.Join(vals, " ") + " "
	switch {
	case strings.Contains(joined, " advfirewall ") && strings.Contains(joined, " state off "):
		v.flag(rules.FirewallOff, "advfirewall state off")
	case strings.Contains(joined, " firewall ") && (strings.Contains(joined, " opmode disable") || strings.Contains(joined, " mode=disable")):
		v.flag(rules.FirewallOff, "firewall opmode disable")
	}
}

// psBoolOff reports whether a PowerShell value means false.
func psBoolOff(s string) bool {
	s = strings.ToLower(strings.TrimPrefix(s, "$"))
	return s == "false" || s == "0"
}

// psBoolOn reports whether a PowerShell value means true.
func psBoolOn(s string) bool {
	s = strings.ToLower(strings.TrimPrefix(s, "$"))
	return s == "true" || s == "1"
}

// psParamValue returns the value given to -name (as -Name V or -Name:V),
// compared case-insensitively, and whether the parameter appears.
func psParamValue(args []ir.Word, match func(name string) bool) (name, val string, ok bool) {
	for i, a := range args {
		s := a.Value
		if !strings.HasPrefix(s, "-") {
			continue
		}
		n, attached, has := strings.Cut(s[1:], ":")
		if !match(strings.ToLower(n)) {
			continue
		}
		if has {
			return n, attached, true
		}
		if i+1 < len(args) {
			return n, args[i+1].Value, true
		}
		return n, "", true
	}
	return "", "", false
}

// ruleFirewallProfile: Set-NetFirewallProfile -Enabled False.
func ruleFirewallProfile(v *cmdv) {
	if _, val, ok := psParamValue(v.args, func(n string) bool { return n == "enabled" }); ok && psBoolOff(val) {
		v.flag(rules.FirewallOff, "-Enabled "+val)
	}
}

// ruleMpPreference: Set-MpPreference -Disable... $true (Defender off).
func ruleMpPreference(v *cmdv) {
	for i, a := range v.args {
		s := a.Value
		if !strings.HasPrefix(s, "-") {
			continue
		}
		name, val, attached := strings.Cut(s[1:], ":")
		if !strings.HasPrefix(strings.ToLower(name), "disable") {
			continue
		}
		if !attached && i+1 < len(v.args) {
			val = v.args[i+1].Value
		}
		if psBoolOn(val) {
			v.flag(rules.FirewallOff, "-"+name)
			return
		}
	}
}

// ruleStopService: Stop-Service / Set-Service of the Defender or
// firewall service.
func ruleStopService(v *cmdv) {
	for _, a := range v.args {
		if securityServices[strings.ToLower(a.Value)] {
			v.flag(rules.FirewallOff, a.Value)
			return
		}
	}
}

// ruleNet: net stop of the Defender or firewall service.
func ruleNet(v *cmdv) {
	vals := lowerValues(v.args)
	if len(vals) >= 2 && vals[0] == "stop" && securityServices[vals[1]] {
		v.flag(rules.FirewallOff, "stop "+v.args[1].Value)
	}
}

// ruleService: service firewalld stop.
func ruleService(v *cmdv) {
	vals := lowerValues(v.args)
	if len(vals) >= 2 && firewallUnits[unitName(vals[0])] && vals[1] == "stop" {
		v.flag(rules.FirewallOff, vals[0]+" stop")
	}
}

// ruleSetenforce: setenforce 0 / Permissive (SELinux off).
func ruleSetenforce(v *cmdv) {
	if hasWord(v.args, "0", "permissive") {
		v.flag(rules.FirewallOff, v.args[0].Value)
	}
}

// ruleSpctl: spctl --master-disable / --global-disable (Gatekeeper off).
func ruleSpctl(v *cmdv) {
	if hasWord(v.args, "--master-disable", "--global-disable") {
		v.flag(rules.FirewallOff, v.args[0].Value)
	}
}

// ruleCsrutil: csrutil disable (System Integrity Protection off).
func ruleCsrutil(v *cmdv) {
	if hasWord(v.args, "disable") && !hasWord(v.args, "--dry-run") {
		v.flag(rules.FirewallOff, strings.Join(v.c.ArgValues(), " "))
	}
}

// ruleIptables: iptables -F / --flush.
func ruleIptables(v *cmdv) {
	if hasWord(v.args, "-F", "--flush") {
		v.flag(rules.FirewallOff, "-F")
	}
}

// ruleNft: nft flush ruleset.
func ruleNft(v *cmdv) {
	vals := lowerValues(v.args)
	for i := 0; i+1 < len(vals); i++ {
		if vals[i] == "flush" && vals[i+1] == "ruleset" {
			v.flag(rules.FirewallOff, "flush ruleset")
			return
		}
	}
}

// rulePfctl: pfctl -d (pf off).
func rulePfctl(v *cmdv) {
	if hasWord(v.args, "-d") {
		v.flag(rules.FirewallOff, "-d")
	}
}
