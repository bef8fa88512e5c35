package fence

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/protect"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Protected paths (core/protect) are judged on every write target, before
// the roots: a target that is one, or lies inside one, asks whatever the
// roots are; a delete, a move, a mode change or an extraction of a
// directory that holds one asks too. This file also holds the write forms
// that matter only here or for links: the name a copy creates inside its
// destination directory, the file a hard link is made to, the path a
// symlink points to, and the inputs an archiver deletes.

// protectedSet resolves the protected paths for this call, once.
func (j *judge) protectedSet() *protect.Set {
	if j.prot == nil {
		j.prot = protect.Resolve(j.p, j.call.ProjectRoot, j.call.DataDir)
	}
	return j.prot
}

// judgeTarget judges one target x of kind t: protected paths first, then
// the roots as t.mode says. Cost: check, plus two protect.Set lookups for
// an absolute target (a few microseconds).
func (j *judge) judgeTarget(x, base paths.Path, t target) result {
	res := j.check(x, base, t.del)
	if res.abs.IsAbs() {
		if pr, ok := j.protectedResult(res, t, base); ok {
			return pr
		}
	}
	if j.noRoots {
		return result{kind: inside} // nothing but protected paths is fenced
	}
	switch t.mode {
	case modeProtected:
		return result{kind: inside}
	case modeHardLink:
		if res.kind == outside || res.kind == escape {
			res.kind, res.real = linkOutside, ""
		}
	}
	return res
}

// protectedResult reports whether the judged target res reaches a
// protected path: it is one (lexically or after symlinks), it can create
// one below it (placeResult), or, for a delete, a move, a mode change or a
// bulk write inside the roots, it holds one (see below for which).
func (j *judge) protectedResult(res result, t target, base paths.Path) (result, bool) {
	set := j.protectedSet()
	zh := !j.en
	for _, x := range [2]paths.Path{res.abs, res.realp} {
		if h, ok := set.Match(x); ok {
			if h.ExceptsNames(t.onlyNames) {
				return result{}, false
			}
			return result{kind: protectedHit, shown: res.abs.Norm, what: h.Entry.Message(zh), bulk: t.bulk}, true
		}
	}
	if pr, ok := j.placeResult(res, t, base); ok {
		return pr, true
	}
	// A directory holding one: only when nothing else asks about the
	// target (rm -rf ~/.claude with the project at home, not rm -rf /,
	// which the danger gate and the roots are about). The project's own
	// places count for a delete or a move of a directory strictly inside
	// the project (rm -rf .github, mv .github x), not for the project
	// root itself (find . -delete and chmod -R in the project are
	// everyday work; a place there asks when named). A project place
	// counts only when it exists on disk: rm -rf .github asks when it
	// holds Copilot's .github/hooks, not for the workflows dir most
	// projects have; without a real file system (lexical judging) none
	// is known to.
	below := t.verb == verbRemove || t.verb == verbMove || t.verb == verbModify || t.bulk
	if !below || res.kind != inside {
		return result{}, false
	}
	if wide, _ := j.p.IsCatastrophic(res.abs); wide && !t.bulk {
		return result{}, false
	}
	if j.holdsRoot(res.abs) && !t.bulk {
		return result{}, false // find /tmp -name x -delete, rm -rf /tmp/*: a root is for such work
	}
	inProject := false
	if root := j.p.Clean(j.call.ProjectRoot); root.IsAbs() && (t.verb == verbRemove || t.verb == verbMove) {
		inProject = j.p.Contains(root, res.abs) && !j.p.Contains(res.abs, root)
	}
	keep := func(e *protect.Entry) bool { return !projectPlace(e) || inProject }
	beneath := set.Below
	if t.namePrefix != "" {
		beneath = func(x paths.Path, keep func(*protect.Entry) bool) (protect.Hit, bool) {
			return set.BelowPrefixed(x, t.namePrefix, keep)
		}
	}
	for _, x := range [2]paths.Path{res.abs, res.realp} {
		if h, ok := beneath(x, keep); ok && (!projectPlace(h.Entry) || j.exists(j.p.Clean(h.Path))) {
			what := "holds " + h.Path + ": " + h.Entry.Message(false)
			if zh {
				what = "其中有 " + h.Path + "：" + h.Entry.Message(true)
			}
			return result{kind: protectedHit, shown: res.abs.Norm, what: what, bulk: t.bulk}, true
		}
	}
	return result{}, false
}

// projectPlace reports whether e is one of the project repository's and
// host's places (anchored at the project, or found in its repository):
// a copy, sync or extraction into a directory holding one is judged by
// what it brings (placeResult), a delete or move of one only inside the
// project.
func projectPlace(e *protect.Entry) bool {
	switch e.Anchor {
	case protect.Project, protect.GitDir, protect.GitHooks, protect.GitInclude:
		return true
	}
	return false
}

// protectedRule is the rule of a protected target by what the command does
// to it.
func protectedRule(v verb, bulk bool) *rules.Rule {
	switch {
	case v == verbLink:
		return rules.ProtectedLink
	case v == verbRemove || v == verbMove || bulk:
		return rules.ProtectedDelete
	}
	return rules.ProtectedWrite
}

// copiedNames are the paths a copy-like command creates inside its
// destination when that is a directory: dest/basename(source), judged for
// protected paths only (cp settings.json ~/.claude/ writes
// ~/.claude/settings.json). A source whose name is unknown is skipped;
// one ending in "/" or "/." copies its contents: the destination is then
// a bulk target.
func copiedNames(dest ir.Word, sources []ir.Word, v verb) []target {
	if dest.Unknown {
		return nil
	}
	var out []target
	for _, s := range sources {
		if s.Unknown || s.Value == "" || s.Value == "-" {
			continue
		}
		if strings.HasSuffix(s.Value, "/") || strings.HasSuffix(s.Value, "/.") || s.Value == "." {
			out = append(out, target{w: dest, verb: v, mode: modeProtected, bulk: true, from: []ir.Word{s}})
			continue
		}
		name := baseName(s.Value)
		if name == "" || name == "." || name == ".." {
			continue
		}
		sep := "/"
		if strings.Contains(dest.Value, `\`) && !strings.Contains(dest.Value, "/") {
			sep = `\`
		}
		out = append(out, target{w: cmdfacts.Literal(strings.TrimRight(dest.Value, `/\`) + sep + name), verb: v, mode: modeProtected,
			whole: true, from: []ir.Word{s}})
	}
	return out
}

// wholeFrom marks the destination targets of a copy, move or link (the
// first n of ts): each becomes a copy of the sources when it does not
// exist yet (places.go).
func wholeFrom(ts []target, n int, sources []ir.Word) []target {
	for k := 0; k < n && k < len(ts); k++ {
		ts[k].whole, ts[k].from = true, sources
	}
	return ts
}

// linkSources are the files ln, cp -l/-s and link make links to (the
// Sources of the command's link effects): a hard link (ln without -s, cp
// -l, link) is judged like a write (outside the roots asks,
// FN-HARDLINK-OUTSIDE); a symbolic one only for protected paths. A
// relative symlink target is relative to the link's directory, taken
// from the link's word when it names one; with ln -r (Relative) to the
// command's.
func linkSources(c *ir.Command) []target {
	if c.Dialect != ir.Bash {
		return nil
	}
	var out []target
	for _, e := range c.Effects {
		switch {
		case e.Op != ir.EffectLink:
		case !e.Symbolic:
			out = append(out, linkTargets(e.Sources, modeHardLink, nil)...)
		case !e.Relative:
			out = append(out, linkTargets(e.Sources, modeProtected, symlinkDir(e))...)
		default:
			out = append(out, linkTargets(e.Sources, modeProtected, nil)...)
		}
	}
	return out
}

// symlinkDir is the directory ln -s makes its links in, which a relative
// target is read from: the -t directory; the destination when there are
// several sources or it ends in "/"; else the destination's own directory
// when its word names one.
func symlinkDir(e ir.Effect) []ir.Word {
	if len(e.Targets) == 0 {
		return nil
	}
	last := e.Targets[len(e.Targets)-1]
	switch {
	case e.Into:
		return []ir.Word{last}
	case len(e.Sources) > 1 || strings.HasSuffix(last.Value, "/"):
		return []ir.Word{last}
	}
	if i := strings.LastIndexAny(last.Value, `/\`); i > 0 && !last.Unknown {
		return []ir.Word{cmdfacts.Literal(last.Value[:i])}
	}
	return nil
}

func linkTargets(sources []ir.Word, mode targetMode, under []ir.Word) []target {
	out := make([]target, 0, len(sources))
	for _, s := range sources {
		if !s.Unknown && (s.Value == "" || s.Value == "-") {
			continue
		}
		t := target{w: s, verb: verbLink, mode: mode}
		if mode == modeProtected && len(under) > 0 && !s.Unknown && !strings.HasPrefix(s.Value, "/") && !strings.HasPrefix(s.Value, "~") {
			t.under = under
		}
		out = append(out, t)
	}
	return out
}

// archiveInputs are the inputs an archiver deletes once archived (tar
// --remove-files, zip -m, 7z a -sdel, rar m; core/cmdfacts.DeletedInputs).
func archiveInputs(c *ir.Command) []target {
	if len(c.Args) < 2 {
		return nil
	}
	inputs, _, ok := cmdfacts.DeletedInputs(c.Name, c.Args[1:])
	if !ok {
		return nil
	}
	out := make([]target, 0, len(inputs))
	for _, in := range inputs {
		out = append(out, target{w: in.Word, under: in.Under, verb: verbRemove, del: true})
	}
	return out
}

// holdsRoot reports whether x is a writable root or holds one; for a glob
// (/tmp/*), whether the directory it lists is.
func (j *judge) holdsRoot(x paths.Path) bool {
	if i := strings.LastIndexAny(x.Norm, `/\`); i > 0 && strings.ContainsAny(x.Norm[i:], "*?[") {
		x = j.p.Clean(x.Norm[:i])
	}
	return j.anyRoot(func(r paths.Path) bool { return j.p.Contains(x, r) })
}
