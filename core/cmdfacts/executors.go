package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Executors: xargs (GNU and BSD) and GNU parallel (and sem) run a command
// line built from their arguments and their input. ParseXargs and
// ParseParallel read their options; the shell analysis builds the command
// lines they run.

// Xargs is an xargs command line read the way xargs reads it (options
// stop at the first operand).
type Xargs struct {
	// Cmd is the index in args of the command word; len(args) when there
	// is none (xargs then runs echo).
	Cmd int
	// Replace is the -I / -i / --replace string: the command runs once per
	// input line, with every occurrence replaced ("" when not given).
	Replace string
	// Insert is BSD's -J string: the items, as separate arguments, take
	// the place of the first argument equal to it.
	Insert string
	// Null (-0), Delim (-d), ArgFile (-a / --arg-file): how items are
	// read, and from which file instead of stdin.
	Null    bool
	Delim   *ir.Word
	ArgFile *ir.Word
	// Lines: items are whole lines (-I, -i, -L, -l).
	Lines bool
	// NoRun: --help, --version, --show-limits alone: nothing runs.
	NoRun bool
}

// xargsValued are xargs's options that take a value (GNU and BSD); the
// GNU options -e, -i and -l take one only when it is attached.
var xargsValued = map[string]bool{
	"a": true, "E": true, "d": true, "I": true, "J": true, "L": true, "n": true, "P": true, "R": true,
	"S": true, "s": true, "arg-file": true, "delimiter": true, "max-args": true, "max-procs": true,
	"max-chars": true, "process-slot-var": true,
}

// xargsOptional are the options whose value is optional (attached only).
var xargsOptional = map[string]bool{"e": true, "i": true, "l": true, "eof": true, "replace": true, "max-lines": true}

// ParseXargs reads xargs's arguments (after the command word). Cost:
// linear in the words.
func ParseXargs(args []ir.Word) Xargs {
	x := Xargs{Cmd: len(args)}
	set := func(name string, val *ir.Word) {
		switch name {
		case "I":
			if val != nil {
				x.Replace, x.Lines = val.Value, true
			}
		case "i", "replace":
			x.Replace, x.Lines = "{}", true
			if val != nil && val.Value != "" {
				x.Replace = val.Value
			}
		case "J":
			if val != nil {
				x.Insert = val.Value
			}
		case "0", "null":
			x.Null = true
		case "d", "delimiter":
			x.Delim = val
		case "a", "arg-file":
			x.ArgFile = val
		case "L", "l", "max-lines":
			x.Lines = true
		case "help", "version", "show-limits":
			x.NoRun = true
		}
	}
	x.Cmd = walkOptions(args, func(n string) bool { return xargsValued[n] }, func(n string) bool { return xargsOptional[n] }, set)
	x.NoRun = x.NoRun && len(args) == 1 // --help alone runs nothing
	return x
}

// Parallel is a GNU parallel (or sem) command line.
type Parallel struct {
	// CmdFrom, CmdTo delimit the command words in args (empty: the
	// arguments, or stdin lines, are the commands).
	CmdFrom, CmdTo int
	// Sources are the input sources, in order: ::: lists (Words) and
	// :::: or -a files (File).
	Sources []ParallelSource
	// Replace is the -I string (default "{}").
	Replace string
	// Quote (-q): the command words are quoted, not joined as shell text.
	Quote bool
	// Null (-0) and Delim (-d) say how stdin and files split into items.
	Null  bool
	Delim *ir.Word
	// DryRun (--dry-run), Pipe (--pipe / --pipepart: stdin is the
	// command's input, not its arguments), Semaphore (sem, --semaphore:
	// the command runs once), NoRun (--version, --help ... alone).
	DryRun, Pipe, Semaphore, NoRun bool
}

// ParallelSource is one input source of parallel.
type ParallelSource struct {
	Words []ir.Word
	File  *ir.Word
}

// parallelValued are parallel's options that take the next word.
var parallelValued = map[string]bool{
	"a": true, "C": true, "d": true, "E": true, "I": true, "j": true, "J": true, "L": true, "N": true,
	"n": true, "P": true, "S": true, "s": true, "arg-file": true, "arg-sep": true, "arg-file-sep": true,
	"basefile": true, "bf": true, "block": true, "block-size": true, "blocktimeout": true, "bt": true,
	"colsep": true, "delimiter": true, "delay": true, "env": true, "eof": true, "halt": true,
	"halt-on-error": true, "header": true, "joblog": true, "jobs": true, "max-procs": true, "load": true,
	"max-lines": true, "max-replace-args": true, "max-args": true, "max-chars": true, "memfree": true,
	"memsuspend": true, "nice": true, "sshlogin": true, "sshloginfile": true, "slf": true, "results": true,
	"res": true, "return": true, "tagstring": true, "tmpdir": true, "tempdir": true, "timeout": true,
	"transferfile": true, "transfer-file": true, "tf": true, "workdir": true, "wd": true, "retries": true,
	"termseq": true, "rpl": true, "profile": true, "sqlmaster": true, "sqlworker": true,
	"sqlandworker": true, "template": true, "tmpl": true, "limit": true, "process-slot-var": true,
	"seqreplace": true, "ssh": true, "sshdelay": true, "group-by": true, "match": true, "hostgroups": true,
	"compress-program": true, "decompress-program": true, "shard": true, "bin": true, "id": true,
	"replace": true, "fg-timeout": true, "cr": true, "ctrlc": true, "parens": true, "shebang-wrap": true,
	"tee-output": true,
}

// ParseParallel reads parallel's arguments (after the command word); sem
// is true for the sem command (parallel --semaphore). Cost: linear in
// the words.
func ParseParallel(args []ir.Word, sem bool) Parallel {
	p := Parallel{Replace: "{}", Semaphore: sem}
	argSep, fileSep := ":::", "::::"
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown || len(v) < 2 || v[0] != '-' || v == argSep || v == fileSep {
			break
		}
		if v == "--" {
			i++
			break
		}
		var name string
		var val *ir.Word
		if strings.HasPrefix(v, "--") {
			n, _, eq := strings.Cut(v[2:], "=")
			name = n
			switch {
			case eq:
				w := SubWord(a, 3+len(n))
				val = &w
			case parallelValued[n] && i+1 < len(args):
				i++
				val = &args[i]
			}
		} else {
			for k := 1; k < len(v); k++ {
				name = v[k : k+1]
				if parallelValued[name] {
					if k+1 < len(v) {
						w := SubWord(a, k+1)
						val = &w
					} else if i+1 < len(args) {
						i++
						val = &args[i]
					}
					break
				}
				p.flag(name)
			}
		}
		switch name {
		case "I", "replace":
			if val != nil && val.Value != "" {
				p.Replace = val.Value
			}
		case "a", "arg-file":
			if val != nil {
				p.Sources = append(p.Sources, ParallelSource{File: val})
			}
		case "arg-sep":
			if val != nil {
				argSep = val.Value
			}
		case "arg-file-sep":
			if val != nil {
				fileSep = val.Value
			}
		case "d", "delimiter":
			p.Delim = val
		default:
			p.flag(name)
		}
	}
	p.CmdFrom = i
	for i < len(args) && !(!args[i].Unknown && (args[i].Value == argSep || args[i].Value == fileSep ||
		args[i].Value == argSep+"+" || args[i].Value == fileSep+"+")) {
		i++
	}
	p.CmdTo = i
	for i < len(args) {
		sep := args[i].Value
		i++
		start := i
		for i < len(args) && !(!args[i].Unknown && (args[i].Value == argSep || args[i].Value == fileSep ||
			args[i].Value == argSep+"+" || args[i].Value == fileSep+"+")) {
			i++
		}
		if strings.HasPrefix(sep, fileSep) {
			for k := start; k < i; k++ {
				p.Sources = append(p.Sources, ParallelSource{File: &args[k]})
			}
			continue
		}
		p.Sources = append(p.Sources, ParallelSource{Words: args[start:i]})
	}
	if p.CmdFrom == len(args) && p.NoRun {
		return p
	}
	p.NoRun = false
	return p
}

func (p *Parallel) flag(name string) {
	switch name {
	case "dry-run", "dryrun":
		p.DryRun = true
	case "pipe", "pipepart", "spreadstdin", "pipe-part":
		p.Pipe = true
	case "semaphore":
		p.Semaphore = true
	case "q", "quote":
		p.Quote = true
	case "0", "null":
		p.Null = true
	case "version", "help", "citation", "bibtex", "number-of-cpus", "number-of-cores", "number-of-threads",
		"number-of-sockets", "max-line-length-allowed", "show-limits", "record-env", "wait":
		p.NoRun = true
	}
}

// ParallelCommand fills parallel's replacement strings in a command line
// template with one job's items (one per input source): {} (the first
// item), {.} (no extension), {/} (basename), {//} (dirname), {/.}
// (basename without extension), {#} and {%} (job and slot numbers), {N},
// {N.}, {N/}, {N//}, {N/.} (item of source N), and the -I string. Each
// item is given shell-quoted by quote. With no replacement string in the
// template the items are appended, as parallel does. Cost: linear in the
// template and the items.
func ParallelCommand(template, replace string, items []string, quote func(string) string) string {
	used := false
	var sb strings.Builder
	for i := 0; i < len(template); {
		if replace != "{}" && replace != "" && strings.HasPrefix(template[i:], replace) {
			if len(items) > 0 {
				sb.WriteString(quote(items[0]))
			}
			i += len(replace)
			used = true
			continue
		}
		if template[i] == '{' {
			if end := strings.IndexByte(template[i:], '}'); end > 0 {
				if text, ok := parallelField(template[i+1:i+end], items); ok {
					sb.WriteString(quote(text))
					i += end + 1
					used = true
					continue
				}
			}
		}
		sb.WriteByte(template[i])
		i++
	}
	if !used {
		for _, it := range items {
			sb.WriteByte(' ')
			sb.WriteString(quote(it))
		}
	}
	return sb.String()
}

// parallelField evaluates one replacement string (without braces).
func parallelField(f string, items []string) (string, bool) {
	n := 0
	j := 0
	for j < len(f) && f[j] >= '0' && f[j] <= '9' {
		n = n*10 + int(f[j]-'0')
		j++
		if n > 1<<16 {
			return "", false
		}
	}
	op := f[j:]
	switch op {
	case "", ".", "/", "//", "/.":
	case "#", "%":
		if j == 0 {
			return "1", true
		}
		return "", false
	default:
		return "", false
	}
	idx := 0
	if j > 0 {
		if n == 0 {
			return "", false
		}
		idx = n - 1
	}
	item := ""
	if idx < len(items) {
		item = items[idx]
	}
	base := item
	if k := strings.LastIndexByte(item, '/'); k >= 0 {
		base = item[k+1:]
	}
	noExt := func(s string) string {
		if k := strings.LastIndexByte(s, '.'); k > 0 && !strings.Contains(s[k:], "/") {
			return s[:k]
		}
		return s
	}
	switch op {
	case ".":
		return noExt(item), true
	case "/":
		return base, true
	case "//":
		if k := strings.LastIndexByte(item, '/'); k > 0 {
			return item[:k], true
		} else if k == 0 {
			return "/", true
		}
		return ".", true
	case "/.":
		return noExt(base), true
	}
	return item, true
}

// XargsItems splits xargs's input text into items: at NUL bytes with
// null; at the delimiter's first byte with delim (escapes decoded by the
// caller); into whole lines (leading blanks dropped, empty lines skipped)
// with lines; else at blanks and newlines, with '...', "..." and
// backslashes quoting as xargs reads them. Cost: linear in text.
func XargsItems(text string, null bool, delim string, lines bool) []string {
	switch {
	case null:
		return strings.Split(strings.TrimRight(text, "\x00"), "\x00")
	case delim != "":
		return strings.Split(strings.TrimSuffix(text, "\n"), delim[:1])
	case lines:
		var out []string
		for _, l := range strings.Split(text, "\n") {
			if l = strings.TrimLeft(l, " \t"); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '\\' && i+1 < len(text):
			i++
			cur.WriteByte(text[i])
			in = true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
