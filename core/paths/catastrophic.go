package paths

import (
	"path"
	"strings"
	"sync/atomic"
)

// Labels returned by IsCatastrophic: short, stable English phrases a layer
// can show as they are or map to its own language.
const (
	LabelRoot         = "filesystem root"
	LabelDriveRoot    = "drive root"
	LabelShareRoot    = "network share root"
	LabelHome         = "home directory"
	LabelHomeAncestor = "ancestor of the home directory"
	LabelProfile      = "whole user profile"
	LabelVolume       = "mounted volume"
	LabelSystem       = "system directory"
)

// IsCatastrophic reports whether deleting or overwriting x as a whole
// would be a catastrophe, and a label saying why. Catastrophic are:
//
//   - the filesystem root, every drive root (C:\), every UNC server and
//     share root (\\srv, \\srv\share, \\?\Volume{...});
//   - the home directory (Platform.Home) and each of its ancestors;
//   - a whole user profile: /home/<one>, /Users/<one>, X:\Users\<one>
//     (Public and Shared included);
//   - the system directories listed in unixCatastrophic (Linux and macOS;
//     the macOS names count on every platform) and windowsCatastrophic
//     (under any drive letter, and under an admin share \\srv\C$).
//
// Trailing glob segments do not change the answer ("/etc/*", "~/*",
// "/etc/**/*" are /etc and home); a glob elsewhere is catastrophic when it
// can match a catastrophic path ("/e*" can match /etc, "/home/a*" a
// profile). Unix paths compare case-sensitively except on darwin and
// Windows; Windows paths always ignore case and also match 8.3 short names
// (C:\PROGRA~1). On a non-Windows platform a UNC path is also read as the
// Unix path it is there (//usr/lib is /usr/lib).
//
// Everything else is not catastrophic, including Relative, Unresolved,
// Null and Empty paths: join a relative path onto the working directory
// first (".." from /home/u/proj is /home/u), and decide for yourself what an
// unknown target means. /var/log, /tmp, /home/x/project and
// C:\Users\a\Documents are not catastrophic. Lexical: test RealPath(x) too
// if symlinks matter. Cost: a few hundred ns; no allocation unless x holds
// an 8.3 name, or a glob on a case-insensitive platform.
func (p Platform) IsCatastrophic(x Path) (bool, string) {
	if !x.wellFormed() {
		return false, ""
	}
	var buf [32]string
	switch x.Kind {
	case Unix:
		return p.unixCatastrophic(trimGlobTail(splitSegs(buf[:0], x.Norm, p.windows(), false)))
	case Drive:
		return p.driveCatastrophic(x.Norm[0], trimGlobTail(splitSegs(buf[:0], x.Norm[3:], true, false)))
	case UNC:
		server, tail := cutSep(strings.TrimPrefix(x.Norm, `\\`))
		segs := trimGlobTail(splitSegs(buf[:0], tail, true, false))
		if len(segs) <= 1 {
			return true, LabelShareRoot
		}
		if s := segs[0]; len(s) == 2 && isLetter(s[0]) && s[1] == '$' {
			if yes, label := p.driveCatastrophic(upper(s[0]), segs[1:]); yes {
				return yes, label
			}
		}
		if !p.windows() {
			var ubuf [33]string
			return p.unixCatastrophic(append(append(ubuf[:0], server), segs...))
		}
	}
	return false, ""
}

func (p Platform) unixCatastrophic(segs []string) (bool, string) {
	if len(segs) == 0 {
		return true, LabelRoot
	}
	fold := p.foldCase()
	if home := p.cleanHome(); home.Kind == Unix {
		var hbuf [32]string
		if yes, label := homeMatch(segs, splitSegs(hbuf[:0], home.Norm, p.windows(), false), fold, false); yes {
			return yes, label
		}
	}
	return tableMatch(segs, unixCatastrophic, fold, false)
}

func (p Platform) driveCatastrophic(letter byte, segs []string) (bool, string) {
	if len(segs) == 0 {
		return true, LabelDriveRoot
	}
	if home := p.cleanHome(); home.Kind == Drive && home.Norm[0] == letter {
		var hbuf [32]string
		if yes, label := homeMatch(segs, splitSegs(hbuf[:0], home.Norm[3:], true, false), true, true); yes {
			return yes, label
		}
	}
	return tableMatch(segs, windowsCatastrophic, true, true)
}

// homeMatch: segs is home or one of its ancestors.
func homeMatch(segs, home []string, fold, win bool) (bool, string) {
	if len(segs) > len(home) {
		return false, ""
	}
	for i, s := range segs {
		if !segMatch(s, home[i], fold, win) {
			return false, ""
		}
	}
	if len(segs) == len(home) {
		return true, LabelHome
	}
	return true, LabelHomeAncestor
}

func tableMatch(segs []string, table []catEntry, fold, win bool) (bool, string) {
	// glob marks the segments that can match more than their own text;
	// for the others an entry's segment matches only by equality.
	var glob uint64
	for i, s := range segs {
		if i < 64 && strings.ContainsAny(s, "*?[") {
			glob |= 1 << i
		}
	}
next:
	for _, e := range table {
		if len(e.segs) != len(segs) {
			continue
		}
		for i, s := range segs {
			name := e.segs[i]
			switch {
			case name == anySegment, !fold && s == name, fold && strings.EqualFold(s, name):
			case i < 64 && glob&(1<<i) == 0 && !(win && strings.IndexByte(s, '~') >= 0):
				continue next
			case !segMatch(s, name, fold, win):
				continue next
			}
		}
		return true, e.label
	}
	return false, ""
}

// homeMemo is the last home Platform.cleanHome cleaned: IsCatastrophic
// needs it on every call, and a process judges with one home.
// rootMemo is the last path CleanRoot cleaned: a layer cleans the call's
// project root on every call, and a process judges one project.
var homeMemo, rootMemo cleanMemo

// cleanMemo remembers the last Unix absolute path one caller of
// Platform.Clean cleaned on a non-Windows platform, keyed by OS and the
// raw text: on such a platform that cleaning reads nothing else (a
// Windows path can map through TEMP, which Lookup gives). Safe for
// concurrent use; a miss only costs the Clean.
type cleanMemo struct{ last atomic.Pointer[cleanEntry] }

type cleanEntry struct {
	os, raw string
	clean   Path
}

// clean is p.Clean(s), remembered as the type says.
func (m *cleanMemo) clean(p Platform, s string) Path {
	if p.windows() || !strings.HasPrefix(s, "/") {
		return p.Clean(s)
	}
	if e := m.last.Load(); e != nil && e.os == p.OS && e.raw == s {
		return e.clean
	}
	c := p.Clean(s)
	m.last.Store(&cleanEntry{os: p.OS, raw: s, clean: c})
	return c
}

// cleanHome is p.Clean(p.Home), remembered (homeMemo).
func (p Platform) cleanHome() Path { return homeMemo.clean(p, p.Home) }

// CleanRoot is p.Clean(s) for a path that stays the same from call to
// call (the project root): the last one cleaned on a non-Windows platform
// is remembered, so the usual call costs a comparison. Safe for
// concurrent use.
func (p Platform) CleanRoot(s string) Path { return rootMemo.clean(p, s) }

// anySegment in a table entry matches every name.
const anySegment = "\x00"

// segMatch compares one target segment (possibly a glob) with one name.
func segMatch(t, name string, fold, win bool) bool {
	switch {
	case name == anySegment:
		return true
	case fold && strings.EqualFold(t, name), !fold && t == name:
		return true
	case strings.ContainsAny(t, "*?["):
		pattern := t
		if fold {
			pattern, name = strings.ToLower(t), strings.ToLower(name)
		}
		ok, err := path.Match(pattern, name)
		return ok && err == nil
	case win:
		return shortNameMatch(t, name)
	}
	return false
}

// shortNameMatch: t is an 8.3 short name ("PROGRA~1") that Windows could
// have generated for name ("Program Files").
func shortNameMatch(t, name string) bool {
	i := strings.IndexByte(t, '~')
	if i < 1 || i > 6 || i == len(t)-1 || strings.Trim(t[i+1:], "0123456789") != "" {
		return false
	}
	compact := strings.NewReplacer(" ", "", ".", "").Replace(name)
	return len(compact) >= i && strings.EqualFold(compact[:i], t[:i])
}

func trimGlobTail(segs []string) []string {
	for len(segs) > 0 && strings.Trim(segs[len(segs)-1], "*") == "" {
		segs = segs[:len(segs)-1]
	}
	return segs
}

type catEntry struct {
	segs  []string
	label string
}

// unixCatastrophic lists the Unix directories (besides /, home and its
// ancestors) whose loss wrecks the system or the user's data: the FHS
// top level and the /usr and /var trees that hold installed software and
// state, package stores (Nix, Guix, Homebrew), mount points, and macOS's
// top level. "*" stands for any one name.
var unixCatastrophic = entries('/', LabelSystem,
	"/bin", "/boot", "/boot/efi", "/dev", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32",
	"/opt", "/opt/homebrew", "/proc", "/root", "/run", "/sbin", "/snap", "/srv", "/sys",
	"/usr", "/usr/bin", "/usr/include", "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec",
	"/usr/libx32", "/usr/local", "/usr/local/bin", "/usr/local/lib", "/usr/local/sbin",
	"/usr/local/share", "/usr/sbin", "/usr/share", "/usr/src",
	"/var", "/var/db", "/var/lib", "/var/mail", "/var/root", "/var/spool", "/var/www",
	"/nix", "/nix/store", "/gnu", "/gnu/store", "/media", "/mnt",
	// macOS
	"/Applications", "/Library", "/Network", "/System", "/System/Applications", "/System/Library",
	"/System/Volumes", "/System/Volumes/Data", "/Users", "/Volumes",
	"/private", "/private/etc", "/private/var", "/private/var/db", "/private/var/root",
	"="+LabelProfile, "/home/*", "/Users/*",
	"="+LabelVolume, "/media/*", "/mnt/*", "/Volumes/*",
)

// windowsCatastrophic lists the directories below any drive letter.
var windowsCatastrophic = entries('\\', LabelSystem,
	`Windows`, `Windows\System32`, `Windows\SysWOW64`, `Windows\WinSxS`,
	`Program Files`, `Program Files (x86)`, `Program Files (Arm)`, `ProgramData`,
	`Users`, `PerfLogs`, `Recovery`, `Boot`, `System Volume Information`,
	"="+LabelProfile, `Users\*`,
)

// entries parses a table: paths separated by sep; an item "=label" sets
// the label of the items after it.
func entries(sep byte, label string, items ...string) []catEntry {
	var out []catEntry
	for _, it := range items {
		if l, ok := strings.CutPrefix(it, "="); ok {
			label = l
			continue
		}
		var segs []string
		for _, s := range strings.Split(strings.Trim(it, string(sep)), string(sep)) {
			if s == "*" {
				s = anySegment
			}
			segs = append(segs, s)
		}
		out = append(out, catEntry{segs, label})
	}
	return out
}
