package oneliner

import "strings"

// Functions named by a string: PHP calls a string as a function
// (call_user_func('system', $cmd), array_map('unlink', glob('/etc/*')),
// $f = 'passthru'; $f($cmd), ('shell_exec')($cmd)). The named function is
// judged as if called with the values it receives.

// callback applies a callback role of the API table: "callback"
// (callback at argument n, its arguments after it), "callbackarr" (its
// arguments in the list after it), "mapcb" (applied to each element of
// the lists after it), "walkcb" (callback at argument n, applied to each
// element of argument 0).
func (p *parser) callback(role string, n int, args []callArg) {
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
	switch role {
	case "callback":
		p.applyValues(name, vals[n+1:])
	case "callbackarr":
		if n+1 < len(vals) && vals[n+1].isList {
			p.applyValues(name, vals[n+1].list)
		} else {
			p.applyValues(name, nil)
		}
	case "mapcb", "walkcb":
		from, to := n+1, len(vals)
		if role == "walkcb" {
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
	spec, key := p.spec(name, len(vals))
	if spec == "" || *p.work <= 0 {
		return
	}
	*p.work--
	role, n := spec, 0
	if i := strings.IndexByte(spec, ':'); i >= 0 {
		role = spec[:i]
		n = int(spec[i+1] - '0')
	}
	at := func(i int) value {
		if i < len(vals) {
			return vals[i]
		}
		return value{}
	}
	switch role {
	case "delete", "write":
		p.path(role, at(n), key)
	case "deleteall", "writeall":
		for _, v := range vals {
			p.path(strings.TrimSuffix(role, "all"), v, key)
		}
	case "move":
		p.path("delete", at(0), key)
		p.path("write", at(1), key)
	case "exec", "execlist":
		p.exec(at(n), key)
	case "execall", "execvar", "execprog", "execshell":
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
