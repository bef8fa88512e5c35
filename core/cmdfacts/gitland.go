package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// What a git subcommand brings into the work tree that its command line
// does not show: a checkout or switch of a branch, a merge, rebase or
// pull, a cherry-pick or revert, reset --keep/--merge, read-tree -u, a
// stash being applied or pushed, checkout-index without --prefix. Each
// takes files from a commit (or from the index) that an earlier call can
// have filled with anything — a commit made from a scratch repository, a
// tree built with mktree and commit-tree, a branch fetched from a
// directory next to the project — so the layer that guards the project's
// protected places reads what the revision holds there before the files
// land (plugins/fence). GitLandings only reads the command line.

// GitLandKind says which changes a landing brings.
type GitLandKind uint8

const (
	// LandSwitch: the work tree takes To's tree; the changes are From
	// (HEAD when zero) → To. checkout/switch REV, reset --keep/--merge
	// REV, read-tree -u -m [FROM] TO.
	LandSwitch GitLandKind = iota + 1
	// LandMerge: To's changes since its merge base with HEAD. merge,
	// rebase, pull from a repository on disk.
	LandMerge
	// LandCommit: the changes commit To makes against its first parent
	// (cherry-pick, revert of one commit); From..To for a range.
	LandCommit
	// LandStash: a stash entry's changes (To^1 → To) and the untracked
	// files it saved (To^3). stash pop/apply/branch.
	LandStash
	// LandIndex: the index's entries written onto the work tree
	// (checkout-index -a or named paths, without --prefix).
	LandIndex
	// LandHead: HEAD's entries written back onto the work tree (stash
	// push, which puts the tracked files back as HEAD has them).
	LandHead
)

// GitLanding is one thing a git subcommand brings into the work tree.
type GitLanding struct {
	Kind GitLandKind
	// From and To are the revisions as written (zero when implied: HEAD,
	// stash@{0}, the branch's upstream when To is zero for a merge or a
	// rebase: "@{upstream}").
	From, To ir.Word
	// Repo is the repository a pull or fetch reads (its operand as
	// written); zero for the repository git runs in. GitLandings names
	// only repositories that can be on disk (LocalRepo).
	Repo ir.Word
	// Paths, for LandIndex and LandHead, are the paths (pathspecs) the
	// command is limited to, as written and relative to the directory git
	// runs in; nil: every entry.
	Paths []ir.Word
	// Missing, for LandIndex: only entries the work tree lacks are
	// written (checkout-index without -f).
	Missing bool
}

// GitLandings lists what git subcommand sub (as ParseGit gives it, args
// what follows it) brings into the work tree from history or the index;
// nil for a subcommand that brings nothing that way, or one whose
// command line names the paths it writes (checkout REV -- PATH, restore:
// judged as the writes they are). A revision word that is unknown is
// kept (the caller cannot read it: it may be anything). Cost: one
// ParseGitArgs.
func GitLandings(sub string, args []ir.Word) []GitLanding {
	key, rest := GitSubSub(sub, args)
	if key == "stash" {
		if len(args) > 0 && !strings.HasPrefix(args[0].Value, "-") {
			return nil // a stash subcommand without a table (list, show, drop ...)
		}
		return []GitLanding{{Kind: LandHead}} // git stash, git stash -u ...
	}
	p, ops, ok := parseRevisionArgs(key, rest)
	if !ok {
		return nil
	}
	one := func(k GitLandKind, to ir.Word) []GitLanding { return []GitLanding{{Kind: k, To: to}} }
	switch key {
	case "checkout":
		if p.DashDash >= 0 && p.DashDash < len(p.Operands) || len(ops) > 1 {
			return nil // paths: the discard rules' (checkout REV -- PATH)
		}
		if len(ops) == 1 {
			return one(LandSwitch, ops[0])
		}
	case "switch":
		if o, found := p.Last("detach", "create", "force-create", "orphan"); found && o.Name == "orphan" {
			return nil // an empty tree: nothing comes from history
		}
		if len(ops) > 0 {
			return one(LandSwitch, ops[0])
		}
	case "reset":
		if (p.On("keep") || p.On("merge")) && len(ops) == 1 && p.DashDash < 0 {
			return one(LandSwitch, ops[0])
		}
	case "read-tree":
		if !p.On("u") || len(p.Values("prefix")) > 0 || len(ops) == 0 {
			return nil // the index only, or below a prefix (GitWrites)
		}
		if len(ops) == 1 {
			return one(LandSwitch, ops[0])
		}
		return []GitLanding{{Kind: LandSwitch, From: ops[0], To: ops[len(ops)-1]}}
	case "merge", "rebase":
		if p.On("abort") || p.On("quit") || p.On("continue") || p.On("skip") || p.On("edit-todo") || p.On("show-current-patch") {
			return nil
		}
		if key == "rebase" {
			if v := p.Values("onto"); len(v) > 0 {
				return one(LandMerge, v[len(v)-1])
			}
			if len(ops) > 0 {
				return one(LandMerge, ops[0])
			}
			return one(LandMerge, Literal("@{upstream}"))
		}
		if len(ops) == 0 {
			return one(LandMerge, Literal("@{upstream}"))
		}
		var out []GitLanding
		for _, w := range ops {
			out = append(out, GitLanding{Kind: LandMerge, To: w})
		}
		return out
	case "pull", "fetch":
		if len(ops) == 0 || !LocalRepo(ops[0]) {
			return nil // a remote's content: unseen until it arrives
		}
		l := GitLanding{Kind: LandMerge, Repo: ops[0], To: Literal("HEAD")}
		if len(ops) > 1 {
			src, _, _ := strings.Cut(strings.TrimPrefix(ops[1].Value, "+"), ":")
			l.To = ops[1]
			if !ops[1].Unknown {
				l.To = Literal(src)
			}
		}
		return []GitLanding{l}
	case "cherry-pick", "revert":
		if p.On("abort") || p.On("quit") || p.On("continue") || p.On("skip") {
			return nil
		}
		var out []GitLanding
		for _, w := range ops {
			if a, b, ok := strings.Cut(w.Value, ".."); ok && !w.Unknown {
				out = append(out, GitLanding{Kind: LandCommit, From: Literal(a), To: Literal(strings.TrimPrefix(b, "."))})
				continue
			}
			out = append(out, GitLanding{Kind: LandCommit, To: w})
		}
		return out
	case "stash pop", "stash apply":
		if len(ops) > 0 {
			return one(LandStash, ops[0])
		}
		return one(LandStash, Literal("stash@{0}"))
	case "stash branch":
		if len(ops) > 1 {
			return one(LandStash, ops[1])
		}
		return one(LandStash, Literal("stash@{0}"))
	case "stash push":
		return []GitLanding{{Kind: LandHead, Paths: p.Operands}}
	case "stash save":
		return []GitLanding{{Kind: LandHead}} // its operand is the message
	case "checkout-index":
		if len(p.Values("prefix")) > 0 || p.On("temp") {
			return nil // below a prefix (GitWrites), or to temporary files
		}
		missing := !p.On("force")
		switch {
		case p.On("all") || p.On("stdin"):
			return []GitLanding{{Kind: LandIndex, Missing: missing}}
		case len(p.Operands) > 0:
			return []GitLanding{{Kind: LandIndex, Paths: p.Operands, Missing: missing}}
		}
	}
	return nil
}

// parseRevisionArgs reads a subcommand's arguments (ParseGitArgs) and
// gives the operands before "--", where its revisions are; ok is false
// when git has no table for it or exits before doing anything.
func parseRevisionArgs(sub string, args []ir.Word) (p GitArgs, ops []ir.Word, ok bool) {
	p, ok = ParseGitArgs(sub, args)
	if !ok || p.Exits {
		return p, nil, false
	}
	ops = p.Operands
	if p.DashDash >= 0 {
		ops = ops[:p.DashDash]
	}
	return p, ops, true
}

// LocalRepo reports whether a pull or fetch repository operand names a
// repository on disk rather than a configured remote or a network URL:
// a path with a "/" (../scratch, /tmp/x), "." or "..", a file:// URL. A
// bare name (origin) is a remote's; host:path and scheme://host are the
// network's. An unknown word is not known to be one.
func LocalRepo(w ir.Word) bool {
	v := w.Value
	if w.Unknown || v == "" {
		return false
	}
	if strings.HasPrefix(v, "file://") {
		return true
	}
	if strings.Contains(v, "://") {
		return false
	}
	if v == "." || v == ".." || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "~") {
		return true
	}
	if i := strings.IndexAny(v, ":/"); i >= 0 && v[i] == ':' {
		return false // [user@]host:path, git's scp-like syntax
	}
	return strings.Contains(v, "/")
}

// LocalRepoPath is the file-system path of a LocalRepo operand (file://
// removed).
func LocalRepoPath(w ir.Word) string {
	return strings.TrimPrefix(w.Value, "file://")
}

// GitRefMoves lists the revisions git subcommand sub points HEAD, a
// branch or the index at without writing the work tree: reset [--soft|
// --mixed] REV, read-tree REV without -u, update-ref REF NEWVALUE,
// symbolic-ref HEAD REF, branch -f NAME START. A later command of the
// same call that brings HEAD's, the index's or a branch's files into the
// work tree brings those revisions' (GitLandings sees the repository as
// it is before the call). Cost: one ParseGitArgs.
func GitRefMoves(sub string, args []ir.Word) []ir.Word {
	p, ops, ok := parseRevisionArgs(sub, args)
	if !ok {
		return nil
	}
	switch sub {
	case "reset":
		if !p.On("hard") && !p.On("keep") && !p.On("merge") && len(ops) == 1 {
			return ops
		}
	case "read-tree":
		if !p.On("u") && len(ops) > 0 {
			return ops[len(ops)-1:]
		}
	case "update-ref":
		if !p.On("d") && len(ops) >= 2 {
			return ops[1:2]
		}
	case "symbolic-ref":
		if len(ops) == 2 {
			return ops[1:2]
		}
	case "branch":
		if p.On("force") && len(ops) == 2 {
			return ops[1:2]
		}
	}
	return nil
}

// GitReadArgs is the command line, after "git", that runs the read-only
// plumbing command args (diff-tree, ls-tree, ls-files, cat-file) in dir
// so that what the repository configures cannot run: no pager, pathspecs
// taken literally, fsmonitor and the untracked cache off. The plumbing
// named runs no hook, filter, textconv or diff driver by itself, so a
// repository another user owns is read too (safe.directory, which only
// the user's configuration could otherwise give, and GitReadEnv leaves
// that out: a container's mounted checkout the agent's git is allowed to
// use).
func GitReadArgs(dir string, args ...string) []string {
	return append([]string{"--no-pager", "--literal-pathspecs", "-c", "core.fsmonitor=false",
		"-c", "core.untrackedCache=false", "-c", "safe.directory=*", "-C", dir}, args...)
}

// GitReadEnv is the environment for GitReadArgs, given the caller's:
// every GIT_* variable dropped (the repository is the one in dir, with
// its own configuration only), the user's and the system's
// configuration not read, no prompt, no optional lock, no replace refs.
func GitReadEnv(environ []string, devNull string) []string {
	env := []string{"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_NO_REPLACE_OBJECTS=1",
		"GIT_CONFIG_GLOBAL=" + devNull, "GIT_CONFIG_NOSYSTEM=1"}
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}
