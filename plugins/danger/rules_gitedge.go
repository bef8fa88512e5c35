package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// The irreversible-Git forms beyond the everyday subcommands of
// rules_gitopts.go: deleting the repository's history from the file
// system, rewriting all of history, deleting tags, and the plumbing and
// submodule commands that overwrite the working tree. Each rule's doc in
// core/rules says which neighbouring forms stay silent and why.

// ruleFindRepo: find whose -delete, or -exec of rm, unlink or shred,
// deletes what it lists, judged by listingHits (DG-PROJECT-DELETE,
// DG-GIT-REPO-DELETE): the project from its root with nothing filtering
// (find . -delete, find . -exec rm -rf {} +), the project's .git where the
// expression may list it (find . -type f -delete, find . -name '*' -exec
// rm -rf {} +), a start path that is .git, a name or path test that picks
// .git. Name-picked finds (find . -name '*.pyc' -delete), -empty, and
// expressions with -prune and -o (which keep find out of .git) stay
// silent, as does -delete with -name .git (find cannot remove a
// non-empty directory). The same check judges a delete fed the listing
// (fedFromFind).
func ruleFindRepo(v *cmdv, f cmdfacts.Find) {
	deletes, recursive := f.Delete, false
	for _, e := range f.Execs {
		if len(e.Argv) == 0 {
			continue
		}
		run := e.Argv[1:]
		switch ir.CommandName(e.Argv[0].Value) {
		case "rm":
			deletes = true
			recursive = recursive || cmdfacts.HasShort(run, "rR") || cmdfacts.HasLong(run, "--recursive")
		case "unlink", "shred":
			deletes = true
		}
	}
	if !deletes {
		return
	}
	hs := v.listingHits(f, recursive)
	v.report(rules.ProjectDelete, "", pick(hs, hitProject))
	v.report(rules.GitRepoDelete, "", pick(hs, hitRepo))
}

// ruleGitTag: tag -d/--delete (DG-GIT-TAG-DELETE), with names or fed
// them by xargs.
func ruleGitTag(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("tag", args)
	if p.Exits || !p.On("delete") || p.On("list") || len(p.Operands) == 0 && !v.viaArgs() {
		return
	}
	o, _ := p.Last("delete")
	v.gitFinding(rules.GitTagDelete, "tag", written(o), operandTexts(p.Operands))
}

// ruleGitFilter: filter-branch and filter-repo (DG-GIT-REWRITE), unless
// they only report (filter-repo --analyze, --dry-run) or print help.
func ruleGitFilter(v *cmdv, sub string, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs(sub, args)
	if p.Exits || p.On("analyze") || p.On("dry-run") {
		return
	}
	detail := ""
	if o, found := p.Last("force"); found && !o.Neg {
		detail = written(o)
	}
	v.gitFinding(rules.GitRewrite, sub, detail, nil)
}

// ruleGitReadTree: read-tree --reset -u (DG-GIT-DISCARD): the index and
// the working tree are overwritten with the tree, local changes
// discarded. -m -u refuses to overwrite them; without -u only the index
// changes.
func ruleGitReadTree(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("read-tree", args)
	if p.Exits || !p.On("reset") || !p.On("u") || p.On("dry-run") {
		return
	}
	v.gitFinding(rules.GitDiscard, "read-tree", "--reset -u", operandTexts(p.Operands))
}

// ruleGitCheckoutIndex: checkout-index -f of the index's files into the
// working tree (DG-GIT-DISCARD): with -f it overwrites modified files.
// Without -f it skips existing files; --prefix and --temp write copies
// elsewhere.
func ruleGitCheckoutIndex(v *cmdv, args []ir.Word) {
	p, _ := cmdfacts.ParseGitArgs("checkout-index", args)
	if p.Exits || !p.On("force") || p.On("temp") || p.On("no-create") {
		return
	}
	if _, prefixed := p.Last("prefix"); prefixed {
		return
	}
	if !p.On("all") && !p.On("stdin") && len(p.Operands) == 0 {
		return
	}
	o, _ := p.Last("force")
	v.gitFinding(rules.GitDiscard, "checkout-index", written(o), operandTexts(p.Operands))
}

// ruleGitForced: the subcommands of worktree and submodule that throw
// away a working tree's local changes when forced (DG-GIT-DISCARD):
// worktree remove --force (the worktree goes with its changes), submodule
// deinit -f (the submodule's working tree goes), submodule update --force
// (checks out over local changes; not with --merge or --rebase, which
// keep them). submodule foreach needs nothing here: the walker runs its
// command as a script.
func ruleGitForced(v *cmdv, sub string, args []ir.Word) {
	key, rest := cmdfacts.GitSubSub(sub, args)
	switch key {
	case "worktree remove", "submodule deinit", "submodule update":
	default:
		return
	}
	p, _ := cmdfacts.ParseGitArgs(key, rest)
	if p.Exits || p.Count("force") == 0 || p.On("merge") || p.On("rebase") {
		return
	}
	o, _ := p.Last("force")
	v.gitFinding(rules.GitDiscard, key, written(o), operandTexts(p.Operands))
}

// ruleGitSettings: the settings given for the call (-c, --config-env,
// GIT_CONFIG_*) that make an everyday form irreversible:
// clean.requireForce=false makes clean without -f delete (DG-GIT-CLEAN),
// a "+" remote.NAME.push refspec or remote.NAME.mirror=true makes a push
// without refspecs force or mirror (DG-GIT-FORCE-PUSH), gc.pruneExpire=now
// makes a plain gc prune every unreachable object (DG-GIT-PRUNE). A form
// the option rules already ask about is not reported twice. Settings a
// `git config` earlier in the same command line wrote count too (git
// config clean.requireForce false && git clean -d): files are read
// first, the call's own settings win.
func ruleGitSettings(v *cmdv, g cmdfacts.Git) {
	switch g.Sub {
	case "clean", "push", "gc": // the subcommands a setting makes destructive
	default:
		return
	}
	g.Config = append(v.scriptGitConfig(), g.Config...)
	p, ok := cmdfacts.ParseGitArgs(g.Sub, g.Args)
	if !ok || p.Exits || p.On("dry-run") {
		return
	}
	switch g.Sub {
	case "clean":
		s, set := g.Setting("clean.requireforce")
		if set && !s.Unknown && cmdfacts.GitFalse(s.Value) && p.Count("force") == 0 && !p.On("interactive") {
			v.gitFinding(rules.GitClean, "clean", "[clean.requireForce="+s.Value+"]", operandTexts(p.Operands))
		}
	case "push":
		if p.On("force") || p.On("mirror") || p.On("delete") || len(p.Operands) > 1 {
			return
		}
		if forced := g.ForcedPushSettings(); len(forced) > 0 {
			v.gitFinding(rules.GitForcePush, "push", "["+forced[0]+"]", operandTexts(p.Operands))
		}
	case "gc":
		if _, given := p.Last("prune"); given {
			return // --prune=DATE or --no-prune wins over the setting
		}
		s, set := g.Setting("gc.pruneexpire")
		if set && !s.Unknown && pruneNow().MatchString(strings.ToLower(s.Value)) {
			v.gitFinding(rules.GitPrune, "gc", "[gc.pruneExpire="+s.Value+"]", nil)
		}
	}
}

// findRootsText shows find's start paths as written, for a message.
func findRootsText(f cmdfacts.Find) string {
	return strings.Join(operandTexts(f.Roots), " ")
}

// reportRepo reports a delete's repository hits (DG-GIT-REPO-DELETE) and
// project hits (DG-PROJECT-DELETE), leaving out what a catastrophic hit
// already names.
func (v *cmdv) reportRepo(detail string, hs []hit) {
	v.report(rules.GitRepoDelete, detail, repoOnly(hs, hitRepo))
	v.report(rules.ProjectDelete, detail, repoOnly(hs, hitProject))
}

// repoOnly picks the hits of kind whose target is not also catastrophic:
// the catastrophic rule already names it (rm -rf ~/.* is about home).
func repoOnly(hs []hit, kind hitKind) []hit {
	var out []hit
	for _, h := range pick(hs, kind) {
		dup := false
		for _, c := range pick(hs, hitCatastrophic) {
			dup = dup || c.shown == h.shown
		}
		if !dup {
			out = append(out, h)
		}
	}
	return out
}

// listedRepoHits are the repository histories a recursive Remove-Item
// (or rm -r under xargs) is piped from a listing: Get-ChildItem .git
// lists its stores, Get-ChildItem -Recurse -Filter .git (or -Include
// .git) lists every .git below.
func (v *cmdv) listedRepoHits() []hit {
	var out []hit
	v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
		if kind != ir.FeedPipe {
			return true
		}
		out = append(out, v.j.listedHits(k, hitRepo, "")...)
		lv := v.j.view(k)
		if lv.name != "get-childitem" {
			return true
		}
		pc := winshell.ParsePowerShellCommand(lv.c.Args)
		for _, w := range append(append([]ir.Word(nil), pc.Named["filter"]...), pc.Named["include"]...) {
			if !w.Unknown && cmdfacts.GitHistoryPath(w.Value) {
				out = append(out, hit{kind: hitRepo, shown: "Get-ChildItem " + w.Value})
			}
		}
		return true
	})
	return out
}

// scriptGitConfig is what the `git config` commands before this one in
// the command line write (an unset clears the setting), in order.
func (v *cmdv) scriptGitConfig() []cmdfacts.GitConfig {
	var out []cmdfacts.GitConfig
	for k := 0; k < v.i; k++ {
		g, ok := cmdfacts.GitCommand(&v.j.s.Commands[k])
		if !ok || g.Sub != "config" {
			continue
		}
		w, ok := cmdfacts.ParseGitConfigWrite(g.Args)
		if !ok {
			continue
		}
		c := cmdfacts.GitConfig{Name: w.Name, Value: w.Value.Value, Unknown: w.Value.Unknown}
		if w.Unset {
			c.Value, c.Unknown = "", true // no longer set: read as unknown, never as a value
		}
		out = append(out, c)
	}
	return out
}
