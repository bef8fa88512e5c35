package danger

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Deletes of what find lists. One check, listingHits, says what a delete
// of each entry a find lists reaches of the project and its history; it
// is asked wherever the listing reaches the delete: find's own -delete
// and -exec rm (ruleFindRepo), and a delete whose operands are the
// entries fed in (fedFromFind): find | xargs rm, find -print0 | xargs -0
// rm, find | parallel rm, rm $(find ...), find | sh -c 'xargs rm',
// find | xargs sh -c 'rm "$@"' _, find -exec sh -c 'rm "$1"' _ {} \;.
// A loop over a listing (for f in $(find .), find . | while read f) gets
// the listing's bound as its variable's value in the analysis (value
// provenance); a listing with no bound leaves it unknown, which asks
// where an unknown target asks.

// listingHits returns, for find command v (f parsed from it), what
// deleting each entry it lists reaches (recursive: rm -r of each entry;
// otherwise a delete of each, as -delete, rm, shred or unlink do):
//   - a start path that is the project root or holds it, with nothing
//     filtering what is listed (find ., find . -mindepth 1): the whole
//     project with its history (hitProject, DG-PROJECT-DELETE); a delete
//     of each entry under -maxdepth does not reach .git's files;
//   - filtered, a start path that is the project root or holds it whose
//     expression may list the project's .git (recursive) or the files of
//     its history stores (cmdfacts.GitEntries, Find.Lists): find . -type
//     f, find . -mtime +30, find . -name '*', find . ! -path './.git/*'
//     for rm -r (./.git itself is listed) — hitRepo on that .git;
//   - a start path that is a history store itself (find .git -type f),
//     unless a name test picks what goes;
//   - a name or path test that picks .git (or its stores) anywhere below
//     (find /src -name .git, -path '*/.git/*'), for a recursive delete,
//     or for any delete when it is a path test.
//
// Cost: the start paths' targets, and Find.Lists per start path.
func (v *cmdv) listingHits(f cmdfacts.Find, recursive bool) []hit {
	var out []hit
	if !f.Filtered {
		if recursive || !f.MaxDepth {
			// Nothing picks what goes: every entry below the start paths
			// (-delete works bottom-up; rm -r takes each entry whole, and
			// only refuses "." itself).
			out = append(out, repoOnly(v.targets(f.Roots, hitCatastrophic|hitRepo), hitProject)...)
		}
	} else {
		out = append(out, v.listedGit(f, recursive)...)
	}
	if len(f.Names) == 0 {
		// Only the repository: a find from the project root deletes what
		// its tests pick (find . -type d -empty -delete), seldom all of it.
		return append(out, pick(v.targets(f.Roots, hitRepo), hitRepo)...)
	}
	if f.Prune && f.Or {
		return out
	}
	for _, n := range f.Names {
		if n.Negated || n.Pattern.Unknown || !cmdfacts.GitHistoryPath(n.Pattern.Value) {
			continue
		}
		if cmdfacts.FindBaseNameTest(n.Test) && !recursive {
			continue
		}
		return append(out, hit{kind: hitRepo, shown: findRootsText(f) + " " + n.Test + " " + n.Pattern.Value})
	}
	return out
}

// listedGit returns the project's .git, for each start path of f that
// is the project root or holds it (and is not catastrophic: that rule
// names it) whose filtered expression may list the .git directory (a
// recursive delete) or the files of its history stores (a delete of each
// entry).
func (v *cmdv) listedGit(f cmdfacts.Find, recursive bool) []hit {
	var out []hit
	for _, h := range repoOnly(v.targets(f.Roots, hitCatastrophic|hitRepo), hitProject) {
		rel := ""
		if h.label != labelProject {
			rel = strings.ReplaceAll(strings.Trim(v.j.project.Norm[min(len(h.shown), len(v.j.project.Norm)):], `/\`), `\`, "/")
		}
		root := v.rootWritten(f, h.shown)
		for _, e := range cmdfacts.GitEntries(rel, recursive) {
			if listed, ok := f.Lists(root, e); ok && listed {
				out = append(out, hit{kind: hitRepo, shown: v.j.plat.Join(v.j.project, v.j.plat.Clean(".git")).Norm, label: h.label})
				break
			}
		}
	}
	return out
}

// rootWritten returns the start path of f, as written, that resolves to
// the absolute path abs ("." for the working directory): -path tests
// match what find prints, which starts with the start path as given.
func (v *cmdv) rootWritten(f cmdfacts.Find, abs string) string {
	for _, r := range f.Roots {
		if d, ok := v.absDir(r); ok && d == abs {
			return r.Value
		}
	}
	return abs
}

// fedFromFind adds to hs what a delete of the entries fed in as its
// operands ops reaches (listingHits of each find whose listing they are,
// see listingFinds), marked as derived from the input; a target hs names
// already is not added again.
func (v *cmdv) fedFromFind(hs []hit, ops []ir.Word, recursive bool) []hit {
	for _, k := range v.listingFinds(ops) {
		lv := v.j.view(k)
		for _, h := range lv.listingHits(cmdfacts.ParseFind(lv.args), recursive) {
			if slices.ContainsFunc(hs, func(o hit) bool { return o.kind == h.kind && o.shown == h.shown }) {
				continue
			}
			h.fromInput = true
			hs = append(hs, h)
		}
	}
	return hs
}

// listingFinds returns the find commands whose listed entries become
// operands of command v:
//   - an operand stands for fed items (xargs's input, a replace string,
//     $(...)), and a find feeds them: as xargs's or parallel's input, as
//     the $(...), or as the input of a shell or xargs that runs v in turn
//     (find | sh -c 'xargs rm', find | xargs sh -c 'rm "$@"' _), through
//     commands that pass its lines on (cmdfacts.PassesLines: sort, grep
//     -v ...);
//   - v runs through a shell that find -exec runs (find -exec sh -c 'rm
//     "$1"' _ {} \;) and an operand is a start path of that find reached
//     through a parameter. A find -exec running v itself is left to
//     ruleFindRepo, which sees the find's own -exec.
func (v *cmdv) listingFinds(ops []ir.Word) []int {
	var out []int
	fed := false
	for _, w := range ops {
		fed = fed || isInputWord(w) || w.Unknown && strings.Contains(w.Value, "{}") || v.isReplaceWord(w)
	}
	if fed {
		for i := v.i; i >= 0; i = v.j.s.Commands[i].Parent {
			if i != v.i && !v.j.runsItsInput(i) {
				break
			}
			found := v.j.feedingFinds(i, i != v.i)
			out = append(out, found...)
			if len(found) > 0 {
				break
			}
		}
	}
	if k, ok := v.findExecThroughShell(); ok && v.fromFindRoot(k, ops) {
		out = append(out, k)
	}
	return out
}

// runsItsInput reports whether command i hands the items it reads on to
// the commands it runs: a shell running a script (its commands read its
// stdin, its parameters are its arguments), xargs or parallel.
func (j *judge) runsItsInput(i int) bool {
	n := j.view(i).name
	return cmdfacts.IsShell(n) || n == "xargs" || n == "parallel"
}

// feedingFinds returns the finds whose output reaches command i as items:
// through xargs or parallel, a $(...), or (pipe set) a pipe into i; and
// through commands that pass the lines they read on.
func (j *judge) feedingFinds(i int, pipe bool) []int {
	var out []int
	var walk func(i int, pipe bool, depth int)
	walk = func(i int, pipe bool, depth int) {
		for _, k := range j.feeders(i) {
			_, kind := j.feedTarget(k)
			if kind != ir.FeedArgs && kind != ir.FeedSubst && (kind != ir.FeedPipe || !pipe) {
				continue
			}
			lv := j.view(k)
			switch {
			case lv.name == "find":
				out = append(out, k)
			case depth < 8 && cmdfacts.PassesLines(lv.name, lv.args, gitDirName):
				walk(k, true, depth+1)
			}
		}
	}
	walk(i, pipe, 0)
	return out
}

// gitDirName is the repository metadata directory's name, as a filter's
// pattern would mention it.
const gitDirName = ".git"

// findExecThroughShell returns the find whose -exec (-execdir, -ok,
// -okdir) runs a shell (or a chain of shells) that runs command v.
func (v *cmdv) findExecThroughShell() (int, bool) {
	i, shells := v.i, 0
	for {
		c := &v.j.s.Commands[i]
		p := c.Parent
		if p < 0 || p >= i {
			return 0, false
		}
		if n := len(c.Via); n > 0 && strings.HasPrefix(c.Via[n-1].Text, "find -") {
			if pn := v.j.view(p).name; pn == "find" && shells > 0 {
				return p, true
			}
			return 0, false
		}
		if !cmdfacts.IsShell(v.j.view(p).name) {
			return 0, false
		}
		i, shells = p, shells+1
	}
}

// fromFindRoot reports whether an operand of v is one of find k's start
// paths: what -exec's {} stands for, reached through a shell parameter
// ("$1", "$f" of for f; "$@") or written into the script (sh -c 'rm -rf
// {}', which find fills in). A start path the script spells out again is
// read the same way: rm refuses ".", and a script deleting the start path
// it searches is what the -exec would do with {} anyway.
func (v *cmdv) fromFindRoot(k int, ops []ir.Word) bool {
	for _, w := range ops {
		if v.findRootWord(k, w) {
			return true
		}
	}
	return false
}

// findRootWord reports whether w is a start path of find k, in a command
// a shell run by that find's -exec runs (fromFindRoot).
func (v *cmdv) findRootWord(k int, w ir.Word) bool {
	if w.Unknown {
		return false
	}
	for _, r := range cmdfacts.ParseFind(v.j.view(k).args).Roots {
		if !r.Unknown && r.Value == w.Value {
			return true
		}
	}
	return false
}
