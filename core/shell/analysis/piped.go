package analysis

import (
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Literal code piped into a shell: `echo 'rm -rf /' | sh`, `printf
// 'cd ~\nrm x\n' | bash`, `cat <<EOF | sh`. When the left side of a pipe
// is a single echo, printf or cat (of its heredoc or here-string) and the
// right side a simple command, what the left side prints is handed to the
// right side's command as piped input; the shell handlers (bash/sh/...,
// powershell -Command -, cmd) analyse it as the script they read from
// stdin, Via "echo | sh". Unknown parts of the printed text stay unknown
// (holes), as in bash -c. A cat or tee in between passes the text on
// (echo ... | tee log | sh).

// pipedInput is the text a pipe feeds the command on its right, in two
// readings: as POSIX shells read it, and as cmd.exe and PowerShell get it
// (echo's backslashes kept, see literalOutput).
type pipedInput struct {
	posix, windows xword
	from           string // the producer's name: Via is "from | shell"
}

// text returns the reading for a consumer of dialect d.
func (p *pipedInput) text(d ir.Dialect) xword {
	if d == ir.Bash {
		return p.posix
	}
	return p.windows
}

// lastRun is the most recent command run, as the producer of a pipe is
// read back: the argv after wrappers, its stdin and its piped input.
type lastRun struct {
	idx   int
	words []xword
	stdin *xword
	piped *pipedInput
}

// pipedInto returns the input the left side of a pipe (the commands
// start..mid, just walked) gives the right side y, or nil.
func (a *analyzer) pipedInto(c ctx, start, mid int, y *syntax.Stmt) *pipedInput {
	if mid <= start || a.last.idx != mid-1 || y == nil {
		return nil
	}
	if _, simple := y.Cmd.(*syntax.CallExpr); !simple {
		return nil
	}
	cmd := &a.out.Commands[mid-1]
	if cmd.Depth != c.depth || len(a.last.words) == 0 {
		return nil
	}
	for _, r := range cmd.Redirects {
		switch r.Op {
		case "<", "<<", "<<-", "<<<":
		default:
			if r.Fd == "" || r.Fd == "1" {
				return nil // stdout goes elsewhere
			}
		}
	}
	if p := a.last.piped; p != nil && passesInput(cmd.Name, a.last.words) {
		return p
	}
	if mid-start != 1 {
		return nil
	}
	limit := a.maxNested - a.nestedBytes
	posix, ok := literalOutput(cmd.Name, a.last.words, a.last.stdin, limit, ir.Bash)
	if !ok {
		return nil
	}
	windows, _ := literalOutput(cmd.Name, a.last.words, a.last.stdin, limit, ir.Cmd)
	return &pipedInput{posix: posix, windows: windows, from: cmd.Name}
}

// substValue returns the value of a command substitution whose body is a
// single echo, printf or pwd of fully known words, without redirects or
// assignments: $(echo /), `printf /`, $(pwd) in a known directory. The
// trailing newlines are removed, as the shell does. Anything else (another
// command, an unknown word, echo text with a backslash, which bash and sh
// print differently) gives ok false. The body is still walked as a
// command of its own (see substitutions). Cost: the body's words, once.
func (a *analyzer) substValue(st *state, src string, cs *syntax.CmdSubst) (string, bool) {
	if out, ok, handled := a.pathSubst(st, src, cs); handled {
		return out, ok && a.spend(len(out)) // substpath.go
	}
	if len(cs.Stmts) != 1 || cs.TempFile || cs.ReplyVar {
		return "", false
	}
	s := cs.Stmts[0]
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 || len(s.Redirs) > 0 ||
		s.Background || s.Negated || s.Coprocess || s.Disown {
		return "", false
	}
	name := ir.CommandName(ce.Args[0].Lit())
	if name != "echo" && name != "printf" && name != "pwd" && name != "cat" {
		return "", false
	}
	scratch := st.clone() // expanding may assign (${x:=y}); the body is a subshell
	var words []xword
	for _, w := range ce.Args {
		if len(words) > maxBraceFields {
			return "", false
		}
		words = a.appendFields(words, scratch, src, w)
	}
	for _, w := range words {
		if !w.known() || w.glob {
			return "", false
		}
	}
	var out string
	switch name {
	case "cat":
		x, ok := catWritten(st, name, words)
		if !ok || !x.known() {
			return "", false
		}
		out = x.value()
	case "pwd":
		for _, w := range words[1:] {
			if v := w.value(); v != "-L" && v != "-P" {
				return "", false
			}
		}
		pwd, ok := a.lookup(st, "PWD")
		if !ok || !partsKnown(pwd.val) {
			return "", false
		}
		out = joinParts(pwd.val)
	case "echo":
		if echoAmbiguous(words) {
			return "", false
		}
		fallthrough
	default:
		x, ok := literalOutput(name, words, nil, a.maxExpanded-a.expanded, ir.Bash)
		if !ok || !x.known() {
			return "", false
		}
		out = x.value()
	}
	out = strings.TrimRight(out, "\n")
	return out, a.spend(len(out))
}

// echoAmbiguous reports echo text with a backslash and neither -e nor -E:
// bash prints it as it is, sh and zsh expand the escapes.
func echoAmbiguous(words []xword) bool {
	i := 1
	for ; i < len(words); i++ {
		v := words[i].value()
		if len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		if strings.ContainsAny(v, "eE") {
			return false
		}
	}
	for _, w := range words[i:] {
		if strings.IndexByte(w.value(), '\\') >= 0 {
			return true
		}
	}
	return false
}

// passesInput reports a command that copies its piped input to stdout: cat
// without files, tee.
func passesInput(name string, words []xword) bool {
	switch name {
	case "tee":
		return true
	case "cat":
		return len(words) == 1 || len(words) == 2 && words[1].value() == "-"
	}
	return false
}

// literalOutput returns what echo, printf or cat (reading its heredoc or
// here-string) writes to stdout, given its argv after wrappers; ok is false
// for other commands and for output the analysis cannot tell (printf -v,
// unknown format directives, cat of a file, or text longer than limit
// bytes).
//
// For a POSIX consumer (d Bash) echo expands backslash escapes with -e,
// and also without -E when its text holds a backslash: that is the reading
// of sh, dash and zsh, whose echo expands them, and the one that can hide a
// second command behind \n; bash prints them as they are. For cmd.exe and
// PowerShell consumers (run from Git Bash) echo's escapes are kept, and so
// are the backslashes bash removed from an unquoted C:\path.
func literalOutput(name string, words []xword, stdin *xword, limit int, d ir.Dialect) (xword, bool) {
	switch name {
	case "echo":
		size := 0
		for _, w := range words {
			size += len(w.value()) + 1
		}
		if size > limit {
			return xword{}, false
		}
		return echoOutput(words, d)
	case "printf":
		return printfOutput(words, limit)
	case "cat":
		if stdin == nil || len(words) > 2 || len(words) == 2 && words[1].value() != "-" {
			return xword{}, false
		}
		return *stdin, true
	}
	return xword{}, false
}

func echoOutput(words []xword, d ir.Dialect) (xword, bool) {
	i := 1
	newline, escapes, noEscapes := true, false, false
	for ; i < len(words); i++ {
		v, ok := words[i].lit()
		if !ok || len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		newline = newline && !strings.Contains(v, "n")
		escapes = escapes || strings.Contains(v, "e")
		noEscapes = noEscapes || strings.Contains(v, "E")
	}
	var b fieldBuilder
	for k, w := range words[i:] {
		if k > 0 {
			b.add(part{text: " "})
		}
		if d != ir.Bash && windowsRaw(w) {
			b.add(part{text: w.raw})
			continue
		}
		addOutputWord(&b, w)
	}
	if newline {
		b.add(part{text: "\n"})
	}
	out := b.single("").parts
	if d == ir.Bash && (escapes || !noEscapes && hasBackslash(out)) {
		out = expandEscapes(out)
	}
	return xword{parts: out}, true
}

// windowsRaw reports a known word whose source differs from its value only
// by backslashes POSIX quoting removed (C:\x written unquoted): a Windows
// program gets the source text.
func windowsRaw(w xword) bool {
	return w.known() && w.raw != "" && !strings.ContainsAny(w.raw, "'\"$`") &&
		strings.ReplaceAll(w.raw, `\`, "") == strings.ReplaceAll(w.value(), `\`, "")
}

// addOutputWord adds a printed word; a glob word is unknown (it expands
// to file names).
func addOutputWord(b *fieldBuilder, w xword) {
	if w.glob {
		b.add(part{text: w.raw, unknown: true})
		return
	}
	b.addParts(w.parts)
}

func hasBackslash(ps []part) bool {
	for _, p := range ps {
		if !p.unknown && strings.IndexByte(p.text, '\\') >= 0 {
			return true
		}
	}
	return false
}

// expandEscapes expands the backslash escapes of echo -e in the known
// parts; \c ends the output.
func expandEscapes(ps []part) []part {
	out := make([]part, 0, len(ps))
	for _, p := range ps {
		if p.unknown {
			out = append(out, p)
			continue
		}
		text, stop := escapeText(p.text)
		out = append(out, part{text: text})
		if stop {
			break
		}
	}
	return out
}

// escapeText expands \a \b \e \f \n \r \t \v \\ \0NNN \NNN \xHH and \c
// (stop reports that the output ends there).
func escapeText(s string) (text string, stop bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, false
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\':
			sb.WriteByte('\\')
		case 'c':
			return sb.String(), true
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j, limit := i, i+3
			if c == '0' {
				j, limit = i+1, i+4 // \0NNN
			}
			k := j
			for k < len(s) && k < limit && s[k] >= '0' && s[k] <= '7' {
				k++
			}
			n, _ := strconv.ParseUint("0"+s[j:k], 8, 16)
			sb.WriteByte(byte(n))
			i = k - 1
		case 'x':
			k := i + 1
			for k < len(s) && k < i+3 && isHex(s[k]) {
				k++
			}
			if k == i+1 {
				sb.WriteString(`\x`)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:k], 16, 8)
			sb.WriteByte(byte(n))
			i = k - 1
		default:
			sb.WriteByte('\\')
			sb.WriteByte(c)
		}
	}
	return sb.String(), false
}

// printfOutput formats printf FORMAT [ARGS]. When the format and every
// argument are known and the format has no %b, it is
// mvdan.cc/sh/v3/expand's Format (printfKnown), which reads the format as
// bash does. Otherwise, or when expand refuses the format, the analysis's
// own reading applies: backslash escapes, %% and the directives s, b, d,
// i, u and c (flags, width and precision ignored), an unknown argument
// kept as an unknown part. Either way the format is reused while arguments
// remain, as printf does, as long as the output stays within limit bytes.
// Another directive, an unknown format or -v gives ok false.
func printfOutput(words []xword, limit int) (xword, bool) {
	i := 1
	if i < len(words) {
		if v, ok := words[i].lit(); ok && v == "--" {
			i++
		}
	}
	if i >= len(words) {
		return xword{}, false
	}
	format, ok := words[i].lit()
	if !ok || strings.HasPrefix(format, "-") {
		return xword{}, false // printf -v VAR, or a format we cannot read
	}
	args := words[i+1:]
	if out, ok, done := printfKnown(format, args, limit); done {
		return out, ok
	}
	var b fieldBuilder
	next := 0
	for pass := 0; pass == 0 || next < len(args) && pass <= len(args); pass++ {
		if pass*len(format) > limit {
			return xword{}, false
		}
		used := false
		for k := 0; k < len(format); k++ {
			c := format[k]
			switch {
			case c == '\\':
				j := k + 1
				for j < len(format) && j < k+5 && format[j] != '\\' && format[j] != '%' {
					j++
				}
				if k+1 < len(format) && format[k+1] == '\\' {
					j = k + 2
				}
				text, stop := escapeText(format[k:j])
				b.add(part{text: text})
				if stop {
					return b.single(""), true
				}
				k = j - 1
			case c == '%' && k+1 < len(format) && format[k+1] == '%':
				b.add(part{text: "%"})
				k++
			case c == '%':
				j := k + 1
				for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
					j++
				}
				if j >= len(format) {
					return xword{}, false
				}
				var arg xword
				if next < len(args) {
					arg = args[next]
					next++
					used = true
				}
				switch format[j] {
				case 's':
					addOutputWord(&b, arg)
				case 'b':
					var ab fieldBuilder
					addOutputWord(&ab, arg)
					b.addParts(expandEscapes(ab.single("").parts))
				case 'd', 'i', 'u':
					if len(arg.parts) == 0 {
						arg = knownWord("0", "0")
					}
					addOutputWord(&b, arg)
				case 'c':
					if v, ok := arg.lit(); ok && v != "" {
						b.add(part{text: v[:1]})
					} else if !ok {
						b.add(part{text: arg.raw, unknown: true})
					}
				default:
					return xword{}, false
				}
				k = j
			default:
				j := k
				for j < len(format) && format[j] != '\\' && format[j] != '%' {
					j++
				}
				b.add(part{text: format[k:j]})
				k = j - 1
			}
		}
		if !used {
			break
		}
	}
	return b.single(""), true
}

// printfKnown is printf FORMAT ARGS by expand.Format, for a format and
// arguments that are all known: done is false when it does not apply (an
// unknown argument; a %b directive, whose argument bash reads with echo's
// escapes, \0NNN and \c included, which Format does not; a format Format
// refuses, such as a precision or %q), and the caller reads the format
// itself. Format writes a directive's width in full, so a format whose
// length and widths add up past limit is refused before it runs; the
// output is bounded by limit as it grows.
func printfKnown(format string, args []xword, limit int) (out xword, ok, done bool) {
	vals := make([]string, len(args))
	for i, a := range args {
		v, known := a.lit()
		if !known || a.glob {
			return xword{}, false, false
		}
		vals[i] = v
	}
	size := len(format)
	for k := 0; k < len(format); k++ {
		if format[k] != '%' {
			continue
		}
		j := k + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		d := j
		for j < len(format) && format[j] >= '0' && format[j] <= '9' {
			j++
		}
		if j > d {
			if j-d > 6 {
				return xword{}, false, true
			}
			if size += atoiOr(format[d:j], limit+1); size > limit {
				return xword{}, false, true
			}
		}
		if j < len(format) && format[j] == 'b' {
			return xword{}, false, false
		}
		if j < len(format) && format[j] == '%' {
			k = j
		}
	}
	var sb strings.Builder
	for pass := 0; ; pass++ {
		// A Config of its own: with nil, expand prepares and writes one
		// package-level config, which concurrent analyses would share.
		s, n, err := expand.Format(&expand.Config{}, format, vals)
		if err != nil {
			if pass > 0 {
				return xword{}, false, true // not reached: the same format passed once
			}
			return xword{}, false, false
		}
		if sb.Len()+len(s) > limit {
			return xword{}, false, true
		}
		sb.WriteString(s)
		vals = vals[n:]
		if n == 0 || len(vals) == 0 {
			break
		}
	}
	var b fieldBuilder
	b.add(part{text: sb.String()})
	return b.single(""), true, true
}

// atoiOr is the decimal value of s, or def when it does not parse.
func atoiOr(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}
