package cmdfacts

import (
	"slices"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Commands that other programs run for their caller, written in those
// programs' own syntax: sqlite3's .shell and .system, psql's \! and COPY
// ... PROGRAM, mysql's system, gdb's shell, vim's :!, tar's
// --to-command and compress program, zip's -TT,
// ssh's ProxyCommand and LocalCommand, rsync's -e, man's pager, tmux's and
// screen's command strings and keys, at and batch jobs, makefiles read
// from stdin or --eval, terminal emulators' -e. The shell analysis reads
// them here (Payloads) and analyses each as a command of its own, so every
// layer sees what the program would run. The Lisp evaluators' code
// (emacs --eval, guile -c, bb ...) is read by core/shell/oneliner
// (LispPayloads) from the facts in lisp.go.

// Payload is one command another program runs for its caller.
type Payload struct {
	// Via names where it was found: the program and the form ("sqlite3
	// .shell", "tmux send-keys", "ssh ProxyCommand").
	Via string
	// Line is a command line run by a shell (sh -c), when set.
	Line *ir.Word
	// Argv is an argv run directly (screen CMD ARGS, xterm -e CMD ARGS),
	// when set.
	Argv []ir.Word
	// Stdin reports a program (a shell script, or a makefile when Lang is
	// "make") read from the command's stdin: its heredoc, here-string or
	// piped literal text.
	Stdin bool
	// File is the file the program is read from (make -f FILE): the
	// analysis reads it when it is a process substitution of literal text
	// or /dev/stdin.
	File *ir.Word
	// Lang is "" for shell text, "make" for a makefile (see MakeCommands).
	Lang string
}

// Payloads returns the commands c (after wrappers; c.Name normalised)
// would have other programs run, in its own syntax. stdin is the text the
// command reads on stdin when the analysis knows it (a heredoc, a
// here-string, literal text piped in), else nil: the dot-commands of
// `echo '.shell x' | sqlite3` are read from it. Cost: linear in the
// arguments and stdin.
func Payloads(c *ir.Command, stdin *ir.Word) []Payload {
	if c == nil || len(c.Args) == 0 {
		return nil
	}
	f := payloadReaders[c.Name]
	if f == nil {
		return nil
	}
	p := &payloads{name: c.Name, args: c.Args[1:], stdin: stdin, c: c}
	f(p)
	return p.out
}

type payloads struct {
	name  string
	args  []ir.Word
	stdin *ir.Word
	c     *ir.Command
	out   []Payload
}

func (p *payloads) line(w ir.Word, via string) {
	if strings.TrimSpace(w.Value) == "" {
		return
	}
	p.out = append(p.out, Payload{Via: via, Line: &w})
}

func (p *payloads) argv(ws []ir.Word, via string) {
	if len(ws) > 0 {
		p.out = append(p.out, Payload{Via: via, Argv: ws})
	}
}

// stdinLines calls f for every line of the known stdin text.
func (p *payloads) stdinLines(f func(line ir.Word)) {
	if p.stdin == nil {
		return
	}
	for _, l := range Lines(*p.stdin) {
		f(l)
	}
}

var payloadReaders map[string]func(*payloads)

func init() {
	payloadReaders = map[string]func(*payloads){
		"sqlite3": (*payloads).sqlite, "sqlite": (*payloads).sqlite,
		"psql":  (*payloads).psql,
		"mysql": (*payloads).mysql, "mariadb": (*payloads).mysql,
		"gdb": (*payloads).gdb, "ddd": (*payloads).gdb, "cgdb": (*payloads).gdb,
		"vim": (*payloads).vim, "vi": (*payloads).vim, "nvim": (*payloads).vim, "view": (*payloads).vim,
		"vimdiff": (*payloads).vim, "gvim": (*payloads).vim, "ex": (*payloads).vim, "nvi": (*payloads).vim,
		"tar": (*payloads).tar, "bsdtar": (*payloads).tar,
		"zip": (*payloads).zip,
		"ssh": (*payloads).ssh, "scp": (*payloads).ssh, "sftp": (*payloads).ssh, "autossh": (*payloads).ssh,
		"rsync":  (*payloads).rsync,
		"man":    (*payloads).man,
		"tmux":   (*payloads).tmux,
		"screen": (*payloads).screen,
		"at":     (*payloads).at, "batch": (*payloads).at,
		"make": (*payloads).make, "bmake": (*payloads).make,
		"xterm": (*payloads).termExec, "uxterm": (*payloads).termExec, "urxvt": (*payloads).termExec,
		"rxvt": (*payloads).termExec, "konsole": (*payloads).termExec, "alacritty": (*payloads).termExec,
		"gnome-terminal": (*payloads).termExec, "xfce4-terminal": (*payloads).termExec,
		"terminator": (*payloads).termExec, "tilix": (*payloads).termExec, "mate-terminal": (*payloads).termExec,
	}
	addToolPayloadReaders()
}

// Lines splits w's value at newlines into words, each as known as the
// part of w it comes from.
func Lines(w ir.Word) []ir.Word {
	var out []ir.Word
	off := 0
	for _, l := range strings.Split(w.Value, "\n") {
		out = append(out, Piece(w, off, off+len(l), l))
		off += len(l) + 1
	}
	return out
}

// Piece is a word made of text taken from w's value between byte offsets
// from and to (text may be a rewriting of it, such as with quotes
// removed): known when that stretch lies in w's known prefix, else
// unknown with no known prefix.
func Piece(w ir.Word, from, to int, text string) ir.Word {
	if !w.Unknown || to <= len(w.KnownPrefix) {
		return Literal(text)
	}
	known := ""
	if from < len(w.KnownPrefix) && strings.HasPrefix(text, w.KnownPrefix[from:]) {
		known = w.KnownPrefix[from:]
	}
	return ir.Word{Value: text, Raw: text, Unknown: true, KnownPrefix: known}
}

// restFrom is the piece of w from byte off to its end, blanks trimmed
// on the left.
func restFrom(w ir.Word, off int) ir.Word {
	v := w.Value
	for off < len(v) && (v[off] == ' ' || v[off] == '\t') {
		off++
	}
	if off > len(v) {
		off = len(v)
	}
	return Piece(w, off, len(v), v[off:])
}

// ---------------------------------------------------------------------------
// sqlite3

// sqliteValued (datastores.go) lists the options that take the next word.

// sqlite: sqlite3 [OPTIONS] [FILENAME [SQL...]]: every -cmd value and SQL
// argument, and with no SQL argument every stdin line, may be a
// dot-command.
func (p *payloads) sqlite() {
	var operands []ir.Word
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		if a.Unknown || !strings.HasPrefix(a.Value, "-") || len(operands) > 0 {
			operands = append(operands, a)
			continue
		}
		name := strings.TrimLeft(a.Value, "-")
		if slices.Contains(sqliteValued, name) && i+1 < len(p.args) {
			i++
			if name == "cmd" {
				p.sqliteDot(p.args[i])
			}
		}
	}
	if len(operands) > 1 {
		for _, sql := range operands[1:] {
			p.sqliteDot(sql)
		}
		return
	}
	p.stdinLines(p.sqliteDot)
}

// sqliteDot reads one line of sqlite3 input: a dot-command that runs a
// shell command (.shell, .system) or opens a pipe to one (.once |CMD,
// .output |CMD, .read |CMD, .import |CMD TABLE). sqlite3 accepts a
// command name abbreviated down to a few letters.
func (p *payloads) sqliteDot(w ir.Word) {
	v := strings.TrimLeft(w.Value, " \t")
	if !strings.HasPrefix(v, ".") {
		return
	}
	start := len(w.Value) - len(v)
	fields := sqliteFields(v[1:])
	if len(fields) == 0 {
		return
	}
	cmd := fields[0]
	switch {
	case abbrevOf(cmd, "system", 2) || abbrevOf(cmd, "shell", 3):
		text := strings.Join(fields[1:], " ")
		p.line(Piece(w, start, len(w.Value), text), "sqlite3 ."+fullName(cmd))
	case abbrevOf(cmd, "once", 2) || abbrevOf(cmd, "output", 2) || abbrevOf(cmd, "read", 3) || abbrevOf(cmd, "import", 3):
		for k, f := range fields[1:] {
			if strings.HasPrefix(f, "-") {
				continue
			}
			if strings.HasPrefix(f, "|") {
				text := strings.Join(append([]string{f[1:]}, fields[2+k:]...), " ")
				p.line(Piece(w, start, len(w.Value), text), "sqlite3 ."+fullName(cmd)+" |")
			}
			return
		}
	}
}

// fullName is the dot-command an abbreviation stands for.
func fullName(cmd string) string {
	for _, n := range []string{"system", "shell", "once", "output", "read", "import"} {
		if strings.HasPrefix(n, cmd) {
			return n
		}
	}
	return cmd
}

// abbrevOf reports whether s is name or a prefix of it at least min
// bytes long.
func abbrevOf(s, name string, min int) bool {
	return len(s) >= min && strings.HasPrefix(name, s)
}

// sqliteFields splits a dot-command's arguments the way sqlite3 does:
// blanks separate, '...' and "..." group.
func sqliteFields(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\r")
		if s == "" {
			return out
		}
		if q := s[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				out = append(out, s[1:])
				return out
			}
			out = append(out, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t\r")
		if end < 0 {
			return append(out, s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
}

// ---------------------------------------------------------------------------
// psql, mysql

// psqlSpec and psqlLongs (datastores.go) are psql's options.

// psql: -c/--command scripts, -o '|CMD', and with neither -c nor -f the
// stdin script: \! CMD, \o |CMD (and \g, \w), COPY ... PROGRAM 'CMD'.
func (p *payloads) psql() {
	a := ParseArgs(expandLong(p.args, psqlLongs), psqlSpec)
	for _, w := range a.Values("c", "command") {
		p.psqlScript(w)
	}
	for _, w := range a.Values("o", "output") {
		if strings.HasPrefix(w.Value, "|") {
			p.line(restFrom(w, 1), "psql -o |")
		}
	}
	if !a.Has("c", "command", "f", "file") {
		if p.stdin != nil {
			p.psqlScript(*p.stdin)
		}
	}
}

func (p *payloads) psqlScript(w ir.Word) {
	v := w.Value
	off := 0
	for _, l := range strings.Split(v, "\n") {
		for i := 0; i < len(l); i++ {
			if l[i] != '\\' {
				continue
			}
			rest := l[i+1:]
			switch {
			case strings.HasPrefix(rest, "!"):
				p.line(restFrom(Piece(w, off, off+len(l), l), i+2), `psql \!`)
				i = len(l)
			default:
				name := rest
				if sp := strings.IndexAny(rest, " \t"); sp >= 0 {
					name = rest[:sp]
				}
				switch name {
				case "o", "out", "g", "gx", "w", "write":
					arg := strings.TrimLeft(rest[len(name):], " \t")
					if strings.HasPrefix(arg, "|") {
						from := off + len(l) - len(arg) + 1
						p.line(restFrom(Piece(w, from, off+len(l), arg[1:]), 0), `psql \`+name+" |")
						i = len(l)
					}
				}
			}
		}
		off += len(l) + 1
	}
	for _, cmd := range sqlProgramStrings(v) {
		p.line(Piece(w, 0, len(v), cmd), "psql COPY PROGRAM")
	}
}

// sqlProgramStrings returns the strings after PROGRAM (COPY ... FROM
// PROGRAM 'cmd', \copy ... program 'cmd'), with doubled quotes unescaped.
func sqlProgramStrings(s string) []string {
	var out []string
	low := strings.ToLower(s)
	for _, k := range indexAll(low, "program") {
		i := k + len("program")
		if k > 0 && isIdentByte(low[k-1]) || i < len(low) && isIdentByte(low[i]) {
			continue
		}
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n') {
			j++
		}
		if j >= len(s) || s[j] != '\'' {
			continue
		}
		var sb strings.Builder
		j++
		for j < len(s) {
			if s[j] == '\'' {
				if j+1 < len(s) && s[j+1] == '\'' {
					sb.WriteByte('\'')
					j += 2
					continue
				}
				break
			}
			sb.WriteByte(s[j])
			j++
		}
		out = append(out, sb.String())
	}
	return out
}

// indexAll returns the offset of every occurrence of tok in s.
func indexAll(s, tok string) []int {
	var out []int
	for i := 0; i <= len(s); {
		k := strings.Index(s[i:], tok)
		if k < 0 {
			break
		}
		out = append(out, i+k)
		i += k + max(1, len(tok))
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// mysqlSpec and mysqlLongs (datastores.go) are the mysql client's options.

// mysql: -e/--execute scripts and, without -e, the stdin script: a line
// starting with the client command system (any case), or holding \!.
func (p *payloads) mysql() {
	a := ParseArgs(expandLong(dropPassword(p.args), mysqlLongs), mysqlSpec)
	scripts := a.Values("e", "execute")
	if len(scripts) == 0 && p.stdin != nil {
		scripts = append(scripts, *p.stdin)
	}
	for _, w := range scripts {
		off := 0
		for _, l := range strings.Split(w.Value, "\n") {
			for _, stmt := range splitKeep(l, ';') {
				t := strings.TrimLeft(stmt.text, " \t")
				lead := stmt.off + len(stmt.text) - len(t)
				if len(t) > 7 && strings.EqualFold(t[:7], "system ") {
					p.line(restFrom(Piece(w, off+lead, off+stmt.off+len(stmt.text), t), 7), "mysql system")
				}
			}
			if k := strings.Index(l, `\!`); k >= 0 {
				p.line(restFrom(Piece(w, off, off+len(l), l), k+2), `mysql \!`)
			}
			off += len(l) + 1
		}
	}
}

type span struct {
	text string
	off  int
}

func splitKeep(s string, sep byte) []span {
	var out []span
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == sep {
			out = append(out, span{text: s[start:i], off: start})
			start = i + 1
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// gdb, vim

var gdbSpec = Spec{Long: []string{"ex", "eval-command", "iex", "init-eval-command", "x", "command", "ix",
	"init-command", "p", "pid", "c", "core", "cd", "d", "directory", "s", "symbols", "e", "exec", "se", "tty",
	"l", "b", "D", "data-directory"}}

// gdb: -ex/--eval-command/-iex commands and the stdin script: shell CMD
// and !CMD.
func (p *payloads) gdb() {
	var cmds []ir.Word
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		name, val, eq := strings.Cut(strings.TrimLeft(a.Value, "-"), "=")
		if a.Unknown || !strings.HasPrefix(a.Value, "-") {
			continue
		}
		isCmd := name == "ex" || name == "eval-command" || name == "iex" || name == "init-eval-command"
		switch {
		case name == "args" && !eq:
			p.argv(p.args[i+1:], p.name+" --args") // the program gdb runs, with its arguments
			i = len(p.args)
		case eq && isCmd:
			cmds = append(cmds, SubWord(a, len(a.Value)-len(val)))
		case isCmd && i+1 < len(p.args):
			i++
			cmds = append(cmds, p.args[i])
		case !eq && i+1 < len(p.args) && containsStr(gdbSpec.Long, name):
			i++
		}
	}
	p.stdinLines(func(l ir.Word) { cmds = append(cmds, l) })
	for _, w := range cmds {
		t := strings.TrimLeft(w.Value, " \t")
		off := len(w.Value) - len(t)
		switch {
		case strings.HasPrefix(t, "!"):
			p.line(restFrom(w, off+1), "gdb !")
		case strings.HasPrefix(t, "shell ") || strings.HasPrefix(t, "shell\t"):
			p.line(restFrom(w, off+6), "gdb shell")
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// vim and its relatives: the Ex commands of -c, --cmd and +CMD, and of
// stdin in Ex mode (ex, -e, -es): :!CMD, :{range}!CMD, :r !CMD, :w !CMD,
// :terminal CMD, and the strings given to system(), systemlist() and Lua's
// os.execute().
func (p *payloads) vim() {
	exMode := p.name == "ex"
	var cmds []ir.Word
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		v := a.Value
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "+"):
		case v == "-c" || v == "--cmd" || v == "-S" || v == "-T" || v == "-u" || v == "-i" || v == "-w" || v == "-W" || v == "-r" || v == "-t" || v == "-q":
			if i+1 < len(p.args) {
				i++
				if v == "-c" || v == "--cmd" {
					cmds = append(cmds, p.args[i])
				}
			}
		case strings.HasPrefix(v, "+") && len(v) > 1 && !isDigits(v[1:]) && v[1] != '/':
			cmds = append(cmds, SubWord(a, 1))
		case v == "-e" || v == "-es" || v == "-E" || v == "-Es" || v == "-s" && exMode:
			exMode = true
		}
	}
	if exMode {
		p.stdinLines(func(l ir.Word) { cmds = append(cmds, l) })
	}
	for _, w := range cmds {
		p.exCommand(w)
	}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// exCommand reads one Ex command line.
func (p *payloads) exCommand(w ir.Word) {
	v := w.Value
	i := 0
	skip := func() {
		for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == ':') {
			i++
		}
	}
	skip()
	for _, mod := range []string{"silent!", "silent", "sil!", "sil", "execute", "exe", "keepalt", "noautocmd"} {
		if strings.HasPrefix(v[i:], mod) && (len(v) == i+len(mod) || !isIdentByte(v[i+len(mod)])) {
			i += len(mod)
			skip()
			break
		}
	}
	for i < len(v) && strings.IndexByte("%.$,0123456789'<>+-", v[i]) >= 0 {
		i++ // a range: %!sort filters through a command
	}
	word := i
	for word < len(v) && isIdentByte(v[word]) {
		word++
	}
	name := v[i:word]
	switch {
	case strings.HasPrefix(v[i:], "!"):
		p.line(restFrom(w, i+1), "vim :!")
	case name == "r" || name == "re" || name == "rea" || name == "read" || name == "w" || name == "wr" ||
		name == "wri" || name == "writ" || name == "write":
		rest := strings.TrimLeft(v[word:], " \t")
		if strings.HasPrefix(rest, "!") {
			p.line(restFrom(w, len(v)-len(rest)+1), "vim :"+name+" !")
		}
	case name == "ter" || name == "term" || name == "termi" || name == "termin" || name == "termina" || name == "terminal":
		rest := strings.TrimLeft(v[word:], " \t")
		for strings.HasPrefix(rest, "++") { // ++close, ++hidden ...
			sp := strings.IndexAny(rest, " \t")
			if sp < 0 {
				rest = ""
				break
			}
			rest = strings.TrimLeft(rest[sp:], " \t")
		}
		p.line(restFrom(w, len(v)-len(rest)), "vim :terminal")
	}
	for _, fn := range []string{"system", "systemlist", "os.execute", "io.popen", "jobstart", "termopen"} {
		for _, s := range callStrings(v, fn) {
			p.line(Piece(w, 0, len(v), s), "vim "+fn+"()")
		}
	}
}

// callStrings returns the string literal that starts the arguments of
// each call fn(...) in s ("..." with backslash escapes, or '...' with a doubled quote for a quote).
func callStrings(s, fn string) []string {
	var out []string
	for _, k := range indexAll(s, fn) {
		i := k + len(fn)
		if k > 0 && (isIdentByte(s[k-1]) || s[k-1] == '.' && !strings.Contains(fn, ".")) {
			continue
		}
		j := i
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j >= len(s) || s[j] != '(' {
			continue
		}
		j++
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if text, ok := stringLiteral(s[j:]); ok {
			out = append(out, text)
		}
	}
	return out
}

// stringLiteral reads a "..." (backslash escapes) or '...' (a doubled quote for a
// quote) literal at the start of s.
func stringLiteral(s string) (string, bool) {
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return "", false
	}
	q := s[0]
	var sb strings.Builder
	for j := 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			sb.WriteByte('\'')
			j++
		case c == q:
			return sb.String(), true
		case c == '\\' && q == '"' && j+1 < len(s):
			j++
			switch s[j] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			default:
				sb.WriteByte(s[j])
			}
		default:
			sb.WriteByte(c)
		}
	}
	return "", false
}

// ---------------------------------------------------------------------------
// tar, zip, ssh, rsync, man

// tarCommandOpts are tar's long options whose value is a command line
// (GNU tar runs them with /bin/sh -c).
var tarCommandOpts = []string{"to-command", "use-compress-program", "info-script", "new-volume-script",
	"rsh-command", "rmt-command"}

// tarValued are GNU tar's short options that take a value.
const tarValued = "bCfFgHIKLNTVX"

// tar: --to-command, -I/--use-compress-program, -F/--info-script,
// --new-volume-script, --rsh-command, --rmt-command and
// --checkpoint-action=exec=CMD.
func (p *payloads) tar() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		v := a.Value
		if a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-") {
			continue
		}
		if v == "--" {
			return
		}
		if strings.HasPrefix(v, "--") {
			name, val, eq := strings.Cut(v[2:], "=")
			switch {
			case name == "checkpoint-action" && eq && strings.HasPrefix(val, "exec="):
				p.line(SubWord(a, len(v)-len(val)+len("exec=")), "tar --checkpoint-action=exec")
			case containsStr(tarCommandOpts, name) && eq:
				p.line(SubWord(a, len(v)-len(val)), "tar --"+name)
			case containsStr(tarCommandOpts, name) && i+1 < len(p.args):
				i++
				p.line(p.args[i], "tar --"+name)
			}
			continue
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		for k := 1; k < len(v); k++ {
			c := v[k]
			if strings.IndexByte(tarValued, c) < 0 {
				continue
			}
			var val *ir.Word
			if k+1 < len(v) {
				w := SubWord(a, k+1)
				val = &w
			} else if i+1 < len(p.args) {
				i++
				val = &p.args[i]
			}
			if val != nil && (c == 'I' || c == 'F') && p.name != "bsdtar" {
				p.line(*val, "tar -"+string(c))
			}
			break
		}
	}
}

// zip: -TT CMD / --unzip-command CMD, the command zip tests the archive
// with.
func (p *payloads) zip() {
	for i := 0; i+1 < len(p.args); i++ {
		if v := p.args[i].Value; !p.args[i].Unknown && (v == "-TT" || v == "--unzip-command") {
			i++
			p.line(p.args[i], "zip -TT")
		}
	}
}

// sshCommandKeys are the ssh_config keys whose value runs as a local
// shell command.
var sshCommandKeys = []string{"proxycommand", "localcommand", "knownhostscommand"}

// ssh, scp, sftp: -o Key=Value / -o "Key Value" for ProxyCommand,
// LocalCommand and KnownHostsCommand; sftp's batch file from stdin (-b -)
// with !CMD lines.
func (p *payloads) ssh() {
	batchStdin := false
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		v := a.Value
		var opt *ir.Word
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			continue
		case v == "-o" && i+1 < len(p.args):
			i++
			opt = &p.args[i]
		case strings.HasPrefix(v, "-o") && len(v) > 2:
			w := SubWord(a, 2)
			opt = &w
		case v == "-b" && p.name == "sftp" && i+1 < len(p.args):
			i++
			batchStdin = p.args[i].Value == "-" || p.args[i].Value == "/dev/stdin"
		}
		if opt == nil {
			continue
		}
		ov := opt.Value
		sep := strings.IndexAny(ov, "= \t")
		if sep < 0 {
			continue
		}
		key := strings.ToLower(ov[:sep])
		if !containsStr(sshCommandKeys, key) {
			continue
		}
		rest := strings.TrimLeft(ov[sep:], "= \t")
		if strings.EqualFold(rest, "none") {
			continue
		}
		p.line(restFrom(*opt, len(ov)-len(rest)), p.name+" "+key)
	}
	if batchStdin {
		p.stdinLines(func(l ir.Word) {
			t := strings.TrimLeft(l.Value, " \t-@")
			if strings.HasPrefix(t, "!") {
				p.line(restFrom(l, len(l.Value)-len(t)+1), "sftp !")
			}
		})
	}
}

// rsync: -e/--rsh COMMAND, the remote shell it runs locally (also in a
// cluster: -avze 'ssh -p 2222').
func (p *payloads) rsync() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		v := a.Value
		switch {
		case a.Unknown:
		case v == "--":
			return
		case strings.HasPrefix(v, "--rsh="):
			p.line(SubWord(a, len("--rsh=")), "rsync -e")
		case v == "--rsh" && i+1 < len(p.args):
			i++
			p.line(p.args[i], "rsync -e")
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--"):
			if k := strings.IndexByte(v, 'e'); k > 0 {
				if k+1 < len(v) {
					p.line(SubWord(a, k+1), "rsync -e")
				} else if i+1 < len(p.args) {
					i++
					p.line(p.args[i], "rsync -e")
				}
			}
		}
	}
}

// man: -P/--pager PAGER, run through a shell.
func (p *payloads) man() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		switch {
		case a.Unknown:
		case (a.Value == "-P" || a.Value == "--pager") && i+1 < len(p.args):
			i++
			p.line(p.args[i], "man -P")
		case strings.HasPrefix(a.Value, "--pager="):
			p.line(SubWord(a, len("--pager=")), "man -P")
		case strings.HasPrefix(a.Value, "-P") && len(a.Value) > 2:
			p.line(SubWord(a, 2), "man -P")
		}
	}
}

// termExec: terminal emulators started with a command: -e CMD ARGS... (an
// argv; a single word with blanks is a command line for xfce4-terminal,
// terminator, tilix, mate-terminal and gnome-terminal), -x ARGS..., and
// gnome-terminal -- ARGS...
func (p *payloads) termExec() {
	stringE := p.name == "xfce4-terminal" || p.name == "terminator" || p.name == "tilix" ||
		p.name == "mate-terminal" || p.name == "gnome-terminal"
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		if a.Unknown {
			continue
		}
		switch v := a.Value; {
		case v == "--" && (p.name == "gnome-terminal" || p.name == "mate-terminal" || p.name == "tilix"):
			p.argv(p.args[i+1:], p.name+" --")
			return
		case v == "-x" || v == "--execute" && p.name != "gnome-terminal":
			p.argv(p.args[i+1:], p.name+" -x")
			return
		case v == "-e" || v == "--command" || v == "--exec":
			if stringE && i+1 < len(p.args) {
				p.line(p.args[i+1], p.name+" -e")
				i++
				continue
			}
			p.argv(p.args[i+1:], p.name+" -e")
			return
		case strings.HasPrefix(v, "--command=") && stringE:
			p.line(SubWord(a, len("--command=")), p.name+" -e")
		}
	}
}

// ---------------------------------------------------------------------------
// at, batch, make

// at: at [-q Q] [-f FILE] [-mMv] TIME... and batch schedule a job read
// from stdin (or -f FILE); -l, -r, -d and -c only list, remove or print
// jobs.
func (p *payloads) at() {
	if !AtSchedules(p.name, p.args) {
		return
	}
	for _, a := range ParseArgs(p.args, atSpec).Opts {
		if a.Name == "f" {
			return // the job is a file
		}
	}
	p.out = append(p.out, Payload{Via: p.name, Stdin: true})
}

var atSpec = Spec{Short: "qft", POSIX: true}

// AtSchedules reports whether at or batch (name) with args schedules a
// job: not the listing, removing or printing forms (-l, -r, -d, -c; atq,
// atrm), nor -h/--help or -V alone; at needs a time operand.
func AtSchedules(name string, args []ir.Word) bool {
	if name != "at" && name != "batch" {
		return false
	}
	a := ParseArgs(args, atSpec)
	if a.Has("l", "r", "d", "c", "h", "help", "version") {
		return false
	}
	if name == "at" && len(a.Operands) == 0 {
		return false
	}
	return true
}

// make: the makefiles read from stdin (-f -, -f /dev/stdin) or named by
// a process substitution, and the text of --eval / -E.
func (p *payloads) make() {
	for i := 0; i < len(p.args); i++ {
		a := p.args[i]
		v := a.Value
		var file, eval *ir.Word
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			continue
		case v == "--":
			return
		case (v == "-f" || v == "--file" || v == "--makefile") && i+1 < len(p.args):
			i++
			file = &p.args[i]
		case strings.HasPrefix(v, "--file=") || strings.HasPrefix(v, "--makefile="):
			w := SubWord(a, strings.IndexByte(v, '=')+1)
			file = &w
		case strings.HasPrefix(v, "-f") && len(v) > 2 && !strings.HasPrefix(v, "--"):
			w := SubWord(a, 2)
			file = &w
		case (v == "-E" || v == "--eval") && i+1 < len(p.args):
			i++
			eval = &p.args[i]
		case strings.HasPrefix(v, "--eval="):
			w := SubWord(a, len("--eval="))
			eval = &w
		case strings.HasPrefix(v, "-E") && len(v) > 2:
			w := SubWord(a, 2)
			eval = &w
		case !strings.HasPrefix(v, "--") && strings.HasPrefix(v, "-") && strings.ContainsAny(v[len(v)-1:], "CIjlo"):
			i++ // -C DIR, -I DIR, -j N (may be bare, skipping a target is harmless), -o FILE
		}
		switch {
		case file != nil && (file.Value == "-" || file.Value == "/dev/stdin"):
			p.out = append(p.out, Payload{Via: "make -f " + file.Value, Stdin: true, Lang: "make"})
		case file != nil:
			p.out = append(p.out, Payload{Via: "make -f", File: file, Lang: "make"})
		case eval != nil:
			for _, l := range MakeCommands(eval.Value) {
				p.line(Piece(*eval, 0, len(eval.Value), l), "make --eval")
			}
		}
	}
}

// MakeCommands returns the shell command lines a makefile's text holds:
// recipe lines (after a rule line, starting with a tab; and the part of a
// rule line after ';'), with make's @ - + prefixes removed and $$ turned
// into $; the commands of $(shell ...) anywhere; the right side of VAR !=
// CMD. A make variable reference $(X) becomes ${X}, an unknown variable
// for the shell. Continuation lines are joined. Cost: linear in text.
func MakeCommands(text string) []string {
	var out []string
	inRule := false
	for _, l := range joinContinuations(text) {
		for _, s := range makeShellCalls(l) {
			out = append(out, makeToShell(s))
		}
		switch {
		case strings.HasPrefix(l, "\t"):
			if inRule {
				out = append(out, makeToShell(strings.TrimLeft(l, "\t @-+")))
			}
		case strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#"):
		default:
			if name, cmd, ok := strings.Cut(l, "!="); ok && !strings.ContainsAny(name, ":") {
				out = append(out, makeToShell(strings.TrimSpace(cmd)))
				inRule = false
				continue
			}
			colon := makeRuleColon(l)
			inRule = colon >= 0
			if inRule {
				if semi := strings.IndexByte(l[colon:], ';'); semi >= 0 {
					out = append(out, makeToShell(strings.TrimLeft(l[colon+semi+1:], " \t@-+")))
				}
			}
		}
	}
	return out
}

// joinContinuations splits text into logical lines, joining a line that
// ends in a backslash with the next.
func joinContinuations(text string) []string {
	var out []string
	var cur strings.Builder
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, "\\") {
			cur.WriteString(l[:len(l)-1])
			cur.WriteByte(' ')
			continue
		}
		cur.WriteString(l)
		out = append(out, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// makeRuleColon returns the offset of the colon that makes l a rule line
// (targets: prerequisites), or -1 for an assignment or anything else.
func makeRuleColon(l string) int {
	depth := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case '=':
			if depth == 0 {
				return -1
			}
		case ':':
			if depth == 0 {
				if i+1 < len(l) && l[i+1] == '=' || i+2 < len(l) && l[i+1] == ':' && l[i+2] == '=' {
					return -1
				}
				return i
			}
		}
	}
	return -1
}

// makeShellCalls returns the command text of every $(shell ...) or
// ${shell ...} in l, parentheses balanced.
func makeShellCalls(l string) []string {
	var out []string
	for _, k := range indexAll(l, "shell ") {
		i := k + len("shell ")
		if k < 2 || l[k-2] != '$' || l[k-1] != '(' && l[k-1] != '{' {
			continue
		}
		open, close := l[k-1], byte(')')
		if open == '{' {
			close = '}'
		}
		depth := 1
		j := i
		for ; j < len(l) && depth > 0; j++ {
			switch l[j] {
			case open:
				depth++
			case close:
				depth--
			}
		}
		end := j
		if depth == 0 {
			end = j - 1
		}
		out = append(out, l[i:end])
	}
	return out
}

// makeToShell turns make's escapes into shell text: $$ is $, $(X) and
// ${X} (make variables) become ${X}.
func makeToShell(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		switch n := s[i+1]; n {
		case '$':
			sb.WriteByte('$')
			i++
		case '(', '{':
			close := byte(')')
			if n == '{' {
				close = '}'
			}
			end := strings.IndexByte(s[i+2:], close)
			if end < 0 {
				sb.WriteByte(c)
				continue
			}
			name := s[i+2 : i+2+end]
			if strings.HasPrefix(name, "shell ") {
				sb.WriteString("$(" + name[len("shell "):] + ")")
			} else {
				sb.WriteString("${MAKE_" + sanitizeName(name) + "}")
			}
			i += 2 + end
		default:
			sb.WriteString("${MAKE_AUTO}") // $@, $<, $^ ...: make's automatic variables
			i++
		}
	}
	return sb.String()
}

func sanitizeName(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s) && sb.Len() < 64; i++ {
		if isIdentByte(s[i]) {
			sb.WriteByte(s[i])
		} else {
			sb.WriteByte('_')
		}
	}
	return sb.String()
}

// ---------------------------------------------------------------------------
// tmux, screen

// tmuxCommand describes one tmux command: its flags and valued options
// (letters) and what its operands are.
type tmuxCommand struct {
	name   string
	valued string
	// kind: "shell" the operands are a shell command (one word: a command
	// line; several: an argv), "keys" keys typed into a pane, "if" a shell
	// command then tmux commands.
	kind string
}

// tmuxCommands are tmux's commands by name and alias, built on first use.
var tmuxCommands = sync.OnceValue(func() map[string]tmuxCommand {
	cmds := map[string]tmuxCommand{}
	for _, c := range []struct {
		names  string
		valued string
		kind   string
	}{
		{"new-session new", "cefFnstxy", "shell"},
		{"new-window neww", "cefFnt", "shell"},
		{"split-window splitw", "celtFp", "shell"},
		{"respawn-pane respawnp", "cet", "shell"},
		{"respawn-window respawnw", "cet", "shell"},
		{"run-shell run", "cdt", "shell"},
		{"display-popup popup", "bcdehsStTwxy", "shell"},
		{"pipe-pane pipep", "t", "shell"},
		{"send-keys send", "Nt", "keys"},
		{"if-shell if", "t", "if"},
	} {
		names := strings.Fields(c.names)
		for _, n := range names {
			cmds[n] = tmuxCommand{name: names[0], valued: c.valued, kind: c.kind}
		}
	}
	return cmds
})

// tmux: global -c SHELL-COMMAND, then commands separated by ";" words: the
// shell commands of new-session, new-window, split-window, respawn-pane,
// respawn-window, run-shell (not -C), display-popup and pipe-pane, the
// keys send-keys types (Enter, C-m and C-j end a line, C-c and C-u drop
// it), and if-shell's shell command and tmux commands.
func (p *payloads) tmux() {
	args := p.args
	i := 0
	for i < len(args) {
		a := args[i]
		v := a.Value
		if a.Unknown || len(v) < 2 || v[0] != '-' {
			break
		}
		i++
		if v == "--" {
			break
		}
		for k := 1; k < len(v); k++ {
			if strings.IndexByte("cfLST", v[k]) < 0 {
				continue
			}
			var val *ir.Word
			if k+1 < len(v) {
				w := SubWord(a, k+1)
				val = &w
			} else if i < len(args) {
				val = &args[i]
				i++
			}
			if val != nil && v[k] == 'c' {
				p.line(*val, "tmux -c")
			}
			break
		}
	}
	start := i
	for j := i; j <= len(args); j++ {
		if j == len(args) || !args[j].Unknown && args[j].Value == ";" {
			if j > start {
				p.tmuxCmd(args[start:j], 0)
			}
			start = j + 1
		}
	}
}

// maxTmuxNesting bounds if-shell inside if-shell.
const maxTmuxNesting = 4

func (p *payloads) tmuxCmd(ws []ir.Word, depth int) {
	if len(ws) == 0 || ws[0].Unknown || depth > maxTmuxNesting {
		return
	}
	spec, ok := tmuxCommands()[ws[0].Value]
	if !ok {
		return
	}
	var flags string
	i := 1
	for i < len(ws) {
		v := ws[i].Value
		if ws[i].Unknown || len(v) < 2 || v[0] != '-' {
			break
		}
		i++
		if v == "--" {
			break
		}
		for k := 1; k < len(v); k++ {
			if strings.IndexByte(spec.valued, v[k]) >= 0 {
				if k+1 == len(v) {
					i++
				}
				break
			}
			flags += v[k : k+1]
		}
	}
	if i > len(ws) {
		return
	}
	ops := ws[i:]
	via := "tmux " + spec.name
	switch spec.kind {
	case "shell":
		if spec.name == "run-shell" && strings.Contains(flags, "C") {
			return
		}
		switch len(ops) {
		case 0:
		case 1:
			p.line(ops[0], via)
		default:
			p.argv(ops, via)
		}
	case "keys":
		if strings.ContainsAny(flags, "XH") {
			return
		}
		p.line(typedKeys(ops, strings.Contains(flags, "l")), via)
	case "if":
		if len(ops) == 0 {
			return
		}
		if !strings.Contains(flags, "F") {
			p.line(ops[0], via)
		}
		for _, c := range ops[1:] {
			if c.Unknown {
				continue
			}
			var sub []ir.Word
			for _, f := range sqliteFields(c.Value) {
				sub = append(sub, Literal(f))
			}
			p.tmuxCmd(sub, depth+1)
		}
	}
}

// typedKeys is the text send-keys types: key names (unless literal) turn
// into the characters they stand for; C-c and C-u drop the line typed so
// far, other named keys end it.
func typedKeys(ops []ir.Word, literal bool) ir.Word {
	var sb strings.Builder
	line := 0 // where the current line starts in sb
	unknown, known := false, ""
	for _, w := range ops {
		if w.Unknown && !unknown {
			unknown, known = true, sb.String()+w.KnownPrefix
		}
		v := w.Value
		if literal || w.Unknown {
			sb.WriteString(v)
			continue
		}
		switch key := strings.TrimPrefix(v, "^"); {
		case v == "Enter" || v == "KPEnter" || v == "C-m" || v == "C-j" || v == "^M" || v == "^J":
			sb.WriteByte('\n')
			line = sb.Len()
		case v == "Space":
			sb.WriteByte(' ')
		case v == "Tab" || v == "C-i":
			sb.WriteByte('\t')
		case v == "C-c" || v == "C-u" || v == "^C" || v == "^U":
			s := sb.String()[:line]
			sb.Reset()
			sb.WriteString(s)
		case keyName(key):
			sb.WriteByte('\n')
			line = sb.Len()
		default:
			sb.WriteString(v)
		}
	}
	if unknown {
		return ir.Word{Value: sb.String(), Raw: sb.String(), Unknown: true, KnownPrefix: known}
	}
	return Literal(sb.String())
}

// keyName reports a tmux key name other than the ones typedKeys maps:
// Escape, arrows, function keys, modified keys (C-x, M-x).
func keyName(v string) bool {
	switch v {
	case "Escape", "BSpace", "BTab", "Up", "Down", "Left", "Right", "Home", "End", "PageUp", "PgUp",
		"PageDown", "PgDn", "NPage", "PPage", "Insert", "IC", "Delete", "DC":
		return true
	}
	if len(v) >= 2 && v[0] == 'F' && isDigits(v[1:]) {
		return true
	}
	return len(v) == 3 && (v[0] == 'C' || v[0] == 'M' || v[0] == 'S') && v[1] == '-'
}

// screen: screen [OPTIONS] [CMD ARGS...] runs CMD in a new window (not
// when attaching or listing: -r, -R, -x, -ls, -list, -wipe, -v); -X
// sends a screen command to a session: stuff STRING types STRING, exec
// CMD ARGS and screen CMD ARGS run CMD.
func (p *payloads) screen() {
	args := p.args
	attach := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown {
			return
		}
		switch {
		case v == "-X":
			p.screenCommand(args[i+1:])
			return
		case v == "-ls" || v == "-list" || v == "-wipe" || v == "-v" || v == "-version" || v == "-help":
			return
		case v == "-Logfile" || v == "-logfile":
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for k := 1; k < len(v); k++ {
				c := v[k]
				if c == 'r' || c == 'R' || c == 'x' {
					attach = true
				}
				if c == 'X' {
					p.screenCommand(args[i+1:])
					return
				}
				if strings.IndexByte("SpcehstT", c) >= 0 {
					if k+1 == len(v) {
						i++
					}
					break
				}
			}
		default:
			if !attach {
				p.argv(args[i:], "screen")
			}
			return
		}
	}
}

func (p *payloads) screenCommand(ws []ir.Word) {
	if len(ws) == 0 || ws[0].Unknown {
		return
	}
	switch ws[0].Value {
	case "stuff":
		if len(ws) > 1 {
			p.line(screenString(ws[1]), "screen stuff")
		}
	case "exec":
		rest := ws[1:]
		if len(rest) > 0 && !rest[0].Unknown && strings.Trim(rest[0].Value, ".!|:") == "" {
			rest = rest[1:] // the fd pattern
		}
		p.argv(rest, "screen exec")
	case "screen":
		p.screen2(ws[1:])
	}
}

// screen2 reads the screen command's own arguments: options, then CMD.
func (p *payloads) screen2(ws []ir.Word) {
	for i := 0; i < len(ws); i++ {
		v := ws[i].Value
		if ws[i].Unknown || !strings.HasPrefix(v, "-") {
			p.argv(ws[i:], "screen screen")
			return
		}
		if v == "-t" || v == "-T" || v == "-h" {
			i++
		}
	}
}

// screenString decodes the escapes of a screen string: \n, \r, \t, \\,
// octal \NNN, and ^X control characters (^M and ^J end a line, ^C and ^U
// drop it).
func screenString(w ir.Word) ir.Word {
	v := w.Value
	var sb strings.Builder
	line := 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			switch d := v[i]; {
			case d == 'n' || d == 'r':
				sb.WriteByte('\n')
				line = sb.Len()
			case d == 't':
				sb.WriteByte('\t')
			case d >= '0' && d <= '7':
				n := 0
				k := i
				for ; k < len(v) && k < i+3 && v[k] >= '0' && v[k] <= '7'; k++ {
					n = n*8 + int(v[k]-'0')
				}
				i = k - 1
				if n == '\r' || n == '\n' {
					sb.WriteByte('\n')
					line = sb.Len()
				} else {
					sb.WriteByte(byte(n))
				}
			default:
				sb.WriteByte(d)
			}
		case c == '^' && i+1 < len(v):
			i++
			switch v[i] {
			case 'M', 'm', 'J', 'j':
				sb.WriteByte('\n')
				line = sb.Len()
			case 'C', 'c', 'U', 'u':
				s := sb.String()[:line]
				sb.Reset()
				sb.WriteString(s)
			default:
				sb.WriteByte('^')
				sb.WriteByte(v[i])
			}
		case c == '\r':
			sb.WriteByte('\n')
			line = sb.Len()
		default:
			sb.WriteByte(c)
		}
	}
	return Piece(w, 0, len(v), sb.String())
}
