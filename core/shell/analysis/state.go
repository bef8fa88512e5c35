package analysis

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/syntax"
)

// variable is a shell variable as far as the analysis knows it.
type variable struct {
	val      []part
	glob     bool
	opaque   bool // value wholly unknown: a reference shows its own text
	exported bool
	// isArr marks an indexed array whose elements are known (arrays.go);
	// val is then unused and a plain reference reads arr[0].
	isArr bool
	arr   []xword
	// alts, on an opaque variable, are the values it may hold: conditional
	// code set it to one of them on every path (see joinVars). A command
	// reading it is judged once per value (forkStmt); any other use sees
	// an unknown value.
	alts []variable
	// ref, on an opaque variable, makes it a nameref (declare -n NAME=ref):
	// lookup reads the variable ref names, setVar writes it. Code that
	// reads vars directly sees an unknown value. refUnset marks a nameref
	// without a target yet (declare -n NAME): the next value set names
	// its target.
	ref      string
	refUnset bool
}

// maxRefHops bounds a chain of namerefs (bash warns on a cycle; the
// analysis reads the end as unknown).
const maxRefHops = 8

// asRef is the nameref a value v set on a nameref without a target
// makes: a known name is the target, anything else an unknown one.
func asRef(v variable) variable {
	if !v.opaque && !v.isArr && len(v.alts) == 0 && partsKnown(v.val) {
		if t := joinParts(v.val); isName(t) {
			return variable{opaque: true, ref: t}
		}
	}
	return variable{opaque: true, refUnset: true}
}

// size is the number of value bytes v holds.
func (v variable) size() int {
	if len(v.alts) > 0 {
		n := 0
		for _, alt := range v.alts {
			n += alt.size()
		}
		return n
	}
	if v.isArr {
		n := 0
		for _, e := range v.arr {
			n += len(e.value()) + 1
		}
		return n
	}
	return len(joinParts(v.val))
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
	// vars and funcs may be shared with clones (copy on write): they are
	// only changed through setVar and setFunc, which copy a shared map
	// first.
	vars        map[string]variable
	funcs       map[string]*funcDef
	varsShared  bool
	funcsShared bool

	cd       []ir.Word
	old      []ir.Word // chain before the last cd, for cd - and $OLDPWD
	oldSet   bool
	dirs     [][]ir.Word // pushd stack
	dirsLost bool        // the stack is no longer known

	arg0     *xword
	pos      []xword
	posKnown bool

	// aliases are the shell aliases defined so far (name -> text, "" when
	// removed); gitAliases the git aliases written with git config (name
	// -> value), which child shells see too. Copy on write (defsShared).
	aliases    map[string]string
	gitAliases map[string]string
	// written are the files written earlier in the line (see written.go):
	// key -> their literal text, nil when written with unknown text. Child
	// shells share them, like gitAliases.
	written    map[string]*xword
	defsShared bool

	ifs      string
	ifsSet   bool
	ifsKnown bool

	// varsFull is set once maxVars variables are tracked: assignments to
	// further names are not recorded, so every untracked name is unknown.
	varsFull bool

	// journal, when set, records the names this state sets (see branch).
	journal *journal

	// ended is set once the shell has exited on this path (exit): a merge
	// leaves the path out (see join).
	ended bool
	// hasAlts is set once a variable with a set of values (alts) was
	// stored: only then do statements look for one to fork on.
	hasAlts bool

	// version counts the changes of vars; childVars caches the variables a
	// child shell inherits, as of childVersion.
	version      uint64
	childVars    *state
	childVersion uint64
}

// journal lists the variables and functions a state set since the journal
// was attached, so that merging a branch back looks only at what the branch
// changed: O(changes), not O(variables).
type journal struct {
	vars, funcs []string
}

// maxVars bounds the variables (and the functions) a state tracks, so that
// cloning and merging stay cheap whatever the script.
const maxVars = 512

func newState() *state { return &state{} }

// clone returns a copy of s for a subshell or a branch. Cost: O(1); the
// maps are copied by the first write on either side.
func (s *state) clone() *state {
	s.varsShared, s.funcsShared = s.vars != nil, s.funcs != nil
	s.defsShared = s.aliases != nil || s.gitAliases != nil || s.written != nil
	c := *s
	c.cd = slices.Clip(s.cd)
	c.old = slices.Clip(s.old)
	c.dirs = slices.Clip(s.dirs)
	c.pos = slices.Clip(s.pos)
	c.journal = nil
	return &c
}

// branch returns a clone of s for code that may or may not run, recording
// what it changes; merge folds it back into s, which must not change in
// the meantime.
func (s *state) branch() *state {
	c := s.clone()
	c.journal = &journal{}
	return c
}

// child returns the state a child shell (bash -c, sh <<EOF) starts with:
// exported variables, the working directory, nothing else.
// Cost: O(variables) the first time after a change of s, then O(1) plus
// the prefix assignments.
func (s *state) child(a *analyzer, env map[string]variable) *state {
	if s.childVars == nil || s.childVersion != s.version {
		t := &state{}
		for name, v := range s.vars {
			if v.exported || a.inEnviron(name) {
				t.setVar(name, v)
			}
		}
		s.childVars, s.childVersion = t, s.version
	}
	c := s.childVars.clone()
	c.cd = slices.Clip(s.cd)
	c.aliases = nil
	c.gitAliases = s.gitAliases
	c.written = s.written
	c.defsShared = s.gitAliases != nil || s.written != nil
	if c.defsShared {
		s.defsShared = true
	}
	for name, v := range env {
		v.exported = true
		c.setVar(name, v)
	}
	return c
}

// process returns the state a Windows process started from this shell
// (powershell, cmd, Start-Process) begins with: the working directory
// only; its variables come from the environment (Options.Lookup).
func (s *state) process() *state { return &state{cd: s.cd} }

func (s *state) setVar(name string, v variable) {
	for hops := 0; v.ref == "" && !v.refUnset && hops < maxRefHops; hops++ {
		old, ok := s.vars[name]
		if ok && old.refUnset {
			v = asRef(v) // declare -n r; r=target
			break
		}
		if !ok || old.ref == "" {
			break
		}
		name = old.ref // a write through a nameref sets what it names
	}
	s.version++
	if s.journal != nil {
		s.journal.vars = append(s.journal.vars, name)
	}
	if old, ok := s.vars[name]; ok && old.exported {
		v.exported = true
	} else if !ok && len(s.vars) >= maxVars {
		s.varsFull = true
		if name == "IFS" {
			s.ifsSet, s.ifsKnown = true, false
		}
		return
	}
	if s.vars == nil {
		s.vars = make(map[string]variable)
	} else if s.varsShared {
		s.vars = maps.Clone(s.vars)
		s.varsShared = false
	}
	if v.size() > maxValueLen {
		v = variable{opaque: true, exported: v.exported}
	}
	if len(v.alts) > 0 {
		s.hasAlts = true
	}
	s.vars[name] = v
	if name == "IFS" {
		s.ifsSet = true
		s.ifsKnown = !v.opaque && partsKnown(v.val)
		s.ifs = joinParts(v.val)
	}
}

// setFunc records a function definition; past maxVars functions a new name
// is not recorded (its body is still analysed, as an uncalled function).
func (s *state) setFunc(name string, def *funcDef) {
	if s.funcs == nil {
		s.funcs = make(map[string]*funcDef)
	} else if _, ok := s.funcs[name]; !ok && len(s.funcs) >= maxVars {
		return
	}
	if s.funcsShared {
		s.funcs = maps.Clone(s.funcs)
		s.funcsShared = false
	}
	s.funcs[name] = def
	if s.journal != nil {
		s.journal.funcs = append(s.journal.funcs, name)
	}
}

// maxAliases bounds the aliases (shell and git) a state tracks.
const maxAliases = 64

// ownDefs makes the alias maps s's own before a write.
func (s *state) ownDefs() {
	if s.defsShared {
		s.aliases = maps.Clone(s.aliases)
		s.gitAliases = maps.Clone(s.gitAliases)
		s.written = maps.Clone(s.written)
		s.defsShared = false
	}
}

// setAlias records a shell alias ("" removes it).
func (s *state) setAlias(name, text string) {
	if _, ok := s.aliases[name]; !ok && len(s.aliases) >= maxAliases {
		return
	}
	s.ownDefs()
	if s.aliases == nil {
		s.aliases = make(map[string]string)
	}
	s.aliases[name] = text
}

// setGitAlias records a git alias written with git config.
func (s *state) setGitAlias(name, value string) {
	if _, ok := s.gitAliases[name]; !ok && len(s.gitAliases) >= maxAliases {
		return
	}
	s.ownDefs()
	if s.gitAliases == nil {
		s.gitAliases = make(map[string]string)
	}
	s.gitAliases[name] = value
}

// lookupRef reads the variable a nameref names, following a chain of
// namerefs up to maxRefHops.
func (a *analyzer) lookupRef(st *state, name string) (variable, bool) {
	for hops := 0; hops < maxRefHops; hops++ {
		t, ok := st.vars[name]
		if !ok || t.ref == "" {
			return a.lookup(st, name)
		}
		name = t.ref
	}
	return variable{}, false
}

// forget marks a variable unknown (read, unset, source ...).
func (s *state) forget(name string) {
	s.setVar(name, opaqueVar)
}

// chdir applies one directory change made in dialect d (see appendStep).
func (s *state) chdir(step ir.Word, d ir.Dialect) {
	s.old, s.oldSet = s.cd, true
	s.cd = appendStep(s.cd, step, d)
}

// pushDir saves the current chain on the pushd stack. Past maxDirStack
// entries the stack is no longer tracked (a later popd is unknown).
func (s *state) pushDir() {
	if len(s.dirs) >= maxDirStack {
		s.dirsLost = true
		return
	}
	s.dirs = append(slices.Clip(s.dirs), s.cd)
}

// setChain replaces the whole chain (cd -, popd).
func (s *state) setChain(chain []ir.Word) {
	s.old, s.oldSet = s.cd, true
	s.cd = slices.Clip(chain)
}

// unknownStep is a cd step whose target the analysis cannot know.
func unknownStep(text string) ir.Word {
	return ir.Word{Value: text, Raw: text, Unknown: true}
}

// merge combines the states a conditional construct may end in, each a
// branch of s, with s itself (no branch ran): values that differ become
// the set of their values, or unknown (joinVars), a cd chain that differs
// gets an unknown step; a branch that exited the shell is left out (join
// is the form for constructs where s itself is not an end). Cost: O(what
// the branches changed), or O(variables) for an outcome without a
// journal.
func (s *state) merge(outcomes []*state) {
	for _, o := range outcomes {
		if o == s || o.ended && !s.ended {
			continue // the shell exited on that path
		}
		if o.journal == nil {
			s.mergeAll(o)
		} else {
			s.mergeNames(o, o.journal.vars, o.journal.funcs)
		}
		s.mergeRest(o)
	}
}

// mergeAll folds every variable and function of o into s.
func (s *state) mergeAll(o *state) {
	for name := range o.vars {
		s.mergeVar(o, name)
	}
	for name := range s.vars {
		if _, ok := o.vars[name]; !ok {
			s.mergeVar(o, name)
		}
	}
	for name, f := range o.funcs {
		if _, ok := s.funcs[name]; !ok {
			s.setFunc(name, f)
		}
	}
}

// mergeNames folds the named variables and functions of o into s: the
// others must be the same in both.
func (s *state) mergeNames(o *state, vars, funcs []string) {
	for _, name := range vars {
		s.mergeVar(o, name)
	}
	for _, name := range funcs {
		if f, ok := o.funcs[name]; ok {
			if _, have := s.funcs[name]; !have {
				s.setFunc(name, f)
			}
		}
	}
}

// mergeVar makes a variable unknown in s when o may hold another value;
// exported in either, it stays exported.
func (s *state) mergeVar(o *state, name string) {
	cur, inS := s.vars[name]
	v, inO := o.vars[name]
	switch {
	case inS != inO || inS && !sameVar(cur, v):
		s.setVar(name, joinVars(cur, inS, v, inO))
	case inS && v.exported && !cur.exported:
		cur.exported = true
		s.setVar(name, cur)
	}
}

// mergeRest folds the cd chain, the pushd stack and the positional
// parameters of o into s.
func (s *state) mergeRest(o *state) {
	if !sameChain(s.cd, o.cd) {
		base := s.cd
		if len(o.cd) < len(base) {
			base = o.cd
		}
		n := 0
		for n < len(base) && sameStep(s.cd[n], o.cd[n]) {
			n++
		}
		s.old, s.oldSet = nil, false
		s.cd = appendStep(s.cd[:n:n], unknownStep("(conditional)"), ir.Bash)
	}
	s.adoptDefinitions(o)
	if len(s.dirs) != len(o.dirs) || o.dirsLost {
		s.dirsLost = true
	}
	if s.posKnown != o.posKnown || len(s.pos) != len(o.pos) {
		s.posKnown = false
	}
}

func sameVar(a, b variable) bool {
	if a.opaque || b.opaque {
		return a.opaque && b.opaque && slices.EqualFunc(a.alts, b.alts, sameVar)
	}
	if a.isArr || b.isArr {
		return a.isArr && b.isArr && slices.EqualFunc(a.arr, b.arr, func(x, y xword) bool {
			return slices.Equal(x.parts, y.parts) && x.glob == y.glob
		})
	}
	return slices.Equal(a.val, b.val) && a.glob == b.glob
}

func sameStep(a, b ir.Word) bool {
	return a.Value == b.Value && a.Unknown == b.Unknown
}

func sameChain(a, b []ir.Word) bool {
	return slices.EqualFunc(a, b, sameStep)
}

// dynamicVars are bash variables whose value changes on every use.
var dynamicVars = map[string]bool{
	"RANDOM": true, "SRANDOM": true, "SECONDS": true, "LINENO": true,
	"BASHPID": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true,
	"BASH_COMMAND": true, "PIPESTATUS": true, "FUNCNAME": true,
	"BASH_SOURCE": true, "BASH_LINENO": true, "REPLY": true, "OPTARG": true,
	"OPTIND": true, "PPID": true, "UID": true, "EUID": true, "_": true,
	"ZF_DYNAMIC": true, // oneliner.Dynamic: a run-time value
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
		if v.ref != "" {
			return a.lookupRef(st, v.ref)
		}
		if v.isArr {
			if len(v.arr) == 0 {
				return variable{}, true
			}
			return variable{val: v.arr[0].parts, glob: v.arr[0].glob}, true
		}
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
func (a *analyzer) resolveChain(chain []ir.Word) (string, bool) {
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

// adoptDefinitions takes from o what a later command sees whichever way o
// was reached: that its variables overflowed, its aliases and git aliases,
// and the files it wrote (keepWritten).
func (s *state) adoptDefinitions(o *state) {
	s.varsFull = s.varsFull || o.varsFull
	for name, v := range o.aliases {
		if s.aliases[name] != v {
			s.setAlias(name, v)
		}
	}
	for name, v := range o.gitAliases {
		if s.gitAliases[name] != v {
			s.setGitAlias(name, v)
		}
	}
	s.keepWritten(o)
}
