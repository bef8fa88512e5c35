package paths

import "strings"

// Contains reports whether target is root or lies below it, lexically:
// both must be absolute and of the same kind (a Windows path is never
// inside a Unix root, nor the reverse), and the match must end on a
// separator boundary, so /home/user2 is not inside /home/user. Comparison
// ignores case on Windows and darwin. It does not touch the filesystem:
// pass RealPath results (IsWritable does) to see through symlinks.
// Cost: one string comparison, no allocation.
func (p Platform) Contains(root, target Path) bool {
	if root.Kind != target.Kind || !root.wellFormed() || !target.wellFormed() {
		return false
	}
	r, t := root.Norm, target.Norm
	if len(t) < len(r) {
		return false
	}
	head := t[:len(r)]
	if p.foldCase() {
		if !strings.EqualFold(head, r) {
			return false
		}
	} else if head != r {
		return false
	}
	if len(t) == len(r) {
		return true
	}
	sep := byte('\\')
	if root.Kind == Unix {
		sep = '/'
	}
	return r[len(r)-1] == sep || t[len(r)] == sep
}

// IsWritable reports whether a write to target stays inside the writable
// roots: the null device and the Unix stream devices (/dev/stdout,
// /dev/stderr, /dev/tty, /dev/fd/N, /dev/zero) always are; a Relative,
// Unresolved or Empty target never is (join it onto the working directory
// first; an unknown target is not known to be safe); anything else is
// resolved with RealPath, so a symlink inside a root that points outside
// makes the target outside, and must then lie inside one of roots.
//
// roots should be real paths, as WritableRoots returns them (or their Norm
// strings passed through Clean). Cost: RealPath's system calls plus one
// Contains per root.
func (p Platform) IsWritable(target Path, roots []Path) bool {
	if target.Kind == Null || isStreamDevice(target) {
		return true
	}
	if !target.wellFormed() {
		return false
	}
	real := p.RealPath(target)
	if real.Kind == Null {
		return true
	}
	for _, root := range roots {
		if p.Contains(root, real) {
			return true
		}
	}
	return false
}

func isStreamDevice(x Path) bool {
	if x.Kind != Unix || !strings.HasPrefix(x.Norm, "/dev/") {
		return false
	}
	rest := x.Norm[len("/dev/"):]
	switch rest {
	case "stdout", "stderr", "tty", "zero":
		return true
	}
	// A numbered terminal or pseudo-terminal (/dev/tty3, /dev/pts/0), a
	// descriptor (/dev/fd/N), and bash's network redirections
	// (/dev/tcp/HOST/PORT, /dev/udp/HOST/PORT: bash opens a socket, no
	// file is written).
	for _, pre := range []string{"fd/", "pts/", "tty"} {
		if n, ok := strings.CutPrefix(rest, pre); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return true
		}
	}
	return strings.HasPrefix(rest, "tcp/") || strings.HasPrefix(rest, "udp/")
}
