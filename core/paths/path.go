package paths

// Kind classifies a normalised path.
type Kind uint8

const (
	// Empty: the input (after expansion) was "".
	Empty Kind = iota
	// Relative: needs a base directory (Platform.Join). On Windows this
	// includes drive-relative "C:foo" and current-drive-rooted "\foo".
	Relative
	// Unix: an absolute slash path, "/" or "/a/b".
	Unix
	// Drive: an absolute Windows drive path, "C:\" or "C:\a\b" (any
	// platform).
	Drive
	// UNC: a Windows network or device path, "\\srv", "\\srv\share\a"
	// (any platform).
	UNC
	// Null: the null device, /dev/null or NUL. Writing to it is harmless.
	Null
	// Unresolved: the text could not be turned into a path (an undefined
	// variable, ~user, $(...), a variable whose value holds ';' or a line
	// break, a malformed UNC name). Its meaning is unknown, not empty.
	Unresolved
)

var kindNames = [...]string{"empty", "relative", "unix", "drive", "unc", "null", "unresolved"}

// String returns the kind's lower-case name ("drive", "unc", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Path is one normalised path. Compare Paths with Platform.Contains, not
// with ==: case rules depend on the platform.
type Path struct {
	// Kind says what Norm is.
	Kind Kind
	// Norm is the normalised form:
	//   Unix:       "/" or "/a/b" (no "." or ".." segments, no duplicate
	//               or trailing slash; ".." at the root stays at the root).
	//   Drive:      "C:\" or "C:\a\b" (upper-case letter, backslashes,
	//               folded like Unix, trailing dots and spaces of each
	//               segment removed as Windows does).
	//   UNC:        "\\server", "\\server\share" or "\\server\share\a",
	//               folded below the share.
	//   Null:       "/dev/null", or "NUL" on Windows.
	//   Relative:   folded, leading ".." kept, "." for the base itself;
	//               Windows uses backslashes and keeps "C:" / "\" prefixes.
	//   Unresolved: the raw input, unchanged (for messages).
	//   Empty:      "".
	// Glob characters (* ? [) are kept as written.
	Norm string
	// Raw is the string the caller passed in.
	Raw string

	// walk is the absolute form with ".." segments not yet folded, set only
	// when folding removed a segment: "proj/link/../x" must be resolved
	// through link before ".." applies, or a symlink escapes the fence.
	walk string
}

// IsAbs reports whether p is an absolute path (Unix, Drive or UNC).
func (p Path) IsAbs() bool { return p.Kind == Unix || p.Kind == Drive || p.Kind == UNC }

// wellFormed reports whether p is absolute and its Norm has the shape its
// Kind promises (always true for Paths made by this package; a Path built
// by hand may lie, and must not make anything panic).
func (p Path) wellFormed() bool {
	n := p.Norm
	switch p.Kind {
	case Unix:
		return n != "" && n[0] == '/'
	case Drive:
		return len(n) >= 3 && isLetter(n[0]) && n[1] == ':' && n[2] == '\\'
	case UNC:
		return len(n) >= 3 && n[0] == '\\' && n[1] == '\\'
	}
	return false
}

// Lexical returns the form of p that RealPath walks: Norm, or, when folding
// ".." removed a segment, the absolute form with the ".." segments kept
// (so "proj/link/../x" and "proj/x" differ here though their Norm is the
// same). Use it as the key when caching what RealPath returns.
func (p Path) Lexical() string {
	if p.walk != "" {
		return p.walk
	}
	return p.Norm
}

// IsWindows reports whether p is a Drive or UNC path.
func (p Path) IsWindows() bool { return p.Kind == Drive || p.Kind == UNC }

// String returns Norm.
func (p Path) String() string { return p.Norm }

func unresolved(raw string) Path { return Path{Kind: Unresolved, Norm: raw, Raw: raw} }
