package paths

import "strings"

// MemoryDir is the agent memory directory below home that is always
// writable (only it: the rest of ~/.zcode is not).
const MemoryDir = ".zcode/cli/memories"

// WritableRoots returns the directories writes may land in, as real paths
// (RealPath of each), first the project root, then:
//
//   - the real temp dirs: TMPDIR, /tmp, /var/tmp and TempDir on Unix; TEMP
//     and TMP on Windows (os.TempDir is not used there: without TEMP/TMP it
//     falls back to the profile or the Windows directory). A temp candidate
//     that is itself catastrophic (TMPDIR=/, TEMP=C:\, TMPDIR=$HOME) is
//     dropped, except a system temp dir (/tmp, /var/tmp, their macOS
//     /private forms) whose only fault is holding home: a HOME under /tmp
//     (test machines, sandboxes) keeps /tmp writable;
//   - <Home>/.zcode/cli/memories;
//   - every item of extra (extra_writable_roots: ';'-separated; each is
//     trimmed and expanded like Normalize: ~, $VAR, %VAR%). Empty items and
//     items that are not absolute (relative, unresolved: an undefined
//     variable) are dropped.
//
// Duplicates (same real path, ignoring case on Windows and darwin) are
// dropped; a root nested in or above another is kept, so a project under
// /tmp still has /tmp as a root and an extra root that is the project's
// parent counts. The project root is read literally (Clean, no
// expansion); when it is not absolute the fence has nothing to guard and
// the result is nil. The null device is not a root: IsWritable accepts it
// on its own. Cost: a few RealPath walks, so call it once per tool call.
func (p Platform) WritableRoots(projectRoot, extra string) []Path {
	project := p.Clean(strings.TrimSpace(projectRoot))
	if !project.IsAbs() {
		return nil
	}
	roots := make([]Path, 0, 8)
	add := func(x Path, dropCatastrophic bool) {
		if !x.IsAbs() {
			return
		}
		x = p.RealPath(x)
		if !x.IsAbs() {
			return
		}
		if dropCatastrophic {
			if yes, label := p.IsCatastrophic(x); yes && !(label == LabelHomeAncestor && p.IsSystemTemp(x)) {
				return
			}
		}
		for _, r := range roots {
			if r.Kind == x.Kind && (r.Norm == x.Norm || (p.foldCase() && strings.EqualFold(r.Norm, x.Norm))) {
				return
			}
		}
		roots = append(roots, x)
	}
	add(project, false)

	var temps []string
	if p.windows() {
		temps = []string{"TEMP", "TMP"}
	} else {
		temps = []string{"TMPDIR"}
	}
	for _, name := range temps {
		if v, ok := p.lookup(name); ok && strings.TrimSpace(v) != "" {
			add(p.Clean(strings.TrimSpace(v)), true)
		}
	}
	if !p.windows() {
		for _, t := range unixTemps {
			add(p.Clean(t), true)
		}
		if p.TempDir != "" {
			add(p.Clean(p.TempDir), true)
		}
	}

	if home := p.Clean(strings.TrimSpace(p.Home)); home.IsAbs() {
		add(p.Join(home, p.Clean(MemoryDir)), false)
	}

	for _, item := range strings.Split(extra, ";") {
		if item = strings.TrimSpace(item); item != "" {
			add(p.Normalize(item), false)
		}
	}
	return roots
}

// unixTemps are the system temp directories of every Unix: /tmp, and
// /var/tmp (kept across reboots, used by systemd, podman, vim, ...).
var unixTemps = []string{"/tmp", "/var/tmp"}

// IsSystemTemp reports whether x (a real path) is one of unixTemps, also
// in the form macOS resolves them to (/private/tmp, /private/var/tmp).
// Such a root may hold home (WritableRoots keeps it then); it never makes
// home itself writable (the fence carves home out of it).
func (p Platform) IsSystemTemp(x Path) bool {
	if x.Kind != Unix {
		return false
	}
	n := strings.TrimPrefix(x.Norm, "/private")
	for _, t := range unixTemps {
		if n == t || (p.foldCase() && strings.EqualFold(n, t)) {
			return true
		}
	}
	return false
}
