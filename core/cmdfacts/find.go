package cmdfacts

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Find is a find (GNU or BSD) command line read the way find reads it:
// the start paths, then the expression.
type Find struct {
	// Roots are the start paths: the operands before the expression,
	// after the -H, -L, -P, -D DEBUG and -Olevel options; "." when none.
	Roots []ir.Word
	// Expr is the expression: the words after the start paths (Lists
	// reads it).
	Expr []ir.Word
	// Delete is set when the expression holds -delete (outside the
	// command of an -exec).
	Delete bool
	// Execs are the commands of -exec, -execdir, -ok and -okdir.
	Execs []FindExec
	// Outputs are the files -fprint, -fprint0, -fls and -fprintf write.
	Outputs []ir.Word
	// Names are the patterns of the name tests (FindNameTests) outside
	// the command of an -exec, in order.
	Names []FindName
	// Prune is set when the expression holds -prune, and Or when it holds
	// -o/-or: with both, what the pruned branch's tests match is usually
	// skipped, not acted on (find . -name .git -prune -o ... -delete).
	Prune, Or bool
	// Filtered is set when the expression holds anything that can leave
	// some of what is below the start paths out: a test (-name, -type,
	// -mtime, -empty, -newer, …), a negation, -o, -prune, or a word it
	// cannot read. Depth limits, the global options and the actions do
	// not filter (find . -mindepth 1 -delete picks everything).
	Filtered bool
	// MaxDepth is set when the expression limits the depth (-maxdepth).
	MaxDepth bool
	// ByAttributes is set when nothing in the expression picks by name
	// or path, negates anything but a name test, alternates, prunes or
	// cannot be read: what it picks is picked by type, time, size,
	// permissions, owner or links (findAttributeTests), with at most some
	// names left out (! -name '*.md'), so it may lie anywhere below the
	// start paths, inside .git too (find . -type f -mtime +30 -delete,
	// find . -type f ! -name '*.md' -delete); whether a left-out name
	// spares .git is FindName.SparesGit.
	ByAttributes bool
	// Types are the letters of its -type and -xtype tests, in order ("f",
	// "fd"); "?" for a value it cannot read.
	Types string
}

// findAttributeTests are find's tests that pick by an attribute rather
// than a name or path, with how many values each takes (-newerXY is read
// by its prefix).
var findAttributeTests = map[string]int{
	"-type": 1, "-xtype": 1, "-mtime": 1, "-mmin": 1, "-atime": 1, "-amin": 1, "-ctime": 1, "-cmin": 1,
	"-used": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-size": 1, "-perm": 1, "-user": 1, "-group": 1,
	"-uid": 1, "-gid": 1, "-nouser": 0, "-nogroup": 0, "-links": 1, "-readable": 0, "-writable": 0,
	"-executable": 0,
}

// findAttributeTest returns how many values the attribute test v takes.
func findAttributeTest(v string) (int, bool) {
	if n, ok := findAttributeTests[v]; ok {
		return n, true
	}
	if strings.HasPrefix(v, "-newer") && len(v) == len("-newerXY") {
		return 1, true
	}
	return 0, false
}

// findUnfiltering are the expression words that pick nothing out: the
// global and positional options and the actions, with how many values
// each takes. -exec and its kin are read separately; everything else
// starting with "-" (and !, -not, -o) filters.
var findUnfiltering = map[string]int{
	"-depth": 0, "-d": 0, "-mindepth": 1, "-maxdepth": 1, "-xdev": 0, "-mount": 0, "-noleaf": 0,
	"-follow": 0, "-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-daystart": 0,
	"-warn": 0, "-nowarn": 0, "-regextype": 1, "-true": 0, "-a": 0, "-and": 0,
	"-delete": 0, "-print": 0, "-print0": 0, "-ls": 0, "-printf": 1,
	"-fprint": 1, "-fprint0": 1, "-fls": 1, "-fprintf": 2, "(": 0, ")": 0, ",": 0,
}

// FindName is one name test of a find expression.
type FindName struct {
	// Test is the test as written ("-name", "-ipath").
	Test string
	// Pattern is its pattern.
	Pattern ir.Word
	// Negated is set when "!" or -not stands right before the test.
	Negated bool
}

// gitFileSamples are names of files inside a repository's .git, as a
// negated base-name test sees them (SparesGit).
var gitFileSamples = []string{"HEAD", "config", "index", "packed-refs", "ORIG_HEAD", "description",
	"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "pack-4b825dc642cb6eb9a060e54bf8d69288fbee4904.pack"}

// SparesGit reports whether the negated name test n (! -name X, -not
// -path X) leaves .git's own files out of what find picks: a path
// pattern naming .git (! -path './.git/*'), a base-name pattern every
// file there matches (! -name '*'), or a pattern it cannot read. A name
// test that is not negated picks rather than spares; it reports false.
func (n FindName) SparesGit() bool {
	if !n.Negated {
		return false
	}
	if n.Pattern.Unknown {
		return true
	}
	pat := n.Pattern.Value
	if !FindBaseNameTest(n.Test) {
		return strings.Contains(strings.ToLower(pat), gitDirName)
	}
	if n.Test == "-iname" {
		pat = strings.ToLower(pat)
	}
	for _, name := range gitFileSamples {
		if n.Test == "-iname" {
			name = strings.ToLower(name)
		}
		if ok, err := path.Match(bangClass(pat), name); err != nil || !ok {
			return false
		}
	}
	return true
}

// findNameTests are find's tests that match a pattern against the base
// name (-name, -iname) or the whole path (the others) of what it finds.
var findNameTests = map[string]bool{"-name": true, "-iname": true, "-path": true, "-ipath": true,
	"-wholename": true, "-iwholename": true}

// FindBaseNameTest reports whether the find test named test matches the
// base name of what find finds (-name, -iname) rather than its whole path
// (-path, -ipath, -wholename, -iwholename).
func FindBaseNameTest(test string) bool { return test == "-name" || test == "-iname" }

// FindExec is one command the expression runs on what it finds.
type FindExec struct {
	// Action is "-exec", "-execdir", "-ok" or "-okdir".
	Action string
	// Argv is the command, without its terminator (";", or "+" after
	// "{}"); "{}" stands for each file found.
	Argv []ir.Word
}

// FindStart returns where find's expression starts in args (the words
// after "find"): the start paths are args[from:to]; none when from ==
// to. Only a known word can end the start paths. Cost: linear.
func FindStart(n int, lit func(i int) (string, bool)) (from, to int) {
	i := 0
	for i < n {
		v, ok := lit(i)
		if !ok {
			break
		}
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") && len(v) > 2 {
			i++
			continue
		}
		if v == "-D" {
			i += 2
			continue
		}
		break
	}
	from = min(i, n)
	for i = from; i < n; i++ {
		if v, ok := lit(i); ok && (strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ",") {
			break
		}
	}
	return from, i
}

// IsFindExec reports whether v is an action that runs a command.
func IsFindExec(v string) bool {
	return v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir"
}

// FindExecEnd returns the index of the terminator of the command that
// starts at args[from] (";", or "+" right after "{}"), or n when there is
// none.
func FindExecEnd(n, from int, lit func(i int) (string, bool)) int {
	for i := from; i < n; i++ {
		t, ok := lit(i)
		if ok && t == ";" {
			return i
		}
		if ok && t == "+" && i > from {
			if prev, pok := lit(i - 1); pok && prev == "{}" {
				return i
			}
		}
	}
	return n
}

// ParseFind reads args, the words after "find". Cost: linear.
func ParseFind(args []ir.Word) Find {
	lit := func(i int) (string, bool) { return args[i].Value, !args[i].Unknown }
	var f Find
	from, to := FindStart(len(args), lit)
	f.Roots = args[from:to:to]
	if from == to {
		f.Roots = []ir.Word{Literal(".")}
	}
	f.Expr = args[to:]
	picks := false // something other than an attribute test filters
	for i := to; i < len(args); i++ {
		v, ok := lit(i)
		if !ok {
			f.Filtered, picks = true, true
			continue
		}
		if v == "-maxdepth" {
			f.MaxDepth = true
		}
		if n, attr := findAttributeTest(v); attr {
			f.Filtered = true
			if (v == "-type" || v == "-xtype") && i+1 < len(args) {
				if t, known := lit(i + 1); known {
					f.Types += strings.ReplaceAll(t, ",", "")
				} else {
					f.Types += "?"
				}
			}
			i += n
			continue
		}
		if n, known := findUnfiltering[v]; known && v != "-delete" && !strings.HasPrefix(v, "-fprint") && v != "-fls" {
			i += n
			continue
		} else if !known && !IsFindExec(v) {
			f.Filtered = true
			// "! -name X" leaves names out; it picks nothing.
			negation := (v == "!" || v == "-not") && i+1 < len(args) && !args[i+1].Unknown && findNameTests[args[i+1].Value]
			negated := findNameTests[v] && i > to && !args[i-1].Unknown && (args[i-1].Value == "!" || args[i-1].Value == "-not")
			picks = picks || !negation && !negated
		}
		switch {
		case v == "-delete":
			f.Delete = true
		case v == "-prune":
			f.Prune = true
		case v == "-o" || v == "-or":
			f.Or = true
		case findNameTests[v] && i+1 < len(args):
			neg := false
			if i > to {
				prev, known := lit(i - 1)
				neg = known && (prev == "!" || prev == "-not")
			}
			f.Names = append(f.Names, FindName{Test: v, Pattern: args[i+1], Negated: neg})
			i++
		case v == "-fprint" || v == "-fprint0" || v == "-fls" || v == "-fprintf":
			if i+1 < len(args) {
				f.Outputs = append(f.Outputs, args[i+1])
				i++
			}
		case IsFindExec(v):
			end := FindExecEnd(len(args), i+1, lit)
			f.Execs = append(f.Execs, FindExec{Action: v, Argv: args[i+1 : end : end]})
			i = end
		}
	}
	f.ByAttributes = !picks
	return f
}
