package cmdfacts

import (
	"path"
	"strings"
)

// How a git repository keeps its history on disk (gitrepository-layout):
// the metadata directory .git, and inside it the stores that git cannot
// rebuild once they are gone.

// gitDirName is the name of a working tree's metadata directory (a file,
// the "gitlink", in linked worktrees and submodules).
const gitDirName = ".git"

// gitHistoryStores are the entries of a metadata directory that hold the
// history and what recovers it: the object database, the refs (loose and
// packed) and the reflogs. Losing any of them loses commits for good;
// the rest (index.lock, rebase-merge/, modules/, FETCH_HEAD ...) is
// working state git rebuilds or the user deletes on purpose to unstick a
// command. hooks/ and config are the protected-path list's
// (core/protect).
var gitHistoryStores = []string{"objects", "refs", "logs", "packed-refs"}

// GitHistoryPath reports whether deleting the (normalised, "/" or "\"
// separated) path p throws away a git repository's history: p is a
// metadata directory (.git, also as a glob that matches it: .g*, .*), or
// one of its history stores or what is below one (.git/objects,
// .git/refs/original), or a glob that matches a store (.git/*). Letters
// are compared without case (.GIT is .git on Windows and macOS). Cost:
// linear in p.
func GitHistoryPath(p string) bool {
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' })
	for i, s := range segs {
		if !matchesFold(s, gitDirName) {
			continue
		}
		if i == len(segs)-1 {
			return true
		}
		for _, store := range gitHistoryStores {
			if matchesFold(segs[i+1], store) {
				return true
			}
		}
	}
	return false
}

// matchesFold reports whether the path segment seg, a name or a shell
// glob, matches name, letters compared without case. As the shell
// globs (no dotglob), a leading dot must be matched by a literal one: *
// is not .git, .* is. A bad pattern matches only itself.
func matchesFold(seg, name string) bool {
	if strings.EqualFold(seg, name) {
		return true
	}
	if !strings.ContainsAny(seg, "*?[") || strings.HasPrefix(name, ".") && !strings.HasPrefix(seg, ".") {
		return false
	}
	ok, err := path.Match(bangClass(strings.ToLower(seg)), name)
	return err == nil && ok
}
