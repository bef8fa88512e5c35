package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// dispatch maps a dispatch name (see dispatchName) to the rule that judges
// commands of that name. Names starting with mkfs or newfs go to ruleMkfs.
var dispatch map[string]func(*cmdv)

func init() {
	dispatch = map[string]func(*cmdv){}
	reg := func(f func(*cmdv), names ...string) {
		for _, n := range names {
			dispatch[n] = f
		}
	}
	// Deletes.
	reg(ruleRm, "rm")
	reg(ruleRimraf, "rimraf")
	reg(ruleRunner, "npx", "pnpx", "bunx", "pnpm", "yarn", "npm")
	reg(ruleRmdir, "rmdir")
	reg(ruleWinDelete, "del", "erase", "rd")
	reg(ruleRemoveItem, "remove-item")
	reg(ruleFind, "find", "gfind")
	reg(ruleShred, "shred")
	reg(ruleUnlink, "unlink")
	reg(ruleMv, "mv", "move")
	reg(ruleMoveItem, "move-item")
	reg(ruleDotNet, cmdfacts.DotNetFileCalls()...)
	reg(ruleRsync, "rsync")
	reg(ruleRobocopy, "robocopy")
	// Overwrites of critical files and disks.
	reg(ruleCopyTo, "cp", "install", "ln", "pv")
	reg(ruleTee, "tee", "tee-object")
	reg(ruleTruncate, "truncate")
	reg(ruleSed, "sed", "gsed")
	// Disk and system.
	reg(ruleDd, "dd")
	reg(ruleMkfs, "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs", "mformat")
	reg(ruleWipefs, "wipefs")
	reg(rulePartition, "blkdiscard", "sgdisk", "parted", "sfdisk", "fdisk", "gdisk", "cfdisk", "nvme")
	reg(ruleDiskpart, "diskpart")
	reg(ruleDiskutil, "diskutil")
	reg(ruleFormat, "format")
	reg(rulePSDisk, "format-volume", "clear-disk", "remove-partition", "initialize-disk", "reset-physicaldisk")
	reg(ruleReg, "reg")
	reg(ruleVssadmin, "vssadmin")
	reg(ruleWmic, "wmic")
	reg(ruleWbadmin, "wbadmin")
	reg(ruleRemoveCim, "remove-ciminstance", "remove-wmiobject")
	reg(ruleCipher, "cipher")
	reg(ruleChmod, "chmod", "chown", "chgrp", "chattr", "setfacl")
	reg(ruleIcacls, "icacls", "takeown")
	// Power and boot.
	reg(ruleShutdown, "shutdown")
	reg(rulePowerCmd, "reboot", "halt", "poweroff")
	reg(ruleStopComputer, "stop-computer", "restart-computer")
	reg(ruleSystemctl, "systemctl")
	reg(ruleLoginctl, "loginctl")
	reg(ruleInit, "init", "telinit")
	reg(ruleBcdedit, "bcdedit")
	// Git.
	reg(ruleGit, cmdfacts.GitFrontEnds()...)
	reg(ruleGit, cmdfacts.GitDashedNames()...)
	// Infrastructure and data stores.
	infraRules(reg)
	// Persistence and protections.
	reg(ruleCrontab, "crontab")
	reg(ruleSc, "sc", "set-content")
	reg(ruleNewService, "new-service")
	reg(ruleUpdateRcd, "update-rc.d")
	reg(ruleChkconfig, "chkconfig")
	reg(ruleSchtasks, "schtasks")
	reg(ruleRegisterTask, "register-scheduledtask")
	reg(ruleItemProperty, "set-itemproperty", "new-itemproperty")
	reg(ruleLaunchctl, "launchctl")
	reg(ruleUfw, "ufw")
	reg(ruleNetsh, "netsh")
	reg(ruleFirewallProfile, "set-netfirewallprofile")
	reg(ruleMpPreference, "set-mppreference")
	reg(ruleStopService, "stop-service", "set-service")
	reg(ruleNet, "net")
	reg(ruleService, "service")
	reg(ruleSetenforce, "setenforce")
	reg(ruleSpctl, "spctl")
	reg(ruleCsrutil, "csrutil")
	reg(ruleIptables, "iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft")
	reg(ruleNft, "nft")
	reg(rulePfctl, "pfctl")
	for name, f := range moreRules {
		reg(f, name)
	}
	// Framework database resets and platform destroys, after the rules
	// their names already have.
	chainPlatformRules(dispatch)
	chainLongTailRules(dispatch)
}

// pick returns the hits of the given kinds.
func pick(hs []hit, kinds hitKind) []hit {
	var out []hit
	for _, h := range hs {
		if h.kind&kinds != 0 {
			out = append(out, h)
		}
	}
	return out
}

// report adds a finding for rule when hs is not empty.
func (v *cmdv) report(rule *rules.Rule, detail string, hs []hit) {
	if len(hs) == 0 {
		return
	}
	v.j.add(finding{rule: rule, cmd: v.display(), detail: detail, targets: hs})
}

// flag adds a finding about the command itself (no targets).
func (v *cmdv) flag(rule *rules.Rule, detail string) {
	v.j.add(finding{rule: rule, cmd: v.display(), detail: detail})
}

// reportCommon reports the findings most file commands share: critical
// files (DG-CRITICAL-FILE) and unknown targets (DG-UNRESOLVED-TARGET).
func (v *cmdv) reportCommon(hs []hit) {
	v.report(rules.CriticalFile, "", pick(hs, hitCritical))
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// viaArgs reports whether the command is run by xargs, parallel or fd
// -x/-X on items they read or find.
func (v *cmdv) viaArgs() bool {
	for _, s := range v.c.Via {
		if s.RunsItems() {
			return true
		}
	}
	return false
}

// isSlashSwitch reports whether w is a one-letter cmd.exe-style switch
// (/s, /Q, /a:h), which must never be read as the MSYS drive S:\.
func isSlashSwitch(w ir.Word) bool {
	v := w.Value
	if w.Unknown || len(v) < 2 || v[0] != '/' {
		return false
	}
	sw, _, _ := strings.Cut(v[1:], ":")
	return len(sw) == 1 && (isNameByte(sw[0]) || sw[0] == '?')
}
