package analysis

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Files written and then run in the same command line: echo/printf/cat of
// literal text (a heredoc, a here-string) redirected into a file that a
// later command runs — bash x.sh, sh x.sh, . x.sh, source x.sh, ./x.sh,
// make with a written Makefile (or make -f FILE), xargs -a FILE. The state
// keeps the text of each such file (the file system is shared, so child
// shells see it), and the command that runs it is analysed with that text
// as its program, one level deeper, as for bash <(echo ...).
//
// A file is known by its path as written, resolved against the cd chain
// at the time (the same chain must lead to it when it is run; otherwise
// it is simply not recognised). A write whose text is not literal
// forgets the file.

// maxWrittenFiles bounds the files a state tracks; maxWrittenKey the
// bytes of a file's key (its cd chain and name: longer than a path can be,
// it is not tracked); maxWrittenParts and maxWrittenBytes the text kept
// per file (an append past them forgets the text). The bounds keep the
// tracking linear in the input: a crafted line of hundreds of appends
// under a long cd chain cannot make it quadratic.
const (
	maxWrittenFiles = 32
	maxWrittenKey   = 4096
	maxWrittenParts = 1024
	maxWrittenBytes = 64 << 10
)

// writtenKey is the key of the file named by the literal path v in st.
func writtenKey(st *state, v string) (string, bool) {
	if v == "" || strings.ContainsAny(v, "*?[") {
		return "", false
	}
	if strings.HasPrefix(v, "/") {
		return path.Clean(v), true
	}
	n := len(v)
	for _, s := range st.cd {
		n += len(s.Value) + 2
	}
	if n > maxWrittenKey {
		return "", false
	}
	var sb strings.Builder
	sb.Grow(n)
	for _, s := range st.cd {
		if s.Unknown {
			sb.WriteString("\x01")
		}
		sb.WriteString(s.Value)
		sb.WriteString("\x00")
	}
	sb.WriteString(path.Clean(v))
	return sb.String(), true
}

// setWritten records (ok) or forgets (!ok) the text of a written file.
func (s *state) setWritten(key string, text xword, ok bool) {
	if _, seen := s.written[key]; !seen && (!ok || len(s.written) >= maxWrittenFiles) {
		return
	}
	s.ownDefs()
	if s.written == nil {
		s.written = make(map[string]*xword)
	}
	if !ok || len(text.parts) > maxWrittenParts || text.size() > maxWrittenBytes {
		s.written[key] = nil
		return
	}
	s.written[key] = &text
}

// keepWritten takes the files a subshell o of s wrote.
func (s *state) keepWritten(o *state) {
	for key, t := range o.written {
		if s.written[key] == t {
			continue
		}
		if t == nil {
			s.setWritten(key, xword{}, false)
		} else {
			s.setWritten(key, *t, true)
		}
	}
}

// recordWrites notes the files a command's stdout redirects write: with
// the text the command prints when it is literal (echo, printf, cat of a
// heredoc), else as unknown.
func (a *analyzer) recordWrites(st *state, name string, words []xword, stdin, in *xword, redirs []ir.Redirect, d ir.Dialect) {
	if d != ir.Bash {
		return
	}
	if name == "tee" {
		a.recordTee(st, words, in)
	} else if len(words) > 1 && len(st.written) > 0 && !cmdfacts.KeepsFileText(name) && !cmdfacts.IsShell(name) && cmdfacts.InterpreterLang(name) == "" {
		// Any other command naming a written file may change it (cp,
		// mv, curl -o, sed -i, patch ...): its text is no longer known.
		for _, w := range words[1:] {
			if v, ok := w.lit(); ok {
				if key, ok := writtenKey(st, v); ok && st.written[key] != nil {
					st.setWritten(key, xword{}, false)
				}
			}
		}
	}
	var out xword
	got := false
	for _, r := range redirs {
		if r.Fd != "" && r.Fd != "1" || r.Target.Unknown {
			continue
		}
		appendTo := false
		switch r.Op {
		case ">", ">|", "&>":
		case ">>", "&>>":
			appendTo = true
		default:
			continue
		}
		key, ok := writtenKey(st, r.Target.Value)
		if !ok {
			continue
		}
		if !got {
			if len(words) > 0 {
				out, got = literalOutput(name, words, stdin, a.maxNested-a.nestedBytes, ir.Bash)
			}
			if !got {
				st.setWritten(key, xword{}, false)
				continue
			}
		}
		text := out
		if prev := st.written[key]; appendTo && prev != nil {
			text = xword{parts: append(append([]part(nil), prev.parts...), out.parts...)}
		}
		st.setWritten(key, text, true)
	}
}

// recordTee notes the files tee writes (its operands), with its input
// text when the analysis knows it (a pipe of literal text, a heredoc).
func (a *analyzer) recordTee(st *state, words []xword, in *xword) {
	appendTo, opts := false, true
	for _, w := range words[1:] {
		v, ok := w.lit()
		if !ok {
			continue
		}
		if opts && v == "--" {
			opts = false
			continue
		}
		if opts && len(v) > 1 && v[0] == '-' {
			appendTo = appendTo || v == "--append" || !strings.HasPrefix(v, "--") && strings.Contains(v, "a")
			continue
		}
		key, ok := writtenKey(st, v)
		if !ok {
			continue
		}
		if in == nil {
			st.setWritten(key, xword{}, false)
			continue
		}
		text := *in
		if prev := st.written[key]; appendTo && prev != nil {
			text = xword{parts: append(append([]part(nil), prev.parts...), in.parts...)}
		}
		st.setWritten(key, text, true)
	}
}

// writtenText returns the text of the file w names when a command earlier
// in the line wrote it with literal text.
func writtenText(st *state, w xword) (xword, bool) {
	v, ok := w.lit()
	if !ok {
		return xword{}, false
	}
	key, ok := writtenKey(st, v)
	if !ok {
		return xword{}, false
	}
	if t := st.written[key]; t != nil {
		return *t, true
	}
	return xword{}, false
}

// shellScript reports whether a file's text is a shell script: no
// #! line, or one naming a POSIX-family shell.
func shellScript(text string) bool {
	line, _, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(line, "#!") {
		return true
	}
	f := strings.Fields(line[2:])
	if len(f) == 0 {
		return true
	}
	prog := path.Base(f[0])
	if prog == "env" && len(f) > 1 {
		prog = path.Base(f[len(f)-1])
	}
	return cmdfacts.IsShell(prog)
}

// runWritten analyses a written file the command runs by itself: as its
// command word (./x.sh, /tmp/x.sh: a shell script), as an interpreter's
// script (runWrittenScript), or make's default makefile.
func (a *analyzer) runWritten(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash || len(st.written) == 0 || len(ex.words) == 0 {
		return
	}
	if a.runWrittenScript(c, st, ex) {
		return
	}
	if v, ok := ex.words[0].lit(); ok && strings.Contains(v, "/") {
		if t, ok := writtenText(st, ex.words[0]); ok && shellScript(t.value()) {
			child := st.child(a, ex.env)
			child.arg0 = &ex.words[0]
			child.pos, child.posKnown = append([]xword(nil), ex.words[1:]...), true
			a.nestedWord(c, child, t, ir.Bash, v, ex.idx)
		}
		return
	}
	if ex.name != "make" {
		return
	}
	for _, w := range ex.words[1:] {
		v, ok := w.lit()
		if !ok {
			return
		}
		if v == "-f" || v == "-C" || strings.HasPrefix(v, "--file") || strings.HasPrefix(v, "--makefile") ||
			strings.HasPrefix(v, "--directory") || strings.HasPrefix(v, "-f") || strings.HasPrefix(v, "-C") {
			return // the payload reader handles -f FILE; -C moves elsewhere
		}
	}
	for _, n := range cmdfacts.MakefileNames {
		if t, ok := writtenText(st, knownWord(n, n)); ok {
			a.makeText(c, st, ex, t, "make "+n)
			return
		}
	}
}

// catWritten returns what cat prints when every operand is a file written
// earlier in the line with literal text (cat x.sh | sh, $(cat x.sh)).
func catWritten(st *state, name string, words []xword) (xword, bool) {
	if name != "cat" || len(words) < 2 || len(st.written) == 0 {
		return xword{}, false
	}
	var out xword
	for _, w := range words[1:] {
		if v, ok := w.lit(); !ok || strings.HasPrefix(v, "-") {
			return xword{}, false
		}
		t, ok := writtenText(st, w)
		if !ok {
			return xword{}, false
		}
		out.parts = append(out.parts, t.parts...)
	}
	return out, true
}

// runWrittenScript: an interpreter (python3 x.py, node x.js, ruby x.rb,
// julia x.jl, awk -f x.awk ...) given as its script a file written
// earlier in the line with literal text, and no code option. The
// interpreter is analysed again one level deeper (Via "NAME FILE") with
// the file's text as the program it reads from stdin (awk: as its program
// operand), so the one-liner judgement of every layer reads the script.
// It reports whether the command ran such a file.
func (a *analyzer) runWrittenScript(c ctx, st *state, ex exec) bool {
	lang := cmdfacts.InterpreterLang(ex.name)
	if lang == "" || cmdfacts.IsShell(ex.name) {
		return false
	}
	cmd := a.out.Commands[ex.idx]
	if len(cmdfacts.InlineScripts(&cmd)) > 0 || cmdfacts.ProgramFromStdin(&cmd) {
		return false
	}
	for i := 1; i < len(ex.words); i++ {
		t, ok := writtenText(st, ex.words[i])
		if !ok {
			continue
		}
		if c.depth+1 > ir.MaxDepth {
			a.out.Truncated = true
			return true
		}
		file, _ := ex.words[i].lit()
		words := append([]xword(nil), ex.words[:i]...)
		n := ctx{depth: c.depth + 1, via: appendVia(c.via, ex.name+" "+file), parent: ex.idx, dialect: c.dialect,
			src: c.src, bg: c.bg, container: c.container, file: c.file, line: c.line}
		if lang == "awk" {
			if v, _ := ex.words[i-1].lit(); v != "-f" {
				return false
			}
			words = append(words[:i-1], t)
			words = append(words, ex.words[i+1:]...)
		} else {
			n.stdin, n.stdinOp = &t, "<"
		}
		a.run(n, st.child(a, ex.env), &simple{words: words})
		return true
	}
	return false
}
