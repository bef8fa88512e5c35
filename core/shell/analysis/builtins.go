package analysis

import (
	"slices"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// builtin applies the effect a command has on the shell that runs it:
// directory changes, assignments, forgotten variables, positional
// parameters.
func (a *analyzer) builtin(c ctx, st *state, ex exec) {
	switch c.dialect {
	case ir.PowerShell:
		a.psBuiltin(st, ex)
		return
	case ir.Cmd:
		a.cmdBuiltin(st, ex)
		return
	}
	ws := ex.words
	switch ex.name {
	case "cd", "chdir":
		i := 1
		for i < len(ws) {
			v, ok := ws[i].lit()
			if !ok || v == "-" || len(v) < 2 || v[0] != '-' {
				break
			}
			i++
			if v == "--" {
				break
			}
		}
		if i >= len(ws) {
			if h, ok := ex.env["HOME"]; ok { // HOME=/x cd
				st.chdir(xword{parts: h.val, raw: ""}.word(), ir.Bash)
				return
			}
			a.cdHome(st, ir.Bash)
			return
		}
		if v, ok := ws[i].lit(); ok && v == "-" {
			if st.oldSet {
				old := st.old
				st.setChain(old)
			} else {
				st.chdir(unknownStep("-"), ir.Bash)
			}
			return
		}
		st.chdir(a.cdStep(st, ex, ws[i]), ir.Bash)
	case "pushd":
		a.pushd(st, ws, "-")
	case "popd":
		a.popd(st, ws, "-", ir.Bash)
	case "unset":
		for _, w := range ws[1:] {
			if v, ok := w.lit(); ok && !strings.HasPrefix(v, "-") {
				st.forget(arrayBase(v))
			}
		}
	case "read":
		forgetRead(st, ws)
	case "mapfile", "readarray":
		i, _ := readOpts(ws, 1, cmdfacts.ShellOptions(ex.name).Spec)
		for _, w := range ws[i:] {
			st.forget(w.value())
		}
	case "getopts":
		if len(ws) > 2 {
			st.forget(ws[2].value())
		}
	case "printf":
		if len(ws) > 2 {
			if v, ok := ws[1].lit(); ok && v == "-v" {
				name := ws[2].value()
				if val, known := printfValue(ws[3:]); known {
					st.setVar(name, variable{val: []part{{text: val}}})
				} else {
					st.forget(name)
				}
			}
		}
	case "set":
		a.setBuiltin(st, ws)
	case "shift":
		n := 1
		if len(ws) > 1 {
			v, ok := ws[1].lit()
			k, err := strconv.Atoi(v)
			if !ok || err != nil {
				st.posKnown = false
				return
			}
			n = k
		}
		if st.posKnown && n >= 0 && n <= len(st.pos) {
			st.pos = st.pos[n:]
		} else {
			st.posKnown = false
		}
	case "alias", "unalias":
		a.aliasBuiltin(st, ex)
	case "exit":
		st.ended = true // a join leaves this path out (branches.go)
	case "source", ".":
		if a.sourcedRead == ex.idx+1 {
			break // its text was read from disk and ran in st (ondisk.go)
		}
		// The sourced file may set anything the script set before.
		for name, v := range st.vars {
			nv := opaqueVar
			nv.exported = v.exported
			st.setVar(name, nv)
		}
	case "":
		if len(ws) == 0 {
			return
		}
	}
}

// cdStep is the chain step for cd DIR: with $CDPATH set, a relative DIR
// not starting with . may land in any CDPATH entry, so it is unknown.
func (a *analyzer) cdStep(st *state, ex exec, w xword) ir.Word {
	step := w.word()
	v := step.Value
	if step.Unknown || strings.HasPrefix(v, "/") || strings.HasPrefix(v, ".") {
		return step
	}
	cdpath, set := ex.env["CDPATH"]
	if !set {
		cdpath, set = a.lookup(st, "CDPATH")
	}
	if set && (cdpath.opaque || joinParts(cdpath.val) != "") {
		step.Unknown, step.KnownPrefix = true, ""
	}
	return step
}

func (a *analyzer) cdHome(st *state, d ir.Dialect) {
	if h, ok := a.lookup(st, "HOME"); ok && partsKnown(h.val) {
		st.chdir(ir.Word{Value: joinParts(h.val), KnownPrefix: joinParts(h.val)}, d)
		return
	}
	st.chdir(unknownStep("~"), d)
}

// pushd DIR | pushd (swap) | pushd +N; optPrefix is "-" (bash) or "/"
// (cmd).
func (a *analyzer) pushd(st *state, ws []xword, optPrefix string) {
	i := 1
	for i < len(ws) {
		v, ok := ws[i].lit()
		if !ok || !strings.HasPrefix(v, optPrefix) || v == optPrefix {
			break
		}
		if v == "-n" || strings.HasPrefix(v, "-") && len(v) > 1 && v[1] >= '0' && v[1] <= '9' {
			st.chdir(unknownStep(v), ir.Bash)
			st.dirsLost = true
			return
		}
		i++
	}
	if i >= len(ws) {
		if len(st.dirs) == 0 || st.dirsLost {
			st.chdir(unknownStep("pushd"), ir.Bash)
			return
		}
		top := st.dirs[len(st.dirs)-1]
		st.dirs = append(slices.Clip(st.dirs[:len(st.dirs)-1]), st.cd)
		st.setChain(top)
		return
	}
	if v, ok := ws[i].lit(); ok && (strings.HasPrefix(v, "+") && len(v) > 1) {
		st.chdir(unknownStep(v), ir.Bash)
		st.dirsLost = true
		return
	}
	st.pushDir()
	st.chdir(ws[i].word(), ir.Bash)
}

func (a *analyzer) popd(st *state, ws []xword, optPrefix string, d ir.Dialect) {
	if len(ws) > 1 {
		if v, ok := ws[1].lit(); ok && v != "" && (v[0] == '+' || strings.HasPrefix(v, optPrefix)) {
			st.chdir(unknownStep(v), d)
			st.dirsLost = true
			return
		}
	}
	if len(st.dirs) == 0 || st.dirsLost {
		st.chdir(unknownStep("popd"), d)
		return
	}
	top := st.dirs[len(st.dirs)-1]
	st.dirs = st.dirs[:len(st.dirs)-1]
	st.setChain(top)
}

// setBuiltin: set -- ARGS (or set ARGS) replaces the positional parameters.
func (a *analyzer) setBuiltin(st *state, ws []xword) {
	for i := 1; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			st.pos, st.posKnown = slices.Clone(ws[i:]), true
			return
		}
		switch {
		case v == "--" || v == "-":
			st.pos, st.posKnown = slices.Clone(ws[i+1:]), true
			return
		case v == "-o" || v == "+o":
			i++
		case strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+"):
		default:
			st.pos, st.posKnown = slices.Clone(ws[i:]), true
			return
		}
	}
}

// psBuiltin tracks Set-Location / Push-Location / Pop-Location (and their
// aliases cd, chdir, sl, pushd, popd).
func (a *analyzer) psBuiltin(st *state, ex exec) {
	switch ex.name {
	case "cd", "chdir", "sl", "set-location", "pushd", "push-location":
		var target *xword
		for i := 1; i < len(ex.words); i++ {
			v, ok := ex.words[i].lit()
			if ok && strings.HasPrefix(v, "-") && len(v) > 1 {
				lv := strings.ToLower(v)
				if strings.HasPrefix(lv, "-path") || strings.HasPrefix(lv, "-literalpath") || lv == "-lp" {
					if i+1 < len(ex.words) {
						target = &ex.words[i+1]
					}
					break
				}
				if lv == "-stackname" {
					i++
				}
				continue
			}
			target = &ex.words[i]
			break
		}
		push := ex.name == "pushd" || ex.name == "push-location"
		if push {
			st.pushDir()
		}
		switch {
		case target == nil && push:
		case target == nil:
			a.cdHome(st, ir.PowerShell)
		case target.value() == "-" && target.known():
			st.chdir(unknownStep("-"), ir.PowerShell)
		default:
			st.chdir(target.word(), ir.PowerShell)
		}
	case "popd", "pop-location":
		a.popd(st, ex.words[:1], "-", ir.PowerShell)
	}
}

// cmdBuiltin tracks cd / chdir [/d] DIR, pushd DIR and popd in cmd.exe.
// A bare cd only prints the directory.
func (a *analyzer) cmdBuiltin(st *state, ex exec) {
	switch ex.name {
	case "cd", "chdir":
		ws := ex.words[1:]
		if len(ws) > 0 {
			if v, ok := ws[0].lit(); ok && strings.EqualFold(v, "/d") {
				ws = ws[1:]
			}
		}
		if len(ws) == 0 {
			return
		}
		st.chdir(joinWords(ws), ir.Cmd)
	case "pushd":
		if len(ex.words) < 2 {
			return
		}
		st.pushDir()
		st.chdir(joinWords(ex.words[1:]), ir.Cmd)
	case "popd":
		a.popd(st, ex.words[:1], "/", ir.Cmd)
	}
}

// joinWords joins words with spaces into one Word (cmd's cd takes the rest
// of the line as the directory).
func joinWords(ws []xword) ir.Word {
	if len(ws) == 1 {
		return ws[0].word()
	}
	var x xword
	var raws []string
	for i, w := range ws {
		if i > 0 {
			x.parts = appendPart(x.parts, part{text: " "})
		}
		for _, p := range w.parts {
			x.parts = appendPart(x.parts, p)
		}
		raws = append(raws, w.raw)
	}
	x.raw = strings.Join(raws, " ")
	return x.word()
}

// printfValue is what printf FORMAT ARGS prints, for a known format made
// of text, %s and %% (each %s takes the next known argument; a format
// used again for leftover arguments, escapes or other conversions are
// not evaluated). known is false otherwise.
func printfValue(ws []xword) (string, bool) {
	if len(ws) == 0 {
		return "", false
	}
	format, ok := ws[0].lit()
	if !ok || strings.Contains(format, "\\") {
		return "", false
	}
	args := ws[1:]
	var b strings.Builder
	next := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's':
			if next < len(args) {
				v, known := args[next].lit()
				if !known {
					return "", false
				}
				b.WriteString(v)
				next++
			}
		default:
			return "", false
		}
	}
	if next < len(args) {
		return "", false // the format is reused for the rest
	}
	return b.String(), true
}

// forgetRead: read [OPTIONS] [NAME...] sets its names (REPLY without
// one) and the array of -a NAME to what it reads, unknown here.
func forgetRead(st *state, ws []xword) {
	r := cmdfacts.ShellOptions("read")
	i, o := readOpts(ws, 1, r.Spec)
	if v := o.val(r.Sets...); v != nil {
		st.forget(v.value())
	}
	if i >= len(ws) {
		st.forget("REPLY")
	}
	for _, w := range ws[i:] {
		st.forget(w.value())
	}
}
