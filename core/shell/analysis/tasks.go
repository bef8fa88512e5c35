package analysis

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// Task runners whose task files are read from disk: make (tasks.go),
// npm, yarn, pnpm and bun (package.json scripts), composer, deno task,
// just and task (tasks_more.go), and git's hooks (githooks.go). Each
// finds the task file the way the runner does, asks core/shell/ondisk for
// the command lines the named tasks (or the default one) run, and
// analyses each one level deeper, in a child shell of the runner in the
// directory the runner runs it in, with Origin file:line.

// taskRunners are the handlers by command name.
var taskRunners map[string]func(a *analyzer, c ctx, st *state, ex exec)

func init() {
	taskRunners = map[string]func(a *analyzer, c ctx, st *state, ex exec){
		"make": (*analyzer).makeCmd, "git": (*analyzer).gitHooksCmd,
	}
	for name, h := range moreTaskRunners {
		taskRunners[name] = h
	}
}

// enter marks key (a task file and what runs of it) as being analysed; it
// reports false when it already is (a task that runs itself).
func (a *analyzer) enter(key string) bool {
	for _, k := range a.onDisk {
		if k == key {
			return false
		}
	}
	a.onDisk = append(a.onDisk, key)
	return true
}

func (a *analyzer) leave() { a.onDisk = a.onDisk[:len(a.onDisk)-1] }

// holeText turns expanded task-file text into shell text, its unknown
// parts becoming holes (unknown words for the analysis).
func (a *analyzer) holeText(t ondisk.Text) string {
	var sb strings.Builder
	for _, s := range t {
		if s.Unknown {
			sb.WriteString(a.newHole(s.Text))
		} else {
			sb.WriteString(s.Text)
		}
	}
	return sb.String()
}

// xText converts expanded task-file text into a word.
func xText(t ondisk.Text) xword {
	var w xword
	for _, s := range t {
		w.parts = append(w.parts, part{text: s.Text, unknown: s.Unknown})
	}
	return w
}

// toTaskText converts a word into task-file text.
func toTaskText(w xword) ondisk.Text {
	var t ondisk.Text
	for _, p := range w.parts {
		t = append(t, ondisk.Seg{Text: p.text, Unknown: p.unknown})
	}
	return t
}

// envFunc is the environment a runner started with state st inherits.
func (a *analyzer) envFunc(st *state) func(string) (ondisk.Text, bool) {
	return func(name string) (ondisk.Text, bool) {
		v, ok := a.lookup(st, name)
		if !ok {
			if _, set := st.vars[name]; set || a.inEnviron(name) {
				return ondisk.Text{{Text: "$" + name, Unknown: true}}, true
			}
			return nil, false
		}
		if v.isArr {
			return nil, false
		}
		return toTaskText(xword{parts: v.val}), true
	}
}

// readFor returns a reader for task files on behalf of the command at idx:
// a file that exists but is not regular marks the command Uninspected.
func (a *analyzer) readFor(idx int) func(string) (string, bool) {
	return func(abs string) (string, bool) {
		d, ok := a.readAbs(abs)
		if !ok {
			return "", false
		}
		if d.status == ondisk.NotRegular {
			a.uninspected(idx, d)
		}
		return d.text, d.status == ondisk.Read && !ondisk.Binary(d.text)
	}
}

// runnerState is the state a runner's commands start from: a child of st
// with the runner's environment, in dir (absolute, "" for st's own).
func (a *analyzer) runnerState(st *state, ex exec, dir string, env map[string]ondisk.Text) *state {
	child := st.child(a, ex.env)
	if dir != "" {
		if cur, ok := a.resolveChain(child.cd); !ok || cur != dir {
			child.chdir(knownWord(dir, dir).word(), ir.Bash)
		}
	}
	for name, t := range env {
		if isName(name) {
			child.setVar(name, variable{val: xText(t).parts, exported: true})
		}
	}
	return child
}

// taskLine analyses one command line of a task file (file abs, line),
// one level deeper, in a clone of the runner's state.
func (a *analyzer) taskLine(c ctx, st *state, ex exec, text ondisk.Text, abs string, line int, via string) {
	if a.full() {
		return
	}
	src := a.holeText(text)
	f := &fileOrigin{shown: a.shownPath(abs), text: src, first: line - 1}
	a.analyseFile(c, st.clone(), f, via, ex.idx)
}

// makeCmd: make [options] [VAR=value ...] [goals ...] reads its makefile
// (-f, else the default names in the directory after -C) and runs the
// goals' recipes (ondisk.Make).
func (a *analyzer) makeCmd(c ctx, st *state, ex exec) {
	for _, n := range cmdfacts.MakefileNames {
		if _, ok := writtenText(st, knownWord(n, n)); ok {
			return // written in the line: runWritten judged it
		}
	}
	dir, ok := a.resolveChain(st.cd)
	if !ok || !strings.HasPrefix(dir, "/") {
		return
	}
	opt, files, dir, ok := parseMakeArgs(ex.words[1:], dir)
	if !ok {
		return
	}
	for _, f := range files {
		if f == "-" || isStdinPath(f) {
			return // the payload reader judges a makefile on stdin
		}
		if _, ok := writtenText(st, knownWord(f, f)); ok {
			return
		}
		if !strings.HasPrefix(f, "/") {
			f = path.Join(dir, f)
		}
		opt.Files = append(opt.Files, path.Clean(f))
	}
	opt.Dir = dir
	mst := st.child(a, ex.env)
	opt.Env = a.envFunc(mst)
	opt.Read = a.readFor(ex.idx)
	opt.Listing = a.makeListing // provenance.go
	key := "make " + dir + " " + strings.Join(opt.Files, " ") + " : " + strings.Join(opt.Goals, " ")
	if !a.enter(key) {
		return
	}
	defer a.leave()
	res := ondisk.Make(opt)
	if res.Makefile == "" {
		return
	}
	if res.Cut {
		a.out.Truncated = true
	}
	rst := a.runnerState(st, ex, dir, res.Exported)
	for name, t := range opt.Vars {
		if isName(name) {
			rst.setVar(name, variable{val: xText(t).parts, exported: true})
		}
	}
	for _, l := range res.Lines {
		via := "make"
		if l.Target != "" {
			via = "make " + l.Target
		}
		a.taskLine(c, rst, ex, l.Text, l.File, l.Line, via)
	}
}

// joinDir is dir d taken from base.
func joinDir(base, d string) string {
	if strings.HasPrefix(d, "/") {
		return path.Clean(d)
	}
	return path.Join(base, d)
}

// parseMakeArgs reads make's command line: options, VAR=value
// assignments and goals; the -f files as given and the directory after
// -C (from dir). ok is false when a word that matters is not known.
func parseMakeArgs(ws []xword, dir string) (opt ondisk.MakeOptions, files []string, _ string, ok bool) {
	opt.Vars = map[string]ondisk.Text{}
	value := func(i int) (string, bool) {
		if i >= len(ws) {
			return "", false
		}
		return ws[i].lit()
	}
	for i := 0; i < len(ws); i++ {
		v, ok := ws[i].lit()
		if !ok {
			if name, _, isAssign := strings.Cut(ws[i].word().KnownPrefix, "="); isAssign && isName(name) {
				opt.Vars[name] = ondisk.Text{{Text: ws[i].value(), Unknown: true}}
				continue
			}
			return opt, nil, "", false // an unknown goal or option: judged by the command line
		}
		switch {
		case v == "--":
			for _, w := range ws[i+1:] {
				g, ok := w.lit()
				if !ok {
					return opt, nil, "", false
				}
				opt.Goals = append(opt.Goals, g)
			}
			i = len(ws)
		case v == "-f" || v == "--file" || v == "--makefile":
			f, ok := value(i + 1)
			if !ok {
				return opt, nil, "", false
			}
			files = append(files, f)
			i++
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--makefile="):
			_, f, _ := strings.Cut(v, "=")
			files = append(files, f)
		case v == "-C" || v == "--directory":
			d, ok := value(i + 1)
			if !ok {
				return opt, nil, "", false
			}
			dir = joinDir(dir, d)
			i++
		case strings.HasPrefix(v, "--directory="):
			_, d, _ := strings.Cut(v, "=")
			dir = joinDir(dir, d)
		case v == "-n" || v == "--just-print" || v == "--dry-run" || v == "--recon" || v == "-q" || v == "--question" || v == "-t" || v == "--touch":
			opt.DryRun = true
		case v == "-j" || v == "-l" || v == "--jobs" || v == "--load-average":
			if n, ok := value(i + 1); ok && n != "" && strings.Trim(n, "0123456789.") == "" {
				i++
			}
		case v == "-I" || v == "-o" || v == "-W" || v == "-E" || v == "--eval" || v == "--include-dir" ||
			v == "--old-file" || v == "--assume-old" || v == "--new-file" || v == "--assume-new" || v == "--what-if":
			i++
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") && len(v) > 1:
			// Bundled single-letter options: -C and -f take the rest or
			// the next word.
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'n', 'q', 't':
					opt.DryRun = true
				case 'C', 'f', 'I', 'o', 'W', 'E':
					arg := v[j+1:]
					if arg == "" {
						a, ok := value(i + 1)
						if !ok {
							return opt, nil, "", false
						}
						arg = a
						i++
					}
					switch v[j] {
					case 'C':
						dir = joinDir(dir, arg)
					case 'f':
						files = append(files, arg)
					}
					j = len(v)
				case 'j', 'l', 'O':
					j = len(v)
				}
			}
		case strings.Contains(v, "="):
			name, val, _ := strings.Cut(v, "=")
			name = strings.TrimRight(name, ":?+!")
			if isName(name) || strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") == "" {
				opt.Vars[name] = ondisk.Known(val)
			}
		default:
			opt.Goals = append(opt.Goals, v)
		}
	}
	return opt, files, dir, true
}
