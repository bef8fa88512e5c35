// Package analysis analyses shell command text for the layers: every simple
// command that would run — in lists, pipelines, compound commands,
// functions, $(...), <(...), bash -c strings, eval, xargs, find -exec,
// powershell -Command, cmd /c, Start-Process, literal text piped into a
// shell (echo '...' | sh) and interpreter one-liners — with argv resolved
// (quotes, escapes, known variables, $(echo ...) and $(pwd) of known
// words), wrappers (sudo, env, timeout, ...) stripped, redirects, heredocs
// and the cd chain attached. The command after a wholly unknown command
// word ($SUDO rm ...) is reported too, Via "unknown wrapper"; a PowerShell
// .NET static method call is reported as a Command with a synthetic name,
// "[system.io.file]::delete" (see Command.Name); a cmd.exe for body is
// split once per item of a short known list.
// Analyze is the entry point; POSIX/bash text is parsed with
// mvdan.cc/sh/v3, PowerShell and cmd.exe with the splitters of
// core/shell/winshell; interpreter one-liners are read with core/cmdfacts
// and scanned with core/shell/oneliner. The result is a *ir.Script, the
// type layers receive (core/shell).
//
// Cost: linear in the input. Parsing stops at the command cap; the cd
// chain, the pushd stack, the variables and functions tracked, the words,
// the pasted variable bytes, the brace words and the re-parsed nested text
// are all bounded (see the constants and limits_test.go), so that a 1 MiB
// input stays well under 200 ms and a few KiB about a millisecond
// (BenchmarkAdversarial).
package analysis

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"

	"mvdan.cc/sh/v3/syntax"
)

// Options tell Analyze what it cannot see in the command text.
type Options struct {
	// Dialect is the language of the text: Bash for the Bash and Shell
	// tools, PowerShell for the PowerShell tool.
	Dialect ir.Dialect
	// Cwd is the directory the command starts in: the value of $PWD until
	// a cd changes it. "" means unknown.
	Cwd string
	// Home is the home directory for ~ and $HOME; "" means Lookup("HOME").
	Home string
	// Lookup reads the process environment (os.LookupEnv, or a map in
	// tests). Nil means no environment: every other variable is unknown.
	Lookup func(name string) (string, bool)
	// MaxCommands caps the number of commands reported; 0 means
	// DefaultMaxCommands.
	MaxCommands int
	// MaxSteps caps the work of the analysis, in steps (see Stats); 0
	// means DefaultMaxSteps. Past it the analysis stops and
	// Script.Truncated is set.
	MaxSteps int
	// Stats, when not nil, receives what the analysis cost.
	Stats *Stats
	// Files, when not nil, reads the files on disk that the command runs
	// (scripts, interpreter files, task files, git hooks: see ondisk.go);
	// their text is analysed as part of the command, and the reader keeps
	// the record of what was read. Nil: only the command text is analysed.
	Files *ondisk.Reader
}

// Stats is what one analysis cost.
type Stats struct {
	// Steps counts the analysis' work: one per statement walked, one per
	// command reported and per word of it, one per 256 bytes of text
	// parsed or of variable values pasted into words.
	Steps int
}

const (
	// MaxInput is how much of the command text is analysed; the rest is
	// cut off and Script.Truncated set.
	MaxInput = 1 << 20
	// DefaultMaxCommands is the default cap on Script.Commands.
	DefaultMaxCommands = 4096
	// DefaultMaxSteps is the default cap on the analysis' work (Stats):
	// everyday commands take under 30 steps (100 at most over every
	// corpus), a 1 MiB crafted text about 35,000 under the command cap and
	// the byte budgets; this bounds the work of whatever they do not
	// foresee.
	DefaultMaxSteps = 1 << 18
	// InputPlaceholder is the Value and Raw of the Unknown word that stands
	// for the input items of xargs, parallel and fd -x, and the Raw of an
	// input item xargs gets from known text (echo / | xargs rm: "/").
	InputPlaceholder = "<input>"

	maxNestedBytes = 4 << 20 // total text re-parsed for nested scripts (see budgetFor)
	maxWords       = 1 << 16 // argv words, assignments and redirects per analysis
	maxNest        = 400     // AST recursion depth
	maxWrappers    = 32      // wrapper chain length (sudo sudo sudo ...)
)

// Analyze finds every simple command that src would run, wherever it sits,
// with argv resolved as far as the text and opts allow. It never panics and
// never fails: a text that does not parse is scanned conservatively and
// Script.ParseError set; anything past a limit sets Script.Truncated.
//
// Cost: a few microseconds for a typical agent command (see the
// benchmarks); linear in the input, bounded by MaxInput, MaxDepth and the
// command cap.
func Analyze(src string, opts Options) (out *ir.Script) {
	out = &ir.Script{Source: src, Dialect: opts.Dialect}
	defer func() {
		if r := recover(); r != nil {
			out.Commands = nil
			out.ParseError = fmt.Sprintf("shell: analysis failed: %v", r)
			out.Truncated = true
			safeFallback(out, src, opts)
		}
	}()
	text := src
	if len(text) > MaxInput {
		text = cutUTF8(text, MaxInput)
		out.Truncated = true
	}
	a := newAnalyzer(opts, out, len(text))
	a.top(text)
	if a.parser != nil {
		parserPool.Put(a.parser) // not reached after a panic: that parser is dropped
	}
	attachEffects(out)
	if opts.Stats != nil {
		opts.Stats.Steps = a.stepsUsed()
	}
	a.release()
	return out
}

// budgetFor scales a budget of the analysis with the input: 16 times its
// length, at least 64 KiB (more than a hand-written command needs), at
// most limit. A short text then cannot make the analysis do megabytes of
// work by doubling a variable or nesting bash -c.
func budgetFor(inputLen, limit int) int {
	return min(limit, max(64<<10, 16*inputLen))
}

// parserPool keeps parsers between calls: a new one costs more than a
// typical parse. A parser is used by one analysis at a time.
var parserPool = sync.Pool{New: func() any { return newBashParser() }}

// safeFallback runs the token scan alone after the full analysis panicked.
func safeFallback(out *ir.Script, src string, opts Options) {
	defer func() {
		if r := recover(); r != nil {
			out.Commands = nil
		}
	}()
	if len(src) > MaxInput {
		src = cutUTF8(src, MaxInput)
	}
	a := newAnalyzer(opts, out, len(src))
	a.noParse = true
	c := ctx{parent: -1, dialect: opts.Dialect, src: src}
	a.fallback(c, newState(), src)
	attachEffects(out)
}

// maxParseNesting bounds how deeply nested a text may be for the parser,
// which recurses per level: deeper texts (never written by hand) go to the
// fallback scan, which does not recurse.
const maxParseNesting = 1000

var errTooDeep = errors.New("shell: text nested more than 1000 levels deep")

// parse parses bash text with the analysis' parser, refusing texts nested
// deeper than maxParseNesting.
func (a *analyzer) parse(text string) (*syntax.File, error) {
	if nestingDepth(text, maxParseNesting) > maxParseNesting {
		return nil, errTooDeep
	}
	if a.parser == nil {
		a.parser = parserPool.Get().(*syntax.Parser)
	}
	return a.parser.Parse(strings.NewReader(text), "")
}

// nestingDepth estimates how deeply text nests brackets ( { [ and compound
// commands (if/while/until/for/select/case ... fi/done/esac), quotes
// ignored. It stops counting past limit. Cost: one pass over text.
func nestingDepth(text string, limit int) int {
	depth, deepest := 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '(' || c == '{' || c == '[':
			depth++
		case c == ')' || c == '}' || c == ']':
			if depth > 0 {
				depth--
			}
		case c >= 'a' && c <= 'z' && (i == 0 || !isWordByte(text[i-1])):
			j := i
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			switch text[i:j] {
			case "if", "while", "until", "for", "select", "case":
				depth++
			case "fi", "done", "esac":
				if depth > 0 {
					depth--
				}
			}
			i = j - 1
		}
		if depth > deepest {
			deepest = depth
			if deepest > limit {
				return deepest
			}
		}
	}
	return deepest
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func newBashParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}

func cutUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// analyzer holds one analysis: the output, the parser, budgets, and the
// holes standing for unknown text inside nested scripts.
type analyzer struct {
	opts     Options
	partSlab []part // what fieldBuilder cuts words' first parts from (takePart)
	out      *ir.Script
	parser   *syntax.Parser
	maxCmds  int

	holes  map[string]string // hole variable name -> original text
	nholes int

	// containers counts the container runs being walked (deferred.go):
	// inside one, no host file is looked at (links.go).
	containers int

	steps       int // statements, commands and words (see stepsUsed)
	input       int // bytes of input: the command text and the files read (addInput)
	maxSteps    int
	nestedBytes int
	maxNested   int // budget of nestedBytes
	maxExpanded int // budget of expanded
	words       int
	expanded    int // bytes of variable values pasted (see spend)
	braceWords  int // words made by brace expansion
	nest        int
	loopMult    int
	forkMult    int  // how far the forks being walked multiply (branches.go)
	noParse     bool // fallback only (after a panic)

	argsInner map[int]int // xargs/parallel command -> the command it runs
	aliasing  []string    // the aliases being expanded (see expandAlias)
	declared  []declaredFunc
	onDisk    []string // the files on disk being analysed, outermost first
	// sourcedRead is 1 + the index of the last source command whose file
	// was read from disk and analysed in its shell (0: none).
	sourcedRead int
	inFile      int // how many files on disk are being analysed (ondisk.go)
	// counted are the files whose bytes were counted as input (readAbs);
	// walkedText the texts of files analysed so far (a text walked again
	// costs its parse again).
	counted    map[string]bool
	walkedText map[string]bool
	traps      []pendingTrap // trap actions judged when their text ends
	last       lastRun       // the command run last (see pipedInto)

	// topWalk is the outermost walkText's state, walking whether it is in
	// use; topState the shell state of the top-level text. Both live
	// in the analyzer so that a pooled analyzer carries them.
	topWalk  textWalk
	walking  bool
	topState state
}

type declaredFunc struct {
	name string
	def  *funcDef
	c    ctx
}

func newAnalyzer(opts Options, out *ir.Script, inputLen int) *analyzer {
	maxCmds := opts.MaxCommands
	if maxCmds <= 0 {
		maxCmds = DefaultMaxCommands
	}
	maxSteps := opts.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	a := analyzerPool.Get().(*analyzer)
	*a = analyzer{opts: opts, out: out, maxCmds: maxCmds, maxSteps: maxSteps, loopMult: 1, forkMult: 1, input: inputLen,
		steps:     inputLen / 256, // the top-level text is parsed once
		maxNested: budgetFor(inputLen, maxNestedBytes), maxExpanded: budgetFor(inputLen, maxExpanded)}
	return a
}

// analyzerPool keeps analyzers between analyses: newAnalyzer sets every
// field, release clears them. The output (an ir.Script) holds nothing of
// the analyzer's, so an analyzer is reused once its analysis returned.
var analyzerPool = sync.Pool{New: func() any { return new(analyzer) }}

// release returns a to the pool, dropping what it refers to. Not called
// after a panic: that analyzer is dropped.
func (a *analyzer) release() {
	*a = analyzer{}
	analyzerPool.Put(a)
}

// stepsUsed is the analysis' work so far, in steps (see Stats).
func (a *analyzer) stepsUsed() int {
	return a.steps + (a.nestedBytes+a.expanded)/256
}

// ctx is where a command sits: nesting depth, the wrappers and contexts
// leading to it, its parent, its dialect and source text, and what
// enclosing compound commands add (background, redirects, stdin).
type ctx struct {
	depth   int
	via     []ir.Via
	parent  int
	dialect ir.Dialect
	src     string
	bg      bool
	redirs  []ir.Redirect
	stdin   *xword
	stdinOp string
	piped   *pipedInput // literal text a pipe feeds (see piped.go)
	// listing is the directory a listing piped into a while-read loop
	// lists (provenance.go); "" when none.
	listing string
	// container maps paths when the command runs in a container (see
	// containerCmd); nil on the host.
	container *containerFS
	// file is the file on disk the command was read from, line its line
	// (ondisk.go); nil for the command line itself.
	file *fileOrigin
	line int
	// fileText is set on the text of a file on disk itself (not a text
	// nested in it): see uncalled.
	fileText bool
}

func appendVia(via []ir.Via, s string) []ir.Via {
	out := make([]ir.Via, len(via), len(via)+1)
	copy(out, via)
	return append(out, ir.ParseVia(s))
}

// simple is a simple command before wrappers are stripped.
type simple struct {
	words   []xword
	assigns []ir.Assign
	env     map[string]variable // prefix assignments, exported to the command
	redirs  []ir.Redirect
	stdin   *xword
	stdinOp string        // "<<" or "<<<" when stdin is set
	subst   []syntax.Node // $(...), `...`, <(...), >(...) in its words
	// stdinSubst marks the substitutions of subst that are in a
	// here-string or a heredoc: their output is the command's input, as
	// if piped (FeedPipe), not words it runs.
	stdinSubst map[syntax.Node]bool
	src        string // source of subst
	plain      bool   // straight from the parser: may call a function
}

// full reports whether the analysis must stop: the command cap or the
// step budget is reached (Script.Truncated is then set).
func (a *analyzer) full() bool {
	if len(a.out.Commands) >= a.maxCmds || a.stepsUsed() > a.maxSteps {
		a.out.Truncated = true
		return true
	}
	return false
}

func (a *analyzer) top(text string) {
	c := ctx{parent: -1, dialect: a.opts.Dialect, src: text}
	a.text(c, &a.topState, text)
}

// text analyses a script in c's dialect.
func (a *analyzer) text(c ctx, st *state, text string) {
	if c.dialect != ir.Bash {
		a.foreign(c, st, text)
		return
	}
	start, traps := len(a.declared), len(a.traps)
	done, err := a.walkText(c, st, text)
	if err != nil {
		if a.out.ParseError == "" {
			msg := err.Error()
			if len(c.via) > 0 {
				msg = c.via[len(c.via)-1].Text + ": " + msg
			}
			a.out.ParseError = msg
		}
		a.fallback(c, st, text[done:])
	}
	a.flushTraps(traps, st)
	var base *state // a fresh state, made only when a function was left uncalled
	if c.fileText {
		// A file's functions that it never calls run, if ever, once a
		// script that sources it calls them: with its globals as it
		// leaves them, as far as anything is known.
		base = st
	}
	a.uncalled(start, base)
}

// walkText parses bash text statement by statement and walks each, so
// that parsing stops once the command cap is reached: text past the cap
// costs nothing. A statement that may hold a heredoc is walked once the
// parser has gone past the line it ends on, because the bodies of the
// heredocs a line opens are only read then; the statements after it wait
// with it, to keep their order. On a parse error, done is the offset up to
// which text was walked (heredoc bodies included): the caller scans the
// rest with the fallback. Texts nested deeper than maxParseNesting are
// refused whole.
//
// The parser is stopped by ending its input, never by leaving its
// iterator early, and each call takes its own parser from the pool, since
// walking a statement parses nested scripts (bash -c, eval) meanwhile.
// Nothing here walks the syntax tree recursively (a pipeline of 100k
// commands is a tree 100k deep). Cost: linear in text, up to the cap.
func (a *analyzer) walkText(c ctx, st *state, text string) (done int, err error) {
	if nestingDepth(text, maxParseNesting) > maxParseNesting {
		return 0, errTooDeep
	}
	// One value holds the walk's state: the loop body below is a closure,
	// and every local it touched would be allocated on its own. The
	// outermost walk uses the analyzer's own; a nested one (bash -c,
	// eval, walked meanwhile) allocates.
	var w *textWalk
	if a.walking {
		w = &textWalk{a: a, c: c, st: st}
	} else {
		a.walking = true
		defer a.endWalk()
		w = &a.topWalk
		*w = textWalk{a: a, c: c, st: st}
	}
	w.pending = w.buf[:0]
	w.src.Reset(text)
	w.in.r = &w.src
	p := parserPool.Get().(*syntax.Parser)
	for s, perr := range p.StmtsSeq(&w.in) {
		switch {
		case w.in.stop:
			// Parsed from the cut input: ignored.
		case perr != nil:
			w.err = perr
		default:
			if len(w.pending) > 0 && s.Pos().Line() > w.pendingLine {
				w.walk()
				if w.in.stop {
					continue
				}
				w.done = int(s.Pos().Offset()) // the bodies lie before s
			}
			w.pending = append(w.pending, s)
			w.pendingLine = max(w.pendingLine, s.End().Line())
			if len(w.pending) == 1 && !mayHoldHeredoc(text, s) {
				w.walk() // nothing in it is filled in later
				w.done = int(s.End().Offset())
			}
		}
	}
	parserPool.Put(p)
	if w.err == nil && !w.in.stop {
		w.walk()
	}
	return min(w.done, len(text)), w.err
}

// endWalk frees the analyzer's own textWalk once the outermost walk
// returns.
func (a *analyzer) endWalk() {
	a.topWalk = textWalk{}
	a.walking = false
}

// textWalk is the state of one walkText.
type textWalk struct {
	a           *analyzer
	c           ctx
	st          *state
	src         strings.Reader
	in          stoppableReader
	pending     []*syntax.Stmt // parsed, not walked yet
	buf         [4]*syntax.Stmt
	pendingLine uint // the last line the pending statements reach
	done        int
	err         error
}

// walk walks the pending statements, and stops the input once the
// analysis is full.
func (w *textWalk) walk() {
	for _, s := range w.pending {
		if w.a.full() {
			break
		}
		w.a.stmt(w.c, w.st, s)
	}
	clear(w.pending)
	w.pending = w.pending[:0]
	if w.a.full() {
		w.in.stop = true
	}
}

// mayHoldHeredoc reports whether the source of statement s has a <<
// (a heredoc operator, or text that only looks like one).
func mayHoldHeredoc(text string, s *syntax.Stmt) bool {
	from, to := int(s.Pos().Offset()), int(s.End().Offset())
	if from < 0 || to > len(text) || from > to {
		return true
	}
	return strings.Contains(text[from:to], "<<")
}

// stoppableReader reads from r until stop is set, then reports the end of
// the input.
type stoppableReader struct {
	r    *strings.Reader
	stop bool
}

func (s *stoppableReader) Read(b []byte) (int, error) {
	if s.stop {
		return 0, io.EOF
	}
	return s.r.Read(b)
}

// uncalled analyses the bodies of functions declared since start that were
// never called, so their commands are reported too: each on a branch of
// base (an empty state: nothing known).
func (a *analyzer) uncalled(start int, base *state) {
	for i := start; i < len(a.declared) && !a.full(); i++ {
		d := a.declared[i]
		if d.def.called {
			continue
		}
		if base == nil {
			base = newState()
		}
		d.def.called = true
		c := d.c
		c.via = appendVia(c.via, "function "+d.name)
		c.src = d.def.src
		a.stmt(c, base.branch(), d.def.body)
	}
	a.declared = a.declared[:start]
}

// nestedText analyses a script found inside a command (bash -c, eval,
// powershell -Command, ...) one level deeper, with parent as its Parent.
func (a *analyzer) nestedText(c ctx, st *state, text string, dialect ir.Dialect, via string, parent int) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if c.depth+1 > ir.MaxDepth {
		a.out.Truncated = true
		return
	}
	a.nestedBytes += len(text)
	if a.nestedBytes > a.maxNested {
		a.out.Truncated = true
		return
	}
	n := ctx{depth: c.depth + 1, via: appendVia(c.via, via), parent: parent, dialect: dialect, src: text, bg: c.bg, container: c.container,
		file: c.file, line: c.line}
	a.text(n, st, text)
}

// nestedArgv runs an argv one level deeper (xargs, find -exec, ...).
func (a *analyzer) nestedArgv(c ctx, st *state, words []xword, via string, parent int) int {
	if len(words) == 0 {
		return -1
	}
	if c.depth+1 > ir.MaxDepth {
		a.out.Truncated = true
		return -1
	}
	n := ctx{depth: c.depth + 1, via: appendVia(c.via, via), parent: parent, dialect: c.dialect, src: c.src, bg: c.bg, container: c.container,
		file: c.file, line: c.line}
	return a.run(n, st, &simple{words: words})
}

// run reports one simple command: it strips wrappers, appends the Command,
// then analyses what the command runs in turn (substitutions, function
// bodies, bash -c strings, xargs, ...) and applies builtins' effects (cd,
// assignments, read ...) to st. It returns the command's index, or -1.
func (a *analyzer) run(c ctx, st *state, sc *simple) int {
	if a.full() {
		return -1
	}
	a.steps += 1 + len(sc.words) + len(sc.redirs) + len(sc.assigns)
	words := sc.words
	if c.container != nil {
		words = make([]xword, len(sc.words))
		for i, w := range sc.words {
			words[i] = c.container.mapWord(w)
		}
	}
	uw := a.stripWrappers(c, sc, words)
	words, via, assigns, env, extraCd := uw.words, uw.via, uw.assigns, uw.env, uw.extraCd
	stripped, external := uw.stripped, uw.external
	name, loose := "", ""
	if len(words) > 0 {
		name = nameOf(words[0])
		loose = looseName(words[0])
	}
	cmd := ir.Command{
		Name:        name,
		NameIfEmpty: loose,
		Assigns:     assigns,
		Dialect:     c.dialect,
		Depth:       c.depth,
		Via:         via,
		Parent:      c.parent,
		FeedsInto:   -1,
		Background:  c.bg,
		Origin:      c.origin(),
	}
	cmd.Args = irWords(words)

	cmd.Redirects = commandRedirects(c, sc)
	stdin, stdinOp := sc.stdin, sc.stdinOp
	if stdin == nil {
		stdin, stdinOp = c.stdin, c.stdinOp
	}
	switch {
	case stdin != nil:
		cmd.Stdin = stdin.value()
	case c.piped != nil && c.dialect == ir.Bash:
		cmd.Stdin = c.piped.posix.value() // echo '...' | python3
	}
	if (name == "echo" || name == "printf") && c.dialect == ir.Bash {
		if out, ok := literalOutput(name, words, nil, a.maxNested-a.nestedBytes, ir.Bash); ok {
			cmd.Output = out.value()
		}
	}
	if len(st.cd) > 0 || len(extraCd) > 0 {
		// Shared with the state: chains are never modified in place.
		cmd.Cd = slices.Clip(st.cd)
		for _, step := range extraCd {
			cmd.Cd = appendStep(cmd.Cd, step, c.dialect)
		}
	}
	idx := len(a.out.Commands)
	a.out.Commands = append(a.out.Commands, cmd)
	a.last = lastRun{idx: idx, words: words, stdin: stdin, piped: c.piped}
	if t, ok := catWritten(st, name, words); ok {
		// cat x.sh | sh: the file's text (a copy of t, so that only this
		// branch allocates it, not every command)
		text := t
		a.last.words, a.last.stdin = words[:1], &text
	}

	a.substitutions(c, st, sc, idx)

	// What runs the command in turn sees the wrappers' view: their Via,
	// their directory (env -C, sudo -D) and their environment.
	inner := c
	inner.via = via
	inner.stdin, inner.stdinOp = stdin, stdinOp
	inner.redirs = nil
	ist := st
	if len(extraCd) > 0 {
		ist = st.clone()
		ist.cd = cmd.Cd
	}
	ex := exec{idx: idx, name: name, words: words, env: env, redirs: cmd.Redirects}
	if name == "" {
		ex.name = loose // follow ba${X}sh -c as bash -c: the careful reading
		if ex.name == "" && c.dialect == ir.Bash && len(words) > 1 && shellVarWord(words[0]) {
			ex.name = "sh" // $SHELL -c ...
		}
	}
	a.commandVarPayloads(inner, ist, idx, assigns)
	if ex.name != "" {
		if !stripped && sc.plain && c.dialect == ir.Bash {
			if f := st.funcs[name]; f != nil && !f.called {
				a.callFunc(c, st, f, ex)
			}
		}
		a.runFiles(inner, ist, ex)
		if h := nestedHandlers[ex.name]; h != nil {
			h(a, inner, ist, ex)
		}
		a.inline(inner, ist, ex)
		a.payloads(inner, ist, ex)
	} else if len(words) > 1 {
		a.unknownWrapper(inner, ist, st, ex)
	}
	if !external && name != "" {
		a.builtin(c, st, ex)
	}
	in := stdin
	if in == nil {
		in = stdinText(c)
	}
	a.recordWrites(st, name, words, stdin, in, cmd.Redirects, c.dialect)
	return idx
}

// unwrapped is a simple command with its wrappers (sudo, env, nice, ...)
// stripped: the words that remain, the Via chain, the assignments and
// environment the wrappers add, and the directories they change to.
type unwrapped struct {
	words    []xword
	via      []ir.Via
	assigns  []ir.Assign
	env      map[string]variable
	extraCd  []ir.Word
	stripped bool // a wrapper was stripped
	external bool // ... and it is a separate process (sudo, env, ...)
}

// stripWrappers strips up to maxWrappers wrappers off words.
func (a *analyzer) stripWrappers(c ctx, sc *simple, words []xword) unwrapped {
	u := unwrapped{words: words, via: c.via, assigns: sc.assigns, env: sc.env}
	for n := 0; n < maxWrappers && len(u.words) > 0; n++ {
		name := nameOf(u.words[0])
		if name == "" {
			name = looseName(u.words[0])
		}
		w, ok := wrappers[name]
		if !ok || (w.posix && c.dialect != ir.Bash) {
			break
		}
		s := w.strip(a, name, u.words)
		if len(s.rest) == 0 {
			break
		}
		label := s.via
		if label == "" {
			label = name
		}
		u.via = appendVia(u.via, label)
		u.words = s.rest
		if len(s.assigns) > 0 {
			u.assigns = append(slices.Clip(u.assigns), s.assigns...)
			if u.env == nil {
				u.env = map[string]variable{}
			} else {
				u.env = cloneEnv(u.env)
			}
			for _, as := range s.assigns {
				u.env[as.Name] = variable{val: wordToX(as.Value).parts}
			}
		}
		u.extraCd = append(u.extraCd, s.cd...)
		u.stripped = true
		u.external = u.external || !w.posix
	}
	return u
}

// commandRedirects are the redirections of a command: the enclosing
// compound's and its own, mapped into the container's view.
func commandRedirects(c ctx, sc *simple) []ir.Redirect {
	if len(c.redirs) == 0 && len(sc.redirs) == 0 {
		return nil
	}
	r := append(slices.Clip(c.redirs), sc.redirs...)
	if c.container != nil {
		r = slices.Clone(r)
		for i := range r {
			r[i].Target = c.container.mapWord(wordToX(r[i].Target)).word()
		}
	}
	return r
}

// exec is a command after wrapper stripping, as the nested handlers see it.
type exec struct {
	idx    int
	name   string
	words  []xword
	env    map[string]variable
	redirs []ir.Redirect
}

func cloneEnv(m map[string]variable) map[string]variable {
	out := make(map[string]variable, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// substitutions analyses the $(...), `...` and <(...) of a command's words:
// each runs in a subshell one level deeper; their top-level commands feed
// the command at idx.
func (a *analyzer) substitutions(c ctx, st *state, sc *simple, idx int) {
	for _, n := range sc.subst {
		if a.full() {
			return
		}
		var stmts []*syntax.Stmt
		var piped *pipedInput
		kind, via := ir.FeedSubst, "$()"
		switch n := n.(type) {
		case *syntax.CmdSubst:
			stmts = n.Stmts
			if sc.stdinSubst[n] {
				kind = ir.FeedPipe
			}
		case *syntax.ProcSubst:
			stmts = n.Stmts
			kind = ir.FeedProcSubst
			via = n.Op.String() + ")"
			if n.Op == syntax.CmdOut && c.piped != nil && len(sc.words) > 0 {
				// tee >(CMD): CMD reads what tee copies, the text piped
				// into tee (echo x | tee >(xargs mkdir)).
				if name, ok := sc.words[0].lit(); ok && passesInput(ir.CommandName(name), sc.words) {
					piped = c.piped
				}
			}
		}
		a.subshellAt(c, st, stmts, sc.src, via, idx, kind, piped)
	}
}

// subshellAt walks statements of a substitution one level deeper, marking
// their top-level commands as feeding target (when target >= 0).
func (a *analyzer) subshellAt(c ctx, st *state, stmts []*syntax.Stmt, src, via string, target int, kind ir.FeedKind, piped *pipedInput) {
	if len(stmts) == 0 {
		return
	}
	if c.depth+1 > ir.MaxDepth {
		a.out.Truncated = true
		return
	}
	n := ctx{depth: c.depth + 1, via: appendVia(c.via, via), parent: target, dialect: ir.Bash, src: src, bg: c.bg, container: c.container,
		file: c.file, line: c.line}
	if target < 0 {
		n.parent = c.parent
	}
	if piped != nil && len(stmts) == 1 {
		if _, simple := stmts[0].Cmd.(*syntax.CallExpr); simple {
			n.piped = piped
		}
	}
	start := len(a.out.Commands)
	a.stmts(n, st.clone(), stmts)
	if target < 0 {
		return
	}
	for j := start; j < len(a.out.Commands); j++ {
		cm := &a.out.Commands[j]
		if cm.Parent == target && cm.Depth == n.depth && cm.FeedsInto == -1 {
			cm.FeedsInto = target
			cm.Feed = kind
		}
	}
}

// callFunc analyses a function body at its first call, in the caller's
// shell, with the call's arguments as positional parameters.
func (a *analyzer) callFunc(c ctx, st *state, f *funcDef, ex exec) {
	f.called = true
	savedPos, savedKnown, savedArg0 := st.pos, st.posKnown, st.arg0
	st.pos = slices.Clone(ex.words[1:])
	st.posKnown = true
	n := c
	n.via = appendVia(c.via, "function "+ex.name)
	n.parent = ex.idx
	n.src = f.src
	n.redirs = ex.redirs
	a.stmt(n, st, f.body)
	st.pos, st.posKnown, st.arg0 = savedPos, savedKnown, savedArg0
}

// nameOf reduces argv[0] to what rules match on: the last path element,
// lower-cased, without .exe/.cmd/.bat/.com/.ps1. "" when unknown.
func nameOf(w xword) string {
	v, ok := w.lit()
	if !ok {
		return ""
	}
	return ir.CommandName(v)
}

// looseName is the name of w with its unknown parts taken as empty.
func looseName(w xword) string {
	if len(w.parts) == 1 && !w.parts[0].unknown {
		return ir.CommandName(w.parts[0].text) // the usual word: nothing to join
	}
	var sb strings.Builder
	for _, p := range w.parts {
		if !p.unknown {
			sb.WriteString(p.text)
		}
	}
	return ir.CommandName(sb.String())
}

// Holes: when a nested script is built from words with unknown parts, each
// unknown part is replaced by a reference to a variable no script uses; the
// nested analysis turns it back into an unknown part showing the original
// text (so `bash -c "rm -rf $X"` reports rm -rf $X with $X unknown).
const holePrefix = "__zfh"

func (a *analyzer) newHole(orig string) string {
	if a.holes == nil {
		a.holes = make(map[string]string)
	}
	name := holePrefix + strconv.Itoa(a.nholes) + "_"
	a.nholes++
	a.holes[name] = orig
	return "${" + name + "}"
}

// holeAt reports the hole name starting at s[i:] (s[i:] begins with
// holePrefix), or "".
func (a *analyzer) holeAt(s string, i int) string {
	j := i + len(holePrefix)
	k := j
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == j || k >= len(s) || s[k] != '_' {
		return ""
	}
	name := s[i : k+1]
	if _, ok := a.holes[name]; !ok {
		return ""
	}
	return name
}

// splitHoles turns hole tokens inside known text into unknown parts.
func (a *analyzer) splitHoles(s string) []part {
	var out []part
	for {
		i := strings.Index(s, holePrefix)
		if i < 0 {
			break
		}
		name := a.holeAt(s, i)
		if name == "" {
			out = append(out, part{text: s[:i+len(holePrefix)]})
			s = s[i+len(holePrefix):]
			continue
		}
		start, end := i, i+len(name)
		if start >= 2 && s[start-2:start] == "${" && end < len(s) && s[end] == '}' {
			start, end = start-2, end+1
		}
		if start > 0 {
			out = append(out, part{text: s[:start]})
		}
		out = append(out, part{text: a.holes[name], unknown: true})
		s = s[end:]
	}
	if s != "" {
		out = append(out, part{text: s})
	}
	return out
}

// fillRaw replaces hole tokens in source text by the original text.
func (a *analyzer) fillRaw(s string) string {
	if len(a.holes) == 0 || !strings.Contains(s, holePrefix) {
		return s
	}
	var sb strings.Builder
	for _, p := range a.splitHoles(s) {
		sb.WriteString(p.text)
	}
	return sb.String()
}

// joinText joins words with spaces into the text of a nested script,
// unknown parts becoming holes. winPaths keeps the backslashes an unquoted
// POSIX word lost (C:\x), for cmd.exe and PowerShell payloads. known is
// false when the text has nothing known but blanks.
func (a *analyzer) joinText(ws []xword, winPaths bool) (text string, known bool) {
	var sb strings.Builder
	for i, w := range ws {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if winPaths && w.known() && w.raw != "" && !strings.ContainsAny(w.raw, "'\"$`") &&
			strings.ReplaceAll(w.raw, `\`, "") == strings.ReplaceAll(w.value(), `\`, "") {
			sb.WriteString(w.raw)
			known = known || strings.TrimSpace(w.raw) != ""
			continue
		}
		for _, p := range w.parts {
			if p.unknown {
				sb.WriteString(a.newHole(p.text))
				continue
			}
			sb.WriteString(p.text)
			known = known || strings.TrimSpace(p.text) != ""
		}
	}
	return sb.String(), known
}
