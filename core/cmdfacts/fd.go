package cmdfacts

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// fd (fdfind on Debian and Ubuntu) reads: fd [options] [pattern] [path...]
// with the options anywhere before -x/-X. -x/--exec COMMAND runs COMMAND
// per result, -X/--exec-batch COMMAND once with all of them; the command
// takes every word up to a ";" word (or the end), and the placeholders
// {} {/} {//} {.} {/.} stand for the result (no placeholder: "{}" is
// appended). The pattern is a regular expression searched in the base
// name (in the absolute path with -p/--full-path), a glob with -g/--glob,
// a substring with -F/--fixed-strings; it is case-insensitive unless it
// holds an upper-case letter (-s/-i force either way). Hidden entries are
// skipped unless -H/--hidden or -u/--unrestricted.
//
// Since fd 9 .git itself stays out even with -H, unless -I/--no-ignore or
// --no-ignore-vcs; older releases (still shipped as fdfind by LTS
// distributions) list it with -H alone. The facts here read the older
// behaviour: the layer cannot tell which fd runs.

// fdSpec are fd's options that take a value (-x/-X/--exec/--exec-batch
// end the options: what follows is the command).
var fdSpec = Spec{Short: "edtEScjo", Long: []string{"extension", "type", "max-depth", "min-depth", "exact-depth",
	"exclude", "threads", "size", "changed-within", "changed-before", "change-newer-than", "change-older-than",
	"newer", "older", "changed-after", "owner", "base-directory", "search-path", "color", "ignore-file",
	"max-results", "path-separator", "batch-size", "and", "format"}}

// fdFilters are fd's options (short letter or long name) that leave some
// of what is below the search paths out: extensions, types, excludes,
// sizes, times, owners, extra patterns, ignore files and result limits.
var fdFilters = map[string]bool{"e": true, "extension": true, "t": true, "type": true, "E": true, "exclude": true,
	"S": true, "size": true, "changed-within": true, "changed-before": true, "change-newer-than": true,
	"change-older-than": true, "newer": true, "older": true, "changed-after": true, "o": true, "owner": true,
	"and": true, "ignore-file": true, "max-results": true, "1": true}

// maxFdPattern bounds the pattern fd facts compile (longer: unreadable).
const maxFdPattern = 512

// IsFdExec reports whether v is an fd option that runs a command on the
// matches.
func IsFdExec(v string) bool {
	return v == "-x" || v == "--exec" || v == "-X" || v == "--exec-batch"
}

// Fd is an fd command line read the way fd reads it.
type Fd struct {
	// Roots are the search paths: the operands after the pattern and the
	// --search-path values; "." when none.
	Roots []ir.Word
	// Pattern is the search pattern; nil when none is given (fd then
	// lists everything).
	Pattern *ir.Word
	// Glob, Fixed and FullPath are -g/--glob, -F/--fixed-strings and
	// -p/--full-path (the last of --glob and --regex wins).
	Glob, Fixed, FullPath bool
	// Sensitive is the case sensitivity: 's' (-s), 'i' (-i), 0 (smart).
	Sensitive byte
	// Hidden is set when hidden entries are searched (-H, --hidden, -u,
	// --unrestricted; a later --no-hidden clears it).
	Hidden bool
	// Filtered is set when an option leaves some entries out (fdFilters),
	// or a depth option starts below the first level or stops before it.
	Filtered bool
	// Types are the -t/--type values, Excludes the -E/--exclude globs,
	// Extensions the -e/--extension values, Ands the --and patterns.
	Types, Excludes, Extensions, Ands []ir.Word
	// Sized is set by -S/--size, which only files pass.
	Sized bool
	// Execs are the commands of -x/-X, in order.
	Execs []FdExec
}

// FdExec is one command fd runs on what it finds.
type FdExec struct {
	// Batch is set for -X/--exec-batch.
	Batch bool
	// Argv is the command as written, without its ";" terminator.
	Argv []ir.Word
}

// fdPlaceholders are the words fd replaces by a path derived from a
// result (the whole path, the base name, the parent, without extension).
var fdPlaceholders = map[string]bool{"{}": true, "{/}": true, "{//}": true, "{.}": true, "{/.}": true}

// IsFdPlaceholder reports whether a word of an fd -x/-X command is one
// of the placeholders fd replaces by a path derived from each result.
func IsFdPlaceholder(w string) bool { return fdPlaceholders[w] }

// ParseFd reads args, the words after "fd". Cost: linear in the words.
func ParseFd(args []ir.Word) Fd {
	var f Fd
	var opts []ir.Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown || !IsFdExec(a.Value) {
			opts = append(opts, a)
			continue
		}
		e := FdExec{Batch: a.Value == "-X" || a.Value == "--exec-batch"}
		for i++; i < len(args); i++ {
			if !args[i].Unknown && args[i].Value == ";" {
				break
			}
			e.Argv = append(e.Argv, args[i])
		}
		f.Execs = append(f.Execs, e)
	}
	p := ParseArgs(opts, fdSpec)
	for _, o := range p.Opts {
		switch o.Name {
		case "H", "hidden", "u", "unrestricted":
			f.Hidden = true
		case "no-hidden":
			f.Hidden = false
		case "g", "glob":
			f.Glob = true
		case "regex":
			f.Glob = false
		case "F", "fixed-strings":
			f.Fixed = true
		case "p", "full-path":
			f.FullPath = true
		case "s", "case-sensitive":
			f.Sensitive = 's'
		case "i", "ignore-case":
			f.Sensitive = 'i'
		case "t", "type":
			if o.Val != nil {
				f.Types = append(f.Types, *o.Val)
			}
		case "E", "exclude":
			if o.Val != nil {
				f.Excludes = append(f.Excludes, *o.Val)
			}
		case "e", "extension":
			if o.Val != nil {
				f.Extensions = append(f.Extensions, *o.Val)
			}
		case "and":
			if o.Val != nil {
				f.Ands = append(f.Ands, *o.Val)
			}
		case "S", "size":
			f.Sized = true
		case "min-depth", "exact-depth", "d", "max-depth":
			if o.Val == nil || o.Val.Unknown {
				f.Filtered = true
				continue
			}
			v := o.Val.Value
			if o.Name == "min-depth" || o.Name == "exact-depth" {
				f.Filtered = f.Filtered || v != "0" && v != "1"
			} else {
				f.Filtered = f.Filtered || v == "0"
			}
		}
		f.Filtered = f.Filtered || fdFilters[o.Name]
	}
	if len(p.Operands) > 0 {
		pat := p.Operands[0]
		f.Pattern = &pat
		f.Roots = p.Operands[1:]
	}
	f.Roots = append(f.Roots, p.Values("search-path")...)
	if len(f.Roots) == 0 {
		f.Roots = []ir.Word{Literal(".")}
	}
	if bases := p.Values("base-directory"); len(bases) > 0 {
		base := bases[len(bases)-1]
		for i, r := range f.Roots {
			switch {
			case r.Unknown || isAbsText(r.Value):
			case base.Unknown:
				f.Roots[i] = base
			case r.Value == ".":
				f.Roots[i] = Literal(base.Value)
			default:
				f.Roots[i] = Literal(strings.TrimRight(base.Value, `/\`) + "/" + r.Value)
			}
		}
	}
	return f
}

// isAbsText reports a path written absolute: /x, \x, C:\x, C:/x, ~, ~/x.
func isAbsText(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) || strings.HasPrefix(s, "~") ||
		len(s) >= 3 && s[1] == ':' && (s[2] == '/' || s[2] == '\\')
}

// FdRoots returns fd's search paths: the operands after the pattern and
// the --search-path values, before -x/-X; "." when none.
func FdRoots(args []ir.Word) []ir.Word { return ParseFd(args).Roots }

// Matcher returns the test fd's pattern applies to an entry: to its base
// name, or with FullPath to its absolute path. ok is false when the
// pattern cannot be read (unknown, too long, bad syntax).
func (f Fd) Matcher() (match func(name string) bool, ok bool) {
	if f.Pattern == nil {
		return func(string) bool { return true }, true
	}
	return f.matcher(*f.Pattern)
}

// matcher is Matcher for one pattern (the main one or an --and one).
func (f Fd) matcher(w ir.Word) (func(name string) bool, bool) {
	if w.Unknown || len(w.Value) > maxFdPattern {
		return nil, false
	}
	pat := w.Value
	fold := f.Sensitive == 'i' || f.Sensitive == 0 && !hasUpper(pat)
	if f.Fixed && !f.Glob {
		if fold {
			pat = strings.ToLower(pat)
			return func(name string) bool { return strings.Contains(strings.ToLower(name), pat) }, true
		}
		return func(name string) bool { return strings.Contains(name, pat) }, true
	}
	expr := pat
	if f.Glob {
		var ok bool
		if expr, ok = GlobRegexp(pat); !ok {
			return nil, false
		}
	}
	if fold {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, false
	}
	return re.MatchString, true
}

// hasUpper reports an upper-case letter in a pattern, outside a
// backslash escape (\S, \W are classes, not letters).
func hasUpper(pat string) bool {
	for i, r := range pat {
		if unicode.IsUpper(r) && (i == 0 || pat[i-1] != '\\') {
			return true
		}
	}
	return false
}

// fdAllNames are names of every sort an fd pattern must match to pick
// everything: plain, with extensions, capitals, digits, punctuation and
// dot entries.
var fdAllNames = []string{"src", "README.md", "main.go", "Makefile", "a", "Z", "0", "_x", "x-y", ".git", ".env"}

// PicksAll reports whether the pattern matches every name (no pattern, an
// empty one, ".", "^", ".*", "*" as a glob, ...); dir is the absolute
// search path the names sit in, for FullPath. Whether hidden entries are
// searched at all is Hidden's business.
func (f Fd) PicksAll(dir string) bool {
	match, ok := f.Matcher()
	if !ok {
		return false
	}
	for _, n := range fdAllNames {
		if f.FullPath {
			n = strings.TrimRight(dir, `/\`) + "/" + n
		}
		if !match(n) {
			return false
		}
	}
	return true
}

// PicksGitDir reports whether fd lists a repository's .git directory
// found in dir (an absolute search path, or a name for it): hidden
// entries are searched, the type, size and extension filters let it
// through (-e git does: fd reads .git's name as ending in .git), no
// exclude glob matches it, and the pattern and every --and pattern do.
func (f Fd) PicksGitDir(dir string) bool {
	if !f.Hidden || f.Sized {
		return false
	}
	if len(f.Extensions) > 0 {
		git := false
		for _, e := range f.Extensions {
			git = git || e.Unknown || strings.EqualFold(strings.TrimPrefix(e.Value, "."), "git")
		}
		if !git {
			return false
		}
	}
	if len(f.Types) > 0 {
		dirs := false
		for _, t := range f.Types {
			dirs = dirs || t.Unknown || t.Value == "d" || t.Value == "directory"
		}
		if !dirs {
			return false
		}
	}
	for _, e := range f.Excludes {
		if e.Unknown {
			continue
		}
		if expr, ok := GlobRegexp(strings.TrimSuffix(e.Value, "/")); ok {
			if re, err := regexp.Compile(expr); err == nil && re.MatchString(gitDirName) {
				return false
			}
		}
	}
	match, ok := f.Matcher()
	if !ok {
		return false
	}
	name := gitDirName
	if f.FullPath {
		name = strings.TrimRight(dir, `/\`) + "/" + gitDirName
	}
	if !match(name) {
		return false
	}
	for _, a := range f.Ands {
		if m, ok := f.matcher(a); ok && !m(name) {
			return false
		}
	}
	return true
}

// GlobRegexp translates a glob of the globset syntax fd uses (* ? [...]
// [!...] {a,b} **) into an anchored regular expression; ok is false for
// an unclosed bracket or brace.
func GlobRegexp(glob string) (string, bool) {
	var sb strings.Builder
	sb.WriteString("^")
	depth := 0
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				sb.WriteString(".*")
				i++
				continue
			}
			sb.WriteString("[^/]*")
		case '?':
			sb.WriteString("[^/]")
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end == 0 && i+2 < len(glob) { // []...] holds a ]
				end = strings.IndexByte(glob[i+2:], ']') + 1
			}
			if end <= 0 {
				return "", false
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			sb.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case '{':
			depth++
			sb.WriteString("(?:")
		case '}':
			if depth == 0 {
				return "", false
			}
			depth--
			sb.WriteString(")")
		case ',':
			if depth > 0 {
				sb.WriteString("|")
			} else {
				sb.WriteString(",")
			}
		case '\\':
			if i+1 < len(glob) {
				i++
				sb.WriteString(regexp.QuoteMeta(glob[i : i+1]))
			}
		default:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	if depth != 0 {
		return "", false
	}
	sb.WriteString("$")
	return sb.String(), true
}
