package analysis

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// Symbolic links a script resolves itself. A script that finds its own
// directory follows its links first:
//
//	SOURCE="${BASH_SOURCE[0]}"
//	while [ -h "$SOURCE" ]; do SOURCE="$(readlink "$SOURCE")"; done
//	DIR="$(cd -P "$(dirname "$SOURCE")/.." && pwd)"
//
// When the file system is at hand (Options.Files) and the tested path is
// wholly known, the loop's test is decided against it, at the time of the
// call, as the script itself is read: the loop is walked as it will run,
// at most maxIterations rounds. A path that is not a link ends it at once
// (the usual case: SOURCE stays the script's own path); a link's round
// runs the body with $(readlink P) giving the link's target as stored, so
// a script reached through a link into another tree resolves into that
// tree, and what it writes there is judged there. A test of a path that is
// not known, a body that breaks out or returns and a container's path are
// walked as any loop (the body as a branch that may not run, its values
// joined with the ones before); a chain longer than maxIterations leaves
// what the body sets unknown.

// linkLoop walks wc when its condition is a single link test (-h or -L,
// in [ ], test or [[ ]]) of a known path on the host; false when it is
// not one (the caller walks it as any loop).
func (a *analyzer) linkLoop(c ctx, st *state, wc *syntax.WhileClause) bool {
	if wc.Until || !a.hostFiles(c) || breaksOut(wc.Do) {
		return false
	}
	word, ok := linkTestWord(wc.Cond)
	if !ok {
		return false
	}
	if _, ok := a.linkTestPath(st, c.src, word); !ok {
		if _, alts := forkedName(st, word); len(alts) == 0 {
			return false
		}
	}
	a.linkRounds(c, st, wc, word, maxIterations)
	return true
}

// linkRounds walks the rounds of wc's loop left on st. The tested path
// with a set of values (a round that made it absolute on one path only:
// [[ $S != /* ]] && S="$DIR/$S") forks the rest of the loop per value,
// as forkStmt does for a statement. Past the rounds, or with a path not
// known, the rest is walked as any loop and the variables its body sets
// are unknown afterwards.
func (a *analyzer) linkRounds(c ctx, st *state, wc *syntax.WhileClause, word *syntax.Word, left int) {
	for ; left > 0 && !a.full(); left-- {
		if name, alts := forkedName(st, word); len(alts) > 0 && a.forkMult*len(alts) <= maxForkMult {
			a.forkMult *= len(alts)
			ends := make([]*state, 0, len(alts))
			for _, alt := range alts {
				br := st.branch()
				alt.exported = st.vars[name].exported
				br.setVar(name, alt)
				a.linkRounds(c, br, wc, word, left)
				ends = append(ends, br)
			}
			a.forkMult /= len(alts)
			st.join(ends, false)
			return
		}
		p, ok := a.linkTestPath(st, c.src, word)
		if !ok {
			break
		}
		a.stmts(c, st, wc.Cond)
		if _, err := a.opts.Files.Readlink(p); err != nil {
			return // not a link (or nothing at all): the loop ends
		}
		a.stmts(c, st, wc.Do)
		if st.ended {
			return
		}
	}
	// More rounds may run than were walked: what the body sets is unknown
	// after the loop (one more round joined in would name a value the
	// chain may have passed long before).
	a.stmts(c, st, wc.Cond)
	body := st.branch()
	a.stmts(c, body, wc.Do)
	st.merge([]*state{body})
	for _, name := range body.journal.vars {
		st.forget(name)
	}
}

// forkedName is the one variable with a set of values the word reads,
// and its values.
func forkedName(st *state, w *syntax.Word) (string, []variable) {
	var name string
	var alts []variable
	n := 0
	syntax.Walk(w, func(node syntax.Node) bool {
		pe, ok := node.(*syntax.ParamExp)
		if !ok || pe.Param == nil {
			return true
		}
		if v, set := st.vars[pe.Param.Value]; set && len(v.alts) > 0 && pe.Param.Value != name {
			name, alts = pe.Param.Value, v.alts
			n++
		}
		return true
	})
	if n != 1 {
		return "", nil
	}
	return name, alts
}

// hostFiles reports whether files on the host can be looked at for
// commands walked in c: a reader is at hand, the shell is bash's family
// and the commands do not run in a container.
func (a *analyzer) hostFiles(c ctx) bool {
	return a.opts.Files != nil && c.container == nil && a.containers == 0 && c.dialect == ir.Bash
}

// linkTestWord returns the operand of a condition that is one link test:
// [ -h W ], [ -L W ], test -h W, [[ -h W ]], [[ -L W ]].
func linkTestWord(cond []*syntax.Stmt) (*syntax.Word, bool) {
	if len(cond) != 1 {
		return nil, false
	}
	s := cond[0]
	if s.Negated || s.Background || s.Coprocess || s.Disown || len(s.Redirs) > 0 {
		return nil, false
	}
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		args := cmd.Args
		if len(cmd.Assigns) > 0 || len(args) < 3 {
			return nil, false
		}
		switch args[0].Lit() {
		case "[":
			if len(args) != 4 || args[3].Lit() != "]" {
				return nil, false
			}
		case "test":
			if len(args) != 3 {
				return nil, false
			}
		default:
			return nil, false
		}
		if op := args[1].Lit(); op != "-h" && op != "-L" {
			return nil, false
		}
		return args[2], true
	case *syntax.TestClause:
		u, ok := cmd.X.(*syntax.UnaryTest)
		if !ok || u.Op != syntax.TsSmbLink {
			return nil, false
		}
		w, ok := u.X.(*syntax.Word)
		return w, ok
	}
	return nil, false
}

// linkTestPath is the absolute path the link test's operand names; ok
// false when it is not one known word or its directory is unknown.
func (a *analyzer) linkTestPath(st *state, src string, w *syntax.Word) (string, bool) {
	fs := a.fields(st.clone(), src, w) // expanding may assign (${x:=y})
	if len(fs) != 1 || fs[0].glob {
		return "", false
	}
	v, ok := fs[0].lit()
	if !ok || v == "" || strings.ContainsRune(v, 0) {
		return "", false
	}
	return a.absPath(st, v)
}

// breaksOut reports a loop body holding break, continue or return, which
// the rounds of linkLoop do not model.
func breaksOut(body []*syntax.Stmt) bool {
	found := false
	for _, s := range body {
		syntax.Walk(s, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				switch ce.Args[0].Lit() {
				case "break", "continue", "return", "exit":
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// readlinkValue is what $(readlink P) prints for the known operand v (no
// option but -n): the target of the link as stored, or nothing when P is
// not a link. ok is false without the host's file system.
func (a *analyzer) readlinkValue(st *state, v string) (string, bool) {
	if a.opts.Files == nil || a.containers > 0 {
		return "", false
	}
	p, ok := a.absPath(st, v)
	if !ok {
		return "", false
	}
	to, err := a.opts.Files.Readlink(path.Clean(p))
	if err != nil {
		return "", true
	}
	return to, true
}
