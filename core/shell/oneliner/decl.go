package oneliner

import (
	"strings"
)

// ---- declarations: imports, aliases and single-assignment literals

// prepass records module aliases (const fs = require('fs'), import shutil
// as sh, from os import remove) and variables assigned exactly once
// (d = '/etc'), so calls can be resolved. A name assigned more than once,
// or bound by a loop, stays unknown.
func (p *parser) prepass() {
	n := len(p.toks)
	count := map[string]int{}
	for i := 0; i < n; i++ {
		t := p.toks[i]
		if t.kind != tkIdent {
			continue
		}
		if i+1 < n && isAssignOp(p.toks[i+1]) && !p.memberOp(i-1) {
			count[p.varKey(t.text)]++
		}
		switch strings.ToLower(t.text) {
		case "for", "foreach", "each", "repeat", "with", "as", "catch", "except":
			// Names bound by loops and handlers: the next identifiers.
			for j := i + 1; j < n && j <= i+4; j++ {
				if p.toks[j].kind == tkIdent {
					count[p.varKey(p.toks[j].text)] += 2
				}
			}
		case "set":
			if p.fam == famOSA && i+2 < n && strings.EqualFold(p.toks[i+2].text, "to") {
				count[p.varKey(p.toks[i+1].text)]++
			}
		}
		if p.fam == famRuby && p.is(i-1, "|") { // block parameters |x, y|
			count[t.text] += 2
		}
	}
	level := 0
	for i := 0; i < n; i++ {
		t := p.toks[i]
		if t.kind == tkPunct {
			switch t.text {
			case "(", "[":
				level++
			case ")", "]":
				level = max(level-1, 0)
			}
			continue
		}
		if t.kind != tkIdent {
			continue
		}
		switch {
		case p.fam == famJS && t.text == "import" && !p.is(i+1, "(") && level == 0:
			p.jsImport(i)
		case p.fam == famJS && (t.text == "const" || t.text == "let" || t.text == "var") && p.is(i+1, "{"):
			p.jsDestructure(i+1, count)
		case p.fam == famPython && (t.text == "import" || t.text == "from") && (i == 0 || p.toks[i-1].kind == tkLine || p.is(i-1, ";")):
			p.pyImport(i)
		case p.fam == famOSA && strings.EqualFold(t.text, "set") && i+2 < n && strings.EqualFold(p.toks[i+2].text, "to"):
			if key := p.varKey(p.toks[i+1].text); count[key] == 1 {
				end := p.exprEnd(i + 3)
				if v := p.eval(i+3, end, 0); v.str || v.isList {
					p.vars[key] = v
				}
			}
		}
		// After a comma only in JS (const a = x, b = y declares both; a
		// Python or Ruby a, b = x unpacks).
		if level == 0 && p.is(i+1, "=") && !p.memberOp(i-1) && (!p.is(i-1, ",") || p.fam == famJS) &&
			count[p.varKey(t.text)] == 1 {
			end := p.exprEnd(i + 2)
			if v := p.eval(i+2, end, 0); v.str || v.isList || v.mod != "" || v.ctor != "" || v.obj != nil {
				p.vars[p.varKey(t.text)] = v
			}
		}
	}
}

func (p *parser) varKey(name string) string {
	if p.fam == famOSA {
		return strings.ToLower(name)
	}
	return name
}

// exprEnd returns the end of the expression starting at j: a statement
// separator, a comma, a closer, or a low-precedence keyword.
func (p *parser) exprEnd(j int) int {
	return p.endAt(j, func(k int, t token) bool {
		switch t.kind {
		case tkPunct:
			return t.text == ";" || t.text == "," || t.text == ")" || t.text == "]" || t.text == "}"
		case tkIdent:
			return k > j && (t.text == "or" || t.text == "and" || t.text == "if" || t.text == "unless") &&
				(p.fam == famPerl || p.fam == famRuby)
		}
		return false
	})
}

// endAt returns the index of the first token from j on that ends what
// starts at j: a line break, or a token for which stop holds. Brackets
// and strings are stepped over whole (skip), so only this nesting level
// is looked at; len(p.toks) when nothing ends it. Cost: linear in the
// tokens walked.
func (p *parser) endAt(j int, stop func(k int, t token) bool) int {
	n := len(p.toks)
	for k := j; k < n; {
		if t := p.toks[k]; t.kind == tkLine || stop(k, t) {
			return k
		}
		k = p.skip(k)
	}
	return n
}

// jsImport handles import X from 'm', import * as X from 'm', import {a,
// b as c} from 'm'.
func (p *parser) jsImport(i int) {
	n := len(p.toks)
	end := i + 1
	for end < n && p.toks[end].kind != tkLine && !p.is(end, ";") {
		end++
	}
	mod := ""
	for k := i + 1; k+1 < end; k++ {
		if p.toks[k].kind == tkIdent && p.toks[k].text == "from" && p.toks[k+1].kind == tkString {
			mod = p.canonModule(p.toks[k+1].text)
		}
	}
	if mod == "" {
		return
	}
	for k := i + 1; k < end; k++ {
		t := p.toks[k]
		switch {
		case p.is(k, "{"):
			close := min(p.match[k], end)
			for _, a := range p.splitArgs(k+1, close) {
				if p.toks[a.a].kind != tkIdent {
					continue
				}
				name, local := p.toks[a.a].text, p.toks[a.b-1].text
				p.vars[local] = value{mod: mod + "." + name}
			}
			k = close
		case p.is(k, "*") && k+2 < end && p.toks[k+1].text == "as":
			p.vars[p.toks[k+2].text] = value{mod: mod}
			k += 2
		case t.kind == tkIdent && t.text != "from" && t.text != "type" && k == i+1:
			p.vars[t.text] = value{mod: mod}
		}
	}
}

// jsDestructure handles const { a, b: c } = require('m').
func (p *parser) jsDestructure(open int, count map[string]int) {
	close := p.match[open]
	if close >= len(p.toks) || !p.is(close+1, "=") {
		return
	}
	v := p.eval(close+2, p.exprEnd(close+2), 0)
	if v.mod == "" {
		return
	}
	for _, a := range p.splitArgs(open+1, close) {
		if p.toks[a.a].kind != tkIdent {
			continue
		}
		name, local := p.toks[a.a].text, p.toks[a.b-1].text
		if p.toks[a.b-1].kind == tkIdent && count[local] == 0 {
			p.vars[local] = value{mod: v.mod + "." + name}
		}
	}
}

// pyImport handles import a.b as c, d and from m import x as y, z / *.
func (p *parser) pyImport(i int) {
	n := len(p.toks)
	end := i + 1
	for end < n && p.toks[end].kind != tkLine && !p.is(end, ";") {
		end++
	}
	dotted := func(k int) (string, int) {
		var parts []string
		for k < end && p.toks[k].kind == tkIdent {
			parts = append(parts, p.toks[k].text)
			if !p.is(k+1, ".") {
				k++
				break
			}
			k += 2
		}
		return strings.Join(parts, "."), k
	}
	k := i + 1
	from := ""
	if p.toks[i].text == "from" {
		from, k = dotted(k)
		if k >= end || p.toks[k].text != "import" {
			return
		}
		k++
	}
	for k < end {
		if p.is(k, "(") || p.is(k, ")") || p.is(k, ",") {
			k++
			continue
		}
		if p.is(k, "*") && from != "" {
			p.star = append(p.star, from)
			k++
			continue
		}
		name, next := dotted(k)
		if name == "" {
			k++
			continue
		}
		local := name
		if next+1 < end && p.toks[next].text == "as" {
			local = p.toks[next+1].text
			next += 2
		}
		switch {
		case from != "":
			p.vars[local] = value{mod: from + "." + name}
		case local != name:
			p.vars[local] = value{mod: name}
		}
		k = next
	}
}
