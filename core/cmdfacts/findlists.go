package cmdfacts

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// What a find lists: whether an entry below a start path passes the
// expression's tests. A delete fed what find lists (-delete, -exec rm,
// find | xargs rm, rm $(find ...), find -exec sh -c 'rm "$1"' _ {}) acts
// on exactly those entries, so one question decides whether it reaches a
// repository's .git: does find list .git (for a recursive delete) or the
// files in it (for a delete of each entry)?

// FindEntry is an entry below one of find's start paths, for Lists.
type FindEntry struct {
	// Rel is the entry's path relative to the start path, "/"-separated
	// (".git", "proj/.git/objects/pack/x.pack").
	Rel string
	// Dir is set for a directory.
	Dir bool
}

// GitEntries are the entries of a repository's metadata directory at rel
// (a "/"-separated path below a start path; "" for the start path
// itself) that matter to a delete: the directory, whose recursive delete
// takes the history whole; and files of its history stores, which a
// delete of each entry (find -delete, xargs rm -f) removes one by one.
// The file names are ones no everyday name test picks (a pack, a loose
// object, packed-refs).
func GitEntries(rel string, recursive bool) []FindEntry {
	base := path.Join(rel, gitDirName)
	if recursive {
		return []FindEntry{{Rel: base, Dir: true}}
	}
	return []FindEntry{
		{Rel: base + "/objects/pack/pack-4b825dc642cb6eb9a060e54bf8d69288fbee4904.pack"},
		{Rel: base + "/objects/e6/9de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		{Rel: base + "/packed-refs"},
	}
}

// Lists reports whether find's expression, run from the start path root
// as written, may list the entry e (print it, or run its actions on it):
// each test is evaluated on e, a test that depends on what cannot be
// known here (time, size, owner, permissions) counting as passed. ok is
// false when the expression cannot be read that way: -o, ",", -quit, a
// negated group, an unknown word, a test this table does not know, or a
// regular expression in a syntax Go does not share. Tests are joined by
// "and" whatever their order; the actions (-print, -exec ...) pass.
// Cost: linear in the expression; a name test is matched directly
// (fnmatch, no allocation); a -regex test's regular expression is
// compiled once per process (findCompile).
func (f Find) Lists(root string, e FindEntry) (listed, ok bool) {
	expr := f.Expr
	depth := strings.Count(e.Rel, "/") + 1
	full := strings.TrimSuffix(root, "/") + "/" + e.Rel
	if root == "/" {
		full = "/" + e.Rel
	}
	base := path.Base(e.Rel)
	listed = true
	for i := 0; i < len(expr); i++ {
		w := expr[i]
		if w.Unknown {
			return false, false
		}
		v := w.Value
		negate := false
		if v == "!" || v == "-not" {
			if i+1 >= len(expr) || expr[i+1].Unknown || expr[i+1].Value == "(" {
				return false, false
			}
			negate, i = true, i+1
			v = expr[i].Value
		}
		arg := func() (ir.Word, bool) {
			if i+1 >= len(expr) {
				return ir.Word{}, false
			}
			i++
			return expr[i], true
		}
		pass := true
		switch {
		case v == "-o" || v == "-or" || v == "," || v == "-quit":
			return false, false
		case v == "(" || v == ")" || v == "-a" || v == "-and" || v == "-true":
		case v == "-false":
			pass = false
		case IsFindExec(v):
			i = FindExecEnd(len(expr), i+1, func(k int) (string, bool) { return expr[k].Value, !expr[k].Unknown })
		case findNameTests[v]:
			a, has := arg()
			if !has {
				return false, false
			}
			if a.Unknown {
				break // any name may match
			}
			subject := full
			if FindBaseNameTest(v) {
				subject = base
			}
			m, good := fnmatch(a.Value, subject, v[1] == 'i')
			if !good {
				return false, false
			}
			pass = m
		case v == "-regex" || v == "-iregex":
			a, has := arg()
			if !has {
				return false, false
			}
			if a.Unknown {
				break
			}
			m, good := findRegex(a.Value, full, v == "-iregex")
			if !good {
				return false, false
			}
			pass = m
		case v == "-type" || v == "-xtype":
			a, has := arg()
			if !has {
				return false, false
			}
			if a.Unknown {
				break
			}
			want := "f"
			if e.Dir {
				want = "d"
			}
			pass = strings.Contains(a.Value, want)
		case v == "-maxdepth" || v == "-mindepth":
			a, has := arg()
			if !has {
				return false, false
			}
			n, err := strconv.Atoi(a.Value)
			if a.Unknown || err != nil {
				break
			}
			pass = v == "-maxdepth" && depth <= n || v == "-mindepth" && depth >= n
		case v == "-empty":
			pass = false // a repository's metadata directory and its store files are never empty
		default:
			if n, attr := findAttributeTest(v); attr {
				i += n
				break
			}
			if n, known := findUnfiltering[v]; known {
				i += n
				break
			}
			if n, known := findMayPass[v]; known {
				i += n
				break
			}
			return false, false
		}
		if negate {
			if v == "-maxdepth" || v == "-mindepth" {
				return false, false
			}
			pass = !pass
		}
		listed = listed && pass
	}
	return listed, true
}

// findMayPass are tests Lists cannot decide for an entry it only
// imagines (the file's identity, links, its contents' type), with how
// many values each takes: they may pass.
var findMayPass = map[string]int{
	"-samefile": 1, "-inum": 1, "-lname": 1, "-ilname": 1, "-context": 1, "-fstype": 1, "-prune": 0,
}

// findRegex matches find's -regex (the whole path) for the expressions Go
// reads alike: none of the emacs syntax's backslash operators (\( \| \{).
func findRegex(expr, s string, fold bool) (match, ok bool) {
	if strings.Contains(expr, `\(`) || strings.Contains(expr, `\|`) || strings.Contains(expr, `\{`) {
		return false, false
	}
	re, err := findCompile(findKey{expr, fold})
	if err != nil {
		return false, false
	}
	return re.MatchString(s), true
}

// findCompiled holds the regular expressions findRegex compiled, by what
// they were compiled from, at most findCompiledMax of them: Lists judges
// the same expression against several entries and roots, and a warm
// layer server sees the same expressions again and again.
var findCompiled = struct {
	sync.RWMutex
	m map[findKey]*regexp.Regexp
}{m: map[findKey]*regexp.Regexp{}}

// findKey is a -regex expression, and whether it folds case.
type findKey struct {
	expr string
	fold bool
}

const findCompiledMax = 256

// findCompile is the regular expression find's -regex k stands for,
// matching whole paths, through findCompiled. Cost: one map look-up (no
// allocation) for a key seen before; compiling otherwise (a bad
// expression is compiled again each time: it ends the judgement anyway).
func findCompile(k findKey) (*regexp.Regexp, error) {
	findCompiled.RLock()
	re, ok := findCompiled.m[k]
	findCompiled.RUnlock()
	if ok {
		return re, nil
	}
	flags := "(?s)"
	if k.fold {
		flags = "(?is)"
	}
	re, err := regexp.Compile(flags + "^(?:" + k.expr + ")$")
	if err != nil {
		return nil, err
	}
	findCompiled.Lock()
	if len(findCompiled.m) < findCompiledMax {
		findCompiled.m[k] = re
	}
	findCompiled.Unlock()
	return re, nil
}

// linePassers print every line they read (reordered, de-duplicated or
// copied), picking none out: a listing fed through them is still the
// listing.
var linePassers = map[string]bool{"sort": true, "uniq": true, "tac": true, "cat": true, "tee": true}

// PassesLines reports whether the command name (with its arguments
// args) passes on the lines of a listing it reads that name keep (".git"):
// sort, uniq, tac, cat and tee pass every line; grep -v passes those its
// patterns do not match, so it passes them unless a pattern mentions
// keep's letters (grep -v .git, grep -v '/\.git/') or cannot be read.
// A grep that picks whole lines (PicksLines) passes them when one of its
// patterns may match a line naming keep or a file in it (read as a Go
// regular expression; a pattern that cannot be read may). Any other
// filter (head, sed, grep -o) picks what goes on.
func PassesLines(name string, args []ir.Word, keep string) bool {
	if linePassers[name] {
		return true
	}
	if name != "grep" && name != "egrep" && name != "fgrep" {
		return false
	}
	inverted := false
	var pats []ir.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Unknown:
			return false
		case a.Value == "-e" || a.Value == "--regexp":
			if i+1 < len(args) {
				i++
				pats = append(pats, args[i])
			}
		case a.Value == "--invert-match":
			inverted = true
		case strings.HasPrefix(a.Value, "--"):
		case strings.HasPrefix(a.Value, "-") && len(a.Value) > 1:
			inverted = inverted || strings.Contains(a.Value, "v")
			if strings.ContainsAny(a.Value, "ef") {
				return false // a pattern or pattern file bundled in: not read here
			}
		default:
			pats = append(pats, a)
		}
	}
	if !inverted {
		return picksKept(name, args, keep)
	}
	word := strings.TrimPrefix(keep, ".")
	for _, p := range pats {
		if p.Unknown || strings.Contains(strings.ToLower(p.Value), word) {
			return false
		}
	}
	return true
}

// lineParts are the grep options that make it print something other than
// whole input lines: parts of lines, counts, file names, prefixes,
// context lines, or the files of a recursive search.
var lineParts = []string{"o", "only-matching", "c", "count", "l", "L", "files-with-matches", "files-without-match",
	"n", "line-number", "b", "byte-offset", "H", "with-filename", "T", "initial-tab", "label", "r", "R", "recursive",
	"dereference-recursive", "A", "B", "C", "after-context", "before-context", "context", "Z", "null", "files"}

// PicksLines reports whether grep (egrep, fgrep) run with args prints
// some of the lines it reads on its input, whole and unchanged: a pattern
// (or -e/-f), no file operand but "-", none of the options that print
// parts of lines, counts, names or prefixes, and no word the analysis
// could not read (one could be such an option). The items a listing
// gives through it are some of the listing's items.
func PicksLines(name string, args []ir.Word) bool {
	if name != "grep" && name != "egrep" && name != "fgrep" {
		return false
	}
	for _, a := range args {
		if a.Unknown {
			return false
		}
	}
	spec, _ := Syntax("grep")
	p := ParseArgs(args, spec)
	if p.Has(lineParts...) {
		return false
	}
	ops := p.Operands
	if !p.Has("e", "f", "regexp", "file") {
		if len(ops) == 0 {
			return false
		}
		ops = ops[1:]
	}
	return len(ops) == 0 || len(ops) == 1 && ops[0].Value == "-"
}

// picksKept reports whether grep (PicksLines) may pass a line that lists
// directory keep or a file in it, as find . prints them.
func picksKept(name string, args []ir.Word, keep string) bool {
	if !PicksLines(name, args) {
		return false
	}
	spec, _ := Syntax("grep")
	p := ParseArgs(args, spec)
	if p.Has("f", "file") {
		return true // patterns in a file: not read here
	}
	pats := p.Values("e", "regexp")
	if len(pats) == 0 && len(p.Operands) > 0 {
		pats = p.Operands[:1]
	}
	lines := []string{keep, "./" + keep}
	for _, e := range GitEntries(".", false) {
		lines = append(lines, e.Rel, "./"+e.Rel)
	}
	fixed := name == "fgrep" || p.Has("F", "fixed-strings")
	extended := name == "egrep" || p.Has("E", "extended-regexp", "P", "perl-regexp")
	for _, pw := range pats {
		for _, pat := range strings.Split(pw.Value, "\n") {
			expr := pat
			switch {
			case fixed:
				expr = regexp.QuoteMeta(pat)
			case !extended:
				expr = breToERE(pat)
			}
			if p.Has("x", "line-regexp") {
				expr = "^(?:" + expr + ")$"
			} else if p.Has("w", "word-regexp") {
				expr = `\b(?:` + expr + `)\b`
			}
			if p.Has("i", "ignore-case", "y") {
				expr = "(?i)" + expr
			}
			re, err := regexp.Compile(expr)
			if err != nil {
				return true
			}
			for _, l := range lines {
				if re.MatchString(l) {
					return true
				}
			}
		}
	}
	return false
}

// breToERE rewrites a POSIX basic regular expression (GNU grep's reading)
// as an extended one: \+ \? \| \( \) \{ \} are operators there and the
// bare characters literals.
func breToERE(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\' && i+1 < len(s) && strings.IndexByte("+?|(){}", s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i++
		case ch == '\\' && i+1 < len(s):
			b.WriteByte(ch)
			b.WriteByte(s[i+1])
			i++
		case strings.IndexByte("+?|(){}", ch) >= 0:
			b.WriteByte('\\')
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
