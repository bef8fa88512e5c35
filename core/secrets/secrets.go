// Package secrets is the fourth line's catalogue: the user's credential
// stores outside the project (Stores: SSH and GPG private keys, cloud CLI
// credentials and token caches, container and cluster logins, .netrc and
// git credentials, package registry tokens, browser cookie and login
// databases, keychains, the agent hosts' own auth files), each with every
// place it lives on Linux, macOS and Windows, in the user's home and in
// every other user's (/home/*, /root, /Users/*, C:\Users\*: another
// account's key leaks as irreversibly, and an agent running as root in a
// container reads /root while HOME is elsewhere). Resolve places the catalogue
// for one call; Set.Read says whether reading a path reads a store, and
// Set.Holds whether reading a directory recursively does. Which commands
// and options read or send files, and which CLIs print secrets, is command
// knowledge: core/cmdfacts (secrets.go) holds it.
//
// # Where the checks live
//
// The danger gate (plugins/danger, rules_secrets.go) asks: for shell
// commands it already walks every command of the analysis (wrappers,
// bash -c, pipes, one-liners, remote shells), and for the hosts' read tools
// (core.KindRead) the host sends the call to it alone (host.Builtin.Reads):
// no new layer process, no warm server more, no connection more per call,
// and the host still knows nothing of what a layer judges. The fence never
// sees a read call, so it does not start fencing reads.
//
// # What stays silent
//
// A path inside the project root is never a store here (.env, a test key
// in testdata/), unless the project root is as wide as home or the
// filesystem root; its real path (through symlinks) is judged too, so a
// link in the project to ~/.ssh/id_rsa is a read of the key. Public keys,
// known_hosts and SSH's config are no secrets (Store.Skip). Listing a
// directory reads no content, and using a credential through its own tool
// (ssh, git push, aws s3 ls, docker login) is not a read by another
// program: the rules ask only about readers, copiers and senders.
//
// Everything here is pure but for RealPath (the platform's symlink
// resolution); a Set is not safe for concurrent use.
package secrets

import (
	"path"
	"strings"
	"sync/atomic"

	"github.com/zcode-fence/zcode-fence/core/internal/envmemo"
	"github.com/zcode-fence/zcode-fence/core/paths"
)

// Hit is a store a path reaches.
type Hit struct {
	Store *Store
	// Path is the path read, as judged (normalised; the real path when
	// only it reaches the store).
	Path string
}

// What names the hit's store in English or (zh) Chinese.
func (h Hit) What(zh bool) string {
	if zh {
		return h.Store.WhatZh
	}
	return h.Store.What
}

// places is one placement: the catalogue's forms placed for one set of
// inputs, shared by every Set resolved with them and never changed. It
// holds no pointer but its slices' and text's own, so the garbage
// collector, which marks a warm layer server's resident heap on every
// cycle, scans none of its five hundred places: a place names its store
// and form by index into Stores, and its root, segments and file name are
// spans of text.
type places struct {
	text  string // every place's root, segments and name, one after another
	items []item
	segs  []span     // every place's segments, place after place
	ixs   indexState // the placement's index (index.go)
}

// span is text[lo:hi] of a places (or of an index's keys).
type span struct{ lo, hi int32 }

// item is one Form placed for a call: Stores[st].Forms[fm] at root and
// segments segs[seg0:seg0+nsegs], or (Anywhere) a file of name named.
type item struct {
	st, fm      int32
	seg0, nsegs int32
	root        span // "/" or "C:"
	named       span // Anywhere: the file name; empty for the others
	kind        paths.Kind
}

func (it *item) store() *Store { return &Stores[it.st] }
func (it *item) form() *Form   { return &Stores[it.st].Forms[it.fm] }

// anywhere reports whether it is an Anywhere form (a file name).
func (it *item) anywhere() bool { return it.named.hi > it.named.lo }

func (pl *places) str(sp span) string { return pl.text[sp.lo:sp.hi] }

// seg is segment k of it (below its root).
func (pl *places) seg(it *item, k int) string { return pl.str(pl.segs[int(it.seg0)+k]) }

// Set is the catalogue placed for one call.
type Set struct {
	p       paths.Platform
	pl      *places
	project paths.Path // zero when unknown or wide
}

// Resolve places the catalogue for one call: p gives home, the
// environment and the path rules; project is the call's project root (""
// when unknown). A form whose anchor is unknown (no home, an unset or
// relative variable, a Windows anchor elsewhere) is left out. Cost: the
// first call places about five hundred path joins (the user's places and
// the other homes'; no system calls); a later call whose inputs are the
// same as the last placement's (OS, home, temp dir, project, and every
// variable the placement looked up, looked up again: a dozen lookups)
// reuses its places.
func Resolve(p paths.Platform, project string) *Set {
	if last := lastPlaced.Load(); last != nil && last.sameInputs(p, project) {
		return &Set{p: p, pl: last.pl, project: last.projectAt}
	}
	var rec *envmemo.Recorder
	q := p
	if p.Lookup != nil {
		rec = envmemo.Record(p.Lookup)
		q.Lookup = rec.Lookup
	}
	s := place(q, project)
	var seen []envmemo.Lookup
	if rec != nil {
		seen = rec.Seen
	}
	lastPlaced.Store(&placement{os: p.OS, home: p.Home, tempDir: p.TempDir, project: project,
		noLookup: p.Lookup == nil, env: seen, pl: s.pl, projectAt: s.project})
	s.p = p
	return s
}

// placement is what one Resolve placed and the inputs it read. Its places
// are never changed after it is stored (a Set only reads them, and builds
// the index once), so Sets of concurrent calls share them.
type placement struct {
	os, home, tempDir, project string
	noLookup                   bool
	env                        []envmemo.Lookup
	pl                         *places
	projectAt                  paths.Path
}

// lastPlaced is the most recent placement: a hook call resolves once, a
// warm layer server or a benchmark many times with the same inputs.
var lastPlaced atomic.Pointer[placement]

// sameInputs reports whether placing for p and project would read exactly
// what pl read, so its places are the same.
func (pl *placement) sameInputs(p paths.Platform, project string) bool {
	if pl.os != p.OS || pl.home != p.Home || pl.tempDir != p.TempDir || pl.project != project ||
		pl.noLookup != (p.Lookup == nil) {
		return false
	}
	return p.Lookup == nil || envmemo.Same(pl.env, p.Lookup)
}

// place does Resolve's work for p (whose Lookup may be recording).
func place(p paths.Platform, project string) *Set {
	s := &Set{p: p, pl: &places{}, project: NarrowProject(p, project)}
	home := p.Clean(strings.TrimSpace(p.Home))
	env := func(name string) string {
		if p.Lookup == nil {
			return ""
		}
		v, _ := p.Lookup(name)
		return strings.TrimSpace(v)
	}
	below := func(base paths.Path, rel string) paths.Path {
		if !base.IsAbs() {
			return paths.Path{}
		}
		return p.Join(base, p.Clean(rel))
	}
	xdg := func(name, fallback string) paths.Path {
		if x := p.Clean(env(name)); x.IsAbs() {
			return x
		}
		return below(home, fallback)
	}
	win := p.OS == "windows"
	anchors := map[Anchor]paths.Path{Home: home, ConfigHome: xdg("XDG_CONFIG_HOME", ".config"), DataHome: xdg("XDG_DATA_HOME", ".local/share")}
	if win {
		anchors[AppData] = xdg("APPDATA", `AppData\Roaming`)
		anchors[LocalAppData] = xdg("LOCALAPPDATA", `AppData\Local`)
	}
	if p.OS == "darwin" {
		anchors[AppSupport] = below(home, "Library/Application Support")
	}
	if !win {
		anchors[Abs] = p.Clean("/")
	}
	var text strings.Builder
	s.place(&text, anchors, env)
	// Every other user's home holds the same stores at the same places
	// (their XDG and Windows variables are theirs, so the defaults).
	for _, other := range otherHomes(p, home) {
		s.place(&text, homeAnchors(p, other), nil)
	}
	s.pl.text = text.String()
	return s
}

// NarrowProject is project (a call's project root) as the catalogue
// exempts it: absolute and not a wide root (home, the filesystem root);
// the zero Path otherwise (nothing is exempt).
//
// Cost: a Clean and an IsWideRoot; the answer for the last (OS, home,
// project) is remembered when it reads nothing but them (a Unix project
// and home on a non-Windows platform), as every call of a session asks
// with the same project.
func NarrowProject(p paths.Platform, project string) paths.Path {
	project = strings.TrimSpace(project)
	memo := p.OS != "windows" && strings.HasPrefix(project, "/") && strings.HasPrefix(p.Home, "/")
	if memo {
		if e := narrowMemo.Load(); e != nil && e.os == p.OS && e.home == p.Home && e.project == project {
			return e.narrow
		}
	}
	var narrow paths.Path
	if pr := p.Clean(project); pr.IsAbs() {
		if wide, _ := p.IsWideRoot(pr); !wide {
			narrow = pr
		}
	}
	if memo {
		narrowMemo.Store(&narrowEntry{os: p.OS, home: p.Home, project: project, narrow: narrow})
	}
	return narrow
}

// narrowMemo is NarrowProject's last answer.
var narrowMemo atomic.Pointer[narrowEntry]

type narrowEntry struct {
	os, home, project string
	narrow            paths.Path
}

// LexicallyExempt reports whether every read of x misses the stores for
// certain without placing the catalogue: x lies inside narrow (a
// NarrowProject) and p resolves no symlinks (EvalSymlinks nil: x's real
// path is x), so Read and Holds say no for it. Cost: one containment
// test.
func LexicallyExempt(p paths.Platform, narrow, x paths.Path) bool {
	return p.EvalSymlinks == nil && narrow.IsAbs() && x.IsAbs() && p.Contains(narrow, x)
}

// otherHomes are the homes of the machine's other users, as a pattern
// whose user segment is anyUser: /home/*, /root on Linux, /Users/*,
// /var/root on macOS, C:\Users\* (home's drive) on Windows.
func otherHomes(p paths.Platform, home paths.Path) []paths.Path {
	var out []paths.Path
	switch p.OS {
	case "windows":
		drive := "C:"
		if home.Kind == paths.Drive {
			drive = home.Norm[:2]
		}
		out = append(out, p.Clean(drive+`\Users\`+anyUser))
	case "darwin":
		out = append(out, p.Clean("/Users/"+anyUser), p.Clean("/var/root"))
	default:
		out = append(out, p.Clean("/home/"+anyUser), p.Clean("/root"))
	}
	return out
}

// homeAnchors are the anchors below a home with no variables of its own.
func homeAnchors(p paths.Platform, home paths.Path) map[Anchor]paths.Path {
	at := func(rel string) paths.Path { return p.Join(home, p.Clean(rel)) }
	m := map[Anchor]paths.Path{Home: home, ConfigHome: at(".config"), DataHome: at(".local/share")}
	switch p.OS {
	case "windows":
		m[AppData], m[LocalAppData] = at(`AppData\Roaming`), at(`AppData\Local`)
	case "darwin":
		m[AppSupport] = at("Library/Application Support")
	}
	return m
}

// anyUser is the user segment of otherHomes: it matches any one segment.
const anyUser = "\x00user"

// place adds every Form of the catalogue whose anchor is in anchors, its
// strings written to text; env (nil: none) places the Env and Anywhere
// forms.
func (s *Set) place(text *strings.Builder, anchors map[Anchor]paths.Path, env func(string) string) {
	p := s.p
	win := p.OS == "windows"
	below := func(base paths.Path, rel string) paths.Path {
		if !base.IsAbs() {
			return paths.Path{}
		}
		return p.Join(base, p.Clean(rel))
	}
	for i := range Stores {
		st := &Stores[i]
		for j := range st.Forms {
			f := &st.Forms[j]
			switch {
			case (f.Anchor == Anywhere || f.Anchor == Env) && env == nil:
				continue
			case f.Anchor == Anywhere:
				s.pl.items = append(s.pl.items, item{st: int32(i), fm: int32(j), named: put(text, f.Rel)})
			case f.Anchor == Env:
				v := env(f.Env)
				list := []string{v}
				if f.Env == "KUBECONFIG" {
					sep := ":"
					if win {
						sep = ";"
					}
					list = strings.Split(v, sep)
				}
				for _, one := range list {
					base := p.Clean(strings.TrimSpace(one))
					if !base.IsAbs() {
						continue
					}
					at := base
					if f.Rel != "" {
						at = below(base, f.Rel)
					}
					s.add(text, i, j, at)
				}
			default:
				base, ok := anchors[f.Anchor]
				if !ok {
					continue
				}
				rel := f.Rel
				if f.Anchor == Abs {
					rel = strings.TrimPrefix(rel, "/")
				}
				s.add(text, i, j, below(base, rel))
			}
		}
	}
}

// add places Stores[st].Forms[fm] at at (when absolute).
func (s *Set) add(text *strings.Builder, st, fm int, at paths.Path) {
	if !at.IsAbs() {
		return
	}
	root, segs := split(at)
	pl := s.pl
	pl.items = append(pl.items, item{st: int32(st), fm: int32(fm), kind: at.Kind, root: put(text, root),
		seg0: int32(len(pl.segs)), nsegs: int32(len(segs))})
	for _, seg := range segs {
		pl.segs = append(pl.segs, put(text, seg))
	}
}

// put writes str to text and returns where.
func put(text *strings.Builder, str string) span {
	lo := text.Len()
	text.WriteString(str)
	return span{int32(lo), int32(text.Len())}
}

// Len is the number of places resolved for the call.
func (s *Set) Len() int { return len(s.pl.items) }

// split cuts an absolute path into its root ("/", "C:", `\\srv\share`) and
// its segments.
func split(x paths.Path) (string, []string) {
	n := x.Norm
	switch x.Kind {
	case paths.Unix:
		return "/", segments(n[1:], '/')
	case paths.Drive:
		return n[:2], segments(n[3:], '\\')
	case paths.UNC:
		segs := segments(strings.TrimPrefix(n, `\\`), '\\')
		if len(segs) < 2 {
			return n, nil
		}
		return `\\` + segs[0] + `\` + segs[1], segs[2:]
	}
	return "", nil
}

func segments(s string, sep byte) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, string(sep))
}

// Read reports whether reading x (an absolute path: a file, or a glob in
// any segment) reads a store. x inside the project is no read of a store
// unless its real path (x with symlinks resolved) lies outside the
// project and reaches one. Cost: a path inside the project, one
// containment test; else one segment comparison per place (about five
// hundred on Linux) for the placement's first scans, then (index.go) a
// binary search among a few keys per segment of x and a comparison per
// place on its way (no allocation but the split of x);
// plus RealPath.
func (s *Set) Read(x paths.Path) (Hit, bool) {
	return s.judge(x, false)
}

// Holds reports whether reading x recursively (a directory tree: grep -r,
// tar, cp -r, a Grep tool's path) reads a store: x is one (Read), or a
// store lies below it.
func (s *Set) Holds(x paths.Path) (Hit, bool) {
	return s.judge(x, true)
}

// HoldsNamed reports whether reading the files below directory x whose
// name matches one of patterns (find x -name P -exec cat {} +) reads a
// store: a store file of a matching name below x (~/.aws/credentials for
// -name credentials under /), a key of that name anywhere (id_rsa), a
// browser's cookie or login database, or any name but the ones it skips
// when x lies in a store directory (find ~/.ssh -name 'id_*'). The files
// of a store directory below x have no names of their own here (find ~
// -name '*.log' and find ~ -name '*.pem' do not count them), and nothing
// inside the project counts.
func (s *Set) HoldsNamed(x paths.Path, patterns []string) (Hit, bool) {
	if s == nil || !x.IsAbs() || len(patterns) == 0 || s.project.IsAbs() && s.p.Contains(s.project, x) {
		return Hit{}, false
	}
	root, xs := split(x)
	fold := s.p.OS == "windows" || s.p.OS == "darwin"
	matchAny := func(name string) bool {
		for _, pat := range patterns {
			if globName(pat, name, fold) || sameSeg(pat, name, fold) {
				return true
			}
		}
		return false
	}
	pl := s.pl
	for i := range pl.items {
		it := &pl.items[i]
		if it.anywhere() {
			if matchAny(pl.str(it.named)) {
				return Hit{Store: it.store(), Path: x.Norm}, true
			}
			continue
		}
		if it.kind != x.Kind || !sameSeg(root, pl.str(it.root), fold || x.Kind != paths.Unix) {
			continue
		}
		if s.namedBelow(it, xs, patterns, fold, matchAny) {
			return Hit{Store: it.store(), Path: x.Norm}, true
		}
	}
	return Hit{}, false
}

// namedBelow judges one place for HoldsNamed.
func (s *Set) namedBelow(it *item, xs, patterns []string, fold bool, matchAny func(string) bool) bool {
	n, m := int(it.nsegs), len(xs)
	for k := 0; k < min(n, m); k++ {
		if seg := s.pl.seg(it, k); seg != anyUser && !segMatch(xs[k], seg, fold) {
			return false
		}
	}
	st := it.store()
	switch it.form().Shape {
	case File:
		return m <= n && matchAny(s.pl.seg(it, n-1))
	case Names:
		for _, name := range st.Names {
			if matchAny(name) {
				return true
			}
		}
		return false
	}
	// Tree: from inside the tree, any pattern that is not one of the
	// skipped names; from above it, nothing (its files have no names of
	// their own: find ~ -name notes.txt is no read of ~/.ssh).
	if m < n {
		return false
	}
	for _, pat := range patterns {
		skipped := false
		for _, skip := range st.Skip {
			skipped = skipped || sameSeg(pat, skip, fold) || globName(skip, pat, fold)
		}
		if !skipped {
			return true
		}
	}
	return false
}

func (s *Set) judge(x paths.Path, tree bool) (Hit, bool) {
	if s == nil || !x.IsAbs() {
		return Hit{}, false
	}
	if h, ok := s.judgeOne(x, tree); ok {
		return h, true
	}
	if s.p.EvalSymlinks == nil || strings.ContainsAny(x.Norm, "*?[") {
		return Hit{}, false
	}
	if r := s.p.RealPath(x); r.IsAbs() && r.Norm != x.Norm {
		return s.judgeOne(r, tree)
	}
	return Hit{}, false
}

func (s *Set) judgeOne(x paths.Path, tree bool) (Hit, bool) {
	if s.project.IsAbs() && s.p.Contains(s.project, x) {
		return Hit{}, false
	}
	root, xs := split(x)
	fold := s.p.OS == "windows" || s.p.OS == "darwin"
	if ix := s.pl.ixs.lookupIndex(s.pl, fold); ix != nil {
		if i, ok := ix.judge(s, x, root, xs, tree); ok {
			if i < 0 {
				return Hit{}, false
			}
			return Hit{Store: s.pl.items[i].store(), Path: x.Norm}, true
		}
	}
	return s.scan(x, root, xs, fold, tree)
}

// scan is judgeOne's linear scan: every place in catalogue order.
func (s *Set) scan(x paths.Path, root string, xs []string, fold, tree bool) (Hit, bool) {
	pl := s.pl
	lit := !strings.ContainsAny(x.Norm, "*?[")
	for i := range pl.items {
		it := &pl.items[i]
		if it.anywhere() {
			if len(xs) > 0 && anywhereMatch(xs[len(xs)-1], pl.str(it.named), fold) {
				return Hit{Store: it.store(), Path: x.Norm}, true
			}
			continue
		}
		if it.kind != x.Kind || !sameSeg(root, pl.str(it.root), fold || x.Kind != paths.Unix) {
			continue
		}
		if s.matches(it, xs, fold, lit, tree) {
			return Hit{Store: it.store(), Path: x.Norm}, true
		}
	}
	return Hit{}, false
}

// matches judges x's segments against one place; lit says no segment
// of x is a glob (each then names only itself: sameSeg, not segMatch).
func (s *Set) matches(it *item, xs []string, fold, lit, tree bool) bool {
	n, m := int(it.nsegs), len(xs)
	text, segs := s.pl.text, s.pl.segs[it.seg0:it.seg0+it.nsegs]
	for k := range min(n, m) {
		switch seg := text[segs[k].lo:segs[k].hi]; {
		case seg == anyUser:
		case lit && sameSeg(xs[k], seg, fold):
		case !lit && segMatch(xs[k], seg, fold):
		default:
			return false
		}
	}
	if m < n {
		// x is above the place: a recursive read of x reaches it.
		return tree
	}
	switch it.form().Shape {
	case File:
		return m == n
	case Tree:
		for _, seg := range xs[n:] {
			for _, skip := range it.store().Skip {
				if globName(skip, seg, fold) || seg == skip {
					return false
				}
			}
		}
		return true
	case Names:
		if tree { // the profile dir or a dir in it, read recursively
			return true
		}
		if m == n {
			return false
		}
		last := xs[m-1]
		for _, name := range it.store().Names {
			if segMatch(last, name, fold) {
				return true
			}
		}
	}
	return false
}

// segMatch reports whether a segment of the path read (possibly a glob)
// can name the literal segment name.
func segMatch(seg, name string, fold bool) bool {
	if !strings.ContainsAny(seg, "*?[") {
		return sameSeg(seg, name, fold)
	}
	return globName(seg, name, fold)
}

// anywhereMatch: a literal name, or a glob whose literal head is not empty
// (id_* names id_rsa; * alone names no key).
func anywhereMatch(seg, name string, fold bool) bool {
	i := strings.IndexAny(seg, "*?[")
	if i < 0 {
		return sameSeg(seg, name, fold)
	}
	return i > 0 && globName(seg, name, fold)
}

func sameSeg(a, b string, fold bool) bool {
	if fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// globName matches one name as the shell does: a leading dot must be
// matched by a leading dot.
func globName(pattern, name string, fold bool) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(pattern, ".") {
		return false
	}
	if fold {
		pattern, name = strings.ToLower(pattern), strings.ToLower(name)
	}
	ok, err := path.Match(pattern, name)
	return ok && err == nil
}
