package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// diskRules are the rules of this file and the command names they judge.
var diskRules = []judging{
	on(ruleDd, "dd"),
	on(ruleMkfs, "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs", "mformat"),
	on(ruleWipefs, "wipefs"),
	on(rulePartition, "blkdiscard", "sgdisk", "parted", "sfdisk", "fdisk", "gdisk", "cfdisk", "nvme"),
	on(ruleDiskpart, "diskpart"),
	on(ruleDiskutil, "diskutil"),
	on(ruleFormat, "format"),
	on(rulePSDisk, "format-volume", "clear-disk", "remove-partition", "initialize-disk", "reset-physicaldisk"),
	on(ruleReg, "reg"),
	on(ruleVssadmin, "vssadmin"),
	on(ruleWmic, "wmic"),
	on(ruleWbadmin, "wbadmin"),
	on(ruleRemoveCim, "remove-ciminstance", "remove-wmiobject"),
	on(ruleCipher, "cipher"),
	on(ruleChmod, "chmod", "chown", "chgrp", "chattr", "setfacl"),
	on(ruleIcacls, "icacls", "takeown"),
}

// ---------------------------------------------------------------------------
// Disks, volumes, the registry and backups

// ruleDd: dd of= a device (DG-DD-DEVICE), a catastrophic path
// (DG-DD-TARGET), a critical file, or an unknown target.
func ruleDd(v *cmdv) {
	ofs, _ := v.effectTargets(ir.EffectWrite)
	for _, w := range ofs {
		hs := v.targets([]ir.Word{w}, hitDevice|hitCatastrophic|hitCritical|hitUnknown)
		if dev := pick(hs, hitDevice); len(dev) > 0 {
			v.report(rules.DdDevice, "", dev)
		} else {
			v.report(rules.DdTarget, "", pick(hs, hitCatastrophic))
		}
		v.reportCommon(hs)
	}
}

// ruleMkfs: mkfs* / newfs* / mke2fs / mkswap ... on a device (DG-MKFS);
// a file image is not a device.
func ruleMkfs(v *cmdv) {
	hs := v.targets(cmdfacts.ParseCommand("mkfs", v.args).Operands, hitDevice|hitUnknown)
	if dev := pick(hs, hitDevice); len(dev) > 0 {
		v.report(rules.Mkfs, "", dev)
		return
	}
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// ruleWipefs: wipefs -a/-o on a device (DG-WIPEFS); without them (or with
// -n) it only lists signatures.
func ruleWipefs(v *cmdv) {
	if cmdfacts.HasShort(v.args, "n") || cmdfacts.HasLong(v.args, "--no-act") {
		return
	}
	if !cmdfacts.HasShort(v.args, "ao") && !cmdfacts.HasLong(v.args, "--all", "--offset") {
		return
	}
	hs := v.targets(cmdfacts.ParseCommand("wipefs", v.args).Operands, hitDevice|hitUnknown)
	v.report(rules.Wipefs, "", pick(hs, hitDevice))
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// partitionReadOnly lists, per tool, the options that only show
// information.
var partitionReadOnly = map[string][]string{
	"fdisk":  {"-l", "--list", "-x", "--list-details", "-V", "--version", "-h", "--help"},
	"sfdisk": {"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-g", "--show-geometry", "-V", "--verify", "-F", "--list-free", "-r", "--reorder-dry-run", "--version", "--help"},
	"sgdisk": {"-p", "--print", "-i", "--info", "-v", "--verify", "-O", "--print-mbr", "-L", "--list-types", "-V", "--version", "-?", "--help"},
	"gdisk":  {"-l"},
	"parted": {"-l", "--list", "-h", "--help", "-v", "--version"},
}

// parted commands that only show information.
var partedReadOnly = map[string]bool{"print": true, "p": true, "help": true, "unit": true, "free": true, "list": true, "all": true, "quit": true}

// rulePartition: partition-table and discard tools on a device
// (DG-PARTITION), not in their listing modes.
func rulePartition(v *cmdv) {
	if v.name == "nvme" {
		sub := firstOperand(v.args)
		if sub != "format" && sub != "sanitize" {
			return
		}
	}
	for _, a := range v.args {
		for _, ro := range partitionReadOnly[v.name] {
			if a.Value == ro {
				return
			}
		}
	}
	ops := cmdfacts.ParseCommand("partitioners", v.args).Operands
	if v.name == "parted" {
		readOnly := true
		rest := 0
		for _, w := range ops {
			if strings.HasPrefix(w.Value, "/dev/") || strings.HasPrefix(w.Value, `\\`) {
				continue
			}
			rest++
			if !partedReadOnly[strings.ToLower(w.Value)] {
				readOnly = false
			}
		}
		if readOnly && rest > 0 {
			return
		}
	}
	hs := v.targets(ops, hitDevice|hitUnknown)
	if dev := pick(hs, hitDevice); len(dev) > 0 {
		v.report(rules.Partition, "", dev)
		return
	}
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// ruleDiskpart: diskpart, always (DG-DISKPART): its script decides what
// it wipes, and it can wipe anything.
func ruleDiskpart(v *cmdv) { v.flag(rules.Diskpart, "") }

// diskutil verbs that erase.
var diskutilErase = map[string]bool{
	"erasedisk": true, "erasevolume": true, "reformat": true, "zerodisk": true, "randomdisk": true,
	"secureerase": true, "partitiondisk": true, "splitpartition": true, "mergepartitions": true, "erase": true,
}

// diskutil apfs/cs/ar verbs that delete.
var diskutilDelete = map[string]bool{
	"deletecontainer": true, "deletevolume": true, "erasevolume": true, "delete": true,
	"deletelvg": true, "deletelv": true, "deletevolumegroup": true, "deletesnapshot": true,
}

// ruleDiskutil: diskutil verbs that erase disks or volumes
// (DG-DISKUTIL-WIPE).
func ruleDiskutil(v *cmdv) {
	vals := lowerValues(v.args)
	if len(vals) == 0 {
		return
	}
	switch {
	case diskutilErase[vals[0]]:
		v.flag(rules.DiskutilWipe, v.args[0].Value)
	case (vals[0] == "apfs" || vals[0] == "ap" || vals[0] == "cs" || vals[0] == "corestorage" || vals[0] == "appleraid" || vals[0] == "ar") &&
		len(vals) > 1 && diskutilDelete[vals[1]]:
		v.flag(rules.DiskutilWipe, v.args[0].Value+" "+v.args[1].Value)
	}
}

// ruleFormat: cmd.exe format of a drive letter (DG-FORMAT).
func ruleFormat(v *cmdv) {
	_, ops := winshell.CmdSwitches(v.c.Args)
	for _, w := range ops {
		d := strings.TrimRight(w.Value, `\/`)
		if w.Unknown || len(d) != 2 || d[1] != ':' || !isNameByte(d[0]) || d[0] == '_' {
			continue
		}
		v.report(rules.Format, "", []hit{{shown: strings.ToUpper(d)}})
		return
	}
}

// rulePSDisk: the PowerShell storage cmdlets that wipe (DG-PS-DISK).
func rulePSDisk(v *cmdv) {
	if winshell.ParsePowerShellCommand(v.c.Args).WhatIf || hasWord(v.args, "-WhatIf") {
		return
	}
	v.flag(rules.PSDisk, "")
}

// ruleReg: reg delete of a hive, a first-level key or a system key
// (DG-REG-DELETE, cmdfacts.RegistryKeyCritical), a value of one too; reg
// add and reg import (DG-PERSIST-REG).
func ruleReg(v *cmdv) {
	if len(v.args) == 0 {
		return
	}
	switch sub := strings.ToLower(v.args[0].Value); sub {
	case "delete":
		if len(v.args) > 1 {
			values := hasWord(v.args[2:], "/v", "-v") // one value; /va empties the key
			if key, rule := criticalKey(keyText(v.args[1]), values); rule != nil {
				v.j.add(finding{rule: rule, cmd: "reg delete", targets: []hit{{shown: key}}})
			}
		}
	case "add", "import":
		key := ""
		if len(v.args) > 1 {
			key = keyText(v.args[1])
		}
		v.flag(rules.PersistReg, strings.TrimSpace(sub+" "+key))
	}
}

// keyText is a registry key argument as meant: the raw text when POSIX
// quoting dropped its backslashes (HKLM\Software became HKLMSoftware).
func keyText(w ir.Word) string {
	if strings.Contains(w.Raw, `\`) && !strings.Contains(w.Value, `\`) {
		return strings.NewReplacer(`'`, "", `"`, "").Replace(w.Raw)
	}
	return w.Value
}

// criticalKey reports a registry key whose deletion breaks Windows, the
// rule it falls under (DG-REG-DELETE for a root key, DG-REG-SYSTEM-KEY for
// a deeper system key; with values, only keys in a system subtree count),
// and the key as messages show it: as written, separators and trailing
// backslashes tidied.
func criticalKey(text string, values bool) (string, *rules.Rule) {
	key, ok := cmdfacts.RegistryKey(text)
	if !ok {
		return "", nil
	}
	var rule *rules.Rule
	switch {
	case !values && cmdfacts.RegistryRoot(key):
		rule = rules.RegDelete
	case cmdfacts.RegistrySystemKey(key):
		rule = rules.RegSystemKey
	default:
		return "", nil
	}
	t := strings.ReplaceAll(text, "/", `\`)
	if strings.HasPrefix(t, `\\`) {
		if _, rest, ok := strings.Cut(strings.TrimPrefix(t, `\\`), `\`); ok {
			t = rest
		}
	}
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '\\' })
	return strings.Join(parts, `\`), rule
}

// ruleVssadmin: vssadmin delete shadows / resize shadowstorage
// (DG-VSSADMIN).
func ruleVssadmin(v *cmdv) {
	vals := lowerValues(v.args)
	if len(vals) >= 2 && (vals[0] == "delete" && vals[1] == "shadows" || vals[0] == "resize" && vals[1] == "shadowstorage") {
		v.flag(rules.Vssadmin, vals[0]+" "+vals[1])
	}
}

// ruleWmic: wmic shadowcopy delete (DG-VSSADMIN).
func ruleWmic(v *cmdv) {
	vals := lowerValues(v.args)
	shadow, del := false, false
	for _, s := range vals {
		shadow = shadow || s == "shadowcopy"
		del = del || s == "delete"
	}
	if shadow && del {
		v.flag(rules.Vssadmin, "shadowcopy delete")
	}
}

// ruleWbadmin: wbadmin delete catalog / backup / systemstatebackup
// (DG-VSSADMIN).
func ruleWbadmin(v *cmdv) {
	vals := lowerValues(v.args)
	if len(vals) >= 2 && vals[0] == "delete" {
		switch vals[1] {
		case "catalog", "backup", "systemstatebackup":
			v.flag(rules.Vssadmin, vals[0]+" "+vals[1])
		}
	}
}

// ruleRemoveCim: Get-CimInstance Win32_ShadowCopy | Remove-CimInstance
// (DG-VSSADMIN).
func ruleRemoveCim(v *cmdv) {
	found := hasWord(v.args, "win32_shadowcopy")
	v.j.upstream(v.i, func(k int, _ ir.FeedKind) bool {
		found = found || hasWord(v.j.s.Commands[k].Args, "win32_shadowcopy")
		return !found
	})
	if found {
		v.flag(rules.Vssadmin, "Win32_ShadowCopy")
	}
}

// ruleCipher: cipher /w (DG-CIPHER-W), the switch alone or with its
// directory (/w:C:\x).
func ruleCipher(v *cmdv) {
	for _, a := range v.args {
		s := strings.ToLower(a.Value)
		if s == "/w" || strings.HasPrefix(s, "/w:") {
			v.flag(rules.CipherW, "")
			return
		}
	}
}

// ruleChmod: chmod/chown/chgrp/chattr/setfacl -R on a catastrophic target
// (DG-CHMOD-RECURSIVE); any of them on a critical file.
func ruleChmod(v *cmdv) {
	ops, recursive := v.effectTargets(ir.EffectModify)
	want := hitCritical
	if recursive {
		want |= hitCatastrophic | hitUnknown
	}
	hs := v.targets(ops, want)
	v.report(rules.ChmodRecursive, "", pick(hs, hitCatastrophic))
	v.reportCommon(hs)
}

// ruleIcacls: icacls PATH ... /T and takeown /F PATH /R on a catastrophic
// target (DG-CHMOD-RECURSIVE).
func ruleIcacls(v *cmdv) {
	args := v.c.Args
	if v.c.Dialect == ir.Bash {
		args = cmdfacts.WindowsArgv(args) // icacls C:\ /grant ...: bash read "C: /grant"
	}
	switches, ops := winshell.CmdSwitches(args)
	flag := "t"
	if v.name == "takeown" {
		flag = "r"
	}
	recursive := false
	for _, s := range switches {
		recursive = recursive || s == flag
	}
	if v.name == "icacls" {
		// An inheritable grant, (OI) or (CI), reaches everything below.
		for _, w := range ops {
			recursive = recursive || strings.Contains(strings.ToUpper(w.Value), "(OI)") ||
				strings.Contains(strings.ToUpper(w.Value), "(CI)")
		}
	}
	if !recursive || len(ops) == 0 {
		return
	}
	v.report(rules.ChmodRecursive, "", v.targets(ops[:1], hitCatastrophic))
}

// ---------------------------------------------------------------------------
// System

// forkBomb: a function that calls itself in a pipe or in the background
// (DG-FORK-BOMB), whatever its name; cmd.exe's %0|%0.
func (v *cmdv) forkBomb() {
	c := v.c
	name := ""
	if fn := v.viaLast().Function(); fn != "" && c.Name == strings.ToLower(fn) {
		name = fn + "()"
	} else if c.Dialect == ir.Cmd && len(c.Args) > 0 && c.Args[0].Raw == "%0" {
		name = "%0|%0"
	}
	if name != "" && (c.FeedsInto >= 0 || c.Background || len(v.j.feeders(v.i)) > 0) {
		v.j.add(finding{rule: rules.ForkBomb, cmd: name})
	}
}
