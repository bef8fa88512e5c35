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
// .git matches (no -path/-regex; with -o, see findListing), ls without
// -a/-A of the working directory or of relative names, git ls-files
// (tracked files only, no pathspec that climbs out of the directory).
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
	case "find":
		return findListing(args)
	case "ls":
		return lsListing(args)
	case "git":
		if len(args) >= 1 && args[0].Value == "ls-files" {
			for _, a := range args[1:] {
				v := a.Value
				if strings.HasPrefix(v, "-o") || v == "--others" || v == "--full-name" {
					return "", false // untracked files may be anywhere below, .git aside
				}
				// A pathspec that climbs (../x, :/x, :(top)x, /abs) lists
				// names outside the directory, printed with ../
				if !strings.HasPrefix(v, "-") && climbs(v) {
					return "", false
				}
			}
			return ".", true
		}
	}
	return "", false
}

// climbs reports a git pathspec that may name files outside the working
// directory: absolute, from the top (:/x, :(top)x), or with a ".." step.
func climbs(spec string) bool {
	if strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, ":/") || strings.HasPrefix(spec, ":(") && strings.Contains(spec, "top") {
		return true
	}
	return slices.Contains(strings.Split(strings.TrimLeft(spec, ":!^"), "/"), "..")
}

// findListing: one start path, a positive name test that spares .git.
// With -o, each alternative that prints (one holding -print; every one
// when none does, find's implicit -print covering the whole expression)
// needs such a name test of its own; the others may only -prune (git's
// find . \( -name .git -type d -prune \) -o \( -name '*.[hcS]' -type f
// -print \)).
func findListing(args []ir.Word) (string, bool) {
	f := cmdfacts.ParseFind(args)
	if len(f.Roots) != 1 || len(f.Execs) > 0 || f.Delete || len(f.Outputs) > 0 {
		return "", false
	}
	root := f.Roots[0].Value
	if !boundedDir(root) {
		return "", false
	}
	if f.Or {
		return root, findAlternativesSpare(f.Expr)
	}
	if !findBranchSpares(f.Expr) {
		return "", false
	}
	return root, true
}

// findBranchSpares reports a conjunction of find tests that holds a
// positive name test no name in .git matches, and no path test.
func findBranchSpares(expr []ir.Word) bool {
	spares := false
	for i, a := range expr {
		switch v := a.Value; v {
		case "-path", "-ipath", "-regex", "-iregex", "-wholename", "-iwholename":
			return false
		case "-name", "-iname":
			if i+1 >= len(expr) || i > 0 && (expr[i-1].Value == "!" || expr[i-1].Value == "-not") {
				continue
			}
			if !findNameHitsGit(v, expr[i+1].Value) {
				spares = true
			}
		}
	}
	return spares
}

// findNameHitsGit reports a name test that may match a name in .git.
func findNameHitsGit(test, pat string) bool {
	if test == "-iname" {
		pat = strings.ToLower(pat)
	}
	return slices.ContainsFunc(gitEntryNames, func(e string) bool {
		if test == "-iname" {
			e = strings.ToLower(e)
		}
		ok, err := path.Match(pat, e)
		return ok || err != nil
	})
}

// findAlternativesSpare checks an expression with -o (see findListing):
// split at the -o outside parentheses (one inside them refuses), each
// alternative either prunes without printing or prints with a name test
// that spares .git. Actions other than -print and -prune refuse.
func findAlternativesSpare(expr []ir.Word) bool {
	var alts [][]ir.Word
	depth, start := 0, 0
	explicit := false
	for i, a := range expr {
		switch v := a.Value; v {
		case "(":
			depth++
		case ")":
			depth--
		case "-o", "-or":
			if depth != 0 {
				return false
			}
			alts = append(alts, expr[start:i])
			start = i + 1
		case "-print":
			explicit = true
		case "-print0", "-printf", "-ls", "-quit", ",":
			return false // other output (-fprint and the like: findListing's Outputs)
		}
	}
	alts = append(alts, expr[start:])
	for _, alt := range alts {
		prints, prunes := !explicit, false
		for _, a := range alt {
			prints = prints || a.Value == "-print"
			prunes = prunes || a.Value == "-prune"
		}
		if prints && !findBranchSpares(alt) || !prints && !prunes && !explicit {
			return false
		}
	}
	return true
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
		ws = a.appendFields(ws, st, src, arg)
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

// makeListing is ondisk.MakeOptions.Listing: cmd, the text of a $(shell
// CMD) or VAR != CMD, is a listing bounded to a directory when it is one
// of the listings above, A || B of two listings of the same directory,
// or a listing piped through filters that only drop or reorder lines
// (sort, uniq, grep with one pattern, head, tail) or strip find's leading
// "./" (sed -e 's|^\./||'); git's `( git ls-files '*.[hcS]' ... || find .
// ... -print | sed -e 's|^\./||' )`. The glob is "*" for a listing of
// make's directory, "DIR/*" for one of DIR.
func (a *analyzer) makeListing(cmd string) (string, bool) {
	f, err := a.parse(cmd)
	if err != nil || len(f.Stmts) != 1 {
		return "", false
	}
	d, ok := a.listingStmt(cmd, f.Stmts[0])
	if !ok {
		return "", false
	}
	d = strings.TrimPrefix(path.Clean(d), "./")
	switch d {
	case ".":
		return "*", true
	case "/":
		return "/*", true
	}
	return d + "/*", true
}

// listingStmt returns the directory statement s lists (see makeListing).
func (a *analyzer) listingStmt(src string, s *syntax.Stmt) (string, bool) {
	if s == nil || s.Background || s.Negated || s.Coprocess || s.Disown || !quietRedirs(s.Redirs) {
		return "", false
	}
	switch cmd := s.Cmd.(type) {
	case *syntax.Subshell:
		if len(cmd.Stmts) == 1 {
			return a.listingStmt(src, cmd.Stmts[0])
		}
	case *syntax.Block:
		if len(cmd.Stmts) == 1 {
			return a.listingStmt(src, cmd.Stmts[0])
		}
	case *syntax.BinaryCmd:
		switch cmd.Op {
		case syntax.OrStmt:
			x, okX := a.listingStmt(src, cmd.X)
			y, okY := a.listingStmt(src, cmd.Y)
			if okX && okY && path.Clean(x) == path.Clean(y) {
				return x, true
			}
		case syntax.Pipe:
			d, ok := a.listingStmt(src, cmd.X)
			if ok && a.lineFilter(src, cmd.Y) {
				return d, true
			}
		}
	case *syntax.CallExpr:
		if ws, ok := a.literalArgs(src, cmd); ok {
			return listingDir(ws)
		}
	}
	return "", false
}

// literalArgs are the words of a plain call, each wholly known.
func (a *analyzer) literalArgs(src string, ce *syntax.CallExpr) ([]xword, bool) {
	if len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	var ws []xword
	st := newState()
	for _, w := range ce.Args {
		for _, f := range a.fields(st, src, w) {
			if !f.known() || f.glob {
				return nil, false
			}
			ws = append(ws, f)
		}
	}
	return ws, true
}

// stripDotSlash reports a sed script that removes a leading "./"
// (s|^\./||, s,^\./,,g ...: a delimiter other than the slash the
// pattern holds).
func stripDotSlash(v string) bool {
	if len(v) < 2 || v[0] != 's' || !strings.ContainsRune("|,#:@!%+", rune(v[1])) {
		return false
	}
	d := v[1:2]
	rest := strings.TrimSuffix(v[2:], "g")
	return rest == `^\./`+d+d
}

// lineFilter reports a statement that passes on some of its input lines,
// unchanged but for a leading "./" stripped, or reorders them (see
// makeListing); a pipeline of them too.
func (a *analyzer) lineFilter(src string, s *syntax.Stmt) bool {
	if s == nil || s.Background || s.Negated || s.Coprocess || s.Disown || !quietRedirs(s.Redirs) {
		return false
	}
	if bc, ok := s.Cmd.(*syntax.BinaryCmd); ok && bc.Op == syntax.Pipe {
		return a.lineFilter(src, bc.X) && a.lineFilter(src, bc.Y)
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		return false
	}
	ws, ok := a.literalArgs(src, ce)
	if !ok {
		return false
	}
	args := make([]string, len(ws)-1)
	for i, w := range ws[1:] {
		args[i], _ = w.lit()
	}
	name, _ := ws[0].lit()
	switch ir.CommandName(name) {
	case "sort":
		return !slices.ContainsFunc(args, func(v string) bool {
			return !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--output") || strings.HasPrefix(v, "--files0-from")
		})
	case "uniq":
		return !slices.ContainsFunc(args, func(v string) bool {
			return !strings.HasPrefix(v, "-") || strings.ContainsAny(v, "cD") || v == "--count"
		})
	case "head", "tail":
		for i := 0; i < len(args); i++ {
			switch v := args[i]; {
			case v == "-n":
				i++
			case strings.HasPrefix(v, "-n") || len(v) > 1 && v[0] == '-' && strings.Trim(v[1:], "0123456789") == "":
			default:
				return false
			}
		}
		return true
	case "grep", "egrep", "fgrep":
		pats := 0
		for i := 0; i < len(args); i++ {
			switch v := args[i]; v {
			case "-v", "-E", "-F", "-G", "-i", "-x", "-w", "--invert-match":
			case "-e":
				i++
				pats++
			default:
				if strings.HasPrefix(v, "-") {
					return false // -o prints parts of lines, -r, -f FILE, -H ... read or print other things
				}
				pats++
			}
		}
		return pats == 1
	case "sed":
		exprs := 0
		for i := 0; i < len(args); i++ {
			v := args[i]
			if v == "-e" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if !stripDotSlash(v) {
				return false
			}
			exprs++
		}
		return exprs > 0
	}
	return false
}
