package oneliner

import "strings"

// Functions named by a string: PHP calls a string as a function
// (call_user_func('system', $cmd), array_map('unlink', glob('/etc/*')),
// $f = 'passthru'; $f($cmd), ('shell_exec')($cmd)). The named function is
// judged as if called with the values it receives.

// callback applies a callback role of the API table, whose function
// name is at argument r.arg: roleCallback (its arguments after it),
// roleCallbackArr (its arguments in the list after it), roleMapCallback
// (applied to each element of the lists after it), roleWalkCallback
// (applied to each element of argument 0).
func (p *parser) callback(r role, args []callArg) {
	n := r.arg
	pos := positional(args)
	if n >= len(pos) {
		return
	}
	fn := p.eval(pos[n].a, pos[n].b, 0)
	if !fn.known() {
		return
	}
	var vals []value
	for _, a := range pos {
		vals = append(vals, p.eval(a.a, a.b, 0))
	}
	name := strings.ToLower(strings.TrimPrefix(fn.s, `\`))
	switch r.kind {
	case roleCallback:
		p.applyValues(name, vals[n+1:])
	case roleCallbackArr:
		if n+1 < len(vals) && vals[n+1].isList {
			p.applyValues(name, vals[n+1].list)
		} else {
			p.applyValues(name, nil)
		}
	case roleMapCallback, roleWalkCallback:
		from, to := n+1, len(vals)
		if r.kind == roleWalkCallback {
			from, to = 0, 1
		}
		for _, v := range vals[from:to] {
			if !v.isList {
				p.applyValues(name, []value{v})
				continue
			}
			for _, e := range v.list {
				p.applyValues(name, []value{e})
			}
		}
	}
}

// applyValues judges a call of the function named name with argument
// values: the value forms of the delete, write, move and exec roles.
func (p *parser) applyValues(name string, vals []value) {
	r, key := p.spec(name, len(vals))
	if r.kind == roleNone || *p.work <= 0 {
		return
	}
	*p.work--
	n := r.arg
	arg := func(i int) value {
		if i < len(vals) {
			return vals[i]
		}
		return value{}
	}
	switch r.kind {
	case roleDelete, roleWrite:
		p.path(r.kind.pathOp(), arg(n), key)
	case roleDeleteAll, roleWriteAll:
		for _, v := range vals {
			p.path(r.kind.pathOp(), v, key)
		}
	case roleMove:
		p.path("delete", arg(0), key)
		p.path("write", arg(1), key)
	case roleExec, roleExecList:
		p.exec(arg(n), key)
	case roleExecAll, roleExecVar, roleExecProg, roleExecShell:
		if len(vals) == 1 && !vals[0].isList {
			p.exec(vals[0], key)
		} else {
			p.exec(value{isList: true, list: vals}, key)
		}
	}
}

// varCall judges $f(args) in PHP where $f holds a function's name.
func (p *parser) varCall(name string, args []callArg) bool {
	if p.fam != famPHP || !strings.HasPrefix(name, "$") {
		return false
	}
	v, ok := p.vars[p.varKey(name)]
	if !ok || !v.known() {
		return false
	}
	var vals []value
	for _, a := range positional(args) {
		vals = append(vals, p.eval(a.a, a.b, 0))
	}
	p.applyValues(strings.ToLower(strings.TrimPrefix(v.s, `\`)), vals)
	return true
}

// stringCall judges ('name')(args) in PHP: a string called as a function;
// open and close delimit the parenthesised string.
func (p *parser) stringCall(open, close int) {
	if p.fam != famPHP || !p.is(close+1, "(") {
		return
	}
	fn := p.eval(open, close+1, 0)
	if !fn.known() {
		return
	}
	var vals []value
	for _, a := range positional(p.splitArgs(close+2, p.match[close+1])) {
		vals = append(vals, p.eval(a.a, a.b, 0))
	}
	p.applyValues(strings.ToLower(fn.s), vals)
}
