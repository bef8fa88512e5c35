package cmdfacts

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// GitWrite is a place a git subcommand writes that its arguments name:
// a file or directory given by an option (format-patch -o, diff
// --output), an operand (bundle create FILE, merge-file CURRENT), or the
// prefix checkout-index and read-tree put the index's entries under.
type GitWrite struct {
	Path ir.Word
	// Members: the command writes entries it does not name below Path
	// (the index's, checkout-index -a --prefix=DIR/).
	Members bool
	// NamePrefix, with Members: the entries land in Path as names that
	// begin with it (checkout-index -a --prefix=out/x- writes
	// out/x-<entry>: Path "out", NamePrefix "x-"); "" when they land
	// below Path as they are.
	NamePrefix string
}

// gitOutputOptions are the options whose value names a file or a
// directory the subcommand writes (its option table is in gitOptSpecs).
var gitOutputOptions = map[string][]string{
	"format-patch": {"output-directory", "output"},
	"diff":         {"output"}, "log": {"output"}, "show": {"output"}, "whatchanged": {"output"},
	"diff-tree": {"output"}, "diff-index": {"output"}, "diff-files": {"output"}, "range-diff": {"output"},
	"bugreport": {"output-directory"}, "diagnose": {"output-directory"},
	"fast-export": {"export-marks"}, "fast-import": {"export-marks"},
	"index-pack": {"o"},
}

// gitOutputOperands are the operands (by position, after the options)
// that name a file or directory the subcommand writes.
var gitOutputOperands = map[string]int{
	"bundle create": 0, // git bundle create FILE REV-LIST-ARGS
	"merge-file":    0, // git merge-file CURRENT BASE OTHER writes CURRENT (not with -p)
	"worktree move": 1, // git worktree move WORKTREE NEW-PATH
	"submodule add": 1, // git submodule add REPO [PATH] clones into PATH
}

// GitWriteKeys lists the subcommands GitWrites knows ("bundle create" for
// a subcommand's own subcommand, as GitSubSub gives it).
func GitWriteKeys() []string {
	out := []string{"checkout-index", "read-tree"}
	for k := range gitOutputOptions {
		out = append(out, k)
	}
	for k := range gitOutputOperands {
		out = append(out, k)
	}
	return out
}

// GitWrites lists the places git subcommand sub writes that args name
// (see GitWrite), sub as ParseGit gives it and args what follows it.
// Relative paths are relative to the directory git runs in (-C). A
// command that only prints (-h, merge-file -p) writes none. Cost: one
// ParseGitArgs.
func GitWrites(sub string, args []ir.Word) []GitWrite {
	key, rest := GitSubSub(sub, args)
	p, ok := ParseGitArgs(key, rest)
	if !ok || p.Exits {
		return nil
	}
	var out []GitWrite
	for _, name := range gitOutputOptions[key] {
		for _, o := range p.Opts {
			if o.Name == name && !o.Neg && o.Value != nil && o.Value.Value != "-" {
				out = append(out, GitWrite{Path: *o.Value})
			}
		}
	}
	if i, ok := gitOutputOperands[key]; ok && i < len(p.Operands) && !(key == "merge-file" && p.On("stdout")) {
		out = append(out, GitWrite{Path: p.Operands[i]})
	}
	switch key {
	case "checkout-index":
		out = append(out, checkoutIndexWrites(p)...)
	case "read-tree":
		// -u updates the work tree: with --prefix the tree's entries are
		// written below the prefix.
		if o, found := p.Last("prefix"); found && o.Value != nil && p.On("u") && !p.On("dry-run") {
			if w, ok := prefixWrite(*o.Value); ok {
				out = append(out, w)
			}
		}
	}
	return out
}

// checkoutIndexWrites: the files checkout-index writes. Without --prefix
// the named paths (-a and --stdin restore the index's entries to the work
// tree, as git checkout does: not named here); with --prefix=P each named
// path's copy P+path, and with -a or --stdin every entry below P (git
// joins P and the entry's path as strings: --prefix=.gi turns t/hooks/x
// into .git/hooks/x).
func checkoutIndexWrites(p GitArgs) []GitWrite {
	o, prefixed := p.Last("prefix")
	if !prefixed || o.Value == nil || sameDir(*o.Value) {
		out := make([]GitWrite, 0, len(p.Operands))
		for _, w := range p.Operands {
			out = append(out, GitWrite{Path: w})
		}
		return out
	}
	prefix := *o.Value
	var out []GitWrite
	for _, w := range p.Operands {
		out = append(out, GitWrite{Path: concatWords(prefix, w)})
	}
	if p.On("all") || p.On("stdin") {
		if w, ok := prefixWrite(prefix); ok {
			out = append(out, w)
		}
	}
	return out
}

// sameDir reports whether a checkout-index prefix leaves the paths as
// they are ("", "./").
func sameDir(w ir.Word) bool {
	return !w.Unknown && (w.Value == "" || strings.HasSuffix(w.Value, "/") && path.Clean(w.Value) == ".")
}

// prefixWrite is the members write of entries put below prefix: the
// prefix itself when it ends in "/", else its directory with the rest as
// the start of every name. A prefix with an unknown part is written as
// it is (the caller judges the unknown word).
func prefixWrite(prefix ir.Word) (GitWrite, bool) {
	if prefix.Unknown || strings.HasSuffix(prefix.Value, "/") {
		return GitWrite{Path: prefix, Members: true}, true
	}
	if prefix.Value == "" {
		return GitWrite{}, false
	}
	dir, name := path.Split(prefix.Value)
	if dir == "" {
		dir = "."
	}
	return GitWrite{Path: Literal(dir), Members: true, NamePrefix: name}, true
}

// concatWords is a+b as one word, unknown when either part is.
func concatWords(a, b ir.Word) ir.Word {
	out := ir.Word{Value: a.Value + b.Value, Raw: a.Raw + b.Raw, Unknown: a.Unknown || b.Unknown, Glob: a.Glob || b.Glob}
	switch {
	case !out.Unknown:
		out.KnownPrefix = out.Value
	case a.Unknown:
		out.KnownPrefix = a.KnownPrefix
	default:
		out.KnownPrefix = a.Value + b.KnownPrefix
	}
	return out
}
