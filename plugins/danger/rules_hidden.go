package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
)

// hiddenRules are the rules of this file and the command names they judge.
var hiddenRules = []judging{
	on(ruleRunner, cmdfacts.PackageRunnerNames()...),
}

// inlineScripts judges the interpreter one-liners the command runs
// (python -c, node -e, perl -e, awk, osascript ...): the literal files
// their code deletes (DG-SCRIPT-DELETE) or writes (DG-SCRIPT-WRITE), and
// critical files they touch or edit in place (DG-CRITICAL-FILE), and the
// credential stores they read (DG-SECRET-READ, secretEffects). The shell
// commands the code runs (os.system, execSync, system()) are commands of
// the analysis already and are judged as such.
func (v *cmdv) inlineScripts() {
	if cmdfacts.InterpreterLang(v.c.Name) == "" {
		return
	}
	for _, in := range cmdfacts.InlineScripts(v.c) {
		effects := oneliner.Effects(in.Lang, in.Code)
		v.judgeEffects(in.Via, in.Code, effects)
		v.secretEffects(in, effects)
		if in.InPlace && !cmdfacts.HasEffects(v.name) { // gawk -i inplace; perl and ruby -i are effects (ruleEffects)
			if hs := v.targets(in.Files, hitCritical); len(hs) > 0 {
				v.j.add(finding{rule: rules.CriticalFile, cmd: in.Via, targets: hs})
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
func (v *cmdv) judgeEffects(cmd, code string, effects []oneliner.Effect) {
	var dels, writes, crit, repo, project []hit
	computed := false
	for _, e := range effects {
		if e.Op == "exec" {
			if e.Decoded {
				v.j.add(finding{rule: rules.RCEDecoded, cmd: cmd, detail: e.API})
			}
			continue
		}
		if e.Path == "" {
			computed = computed || e.Op == "delete"
			continue
		}
		w := []ir.Word{cmdfacts.Literal(e.Path)}
		switch e.Op {
		case "delete":
			hs := v.targets(w, hitCatastrophic|hitCritical|hitDisk|hitRepo)
			dels = append(dels, pick(hs, hitCatastrophic|hitDisk)...)
			repo = append(repo, repoOnly(hs, hitRepo)...)
			project = append(project, repoOnly(hs, hitProject)...)
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
		var lits []ir.Word
		for _, lit := range pathLiterals(code) {
			lits = append(lits, cmdfacts.Literal(lit))
		}
		dels = v.targets(lits, hitCatastrophic)
	}
	if len(dels) > 0 {
		v.j.add(finding{rule: rules.ScriptDelete, cmd: cmd, targets: dels})
	}
	if len(repo) > 0 {
		v.j.add(finding{rule: rules.GitRepoDelete, cmd: cmd, targets: repo})
	}
	if len(project) > 0 {
		v.j.add(finding{rule: rules.ProjectDelete, cmd: cmd, targets: project})
	}
	if len(writes) > 0 {
		v.j.add(finding{rule: rules.ScriptWrite, cmd: cmd, targets: writes})
	}
	if len(crit) > 0 {
		v.j.add(finding{rule: rules.CriticalFile, cmd: cmd, targets: crit})
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

// ---------------------------------------------------------------------------
// Commands hidden behind an unknown name or a package runner

// unknownCommand judges a command whose name is unknown until run time:
// with flags and a catastrophic target it asks (DG-UNKNOWN-COMMAND, $RM
// -rf /). When its first argument is a command name ($SUDO rm -rf /), the
// analysis reports that command, nested with Via "unknown wrapper", and
// the rules judge it there.
func (v *cmdv) unknownCommand() {
	if len(v.c.Args) == 0 || v.c.NameIfEmpty != "" {
		return
	}
	if len(v.args) > 0 && !v.args[0].Unknown && !strings.HasPrefix(v.args[0].Value, "-") {
		return
	}
	flagged := false
	for _, a := range v.args {
		if !a.Unknown && len(a.Value) > 1 && a.Value[0] == '-' {
			flagged = true
			break
		}
	}
	if !flagged {
		return
	}
	if hs := v.targets(cmdfacts.Operands(v.args), hitCatastrophic); len(hs) > 0 {
		v.j.add(finding{rule: rules.UnknownCommand, cmd: shownRaw(v.c.Args[0]), targets: hs})
	}
}

// judgeInner judges argv (argv[0] a known command word) as a command run
// by v (a package runner), with v's directory, redirects and place in the
// analysis, by the rule for its name.
func (v *cmdv) judgeInner(argv []ir.Word) {
	if len(argv) == 0 || argv[0].Unknown {
		return
	}
	inner := *v.c
	inner.Args = argv
	inner.Name = ir.CommandName(argv[0].Value)
	if at := strings.LastIndexByte(inner.Name, '@'); at > 0 {
		inner.Name = inner.Name[:at] // npx rimraf@5
	}
	if agent, ok := cmdfacts.AgentCLIPackage(argv[0].Value); ok {
		inner.Name = agent // npx @anthropic-ai/claude-code is claude
	}
	inner.NameIfEmpty = inner.Name
	w := &cmdv{j: v.j, i: v.i, c: &inner, name: dispatchName(&inner)}
	cmdfacts.FillEffects(&inner, w.name) // a command made here: its effects as the analysis fills them
	if len(argv) > 1 {
		w.args = argv[1:]
	}
	w.rules()
}

// ruleRunner: npx, pnpx, bunx, pnpm dlx/exec, yarn dlx/exec, npm exec/x
// run a package's command: it is judged as that command (npx rimraf ~ is
// rimraf ~); npx -c / --call 'script' runs a shell script.
func ruleRunner(v *cmdv) {
	args, ok := cmdfacts.PackageRunnerArgs(v.name, v.args)
	if !ok {
		return
	}
	// Read with npx's Spec, as the fence reads it: -c 'script',
	// --call='script' and -c'script' alike.
	p := cmdfacts.ParseArgs(args, mustSyntax("npx"))
	for _, o := range p.Opts {
		if (o.Name == "c" || o.Name == "call") && o.Val != nil && !o.Val.Unknown {
			v.j.nestedScript(v, o.Val.Value, ir.Bash)
			return
		}
	}
	v.judgeInner(p.Operands)
}
