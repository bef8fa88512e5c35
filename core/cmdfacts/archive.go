package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// TarSpec lists tar's options that take a value (GNU tar and bsdtar).
var TarSpec = Spec{Short: "bCfFgITX", Long: []string{"file", "directory", "files-from", "exclude-from",
	"exclude", "listed-incremental", "use-compress-program", "transform", "xform", "owner", "group", "mode",
	"mtime", "format", "label", "newer", "after-date", "newer-mtime", "strip-components", "blocking-factor",
	"record-size", "tape-length", "volno-file", "info-script", "new-volume-script", "checkpoint-action",
	"index-file", "rsh-command", "suffix", "level", "sort", "warning", "quoting-style", "to-command"}}

// ParseTar parses tar's arguments (the words after "tar"), including the
// traditional form whose first word is a cluster of letters without a dash
// (tar czf a.tgz dir): its letters become options, and the letters that
// take a value take the following words, in order.
func ParseTar(args []ir.Word) Args {
	var pre []Opt
	if len(args) > 0 && !args[0].Unknown && args[0].Value != "" && args[0].Value[0] != '-' && isLetters(args[0].Value) {
		rest := args[1:]
		k := 0
		for _, ch := range args[0].Value {
			o := Opt{Name: string(ch)}
			if strings.ContainsRune(TarSpec.Short, ch) && k < len(rest) {
				v := rest[k]
				o.Val = &v
				k++
			}
			pre = append(pre, o)
		}
		args = rest[k:]
	}
	p := ParseArgs(args, TarSpec)
	if len(pre) > 0 {
		p.Opts = append(pre, p.Opts...)
		for i := range p.OptsBefore {
			p.OptsBefore[i] += len(pre)
		}
	}
	return p
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// ArchiveInput is one input an archiver deletes once it has archived it.
type ArchiveInput struct {
	// Word is the input as written.
	Word ir.Word
	// Under are the directories Word is relative to, applied in order from
	// the command's own directory (tar -C DIR before it).
	Under []ir.Word
}

// DeletedInputs reports whether command name, run with args (the words
// after the command word), deletes its inputs after archiving them, and
// which inputs: tar/gtar -c/-r/-u with --remove-files (operands and
// -T/--files-from lists), zip -m/--move (every operand after the archive),
// 7z/7za/7zr/7zz a/u with -sdel, rar m/mf, and rar a/u with -df. how names
// what makes it delete ("--remove-files", "-m", "-sdel", "m", "-df"). An
// input list read from a file (tar -T LIST) is returned as that file's
// word marked Unknown: what it lists is not known. Pure; linear in args.
func DeletedInputs(name string, args []ir.Word) (inputs []ArchiveInput, how string, ok bool) {
	switch name {
	case "tar":
		return tarDeletedInputs(args)
	case "zip":
		p := ParseArgs(args, ZipSpec)
		if !p.Has("m", "move") || len(p.Operands) < 2 {
			return nil, "", false
		}
		for _, w := range p.Operands[1:] {
			inputs = append(inputs, ArchiveInput{Word: w})
		}
		return inputs, "-m", true
	case "7z", "7za", "7zr", "7zz":
		cmd, ops, sdel := sevenZipArgs(args)
		if !sdel || cmd != "a" && cmd != "u" || len(ops) < 2 {
			return nil, "", false
		}
		for _, w := range ops[1:] {
			inputs = append(inputs, ArchiveInput{Word: w})
		}
		return inputs, "-sdel", true
	case "rar":
		cmd, ops, df := rarArgs(args)
		switch {
		case cmd == "m" || cmd == "mf":
			how = cmd
		case (cmd == "a" || cmd == "u") && df:
			how = "-df"
		default:
			return nil, "", false
		}
		if len(ops) < 2 {
			return nil, "", false
		}
		for _, w := range ops[1:] {
			inputs = append(inputs, ArchiveInput{Word: w})
		}
		return inputs, how, true
	}
	return nil, "", false
}

// ZipSpec lists zip's options that take a value.
var ZipSpec = Spec{Short: "btnOPZs", Long: []string{"output-file", "temp-path", "suffixes", "password", "compression-method", "split-size"}}

func tarDeletedInputs(args []ir.Word) ([]ArchiveInput, string, bool) {
	p := ParseTar(args)
	if !p.Has("remove-files") {
		return nil, "", false
	}
	archiving := false
	for _, o := range p.Opts {
		switch o.Name {
		case "c", "create", "r", "append", "u", "update":
			archiving = true
		}
	}
	if !archiving {
		return nil, "", false
	}
	var out []ArchiveInput
	var under []ir.Word
	next := 0 // the next option whose -C still has to be collected
	for k, w := range p.Operands {
		for ; next < p.OptsBefore[k]; next++ {
			if o := p.Opts[next]; (o.Name == "C" || o.Name == "directory") && o.Val != nil {
				under = append(under, *o.Val)
			}
		}
		out = append(out, ArchiveInput{Word: w, Under: append([]ir.Word(nil), under...)})
	}
	for _, l := range p.Values("T", "files-from") {
		l.Unknown = true
		if l.KnownPrefix == l.Value {
			l.KnownPrefix = ""
		}
		out = append(out, ArchiveInput{Word: l})
	}
	return out, "--remove-files", true
}

// sevenZipArgs reads 7-Zip's command line: the command letter (lower
// case), the operands after it (archive first), and whether -sdel is set.
func sevenZipArgs(args []ir.Word) (cmd string, ops []ir.Word, sdel bool) {
	for _, w := range args {
		v := w.Value
		switch {
		case !w.Unknown && strings.EqualFold(v, "-sdel"):
			sdel = true
		case !w.Unknown && strings.HasPrefix(v, "-"):
		case cmd == "" && !w.Unknown:
			cmd = strings.ToLower(v)
		default:
			ops = append(ops, w)
		}
	}
	return cmd, ops, sdel
}

// rarArgs reads rar's command line like sevenZipArgs; df reports -df.
func rarArgs(args []ir.Word) (cmd string, ops []ir.Word, df bool) {
	for _, w := range args {
		v := w.Value
		switch {
		case !w.Unknown && strings.EqualFold(v, "-df"):
			df = true
		case !w.Unknown && strings.HasPrefix(v, "-"):
		case cmd == "" && !w.Unknown:
			cmd = strings.ToLower(v)
		default:
			ops = append(ops, w)
		}
	}
	return cmd, ops, df
}

// PacksLocal reports whether command c (Name normalised) packs local
// files into an archive (tar -c, zip, 7z a, cpio -o, pax -w): fed to an
// extraction on a pipe (tar -cf - -C stage . | tar -x), it is a copy of
// those files, not content from elsewhere.
func PacksLocal(c *ir.Command) bool {
	if c == nil || len(c.Args) == 0 {
		return false
	}
	args := c.Args[1:]
	switch c.Name {
	case "tar", "bsdtar":
		return ParseTar(args).Has("c", "create", "r", "append", "u", "update")
	case "zip":
		return true
	case "7z", "7za", "7zz":
		cmd, _, _ := sevenZipArgs(args)
		return cmd == "a"
	case "cpio":
		return HasShort(args, "o") || HasLong(args, "--create")
	case "pax":
		return HasShort(args, "w")
	}
	return false
}
