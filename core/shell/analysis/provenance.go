package analysis

import (
	"path"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// Value provenance: a name drawn from a listing of a directory stays
// inside that directory. A loop over the output of a listing
// (for f in $(find . -name '*.py'), find . -name '*.doc' | while read f)
// gives its variable the value "DIR/*" as a glob: a pattern of the names
// in DIR, judged where it lands like any glob (cp "$f" "$f.bak" writes
// DIR/*.bak), never as an unbounded unknown. Only listings whose names
// can be bounded and that never list a repository's .git are read: find
// with one start path and a positive -name/-iname test that no name in
// .git matches (no -o, no -path/-regex), ls without -a/-A of the working
// directory or of relative names, git ls-files (tracked files only).
// Everything else (find . with no name test, ls -A, cat list.txt) stays
// unknown, and asks where an unknown target asks.

// gitEntryNames are names found in a .git directory: a name test that
// matches one of them may list .git's content.
var gitEntryNames = []string{".git", "HEAD", "config", "index", "description", "packed-refs", "ORIG_HEAD",
	"FETCH_HEAD", "COMMIT_EDITMSG", "info", "objects", "refs", "hooks", "logs", "exclude", "main", "master",
	"pack-0123abcd.pack", "pack-0123abcd.idx", "pre-commit.sample", "00", "0123456789abcdef0123456789abcdef012345"}

// listingDir returns the directory whose entries the command argv lists,
// as written, when the listing is bounded to it and spares .git.
func listingDir(ws []xword) (string, bool) {
	if len(ws) == 0 {
		return "", false
	}
	name, ok := ws[0].lit()
	if !ok {
		return "", false
	}
	var args []ir.Word
	for _, w := range ws[1:] {
		if !w.known() {
			return "", false
		}
		args = append(args, w.word())
	}
	switch ir.CommandName(name) {
	case "find", "gfind":
		return findListing(args)
	case "ls":
		return lsListing(args)
	case "git":
		if len(args) >= 1 && args[0].Value == "ls-files" {
			for _, a := range args[1:] {
				if strings.HasPrefix(a.Value, "-o") || a.Value == "--others" || a.Value == "--full-name" {
					return "", false // untracked files may be anywhere below, .git aside
				}
			}
			return ".", true
		}
	}
	return "", false
}

// findListing: one start path, a positive name test that spares .git.
func findListing(args []ir.Word) (string, bool) {
	f := cmdfacts.ParseFind(args)
	if len(f.Roots) != 1 || f.Or || len(f.Execs) > 0 || f.Delete {
		return "", false
	}
	root := f.Roots[0].Value
	if !boundedDir(root) {
		return "", false
	}
	spares := false
	for _, a := range args {
		if a.Value == "-path" || a.Value == "-ipath" || a.Value == "-regex" || a.Value == "-iregex" || a.Value == "-wholename" {
			return "", false
		}
	}
	for _, n := range f.Names {
		if n.Negated || n.Pattern.Unknown {
			continue
		}
		pat := n.Pattern.Value
		if n.Test == "-iname" {
			pat = strings.ToLower(pat)
		}
		hits := slices.ContainsFunc(gitEntryNames, func(e string) bool {
			if n.Test == "-iname" {
				e = strings.ToLower(e)
			}
			ok, err := path.Match(pat, e)
			return ok || err != nil
		})
		if !hits {
			spares = true
		}
	}
	if !spares {
		return "", false
	}
	return root, true
}

// lsListing: ls without -a/-A (no "..", no .git) of the working directory
// or of relative operands: it prints bare names, or the operands as
// written.
func lsListing(args []ir.Word) (string, bool) {
	for _, a := range args {
		v := a.Value
		switch {
		case v == "--all" || v == "--almost-all":
			return "", false
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--"):
			if strings.ContainsAny(v[1:], "aAf") {
				return "", false
			}
		case strings.HasPrefix(v, "--"):
		default:
			if !boundedDir(v) || strings.HasPrefix(v, "/") {
				return "", false
			}
		}
	}
	return ".", true
}

// boundedDir reports a known directory with no ".." step and no
// expansion left in it.
func boundedDir(d string) bool {
	if d == "" || strings.ContainsAny(d, "$`*?[") {
		return false
	}
	for _, s := range strings.Split(d, "/") {
		if s == ".." {
			return false
		}
	}
	return true
}

// listingGlob is the value a name from a listing of dir takes.
func listingGlob(dir string) variable {
	d := strings.TrimSuffix(dir, "/")
	if d == "" {
		d = "/"
	}
	v := d + "/*"
	if d == "/" {
		v = "/*"
	}
	return variable{val: []part{{text: v}}, glob: true}
}

// substListing returns the listing directory of a loop item that is a
// lone unquoted $(LISTING) or `LISTING`.
func (a *analyzer) substListing(st *state, src string, w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	cs, ok := w.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(cs.Stmts[0].Redirs) > 0 || len(call.Assigns) > 0 {
		return "", false
	}
	var ws []xword
	for _, arg := range call.Args {
		ws = append(ws, a.fields(st, src, arg)...)
	}
	return listingDir(ws)
}

// readVar returns the one variable a while condition `read [-r] VAR`
// (also IFS= read -r VAR) reads a line into.
func readVar(cond []*syntax.Stmt) (string, bool) {
	if len(cond) != 1 {
		return "", false
	}
	call, ok := cond[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) < 2 {
		return "", false
	}
	if lit := call.Args[0].Lit(); lit != "read" {
		return "", false
	}
	var names []string
	for _, arg := range call.Args[1:] {
		v := arg.Lit()
		switch {
		case v == "-r":
		case v == "" || strings.HasPrefix(v, "-"):
			return "", false // -d, -a, -n ...: not one line into one name
		default:
			names = append(names, v)
		}
	}
	if len(names) != 1 {
		return "", false
	}
	return names[0], true
}
