package analysis

import (
	"path"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// Path substitutions scripts use to find themselves and their project:
// $(dirname W), $(basename W [SUFFIX]), $(realpath W), $(readlink -f W)
// and $(cd W && pwd) (also cd W; pwd, cd -P, pwd -P, redirects to
// /dev/null) are evaluated when W is known, lexically (symbolic links are
// not followed); $(readlink W) is the link's target read from the file
// system (links.go): SCRIPT_DIR="$(cd "$(dirname "$0")" && pwd)" then names
// the script's directory, so the paths built on it resolve. The body is
// still walked as commands of its own (see substitutions).

// pathSubst evaluates cs when it is one of the forms above; handled is
// false for any other substitution.
func (a *analyzer) pathSubst(st *state, src string, cs *syntax.CmdSubst) (out string, ok, handled bool) {
	if cs.TempFile || cs.ReplyVar {
		return "", false, false
	}
	switch len(cs.Stmts) {
	case 1:
		s := cs.Stmts[0]
		if s.Background || s.Negated || s.Coprocess || s.Disown {
			return "", false, false
		}
		switch cmd := s.Cmd.(type) {
		case *syntax.CallExpr:
			return a.pathCall(st, src, cmd, s.Redirs)
		case *syntax.BinaryCmd:
			switch cmd.Op {
			case syntax.AndStmt:
				return a.cdPwd(st, src, cmd.X, cmd.Y)
			case syntax.OrStmt:
				return a.orSubst(st, src, cmd.X, cmd.Y)
			}
			return "", false, false
		}
	case 2:
		return a.cdPwd(st, src, cs.Stmts[0], cs.Stmts[1])
	}
	return "", false, false
}

// orSubst evaluates $(A || B), each side a path call above or an echo of
// known words, the first writing nothing when it fails (its errors sent
// to /dev/null): the output is A's or B's, known when both are the same
// (jq's $(realpath ${PWD} 2>/dev/null || echo ${PWD})).
func (a *analyzer) orSubst(st *state, src string, x, y *syntax.Stmt) (string, bool, bool) {
	outX, okX, hX := a.stmtPathValue(st, src, x)
	outY, okY, hY := a.stmtPathValue(st, src, y)
	if !hX || !hY {
		return "", false, false
	}
	return outX, okX && okY && outX == outY, true
}

// stmtPathValue evaluates a statement of orSubst: a path call, or echo
// of known words without options.
func (a *analyzer) stmtPathValue(st *state, src string, s *syntax.Stmt) (string, bool, bool) {
	if s == nil || s.Background || s.Negated || s.Coprocess || s.Disown {
		return "", false, false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 {
		return "", false, false
	}
	if ce.Args[0].Lit() != "echo" {
		return a.pathCall(st, src, ce, s.Redirs)
	}
	args, ok := a.simpleArgs(st, src, s)
	if !ok {
		return "", false, true
	}
	for _, v := range args[1:] {
		if strings.HasPrefix(v, "-") {
			return "", false, true
		}
	}
	return strings.Join(args[1:], " "), true, true
}

// quietRedirs reports redirects that only silence output (>/dev/null,
// 2>&1, 2>/dev/null).
func quietRedirs(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.Hdoc != nil || r.Word == nil {
			return false
		}
		w := r.Word.Lit()
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll:
			if w != "/dev/null" {
				return false
			}
		case syntax.DplOut:
			if w != "1" && w != "2" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// simpleArgs evaluates the words of a plain call (no assignments, quiet
// redirects only); ok is false when any word is unknown or globbed.
func (a *analyzer) simpleArgs(st *state, src string, s *syntax.Stmt) ([]string, bool) {
	if s == nil || s.Background || s.Negated || s.Coprocess || s.Disown || !quietRedirs(s.Redirs) {
		return nil, false
	}
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	scratch := st.clone()
	var out []string
	for _, w := range ce.Args {
		for _, f := range a.fields(scratch, src, w) {
			v, ok := f.lit()
			if !ok || f.glob {
				return nil, false
			}
			out = append(out, v)
		}
		if len(out) > 8 {
			return nil, false
		}
	}
	return out, true
}

// pathCall evaluates dirname, basename, realpath and readlink -f.
func (a *analyzer) pathCall(st *state, src string, ce *syntax.CallExpr, redirs []*syntax.Redirect) (string, bool, bool) {
	if len(ce.Args) == 0 {
		return "", false, false
	}
	name := ir.CommandName(ce.Args[0].Lit())
	switch name {
	case "dirname", "basename", "realpath", "readlink":
	default:
		return "", false, false
	}
	args, ok := a.simpleArgs(st, src, &syntax.Stmt{Cmd: ce, Redirs: redirs})
	if !ok {
		return "", false, true
	}
	var opts, ops []string
	for _, v := range args[1:] {
		if strings.HasPrefix(v, "-") && len(v) > 1 && len(ops) == 0 {
			opts = append(opts, v)
		} else {
			ops = append(ops, v)
		}
	}
	switch name {
	case "dirname":
		if len(opts) > 0 || len(ops) != 1 {
			return "", false, true
		}
		return dirnameOf(ops[0]), true, true
	case "basename":
		if len(opts) > 0 || len(ops) == 0 || len(ops) > 2 {
			return "", false, true
		}
		b := basenameOf(ops[0])
		if len(ops) == 2 && ops[1] != b {
			b = strings.TrimSuffix(b, ops[1])
		}
		return b, true, true
	default: // realpath, readlink -f/-e/-m
		for _, o := range opts {
			if name == "readlink" && o != "-f" && o != "-e" && o != "-m" && o != "-n" ||
				name == "realpath" && o != "-s" && o != "-e" && o != "-m" && o != "-q" && o != "-P" && o != "-L" {
				return "", false, true
			}
		}
		if len(ops) != 1 {
			return "", false, true
		}
		if name == "readlink" && !slices.ContainsFunc(opts, func(o string) bool { return o != "-n" }) {
			out, ok := a.readlinkValue(st, ops[0]) // links.go
			return out, ok, true
		}
		return a.absLexical(st, ops[0])
	}
}

// absLexical is v made absolute against $PWD and cleaned.
func (a *analyzer) absLexical(st *state, v string) (string, bool, bool) {
	if strings.HasPrefix(v, "/") {
		return path.Clean(v), true, true
	}
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return "", false, true
	}
	return path.Join(dir, v), true, true
}

// cdPwd evaluates cd W followed by pwd.
func (a *analyzer) cdPwd(st *state, src string, x, y *syntax.Stmt) (string, bool, bool) {
	cd, ok := a.simpleArgs(st, src, x)
	if !ok || len(cd) == 0 || ir.CommandName(cd[0]) != "cd" {
		return "", false, false
	}
	pwd, ok := a.simpleArgs(st, src, y)
	if !ok || len(pwd) == 0 || ir.CommandName(pwd[0]) != "pwd" {
		return "", false, false
	}
	for _, o := range pwd[1:] {
		if o != "-P" && o != "-L" {
			return "", false, true
		}
	}
	ops := cd[1:]
	for len(ops) > 0 && (ops[0] == "-P" || ops[0] == "-L" || ops[0] == "--") {
		ops = ops[1:]
	}
	if len(ops) != 1 || ops[0] == "" || ops[0] == "-" {
		return "", false, true
	}
	return a.absLexical(st, ops[0])
}

// dirnameOf is what dirname prints for v.
func dirnameOf(v string) string {
	v = strings.TrimRight(v, "/")
	if v == "" {
		return "/"
	}
	i := strings.LastIndexByte(v, '/')
	if i < 0 {
		return "."
	}
	d := strings.TrimRight(v[:i], "/")
	if d == "" {
		return "/"
	}
	return d
}

// basenameOf is what basename prints for v.
func basenameOf(v string) string {
	t := strings.TrimRight(v, "/")
	if t == "" {
		if v == "" {
			return ""
		}
		return "/"
	}
	return t[strings.LastIndexByte(t, '/')+1:]
}
