package paths

import "strings"

// Normalize turns one path string, as written in a command or a tool call,
// into a Path. In order:
//
//  1. Expansion. "~", "~/x" and "~\x" become Home + the rest ("~user",
//     "~+" and "~-" are Unresolved). $NAME, ${NAME}, %NAME% and PowerShell's
//     $env:NAME / ${env:NAME} are looked up (Platform.Lookup; $HOME falls
//     back to Home). An undefined variable, a special parameter ($1, $?,
//     $$ ...), $(...), ${NAME:-x}-style operators, %NAME:~...% and batch
//     parameters (%~dp0, %*) make the whole result Unresolved. Values are inserted literally; a result
//     that would expand again (a value holding "$X", "%A" followed by
//     $V = "B%") is Unresolved too. A "$" or "%" that starts no variable is
//     kept.
//  2. A value that brought in ';' or a line break (a list, not a path), or a
//     result holding a line break, is Unresolved. A literal ';' typed in the
//     path itself is an ordinary character.
//  3. Classification and folding as Clean describes.
//
// Normalize is idempotent on its own output: Normalize(x.Norm) has x's Kind
// and Norm (for Unresolved, Norm is the raw input).
// Cost: no allocation for an already clean path without variables; one or
// two small ones otherwise.
func (p Platform) Normalize(s string) Path {
	x, ok := p.expand(s)
	if !ok {
		return unresolved(s)
	}
	if x == "" {
		return Path{Raw: s}
	}
	if strings.ContainsAny(x, "\r\n") {
		return unresolved(s)
	}
	r := p.classify(x, 0)
	r.Raw = s
	if r.Kind == Unresolved {
		r.Norm = s
	}
	return r
}

// Clean classifies and folds a path string that is already literal (a real
// path, a project root, a root handed over by the host) without expanding
// anything: "~", "$" and "%" are ordinary characters here. Rules:
//
//   - Two leading separators then a name ("\\srv\share", "//srv/share",
//     on Windows mixed ones too) is UNC; "\\?\C:\x" and "\\.\C:\x" are Drive,
//     "\\?\UNC\srv\share" is UNC \\srv\share, "\\.\NUL" is Null. A UNC
//     path with server ".." or an empty server is Unresolved.
//   - "X:", "X:\..." and "X:/..." are Drive on every platform, letter
//     upper-cased; bare "X:" is the drive root "X:\". "X:foo" is Relative
//     (drive-relative on Windows, a plain file name elsewhere).
//   - A leading "/" is Unix, except: "/c" and "/c/..." (one letter: MSYS)
//     and "/cygdrive/c/..." are Drive C:\... on every platform;
//     "/dev/null" is Null; on Windows "/tmp/..." becomes TEMP (else TMP,
//     else TempDir) + the rest. These rules look at the folded path, so
//     "/x/../c/y" is C:\y, and "/c/../etc" is /etc (".." leaves the MSYS
//     drive for the MSYS root).
//   - On Windows "\foo" is Relative rooted at the current drive, and NUL is
//     Null. Anything else is Relative.
//   - Folding: duplicate, trailing and "." segments go; ".." removes the
//     previous segment and stops at the root of absolute paths (kept at the
//     front of Relative ones). Backslash separates segments on Windows and
//     in Drive/UNC paths everywhere; on Unix it is an ordinary character of
//     Unix and Relative paths. Drive/UNC segments lose trailing dots and
//     spaces, as Windows strips them ("C:\Windows." is C:\Windows).
//   - A Relative result whose first segment would read as something else
//     ("~x", "C:", "\\x") gets a "./" (".\" on Windows) prefix.
//   - A string past the platform's path limit (see TooLong), or a path of
//     more than MaxComponents components, is Unresolved: no system call
//     would accept it, and nothing walks it.
func (p Platform) Clean(s string) Path {
	if s == "" {
		return Path{}
	}
	r := p.classify(s, 0)
	r.Raw = s
	if r.Kind == Unresolved {
		r.Norm = s
	}
	return r
}

// classify flags.
const (
	noTempMap = 1 << iota // do not map /tmp to TEMP again
	noDevice              // do not unwrap \\?\ and \\.\ again
)

func (p Platform) classify(s string, flags int) Path {
	if p.TooLong(s) {
		return Path{Kind: Unresolved}
	}
	win := p.windows()
	switch {
	case len(s) >= 2 && isSlash(s[0]) && (s[1] == s[0] || (win && isSlash(s[1]))):
		if len(s) > 2 && !isSlash(s[2]) {
			return p.unc(s[2:], flags)
		}
		if s[0] == '/' {
			return p.unix(s, flags) // "//" or "///x": the Unix root
		}
		if win {
			return Path{Kind: Unresolved}
		}
		return p.relative(s)
	case len(s) >= 2 && isLetter(s[0]) && s[1] == ':':
		if len(s) == 2 || isSlash(s[2]) {
			return p.drive(upper(s[0]), s[2:], s)
		}
		if win {
			return p.driveRelative(upper(s[0]), s[2:], s)
		}
		return p.relative(s)
	case s[0] == '/':
		return p.unix(s, flags)
	case win && s[0] == '\\':
		return p.rootedRelative(s)
	}
	return p.relative(s)
}

// unix handles a path that starts with "/".
func (p Platform) unix(s string, flags int) Path {
	win := p.windows()
	var rawBuf, foldBuf [32]string
	raw := splitSegs(rawBuf[:0], s, win, false)

	// MSYS /c/..., Cygwin /cygdrive/c/..., Windows /tmp/..., first on the
	// unfolded segments so a later ".." keeps its real-path meaning.
	if letter, n := msysPrefix(raw); n > 0 && !climbsOut(raw[n:]) {
		return p.drive(letter, joinSegs("/", raw[n:], '/'), "")
	}
	if win && flags&noTempMap == 0 && len(raw) > 0 && strings.EqualFold(raw[0], "tmp") && !climbsOut(raw[1:]) {
		if t := p.tempValue(); t != "" {
			return p.classify(joinSegs(t+"/", raw[1:], '/'), flags|noTempMap)
		}
	}

	// The same on the folded segments ("/x/../c/y", "/../c"), where no
	// symlink is left to cross.
	f, popped := foldSegs(foldBuf[:0], raw, false)
	if letter, n := msysPrefix(f); n > 0 {
		return p.drive(letter, joinSegs("/", f[n:], '/'), "")
	}
	if win && flags&noTempMap == 0 && len(f) > 0 && strings.EqualFold(f[0], "tmp") {
		if t := p.tempValue(); t != "" {
			return p.classify(joinSegs(t+"/", f[1:], '/'), flags|noTempMap)
		}
	}
	if len(f) >= 2 && f[0] == "dev" && f[1] == "null" {
		return p.null()
	}
	if tooDeep(raw, f) {
		return Path{Kind: Unresolved}
	}
	out := Path{Kind: Unix, Norm: buildPath(s, "/", f, '/')}
	if popped {
		out.walk = joinSegs("/", raw, '/')
	}
	return out
}

// drive handles "X:" + rest, rest being "" or starting with a separator;
// orig is the whole original string if there is one (to avoid copying).
func (p Platform) drive(letter byte, rest, orig string) Path {
	var rawBuf, foldBuf [32]string
	raw := splitSegs(rawBuf[:0], rest, true, true)
	f, popped := foldSegs(foldBuf[:0], raw, false)
	if tooDeep(raw, f) {
		return Path{Kind: Unresolved}
	}
	prefix := driveRoot(letter)
	out := Path{Kind: Drive, Norm: buildPath(orig, prefix, f, '\\')}
	if popped {
		out.walk = joinSegs(prefix, raw, '\\')
	}
	return out
}

// unc handles what follows the two leading separators of a UNC path.
func (p Platform) unc(rest string, flags int) Path {
	server, tail := cutSep(rest)
	var segBuf, foldBuf [32]string
	segs := splitSegs(segBuf[:0], tail, true, true)
	device := server == "?" || server == "."
	if device && flags&noDevice == 0 && len(segs) > 0 {
		switch first := segs[0]; {
		case len(first) == 2 && isLetter(first[0]) && first[1] == ':':
			return p.drive(upper(first[0]), joinSegs(`\`, segs[1:], '\\'), "")
		case strings.EqualFold(first, "UNC") && len(segs) > 1:
			return p.unc(joinSegs("", segs[1:], '\\'), flags|noDevice)
		case server == "." && len(segs) == 1 && strings.EqualFold(first, "NUL"):
			return p.null()
		}
	}
	if device && flags&noDevice != 0 {
		return Path{Kind: Unresolved} // \\?\UNC\?\...: a device inside a device
	}
	if !device {
		server = stripWinSeg(server)
		if server == "" || server == ".." {
			return Path{Kind: Unresolved}
		}
	}
	for len(segs) > 0 && segs[0] == ".." {
		segs = segs[1:]
	}
	if len(segs) == 0 {
		return Path{Kind: UNC, Norm: `\\` + server}
	}
	f, _ := foldSegs(foldBuf[:0], segs[1:], false)
	if tooDeep(segs, f) {
		return Path{Kind: Unresolved}
	}
	return Path{Kind: UNC, Norm: buildUNC(server, segs[0], f)}
}

func buildUNC(server, share string, f []string) string {
	if len(f) == 0 {
		return `\\` + server + `\` + share
	}
	return joinSegs(`\\`+server+`\`+share+`\`, f, '\\')
}

// driveRelative handles Windows "X:foo" (relative to drive X's current
// directory).
func (p Platform) driveRelative(letter byte, rest, orig string) Path {
	var rawBuf, foldBuf [32]string
	raw := splitSegs(rawBuf[:0], rest, true, true)
	f, popped := foldSegs(foldBuf[:0], raw, true)
	prefix := driveRoot(letter)[:2]
	out := Path{Kind: Relative}
	if len(f) == 0 {
		out.Norm = prefix + "."
	} else {
		out.Norm = buildPath(orig, prefix, f, '\\')
	}
	if popped {
		out.walk = joinSegs(prefix, raw, '\\')
	}
	return out
}

// rootedRelative handles Windows "\foo" (rooted at the current drive).
func (p Platform) rootedRelative(s string) Path {
	var rawBuf, foldBuf [32]string
	raw := splitSegs(rawBuf[:0], s, true, true)
	f, popped := foldSegs(foldBuf[:0], raw, false)
	out := Path{Kind: Relative, Norm: buildPath(s, `\`, f, '\\')}
	if popped {
		out.walk = joinSegs(`\`, raw, '\\')
	}
	return out
}

// relative handles a path with no root.
func (p Platform) relative(s string) Path {
	win := p.windows()
	sep := byte('/')
	if win {
		sep = '\\'
	}
	var rawBuf, foldBuf [32]string
	raw := splitSegs(rawBuf[:0], s, win, win)
	f, popped := foldSegs(foldBuf[:0], raw, true)
	if tooDeep(raw, f) {
		return Path{Kind: Unresolved}
	}
	if win && len(f) == 1 && (strings.EqualFold(f[0], "NUL") || strings.EqualFold(f[0], "NUL:")) {
		return p.null()
	}
	out := Path{Kind: Relative}
	switch {
	case len(f) == 0:
		out.Norm = "."
	case needsDotPrefix(f[0], win):
		out.Norm = joinSegs("."+string(sep), f, sep)
	default:
		out.Norm = buildPath(s, "", f, sep)
	}
	if popped {
		out.walk = joinSegs("", raw, sep)
	}
	return out
}

func (p Platform) null() Path {
	if p.windows() {
		return Path{Kind: Null, Norm: "NUL"}
	}
	return Path{Kind: Null, Norm: "/dev/null"}
}

// tempValue is what /tmp means on Windows.
func (p Platform) tempValue() string {
	for _, name := range [...]string{"TEMP", "TMP"} {
		if v, ok := p.lookup(name); ok && v != "" && !strings.ContainsAny(v, ";\r\n") {
			return v
		}
	}
	return p.TempDir
}

// msysPrefix recognises "/c/..." (one ASCII letter) and "/cygdrive/c/...":
// it returns the upper-case drive letter and how many segments it used.
func msysPrefix(segs []string) (byte, int) {
	if len(segs) == 0 {
		return 0, 0
	}
	if len(segs[0]) == 1 && isLetter(segs[0][0]) {
		return upper(segs[0][0]), 1
	}
	if segs[0] == "cygdrive" && len(segs) > 1 && len(segs[1]) == 1 && isLetter(segs[1][0]) {
		return upper(segs[1][0]), 2
	}
	return 0, 0
}

// climbsOut reports whether ".." in segs would climb above their start.
func climbsOut(segs []string) bool {
	depth := 0
	for _, s := range segs {
		if s == ".." {
			if depth == 0 {
				return true
			}
			depth--
		} else {
			depth++
		}
	}
	return false
}

// splitSegs appends the segments of s to dst, dropping empty and "."
// segments. Separators are '/' and, with backslash, '\'. With strip, the
// Windows rule applies: trailing dots and spaces leave each segment ("..",
// possibly followed by spaces, is ".."; any other segment of only dots and
// spaces vanishes).
func splitSegs(dst []string, s string, backslash, strip bool) []string {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && !(s[i] == '/' || (backslash && s[i] == '\\')) {
			continue
		}
		seg := s[start:i]
		start = i + 1
		if seg == "" || seg == "." {
			continue
		}
		if strip && seg != ".." {
			t := stripWinSeg(seg)
			if t == "" {
				if strings.TrimRight(seg, " ") == ".." {
					dst = append(dst, "..")
				}
				continue
			}
			seg = t
		}
		dst = append(dst, seg)
	}
	return dst
}

// foldSegs appends segs to dst applying "..". An excess ".." is kept when
// keepExcess (relative paths), else dropped (the root's parent is the root).
// popped reports whether a ".." removed a segment.
func foldSegs(dst, segs []string, keepExcess bool) (out []string, popped bool) {
	for _, s := range segs {
		if s != ".." {
			dst = append(dst, s)
			continue
		}
		if n := len(dst); n > 0 && dst[n-1] != ".." {
			dst = dst[:n-1]
			popped = true
		} else if keepExcess {
			dst = append(dst, "..")
		}
	}
	return dst, popped
}

// joinSegs returns prefix + segs joined by sep, in one allocation.
func joinSegs(prefix string, segs []string, sep byte) string {
	n := len(prefix)
	for i, s := range segs {
		if i > 0 {
			n++
		}
		n += len(s)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(prefix)
	for i, s := range segs {
		if i > 0 {
			b.WriteByte(sep)
		}
		b.WriteString(s)
	}
	return b.String()
}

// buildPath is joinSegs that returns orig itself when it already has that
// exact form (the common case: no allocation).
func buildPath(orig, prefix string, segs []string, sep byte) string {
	if sameJoin(orig, prefix, segs, sep) {
		return orig
	}
	return joinSegs(prefix, segs, sep)
}

func sameJoin(s, prefix string, segs []string, sep byte) bool {
	if !strings.HasPrefix(s, prefix) {
		return false
	}
	s = s[len(prefix):]
	for i, seg := range segs {
		if i > 0 {
			if s == "" || s[0] != sep {
				return false
			}
			s = s[1:]
		}
		if !strings.HasPrefix(s, seg) {
			return false
		}
		s = s[len(seg):]
	}
	return s == ""
}

var driveRoots = func() (t [26]string) {
	for i := range t {
		t[i] = string([]byte{byte('A' + i), ':', '\\'})
	}
	return t
}()

// driveRoot returns "X:\" for an upper-case ASCII letter.
func driveRoot(letter byte) string { return driveRoots[letter-'A'] }

// needsDotPrefix: a relative path starting with seg would read as
// something else (a tilde, UNC or drive path; on Windows also a
// drive-relative one).
func needsDotPrefix(seg string, win bool) bool {
	return seg[0] == '~' || seg[0] == '\\' ||
		(len(seg) >= 2 && isLetter(seg[0]) && seg[1] == ':' && (win || len(seg) == 2 || isSlash(seg[2])))
}

func stripWinSeg(s string) string { return strings.TrimRight(s, ". ") }

func cutSep(s string) (before, after string) {
	for i := 0; i < len(s); i++ {
		if isSlash(s[i]) {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

func onlySlashes(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSlash(s[i]) {
			return false
		}
	}
	return true
}

func isSlash(c byte) bool  { return c == '/' || c == '\\' }
func isLetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
func upper(c byte) byte    { return c &^ 0x20 }

// Path limits: a string longer than the platform's limit names nothing a
// system call accepts (ENAMETOOLONG), and no one writes a path of hundreds
// of components by hand. Normalize, Clean, Join and ChangeDir make such a
// path Unresolved, so that nothing (RealPath, the fence's symlink walk, a
// cd chain) spends more than O(limit) on one path.
const (
	// MaxUnixPath is PATH_MAX on Linux and about the limit elsewhere.
	MaxUnixPath = 4096
	// MaxWindowsPath is the longest path Windows accepts (with \\?\).
	MaxWindowsPath = 32767
	// MaxComponents bounds the components of a path once "." and ".." are
	// folded; as written (the form RealPath walks, ".." kept) a path may
	// have four times as many.
	MaxComponents = 256
)

// TooLong reports whether s is longer than the platform's path limit:
// MaxUnixPath bytes, MaxWindowsPath on Windows. Cost: O(1).
func (p Platform) TooLong(s string) bool {
	limit := MaxUnixPath
	if p.windows() {
		limit = MaxWindowsPath
	}
	return len(s) > limit
}

// tooDeep reports whether a path of segments raw (as written) folding to
// folded is past MaxComponents.
func tooDeep(raw, folded []string) bool {
	return len(folded) > MaxComponents || len(raw) > 4*MaxComponents
}
