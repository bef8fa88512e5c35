package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Git configuration that runs or loads code (DG-GIT-CODE-CONFIG,
// DG-PERSIST-GIT-HOOKS): the keys are cmdfacts.GitCodeSetting's, the
// environment cmdfacts.GitCodeEnv's. A value set in git's configuration
// runs in every later git command; a value given for one invocation that
// is a command line is judged as that command (the analysis runs it as a
// payload), so for -c and GIT_CONFIG_* only what the command line cannot
// show asks: a hooks directory, an included file, an ext transport.

// gitCodeName is a code kind as messages name it.
func (j *judge) gitCodeName(c cmdfacts.GitCode) string {
	if j.en {
		return c.String()
	}
	switch c {
	case cmdfacts.GitShell:
		return "shell 命令"
	case cmdfacts.GitProgram:
		return "程序"
	case cmdfacts.GitHooks:
		return "钩子目录"
	case cmdfacts.GitInclude:
		return "配置文件"
	case cmdfacts.GitTransport:
		return "ext:: 传输"
	}
	return "代码"
}

// ruleGitConfig: a git config write of a code-running key, the hooks
// directory first (DG-PERSIST-GIT-HOOKS), any other one with a value that
// is not an everyday one (DG-GIT-CODE-CONFIG); a key that is unknown until
// run time may be any of them.
func ruleGitConfig(v *cmdv, args []ir.Word) {
	w, ok := cmdfacts.ParseGitConfigWrite(args)
	if !ok || w.Unset {
		return
	}
	if w.Name == "" {
		v.gitFinding(rules.GitCodeConfig, "config", v.j.text("<unknown key> ", "<未知键> ")+wordText(w.Value), nil)
		return
	}
	v.gitSetting(rules.GitCodeConfig, "config", w.Name, w.Value, false)
}

// gitSetting reports setting name to value when it runs or loads code:
// hooks under DG-PERSIST-GIT-HOOKS, the rest under rule; once is set for
// one invocation (-c, GIT_CONFIG_*), where only hooks, includes and
// transports ask.
func (v *cmdv) gitSetting(rule *rules.Rule, sub, name string, value ir.Word, once bool) bool {
	code, ok := cmdfacts.GitCodeSetting(name, value.Value, value.Unknown)
	if !ok || once && (code == cmdfacts.GitShell || code == cmdfacts.GitProgram) {
		return false
	}
	detail := name + " " + wordText(value)
	if once {
		detail = "-c " + name + "=" + wordText(value)
	}
	if code == cmdfacts.GitHooks && !once {
		v.flag(rules.PersistGitHooks, detail)
		return true
	}
	v.gitFinding(rule, sub, detail, []string{v.j.gitCodeName(code)})
	return true
}

// ruleGitCode judges what a git invocation makes git load besides its
// command line: its -c, --config-env and GIT_CONFIG_* settings, the
// environment it inherits (GIT_CONFIG_GLOBAL, GIT_EXEC_PATH,
// GIT_TEMPLATE_DIR, GIT_ALLOW_PROTOCOL ...), the settings a clone writes
// into the new repository (git clone -c), the hooks template of init and
// clone (--template), and an ext:: URL stored as a remote (git remote add,
// set-url; git submodule add).
func ruleGitCode(v *cmdv, g cmdfacts.Git) {
	sub := g.Sub
	if sub == "" {
		sub = "-c"
	}
	for _, c := range g.Config {
		val := cmdfacts.Literal(c.Value)
		if c.Unknown {
			val = ir.Word{Value: c.Value, Raw: c.Value, Unknown: true}
		}
		if v.gitSetting(rules.GitCodeConfig, sub, c.Name, val, true) {
			return
		}
	}
	for _, a := range v.inheritedAssigns() {
		if code, ok := cmdfacts.GitCodeEnv(a.Name, a.Value.Value, a.Value.Unknown); ok {
			v.gitFinding(rules.GitCodeConfig, sub, a.Name+"="+wordText(a.Value), []string{v.j.gitCodeName(code)})
			return
		}
	}
	switch key, rest := cmdfacts.GitSubSub(g.Sub, g.Args); key {
	case "remote add", "remote set-url", "submodule add":
		for _, a := range rest {
			if cmdfacts.IsExtURL(a.Value) || a.Unknown && cmdfacts.IsExtURL(a.KnownPrefix) {
				v.gitFinding(rules.GitCodeConfig, key, wordText(a), []string{v.j.gitCodeName(cmdfacts.GitTransport)})
				return
			}
		}
	}
	if g.Sub != "clone" && g.Sub != "init" {
		return
	}
	p := cmdfacts.ParseCommand("git "+g.Sub, g.Args)
	for _, t := range p.Values("template") {
		if t.Unknown || strings.TrimSpace(t.Value) != "" {
			v.flag(rules.PersistGitHooks, g.Sub+" --template="+wordText(t))
			return
		}
	}
	if g.Sub == "clone" {
		for _, kv := range p.Values("c", "config") {
			name, _, eq := strings.Cut(kv.Value, "=")
			val := cmdfacts.Literal("") // a bare -c NAME is true
			if eq {
				val = cmdfacts.SubWord(kv, len(name)+1)
			}
			if v.gitSetting(rules.GitCodeConfig, "clone", strings.ToLower(name), val, false) {
				return
			}
		}
	}
}

// inheritedAssigns are the variables command v runs with beyond the
// environment the call started in: its own NAME=value prefixes (also
// through env), those of the commands that run it, which it inherits
// (X=1 sh -c 'git ...'), and those an earlier export, declare, typeset,
// readonly or local in the same script set (export NAME of a variable
// set before counts, with its value unknown unless set in that word).
func (v *cmdv) inheritedAssigns() []ir.Assign {
	var out []ir.Assign
	cmds := v.j.s.Commands
	for c, hops := v.c, 0; hops <= len(cmds); hops++ {
		out = append(out, c.Assigns...)
		if c.Parent < 0 || c.Parent >= len(cmds) {
			break
		}
		c = &cmds[c.Parent]
	}
	for k := 0; k < v.i && k < len(cmds); k++ {
		c := &cmds[k]
		switch c.Name {
		case "export", "declare", "typeset", "readonly", "local":
		default:
			continue
		}
		out = append(out, c.Assigns...)
		for _, w := range c.Args[1:] {
			n, _, set := strings.Cut(w.Value, "=")
			if strings.HasPrefix(n, "-") || !set && (c.Name != "export" || w.Unknown) {
				continue
			}
			val := ir.Word{Unknown: true}
			if set {
				val = cmdfacts.SubWord(w, len(n)+1)
			}
			out = append(out, ir.Assign{Name: n, Value: val})
		}
	}
	return out
}
