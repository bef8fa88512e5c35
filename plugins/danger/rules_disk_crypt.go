package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// diskCryptRules are the rules of this file and the command names they judge.
var diskCryptRules = []judging{
	on(ruleCryptsetup, "cryptsetup"),
	on(ruleHdparm, "hdparm"),
}

// Disk tools that wipe or lock a device through their own verbs
// (DG-PARTITION): cryptsetup luksFormat / erase / luksErase /
// luksKillSlot / luksRemoveKey, and hdparm's ATA security erase, sector
// trims and writes, drive passwords and capacity changes.

// cryptsetupSpec lists cryptsetup's options that take a value.
var cryptsetupSpec = mustSyntax("cryptsetup")

// cryptsetupWipes are the actions that destroy a device's data or keys
// (lower-case; erase is luksErase).
var cryptsetupWipes = map[string]bool{"luksformat": true, "erase": true, "lukserase": true,
	"lukskillslot": true, "luksremovekey": true}

// ruleCryptsetup: cryptsetup ACTION DEVICE where ACTION wipes it.
func ruleCryptsetup(v *cmdv) {
	ops := cmdfacts.ParseArgs(v.args, cryptsetupSpec).Operands
	if len(ops) < 2 || ops[0].Unknown || !cryptsetupWipes[strings.ToLower(ops[0].Value)] {
		return
	}
	hs := v.targets(ops[1:2], hitDevice|hitUnknown)
	if dev := pick(hs, hitDevice); len(dev) > 0 {
		v.report(rules.Partition, ops[0].Value, dev)
		return
	}
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// hdparmWipes are hdparm's options that erase, overwrite, lock or resize
// a drive.
var hdparmWipes = map[string]bool{"--security-erase": true, "--security-erase-enhanced": true,
	"--trim-sector-ranges": true, "--trim-sector-ranges-stdin": true, "--write-sector": true,
	"--make-bad-sector": true, "--security-set-pass": true, "--dco-restore": true, "--dco-setmax": true,
	"--fwdownload": true, "--fwdownload-mode3": true, "--fwdownload-mode3-max": true,
	"--fwdownload-mode7": true, "-N": true}

// ruleHdparm: hdparm with a wiping option on a device.
func ruleHdparm(v *cmdv) {
	detail := ""
	for _, a := range v.args {
		if !a.Unknown && hdparmWipes[a.Value] && detail == "" {
			detail = a.Value
		}
	}
	if detail == "" {
		return
	}
	var devs []ir.Word
	for _, a := range v.args {
		if a.Unknown || strings.HasPrefix(a.Value, "/dev/") {
			devs = append(devs, a)
		}
	}
	hs := v.targets(devs, hitDevice|hitUnknown)
	if dev := pick(hs, hitDevice); len(dev) > 0 {
		v.report(rules.Partition, detail, dev)
		return
	}
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}
