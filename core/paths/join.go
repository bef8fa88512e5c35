package paths

import "strings"

// Join resolves rel against the directory base, as a shell resolves a cd
// argument or a relative write target:
//
//   - rel absolute, Null or Unresolved: rel itself ("cd /etc", "cd C:\x");
//   - rel Empty: base;
//   - rel Relative: base + rel, folded ("cd .." from /a/b is /a). On
//     Windows "\x" goes to the root of base's drive (or share), and "D:x"
//     to base + x when base is on D:, else to D:\x;
//   - base not absolute (unknown cwd) and rel Relative: Unresolved.
//
// The result's Raw is rel.Raw. Join keeps what RealPath needs to apply a
// ".." after the symlink before it ("link/.." is link's real parent).
// Cost: one Clean of the joined string.
func (p Platform) Join(base, rel Path) Path {
	switch rel.Kind {
	case Empty:
		return base
	case Relative:
	default:
		return rel
	}
	if !base.wellFormed() {
		return Path{Kind: Unresolved, Norm: rel.Raw, Raw: rel.Raw}
	}
	if rel.Norm == "" {
		return base
	}
	r := rel.walk
	if r == "" {
		r = rel.Norm
	}
	b := base.walk
	if b == "" {
		b = base.Norm
	}
	sep := "\\"
	if base.Kind == Unix {
		sep = "/"
	}
	if p.windows() {
		switch {
		case len(r) >= 2 && isLetter(r[0]) && r[1] == ':': // D:x
			if base.Kind != Drive || upper(base.Norm[0]) != upper(r[0]) {
				return p.joined(driveRoot(upper(r[0]))+r[2:], rel)
			}
			r = r[2:]
		case r[0] == '\\': // \x: the root of base's drive or share
			return p.joined(rootOf(base)+r[1:], rel)
		}
	}
	if r == "." {
		r = ""
	}
	if !strings.HasSuffix(b, sep) {
		b += sep
	}
	return p.joined(b+r, rel)
}

func (p Platform) joined(s string, rel Path) Path {
	out := p.Clean(s)
	out.Raw = rel.Raw
	if out.Kind == Unresolved {
		out.Norm = rel.Raw
	}
	return out
}

// rootOf returns the root of an absolute path with a trailing separator:
// "/", "C:\" or "\\srv\share\".
func rootOf(x Path) string {
	switch x.Kind {
	case Drive:
		return x.Norm[:3]
	case UNC:
		server, tail := cutSep(x.Norm[2:])
		share, _ := cutSep(tail[min(1, len(tail)):])
		if share == "" {
			return `\\` + server + `\`
		}
		return `\\` + server + `\` + share + `\`
	}
	return "/"
}

// ChangeDir follows a chain of cd steps, oldest first, from cwd and
// returns the final directory. Each step is a cd argument, Normalize'd and
// joined onto the current directory (Join), with the shell's special
// cases: "" (a bare POSIX or PowerShell cd; cmd.exe's bare cd does not
// move, so do not pass it) and "~" go home; "-" goes back to the previous
// directory (OLDPWD for the first step; Unresolved when unknown). Options
// such as -P or cmd's /d, CDPATH and pushd/popd stacks are the caller's
// business: pass the directory argument only (popd: pass the directory it
// returns to). An Unresolved step makes every later relative step
// Unresolved until an absolute one.
func (p Platform) ChangeDir(cwd Path, steps []string) Path {
	cur := cwd
	var prev Path
	havePrev := false
	for _, step := range steps {
		var next Path
		switch step {
		case "", "~":
			next = p.Normalize("~")
		case "-":
			next = prev
			if !havePrev {
				next = unresolved("-")
				if v, ok := p.lookup("OLDPWD"); ok && v != "" {
					next = p.Clean(v)
				}
			}
		default:
			next = p.Join(cur, p.Normalize(step))
		}
		prev, cur, havePrev = cur, next, true
	}
	return cur
}
