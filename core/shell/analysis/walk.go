package analysis

import (
	"slices"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// stmts walks a statement list in order, in st's shell.
func (a *analyzer) stmts(c ctx, st *state, list []*syntax.Stmt) {
	for _, s := range list {
		if a.full() {
			return
		}
		a.stmt(c, st, s)
	}
}

// stmt walks one statement. A background statement runs in a subshell.
// Nothing is walked once the command cap is reached: no command could be
// reported.
func (a *analyzer) stmt(c ctx, st *state, s *syntax.Stmt) {
	if s == nil || a.full() {
		return
	}
	a.steps++
	a.nest++
	defer func() { a.nest-- }()
	if a.nest > maxNest {
		a.out.Truncated = true
		return
	}
	if f := c.file; f != nil && !f.noLine && len(c.src) == len(f.text) && c.src == f.text {
		c.line = f.first + int(s.Pos().Line()) // a statement of the file's own text
	}
	if s.Background || s.Coprocess || s.Disown {
		c.bg = true
		st = st.clone()
	}
	if st.hasAlts && a.forkStmt(c, st, s) { // branches.go
		return
	}
	a.stmtCmd(c, st, s)
}

// stmtCmd walks the command of statement s (see stmt).
func (a *analyzer) stmtCmd(c ctx, st *state, s *syntax.Stmt) {
	switch cmd := s.Cmd.(type) {
	case nil:
		a.call(c, st, nil, s.Redirs)
	case *syntax.CallExpr:
		a.call(c, st, cmd, s.Redirs)
	default:
		if len(s.Redirs) > 0 {
			c = a.inheritRedirs(c, st, s.Redirs)
		}
		a.compound(c, st, cmd)
	}
}

// inheritRedirs evaluates the redirects of a compound command; every
// simple command inside gets them (before its own).
func (a *analyzer) inheritRedirs(c ctx, st *state, rs []*syntax.Redirect) ctx {
	var subst []syntax.Node
	var arith []string
	for _, r := range rs {
		collect(&subst, &arith, r.Word)
		collect(&subst, &arith, r.Hdoc)
	}
	for _, n := range subst {
		a.looseSubst(c, st, n)
	}
	out, stdin, op := a.redirects(st, c.src, rs)
	c.redirs = append(slices.Clip(c.redirs), out...)
	if stdin != nil {
		c.stdin, c.stdinOp = stdin, op
	}
	return c
}

// looseSubst analyses a substitution that belongs to no simple command (in
// a for list, a case subject, a compound's redirect).
func (a *analyzer) looseSubst(c ctx, st *state, n syntax.Node) {
	switch n := n.(type) {
	case *syntax.CmdSubst:
		a.subshellAt(c, st, n.Stmts, c.src, "$()", -1, ir.FeedSubst, nil)
	case *syntax.ProcSubst:
		a.subshellAt(c, st, n.Stmts, c.src, n.Op.String()+")", -1, ir.FeedProcSubst, nil)
	}
}

// compound walks the commands inside a compound command.
func (a *analyzer) compound(c ctx, st *state, cmd syntax.Command) {
	switch cmd := cmd.(type) {
	case *syntax.Block:
		a.stmts(c, st, cmd.Stmts)
	case *syntax.Subshell:
		sub, traps := st.clone(), len(a.traps)
		a.stmts(c, sub, cmd.Stmts)
		a.flushTraps(traps, sub) // its EXIT trap runs when it ends
		st.keepWritten(sub)      // the files it wrote stay
	case *syntax.BinaryCmd:
		switch cmd.Op {
		case syntax.Pipe, syntax.PipeAll:
			a.pipeline(c, st, cmd)
		default:
			a.andOr(c, st, cmd)
		}
	case *syntax.IfClause:
		a.ifClause(c, st, cmd)
	case *syntax.WhileClause:
		inner := c
		inner.listing = "" // only this loop's read is fed by the listing
		// A loop resolving a script's own links (links.go).
		if a.linkLoop(inner, st, cmd) {
			return
		}
		a.stmts(inner, st, cmd.Cond)
		body := st.branch()
		if name, ok := readVar(cmd.Cond); ok && c.listing != "" && !cmd.Until {
			body.setVar(name, listingGlob(c.listing))
		}
		a.stmts(inner, body, cmd.Do)
		st.merge([]*state{body})
	case *syntax.ForClause:
		a.forClause(c, st, cmd)
	case *syntax.CaseClause:
		a.caseClause(c, st, cmd)
	case *syntax.FuncDecl:
		a.funcDecl(c, st, cmd)
	case *syntax.ArithmCmd:
		a.pseudo(c, st, "((", cmd.X, nil)
	case *syntax.LetClause:
		var nodes []syntax.Node
		for _, e := range cmd.Exprs {
			nodes = append(nodes, e)
		}
		a.pseudo(c, st, "let", nil, nodes)
	case *syntax.TestClause:
		a.testClause(c, st, cmd)
	case *syntax.DeclClause:
		a.decl(c, st, cmd)
	case *syntax.TimeClause:
		c.via = appendVia(c.via, "time")
		a.stmt(c, st, cmd.Stmt)
	case *syntax.CoprocClause:
		c.bg = true
		c.via = appendVia(c.via, "coproc")
		a.stmt(c, st.clone(), cmd.Stmt)
		name := "COPROC"
		if cmd.Name != nil {
			name = cmd.Name.Lit()
		}
		if name != "" {
			// NAME[0] and NAME[1] are the descriptors bash opened to the
			// coprocess: numbers, whatever they are (bash's first choice,
			// 63 and 60, stands for them), so >&"${NAME[1]}" duplicates a
			// descriptor and names no file.
			st.setVar(name, variable{isArr: true, arr: []xword{knownWord("63", "63"), knownWord("60", "60")}})
			st.setVar(name+"_PID", opaqueVar)
		}
	case *syntax.TestDecl:
		a.stmt(c, st.clone(), cmd.Body)
	}
}

// pipeline walks a | b: each side in its own subshell; the commands of the
// left side feed the first real command of the right side (or, for xargs,
// the command xargs runs).
func (a *analyzer) pipeline(c ctx, st *state, bc *syntax.BinaryCmd) {
	start := len(a.out.Commands)
	xs, ys := st.clone(), st.clone()
	a.stmt(c, xs, bc.X)
	mid := len(a.out.Commands)
	yc := c
	yc.piped = a.pipedInto(c, start, mid, bc.Y)
	yc.listing = ""
	if _, loop := bc.Y.Cmd.(*syntax.WhileClause); loop && mid > start && a.last.idx == mid-1 && a.out.Commands[mid-1].Depth == c.depth {
		if d, ok := listingDir(a.last.words); ok {
			yc.listing = d
		}
	}
	a.stmt(yc, ys, bc.Y)
	st.keepWritten(xs) // the files either side wrote stay
	st.keepWritten(ys)
	end := len(a.out.Commands)
	if mid == end {
		return
	}
	target := mid
	for j := mid; j < end; j++ {
		cm := &a.out.Commands[j]
		if cm.Depth == c.depth && len(cm.Args) > 0 && !stateOnly[cm.Name] {
			target = j
			break
		}
	}
	kind := ir.FeedPipe
	if k, ok := a.argsInner[target]; ok {
		target, kind = k, ir.FeedArgs
	}
	for j := start; j < mid; j++ {
		cm := &a.out.Commands[j]
		if cm.Depth == c.depth && cm.FeedsInto == -1 {
			cm.FeedsInto = target
			cm.Feed = kind
		}
	}
}

// stateOnly are builtins that change the shell's state but read no input;
// a pipe into a group starting with one feeds the next command.
var stateOnly = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "export": true, "declare": true,
	"local": true, "readonly": true, "typeset": true, "set": true, "unset": true,
	"shopt": true, "alias": true, "umask": true, "trap": true,
}

// andOr walks a && b || c: the first operand always runs, each later one
// maybe; later commands of the chain see the chain's effects, commands
// after it see the merge of where it may have stopped. The merge is folded
// in after each operand, from the names that operand set, so a chain costs
// O(operands + changes) whatever the number of variables.
func (a *analyzer) andOr(c ctx, st *state, bc *syntax.BinaryCmd) {
	operands := flattenAndOr(bc, nil)
	a.stmt(c, st, operands[0])
	final := st.clone() // the chain stopped after its first operand
	outer := st.journal
	j := &journal{}
	st.journal = j
	for _, op := range operands[1:] {
		nv, nf := len(j.vars), len(j.funcs)
		a.stmt(c, st, op)
		if st.ended && !final.ended {
			continue // cd x || exit: the path that went on exited
		}
		// The chain may stop here too. Names the operand did not set are
		// the same in final and st.
		final.mergeNames(st, j.vars[nv:], j.funcs[nf:])
		final.mergeRest(st)
	}
	if outer != nil {
		outer.vars = append(outer.vars, j.vars...)
		outer.funcs = append(outer.funcs, j.funcs...)
	}
	final.journal = outer
	*st = *final
}

func flattenAndOr(bc *syntax.BinaryCmd, out []*syntax.Stmt) []*syntax.Stmt {
	if x, ok := bc.X.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.AndStmt || x.Op == syntax.OrStmt) &&
		len(bc.X.Redirs) == 0 && !bc.X.Background && !bc.X.Negated && !bc.X.Coprocess && !bc.X.Disown {
		out = flattenAndOr(x, out)
	} else {
		out = append(out, bc.X)
	}
	return append(out, bc.Y)
}

func (a *analyzer) ifClause(c ctx, st *state, ic *syntax.IfClause) {
	a.stmts(c, st, ic.Cond)
	var outs []*state
	then := st.branch()
	a.stmts(c, then, ic.Then)
	outs = append(outs, then)
	hasElse := false
	for e := ic.Else; e != nil; e = e.Else {
		br := st.branch()
		a.stmts(c, br, e.Cond)
		a.stmts(c, br, e.Then)
		outs = append(outs, br)
		hasElse = len(e.Cond) == 0
	}
	st.join(outs, !hasElse) // without else, no branch may run
}

// maxIterations bounds how many times a for body is analysed with known
// items (and how far nested loops multiply).
const (
	maxIterations = 8
	maxLoopMult   = 32
)

func (a *analyzer) forClause(c ctx, st *state, fc *syntax.ForClause) {
	var body *state
	switch loop := fc.Loop.(type) {
	case *syntax.WordIter:
		var items []xword
		known := true
		if loop.InPos.IsValid() {
			var subst []syntax.Node
			var arith []string
			for _, w := range loop.Items {
				collect(&subst, &arith, w)
			}
			for _, n := range subst {
				a.looseSubst(c, st, n)
			}
			for _, w := range loop.Items {
				items = a.appendFields(items, st, c.src, w)
			}
			for _, n := range arith {
				st.forget(n)
			}
		} else if st.posKnown {
			items = slices.Clone(st.pos)
		} else {
			known = false
		}
		if len(loop.Items) == 1 {
			if d, ok := a.substListing(st, c.src, loop.Items[0]); ok {
				g := listingGlob(d)
				items = []xword{{parts: g.val, raw: nodeText(c.src, loop.Items[0]), glob: true}}
			}
		}
		for _, it := range items {
			known = known && it.known() && !it.glob
		}
		body = st.branch() // after the list, which may assign (${x:=y})
		name := loop.Name.Value
		if known && !fc.Select && len(items) > 0 && len(items) <= maxIterations && a.loopMult*len(items) <= maxLoopMult {
			a.loopMult *= len(items)
			for _, it := range items {
				body.setVar(name, variable{val: it.parts})
				a.stmts(c, body, fc.Do)
			}
			a.loopMult /= len(items)
		} else {
			v := opaqueVar
			if len(items) == 1 {
				v = variable{val: items[0].parts, glob: items[0].glob}
			}
			body.setVar(name, v)
			a.stmts(c, body, fc.Do)
		}
	case *syntax.CStyleLoop:
		var subst []syntax.Node
		var arith []string
		for _, e := range []syntax.ArithmExpr{loop.Init, loop.Cond, loop.Post} {
			if e != nil {
				collect(&subst, &arith, e)
			}
		}
		for _, n := range subst {
			a.looseSubst(c, st, n)
		}
		body = st.branch()
		for _, n := range arith {
			body.forget(n)
		}
		a.stmts(c, body, fc.Do)
	default:
		return
	}
	st.merge([]*state{body})
}

func (a *analyzer) caseClause(c ctx, st *state, cc *syntax.CaseClause) {
	var subst []syntax.Node
	var arith []string
	collect(&subst, &arith, cc.Word)
	for _, it := range cc.Items {
		for _, p := range it.Patterns {
			collect(&subst, &arith, p)
		}
	}
	for _, n := range subst {
		a.looseSubst(c, st, n)
	}
	for _, n := range arith {
		st.forget(n)
	}
	var outs []*state
	catchAll := false
	for _, it := range cc.Items {
		br := st.branch()
		a.stmts(c, br, it.Stmts)
		outs = append(outs, br)
		for _, p := range it.Patterns {
			catchAll = catchAll || p.Lit() == "*"
		}
	}
	st.join(outs, !catchAll) // without a * item, no item may run
}

func (a *analyzer) funcDecl(c ctx, st *state, fd *syntax.FuncDecl) {
	names := fd.Names
	if fd.Name != nil {
		names = append([]*syntax.Lit{fd.Name}, names...)
	}
	if len(names) == 0 {
		// zsh anonymous function: runs right away.
		a.stmt(c, st, fd.Body)
		return
	}
	def := &funcDef{body: fd.Body, src: c.src}
	for _, n := range names {
		st.setFunc(n.Value, def)
	}
	a.declared = append(a.declared, declaredFunc{name: names[0].Value, def: def, c: c})
}

// pseudo reports (( )), let and [[ ]] as commands, so their substitutions
// and redirects have a command to belong to.
func (a *analyzer) pseudo(c ctx, st *state, name string, x syntax.Node, more []syntax.Node, words ...*syntax.Word) {
	sc := simple{src: c.src, words: []xword{knownWord(name, name)}}
	var arith []string
	if x != nil {
		collect(&sc.subst, &arith, x)
	}
	for _, n := range more {
		collect(&sc.subst, &arith, n)
	}
	for _, w := range words {
		sc.words = append(sc.words, a.single(st, c.src, w, modeSingle))
	}
	a.run(c, st, &sc)
	for _, n := range arith {
		st.forget(n)
	}
}

func (a *analyzer) testClause(c ctx, st *state, tc *syntax.TestClause) {
	var words []*syntax.Word
	syntax.Walk(tc.X, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Word:
			words = append(words, n)
			return false
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		}
		return true
	})
	a.pseudo(c, st, "[[", tc.X, nil, words...)
}

// decl handles export/declare/local/readonly/typeset: a command whose
// assignments change the shell's variables.
func (a *analyzer) decl(c ctx, st *state, dc *syntax.DeclClause) {
	variant := dc.Variant.Value
	sc := simple{src: c.src, words: []xword{knownWord(variant, variant)}}
	var arith []string
	for _, as := range dc.Args {
		collectAssign(&sc.subst, &arith, as)
	}
	exported := variant == "export"
	special := false // -A -i -l -u, +n: values we do not model (-a: arrays.go)
	nameref := false // -n: NAME=ref makes NAME a nameref (state.go)
	for _, as := range dc.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			for _, w := range a.fields(st, c.src, as.Value) {
				sc.words = append(sc.words, w)
				if v, ok := w.lit(); ok && len(v) > 1 && (v[0] == '-' || v[0] == '+') {
					for _, ch := range v[1:] {
						switch ch {
						case 'x':
							exported = exported || v[0] == '-'
						case 'n':
							nameref = nameref || v[0] == '-'
							special = special || v[0] == '+'
						case 'A', 'i', 'l', 'u':
							special = true
						}
					}
				}
			}
		}
	}
	type pending struct {
		name string
		v    variable
		set  bool
	}
	var sets []pending
	for _, as := range dc.Args {
		if as.Name == nil {
			continue
		}
		name := as.Name.Value
		if as.Naked {
			sc.words = append(sc.words, knownWord(name, name))
			if cur, ok := st.vars[name]; nameref || variant == "local" && ok && (cur.ref != "" || cur.refUnset) {
				// A nameref without a target yet; a local of a
				// nameref's name is read as one too.
				sets = append(sets, pending{name: name, v: variable{opaque: true, refUnset: true}, set: true})
			} else if variant == "local" {
				sets = append(sets, pending{name: name, v: variable{}, set: true})
			} else {
				sets = append(sets, pending{name: name})
			}
			continue
		}
		w, v := a.assignValue(st, c.src, as)
		switch {
		case special:
			v = opaqueVar
		case nameref:
			v = asRef(v)
		}
		sc.assigns = append(sc.assigns, ir.Assign{Name: name, Value: w.word()})
		arg := xword{parts: append([]part{{text: name + "="}}, w.parts...), raw: nodeText(c.src, as)}
		sc.words = append(sc.words, arg)
		sets = append(sets, pending{name: name, v: v, set: true})
	}
	a.run(c, st, &sc)
	for _, p := range sets {
		if p.set {
			p.v.exported = exported
			st.setVar(p.name, p.v)
		} else if exported {
			v, ok := st.vars[p.name]
			if !ok {
				if lv, found := a.lookup(st, p.name); found {
					v = lv
				} else {
					v = opaqueVar
				}
			}
			v.exported = true
			st.setVar(p.name, v)
		}
	}
	for _, n := range arith {
		st.forget(n)
	}
}

// assignValue evaluates NAME=value (or NAME+=value); arrays are unknown.
func (a *analyzer) assignValue(st *state, src string, as *syntax.Assign) (xword, variable) {
	if as.Array != nil {
		return a.arrayAssign(st, src, as)
	}
	if as.Index != nil {
		w := a.single(st, src, as.Value, modeAssign)
		return w, a.indexAssign(st, as, w)
	}
	w := a.single(st, src, as.Value, modeAssign)
	v := variable{val: w.parts}
	if as.Append {
		old, ok := a.lookup(st, as.Name.Value)
		if !ok || old.opaque {
			return w, opaqueVar
		}
		v.val = append(slices.Clone(old.val), w.parts...)
	}
	return w, v
}

// call handles a simple command (or a redirect-only statement).
func (a *analyzer) call(c ctx, st *state, ce *syntax.CallExpr, redirs []*syntax.Redirect) {
	if ce != nil && len(ce.Args) > 0 && c.dialect == ir.Bash {
		if name, text, ok := a.aliasFor(st, ce.Args[0]); ok && a.expandAlias(c, st, ce, redirs, name, text) {
			return
		}
	}
	sc := simple{src: c.src, plain: true}
	var arith []string
	var assigns []*syntax.Assign
	var args []*syntax.Word
	if ce != nil {
		assigns, args = ce.Assigns, ce.Args
	}
	for _, as := range assigns {
		collectAssign(&sc.subst, &arith, as)
	}
	for _, w := range args {
		collect(&sc.subst, &arith, w)
	}
	for _, r := range redirs {
		n := len(sc.subst)
		collect(&sc.subst, &arith, r.Word)
		if r.Op != syntax.WordHdoc {
			n = len(sc.subst)
		}
		collect(&sc.subst, &arith, r.Hdoc)
		for _, x := range sc.subst[n:] { // the text of a here-string or heredoc is the command's input
			if sc.stdinSubst == nil {
				sc.stdinSubst = map[syntax.Node]bool{}
			}
			sc.stdinSubst[x] = true
		}
	}
	pure := len(args) == 0
	sc.words = make([]xword, 0, len(args))
	// Arguments are expanded before prefix assignments take effect.
	for _, w := range args {
		if a.words >= maxWords {
			a.out.Truncated = true
			break
		}
		n := len(sc.words)
		sc.words = a.appendFields(sc.words, st, c.src, w)
		a.words += len(sc.words) - n
	}
	target := st
	if !pure && len(assigns) > 1 {
		target = st.clone()
	}
	for _, as := range assigns {
		if as.Name == nil {
			continue
		}
		if a.words >= maxWords {
			a.out.Truncated = true
			break
		}
		a.words++
		name := as.Name.Value
		w, v := a.assignValue(target, c.src, as)
		sc.assigns = append(sc.assigns, ir.Assign{Name: name, Value: w.word()})
		if pure {
			st.setVar(name, v)
			continue
		}
		if sc.env == nil {
			sc.env = make(map[string]variable)
		}
		sc.env[name] = v
		if target != st {
			target.setVar(name, v)
		}
	}
	sc.redirs, sc.stdin, sc.stdinOp = a.redirects(st, c.src, redirs)
	a.run(c, st, &sc)
	for _, n := range arith {
		st.forget(n)
	}
}

// redirects evaluates a statement's redirections; stdin is the last
// heredoc or here-string feeding fd 0.
func (a *analyzer) redirects(st *state, src string, rs []*syntax.Redirect) (out []ir.Redirect, stdin *xword, op string) {
	for _, r := range rs {
		if a.words >= maxWords {
			a.out.Truncated = true
			break
		}
		a.words++
		rd := ir.Redirect{Op: r.Op.String()}
		if r.N != nil {
			rd.Fd = r.N.Value
			if name, ok := fdVarName(rd.Fd); ok && !closesFd(r) {
				// {NAME}>FILE: bash opens a descriptor of its own (10 or
				// above) and stores its number in NAME; a later >&$NAME
				// duplicates it and names no file.
				st.setVar(name, variable{val: []part{{text: "10"}}})
			}
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			rd.Target = a.single(st, src, r.Word, modeQuotedSingle).word()
			body := a.heredoc(st, src, r.Hdoc, wordQuoted(r.Word), r.Op == syntax.DashHdoc)
			rd.Body = body.value()
			if rd.Fd == "" || rd.Fd == "0" {
				stdin, op = &body, "<<"
			}
		case syntax.RdrIn:
			// < FILE of a file written earlier in the line: its text.
			w := a.single(st, src, r.Word, modeSingle)
			rd.Target = w.word()
			if t, ok := writtenText(st, w); ok && (rd.Fd == "" || rd.Fd == "0") {
				stdin, op = &t, "<"
			}
		case syntax.WordHdoc:
			w := a.single(st, src, r.Word, modeSingle)
			rd.Target = w.word()
			if rd.Fd == "" || rd.Fd == "0" {
				stdin, op = &w, "<<<"
			}
		default:
			if r.Word != nil {
				rd.Target = a.single(st, src, r.Word, modeSingle).word()
			}
		}
		out = append(out, rd)
	}
	return out, stdin, op
}

// fdVarName returns NAME of a {NAME} redirection's descriptor word.
func fdVarName(fd string) (string, bool) {
	if len(fd) < 3 || fd[0] != '{' || fd[len(fd)-1] != '}' {
		return "", false
	}
	name := fd[1 : len(fd)-1]
	for i := 0; i < len(name); i++ {
		ch := name[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return "", false
		}
	}
	return name, true
}

// closesFd reports a redirection that closes its descriptor ({fd}>&-,
// {fd}<&-): it reads NAME rather than setting it.
func closesFd(r *syntax.Redirect) bool {
	return (r.Op == syntax.DplOut || r.Op == syntax.DplIn) && r.Word != nil && r.Word.Lit() == "-"
}

// wordQuoted reports whether a heredoc delimiter is quoted (the body is
// then taken literally).
func wordQuoted(w *syntax.Word) bool {
	if w == nil {
		return false
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		case *syntax.Lit:
			for i := 0; i < len(p.Value); i++ {
				if p.Value[i] == '\\' {
					return true
				}
			}
		}
	}
	return false
}

// collect finds the substitutions inside n (not inside each other) and the
// variables arithmetic in n assigns.
func collect(subst *[]syntax.Node, arith *[]string, n syntax.Node) {
	if n == nil {
		return
	}
	if w, ok := n.(*syntax.Word); ok {
		if w == nil || plainWord(w) {
			return
		}
	}
	// The walk appends to copies: the closure would otherwise make the
	// caller's slices (and whatever holds them) escape on every call.
	found, assigned := *subst, *arith
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = append(found, n)
			return false
		case *syntax.BinaryArithm:
			switch n.Op {
			case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn,
				syntax.QuoAssgn, syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn,
				syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
				if w, ok := n.X.(*syntax.Word); ok {
					if l := w.Lit(); l != "" {
						assigned = append(assigned, l)
					}
				}
			}
		case *syntax.UnaryArithm:
			switch n.Op {
			case syntax.Inc, syntax.Dec:
				if w, ok := n.X.(*syntax.Word); ok {
					if l := w.Lit(); l != "" {
						assigned = append(assigned, l)
					}
				}
			}
		}
		return true
	})
	*subst, *arith = found, assigned
}

// plainWord reports a word made of literals and single quotes only: no
// substitution or arithmetic can hide in it.
func plainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		default:
			return false
		}
	}
	return true
}

func collectAssign(subst *[]syntax.Node, arith *[]string, as *syntax.Assign) {
	if as.Value != nil {
		collect(subst, arith, as.Value)
	}
	if as.Array != nil {
		collect(subst, arith, as.Array)
	}
	if as.Index != nil {
		collect(subst, arith, as.Index)
	}
}
