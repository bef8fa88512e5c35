package danger

import (
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// overwriteRules are the rules of this file and the command names they judge.
var overwriteRules = []judging{
	on(ruleCopyTo, "cp", "install", "ln"),
	on(ruleTee, "tee", "tee-object"),
	on(ruleTruncate, "truncate"),
	on(ruleSed, "sed"),
}

// ---------------------------------------------------------------------------
// Overwriting critical files and disks (DG-CRITICAL-FILE, DG-DEVICE-WRITE)

// redirects judges the command's writing redirects: onto a critical file
// (DG-CRITICAL-FILE), a disk (DG-DEVICE-WRITE) or the SysRq trigger
// (DG-POWEROFF).
func (v *cmdv) redirects() {
	for _, r := range v.c.Redirects {
		if !r.IsWrite() {
			continue
		}
		hs := v.targets([]ir.Word{r.Target}, hitCritical|hitDisk|hitSysrq)
		if len(hs) == 0 {
			continue
		}
		cmd := "重定向 " + r.Fd + r.Op
		if v.j.en {
			cmd = "The redirect " + r.Fd + r.Op
		}
		f := finding{cmd: cmd, targets: pick(hs, hitDisk)}
		if len(f.targets) > 0 {
			f.rule = rules.DeviceWrite
			v.j.add(f)
		}
		if f.targets = pick(hs, hitCritical); len(f.targets) > 0 {
			f.rule = rules.CriticalFile
			v.j.add(f)
		}
		if len(pick(hs, hitSysrq)) > 0 {
			v.j.add(finding{rule: rules.Poweroff, cmd: cmd + " /proc/sysrq-trigger"})
		}
	}
}

// ruleCopyTo: cp, install and ln writing onto a critical file or a disk
// (DG-CRITICAL-FILE, DG-DEVICE-WRITE): the targets of their effects (the
// destination of a copy or link, the directories of install -d).
func ruleCopyTo(v *cmdv) {
	var dest []ir.Word
	for _, e := range v.c.Effects {
		dest = append(dest, e.Targets...)
	}
	hs := v.targets(dest, hitCritical|hitDisk)
	v.report(rules.DeviceWrite, "", pick(hs, hitDisk))
	v.report(rules.CriticalFile, "", pick(hs, hitCritical))
}

// ruleTee: tee onto a critical file, a disk or the SysRq trigger.
func ruleTee(v *cmdv) {
	words, _ := v.effectTargets(ir.EffectWrite)
	if v.name == "tee-object" {
		_, words = winshell.ParsePowerShellCommand(v.c.Args).Targets()
	}
	v.writes(words)
}

// writes reports the findings of writing onto each of words: a critical
// file, a disk, the SysRq trigger.
func (v *cmdv) writes(words []ir.Word) {
	hs := v.targets(words, hitCritical|hitDisk|hitSysrq)
	v.report(rules.DeviceWrite, "", pick(hs, hitDisk))
	v.report(rules.CriticalFile, "", pick(hs, hitCritical))
	if len(pick(hs, hitSysrq)) > 0 {
		v.j.add(finding{rule: rules.Poweroff, cmd: v.display() + " /proc/sysrq-trigger"})
	}
}

// ruleTruncate: truncate of a critical file.
func ruleTruncate(v *cmdv) {
	ops, _ := v.effectTargets(ir.EffectWrite)
	v.reportCommon(v.targets(ops, hitCritical))
}

// ruleSed: sed -i on a critical file (the files its effects rewrite).
func ruleSed(v *cmdv) {
	files, _ := v.effectTargets(ir.EffectWrite)
	v.report(rules.CriticalFile, "", v.targets(files, hitCritical))
}
