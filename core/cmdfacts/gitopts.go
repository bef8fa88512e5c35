package cmdfacts

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// How git's subcommands read their options (parse-options.c): long
// options may be abbreviated to any unique prefix (--har is --hard) and
// negated with --no- (also abbreviated); short options bundle (-qf) and a
// short option that takes a value takes the rest of its cluster or the
// next word; options and operands may be mixed; "--" (and
// --end-of-options) ends the options; -h, --help and --help-all print
// the usage and exit, as does a value given to an option that takes none
// (--force=true). The tables list every option of the subcommands the
// rules judge, as of git 2.50.

// gitOptSpecs are the option tables: "x,long" (short letter and long
// name, either may be missing), "=" a required value, "=?" an optional
// one (attached only), "!" not negatable.
var gitOptSpecs = map[string]string{
	"push": "v,verbose q,quiet repo= all branches mirror d,delete tags n,dry-run porcelain f,force " +
		"force-with-lease=? force-if-includes recurse-submodules= thin receive-pack= exec= u,set-upstream " +
		"progress prune no-verify follow-tags signed=? atomic o,push-option= 4,ipv4 6,ipv6",
	"reset": "q,quiet no-refresh refresh mixed soft hard merge keep recurse-submodules=? p,patch " +
		"N,intent-to-add pathspec-from-file= pathspec-file-nul U,unified= inter-hunk-context=",
	"clean": "q,quiet n,dry-run f,force i,interactive d e,exclude=! x X",
	"branch": "v,verbose q,quiet t,track=? u,set-upstream-to= unset-upstream color=? r,remotes " +
		"contains=? no-contains=? merged=? no-merged=? column=? a,all d,delete D m,move M c,copy C " +
		"l,list show-current create-reflog edit-description f,force sort= points-at= i,ignore-case " +
		"omit-empty format= recurse-submodules abbrev=?",
	"checkout": "q,quiet recurse-submodules=? progress m,merge conflict= d,detach t,track=? f,force " +
		"orphan= overwrite-ignore ignore-other-worktrees 2,ours 3,theirs p,patch " +
		"ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul b= B= l guess overlay " +
		"U,unified= inter-hunk-context= auto-advance",
	"switch": "c,create= C,force-create= guess discard-changes d,detach t,track=? orphan= f,force " +
		"m,merge conflict= q,quiet progress recurse-submodules=? overwrite-ignore ignore-other-worktrees",
	"restore": "s,source= S,staged W,worktree ignore-unmerged overlay q,quiet recurse-submodules=? " +
		"progress m,merge conflict= 2,ours 3,theirs p,patch ignore-skip-worktree-bits " +
		"pathspec-from-file= pathspec-file-nul U,unified= inter-hunk-context= auto-advance",
	"rm":              "n,dry-run q,quiet cached f,force r ignore-unmatch sparse pathspec-from-file= pathspec-file-nul",
	"gc":              "q,quiet prune=? aggressive keep-largest-pack auto force cruft max-cruft-size= expire-to= detach",
	"prune":           "n,dry-run v,verbose progress expire=",
	"update-ref":      "m= d no-deref z stdin create-reflog batch-updates",
	"worktree remove": "f,force",
	"reflog expire": "n,dry-run rewrite updateref stale-fix verbose expire=? expire-unreachable=? all " +
		"single-worktree",
	"reflog delete": "n,dry-run rewrite updateref verbose",
	"tag": "a,annotate s,sign u,local-user= f,force d,delete v,verify l,list n=? sort= contains=? " +
		"no-contains=? merged=? no-merged=? points-at=? m,message= F,file= e,edit cleanup= create-reflog " +
		"column=? format= color=? i,ignore-case trailer= omit-empty",
	"read-tree": "m reset u i trivial aggressive prefix= index-output= v n,dry-run q,quiet empty " +
		"recurse-submodules=? sparse-checkout exclude-per-directory=",
	"checkout-index": "u,index q,quiet f,force a,all n,no-create prefix= stage= temp ignore-skip-worktree-bits z stdin",
	// The subcommands that bring files from history into the work tree
	// (GitLandings): every option that takes a value is listed, so that a
	// value is never read as the revision.
	"merge": "commit e,edit cleanup= ff ff-only S,gpg-sign=? log=? n stat summary compact-summary squash " +
		"verify s,strategy= X,strategy-option= F,file= into-name= m= verify-signatures q,quiet v,verbose " +
		"progress autostash allow-unrelated-histories rerere-autoupdate signoff overwrite-ignore abort quit continue",
	"rebase": "onto= keep-base root i,interactive x,exec= s,strategy= X,strategy-option= S,gpg-sign=? " +
		"C= whitespace= empty= r,rebase-merges=? m,merge apply q,quiet v,verbose stat n autosquash " +
		"autostash fork-point ignore-whitespace ignore-date committer-date-is-author-date reset-author-date " +
		"signoff f,force-rebase ff reapply-cherry-picks allow-empty-message k,keep-empty update-refs verify " +
		"rerere-autoupdate reschedule-failed-exec continue abort quit skip edit-todo show-current-patch",
	"pull": "q,quiet v,verbose progress recurse-submodules=? r,rebase=? commit e,edit cleanup= ff ff-only " +
		"S,gpg-sign=? log=? n stat summary compact-summary squash verify s,strategy= X,strategy-option= " +
		"verify-signatures autostash allow-unrelated-histories signoff all a,append atomic depth= deepen= " +
		"shallow-since= shallow-exclude= unshallow update-shallow upload-pack= f,force k,keep p,prune " +
		"t,tags j,jobs= o,server-option= 4,ipv4 6,ipv6 negotiation-tip= refmap= dry-run set-upstream",
	"fetch": "q,quiet v,verbose progress all a,append atomic depth= deepen= shallow-since= shallow-exclude= " +
		"unshallow update-shallow upload-pack= f,force k,keep multiple p,prune P,prune-tags t,tags n " +
		"j,jobs= o,server-option= 4,ipv4 6,ipv6 negotiation-tip= negotiate-only refmap= recurse-submodules=? " +
		"submodule-prefix= recurse-submodules-default= filter= dry-run porcelain write-fetch-head " +
		"u,update-head-ok set-upstream stdin refetch show-forced-updates auto-maintenance auto-gc " +
		"write-commit-graph",
	"cherry-pick": "e,edit cleanup= n,no-commit x r s,signoff m,mainline= S,gpg-sign=? strategy= " +
		"X,strategy-option= ff allow-empty allow-empty-message keep-redundant-commits empty= " +
		"rerere-autoupdate continue skip quit abort",
	"revert": "e,edit cleanup= n,no-commit s,signoff m,mainline= S,gpg-sign=? strategy= X,strategy-option= " +
		"reference rerere-autoupdate continue skip quit abort",
	"stash push":   "p,patch S,staged k,keep-index u,include-untracked a,all q,quiet m,message= pathspec-from-file= pathspec-file-nul",
	"stash save":   "p,patch S,staged k,keep-index u,include-untracked a,all q,quiet",
	"stash pop":    "index q,quiet",
	"stash apply":  "index q,quiet",
	"stash branch": "",
	"symbolic-ref": "m= q,quiet d,delete short recurse",
	// The subcommands that write a place their arguments name (GitWrites):
	// every option that takes a value is listed (so that a value is never
	// read as the output), the others only where a bundle could hide one.
	"format-patch": "o,output-directory= output= stdout start-number= v,reroll-count= subject-prefix= " +
		"in-reply-to= to= cc= from=? add-header= signature= signature-file= suffix= base= interdiff= " +
		"range-diff= creation-factor= filename-max-length= thread=? attach=? inline=? rfc=? " +
		"cover-from-description= description-file= n,numbered N,no-numbered k,keep-subject s,signoff " +
		"q,quiet cover-letter p,no-stat",
	"diff": "output=", "log": "output=", "show": "output=", "whatchanged": "output=", "diff-tree": "output=",
	"diff-index": "output=", "diff-files": "output=", "range-diff": "output=",
	"bugreport":        "o,output-directory= s,suffix= diagnose=?",
	"diagnose":         "o,output-directory= s,suffix= mode=",
	"fast-export":      "export-marks=! import-marks=! import-marks-if-exists=!",
	"fast-import":      "export-marks=! import-marks=! import-marks-if-exists=!",
	"index-pack":       "o=!",
	"bundle create":    "q,quiet progress all-progress all-progress-implied version=",
	"merge-file":       "p,stdout q,quiet L= ours theirs union diff3 zdiff3 marker-size= diff-algorithm= object-id",
	"worktree move":    "f,force",
	"submodule add":    "b,branch= f,force name= reference= ref-format= depth= q,quiet",
	"submodule deinit": "f,force all q,quiet",
	"submodule update": "init remote N,no-fetch f,force checkout merge rebase recommend-shallow reference= recursive j,jobs= depth= single-branch filter= q,quiet progress dissociate require-init",
	// filter-branch is a shell script: no abbreviations, no --no- forms;
	// listed for its valued options and -f.
	"filter-branch": "setup=! subdirectory-filter=! env-filter=! tree-filter=! index-filter=! parent-filter=! " +
		"msg-filter=! commit-filter=! tag-name-filter=! prune-empty! original=! d=! f,force! state-branch=!",
	// filter-repo (a separate Python program run as git filter-repo):
	// --analyze and --dry-run leave the repository as it is.
	"filter-repo": "analyze! dry-run! f,force! invert-paths! path=! path-glob=! path-regex=! path-rename=! " +
		"paths-from-file=! replace-text=! replace-message=! refs=! source=! target=! subdirectory-filter=! " +
		"to-subdirectory-filter=! strip-blobs-bigger-than=! strip-blobs-with-ids=! mailmap=! use-mailmap! " +
		"replace-refs=! partial! sensitive-data-removal! no-fetch! state-branch=! quiet! debug!",
}

// gitOpt is one option of a gitTable. It holds no pointer (its long name
// is a span of the table's spec), so the tables, resident once built,
// cost the garbage collector nothing to scan.
type gitOpt struct {
	short    byte
	arg      byte // 0 none, '=' required, '?' optional
	negation bool // may be negated with --no-
	at, n    uint16
}

// gitTable is one subcommand's options, parsed from its gitOptSpecs
// entry.
type gitTable struct {
	spec string
	opts []gitOpt
}

// long returns o's long name ("" for a letter alone).
func (t gitTable) long(o gitOpt) string { return t.spec[o.at : o.at+o.n] }

// gitOptTables are the parsed gitOptSpecs, built on first use (a call
// without git does not pay for it).
var gitOptTables = sync.OnceValue(func() map[string]gitTable {
	tables := make(map[string]gitTable, len(gitOptSpecs))
	for sub, spec := range gitOptSpecs {
		fields := strings.Fields(spec)
		opts := make([]gitOpt, 0, len(fields))
		at := 0
		for _, f := range fields {
			at += strings.Index(spec[at:], f)
			end := at + len(f)
			o := gitOpt{negation: true}
			if strings.HasSuffix(f, "!") {
				o.negation = false
				f = f[:len(f)-1]
			}
			switch {
			case strings.HasSuffix(f, "=?"):
				o.arg, f = '?', f[:len(f)-2]
			case strings.HasSuffix(f, "="):
				o.arg, f = '=', f[:len(f)-1]
			}
			name := at
			if len(f) >= 2 && f[1] == ',' {
				o.short, f, name = f[0], f[2:], at+2
			} else if len(f) == 1 {
				o.short, f = f[0], ""
			}
			if end > math.MaxUint16 {
				panic("cmdfacts: git option spec of " + sub + " too long to index")
			}
			o.at, o.n = uint16(name), uint16(len(f))
			at = end
			opts = append(opts, o)
		}
		tables[sub] = gitTable{spec: spec, opts: opts}
	}
	return tables
})

// GitOpt is one option git read: its long name (or its letter when it
// has none), its value, and whether it was negated (--no-force).
type GitOpt struct {
	Name  string
	Value *ir.Word
	Neg   bool
	// Arg is the word the option was written in ("-fdx", "--forc").
	Arg string
	// Short is the letter when it was given as a short option, else 0.
	Short byte
}

// GitArgs is a subcommand's arguments read the way git reads them.
type GitArgs struct {
	// Opts are the options in order; an ambiguous abbreviation (--forc of
	// push, which git refuses) stands for every option it may mean.
	Opts []GitOpt
	// Operands are the other words, those after "--" included.
	Operands []ir.Word
	// DashDash is the number of operands before "--", or -1 when there is
	// none.
	DashDash int
	// Exits is set when git stops before doing anything: -h, --help,
	// --help-all, --version, a value given to an option that takes none,
	// or a missing value.
	Exits bool
}

// ParseGitArgs reads the arguments of git subcommand sub ("push",
// "reset", ...; "worktree remove" and "reflog expire" for the
// subcommands' own subcommands) with its option table. ok is false when
// git has no table for sub. Unknown options are kept as written and do
// not stop the parse (a newer git may have them). Cost: linear in the
// words times the table.
func ParseGitArgs(sub string, args []ir.Word) (GitArgs, bool) {
	table, ok := gitOptTables()[sub]
	if !ok {
		return GitArgs{DashDash: -1}, false
	}
	out := GitArgs{DashDash: -1}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-") || len(v) < 2 || v[0] != '-' || out.DashDash >= 0 {
			out.Operands = append(out.Operands, a)
			continue
		}
		if v == "--" || v == "--end-of-options" {
			out.DashDash = len(out.Operands)
			continue
		}
		switch v {
		case "-h", "--help", "--help-all", "--version":
			out.Exits = true
			return out, true
		}
		if strings.HasPrefix(v, "--") {
			name, val, eq := strings.Cut(v[2:], "=")
			matches, neg := longMatches(table, name)
			if len(matches) == 0 {
				out.Opts = append(out.Opts, GitOpt{Name: name, Arg: v})
				continue
			}
			for _, o := range matches {
				opt := GitOpt{Name: table.long(o), Neg: neg, Arg: v}
				switch {
				case neg && eq:
					out.Exits = true // --no-x=value
				case o.arg == 0 && eq:
					out.Exits = true // takes no value
				case eq:
					w := SubWord(a, len(v)-len(val))
					opt.Value = &w
				case o.arg == '=' && !neg:
					if i+1 >= len(args) {
						out.Exits = true
						break
					}
					opt.Value = &args[i+1]
				}
				out.Opts = append(out.Opts, opt)
			}
			if !eq && !neg && len(matches) > 0 && matches[0].arg == '=' {
				i++
			}
			if out.Exits {
				return out, true
			}
			continue
		}
		for k := 1; k < len(v); k++ {
			c := v[k]
			o, found := shortOpt(table, c)
			if !found {
				out.Opts = append(out.Opts, GitOpt{Name: string(c), Arg: v, Short: c})
				continue
			}
			name := table.long(o)
			if name == "" {
				name = string(c)
			}
			opt := GitOpt{Name: name, Arg: v, Short: c}
			if o.arg != 0 {
				if k+1 < len(v) {
					w := SubWord(a, k+1)
					opt.Value = &w
				} else if o.arg == '=' {
					if i+1 >= len(args) {
						out.Exits = true
						return out, true
					}
					i++
					opt.Value = &args[i]
				}
				out.Opts = append(out.Opts, opt)
				break
			}
			out.Opts = append(out.Opts, opt)
		}
	}
	return out, true
}

// longMatches finds the options a long name (without dashes) stands for:
// an exact name, else every option it abbreviates; "no-X" negates.
func longMatches(table gitTable, name string) ([]gitOpt, bool) {
	find := func(n string, negated bool) []gitOpt {
		var exact, prefix []gitOpt
		for _, o := range table.opts {
			long := table.long(o)
			if long == "" || negated && !o.negation {
				continue
			}
			switch {
			case long == n:
				exact = append(exact, o)
			case strings.HasPrefix(long, n):
				prefix = append(prefix, o)
			}
		}
		if len(exact) > 0 {
			return exact
		}
		return prefix
	}
	if m := find(name, false); len(m) > 0 {
		return m, false
	}
	if rest, ok := strings.CutPrefix(name, "no-"); ok && rest != "" {
		return find(rest, true), true
	}
	return nil, false
}

func shortOpt(table gitTable, c byte) (gitOpt, bool) {
	for _, o := range table.opts {
		if o.short == c {
			return o, true
		}
	}
	return gitOpt{}, false
}

// Last returns the last setting of any of the named options: its value
// and whether it was negated; found is false when none was given.
func (g GitArgs) Last(names ...string) (opt GitOpt, found bool) {
	for _, o := range g.Opts {
		for _, n := range names {
			if o.Name == n {
				opt, found = o, true
			}
		}
	}
	return opt, found
}

// Values returns the values given to the named option, in order (a
// negated setting, --no-onto, clears the earlier ones).
func (g GitArgs) Values(name string) []ir.Word {
	var out []ir.Word
	for _, o := range g.Opts {
		switch {
		case o.Name != name:
		case o.Neg:
			out = nil
		case o.Value != nil:
			out = append(out, *o.Value)
		}
	}
	return out
}

// On reports whether a flag is on after the last of its settings (a
// counted flag like -f counts up; --no-force resets it).
func (g GitArgs) On(names ...string) bool {
	o, found := g.Last(names...)
	return found && !o.Neg
}

// Count is how many times a counted flag (git clean -ff) is on after the
// last --no- form.
func (g GitArgs) Count(name string) int {
	n := 0
	for _, o := range g.Opts {
		if o.Name != name {
			continue
		}
		if o.Neg {
			n = 0
		} else {
			n++
		}
	}
	return n
}

// GitSubSub splits a subcommand with subcommands of its own (worktree
// remove, reflog expire, stash drop) from its arguments: the key for
// ParseGitArgs and the rest.
func GitSubSub(sub string, args []ir.Word) (string, []ir.Word) {
	switch sub {
	case "worktree", "reflog", "stash", "submodule", "remote", "notes", "bisect", "bundle":
	default:
		return sub, args
	}
	for i, a := range args {
		if a.Unknown {
			return sub, args
		}
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		return sub + " " + a.Value, args[i+1:]
	}
	return sub, nil
}

// GitDashedNames are the dashed program names (git-push, git-filter-repo)
// of the subcommands that have an option table: git installs them as
// programs of their own in its exec path, and git-filter-repo is usually
// installed only so. Sorted.
func GitDashedNames() []string {
	var out []string
	for sub := range gitOptSpecs {
		if !strings.Contains(sub, " ") {
			out = append(out, "git-"+sub)
		}
	}
	slices.Sort(out)
	return out
}
