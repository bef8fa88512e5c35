package danger

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell"
)

// maxAliasNesting bounds how deep git shell aliases are followed.
const maxAliasNesting = 2

// ruleGit dispatches git subcommands (read by the one git front-end,
// cmdfacts.ParseGit) to the irreversible-Git rules; a shell alias runs
// its command line as a nested script.
func ruleGit(v *cmdv) {
	g := cmdfacts.ParseGit(v.args, v.c.Assigns)
	sub, rest := g.Sub, g.Args
	if script := g.ShellCommand(); script != "" && v.j.nested < maxAliasNesting {
		v.j.nestedScript(v, script, shell.Bash)
	}
	switch sub {
	case "push":
		ruleGitPush(v, rest)
	case "reset":
		for _, a := range rest {
			if a.Value == "--hard" || a.Value == "--merge" {
				v.gitFinding(rules.GitResetHard, sub, a.Value, gitOperands(rest, nil))
				return
			}
		}
	case "clean":
		ruleGitClean(v, rest)
	case "branch":
		ruleGitBranch(v, rest)
	case "stash":
		if op := firstOperand(rest); op == "drop" || op == "clear" {
			var subject []string // the stash entry: the operands after drop
			if ops := gitOperands(rest, nil); op == "drop" && len(ops) > 0 && strings.EqualFold(ops[0], op) {
				subject = ops[1:]
			}
			v.gitFinding(rules.GitStashDrop, sub, op, subject)
		}
	case "checkout":
		ruleGitCheckout(v, rest)
	case "restore":
		ruleGitRestore(v, rest)
	case "switch":
		for _, a := range rest {
			if a.Value == "--discard-changes" || a.Value == "--force" || a.Value == "-f" {
				v.gitFinding(rules.GitDiscard, sub, a.Value, gitOperands(rest, gitSwitchValued))
				return
			}
		}
	}
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

// Options whose value is the next word, per subcommand, so that
// gitOperands does not take the value for an operand.
var (
	gitPushValued   = map[string]bool{"--repo": true, "--receive-pack": true, "--exec": true, "--push-option": true, "-o": true}
	gitCleanValued  = map[string]bool{"--exclude": true, "-e": true}
	gitSwitchValued = map[string]bool{"-c": true, "-C": true, "--create": true, "--force-create": true, "--orphan": true}
)

// gitOperands is the operands among args (words that are not options,
// every word after --), skipping the values of valued options; an unknown
// word is shown as written ($BRANCH).
func gitOperands(args []shell.Word, valued map[string]bool) []string {
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
func wordText(w shell.Word) string {
	if w.Unknown {
		return w.Raw
	}
	return w.Value
}

// ruleGitPush: pushes that overwrite or delete remote history
// (DG-GIT-FORCE-PUSH): --force/-f, a +refspec, --mirror, --delete/-d, a
// :branch refspec, --prune. --dry-run/-n only reports.
//
// --force-with-lease (and --force-if-includes with it) stays silent on
// purpose: it refuses to overwrite a remote branch that moved since it was
// last fetched, so it cannot destroy work the pusher has not seen; it is
// the safe form the agent should be steered to, not asked about.
func ruleGitPush(v *cmdv, args []shell.Word) {
	detail, dry := "", false
	var refspecs []shell.Word
	operandsSeen := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		s := a.Value
		switch {
		case a.Unknown:
			operandsSeen++
		case s == "--":
			for _, r := range args[i+1:] {
				if operandsSeen++; operandsSeen > 1 {
					refspecs = append(refspecs, r)
				}
			}
			i = len(args)
		case s == "--force" || s == "--mirror" || s == "--delete" || s == "--prune":
			if detail == "" {
				detail = s
			}
		case s == "--dry-run":
			dry = true
		case s == "--repo" || s == "--receive-pack" || s == "--exec" || s == "--push-option":
			i++
		case strings.HasPrefix(s, "--"):
			// --force-with-lease, --set-upstream, --tags, ...: see above.
		case strings.HasPrefix(s, "-") && len(s) > 1:
			for k := 1; k < len(s); k++ {
				c := s[k]
				if c == 'o' { // -o <option>: the rest is its value
					if k == len(s)-1 {
						i++
					}
					break
				}
				if (c == 'f' || c == 'd') && detail == "" {
					detail = "-" + string(c)
				}
				if c == 'n' {
					dry = true
				}
			}
		default:
			if operandsSeen++; operandsSeen > 1 {
				refspecs = append(refspecs, a)
			}
		}
	}
	for _, r := range refspecs {
		if detail != "" {
			break
		}
		if strings.HasPrefix(r.Value, "+") || len(r.Value) > 1 && r.Value[0] == ':' {
			detail = r.Value
		}
	}
	if detail != "" && !dry {
		// A +ref or :ref detail is not repeated in the subject.
		subject := slices.DeleteFunc(gitOperands(args, gitPushValued), func(w string) bool { return w == detail })
		v.gitFinding(rules.GitForcePush, "push", detail, subject)
	}
}

// ruleGitClean: git clean with any -f spelling (-f, -fdx, -ff, --force)
// unless -n/--dry-run (DG-GIT-CLEAN).
func ruleGitClean(v *cmdv, args []shell.Word) {
	force, dry := "", false
	for i := 0; i < len(args); i++ {
		s := args[i].Value
		switch {
		case s == "--":
			i = len(args)
		case s == "--force":
			force = s
		case s == "--dry-run":
			dry = true
		case s == "--exclude":
			i++
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--"):
			for k := 1; k < len(s); k++ {
				if s[k] == 'e' { // -e <pattern>
					if k == len(s)-1 {
						i++
					}
					break
				}
				if s[k] == 'f' {
					force = s
				}
				if s[k] == 'n' {
					dry = true
				}
			}
		}
	}
	if force != "" && !dry {
		v.gitFinding(rules.GitClean, "clean", force, gitOperands(args, gitCleanValued))
	}
}

// ruleGitBranch: git branch -D, or --delete/-d with --force/-f
// (DG-GIT-BRANCH-D).
func ruleGitBranch(v *cmdv, args []shell.Word) {
	del, force := false, false
	for _, a := range args {
		s := a.Value
		if s == "--" {
			break
		}
		switch {
		case s == "--delete":
			del = true
		case s == "--force":
			force = true
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--"):
			if strings.Contains(s, "D") {
				v.gitFinding(rules.GitBranchD, "branch", "-D", gitOperands(args, nil))
				return
			}
			del = del || strings.Contains(s, "d")
			force = force || strings.Contains(s, "f")
		}
	}
	if del && force {
		v.gitFinding(rules.GitBranchD, "branch", "--delete --force", gitOperands(args, nil))
	}
}

// ruleGitCheckout: checkout -- PATH, checkout ., checkout -f/--force,
// checkout --pathspec-from-file (DG-GIT-DISCARD). Switching or creating a
// branch is silent.
func ruleGitCheckout(v *cmdv, args []shell.Word) {
	for i, a := range args {
		s := a.Value
		switch {
		case s == "--":
			if i+1 < len(args) {
				v.gitFlag(rules.GitDiscard, "checkout", "-- "+args[i+1].Value)
			}
			return
		case s == "--force" || strings.HasPrefix(s, "--pathspec-from-file"):
			v.gitFlag(rules.GitDiscard, "checkout", s)
			return
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "f") && !strings.ContainsAny(s, "bB"):
			v.gitFlag(rules.GitDiscard, "checkout", s)
			return
		case s == "." || s == "./" || s == ":/" || s == "*":
			v.gitFlag(rules.GitDiscard, "checkout", s)
			return
		}
	}
}

// ruleGitRestore: git restore that touches the working tree — anything
// but --staged/-S alone (DG-GIT-DISCARD).
func ruleGitRestore(v *cmdv, args []shell.Word) {
	staged, worktree := false, false
	var paths []shell.Word
	for i := 0; i < len(args); i++ {
		s := args[i].Value
		switch {
		case s == "--":
			paths = append(paths, args[i+1:]...)
			i = len(args)
		case s == "--staged":
			staged = true
		case s == "--worktree":
			worktree = true
		case s == "--source" || s == "-s":
			i++
		case strings.HasPrefix(s, "--pathspec-from-file"):
			paths = append(paths, args[i])
		case strings.HasPrefix(s, "--"):
		case strings.HasPrefix(s, "-") && len(s) > 1:
			for k := 1; k < len(s); k++ {
				if s[k] == 's' { // -s <tree>
					if k == len(s)-1 {
						i++
					}
					break
				}
				staged = staged || s[k] == 'S'
				worktree = worktree || s[k] == 'W'
			}
		default:
			paths = append(paths, args[i])
		}
	}
	if len(paths) == 0 || staged && !worktree {
		return
	}
	v.gitFlag(rules.GitDiscard, "restore", paths[0].Value)
}
