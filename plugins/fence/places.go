package fence

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/archivelist"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/protect"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// Protected places (issue 27): a place is protected as a whole, so what
// can make something come to exist at one counts as a write there, even
// when the command names only a directory above it: a copy or sync of a
// tree that holds the place's name (cp -r stage/. ., rsync -a stage/ ./),
// a move or link of such a tree (mv stage/.github .github), an extraction
// whose archive holds it (tar -xf x.tar at the project root), a patch that
// names it (git apply, patch). What lands there is read from the file
// system, bounded: the source tree (one Lstat, or a walk of at most
// maxWalk entries for a .git at any depth), the archive's member list
// (core/archivelist), the patch text. A source that does not exist yet is
// judged by whether an earlier command of the same call makes it (then
// what it holds is unknown, and the call asks); one that nothing makes
// stays silent, since the command will fail. An archive or patch on stdin
// is unknown when packed from local files on the way (tar -c | tar -x: a
// copy); any other stdin archive, and one downloaded in the same call
// (curl -LO URL && tar xzf t.tgz), holds members that cannot be seen
// before they land, so such an extraction is judged by its directory and
// the members it names (extracting a release in the project is everyday
// work; what the agent staged on disk is what it can plant unseen).

// maxWalk bounds the entries a source-tree walk looks at.
const maxWalk = 4096

// maxPatch bounds the patch text read from a file.
const maxPatch = 1 << 20

// placeResult reports whether target t, which is no protected path itself
// (res, judged against base), can create, replace or remove a protected
// place below it (see above).
func (j *judge) placeResult(res result, t target, base paths.Path) (result, bool) {
	if !t.whole && !t.bulk && !t.sync || res.kind != inside {
		return result{}, false // outside the roots, the roots ask already
	}
	set := j.protectedSet()
	zh := !j.en
	for k, x := range [2]paths.Path{res.abs, res.realp} {
		if !x.IsAbs() || k == 1 && x.Norm == res.abs.Norm {
			continue
		}
		for _, pl := range set.Under(x) {
			if !projectPlace(pl.Entry) {
				continue // the other places: a bulk write into a directory holding one (protectedResult)
			}
			if first, _, _ := strings.Cut(pl.Rel, "/"); t.namePrefix != "" && !protect.NameBegins(j.p, first, t.namePrefix) {
				continue
			}
			if !j.mayCreate(t, base, x, pl) {
				continue
			}
			what := "can create or replace " + pl.Path + ": " + pl.Entry.Message(false)
			if zh {
				what = "可能创建或替换 " + pl.Path + "：" + pl.Entry.Message(true)
			}
			return result{kind: protectedHit, shown: res.abs.Norm, what: what, bulk: true, place: true}, true
		}
	}
	return result{}, false
}

// mayCreate reports whether t, writing into x, can make place pl exist
// there: a sync always can (it also removes what its sources lack); an
// extraction by its archive's members; a copy, move or link by what its
// sources hold; an extraction or patch whose input is not known can. A
// place named at any depth (a nested .git) counts only on evidence: a
// source on disk that holds one, an archive member, an earlier write into
// one; content that cannot be seen (a remote rsync source, a pipe) is
// judged for the fixed places only.
func (j *judge) mayCreate(t target, base, x paths.Path, pl protect.Place) bool {
	switch {
	case t.sync:
		return !pl.Named || len(t.from) > 0 && j.anySourceHolds(t.from, base, pl)
	case t.extract && t.stdin:
		return !pl.Named && j.fedByPacker()
	case t.stdin:
		return !pl.Named
	case t.archive != nil:
		return j.archiveCreates(*t.archive, t.strip, base, pl)
	case len(t.from) == 0:
		return t.bulk && !pl.Named // members unknown
	}
	if !t.bulk && j.isDir(x) {
		return false // the copy lands below x by its own name: judged as that target
	}
	return j.anySourceHolds(t.from, base, pl)
}

// anySourceHolds is sourceHolds over several sources.
func (j *judge) anySourceHolds(from []ir.Word, base paths.Path, pl protect.Place) bool {
	for _, w := range from {
		if j.sourceHolds(w, base, pl) {
			return true
		}
	}
	return false
}

// isDir reports whether x exists as a directory: the project root (or a
// directory holding it) always does; without a real file system nothing
// else is known to.
func (j *judge) isDir(x paths.Path) bool {
	if root := j.p.Clean(j.call.ProjectRoot); root.IsAbs() && j.p.Contains(x, root) {
		return true
	}
	if j.p.EvalSymlinks == nil {
		return false
	}
	j.steps.Spend(steps.FS(x.Norm))
	fi, err := os.Stat(x.Norm)
	return err == nil && fi.IsDir()
}

// sourcePath resolves a source word against base: "" when it cannot be
// known.
func (j *judge) sourcePath(w ir.Word, base paths.Path) (paths.Path, bool) {
	d := ir.Bash
	if j.cur >= 0 && j.cur < len(j.call.Script.Commands) {
		d = j.call.Script.Commands[j.cur].Dialect
	}
	rs := j.resolve(w, base, d)
	if len(rs) == 0 || rs[0].shown != "" {
		return paths.Path{}, false // a pipe, or a word with unknown parts
	}
	x := j.p.Join(base, rs[0].p)
	return x, x.IsAbs()
}

// sourceHolds reports whether the source tree w (a copy's, move's or
// link's) holds place pl's name: src/REL exists, or, for a .git at any
// depth, a walk of src finds one. Unknown words and sources an earlier
// command makes hold anything; missing ones nothing.
func (j *judge) sourceHolds(w ir.Word, base paths.Path, pl protect.Place) bool {
	src, ok := j.sourcePath(w, base)
	if !ok {
		return !pl.Named
	}
	if !j.exists(src) {
		return j.createdBefore(src, pl)
	}
	if pl.Named {
		return j.walkFinds(src, pl.Rel)
	}
	return j.exists(j.p.Join(src, j.p.Clean(pl.Rel)))
}

// exists reports whether x exists (Lstat; false without a real file
// system).
func (j *judge) exists(x paths.Path) bool {
	if j.p.EvalSymlinks == nil || !x.IsAbs() {
		return false
	}
	j.steps.Spend(steps.FS(x.Norm))
	_, err := os.Lstat(x.Norm)
	return err == nil
}

// walkFinds reports whether the tree at root holds an entry named name
// (root itself included), looking at most maxWalk entries; a tree too big
// to look through counts as holding it.
func (j *judge) walkFinds(root paths.Path, name string) bool {
	n := 0
	found := false
	err := filepath.WalkDir(root.Norm, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		n++
		if n > maxWalk || !j.steps.Spend(1) {
			found = true
			return filepath.SkipAll
		}
		if d.Name() == name || j.p.OS != "linux" && strings.EqualFold(d.Name(), name) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found || err != nil
}

// archiveCreates reports whether extracting the archive w (tar with
// --strip-components strip) can create place pl: a member at or below the
// place's name (any member with a .git component, for a .git at any
// depth). An archive it cannot list (a format it does not read, over the
// caps, damaged) can; one missing is judged like a missing source, except
// that one a fetcher downloads in the same call (curl -LO URL && tar xzf
// go.tar.gz) holds a remote party's members, which nothing on disk shows:
// the extraction is judged by its directory and the members it names.
func (j *judge) archiveCreates(w ir.Word, strip int, base paths.Path, pl protect.Place) bool {
	path, ok := j.sourcePath(w, base)
	if !ok {
		return !pl.Named
	}
	if !j.exists(path) {
		// Downloaded in the same call: a remote party's members, unseen;
		// judged by the directory and the members named (memberTargets).
		return j.maker(path, pl, fetched) >= 0
	}
	j.steps.Spend(steps.FS(path.Norm))
	members, ok := archivelist.Members(path.Norm, archivelist.DefaultLimits)
	if !ok {
		return !pl.Named
	}
	j.steps.Spend(len(members) / steps.PathChunk)
	for _, m := range members {
		m = cmdfacts.StripDiffPath(strings.TrimLeft(strings.TrimPrefix(strings.ReplaceAll(m, `\`, "/"), "./"), "/"), strip)
		if m == "" {
			continue
		}
		if j.memberCreates(strings.TrimSuffix(m, "/"), pl) {
			return true
		}
	}
	return false
}

// memberCreates reports whether a path relative to the extraction (or
// patch) directory is place pl or lies in it.
func (j *judge) memberCreates(m string, pl protect.Place) bool {
	eq := func(a, b string) bool { return a == b || j.p.OS != "linux" && strings.EqualFold(a, b) }
	if pl.Named {
		for _, c := range strings.Split(m, "/") {
			if eq(c, pl.Rel) {
				return true
			}
		}
		return false
	}
	if eq(m, pl.Rel) {
		return true
	}
	return len(m) > len(pl.Rel) && m[len(pl.Rel)] == '/' && eq(m[:len(pl.Rel)], pl.Rel)
}

// createdBefore reports whether a command before the one being judged
// writes x or something inside it, or writes files it names itself
// (curl -O, wget -P) into x's directory: x's contents are then not on disk
// yet, and unknown. For place pl named at any depth (a nested .git), only
// an earlier write into such a name counts. With pl nil: any write.
func (j *judge) createdBefore(x paths.Path, pl protect.Place) bool {
	return j.maker(x, pl, nil) >= 0
}

// maker is createdBefore's answer as the index of the first earlier
// command that makes x, or -1; commands skip picks are not counted.
func (j *judge) maker(x paths.Path, pl protect.Place, skip func(*ir.Command) bool) int {
	cmds := j.call.Script.Commands
	for i := 0; i < j.cur && i < len(cmds); i++ {
		c := &cmds[i]
		if len(c.Args) == 0 || skip != nil && skip(c) {
			continue
		}
		base := j.dirOf(c)
		ts := commandTargets(c)
		for _, r := range c.Redirects {
			if r.IsWrite() {
				ts = append(ts, target{w: r.Target})
			}
		}
		for _, t := range ts {
			b := base
			for _, u := range t.under {
				b = j.step(b, u, c.Dialect)
			}
			for _, r := range j.resolve(t.w, b, c.Dialect) {
				tx := j.p.Join(b, r.p)
				if !tx.IsAbs() {
					if pl.Named {
						continue
					}
					return i // an unknown target may be it
				}
				if !(j.p.Contains(x, tx) || t.names && j.p.Contains(tx, x)) {
					continue
				}
				if !pl.Named || j.memberCreates(strings.ReplaceAll(tx.Norm, `\`, "/"), pl) {
					return i
				}
			}
		}
	}
	return -1
}

// patchText returns the text of a patch a command applies: its stdin text
// when the analysis knows it, else the file (read bounded); known is false
// when the text cannot be read: on stdin from elsewhere, or a file that an
// earlier command makes. A file nothing makes gives no text and known
// true (the command fails). dir is the directory file is relative to.
func (j *judge) patchText(c *ir.Command, file *ir.Word, dir paths.Path) (text string, known bool) {
	if file == nil {
		if c.Stdin != "" {
			return c.Stdin, true
		}
		// A diff downloaded on the way (curl -L URL/x.patch | git apply)
		// is a remote party's text, unseen, as a downloaded archive is.
		return "", !j.piped(c) || j.fedBy(fetched)
	}
	x, ok := j.sourcePath(*file, dir)
	if !ok {
		return "", false
	}
	if !j.exists(x) {
		return "", j.maker(x, protect.Place{}, fetched) < 0
	}
	j.steps.Spend(steps.FS(x.Norm))
	fh, err := os.Open(x.Norm)
	if err != nil {
		return "", false
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxPatch+1))
	if err != nil || len(b) > maxPatch {
		return "", false
	}
	j.steps.Spend(len(b) / steps.PathChunk)
	return string(b), true
}

// fedByPacker reports whether what the command being judged reads on
// stdin is packed from local files on the way (cmdfacts.PacksLocal: tar
// -cf - -C stage . | tar -x, possibly through stream filters): a copy of
// those files, whose members are not known here. Any other stdin archive
// (curl URL | tar xz, ssh host 'tar c …' | tar x, lz4 -dc a.tar.lz4 |
// tar x) is a remote party's or one this layer cannot list: judged by the
// extraction's directory and the members it names.
func (j *judge) fedByPacker() bool { return j.fedBy(cmdfacts.PacksLocal) }

// fedBy reports whether a command that pipes into the one being judged,
// directly or through stream filters (| gunzip |), is one pick picks.
func (j *judge) fedBy(pick func(*ir.Command) bool) bool {
	cmds := j.call.Script.Commands
	var from func(i, depth int) bool
	from = func(i, depth int) bool {
		for _, f := range j.feeders(i) {
			if f < 0 || f >= len(cmds) || cmds[f].Feed != ir.FeedPipe {
				continue
			}
			c := &cmds[f]
			if pick(c) || cmdfacts.IsStreamFilter(c.Name) && depth < maxItemDepth && from(f, depth+1) {
				return true
			}
		}
		return false
	}
	return from(j.cur, 0)
}

// fetched picks the commands that fetch from the network.
func fetched(c *ir.Command) bool { return cmdfacts.IsFetcher(c.Name) }

// piped reports whether the command being judged reads another command's
// output on stdin.
func (j *judge) piped(c *ir.Command) bool {
	cmds := j.call.Script.Commands
	for _, f := range j.feeders(j.cur) {
		if f >= 0 && f < len(cmds) && cmds[f].Feed == ir.FeedPipe {
			return true
		}
	}
	return false
}

// diffTargets turns a patch's paths into write targets relative to dir:
// each name with strip leading components removed (strip < 0: every
// reading: as written, less one, the base name — what patch without -p
// may use). Unknown text is one bulk target at dir, whose places it may
// create.
func diffTargets(text string, known bool, strip int, under []ir.Word) []target {
	if !known {
		return []target{{w: here, under: under, verb: verbWrite, bulk: true, stdin: true}}
	}
	var out []target
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, target{w: cmdfacts.Literal(p), under: under, verb: verbWrite})
	}
	for _, p := range cmdfacts.DiffPaths(text) {
		if strip >= 0 {
			add(cmdfacts.StripDiffPath(p, strip))
			continue
		}
		add(p)
		add(cmdfacts.StripDiffPath(p, 1))
		add(baseName(p))
	}
	return out
}

// atoiOr is s as a decimal number, or def.
func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return def
	}
	return n
}

// patchRuns are the commands that apply a unified diff to files: patch
// (gpatch), git apply and git am.
func (j *judge) diffApplyTargets(c *ir.Command) []target {
	if c.Dialect != ir.Bash || len(c.Args) < 2 && c.Name != "patch" && c.Name != "gpatch" {
		return nil
	}
	switch c.Name {
	case "patch", "gpatch":
		return j.patchDiffTargets(c)
	case "git":
		g := cmdfacts.ParseGit(c.Args[1:], c.Assigns)
		if g.Sub != "apply" && g.Sub != "am" {
			return nil
		}
		p := cmdfacts.ParseArgs(g.Args, syntax("git apply"))
		if p.Has("check", "stat", "numstat", "summary") && !p.Has("apply") {
			return nil // a report; --cached changes the index, which a later checkout writes out
		}
		strip := 1
		for _, v := range p.Values("p") {
			strip = atoiOr(v.Value, 1)
		}
		under := g.Dirs
		if d := p.Values("directory"); len(d) > 0 {
			under = append(append([]ir.Word(nil), under...), d[len(d)-1])
		}
		dir := j.dirOf(c)
		for _, u := range under {
			dir = j.step(dir, u, c.Dialect)
		}
		files := p.Operands
		if len(files) == 0 {
			text, known := j.patchText(c, nil, dir)
			return diffTargets(text, known, strip, under)
		}
		var out []target
		for k := range files {
			text, known := j.patchText(c, &files[k], j.dirOf(c))
			out = append(out, diffTargets(text, known, strip, under)...)
		}
		return out
	}
	return nil
}

// patchDiffTargets: the files patch's diff names, relative to -d DIR,
// stripped by -pN (every reading without -p); the diff is -i FILE, the
// second operand, the file < redirects, or stdin.
func (j *judge) patchDiffTargets(c *ir.Command) []target {
	p := cmdfacts.ParseArgs(c.Args[1:], syntax("patch"))
	if p.Has("dry-run") {
		return nil
	}
	var under []ir.Word
	if d := p.Values("d", "directory"); len(d) > 0 {
		under = d[len(d)-1:]
	}
	strip := -1
	for _, v := range p.Values("p", "strip") {
		strip = atoiOr(v.Value, -1)
	}
	var file *ir.Word
	switch in := p.Values("i", "input"); {
	case len(in) > 0:
		file = &in[len(in)-1]
	case len(p.Operands) > 1:
		file = &p.Operands[1]
	default:
		for k := range c.Redirects {
			if r := c.Redirects[k]; r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
				file = &c.Redirects[k].Target
			}
		}
	}
	text, known := j.patchText(c, file, j.dirOf(c))
	return diffTargets(text, known, strip, under)
}
