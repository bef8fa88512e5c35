package cmdfacts

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Globs that reach a repository's .git: a shell glob only matches names
// starting with a dot when its own text starts with one, unless the
// shell's dotglob is on (bash: shopt -s dotglob, or GLOBIGNORE set to
// something; zsh: setopt globdots) or a zsh glob qualifier says so
// (*(D)). Deleting every plain entry of a directory and every dot entry
// is deleting all of it, .git included.

// ShellGlobMatch reports whether the shell glob glob (one path segment:
// * ? [...] [!...] [^...]) matches name, as the shell matches it: a
// leading dot must be matched by a literal one unless dotglob is set. A
// bad pattern matches nothing.
func ShellGlobMatch(glob, name string, dotglob bool) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(glob, ".") && !dotglob {
		return false
	}
	if name == "." || name == ".." {
		return glob == name
	}
	ok, err := path.Match(bangClass(glob), name)
	return err == nil && ok
}

// bangClass rewrites the shell's negated bracket [!...] to the [^...]
// path.Match reads.
func bangClass(glob string) string {
	if !strings.Contains(glob, "[!") {
		return glob
	}
	return strings.ReplaceAll(glob, "[!", "[^")
}

// plainNames and dotNames are the names a glob must match to cover every
// plain entry, and every dot entry, of a directory.
var (
	plainNames = []string{"src", "README.md", "main.go", "Makefile", "a", "Z", "0", "_x", "x-y", "node_modules"}
	dotNames   = []string{".git", ".env", ".cache", ".github"}
)

// GlobCovers reports whether a path segment, a shell glob, matches every
// plain entry of its directory (plain) and every dot entry (dots) but "."
// and "..". dotglob is the shell's setting; a zsh qualifier list at the
// end ("*(D)", "*(N)", "*(ND)") is read: D turns dotglob on for the glob.
// A segment without glob characters covers nothing.
func GlobCovers(seg string, dotglob bool) (plain, dots bool) {
	if q, ok := zshQualifiers(seg); ok {
		seg = seg[:len(seg)-len(q)-2]
		dotglob = dotglob || strings.Contains(q, "D")
	}
	if !strings.ContainsAny(seg, "*?[") {
		return false, false
	}
	plain, dots = true, true
	for _, n := range plainNames {
		plain = plain && ShellGlobMatch(seg, n, dotglob)
	}
	for _, n := range dotNames {
		dots = dots && ShellGlobMatch(seg, n, dotglob)
	}
	return plain, dots
}

// zshQualifiers returns the qualifier letters of a zsh glob ending in
// "(...)" (letters only: "*(D)", "*(.N)"), and whether it has such a list.
func zshQualifiers(seg string) (string, bool) {
	if !strings.HasSuffix(seg, ")") {
		return "", false
	}
	open := strings.LastIndexByte(seg, '(')
	if open <= 0 || !strings.ContainsAny(seg[:open], "*?[") {
		return "", false
	}
	q := seg[open+1 : len(seg)-1]
	for i := 0; i < len(q); i++ {
		if !strings.ContainsRune("/.@=p*%rwxAIERWXsStfedDNnoOLUG^-:+", rune(q[i])) {
			return "", false
		}
	}
	return q, q != ""
}

// DotGlobSetting reports whether a command turns the shell's dotglob on
// or off for the commands after it: bash's shopt -s/-u dotglob, an
// assignment or export of GLOBIGNORE (non-empty: on, as bash documents;
// empty or unset: off), zsh's setopt/unsetopt globdots (any case,
// underscores ignored, a "no" prefix inverting it). set is false when it
// does neither.
func DotGlobSetting(c *ir.Command) (set, on bool) {
	if len(c.Args) == 0 {
		for _, a := range c.Assigns {
			if a.Name == "GLOBIGNORE" {
				set, on = true, a.Value.Unknown || a.Value.Value != ""
			}
		}
		return set, on
	}
	args := c.Args[1:]
	switch c.Name {
	case "shopt":
		mode := ""
		for _, a := range args {
			switch {
			case a.Unknown:
			case a.Value == "-s" || a.Value == "-u":
				mode = a.Value
			case a.Value == "dotglob" && mode != "":
				set, on = true, mode == "-s"
			}
		}
	case "setopt", "unsetopt":
		for _, a := range args {
			if a.Unknown {
				continue
			}
			name := strings.ToLower(strings.ReplaceAll(a.Value, "_", ""))
			neg := c.Name == "unsetopt"
			if n, ok := strings.CutPrefix(name, "no"); ok && n == "globdots" {
				name, neg = n, !neg
			}
			if name == "globdots" {
				set, on = true, !neg
			}
		}
	case "export", "declare", "typeset", "readonly", "local":
		for _, a := range args {
			if n, val, ok := strings.Cut(a.Value, "="); ok && n == "GLOBIGNORE" {
				set, on = true, a.Unknown || val != ""
			}
		}
	case "unset":
		for _, a := range args {
			if !a.Unknown && a.Value == "GLOBIGNORE" {
				set, on = true, false
			}
		}
	}
	return set, on
}
