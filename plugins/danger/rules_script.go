package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell"
)

// inlineScripts judges the interpreter one-liners the command runs
// (python -c, node -e, perl -e, awk, osascript ...): the literal files
// their code deletes (DG-SCRIPT-DELETE) or writes (DG-SCRIPT-WRITE), and
// critical files they touch or edit in place (DG-CRITICAL-FILE). The shell
// commands the code runs (os.system, execSync, system()) are commands of
// the analysis already and are judged as such.
func (v *cmdv) inlineScripts() {
	if interpreterLang(v.c.Name) == "" {
		return
	}
	for _, in := range shell.InlineScripts(v.c) {
		v.judgeEffects(in.Via, shell.ScriptEffects(in.Lang, in.Code))
		if in.InPlace {
			if hs := v.targets(in.Files, hitCritical); len(hs) > 0 {
				v.j.add(finding{rule: "DG-CRITICAL-FILE", cmd: in.Via, targets: hs})
			}
		}
	}
}

// judgeEffects reports the delete and write effects of a script, named as
// cmd. A write to a directory only matters when it changes permissions or
// owners (chmod of /); creating or copying into one is harmless.
func (v *cmdv) judgeEffects(cmd string, effects []shell.Effect) {
	var dels, writes, crit []hit
	for _, e := range effects {
		if e.Path == "" || e.Op == "exec" {
			continue
		}
		w := []shell.Word{textWord(e.Path)}
		switch e.Op {
		case "delete":
			hs := v.targets(w, hitCatastrophic|hitCritical|hitDisk)
			dels = append(dels, pick(hs, hitCatastrophic|hitDisk)...)
			crit = append(crit, pick(hs, hitCritical)...)
		case "write":
			want := hitCritical | hitDisk
			api := strings.ToLower(e.API)
			if strings.Contains(api, "chmod") || strings.Contains(api, "chown") {
				want |= hitCatastrophic
			}
			hs := v.targets(w, want)
			writes = append(writes, pick(hs, hitCatastrophic|hitDisk)...)
			crit = append(crit, pick(hs, hitCritical)...)
		}
	}
	if len(dels) > 0 {
		v.j.add(finding{rule: "DG-SCRIPT-DELETE", cmd: cmd, targets: dels})
	}
	if len(writes) > 0 {
		v.j.add(finding{rule: "DG-SCRIPT-WRITE", cmd: cmd, targets: writes})
	}
	if len(crit) > 0 {
		v.j.add(finding{rule: "DG-CRITICAL-FILE", cmd: cmd, targets: crit})
	}
}
