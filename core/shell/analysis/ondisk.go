package analysis

import (
	"path"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
)

// Files on disk that a command runs (Options.Files): a shell script named
// to a shell (bash x.sh, sh -e x.sh), sourced (source x.sh, . x.sh) or run
// as a program (./x.sh, tools/x — its #! line says which interpreter), an
// interpreter's script file (python3 x.py, node app.js, ...), the task
// files of make, npm/yarn/pnpm/bun, just, task, composer and deno task
// (tasks.go), and the git hooks a git command triggers (githooks.go). The
// file's text is analysed one level deeper, as if its commands were on the
// command line, in the state they run with: a script run by a shell starts
// a child shell ($0 and the positional parameters set, exported variables
// only), a sourced one runs in this shell. Every command found carries its
// Origin, file:line. A file written earlier in the same line (written.go)
// is judged by that text, not read. A path that is not wholly known, a
// command in a container, and a dialect other than bash are not read.

// fileOrigin is a file whose text is being analysed: the name reasons show,
// the text statements are positioned in, and the file line of its first
// line minus one (a makefile recipe starts on its own line). noLine marks
// an interpreter file, judged whole: reasons name the file alone.
type fileOrigin struct {
	shown  string
	text   string
	first  int
	noLine bool
	// sqlDir is the directory of an SQL script file whose text is a
	// client's input (sqlfiles.go): psql's \ir is relative to it.
	sqlDir string
}

// origin renders where the command at c comes from ("x.sh:12"), "" for
// the command line itself.
func (c ctx) origin() string {
	f := c.file
	if f == nil {
		return ""
	}
	if f.noLine || c.line <= 0 {
		return f.shown
	}
	return f.shown + ":" + strconv.Itoa(c.line)
}

// diskRead is one file read for a command.
type diskRead struct {
	abs, shown, text string
	status           ondisk.Status
}

// readDisk resolves the path word w names against the cd chain and reads
// it. ok is false when nothing could be read from disk for it: no reader,
// a word not wholly known or globbed, a container's path, an unknown
// directory, a file already being analysed (a script that runs itself).
func (a *analyzer) readDisk(c ctx, st *state, w xword) (diskRead, bool) {
	if a.opts.Files == nil || c.container != nil || c.dialect != ir.Bash || w.glob {
		return diskRead{}, false
	}
	v, ok := w.lit()
	if !ok || v == "" || strings.ContainsRune(v, 0) {
		return diskRead{}, false
	}
	abs, ok := a.absPath(st, v)
	if !ok {
		return diskRead{}, false
	}
	return a.readAbs(abs)
}

// absPath resolves v against the cd chain of st; ok false when the
// directory is unknown.
func (a *analyzer) absPath(st *state, v string) (string, bool) {
	if strings.HasPrefix(v, "/") {
		return path.Clean(v), true
	}
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return "", false
	}
	return path.Join(dir, v), true
}

// readAbs reads the file at abs (see readDisk).
func (a *analyzer) readAbs(abs string) (diskRead, bool) {
	for _, p := range a.onDisk {
		if p == abs {
			return diskRead{}, false
		}
	}
	text, status := a.opts.Files.Read(abs)
	d := diskRead{abs: abs, shown: a.shownPath(abs), text: text, status: status}
	if status == ondisk.Read && !a.counted[abs] && !ondisk.Binary(text) {
		// Counted once per call: the reader returns a file read again
		// from its cache, and a binary is never parsed (nginx's
		// configure runs /bin/sh -c several hundred times).
		if a.counted == nil {
			a.counted = map[string]bool{}
		}
		a.counted[abs] = true
		a.addInput(len(text))
	}
	return d, true
}

// shownPath is how reasons name a file: relative to the call's cwd when
// inside it, else absolute.
func (a *analyzer) shownPath(abs string) string {
	if cwd := strings.TrimSuffix(a.opts.Cwd, "/"); cwd != "" {
		if rel, ok := strings.CutPrefix(abs, cwd+"/"); ok {
			return rel
		}
	}
	return abs
}

// addInput counts n bytes read from disk as input of the call: they are
// parsed (steps) and widen the budgets that scale with the input, as the
// command text's own bytes do.
func (a *analyzer) addInput(n int) {
	a.input += n
	a.steps += n / 256
	a.maxNested = budgetFor(a.input, maxNestedBytes)
	a.maxExpanded = budgetFor(a.input, maxExpanded)
}

// uninspected marks the command at idx as running a file that exists but
// could not be read (a FIFO, a device ...).
func (a *analyzer) uninspected(idx int, d diskRead) {
	if idx >= 0 && idx < len(a.out.Commands) && a.out.Commands[idx].Uninspected == "" {
		a.out.Commands[idx].Uninspected = d.shown + ": not a regular file"
	}
}

// analyseFile analyses text read from file f one level deeper (Via via),
// with parent as its Parent, in st, a shell of its own or the caller's.
func (a *analyzer) analyseFile(c ctx, st *state, f *fileOrigin, via string, parent int) {
	a.analyseFileAt(c, st, f, via, parent, c.depth+1)
}

// analyseFileAt is analyseFile at a given depth: a sourced file runs in
// the sourcing shell, at its depth (a file is never entered twice in one
// chain, and the files of a call are bounded, so sourcing cannot recurse
// without end).
func (a *analyzer) analyseFileAt(c ctx, st *state, f *fileOrigin, via string, parent, depth int) {
	if strings.TrimSpace(f.text) == "" || a.full() {
		return
	}
	if depth > ir.MaxDepth {
		a.out.Truncated = true
		return
	}
	n := ctx{depth: depth, via: appendVia(c.via, via), parent: parent, dialect: ir.Bash, src: f.text, bg: c.bg, file: f, fileText: true}
	if a.walkedText[f.text] {
		a.steps += len(f.text) / 256 // parsed again (readAbs counted the first time)
	} else {
		if a.walkedText == nil {
			a.walkedText = map[string]bool{}
		}
		a.walkedText[f.text] = true
	}
	a.inFile++
	defer func() { a.inFile-- }()
	a.text(n, st, f.text)
}

// withFile runs fn with abs marked as being analysed.
func (a *analyzer) withFile(abs string, fn func()) {
	a.onDisk = append(a.onDisk, abs)
	defer func() { a.onDisk = a.onDisk[:len(a.onDisk)-1] }()
	fn()
}

// scriptState prepares st, a child shell, to run the script named by arg0
// with args: $0, the positional parameters and BASH_SOURCE.
func scriptState(st *state, arg0 xword, args []xword) {
	st.arg0 = &arg0
	st.pos, st.posKnown = append([]xword(nil), args...), true
	st.setVar("BASH_SOURCE", variable{isArr: true, arr: []xword{arg0}})
}

// readWhole reports whether d holds a file's whole text to judge. A path
// that is there but is not a regular file (a FIFO, a device) is reported
// as uninspected for the command at ex.idx; a missing, unreadable or
// oversized file is left to the rules that judge the command itself.
func (a *analyzer) readWhole(ex exec, d diskRead) bool {
	switch d.status {
	case ondisk.Read:
		return true
	case ondisk.NotRegular:
		a.uninspected(ex.idx, d)
	}
	return false
}

// shellFileCmd: a shell runs the script file ws[i] with the arguments
// after it (bash x.sh a b, sh -e tools/x.sh). child is the shell's state.
func (a *analyzer) shellFileCmd(c ctx, child *state, ex exec, i int) {
	d, ok := a.readDisk(c, child, ex.words[i])
	if !ok {
		return
	}
	if !a.readWhole(ex, d) {
		return
	}
	if ondisk.Binary(d.text) {
		return
	}
	scriptState(child, ex.words[i], ex.words[i+1:])
	a.withFile(d.abs, func() {
		a.analyseFile(c, child, &fileOrigin{shown: d.shown, text: d.text}, ex.name+" "+d.shown, ex.idx)
	})
}

// sourceFileCmd: source FILE [ARGS] / . FILE runs the file in this shell;
// with ARGS the positional parameters are set while it runs.
func (a *analyzer) sourceFileCmd(c ctx, st *state, ex exec, i int) {
	d, ok := a.readDisk(c, st, ex.words[i])
	if !ok {
		return
	}
	if !a.readWhole(ex, d) {
		return
	}
	if ondisk.Binary(d.text) {
		return
	}
	savedPos, savedKnown := st.pos, st.posKnown
	if len(ex.words) > i+1 {
		st.pos, st.posKnown = append([]xword(nil), ex.words[i+1:]...), true
	}
	a.withFile(d.abs, func() {
		a.analyseFileAt(c, st, &fileOrigin{shown: d.shown, text: d.text}, ex.name+" "+d.shown, ex.idx, c.depth)
	})
	if !a.out.Truncated {
		a.sourcedRead = ex.idx + 1
	}
	if len(ex.words) > i+1 {
		st.pos, st.posKnown = savedPos, savedKnown
	}
}

// runOnDisk analyses the files on disk command ex runs by itself: its
// command word when it is a path (./x.sh, bin/tool), an interpreter's
// script file, a task runner's task file, the git hooks git runs.
func (a *analyzer) runOnDisk(c ctx, st *state, ex exec) {
	if a.opts.Files == nil || c.dialect != ir.Bash || c.container != nil || len(ex.words) == 0 {
		return
	}
	if v, ok := ex.words[0].lit(); ok && strings.Contains(v, "/") {
		if _, written := writtenText(st, ex.words[0]); !written {
			a.execFile(c, st, ex)
		}
		return
	}
	if a.interpFileCmd(c, st, ex) {
		return
	}
	if h := taskRunners[ex.name]; h != nil {
		h(a, c, st, ex)
	}
}

// execFile: the command word is a file run as a program: its #! line
// names the interpreter (a shell, or an interpreter the one-liner scanner
// reads); with none, the shell runs it as a script. Binaries are not
// judged.
func (a *analyzer) execFile(c ctx, st *state, ex exec) {
	d, ok := a.readDisk(c, st, ex.words[0])
	if !ok {
		return
	}
	if !a.readWhole(ex, d) {
		return
	}
	if ondisk.Binary(d.text) {
		return
	}
	sb, has := ondisk.ParseShebang(d.text)
	if !has || cmdfacts.IsShell(sb.Prog) {
		child := st.child(a, ex.env)
		scriptState(child, ex.words[0], ex.words[1:])
		via := d.shown
		if has {
			via = sb.Prog + " " + d.shown
		}
		a.withFile(d.abs, func() {
			a.analyseFile(c, child, &fileOrigin{shown: d.shown, text: d.text}, via, ex.idx)
		})
		return
	}
	if !interpFileLang(sb.Prog) {
		return
	}
	words := []xword{knownWord(sb.Prog, sb.Prog)}
	for _, arg := range sb.Args {
		words = append(words, knownWord(arg, arg))
	}
	a.withFile(d.abs, func() {
		a.interpFile(c, st, ex, words, d)
	})
}

// interpFileLang reports an interpreter whose script files are judged: the
// languages whose code the one-liner scanner reads.
func interpFileLang(name string) bool {
	switch cmdfacts.InterpreterLang(name) {
	case "python", "node", "ruby", "perl", "php", "deno", "bun":
		return true
	}
	return false
}

// interpFileCmd: an interpreter runs a script file (python3 x.py, node
// app.js, deno run x.ts): the file's text is its program. It reports
// whether ex names such a file.
func (a *analyzer) interpFileCmd(c ctx, st *state, ex exec) bool {
	if !interpFileLang(ex.name) {
		return false
	}
	cmd := a.out.Commands[ex.idx]
	i := cmdfacts.ScriptFile(&cmd)
	if i <= 0 || i >= len(ex.words) {
		return false
	}
	if _, written := writtenText(st, ex.words[i]); written {
		return true // runWrittenScript judged it
	}
	d, ok := a.readDisk(c, st, ex.words[i])
	if !ok {
		return true
	}
	if !a.readWhole(ex, d) {
		return true
	}
	words := ex.words[:i]
	if ex.name == "deno" || ex.name == "bun" {
		// deno run - / bun run -: the program from stdin
		words = []xword{ex.words[0], knownWord("run", "run"), knownWord("-", "-")}
	}
	a.withFile(d.abs, func() {
		a.interpFile(c, st, ex, words, d)
	})
	return true
}

// interpFile analyses the interpreter command words (without the file) run
// with file d's text as its program, one level deeper, as runWrittenScript
// does for a file written in the line: every layer's one-liner judgement
// reads the whole file. A file longer than the one-liner scanner reads is
// not judged (ondisk.OverCap).
func (a *analyzer) interpFile(c ctx, st *state, ex exec, words []xword, d diskRead) {
	if ondisk.Binary(d.text) {
		return
	}
	if len(d.text) > oneliner.MaxCode {
		a.opts.Files.SetStatus(d.abs, ondisk.OverCap)
		return
	}
	if c.depth+1 > ir.MaxDepth {
		a.out.Truncated = true
		return
	}
	name, _ := words[0].lit()
	n := ctx{depth: c.depth + 1, via: appendVia(c.via, ir.CommandName(name)+" "+d.shown), parent: ex.idx, dialect: c.dialect,
		src: c.src, bg: c.bg, file: &fileOrigin{shown: d.shown, noLine: true}}
	t := knownWord(d.text, "")
	n.stdin, n.stdinOp = &t, "<"
	a.run(n, st.child(a, ex.env), &simple{words: words})
}

// runFiles analyses the files ex runs: written earlier in the line
// (written.go), else read from disk.
func (a *analyzer) runFiles(c ctx, st *state, ex exec) {
	a.runWritten(c, st, ex)
	a.runOnDisk(c, st, ex)
	a.sqlScriptFiles(c, st, ex)
}

// irWords converts a command's words (nil for none).
func irWords(words []xword) []ir.Word {
	if len(words) == 0 {
		return nil
	}
	out := make([]ir.Word, len(words))
	for i, w := range words {
		out[i] = w.word()
	}
	return out
}

// surelyUnset reports, inside a file read from disk, a variable the
// script has not set and the environment does not hold (Options.Lookup answers for the environment
// the command inherits): ${NAME:-default} is then the default, as the
// shell will expand it. Positional and special parameters, dynamic
// variables and names past the variable cap are never surely unset.
func (a *analyzer) surelyUnset(st *state, name string) bool {
	if a.inFile == 0 || a.opts.Lookup == nil || !isName(name) || dynamicVars[name] || st.varsFull || a.holes[name] != "" {
		return false
	}
	if _, set := st.vars[name]; set {
		return false
	}
	switch name {
	case "HOME", "PWD", "OLDPWD", "IFS":
		return false
	}
	_, inEnv := a.opts.Lookup(name)
	return !inEnv
}
