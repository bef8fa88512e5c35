package analysis

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Bash indexed arrays: a command kept in an array and run as its elements
// (cmd=(rm -rf /); "${cmd[@]}") is a command like any other. An array
// assigned from a list of known words (name=(...), name+=(...), declare -a
// / local -a name=(...), name[N]=word) is tracked element by element; the
// expansions "${a[@]}", ${a[*]}, "${a[*]}", ${a[N]}, ${a[@]:OFF:LEN},
// ${#a[@]}, ${#a[N]} and $a (element 0) are resolved from it. Anything else
// (associative arrays, computed indices, elements with [k]=, mapfile,
// read -a) makes the array unknown, as before.

// maxArrayElems bounds the elements one array keeps; a longer array is
// unknown.
const maxArrayElems = 256

// arrayAssign evaluates NAME=(...) or NAME+=(...). The word reported as
// the assignment's value is the list's source text, unknown.
func (a *analyzer) arrayAssign(st *state, src string, as *syntax.Assign) (xword, variable) {
	t := a.fillRaw(nodeText(src, as.Array))
	w := unknownWord(t, t)
	var elems []xword
	if as.Append && as.Name != nil {
		old, ok := a.elements(st, as.Name.Value)
		if !ok {
			return w, opaqueVar
		}
		elems = old
	}
	for _, e := range as.Array.Elems {
		if e.Index != nil || e.Value == nil {
			return w, opaqueVar
		}
		elems = a.appendFields(elems, st, src, e.Value)
		if len(elems) > maxArrayElems {
			return w, opaqueVar
		}
	}
	return w, variable{isArr: true, arr: elems}
}

// elements returns a copy of the elements of variable name before a
// change to it: an array's, a scalar as element 0, none when it is unset
// in the script and the environment; ok is false when they are unknown.
func (a *analyzer) elements(st *state, name string) ([]xword, bool) {
	old, set := st.vars[name]
	switch {
	case set && old.isArr:
		return append([]xword(nil), old.arr...), true
	case set && !old.opaque:
		return []xword{{parts: old.val, glob: old.glob}}, true
	case set || a.inEnviron(name) || st.varsFull:
		return nil, false
	}
	return nil, true
}

// indexAssign evaluates NAME[N]=word: the element is replaced (or added)
// when N is a literal number and the array is known; otherwise the array
// becomes unknown.
func (a *analyzer) indexAssign(st *state, as *syntax.Assign, w xword) variable {
	if as.Name == nil || as.Append {
		return opaqueVar
	}
	n, ok := literalIndex(as.Index)
	if !ok || n < 0 || n > maxArrayElems {
		return opaqueVar
	}
	elems, known := a.elements(st, as.Name.Value)
	if !known {
		return opaqueVar
	}
	if n > len(elems) {
		return opaqueVar // a sparse array: indices would shift
	}
	if n == len(elems) {
		elems = append(elems, w)
	} else {
		elems[n] = w
	}
	return variable{isArr: true, arr: elems}
}

// literalIndex reads an array subscript that is a plain decimal number
// (optionally negative).
func literalIndex(e syntax.ArithmExpr) (int, bool) {
	var lit string
	switch x := e.(type) {
	case *syntax.Word:
		lit = x.Lit()
	case *syntax.UnaryArithm:
		if x.Op != syntax.Minus || x.Post {
			return 0, false
		}
		n, ok := literalIndex(x.X)
		return -n, ok
	default:
		return 0, false
	}
	if lit == "" {
		return 0, false
	}
	n, err := strconv.Atoi(lit)
	if err != nil || n > 1<<20 {
		return 0, false
	}
	return n, true
}

// subscriptAll reports ${a[@]} (star false) or ${a[*]} (star true).
func subscriptAll(e syntax.ArithmExpr) (all, star bool) {
	w, ok := e.(*syntax.Word)
	if !ok {
		return false, false
	}
	switch w.Lit() {
	case "@":
		return true, false
	case "*":
		return true, true
	}
	return false, false
}

// arrayParam resolves an expansion of a tracked array, or of a scalar
// with a subscript. handled is false when pe is not such an expansion (the
// scalar code reads it); ok is false when the value is unknown. star
// reports ${a[*]}, whose quoted form joins the elements.
func (a *analyzer) arrayParam(st *state, pe *syntax.ParamExp) (elems [][]part, multi, glob, star, handled, ok bool) {
	name := pe.Param.Value
	if name == "@" || name == "*" || !isName(name) {
		return nil, false, false, false, false, false
	}
	v, set := st.vars[name]
	isArr := set && v.isArr
	if !isArr && pe.Index == nil {
		return nil, false, false, false, false, false
	}
	handled = true
	if pe.Excl || pe.Width || pe.IsSet || pe.Flags != nil || pe.NestedParam != nil || len(pe.Modifiers) > 0 ||
		pe.Repl != nil || pe.Names != 0 || pe.Exp != nil ||
		pe.Split != syntax.OptUnset || pe.GlobSubst != syntax.OptUnset || pe.RcExpand != syntax.OptUnset {
		return nil, false, false, false, true, false
	}
	var all []xword
	switch {
	case isArr:
		all = v.arr
	case set && !v.opaque:
		all = []xword{{parts: v.val, glob: v.glob}}
	default:
		if lv, found := a.lookup(st, name); found {
			all = []xword{{parts: lv.val, glob: lv.glob}}
			break
		}
		return nil, false, false, false, true, false
	}
	var sel []xword
	whole := false
	switch {
	case pe.Index == nil:
		if pe.Slice != nil {
			return nil, false, false, false, true, false // ${a:1} is a substring of a[0]
		}
		sel = all[:min(1, len(all))]
	default:
		if w, s := subscriptAll(pe.Index); w {
			whole, star = true, s
			sel = all
			if pe.Slice != nil {
				off, okOff := literalIndex(pe.Slice.Offset)
				if !okOff {
					return nil, false, false, false, true, false
				}
				if off < 0 {
					off += len(sel)
				}
				off = max(0, min(off, len(sel)))
				sel = sel[off:]
				if pe.Slice.Length != nil {
					n, okLen := literalIndex(pe.Slice.Length)
					if !okLen || n < 0 {
						return nil, false, false, false, true, false
					}
					sel = sel[:min(n, len(sel))]
				}
			}
			break
		}
		if pe.Slice != nil {
			return nil, false, false, false, true, false
		}
		n, okIdx := literalIndex(pe.Index)
		if !okIdx {
			return nil, false, false, false, true, false
		}
		if n < 0 {
			n += len(all)
		}
		if n >= 0 && n < len(all) {
			sel = all[n : n+1]
		}
	}
	if pe.Length {
		if whole {
			return [][]part{{{text: strconv.Itoa(len(sel))}}}, false, false, false, true, true
		}
		text := ""
		if len(sel) == 1 {
			if !sel[0].known() {
				return nil, false, false, false, true, false
			}
			text = sel[0].value()
		}
		return [][]part{{{text: strconv.Itoa(len([]rune(text)))}}}, false, false, false, true, true
	}
	if !whole {
		if len(sel) == 0 {
			return [][]part{nil}, false, false, false, true, true
		}
		return [][]part{sel[0].parts}, false, sel[0].glob, false, true, true
	}
	for _, e := range sel {
		elems = append(elems, e.parts)
		glob = glob || e.glob
	}
	return elems, true, glob, star, true, true
}

// arrayBase is the array name of an unset argument ("a[0]" gives "a").
func arrayBase(s string) string {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		return s[:i]
	}
	return s
}
