package shell

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// variable is a shell variable as far as the analysis knows it.
type variable struct {
	val      []part
	glob     bool
	opaque   bool // value wholly unknown: a reference shows its own text
	exported bool
}

var opaqueVar = variable{opaque: true}

// funcDef is a shell function seen in the script. called is shared by every
// copy of the state, so a body is analysed once.
type funcDef struct {
	body   *syntax.Stmt
	src    string
	called bool
}

// state is what one shell process knows while the script runs: variables,
// the cd chain, the pushd stack, positional parameters and functions.
// Subshells get a clone; conditional code is merged back (see merge).
type state struct {
	vars  map[string]variable
	funcs map[string]*funcDef

	cd       []Word
	old      []Word // chain before the last cd, for cd - and $OLDPWD
	oldSet   bool
	dirs     [][]Word // pushd stack
	dirsLost bool     // the stack is no longer known

	arg0     *xword
	pos      []xword
	posKnown bool

	ifs      string
	ifsSet   bool
	ifsKnown bool

	// varsFull is set once maxVars variables are tracked: assignments to
	// further names are not recorded, so every untracked name is unknown.
	varsFull bool
}

// maxVars bounds the variables a state tracks, so that cloning and merging
// stay cheap whatever the script.
const maxVars = 512

func newState() *state { return &state{} }

func (s *state) clone() *state {
	c := *s
	c.vars = maps.Clone(s.vars)
	c.funcs = maps.Clone(s.funcs)
	c.cd = slices.Clip(s.cd)
	c.old = slices.Clip(s.old)
	c.dirs = slices.Clip(s.dirs)
	c.pos = slices.Clip(s.pos)
	return &c
}

// child returns the state a child shell (bash -c, sh <<EOF) starts with:
// exported variables, the working directory, nothing else.
func (s *state) child(a *analyzer, env map[string]variable) *state {
	c := &state{cd: slices.Clip(s.cd)}
	for name, v := range s.vars {
		if v.exported || a.inEnviron(name) {
			c.setVar(name, v)
		}
	}
	for name, v := range env {
		v.exported = true
		c.setVar(name, v)
	}
	return c
}

func (s *state) setVar(name string, v variable) {
	if s.vars == nil {
		s.vars = make(map[string]variable)
	} else if old, ok := s.vars[name]; ok && old.exported {
		v.exported = true
	} else if !ok && len(s.vars) >= maxVars {
		s.varsFull = true
		if name == "IFS" {
			s.ifsSet, s.ifsKnown = true, false
		}
		return
	}
	if !v.opaque && len(joinParts(v.val)) > maxValueLen {
		v = variable{opaque: true, exported: v.exported}
	}
	s.vars[name] = v
	if name == "IFS" {
		s.ifsSet = true
		s.ifsKnown = !v.opaque && partsKnown(v.val)
		s.ifs = joinParts(v.val)
	}
}

// forget marks a variable unknown (read, unset, source ...).
func (s *state) forget(name string) {
	s.setVar(name, opaqueVar)
}

// chdir applies one directory change.
func (s *state) chdir(step Word) {
	s.old, s.oldSet = s.cd, true
	s.cd = append(slices.Clip(s.cd), step)
}

// setChain replaces the whole chain (cd -, popd).
func (s *state) setChain(chain []Word) {
	s.old, s.oldSet = s.cd, true
	s.cd = slices.Clip(chain)
}

// unknownStep is a cd step whose target the analysis cannot know.
func unknownStep(text string) Word {
	return Word{Value: text, Raw: text, Unknown: true}
}

// merge combines the states a conditional construct may end in: values
// that differ become unknown, a cd chain that differs gets an unknown step.
func (s *state) merge(outcomes []*state) {
	for _, o := range outcomes {
		if o == s {
			continue
		}
		for name, v := range o.vars {
			if cur, ok := s.vars[name]; !ok || !sameVar(cur, v) {
				nv := opaqueVar
				nv.exported = v.exported || cur.exported
				s.setVar(name, nv)
			}
		}
		for name := range s.vars {
			if _, ok := o.vars[name]; !ok {
				nv := opaqueVar
				nv.exported = s.vars[name].exported
				s.setVar(name, nv)
			}
		}
		for name, f := range o.funcs {
			if s.funcs == nil {
				s.funcs = make(map[string]*funcDef)
			}
			if _, ok := s.funcs[name]; !ok {
				s.funcs[name] = f
			}
		}
		if !sameChain(s.cd, o.cd) {
			base := s.cd
			if len(o.cd) < len(base) {
				base = o.cd
			}
			n := 0
			for n < len(base) && sameStep(s.cd[n], o.cd[n]) {
				n++
			}
			chain := append(slices.Clip(s.cd[:n]), unknownStep("(conditional)"))
			s.old, s.oldSet = nil, false
			s.cd = chain
		}
		s.varsFull = s.varsFull || o.varsFull
		if len(s.dirs) != len(o.dirs) {
			s.dirsLost = true
		}
		if s.posKnown != o.posKnown || len(s.pos) != len(o.pos) {
			s.posKnown = false
		}
	}
}

func sameVar(a, b variable) bool {
	if a.opaque || b.opaque {
		return a.opaque && b.opaque
	}
	return slices.Equal(a.val, b.val) && a.glob == b.glob
}

func sameStep(a, b Word) bool {
	return a.Value == b.Value && a.Unknown == b.Unknown
}

func sameChain(a, b []Word) bool {
	return slices.EqualFunc(a, b, sameStep)
}

// dynamicVars are bash variables whose value changes on every use.
var dynamicVars = map[string]bool{
	"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true,
	"BASHPID": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true,
	"BASH_COMMAND": true, "PIPESTATUS": true, "FUNCNAME": true,
	"BASH_SOURCE": true, "BASH_LINENO": true, "REPLY": true, "OPTARG": true,
	"OPTIND": true, "PPID": true, "UID": true, "EUID": true, "_": true,
	"ZF_DYNAMIC": true, // inline.go's ScriptDynamic: a run-time value
}

// lookup resolves a variable: script assignments, then $HOME/$PWD/$OLDPWD
// from the options and cd chain, then the process environment. ok is
// false when the variable is not known at all.
func (a *analyzer) lookup(st *state, name string) (variable, bool) {
	if orig, ok := a.holes[name]; ok {
		return variable{val: []part{{text: orig, unknown: true}}}, true
	}
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		if name == "0" {
			if st.arg0 != nil {
				return variable{val: st.arg0.parts, glob: st.arg0.glob}, true
			}
			return variable{}, false
		}
		n := 0
		for _, c := range name {
			if c < '0' || c > '9' {
				return variable{}, false
			}
			n = n*10 + int(c-'0')
			if n > 1<<20 {
				return variable{}, false
			}
		}
		if !st.posKnown {
			return variable{}, false
		}
		if n-1 < len(st.pos) {
			p := st.pos[n-1]
			return variable{val: p.parts, glob: p.glob}, true
		}
		return variable{val: nil}, true
	}
	if name == "#" {
		if !st.posKnown {
			return variable{}, false
		}
		return variable{val: []part{{text: strconv.Itoa(len(st.pos))}}}, true
	}
	if v, ok := st.vars[name]; ok {
		return v, !v.opaque
	}
	if st.varsFull {
		return variable{}, false
	}
	switch name {
	case "HOME":
		if h := a.home(); h != "" {
			return variable{val: []part{{text: h}}}, true
		}
		return variable{}, false
	case "PWD":
		if dir, ok := a.resolveChain(st.cd); ok {
			return variable{val: []part{{text: dir}}}, true
		}
		return variable{}, false
	case "OLDPWD":
		if st.oldSet {
			if dir, ok := a.resolveChain(st.old); ok {
				return variable{val: []part{{text: dir}}}, true
			}
			return variable{}, false
		}
	case "IFS":
		return variable{val: []part{{text: " \t\n"}}}, true
	}
	if dynamicVars[name] || !isName(name) {
		return variable{}, false
	}
	if a.opts.Lookup != nil {
		if v, ok := a.opts.Lookup(name); ok {
			return variable{val: []part{{text: v}}}, true
		}
	}
	return variable{}, false
}

func (a *analyzer) inEnviron(name string) bool {
	if a.opts.Lookup == nil {
		return false
	}
	_, ok := a.opts.Lookup(name)
	return ok
}

// home is the home directory: Options.Home, else $HOME from Lookup.
func (a *analyzer) home() string {
	if a.opts.Home != "" {
		return a.opts.Home
	}
	if a.opts.Lookup != nil {
		if h, ok := a.opts.Lookup("HOME"); ok {
			return h
		}
	}
	return ""
}

// resolveChain resolves a cd chain against Options.Cwd, lexically.
func (a *analyzer) resolveChain(chain []Word) (string, bool) {
	dir := a.opts.Cwd
	known := dir != ""
	for _, step := range chain {
		if step.Unknown {
			return "", false
		}
		switch {
		case strings.HasPrefix(step.Value, "/"):
			dir, known = path.Clean(step.Value), true
		case !known:
			return "", false
		default:
			dir = path.Join(dir, step.Value)
		}
	}
	return dir, known
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}
