package danger

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// The irreversible-Git rules read a subcommand's options the way git does
// (cmdfacts.ParseGitArgs): abbreviated long options, bundled short ones,
// --no- negations, the last setting winning, and the forms that make git
// exit before it does anything (-h, --help, --force=true).

// written is how a message names an option: the long option as written,
// or "-" and its letter for a short one.
func written(o cmdfacts.GitOpt) string {
	if o.Short != 0 {
		return "-" + string(o.Short)
	}
	if i := strings.IndexByte(o.Arg, '='); i >= 0 {
		return o.Arg[:i]
	}
	return o.Arg
}

// operandTexts shows operands as messages do.
func operandTexts(ws []ir.Word) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, wordText(w))
	}
	return out
}

// ruleGitPushOpts: pushes that overwrite or delete remote history
// (DG-GIT-FORCE-PUSH): --force/-f, --mirror, --delete/-d, --prune (each as
// git reads it, abbreviated or bundled, unless negated later), a +refspec
// or a :branch refspec. --dry-run/-n only reports.
//
// --force-with-lease (and --force-if-includes with it) stays silent on
// purpose: it refuses to overwrite a remote branch that moved since it was
// last fetched, so it cannot destroy work the pusher has not seen; it is
// the safe form the agent should be steered to, not asked about.
func ruleGitPushOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("push", args)
	if p.Exits || p.On("dry-run") {
		return
	}
	detail := ""
	for _, name := range []string{"force", "mirror", "delete", "prune"} {
		if o, found := p.Last(name); found && !o.Neg && detail == "" {
			if o.Short != 0 || o.Arg == "--"+name {
				detail = written(o)
			} else {
				detail = o.Arg
			}
		}
	}
	var refspecs []ir.Word
	if len(p.Operands) > 1 {
		refspecs = p.Operands[1:]
	}
	for _, r := range refspecs {
		if detail != "" {
			break
		}
		if strings.HasPrefix(r.Value, "+") || len(r.Value) > 1 && r.Value[0] == ':' {
			detail = r.Value
		}
	}
	if detail == "" {
		return
	}
	subject := slices.DeleteFunc(operandTexts(p.Operands), func(w string) bool { return w == detail })
	v.gitFinding(rules.GitForcePush, "push", detail, subject)
}

// ruleGitResetOpts: reset whose last mode is --hard or --merge
// (DG-GIT-RESET-HARD); --no-hard cancels it.
func ruleGitResetOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("reset", args)
	if p.Exits {
		return
	}
	var mode *cmdfacts.GitOpt
	for i, o := range p.Opts {
		switch o.Name {
		case "mixed", "soft", "hard", "merge", "keep":
			if o.Neg {
				mode = nil
			} else {
				mode = &p.Opts[i]
			}
		}
	}
	if mode == nil || mode.Name != "hard" && mode.Name != "merge" {
		return
	}
	v.gitFinding(rules.GitResetHard, "reset", mode.Arg, operandTexts(p.Operands))
}

// ruleGitCleanOpts: clean with -f (counted, --no-force resets it) and no
// -n (DG-GIT-CLEAN); the detail is the word that gave the last -f.
func ruleGitCleanOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("clean", args)
	if p.Exits || p.Count("force") == 0 || p.On("dry-run") {
		return
	}
	o, _ := p.Last("force")
	v.gitFinding(rules.GitClean, "clean", o.Arg, operandTexts(p.Operands))
}

// ruleGitBranchOpts: branch -D, or delete and force together
// (DG-GIT-BRANCH-D).
func ruleGitBranchOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("branch", args)
	if p.Exits {
		return
	}
	subject := operandTexts(p.Operands)
	if p.On("D") {
		v.gitFinding(rules.GitBranchD, "branch", "-D", subject)
		return
	}
	if p.On("delete") && p.On("force") {
		v.gitFinding(rules.GitBranchD, "branch", "--delete --force", subject)
	}
}

// ruleGitCheckoutOpts: checkout that overwrites files in the working tree
// (DG-GIT-DISCARD): -f/--force, --pathspec-from-file, -p/--patch (with or
// without paths: like restore --patch, it discards the hunks its prompt
// is answered yes to, and an agent answers it from piped input or not at
// all), paths after --, a tree-ish followed by paths, or a single operand
// that is a path (".", ":/", a glob, ./x, a/b.go). Creating or switching
// a branch is silent.
func ruleGitCheckoutOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("checkout", args)
	if p.Exits {
		return
	}
	if o, found := p.Last("force"); found && !o.Neg {
		detail := o.Arg
		if o.Short == 0 {
			detail = written(o)
		}
		v.gitFlag(rules.GitDiscard, "checkout", detail)
		return
	}
	if o, found := p.Last("pathspec-from-file"); found {
		v.gitFlag(rules.GitDiscard, "checkout", o.Arg)
		return
	}
	if o, found := p.Last("patch"); found && !o.Neg {
		detail := written(o)
		if len(p.Operands) > 0 {
			detail += " " + strings.Join(operandTexts(p.Operands), " ")
		}
		v.gitFlag(rules.GitDiscard, "checkout", detail)
		return
	}
	if p.DashDash >= 0 && p.DashDash < len(p.Operands) {
		v.gitFlag(rules.GitDiscard, "checkout", "-- "+wordText(p.Operands[p.DashDash]))
		return
	}
	if p.DashDash >= 0 {
		return // checkout BRANCH --: a branch
	}
	creates := false
	for _, n := range []string{"b", "B", "orphan", "detach"} {
		if _, found := p.Last(n); found {
			creates = true
		}
	}
	ops := p.Operands
	switch {
	case creates || len(ops) == 0:
	case len(ops) >= 2:
		v.gitFlag(rules.GitDiscard, "checkout", wordText(ops[0])+" "+wordText(ops[1]))
	case looksLikePath(ops[0]):
		v.gitFlag(rules.GitDiscard, "checkout", wordText(ops[0]))
	}
}

// pathExt is a file name's extension: a dot and 1 to 8 letters or
// digits, at least one a letter.
var pathExt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\.[A-Za-z0-9]{0,7}[A-Za-z][A-Za-z0-9]{0,7}$`)
})

// looksLikePath reports an operand of checkout that can only be a path:
// ".", "./x", "../x", an absolute path, a :/ or :(...) pathspec, a glob,
// or a name with a file extension (src/main.go); never a revision
// (HEAD~1, main@{2}, v1.2.3).
func looksLikePath(w ir.Word) bool {
	s := w.Value
	if w.Unknown || strings.ContainsAny(s, "~^@") {
		return false
	}
	switch {
	case s == "." || s == "./" || s == ".." || s == "*":
		return true
	case strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") ||
		strings.HasPrefix(s, ":/") || strings.HasPrefix(s, ":("):
		return true
	case strings.ContainsAny(s, "*?["):
		return true
	}
	base := s[strings.LastIndexByte(s, '/')+1:]
	return strings.Count(base, ".") == 1 && !strings.HasPrefix(base, ".") && pathExt().MatchString(base)
}

// ruleGitRestoreOpts: restore that writes the working tree
// (DG-GIT-DISCARD). As git decides: naming --staged or --worktree (either
// sense) switches the other off unless it is named too; neither named
// means the working tree only; no path makes git refuse, except with
// -p/--patch, which then goes through the whole working tree.
func ruleGitRestoreOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("restore", args)
	if p.Exits {
		return
	}
	_, stagedNamed := p.Last("staged")
	_, worktreeNamed := p.Last("worktree")
	worktree := !stagedNamed && !worktreeNamed || p.On("worktree")
	paths := p.Operands
	if o, found := p.Last("pathspec-from-file"); found && o.Value != nil {
		paths = append(paths, cmdfacts.Literal(written(o)))
	}
	if !worktree {
		return
	}
	if len(paths) == 0 {
		if o, found := p.Last("patch"); found && !o.Neg {
			v.gitFlag(rules.GitDiscard, "restore", written(o))
		}
		return
	}
	v.gitFlag(rules.GitDiscard, "restore", wordText(paths[0]))
}

// ruleGitSwitchOpts: switch --discard-changes / -f / --force
// (DG-GIT-DISCARD).
func ruleGitSwitchOpts(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("switch", args)
	if p.Exits {
		return
	}
	for _, n := range []string{"discard-changes", "force"} {
		if o, found := p.Last(n); found && !o.Neg {
			v.gitFinding(rules.GitDiscard, "switch", written(o), operandTexts(p.Operands))
			return
		}
	}
}

// ruleGitRm: rm -f without --cached (DG-GIT-DISCARD): the files go from
// the working tree with their uncommitted changes.
func ruleGitRm(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("rm", args)
	if p.Exits || !p.On("force") || p.On("cached") || p.On("dry-run") || len(p.Operands) == 0 && !p.On("pathspec-from-file") {
		return
	}
	o, _ := p.Last("force")
	v.gitFinding(rules.GitDiscard, "rm", written(o), operandTexts(p.Operands))
}

// ruleGitReflog: reflog expire / reflog delete, not as a dry run
// (DG-GIT-PRUNE).
func ruleGitReflog(v *cmdv, args []ir.Word) {
	key, rest := cmdfacts.GitSubSub("reflog", args)
	if key != "reflog expire" && key != "reflog delete" {
		return
	}
	p, _ := cmdfacts.ParseGitArgs(key, rest)
	if p.Exits || p.On("dry-run") {
		return
	}
	detail := strings.TrimPrefix(key, "reflog ")
	if o, found := p.Last("expire"); found && o.Value != nil {
		detail += " " + written(o) + "=" + wordText(*o.Value)
	} else if p.On("all") {
		detail += " --all"
	}
	v.gitFinding(rules.GitPrune, "reflog", detail, operandTexts(p.Operands))
}

// pruneNow matches the expiry dates that leave recent unreachable objects
// no grace: now, all, 0, or seconds, minutes or hours ago.
var pruneNow = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(now|all|0|\d+[. ](seconds?|minutes?|hours?)[. ]ago)$`)
})

// ruleGitGc: gc --prune=now (or all, or minutes ago) (DG-GIT-PRUNE);
// plain gc keeps two weeks of unreachable objects.
func ruleGitGc(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("gc", args)
	if p.Exits {
		return
	}
	o, found := p.Last("prune")
	if !found || o.Neg || o.Value == nil || !pruneNow().MatchString(strings.ToLower(o.Value.Value)) {
		return
	}
	v.gitFinding(rules.GitPrune, "gc", written(o)+"="+o.Value.Value, nil)
}

// ruleGitPruneCmd: git prune, which drops every unreachable loose object
// unless --expire gives a grace (DG-GIT-PRUNE); -n only reports.
func ruleGitPruneCmd(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("prune", args)
	if p.Exits || p.On("dry-run") {
		return
	}
	detail := ""
	if o, found := p.Last("expire"); found && o.Value != nil {
		if !pruneNow().MatchString(strings.ToLower(o.Value.Value)) {
			return
		}
		detail = written(o) + "=" + o.Value.Value
	}
	v.gitFinding(rules.GitPrune, "prune", detail, nil)
}

// ruleGitUpdateRef: update-ref -d REF, or --stdin with a delete line in
// its known input (DG-GIT-PRUNE).
func ruleGitUpdateRef(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("update-ref", args)
	if p.Exits {
		return
	}
	if p.On("d") {
		v.gitFinding(rules.GitPrune, "update-ref", "-d", operandTexts(p.Operands))
		return
	}
	if p.On("stdin") {
		for _, l := range strings.Split(v.c.Stdin, "\n") {
			if f := strings.Fields(l); len(f) > 1 && f[0] == "delete" {
				v.gitFinding(rules.GitPrune, "update-ref", "--stdin delete", f[1:2])
				return
			}
		}
	}
}
