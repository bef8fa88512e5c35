package ondisk

import (
	"path"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"slices"
	"strconv"
	"strings"
)

// GNU make, as far as it decides which command lines run: the makefile
// (-f FILE, else GNUmakefile, makefile, Makefile in the directory) and
// what it includes are read; variables (=, :=, ::=, ?=, +=, !=, define,
// export, override, target-specific assignments, the environment, the
// command line) are tracked and expanded, with the functions that compute
// names and lists (subst, patsubst, strip, dir, notdir, addprefix ...,
// if, or, and, call, foreach, abspath); ifeq/ifneq/ifdef/ifndef are
// decided when their operands are known (both branches count when not);
// the goals given, or the default goal, are built: their prerequisites
// first (explicit rules, and pattern rules for a name no explicit rule
// makes), then their recipes, with the automatic variables. Each recipe
// line comes out as shell text with its file and line; so do the commands
// $(shell ...) and != run while the makefile is read. What make would take
// from elsewhere (a function it does not know, $(wildcard), a variable set
// by $(eval)) is an unknown part.

// MakeOptions describe one run of make.
type MakeOptions struct {
	// Dir is make's directory after -C (CURDIR), absolute.
	Dir string
	// Files are the makefiles given with -f, absolute; none means the
	// default names in Dir.
	Files []string
	// Goals are the targets named on the command line.
	Goals []string
	// Vars are the command line's VAR=value assignments (they override
	// the makefile's).
	Vars map[string]Text
	// Env is the environment make inherits (ok false: not set).
	Env func(name string) (Text, bool)
	// Read reads a file (the makefile, an include); ok false when it
	// could not be read.
	Read func(abs string) (string, bool)
	// DryRun (-n, -q, -t): recipes are not run, only what is read.
	DryRun bool
	// Listing reports whether the command of a $(shell CMD) or VAR != CMD
	// lists names bounded to a directory (git ls-files, find DIR -name
	// PAT, and such lists filtered), and the glob that stands for every
	// name it prints, relative to make's directory ("*", "src/*"). Nil, or
	// ok false: the output is unknown. A listing's words stay globs
	// through filter, filter-out, patsubst and substitution references
	// ($(filter %.h,L) is "*.h", $(L:.h=.o) "*.o") and reach the recipes
	// as globs, judged where they land like any glob.
	Listing func(cmd string) (glob string, ok bool)
}

// MakeLine is one command line make runs.
type MakeLine struct {
	Text Text
	File string // absolute path of the makefile it comes from
	Line int
	// Target is the target whose recipe it is; "" for a command run while
	// the makefile is read ($(shell ...), VAR != ...).
	Target string
}

// MakeResult is what a run of make does.
type MakeResult struct {
	// Makefile is the makefile read first (absolute), "" when none was.
	Makefile string
	Lines    []MakeLine
	// Exported are the variables make puts in the recipes' environment
	// (export VAR, export VAR = ..., the command line's).
	Exported map[string]Text
	// Cut is set when a bound (lines, targets, expansion work) stopped the
	// reading: what lies beyond is not known.
	Cut bool
}

// Bounds of one make run.
const (
	maxMakeLines    = 4096
	maxMakeTargets  = 1024
	maxMakeIncludes = 32
	// maxMakeIncludeTries bounds the include names looked for, most of
	// them missing (-include $(DEPS) before a first build).
	maxMakeIncludeTries = 1024
	maxMakeWork         = 4 << 20 // bytes produced by expansion
	maxMakeDepth        = 48      // nesting of expansion and of prerequisites
)

type mvar struct {
	val      string // marked text; raw (expanded at use) when recursive
	simple   bool
	exported bool
	override bool
}

type mrule struct {
	prereqs []string
	recipe  []recipeLine
	file    string
	double  bool
}

type recipeLine struct {
	text string
	line int
	file string
}

type mpattern struct {
	target  string // with %
	prereqs []string
	recipe  []recipeLine
	file    string
}

type maker struct {
	opt          MakeOptions
	vars         map[string]*mvar
	tvars        map[string]map[string]*mvar // target-specific
	rules        map[string][]*mrule
	patterns     []*mpattern
	order        []string // targets in order of first definition
	goal         string   // .DEFAULT_GOAL
	oneshell     bool
	res          MakeResult
	work         int
	includes     int
	cur          recipeLine // where expansion happens, for $(shell)
	auto         map[string]string
	visited      map[string]bool
	targets      int
	exportAll    bool
	patRan       map[*mpattern]bool
	includeTries int
	lineRan      map[string]int
}

// Make reads the makefiles of opt and returns the command lines the run
// would execute, in order. Cost: linear in the makefiles' text plus the
// expansion work, bounded by maxMakeWork.
func Make(opt MakeOptions) MakeResult {
	m := &maker{opt: opt, vars: map[string]*mvar{}, tvars: map[string]map[string]*mvar{}, rules: map[string][]*mrule{},
		visited: map[string]bool{}, patRan: map[*mpattern]bool{}, lineRan: map[string]int{}, res: MakeResult{Exported: map[string]Text{}}}
	for k, v := range opt.Vars {
		m.vars[k] = &mvar{val: fromText(v), simple: true, override: true, exported: true}
	}
	files := opt.Files
	if len(files) == 0 {
		for _, n := range cmdfacts.MakefileNames {
			p := path.Join(opt.Dir, n)
			if text, ok := opt.Read(p); ok {
				m.res.Makefile = p
				m.parse(p, text)
				break
			}
		}
	} else {
		for _, f := range files {
			if text, ok := opt.Read(f); ok {
				if m.res.Makefile == "" {
					m.res.Makefile = f
				}
				m.parse(f, text)
			}
		}
	}
	if m.res.Makefile == "" {
		return m.res
	}
	if !opt.DryRun {
		goals := opt.Goals
		if len(goals) == 0 {
			g := strings.TrimSpace(m.expand(m.varRaw(".DEFAULT_GOAL"), 0))
			if g == "" {
				g = m.goal
			}
			if g != "" && !hasControl(g) {
				goals = []string{g}
			}
		}
		for _, g := range goals {
			m.build(g, 0)
		}
	}
	for k, v := range m.vars {
		if v.exported || m.exportAll && !v.override {
			m.res.Exported[k] = toText(m.valueOf(k, v, 0))
		}
	}
	return m.res
}

func (m *maker) emit(l MakeLine) {
	if len(m.res.Lines) >= maxMakeLines {
		m.res.Cut = true
		return
	}
	m.res.Lines = append(m.res.Lines, l)
}

// logicalLine is one line of a makefile after continuations.
type logicalLine struct {
	text  string
	line  int
	tab   bool // starts with the recipe prefix
	lines int  // physical lines it spans
}

// splitLines splits a makefile into physical lines, keeping continuation
// information: a recipe keeps its backslash-newlines (the shell gets
// them), other lines join with one space.
func splitLines(text string) []logicalLine {
	phys := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var out []logicalLine
	for i := 0; i < len(phys); i++ {
		start := i
		l := phys[i]
		tab := strings.HasPrefix(l, "\t")
		var sb strings.Builder
		for {
			cont := strings.HasSuffix(l, "\\") && !strings.HasSuffix(l, "\\\\") && i+1 < len(phys)
			if !cont {
				sb.WriteString(l)
				break
			}
			if tab {
				sb.WriteString(l)
				sb.WriteString("\n")
				i++
				l = strings.TrimPrefix(phys[i], "\t")
			} else {
				sb.WriteString(strings.TrimRight(l[:len(l)-1], " \t"))
				sb.WriteString(" ")
				i++
				l = strings.TrimLeft(phys[i], " \t")
			}
		}
		out = append(out, logicalLine{text: sb.String(), line: start + 1, tab: tab, lines: i - start + 1})
	}
	return out
}

// stripComment removes a # comment (not \#) from a non-recipe line.
func stripComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return s[:i]
		}
	}
	return strings.ReplaceAll(s, "\\#", "#")
}

type cond struct {
	active  bool // this branch is taken (or may be)
	taken   bool // a branch was surely taken
	unknown bool
	parent  bool // the enclosing context is active
}

// parse reads one makefile's text.
func (m *maker) parse(file, text string) {
	if hasControl(text) || strings.Contains(text, lMark) {
		return
	}
	lines := splitLines(text)
	var conds []cond
	active := func() bool { return len(conds) == 0 || conds[len(conds)-1].active }
	var rule []*mrule // the rules the recipe lines belong to
	var pat *mpattern
	for i := 0; i < len(lines); i++ {
		ll := lines[i]
		m.cur = recipeLine{line: ll.line, file: file}
		if ll.tab && (rule != nil || pat != nil) {
			if !active() {
				continue
			}
			t := ll.text[1:]
			if strings.HasPrefix(strings.TrimSpace(t), "#") && !strings.Contains(t, "\n") {
				continue // make passes it to the shell, which ignores it
			}
			rl := recipeLine{text: t, line: ll.line, file: file}
			for _, r := range rule {
				r.recipe = append(r.recipe, rl)
			}
			if pat != nil {
				pat.recipe = append(pat.recipe, rl)
			}
			continue
		}
		s := strings.TrimSpace(stripComment(ll.text))
		if s == "" {
			continue
		}
		word, rest := firstWord(s)
		if m.conditional(&conds, word, rest, active()) {
			continue
		}
		if !active() {
			if word == "define" {
				i = skipDefine(lines, i)
			}
			continue
		}
		rule, pat = nil, nil
		switch word {
		case "include", "-include", "sinclude":
			m.include(file, rest)
			continue
		case "define":
			name, op := defineHead(rest)
			j := skipDefine(lines, i)
			var body []string
			for _, b := range lines[i+1 : j] {
				body = append(body, b.text)
			}
			m.assign(name, op, strings.Join(body, "\n"), false, false)
			i = j
			continue
		case "vpath", "undefine", "unexport":
			if word == "undefine" {
				delete(m.vars, strings.TrimSpace(rest))
			}
			continue
		case "export", "override", "private":
			if word == "export" && strings.TrimSpace(rest) == "" {
				m.exportAll = true
				continue
			}
			if word == "export" && !strings.ContainsAny(rest, "=") {
				for _, n := range strings.Fields(m.expand(rest, 0)) {
					if v := m.vars[n]; v != nil {
						v.exported = true
					} else if e, ok := m.env(n); ok {
						m.vars[n] = &mvar{val: fromText(e), simple: true, exported: true}
					}
				}
				continue
			}
			if name, op, val, ok := splitAssign(rest); ok {
				m.assign(name, op, val, word == "export", word == "override")
				continue
			}
		}
		if name, op, val, ok := splitAssign(s); ok {
			m.assign(name, op, val, false, false)
			continue
		}
		colon := ruleColon(s)
		if colon < 0 {
			continue // a line make would reject, or a directive we skip
		}
		rule, pat = m.ruleLine(file, ll.line, s, colon)
	}
}

// conditional applies an ifeq/ifneq/ifdef/ifndef/else/endif line to the
// stack conds; it reports whether word was one.
func (m *maker) conditional(conds *[]cond, word, rest string, active bool) bool {
	switch word {
	case "ifeq", "ifneq", "ifdef", "ifndef":
		c := cond{parent: active}
		if c.parent {
			v, known := m.condition(word, rest)
			c.active, c.taken, c.unknown = v || !known, v && known, !known
		}
		*conds = append(*conds, c)
		return true
	case "else":
		if len(*conds) == 0 {
			return true
		}
		c := &(*conds)[len(*conds)-1]
		if !c.parent {
			return true
		}
		w2, rest2 := firstWord(rest)
		if w2 == "ifeq" || w2 == "ifneq" || w2 == "ifdef" || w2 == "ifndef" {
			if c.taken {
				c.active = false
				return true
			}
			v, known := m.condition(w2, rest2)
			c.active = v || !known
			c.taken = v && known
			c.unknown = c.unknown || !known
			return true
		}
		c.active = !c.taken
		return true
	case "endif":
		if len(*conds) > 0 {
			*conds = (*conds)[:len(*conds)-1]
		}
		return true
	}
	return false
}

// firstWord splits off the first blank-separated word.
func firstWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t")
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

// skipDefine returns the index of the endef closing the define at i.
func skipDefine(lines []logicalLine, i int) int {
	depth := 0
	for j := i + 1; j < len(lines); j++ {
		w, _ := firstWord(strings.TrimSpace(lines[j].text))
		switch w {
		case "define":
			depth++
		case "endef":
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return len(lines) - 1
}

// defineHead reads "NAME [op]" of a define line.
func defineHead(rest string) (string, string) {
	f := strings.Fields(rest)
	if len(f) == 0 {
		return "", "="
	}
	if len(f) > 1 {
		return f[0], f[1]
	}
	for _, op := range []string{":::=", "::=", ":=", "?=", "+=", "!=", "="} {
		if n, ok := strings.CutSuffix(f[0], op); ok && n != "" {
			return n, op
		}
	}
	return f[0], "="
}

// splitAssign reads a variable assignment: NAME op VALUE, the first ':'
// or '=' outside references deciding between an assignment and a rule.
func splitAssign(s string) (name, op, val string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{':
			if i > 0 && s[i-1] == '$' || depth > 0 {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth > 0 {
				continue
			}
			for _, o := range []string{":::=", "::=", ":="} {
				if strings.HasPrefix(s[i:], o) {
					return strings.TrimSpace(s[:i]), o, strings.TrimLeft(s[i+len(o):], " \t"), strings.TrimSpace(s[:i]) != ""
				}
			}
			return "", "", "", false
		case '=':
			if depth > 0 {
				continue
			}
			op, n := "=", strings.TrimSpace(s[:i])
			if i > 0 && strings.IndexByte("?+!", s[i-1]) >= 0 {
				op, n = s[i-1:i+1], strings.TrimSpace(s[:i-1])
			}
			if n == "" || strings.ContainsAny(n, " \t") && !strings.HasPrefix(n, "$") {
				return "", "", "", false
			}
			return n, op, strings.TrimLeft(s[i+1:], " \t"), true
		}
	}
	return "", "", "", false
}

// ruleColon returns the offset of the colon that makes s a rule line
// (outside references), or -1.
func ruleColon(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			if i > 0 && s[i-1] == '$' || depth > 0 {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case ':':
			if depth == 0 {
				if i == 1 && len(s) > 2 && (s[2] == '/' || s[2] == '\\') {
					continue // C:/path
				}
				return i
			}
		}
	}
	return -1
}

// assign applies NAME op VALUE.
func (m *maker) assign(name, op, val string, export, override bool) {
	name = strings.TrimSpace(m.expand(name, 0))
	if name == "" || hasControl(name) {
		return
	}
	old := m.vars[name]
	if old != nil && old.override && !override {
		return // the command line wins
	}
	v := &mvar{exported: export || old != nil && old.exported, override: override}
	switch op {
	case "=":
		v.val = val
	case ":=", "::=", ":::=":
		v.val, v.simple = m.expand(val, 0), true
	case "?=":
		if old != nil {
			return
		}
		if _, ok := m.env(name); ok {
			return
		}
		v.val = val
	case "+=":
		if old == nil {
			v.val = val
			break
		}
		if old.simple {
			v.val, v.simple = joinSpace(old.val, m.expand(val, 0)), true
		} else {
			v.val = joinSpace(old.val, val)
		}
	case "!=":
		cmd := m.expand(val, 0)
		m.shellAt(cmd, m.cur)
		v.val, v.simple = unknownMark("$(shell "+val+")"), true
		if w, ok := m.listing(cmd); ok {
			v.val = w
		}
	default:
		return
	}
	if name == ".RECIPEPREFIX" || name == "SHELL" {
		// A different recipe prefix or shell: recipes are still read as
		// tab-prefixed POSIX shell text.
	}
	m.vars[name] = v
}

func joinSpace(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + " " + b
}

// shellAt records a command run while the makefile is read.
func (m *maker) shellAt(cmd string, at recipeLine) {
	if strings.TrimSpace(cmd) == "" {
		return
	}
	m.emit(MakeLine{Text: toText(cmd), File: at.file, Line: at.line})
}

// include reads the makefiles an include line names, relative to Dir.
func (m *maker) include(from, rest string) {
	for _, f := range strings.Fields(m.expand(rest, 0)) {
		if hasControl(f) || strings.ContainsAny(f, "*?[") {
			continue
		}
		if m.includeTries++; m.includeTries > maxMakeIncludeTries {
			m.res.Cut = true
			return
		}
		if m.includes >= maxMakeIncludes {
			m.res.Cut = true
			return
		}
		p := f
		if !strings.HasPrefix(p, "/") {
			p = path.Join(m.opt.Dir, p)
		}
		if p == from {
			continue
		}
		if text, ok := m.opt.Read(p); ok {
			m.includes++ // a missing -include (dependency files not made yet) does not count
			saved := m.cur
			m.parse(p, text)
			m.cur = saved
		}
	}
}

// ruleLine records a rule; it returns the rules (or pattern) its recipe
// lines belong to.
func (m *maker) ruleLine(file string, line int, s string, colon int) ([]*mrule, *mpattern) {
	targets := strings.Fields(m.expand(s[:colon], 0))
	rest := s[colon+1:]
	double := false
	if strings.HasPrefix(rest, ":") {
		double, rest = true, rest[1:]
	}
	var recipe string
	hasRecipe := false
	if semi := strings.IndexByte(rest, ';'); semi >= 0 {
		recipe, rest, hasRecipe = rest[semi+1:], rest[:semi], true
	}
	if name, op, val, ok := splitAssign(rest); ok {
		for _, t := range targets {
			if m.tvars[t] == nil {
				m.tvars[t] = map[string]*mvar{}
			}
			tv := &mvar{val: val}
			if op == ":=" || op == "::=" {
				tv.val, tv.simple = m.expand(val, 0), true
			}
			m.tvars[t][strings.TrimSpace(name)] = tv
		}
		return nil, nil
	}
	prereqs := strings.Fields(strings.Replace(m.expand(rest, 0), "|", " ", 1))
	var rs []*mrule
	var pat *mpattern
	for _, t := range targets {
		switch {
		case hasControl(t):
			continue
		case t == ".ONESHELL":
			m.oneshell = true
			continue
		case strings.Contains(t, "%"):
			pat = &mpattern{target: t, prereqs: prereqs, file: file}
			m.patterns = append(m.patterns, pat)
			continue
		case strings.HasPrefix(t, ".") && !strings.Contains(t, "/"):
			continue // .PHONY, .SUFFIXES ... and old suffix rules
		}
		if m.goal == "" {
			m.goal = t
		}
		r := &mrule{prereqs: prereqs, file: file, double: double}
		if _, seen := m.rules[t]; !seen {
			m.order = append(m.order, t)
		}
		if !double {
			// One rule per target: prerequisites add up; a later recipe
			// replaces an earlier one.
			if old := m.rules[t]; len(old) > 0 && !old[0].double {
				old[0].prereqs = append(old[0].prereqs, prereqs...)
				if hasRecipe {
					old[0].recipe = nil
				}
				rs = append(rs, old[0])
				continue
			}
		}
		m.rules[t] = append(m.rules[t], r)
		rs = append(rs, r)
	}
	if hasRecipe {
		rl := recipeLine{text: strings.TrimLeft(recipe, " \t"), line: line, file: file}
		for _, r := range rs {
			r.recipe = append(r.recipe, rl)
		}
		if pat != nil {
			pat.recipe = append(pat.recipe, rl)
		}
	}
	return rs, pat
}

// condition decides an ifeq/ifneq/ifdef/ifndef; known is false when an
// operand is not known.
func (m *maker) condition(kind, rest string) (value, known bool) {
	switch kind {
	case "ifdef", "ifndef":
		name := strings.TrimSpace(m.expand(rest, 0))
		if hasControl(name) {
			return false, false
		}
		v := strings.TrimSpace(m.expand(m.varRaw(name), 0))
		if hasControl(v) {
			return false, false
		}
		def := v != ""
		return def == (kind == "ifdef"), true
	}
	a, b, ok := condArgs(rest)
	if !ok {
		return false, false
	}
	x, y := strings.TrimSpace(m.expand(a, 0)), strings.TrimSpace(m.expand(b, 0))
	if hasControl(x) || hasControl(y) {
		return false, false
	}
	return (x == y) == (kind == "ifeq"), true
}

// condArgs reads (a,b), "a" "b" or 'a' 'b'.
func condArgs(s string) (string, string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		inner := s[1 : len(s)-1]
		depth := 0
		for i := 0; i < len(inner); i++ {
			switch inner[i] {
			case '(', '{':
				depth++
			case ')', '}':
				depth--
			case ',':
				if depth == 0 {
					return inner[:i], inner[i+1:], true
				}
			}
		}
		return "", "", false
	}
	var parts []string
	for len(s) > 0 && len(parts) < 2 {
		q := s[0]
		if q != '"' && q != '\'' {
			return "", "", false
		}
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return "", "", false
		}
		parts = append(parts, s[1:1+end])
		s = strings.TrimSpace(s[end+2:])
	}
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// env returns an environment variable make inherits.
func (m *maker) env(name string) (Text, bool) {
	if m.opt.Env == nil {
		return nil, false
	}
	return m.opt.Env(name)
}

// varRaw returns the text a reference to name expands (marked, to be
// expanded for a recursive variable); "" when undefined.
func (m *maker) varRaw(name string) string {
	if m.auto != nil {
		if v, ok := m.auto[name]; ok {
			return v
		}
		if len(name) == 2 && (name[1] == 'D' || name[1] == 'F') {
			if v, ok := m.auto[name[:1]]; ok {
				var out []string
				for _, f := range strings.Fields(v) {
					if name[1] == 'D' {
						out = append(out, strings.TrimSuffix(path.Dir(f), "/"))
					} else {
						out = append(out, path.Base(f))
					}
				}
				return strings.Join(out, " ")
			}
		}
	}
	if v := m.lookupVar(name); v != nil {
		if v.simple {
			return strings.ReplaceAll(v.val, "$", "$$")
		}
		return v.val
	}
	return ""
}

func (m *maker) lookupVar(name string) *mvar {
	if m.cur.text != "" || m.auto != nil {
		if t := m.auto["@"]; t != "" {
			if tv := m.tvars[t][name]; tv != nil {
				return tv
			}
		}
	}
	if v := m.vars[name]; v != nil {
		return v
	}
	switch name {
	case "MAKE":
		return &mvar{val: "make", simple: true}
	case "CURDIR":
		return &mvar{val: m.opt.Dir, simple: true}
	case "MAKECMDGOALS":
		return &mvar{val: strings.Join(m.opt.Goals, " "), simple: true}
	case "SHELL":
		return &mvar{val: "/bin/sh", simple: true}
	case "RM":
		return &mvar{val: "rm -f", simple: true}
	case "CC":
		return &mvar{val: "cc", simple: true}
	case "CXX":
		return &mvar{val: "g++", simple: true}
	case "AR":
		return &mvar{val: "ar", simple: true}
	case "MAKEFILE_LIST":
		return &mvar{val: m.res.Makefile, simple: true}
	}
	if e, ok := m.env(name); ok {
		return &mvar{val: fromText(e), simple: true}
	}
	return nil
}

// valueOf is the expanded value of a variable.
func (m *maker) valueOf(name string, v *mvar, depth int) string {
	if v.simple {
		return v.val
	}
	return m.expand(v.val, depth+1)
}

// spend counts expansion work; false once past the bound.
func (m *maker) spend(n int) bool {
	m.work += n
	if m.work > maxMakeWork {
		m.res.Cut = true
		return false
	}
	return true
}

// expand expands make references in s (marked text in, marked text out).
func (m *maker) expand(s string, depth int) string {
	if !strings.Contains(s, "$") {
		return s
	}
	if depth > maxMakeDepth || !m.spend(len(s)) {
		return unknownMark(s)
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch n {
		case '$':
			sb.WriteByte('$')
			i++
		case '(', '{':
			end := matchClose(s, i+1)
			if end < 0 {
				sb.WriteString(unknownMark(s[i:]))
				return sb.String()
			}
			sb.WriteString(m.reference(s[i+2:end], s[i:end+1], n, depth))
			i = end
		default:
			sb.WriteString(m.expand(m.varRaw(string(n)), depth+1))
			i++
		}
	}
	return sb.String()
}

// matchClose returns the index of the bracket closing the one at open.
func matchClose(s string, open int) int {
	o := s[open]
	cl := byte(')')
	if o == '{' {
		cl = '}'
	}
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case o:
			depth++
		case cl:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// reference expands the inside of $(...) or ${...}.
func (m *maker) reference(inner, src string, open byte, depth int) string {
	if fn, args, ok := funcCall(inner); ok {
		return m.function(fn, args, src, open, depth)
	}
	name := m.expand(inner, depth+1)
	if hasControl(name) {
		return unknownMark(src)
	}
	// Substitution reference $(VAR:a=b).
	if k := strings.IndexByte(name, ':'); k > 0 {
		if from, to, ok := strings.Cut(name[k+1:], "="); ok {
			val := m.expand(m.varRaw(name[:k]), depth+1)
			if !strings.Contains(from, "%") {
				from, to = "%"+from, "%"+to
			}
			return patsubstWords(from, to, val)
		}
	}
	return m.expand(m.varRaw(name), depth+1)
}

// funcNames are the functions expand knows by name.
var funcNames = map[string]bool{
	"shell": true, "subst": true, "patsubst": true, "strip": true, "findstring": true, "filter": true,
	"filter-out": true, "sort": true, "word": true, "wordlist": true, "words": true, "firstword": true,
	"lastword": true, "dir": true, "notdir": true, "suffix": true, "basename": true, "addsuffix": true,
	"addprefix": true, "join": true, "wildcard": true, "realpath": true, "abspath": true, "if": true,
	"or": true, "and": true, "foreach": true, "call": true, "value": true, "eval": true, "origin": true,
	"flavor": true, "error": true, "warning": true, "info": true, "file": true, "let": true, "intcmp": true,
	"guile": true,
}

// funcCall splits "name args" when name is a make function.
func funcCall(inner string) (string, string, bool) {
	i := strings.IndexAny(inner, " \t")
	if i <= 0 {
		return "", "", false
	}
	fn := inner[:i]
	if !funcNames[fn] {
		return "", "", false
	}
	return fn, strings.TrimLeft(inner[i+1:], " \t"), true
}

// splitArgs splits function arguments at top-level commas, into at most n
// pieces (n <= 0: all).
func splitArgs(s string, n int) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case ',':
			if depth == 0 && (n <= 0 || len(out) < n-1) {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// function evaluates one make function call.
func (m *maker) function(fn, args, src string, open byte, depth int) string {
	x := func(s string) string { return m.expand(s, depth+1) }
	words := func(s string) []string { return strings.Fields(x(s)) }
	a := splitArgs(args, 0)
	arg := func(i int) string {
		if i < len(a) {
			return a[i]
		}
		return ""
	}
	unknown := func() string { return unknownMark(src) }
	if out, ok := m.fileFunction(fn, args, src, depth); ok {
		return out
	}
	switch fn {
	case "shell":
		cmd := x(args)
		if c := strings.TrimSpace(cmd); c == "pwd" || c == "pwd -P" || c == "pwd -L" {
			return m.opt.Dir // make runs it in its directory
		}
		m.shellAt(cmd, m.cur)
		if w, ok := m.listing(cmd); ok {
			return w
		}
		return unknown()
	case "subst":
		a = splitArgs(args, 3)
		from, to, text := x(arg(0)), x(arg(1)), x(arg(2))
		if hasControl(from) || from == "" {
			return unknown()
		}
		return strings.ReplaceAll(text, from, to)
	case "patsubst":
		a = splitArgs(args, 3)
		from, to := strings.TrimSpace(x(arg(0))), strings.TrimSpace(x(arg(1)))
		if hasControl(from) {
			return unknown()
		}
		return patsubstWords(from, to, x(arg(2)))
	case "strip":
		return strings.Join(words(args), " ")
	case "findstring":
		a = splitArgs(args, 2)
		f, in := x(arg(0)), x(arg(1))
		if hasControl(f) || hasControl(in) {
			return unknown()
		}
		if strings.Contains(in, f) {
			return f
		}
		return ""
	case "filter", "filter-out":
		a = splitArgs(args, 2)
		pats := words(arg(0))
		var out []string
		for _, w := range words(arg(1)) {
			if hasControl(w) {
				return unknown()
			}
			if strings.Contains(w, lMark) {
				if fn == "filter-out" {
					out = append(out, w) // some of its names may remain
					continue
				}
				for _, p := range pats {
					if f, ok := filterListing(p, w); ok {
						out = append(out, f)
					}
				}
				continue
			}
			match := slices.ContainsFunc(pats, func(p string) bool { _, ok := patMatch(p, w); return ok })
			if match == (fn == "filter") {
				out = append(out, w)
			}
		}
		return strings.Join(out, " ")
	case "sort":
		ws := words(args)
		slices.Sort(ws)
		return strings.Join(slices.Compact(ws), " ")
	case "word":
		a = splitArgs(args, 2)
		n, err := strconv.Atoi(strings.TrimSpace(x(arg(0))))
		ws := words(arg(1))
		if err != nil || n < 1 {
			return unknown()
		}
		if n <= len(ws) {
			return ws[n-1]
		}
		return ""
	case "words":
		ws := words(args)
		if slices.ContainsFunc(ws, func(w string) bool { return strings.Contains(w, lMark) }) {
			return unknown() // a listing holds any number of names
		}
		return strconv.Itoa(len(ws))
	case "firstword":
		if ws := words(args); len(ws) > 0 {
			return ws[0]
		}
		return ""
	case "lastword":
		if ws := words(args); len(ws) > 0 {
			return ws[len(ws)-1]
		}
		return ""
	}
	if out, ok := m.controlFunction(fn, args, src, depth); ok {
		return out
	}
	return unknown() // wildcard, file, let, intcmp, guile, join, wordlist
}

// controlFunction evaluates if, or, and, foreach, call, value, eval and
// the message functions; ok is false for another function.
func (m *maker) controlFunction(fn, args, src string, depth int) (string, bool) {
	x := func(s string) string { return m.expand(s, depth+1) }
	words := func(s string) []string { return strings.Fields(x(s)) }
	a := splitArgs(args, 0)
	arg := func(i int) string {
		if i < len(a) {
			return a[i]
		}
		return ""
	}
	unknown := func() string { return unknownMark(src) }
	out, ok := func() (string, bool) {
		switch fn {
		case "if":
			a = splitArgs(args, 3)
			c := strings.TrimSpace(x(arg(0)))
			if hasControl(c) {
				return unknown(), true
			}
			if c != "" {
				return x(arg(1)), true
			}
			return x(arg(2)), true
		case "or":
			for _, p := range a {
				v := strings.TrimSpace(x(p))
				if hasControl(v) {
					return unknown(), true
				}
				if v != "" {
					return v, true
				}
			}
			return "", true
		case "and":
			v := ""
			for _, p := range a {
				v = strings.TrimSpace(x(p))
				if hasControl(v) {
					return unknown(), true
				}
				if v == "" {
					return "", true
				}
			}
			return v, true
		case "foreach":
			a = splitArgs(args, 3)
			name := strings.TrimSpace(x(arg(0)))
			list := words(arg(1))
			if hasControl(name) || len(list) > 256 {
				return unknown(), true
			}
			saved, had := m.vars[name]
			var out []string
			for _, w := range list {
				m.vars[name] = &mvar{val: w, simple: true}
				out = append(out, x(arg(2)))
			}
			if had {
				m.vars[name] = saved
			} else {
				delete(m.vars, name)
			}
			return strings.Join(out, " "), true
		case "call":
			name := strings.TrimSpace(x(arg(0)))
			if hasControl(name) {
				return unknown(), true
			}
			savedAuto := m.auto
			auto := map[string]string{}
			for k, v := range m.auto {
				auto[k] = v
			}
			auto["0"] = name
			for i := 1; i < 10; i++ {
				auto[strconv.Itoa(i)] = x(arg(i))
			}
			m.auto = auto
			out := m.expand(m.varRaw(name), depth+1)
			m.auto = savedAuto
			return out, true
		case "value":
			name := strings.TrimSpace(x(args))
			if v := m.lookupVar(name); v != nil {
				return v.val, true
			}
			return "", true
		case "error", "warning", "info", "eval":
			if fn == "eval" {
				return unknown(), true // what it defines is not followed
			}
			return "", true
		case "origin", "flavor":
			return unknown(), true

		}
		return "", false
	}()
	return out, ok
}

// fileFunction evaluates the functions on file names: dir, notdir,
// suffix, basename, addsuffix, addprefix, abspath, realpath; ok is false
// for another function.
func (m *maker) fileFunction(fn, args, src string, depth int) (string, bool) {
	x := func(s string) string { return m.expand(s, depth+1) }
	words := func(s string) []string { return strings.Fields(x(s)) }
	a := splitArgs(args, 0)
	arg := func(i int) string {
		if i < len(a) {
			return a[i]
		}
		return ""
	}
	mapWords := func(f func(string) string) (string, bool) {
		ws := words(arg(0))
		for i, w := range ws {
			if hasControl(w) {
				return unknownMark(src), true
			}
			ws[i] = f(w)
		}
		return strings.Join(ws, " "), true
	}
	switch fn {
	case "dir":
		return mapWords(func(w string) string {
			if i := strings.LastIndexByte(w, '/'); i >= 0 {
				return w[:i+1]
			}
			return "./"
		})
	case "notdir":
		return mapWords(func(w string) string { return w[strings.LastIndexByte(w, '/')+1:] })
	case "suffix":
		return mapWords(func(w string) string {
			b := w[strings.LastIndexByte(w, '/')+1:]
			if i := strings.LastIndexByte(b, '.'); i >= 0 {
				return b[i:]
			}
			return ""
		})
	case "basename":
		return mapWords(func(w string) string {
			if i := strings.LastIndexByte(w, '.'); i > strings.LastIndexByte(w, '/') {
				return w[:i]
			}
			return w
		})
	case "addsuffix", "addprefix":
		a = splitArgs(args, 2)
		fix := x(arg(0))
		var out []string
		for _, w := range words(arg(1)) {
			if fn == "addsuffix" {
				out = append(out, w+fix)
			} else {
				out = append(out, fix+w)
			}
		}
		return strings.Join(out, " "), true
	case "abspath", "realpath":
		return mapWords(func(w string) string {
			if !strings.HasPrefix(w, "/") {
				w = path.Join(m.opt.Dir, w)
			}
			return path.Clean(w)
		})
	}
	return "", false
}

// patMatch matches word w against pattern p (one % at most); it returns
// the stem.
func patMatch(p, w string) (string, bool) {
	i := strings.IndexByte(p, '%')
	if i < 0 {
		return "", p == w
	}
	pre, suf := p[:i], p[i+1:]
	if len(w) < len(pre)+len(suf) || !strings.HasPrefix(w, pre) || !strings.HasSuffix(w, suf) {
		return "", false
	}
	return w[len(pre) : len(w)-len(suf)], true
}

// listing is the listing word for the command cmd of $(shell) or !=
// (MakeOptions.Listing).
func (m *maker) listing(cmd string) (string, bool) {
	if m.opt.Listing == nil || hasControl(cmd) || strings.Contains(cmd, lMark) {
		return "", false
	}
	g, ok := m.opt.Listing(cmd)
	if !ok || g == "" || strings.ContainsAny(g, " \t\n") || hasControl(g) {
		return "", false
	}
	return lMark + g, true
}

// filterListing is what $(filter p,w) keeps of the listing word w (a glob
// PRE*SUF whose star stands for any names, slashes included): w when every
// name it stands for matches p, the narrower glob when p's stem can be
// placed on w's star (%.h on "*" is "*.h", src/%.c on "*" is "src/*.c"),
// p itself when p is one name w may hold, nothing when no name can match.
func filterListing(p, w string) (string, bool) {
	g := strings.ReplaceAll(w, lMark, "")
	star := strings.IndexByte(g, '*')
	if star < 0 || strings.Contains(g[star+1:], "*") {
		return "", false
	}
	gpre, gsuf := g[:star], g[star+1:]
	i := strings.IndexByte(p, '%')
	if i < 0 {
		ok := len(p) >= len(gpre)+len(gsuf) && strings.HasPrefix(p, gpre) && strings.HasSuffix(p, gsuf)
		return p, ok
	}
	pre, ok := narrower(gpre, p[:i], strings.HasPrefix)
	if !ok {
		return "", false
	}
	suf, ok := narrower(gsuf, p[i+1:], strings.HasSuffix)
	if !ok {
		return "", false
	}
	return lMark + pre + "*" + suf, true
}

// narrower is the one of x and y that has the other as its prefix (or
// suffix, by has); ok false when neither does.
func narrower(x, y string, has func(s, fix string) bool) (string, bool) {
	switch {
	case has(x, y):
		return x, true
	case has(y, x):
		return y, true
	}
	return "", false
}

// patsubstWords applies $(patsubst from,to,text).
// A listing word that only some of its names match stays, and the
// narrower glob of those is substituted too.
func patsubstWords(from, to, text string) string {
	ws := strings.Fields(text)
	subst := func(w string) string {
		if stem, ok := patMatch(from, w); ok {
			if strings.Contains(from, "%") {
				return strings.Replace(to, "%", stem, 1)
			}
			return to
		}
		return w
	}
	var more []string
	for i, w := range ws {
		if hasControl(w) {
			continue
		}
		if _, ok := patMatch(from, w); !ok && strings.Contains(w, lMark) {
			if n, ok := filterListing(from, w); ok {
				more = append(more, subst(strings.ReplaceAll(n, lMark, "")))
				if !strings.Contains(more[len(more)-1], lMark) {
					more[len(more)-1] = lMark + more[len(more)-1]
				}
			}
			continue
		}
		ws[i] = subst(w)
	}
	return strings.Join(append(ws, more...), " ")
}

// build runs target: its prerequisites, then its recipe.
func (m *maker) build(target string, depth int) {
	if m.visited[target] || depth > maxMakeDepth {
		return
	}
	m.visited[target] = true
	if m.targets++; m.targets > maxMakeTargets {
		m.res.Cut = true
		return
	}
	rs := m.rules[target]
	var pat *mpattern
	stem := ""
	hasRecipe := false
	for _, r := range rs {
		hasRecipe = hasRecipe || len(r.recipe) > 0
	}
	if !hasRecipe {
		for _, p := range m.patterns {
			if s, ok := patMatch(p.target, target); ok && len(p.recipe) > 0 {
				pat, stem = p, s
				break
			}
		}
	}
	var prereqs []string
	for _, r := range rs {
		prereqs = append(prereqs, r.prereqs...)
	}
	if pat != nil {
		for _, p := range pat.prereqs {
			prereqs = append(prereqs, strings.ReplaceAll(p, "%", stem))
		}
	}
	for _, p := range prereqs {
		m.build(p, depth+1)
	}
	auto := map[string]string{"@": target, "*": stem, "^": strings.Join(dedupe(prereqs), " "),
		"+": strings.Join(prereqs, " "), "?": strings.Join(dedupe(prereqs), " "), "|": ""}
	if len(prereqs) > 0 {
		auto["<"] = prereqs[0]
	} else {
		auto["<"] = ""
	}
	run := func(recipe []recipeLine) {
		m.auto = auto
		defer func() { m.auto = nil }()
		if m.oneshell && len(recipe) > 1 {
			var parts []string
			for _, rl := range recipe {
				parts = append(parts, trimPrefixes(rl.text))
			}
			rl := recipe[0]
			m.cur = rl
			text := m.expand(strings.Join(parts, "\n"), 0)
			m.emit(MakeLine{Text: toText(trimPrefixes(text)), File: rl.file, Line: rl.line, Target: target})
			return
		}
		for _, rl := range recipe {
			// A rule with many targets runs its recipe for each: the same
			// line with other names, judged for the first two.
			key := rl.file + ":" + strconv.Itoa(rl.line)
			if m.lineRan[key] >= 2 {
				continue
			}
			m.lineRan[key]++
			m.cur = rl
			text := trimPrefixes(m.expand(trimPrefixes(rl.text), 0))
			if strings.TrimSpace(text) == "" {
				continue
			}
			m.emit(MakeLine{Text: toText(text), File: rl.file, Line: rl.line, Target: target})
		}
	}
	for _, r := range rs {
		run(r.recipe)
	}
	if pat != nil && !m.patRan[pat] {
		// A pattern rule's recipe is the same commands for every name it
		// makes: judged for the first one only.
		m.patRan[pat] = true
		run(pat.recipe)
	}
}

// trimPrefixes removes make's @ - + recipe prefixes.
func trimPrefixes(s string) string {
	return strings.TrimLeft(s, " \t@-+")
}

func dedupe(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
