package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Switching the guard off (the Tamper family): an agent host's CLI that
// disables, removes or reconfigures zcode-fence or turns hooks off
// (core/cmdfacts.AgentCLI), and the guard's own binary run in hook mode or
// with its environment changed (core/config.GuardEnv). The files behind
// them are the fence's protected paths.

// tamper judges command v for the Tamper family. Cost: a name comparison
// for every command that is not an agent CLI or the guard.
func (v *cmdv) tamper() {
	if ch, ok := cmdfacts.AgentCLI(v.name, v.args); ok {
		v.agentChange(ch)
	}
	v.agentRun()
	v.guardRun()
}

// agentRun reports an agent host started with the guard's settings
// changed (ZCODE_FENCE_ENABLE_DANGER_GATE=false claude -p ...): its hooks
// inherit the environment, so the guard would judge that session with
// them (config.GuardSettingsEnv; a proxy for the agent is not one).
func (v *cmdv) agentRun() {
	if !cmdfacts.IsAgentCLI(v.name) {
		return
	}
	var env []string
	for _, name := range v.guardEnv() {
		if config.GuardSettingsEnv(name) {
			env = append(env, name)
		}
	}
	if len(env) > 0 {
		v.j.add(finding{rule: rules.TamperGuard, cmd: v.display(),
			detail: v.j.text("hooks", "的钩子"), subject: strings.Join(env, " ")})
	}
}

// agentChange reports an agent CLI change that can reach zcode-fence.
func (v *cmdv) agentChange(ch cmdfacts.AgentChange) {
	switch ch.Kind {
	case cmdfacts.PluginChange:
		if ch.All {
			v.j.add(finding{rule: rules.TamperPlugin, cmd: v.display(), detail: ch.Detail, subject: v.j.text("every plugin", "全部插件")})
			return
		}
		for _, w := range ch.Targets {
			if w.Unknown || namesGuard(w.Value, ch.Marketplace) {
				v.j.add(finding{rule: rules.TamperPlugin, cmd: v.display(), detail: ch.Detail, subject: shownRaw(w)})
				return
			}
		}
	case cmdfacts.HooksChange:
		if ch.All {
			v.flag(rules.TamperHooks, ch.Detail)
			return
		}
		var kept []string
		for _, w := range ch.Targets {
			if w.Unknown {
				return // an unknown list may name the guard
			}
			for _, name := range strings.Split(w.Value, ",") {
				if namesGuard(strings.TrimSpace(name), false) {
					return
				}
				kept = append(kept, strings.TrimSpace(name))
			}
		}
		v.j.add(finding{rule: rules.TamperHooks, cmd: v.display(), detail: ch.Detail,
			subject: v.j.text("keeps only: ", "只保留：") + strings.Join(kept, " ")})
	}
}

// namesGuard reports whether a plugin (name or name@marketplace) or a
// marketplace name is zcode-fence's.
func namesGuard(s string, marketplace bool) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	if marketplace {
		return strings.Contains(s, core.PluginName)
	}
	return s == core.PluginName || strings.HasPrefix(s, core.PluginName+"@")
}

// guardReadOnly are the modes of the guard's binary that judge or report
// and never act as a hook; any other first argument counts as hook mode:
// "hook" is, and binaries before the strict command line (2026-12-03)
// treated every argument they did not know as a hook call.
var guardReadOnly = map[string]bool{
	"--eval": true, "--eval-write": true, "--eval-edit": true, "explain": true, "log": true,
	"version": true, "--version": true, "--help": true, "-h": true, "help": true, "doctor": true,
}

// isGuardBinary reports whether a command name is the guard's executable
// or its launcher (zcode-fence, zcode-fence-linux-amd64).
func isGuardBinary(name string) bool {
	return name == core.PluginName || strings.HasPrefix(name, core.PluginName+"-")
}

// guardRun reports the guard's binary run in hook mode, as a layer
// server, or with guard variables set: directly, or as a script a shell
// runs (sh .../libexec/zcode-fence).
func (v *cmdv) guardRun() {
	args := v.args
	name := v.name
	if cmdfacts.IsShell(name) {
		ops := cmdfacts.ParseCommand("sh", args).Operands
		if len(ops) == 0 || ops[0].Unknown && ops[0].KnownPrefix == "" || cmdfacts.HasShort(args, "c") {
			return
		}
		name = strings.ToLower(baseOf(ops[0].Value))
		for i := range args { // the script's own arguments follow it
			if args[i].Raw == ops[0].Raw && args[i].Value == ops[0].Value {
				args = args[i+1:]
				break
			}
		}
	}
	if !isGuardBinary(name) {
		return
	}
	mode := v.j.text("hook mode", "钩子模式")
	if len(args) > 0 {
		if a := args[0]; !a.Unknown && guardReadOnly[a.Value] {
			mode = ""
		} else {
			mode = shownRaw(a)
		}
	}
	if env := v.guardEnv(); len(env) > 0 {
		if mode == "" {
			mode = args[0].Value
		}
		v.j.add(finding{rule: rules.TamperGuard, cmd: v.display(), detail: mode, subject: strings.Join(env, " ")})
		return
	}
	if mode != "" {
		v.flag(rules.TamperGuard, mode)
	}
}

// guardEnv lists the guard variables (config.GuardEnv) set for command v
// (inheritedAssigns: its own prefixes, those of the commands that run it,
// earlier exports in the same script), each once.
func (v *cmdv) guardEnv() []string {
	var out []string
	seen := map[string]bool{}
	for _, a := range v.inheritedAssigns() {
		if config.GuardEnv(a.Name) && !seen[a.Name] {
			seen[a.Name] = true
			out = append(out, a.Name)
		}
	}
	return out
}

// baseOf is the last element of a path written with / or \.
func baseOf(s string) string {
	s = strings.TrimRight(s, `/\`)
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	for _, ext := range [...]string{".exe", ".cmd", ".bat"} {
		if strings.HasSuffix(strings.ToLower(s), ext) {
			s = s[:len(s)-len(ext)]
		}
	}
	return s
}

// archiveDelete reports an archiver that deletes catastrophic inputs once
// archived (DG-ARCHIVE-DELETE): tar --remove-files ~, zip -m x.zip /etc.
// An input under tar -C DIR is judged as DIR/input.
func (v *cmdv) archiveDelete() {
	inputs, how, ok := cmdfacts.DeletedInputs(v.name, v.args)
	if !ok {
		return
	}
	words := make([]ir.Word, 0, len(inputs))
	for _, in := range inputs {
		w := in.Word
		if len(in.Under) > 0 && !w.Unknown && !strings.HasPrefix(w.Value, "/") {
			dir, known := "", true
			for _, u := range in.Under { // cumulative: -C /a -C b is /a/b
				switch {
				case u.Unknown:
					known = false
				case strings.HasPrefix(u.Value, "/") || dir == "":
					dir = u.Value
				default:
					dir = strings.TrimRight(dir, "/") + "/" + u.Value
				}
			}
			if !known {
				continue
			}
			w = cmdfacts.Literal(strings.TrimRight(dir, "/") + "/" + w.Value)
		}
		words = append(words, w)
	}
	v.report(rules.ArchiveDelete, how, pick(v.targets(words, hitCatastrophic), hitCatastrophic))
}

// text picks the message language's phrase.
func (j *judge) text(en, zh string) string {
	if j.en {
		return en
	}
	return zh
}
