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
		v.judgeEffects(in.Via, in.Code, shell.ScriptEffects(in.Lang, in.Code))
		if in.InPlace {
			if hs := v.targets(in.Files, hitCritical); len(hs) > 0 {
				v.j.add(finding{rule: "DG-CRITICAL-FILE", cmd: in.Via, targets: hs})
			}
		}
	}
}

// judgeEffects reports the delete and write effects of a script, named as
// cmd. A write to a directory only matters when it changes permissions or
// owners (chmod of /); creating or copying into one is harmless. A delete
// whose path is computed at run time counts against a catastrophic
// directory the code names as a string literal (os.remove(os.path.join(
// "/etc", f)) for f in os.listdir("/etc")): the write API and the absolute
// literal appear together.
func (v *cmdv) judgeEffects(cmd, code string, effects []shell.Effect) {
	var dels, writes, crit []hit
	computed := false
	for _, e := range effects {
		if e.Op == "exec" {
			continue
		}
		if e.Path == "" {
			computed = computed || e.Op == "delete"
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
	if computed && len(dels) == 0 {
		var lits []shell.Word
		for _, lit := range pathLiterals(code) {
			lits = append(lits, textWord(lit))
		}
		dels = v.targets(lits, hitCatastrophic)
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

// maxPathLiterals bounds how many literals pathLiterals returns.
const maxPathLiterals = 16

// pathLiterals returns the quoted string literals of code that look like
// absolute paths ("/etc", '~', "C:\\Users"), in order. Cost: one pass.
func pathLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code) && len(out) < maxPathLiterals; i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		end := i + 1
		for end < len(code) && code[end] != q && code[end] != '\n' {
			if code[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(code) || code[end] != q {
			return out
		}
		lit := strings.ReplaceAll(code[i+1:end], `\\`, `\`)
		if looksAbsolute(lit) {
			out = append(out, lit)
		}
		i = end
	}
	return out
}

// looksAbsolute: "/x", "~", "~/x", "C:\x", "C:/x", "\\srv".
func looksAbsolute(s string) bool {
	switch {
	case s == "":
		return false
	case s[0] == '/' || s == "~" || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, `\\`):
		return true
	case len(s) >= 3 && isNameByte(s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'):
		return true
	}
	return false
}
