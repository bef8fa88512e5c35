package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// gitRules are the rules of this file and the command names they judge.
var gitRules = []judging{
	on(ruleGit, cmdfacts.GitFrontEnds()...),
	on(ruleGit, cmdfacts.GitDashedNames()...),
}

// maxAliasNesting bounds how deep git shell aliases are followed.
const maxAliasNesting = 2

// ruleGit dispatches git subcommands (read by the one git front-end,
// cmdfacts.ParseGit) to the irreversible-Git rules; a shell alias runs
// its command line as a nested script.
func ruleGit(v *cmdv) {
	g := cmdfacts.ParseGit(v.args, v.inheritedAssigns()) // GIT_CONFIG_* exported earlier count
	if sub, dashed := strings.CutPrefix(v.name, "git-"); dashed {
		g = cmdfacts.Git{Sub: sub, Args: v.args} // git-push: no global options
	}
	sub, rest := g.Sub, g.Args
	if script := g.ShellCommand(); script != "" && v.j.nested < maxAliasNesting {
		v.j.nestedScript(v, script, ir.Bash)
	}
	ruleGitSettings(v, g)
	ruleGitCode(v, g)
	switch sub {
	case "push":
		ruleGitPushOpts(v, rest)
	case "reset":
		ruleGitResetOpts(v, rest)
	case "clean":
		ruleGitCleanOpts(v, rest)
	case "branch":
		ruleGitBranchOpts(v, rest)
	case "stash":
		if op := firstOperand(rest); op == "drop" || op == "clear" {
			var subject []string // the stash entry: the operands after drop
			if ops := gitOperands(rest, nil); op == "drop" && len(ops) > 0 && strings.EqualFold(ops[0], op) {
				subject = ops[1:]
			}
			v.gitFinding(rules.GitStashDrop, sub, op, subject)
		}
	case "checkout":
		ruleGitCheckoutOpts(v, rest)
	case "restore":
		ruleGitRestoreOpts(v, rest)
	case "switch":
		ruleGitSwitchOpts(v, rest)
	case "rm":
		ruleGitRm(v, rest)
	case "worktree", "submodule":
		ruleGitForced(v, sub, rest)
	case "reflog":
		ruleGitReflog(v, rest)
	case "gc":
		ruleGitGc(v, rest)
	case "prune":
		ruleGitPruneCmd(v, rest)
	case "update-ref":
		ruleGitUpdateRef(v, rest)
	case "config":
		ruleGitConfig(v, rest)
	case "tag":
		ruleGitTag(v, rest)
	case "filter-branch", "filter-repo":
		ruleGitFilter(v, sub, rest)
	case "read-tree":
		ruleGitReadTree(v, rest)
	case "checkout-index":
		ruleGitCheckoutIndex(v, rest)
	case "undo":
		if hasWord(rest, "--hard", "-h") {
			v.gitFlag(rules.GitResetHard, sub, "--hard")
		}
	default:
		ruleGitExtra(v, sub, rest)
	}
}

// gitExtraRules maps the effect of an add-on git subcommand
// (cmdfacts.GitExtraEffects) to its rule.
var gitExtraRules = map[cmdfacts.TailEffect]*rules.Rule{
	cmdfacts.TailRemoteRef: rules.GitForcePush,
	cmdfacts.TailDiscard:   rules.GitDiscard,
	cmdfacts.TailRewrite:   rules.GitRewrite,
}

// ruleGitExtra: git-extras' and legit's subcommands that delete a remote
// ref, discard changes or rewrite history (not their help).
func ruleGitExtra(v *cmdv, sub string, rest []ir.Word) {
	rule := gitExtraRules[cmdfacts.GitExtraEffects[sub]]
	if rule == nil || hasWord(rest, "-h", "--help") {
		return
	}
	v.gitFinding(rule, sub, "", gitOperands(rest, nil))
}

// gitFlag reports a git finding as "git SUB" with the option that matters.
func (v *cmdv) gitFlag(rule *rules.Rule, sub, detail string) {
	v.gitFinding(rule, sub, detail, nil)
}

// gitFinding is gitFlag naming also what the command acts on (subject:
// the remote and refspecs, the commit, the branches), when it is known.
func (v *cmdv) gitFinding(rule *rules.Rule, sub, detail string, subject []string) {
	v.j.add(finding{rule: rule, cmd: "git " + sub, detail: detail, subject: strings.Join(subject, " ")})
}

// gitOperands is the operands among args (words that are not options,
// every word after --), skipping the values of valued options; an unknown
// word is shown as written ($BRANCH).
func gitOperands(args []ir.Word, valued map[string]bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Value == "--" && !a.Unknown:
			for _, r := range args[i+1:] {
				out = append(out, wordText(r))
			}
			i = len(args)
		case a.Unknown:
			out = append(out, wordText(a))
		case strings.HasPrefix(a.Value, "-") && len(a.Value) > 1:
			if valued[a.Value] {
				i++
			}
		default:
			out = append(out, a.Value)
		}
	}
	return out
}

// wordText is a word as a message shows it: its value, or as written
// when its value is unknown.
func wordText(w ir.Word) string {
	if w.Unknown {
		return w.Raw
	}
	return w.Value
}
