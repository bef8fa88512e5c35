package oneliner

// ---- Haskell (ghc -e): application by juxtaposition

// haskell visits the calls of Haskell code. A call is a function name,
// qualified or not (System.Process.callCommand, P.callCommand and
// callCommand are one call), applied to the atoms after it: strings,
// numbers, names, bracketed lists and parenthesised expressions, and
// "$ rest" as one last argument. An IO action's result bound into a call
// counts as its argument: getHomeDirectory >>= removeDirectoryRecursive,
// removeDirectoryRecursive =<< getHomeDirectory, and h <- getHomeDirectory
// in a do block makes h the home directory. Cost: linear in the tokens.
func (p *parser) haskell() {
	n := len(p.toks)
	for i := 0; i+2 < n; i++ {
		if p.toks[i].kind == tkIdent && p.is(i+1, "<-") {
			if v := p.eval(i+2, p.hsEnd(i+2), 0); v.str {
				p.vars[p.toks[i].text] = v
			}
		}
	}
	for i := 0; i < n && !p.done(); i++ {
		*p.work--
		if p.toks[i].kind != tkIdent || p.memberOp(i-1) {
			continue
		}
		end := p.hsName(i)
		key := p.toks[end-1].text
		if r, _ := p.spec(key, 0); r.kind == roleNone {
			i = end - 1
			continue
		}
		args := p.hsArgs(end)
		if len(args) == 0 {
			switch {
			case p.is(i-1, ">>=") && i >= 2:
				args = []callArg{{a: p.hsStart(i - 2), b: i - 1}}
			case p.is(end, "=<<"):
				args = []callArg{{a: end + 1, b: p.hsEnd(end + 1)}}
			}
		}
		p.call(key, value{}, args)
		i = end - 1
	}
}

// hsKeywords are the words that end an application's arguments.
var hsKeywords = map[string]bool{
	"do": true, "let": true, "in": true, "where": true, "if": true, "then": true, "else": true,
	"case": true, "of": true, "import": true, "module": true,
}

// hsName returns the index after the qualified name starting at i.
func (p *parser) hsName(i int) int {
	j := i + 1
	for j+1 < len(p.toks) && p.memberOp(j) && p.toks[j+1].kind == tkIdent {
		j += 2
	}
	return j
}

// hsStart returns the first token of the expression ending at k (the
// left operand of >>=): back to a line break, ";", an opening bracket, a
// bind or sequence operator, $, =, <- or a keyword, groups skipped.
func (p *parser) hsStart(k int) int {
	start := k + 1
	for ; k >= 0; k-- {
		t := p.toks[k]
		if t.kind == tkPunct && (t.text == ")" || t.text == "]" || t.text == "}") && p.match[k] >= 0 && p.match[k] < k {
			k = p.match[k]
			start = k
			continue
		}
		if t.kind == tkLine || t.kind == tkPunct && oneOf(t.text, "; ( [ { >>= =<< >> $ = <- ,") ||
			t.kind == tkIdent && hsKeywords[t.text] {
			break
		}
		start = k
	}
	return start
}

// hsArgs returns the atoms applied to the function whose name ends
// before j.
func (p *parser) hsArgs(j int) []callArg {
	var out []callArg
	n := len(p.toks)
	for j < n && len(out) < 16 {
		t := p.toks[j]
		switch {
		case p.is(j, "$"):
			return append(out, callArg{a: j + 1, b: p.hsEnd(j + 1)})
		case t.kind == tkString || t.kind == tkNumber:
			out = append(out, callArg{a: j, b: j + 1})
			j++
		case p.is(j, "(") || p.is(j, "["):
			e := min(p.match[j]+1, n)
			out = append(out, callArg{a: j, b: e})
			j = e
		case t.kind == tkIdent && !hsKeywords[t.text]:
			e := p.hsName(j)
			out = append(out, callArg{a: j, b: e})
			j = e
		default:
			return out
		}
	}
	return out
}

// hsEnd returns the end of the expression starting at j: a line break,
// ";", a closing bracket, a bind operator or a keyword.
func (p *parser) hsEnd(j int) int {
	return p.endAt(j, func(_ int, t token) bool {
		switch t.kind {
		case tkPunct:
			switch t.text {
			case ";", ")", "]", "}", ">>=", "=<<", ">>", "|":
				return true
			}
		case tkIdent:
			return hsKeywords[t.text]
		}
		return false
	})
}

// hsApply evaluates an application [a,b) whose function the scanner can
// compute (getHomeDirectory, getEnv "HOME", System.Directory.
// getCurrentDirectory); ok is false for anything else.
func (p *parser) hsApply(a, b, depth int) (value, bool) {
	if p.toks[a].kind != tkIdent {
		return value{}, false
	}
	end := p.hsName(a)
	if end == a+1 && end == b {
		if _, ok := p.vars[p.toks[a].text]; ok {
			return value{}, false
		}
	}
	args := p.hsArgs(end)
	if len(args) > 0 && args[len(args)-1].b != b || len(args) == 0 && end != b {
		return value{}, false
	}
	v := p.pure(p.toks[end-1].text, value{}, args, depth)
	return v, v.str
}
