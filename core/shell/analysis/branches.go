package analysis

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// Branches and the values they leave. Conditional code (if, case, the
// operands of && and ||, loop bodies) is walked on branches of the state;
// afterwards the branches are joined. A variable that the branches set to
// different known values holds the set of those values (at most maxAlts):
// `if [ -z "$out" ]; then out=ca-bundle.crt; fi` leaves out in {"",
// "ca-bundle.crt"}, and `case $ci in a) d=x;; b) d=y;; *) exit 1;; esac`
// leaves d in {x, y}, the path that exited being no end at all. A
// command that reads such a variable is judged once per value (forkStmt:
// `rm -rf "$d"` is judged as rm -rf x and as rm -rf y), so one dangerous
// value still asks; every other use sees an unknown value, as before.

// maxAlts bounds the values a variable holds after a join; more make it
// unknown.
const maxAlts = 8

// joinVars is the variable after a join of two paths, x on one (inX: set
// there) and y on the other: the set of their values when both are known
// values (or sets of them) and the set stays within maxAlts, else
// unknown. A variable unset on one path is unknown (what the environment
// holds is not a value the script chose).
func joinVars(x variable, inX bool, y variable, inY bool) variable {
	exported := x.exported || y.exported
	if inX && inY && x.ref != "" && x.ref == y.ref {
		return x // the same nameref on both paths
	}
	xs, okX := altsOf(x, inX)
	ys, okY := altsOf(y, inY)
	if !okX || !okY {
		return variable{opaque: true, exported: exported}
	}
	u := slices.Clone(xs)
	for _, v := range ys {
		if !slices.ContainsFunc(u, func(w variable) bool { return sameVar(v, w) }) {
			u = append(u, v)
		}
	}
	if len(u) > maxAlts {
		return variable{opaque: true, exported: exported}
	}
	if len(u) == 1 {
		u[0].exported = exported
		return u[0]
	}
	return variable{opaque: true, alts: u, exported: exported}
}

// altsOf lists the values v may hold; ok is false when one is unknown.
func altsOf(v variable, set bool) ([]variable, bool) {
	switch {
	case !set || v.isArr:
		return nil, false
	case v.opaque:
		return v.alts, len(v.alts) > 0
	}
	v.exported = false
	return []variable{v}, true
}

// join folds into s the states a conditional construct may end in: ends
// are branches of s; baseRuns says s as it is is an end too (an if
// without else, a case without a * item). Ends that exited the shell are
// left out; when no end is left, s is marked ended.
func (s *state) join(ends []*state, baseRuns bool) {
	if baseRuns && !s.ended {
		s.merge(ends)
		return
	}
	var live []*state
	for _, o := range ends {
		if !o.ended {
			live = append(live, o)
		}
	}
	switch {
	case len(live) == 0:
		if len(ends) > 0 {
			s.ended = true
		}
		return
	case slices.ContainsFunc(live, func(o *state) bool { return o.journal == nil }):
		s.merge(live) // no journals: the careful merge, with s as an end
		return
	}
	var vars, funcs []string
	for _, o := range live {
		vars = append(vars, o.journal.vars...)
		funcs = append(funcs, o.journal.funcs...)
	}
	slices.Sort(vars)
	vars = slices.Compact(vars)
	slices.Sort(funcs)
	funcs = slices.Compact(funcs)
	s.adopt(live[0])
	for _, o := range live[1:] {
		s.mergeNames(o, vars, funcs)
		s.mergeRest(o)
	}
}

// adopt makes s what its branch o ended in: the variables and functions o
// set, its directory, stack and positional parameters.
func (s *state) adopt(o *state) {
	for _, name := range o.journal.vars {
		if v, ok := o.vars[name]; ok {
			s.setVar(name, v)
		}
	}
	for _, name := range o.journal.funcs {
		if f, ok := o.funcs[name]; ok {
			s.setFunc(name, f)
		}
	}
	s.ended = o.ended
	s.cd, s.old, s.oldSet = o.cd, o.old, o.oldSet
	s.dirs, s.dirsLost = o.dirs, o.dirsLost
	s.pos, s.posKnown, s.arg0 = o.pos, o.posKnown, o.arg0
	s.adoptDefinitions(o)
}

// Bounds of forkStmt: the values one statement is judged with, and how
// far forks nested in forks (a function body, a sourced file) multiply.
const (
	maxFork     = maxAlts
	maxForkMult = 64
)

// forkStmt judges statement s once per value of the variables with a set
// of values it reads (see joinVars), each on a branch of st, then joins
// the branches. It reports whether it did; false leaves s to the plain
// walk (no such variable, or too many combinations: they stay unknown).
func (a *analyzer) forkStmt(c ctx, st *state, s *syntax.Stmt) bool {
	// A compound command forks on what its own redirections read (`while
	// ...; done >> "$out"`); the statements inside fork on the rest.
	var scan []syntax.Node
	switch s.Cmd.(type) {
	case nil, *syntax.CallExpr, *syntax.DeclClause, *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		scan = []syntax.Node{s}
	default:
		for _, r := range s.Redirs {
			scan = append(scan, r)
		}
	}
	var forked []string
	n := 1
	visit := func(node syntax.Node) bool {
		pe, ok := node.(*syntax.ParamExp)
		if !ok || pe.Param == nil {
			return true
		}
		name := pe.Param.Value
		if v, set := st.vars[name]; set && len(v.alts) > 0 && !slices.Contains(forked, name) {
			forked = append(forked, name)
			n *= len(v.alts)
		}
		return n <= maxFork
	}
	for _, node := range scan {
		syntax.Walk(node, visit)
	}
	if len(forked) == 0 || n > maxFork || a.forkMult*n > maxForkMult {
		return false
	}
	a.forkMult *= n
	defer func() { a.forkMult /= n }()
	ends := make([]*state, 0, n)
	for i := 0; i < n && !a.full(); i++ {
		br := st.branch()
		k := i
		for _, name := range forked {
			v := st.vars[name]
			alt := v.alts[k%len(v.alts)]
			k /= len(v.alts)
			alt.exported = v.exported
			br.setVar(name, alt)
		}
		a.stmtCmd(c, br, s)
		ends = append(ends, br)
	}
	st.join(ends, false)
	return true
}
