package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// This file bridges known gaps of core/shell, each in one function marked
// "Known core/shell gap". They are meant to move into core/shell; until
// then they stay small and self-contained so that moving them only
// deletes code here.

// gapLiteralStdin judges literal code piped into an interpreter
// (echo "import shutil; shutil.rmtree('/')" | python3) as the script it
// is: its file effects, and the shell commands it runs one level deeper.
// k is the feeding command (echo or printf with known arguments).
//
// Known core/shell gap: the analysis follows literal text piped into a
// shell (echo ... | sh), and heredocs into an interpreter, but not a pipe
// into an interpreter.
func gapLiteralStdin(v *cmdv, k int) {
	j := v.j
	lang := cmdfacts.InterpreterLang(v.name)
	if j.nested > 0 || lang == "" || cmdfacts.IsShell(v.name) {
		return
	}
	text, ok := literalOutput(j.view(k))
	if !ok || strings.TrimSpace(text) == "" {
		return
	}
	effects := oneliner.Effects(lang, text)
	v.judgeEffects(v.display()+" stdin", text, effects)
	v.secretEffects(cmdfacts.Inline{Lang: lang, Code: text, Via: v.display() + " stdin"}, effects)
	for _, line := range oneliner.Execs(lang, text) {
		j.nestedScript(v, line, ir.Bash)
	}
}

// nestedScript analyses text as a script run by v, in v's directory, and
// judges it with this judge's settings; its reasons join ours.
func (j *judge) nestedScript(v *cmdv, text string, dialect ir.Dialect) {
	j.spend(4 * steps.Path(len(text))) // the analysis of the text
	base, _ := v.baseDir()
	cwd := ""
	if base.IsAbs() {
		cwd = base.Norm
	}
	s := analysis.Analyze(text, analysis.Options{Dialect: dialect, Cwd: cwd, Home: j.plat.Home, Lookup: j.plat.Lookup})
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	sub := &judge{plat: j.plat, en: j.en, s: s, cwd: j.callCwd(), cwdDone: true, custom: j.custom, roots: j.roots, project: j.project, seen: j.seen, nested: j.nested + 1, steps: j.steps, ctx: j.ctx, secretsOn: j.secretsOn, secretsAt: j.secretsAt,
		fromFile: j.fromFile, baseFile: j.fromFile}
	if base.IsAbs() {
		sub.cwd = base
	}
	_ = sub.run() // a deadline error shows again in the caller's next check
	j.reasons = append(j.reasons, sub.reasons...)
}

// literalOutput returns what echo or printf prints when all its arguments
// are known.
func literalOutput(u *cmdv) (string, bool) {
	args := u.args
	for _, a := range args {
		if a.Unknown {
			return "", false
		}
	}
	switch u.name {
	case "echo":
		escapes := false
		for len(args) > 0 && len(args[0].Value) > 1 && args[0].Value[0] == '-' && strings.Trim(args[0].Value[1:], "neE") == "" {
			escapes = escapes || strings.Contains(args[0].Value, "e")
			args = args[1:]
		}
		vals := make([]string, len(args))
		for i, a := range args {
			vals[i] = a.Value
		}
		out := strings.Join(vals, " ")
		if escapes {
			out = unescapeC(out)
		}
		return out, true
	case "printf":
		if len(args) == 0 {
			return "", false
		}
		out := args[0].Value
		for _, a := range args[1:] {
			i := strings.Index(out, "%s")
			if i < 0 {
				i = strings.Index(out, "%b")
			}
			if i < 0 {
				break
			}
			out = out[:i] + a.Value + out[i+2:]
		}
		return unescapeC(strings.ReplaceAll(out, "%%", "%")), true
	}
	return "", false
}

// unescapeC turns the \n, \t and \\ escapes of echo -e and printf into
// the characters.
func unescapeC(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(s)
}
