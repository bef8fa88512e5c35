package main

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// finding is one rule hit: the rule and the branch it concerns ("" when
// the branch is the unknown current one).
type finding struct {
	rule   string
	branch string
}

// judge applies the rules for g's subcommand.
func (s settings) judge(g sdk.Git) (finding, bool) {
	switch g.Sub {
	case "push":
		return s.push(g.Args)
	case "reset":
		if hasLong(g.Args, "--hard", 4) {
			return finding{rule: ruleResetHard}, true
		}
	case "branch":
		return s.branch(g.Args)
	case "update-ref":
		return s.updateRef(g.Args, g.Command.Stdin)
	case "checkout":
		return s.forceCreate(g.Args, 'B', "")
	case "switch":
		return s.forceCreate(g.Args, 'C', "--force-create")
	}
	return finding{}, false
}

// longIs reports whether v is the long option full or an abbreviation of
// it at least min characters long ("--del" for "--delete"), as git's
// option parser accepts; a "=value" suffix is ignored.
func longIs(v, full string, min int) bool {
	name, _, _ := strings.Cut(v, "=")
	return len(name) >= min && strings.HasPrefix(full, name)
}

// hasLong reports whether args hold the long option full (or an
// abbreviation of at least min characters) before "--".
func hasLong(args []ir.Word, full string, min int) bool {
	for _, w := range args {
		v, ok := sdk.Literal(w)
		if !ok {
			continue
		}
		if v == "--" {
			return false
		}
		if strings.HasPrefix(v, "--") && longIs(v, full, min) {
			return true
		}
	}
	return false
}

// literalTail returns the part of w's value after its last ":" (all of it
// when there is none) and whether that part is known: either the whole
// word is known, or the part is written literally at the end of the word
// (HEAD~1:main after a $(...) source).
func literalTail(w ir.Word) (string, bool) {
	v := w.Value
	tail := v
	if i := strings.LastIndexByte(v, ':'); i >= 0 {
		tail = v[i+1:]
	}
	if !w.Unknown {
		return tail, true
	}
	if tail == "" || strings.ContainsAny(tail, "$`{}()\"'\\") {
		return tail, false
	}
	return tail, strings.HasSuffix(strings.TrimRight(w.Raw, `"'`), tail)
}

// branchOf names the branch a destination ref updates: "refs/heads/x" and
// "x" give x; HEAD and @ give current; other refs/ (tags, notes, remotes)
// are not branches.
func branchOf(ref string) (name string, current, isBranch bool) {
	switch {
	case ref == "HEAD" || ref == "@":
		return "", true, true
	case strings.HasPrefix(ref, "refs/heads/"):
		return strings.TrimPrefix(ref, "refs/heads/"), false, true
	case strings.HasPrefix(ref, "refs/"):
		return "", false, false
	}
	return ref, false, true
}

// pushArgs is what matters of a git push command line.
type pushArgs struct {
	force, del, mirror, all, prune, dryRun bool
	refspecs                               []ir.Word
}

// parsePush splits push's arguments into flags, the repository and the
// refspecs. Options that take a separate value (--repo, -o, ...) skip it.
// An unknown word is an operand unless its known part starts with "-".
func parsePush(args []ir.Word) pushArgs {
	var p pushArgs
	var operands []ir.Word
	for k := 0; k < len(args); k++ {
		w := args[k]
		v, known := sdk.Literal(w)
		switch {
		case !known:
			if !strings.HasPrefix(w.KnownPrefix, "-") {
				operands = append(operands, w)
			}
		case v == "--":
			operands = append(operands, args[k+1:]...)
			k = len(args)
		case strings.HasPrefix(v, "--"):
			_, _, hasValue := strings.Cut(v, "=")
			switch {
			case v == "--force", longIs(v, "--force-with-lease", 9):
				p.force = true
			case longIs(v, "--delete", 4):
				p.del = true
			case longIs(v, "--mirror", 4):
				p.mirror = true
			case longIs(v, "--all", 4), longIs(v, "--branches", 4):
				p.all = true
			case longIs(v, "--prune", 5):
				p.prune = true
			case longIs(v, "--dry-run", 4):
				p.dryRun = true
			case !hasValue && (v == "--repo" || v == "--receive-pack" || v == "--exec" || v == "--push-option"):
				k++
			}
		case len(v) > 1 && v[0] == '-':
			for i, ch := range v[1:] {
				if ch == 'o' { // -o VALUE, or -oVALUE
					if i == len(v)-2 {
						k++
					}
					break
				}
				p.force = p.force || ch == 'f'
				p.del = p.del || ch == 'd'
				p.dryRun = p.dryRun || ch == 'n'
			}
		default:
			operands = append(operands, w)
		}
	}
	if len(operands) > 1 {
		p.refspecs = operands[1:]
	}
	return p
}

// push: a refspec (or with --delete a ref) naming a protected branch asks;
// so do --mirror, --all/--branches, --prune, and a forced push whose
// destination is not written out (no refspec, HEAD, $VAR), since the
// current branch may be protected. A dry run never asks.
func (s settings) push(args []ir.Word) (finding, bool) {
	p := parsePush(args)
	if p.dryRun {
		return finding{}, false
	}
	if p.mirror {
		return finding{rule: rulePushMirror}, true
	}
	var best finding
	unnamed := len(p.refspecs) == 0 // the destination is not written out
	for _, w := range p.refspecs {
		tail, known := literalTail(w)
		if !known {
			unnamed = true
			continue
		}
		tail = strings.TrimPrefix(tail, "+") // +main: the whole refspec was the tail
		plus := strings.HasPrefix(w.Value, "+")
		deletes := p.del || strings.HasPrefix(strings.TrimPrefix(w.Value, "+"), ":")
		if p.del {
			tail = strings.TrimPrefix(w.Value, "+")
		}
		name, current, isBranch := branchOf(tail)
		switch {
		case !isBranch:
			continue
		case current:
			unnamed = true
			continue
		}
		f := finding{branch: name}
		switch {
		case strings.Contains(name, "*"):
			if !s.overlaps(name) {
				continue
			}
			f.rule, f.branch = rulePushPattern, tail
		case !s.protected(name):
			continue
		case deletes:
			f.rule = rulePushDelete
		case p.force || plus:
			f.rule = ruleForcePushProtected
		default:
			f.rule = rulePushProtected
		}
		if best.rule == "" || rank[f.rule] > rank[best.rule] {
			best = f
		}
	}
	switch {
	case best.rule != "":
		return best, true
	case p.prune:
		return finding{rule: rulePushPrune}, true
	case p.all:
		return finding{rule: rulePushAll}, true
	case p.force && unnamed && !p.del:
		return finding{rule: rulePushForceUnnamed}, true
	case s.anyPush:
		return finding{rule: rulePushAny}, true
	}
	return finding{}, false
}

// rank orders the push findings of one command: the worst one is reported.
var rank = map[string]int{
	rulePushProtected:      1,
	rulePushPattern:        2,
	ruleForcePushProtected: 3,
	rulePushDelete:         4,
}

// branchArgs is what matters of a git branch command line.
type branchArgs struct {
	del, force, move, moveForce, copy, copyForce, remotes bool
	operands                                              []string
}

// branchValued are git branch's options whose value is the next argument
// when not written --opt=value.
var branchValued = map[string]bool{
	"--set-upstream-to": true, "--contains": true, "--no-contains": true, "--merged": true,
	"--no-merged": true, "--points-at": true, "--sort": true, "--format": true,
}

func parseBranch(args []ir.Word) branchArgs {
	var b branchArgs
	for k := 0; k < len(args); k++ {
		v, known := sdk.Literal(args[k])
		switch {
		case !known:
			// An unknown branch name cannot be judged.
		case v == "--":
			for _, w := range args[k+1:] {
				if name, ok := sdk.Literal(w); ok {
					b.operands = append(b.operands, name)
				}
			}
			k = len(args)
		case strings.HasPrefix(v, "--"):
			switch {
			case v == "--delete":
				b.del = true
			case v == "--force":
				b.force = true
			case v == "--move":
				b.move = true
			case v == "--copy":
				b.copy = true
			case v == "--remotes":
				b.remotes = true
			case branchValued[v]:
				k++
			}
		case len(v) > 1 && v[0] == '-':
			for i, ch := range v[1:] {
				if ch == 'u' { // -u UPSTREAM, or -uUPSTREAM
					if i == len(v)-2 {
						k++
					}
					break
				}
				switch ch {
				case 'd':
					b.del = true
				case 'D':
					b.del, b.force = true, true
				case 'f':
					b.force = true
				case 'm':
					b.move = true
				case 'M':
					b.move, b.moveForce = true, true
				case 'c':
					b.copy = true
				case 'C':
					b.copy, b.copyForce = true, true
				case 'r':
					b.remotes = true
				}
			}
		default:
			b.operands = append(b.operands, v)
		}
	}
	return b
}

// branch: deleting a protected branch, renaming one away, force-renaming or
// force-copying another branch onto one, or moving one with -f asks.
// "git branch -M main" (rename the current branch to main, as in GitHub's
// new-repository instructions) stays silent. Remote-tracking refs (-r) are
// not branches of the repository and stay silent.
func (s settings) branch(args []ir.Word) (finding, bool) {
	b := parseBranch(args)
	if b.remotes || len(b.operands) == 0 {
		return finding{}, false
	}
	switch {
	case b.del:
		for _, name := range b.operands {
			if s.protected(name) {
				return finding{rule: ruleBranchDelete, branch: name}, true
			}
		}
	case b.move || b.copy:
		if len(b.operands) >= 2 {
			old, dst := b.operands[0], b.operands[1]
			if b.move && s.protected(old) {
				return finding{rule: ruleBranchRename, branch: old}, true
			}
			if (b.moveForce || b.copyForce) && s.protected(dst) {
				return finding{rule: ruleBranchForce, branch: dst}, true
			}
		} else if b.copyForce && s.protected(b.operands[0]) {
			return finding{rule: ruleBranchForce, branch: b.operands[0]}, true
		}
	case b.force:
		if s.protected(b.operands[0]) {
			return finding{rule: ruleBranchForce, branch: b.operands[0]}, true
		}
	}
	return finding{}, false
}

// updateRef: git update-ref [-d] REF ... on refs/heads/<protected> (or on
// HEAD, which moves the current branch) asks; with --stdin, the heredoc or
// here-string fed to it is read ("update"/"create"/"delete" REF lines).
// Input from a pipe or a file cannot be seen and stays silent.
func (s settings) updateRef(args []ir.Word, stdin string) (finding, bool) {
	del, noDeref, fromStdin := false, false, false
	var refs []string
	for k := 0; k < len(args); k++ {
		v, known := sdk.Literal(args[k])
		switch {
		case !known:
			if len(refs) == 0 {
				refs = append(refs, "") // the ref is unknown: nothing to judge
			}
		case v == "-m":
			k++
		case v == "-d":
			del = true
		case v == "--no-deref":
			noDeref = true
		case v == "--stdin":
			fromStdin = true
		case strings.HasPrefix(v, "-"):
		default:
			refs = append(refs, v)
		}
	}
	if fromStdin {
		for _, line := range strings.Split(stdin, "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && (f[0] == "update" || f[0] == "create" || f[0] == "delete") {
				if hit, ok := s.refHit(f[1], f[0] == "delete", noDeref); ok {
					return hit, true
				}
			}
		}
		return finding{}, false
	}
	if len(refs) == 0 {
		return finding{}, false
	}
	return s.refHit(refs[0], del, noDeref)
}

// refHit judges one full ref name given to update-ref.
func (s settings) refHit(ref string, del, noDeref bool) (finding, bool) {
	rule := ruleUpdateRef
	if del {
		rule = ruleUpdateRefDelete
	}
	if ref == "HEAD" && !noDeref && !del {
		return finding{rule: rule}, true
	}
	name, ok := strings.CutPrefix(ref, "refs/heads/")
	if ok && s.protected(name) {
		return finding{rule: rule, branch: name}, true
	}
	return finding{}, false
}

// forceCreate: checkout -B NAME / switch -C NAME (--force-create NAME)
// resets NAME to the start point; a protected NAME asks.
func (s settings) forceCreate(args []ir.Word, short rune, long string) (finding, bool) {
	for k := 0; k < len(args); k++ {
		v, known := sdk.Literal(args[k])
		if !known {
			continue
		}
		if v == "--" {
			break
		}
		name := ""
		switch {
		case long != "" && v == long:
			if k+1 < len(args) {
				name = args[k+1].Value
			}
		case long != "" && strings.HasPrefix(v, long+"="):
			name = strings.TrimPrefix(v, long+"=")
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			i := strings.IndexRune(v, short)
			if i < 0 {
				continue
			}
			name = v[i+1:]
			if name == "" && k+1 < len(args) {
				name = args[k+1].Value
			}
		default:
			continue
		}
		if s.protected(name) {
			return finding{rule: ruleCheckoutReset, branch: name}, true
		}
	}
	return finding{}, false
}
