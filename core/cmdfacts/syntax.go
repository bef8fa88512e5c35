package cmdfacts

import (
	"maps"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The option syntax of the file commands both layers read: one Spec per
// command name, read by ParseArgs. A layer never writes its own option
// list for these commands: it calls ParseCommand (or a fact built on it,
// such as PermissionChange), so the danger gate and the fence cannot read
// one command line two ways.

// syntaxes are the option syntaxes, by normalised command name.
var syntaxes = map[string]Spec{
	"rm":        {Flags: "dfirIRv"},
	"rmdir":     {Flags: "pv"},
	"unlink":    {},
	"shred":     {Flags: "fuvxz", Short: "ns", Long: []string{"iterations", "size", "random-source"}},
	"touch":     {Flags: "acfhm", Short: "drt", Long: []string{"date", "reference", "time"}},
	"mkdir":     {Flags: "pvZ", Short: "m", Long: []string{"mode"}},
	"mkfifo":    {Flags: "Z", Short: "m", Long: []string{"mode"}},
	"mknod":     {Flags: "Z", Short: "m", Long: []string{"mode"}},
	"truncate":  {Flags: "co", Short: "sr", Long: []string{"size", "reference"}},
	"fallocate": {Flags: "cdinpxzv", Short: "lo", Long: []string{"length", "offset"}},
	"tee":       {Flags: "aip"},
	"sponge":    {Flags: "a"},
	"cp":        {Flags: "abdfHiLlnPpRrsTuvx", Short: "tS", Long: []string{"target-directory", "suffix"}},
	"mv":        {Flags: "bfinTuv", Short: "tS", Long: []string{"target-directory", "suffix"}},
	"ln":        {Flags: "bdfFinLPrsTv", Short: "tS", Long: []string{"target-directory", "suffix"}},
	"link":      {},
	"install":   {Flags: "bCcDdpsTv", Short: "mogtS", Long: []string{"mode", "owner", "group", "target-directory", "suffix", "strip-program"}},
	"rsync": {Flags: "vqcarRbudlLkKHpEAXogDtUNOJSnWxCzPhi468", Short: "efTBM", Long: []string{"rsh", "filter", "exclude", "include", "exclude-from",
		"include-from", "files-from", "temp-dir", "backup-dir", "partial-dir", "compare-dest", "copy-dest", "link-dest",
		"log-file", "log-file-format", "out-format", "password-file", "chmod", "chown", "usermap", "groupmap", "timeout",
		"contimeout", "port", "sockopts", "bwlimit", "max-size", "min-size", "max-delete", "modify-window", "block-size",
		"rsync-path", "suffix", "compress-level", "compress-choice", "checksum-choice", "iconv", "write-batch",
		"only-write-batch", "read-batch", "protocol", "info", "debug", "outbuf", "remote-option", "address", "config"}},
	"chmod":   {Flags: "RcfvhHLP", Long: []string{"reference"}, ModeDash: true},
	"chown":   {Flags: "cfvhRHLP", Long: []string{"reference", "from"}},
	"chgrp":   {Flags: "cfvhRHLP", Long: []string{"reference", "from"}},
	"chattr":  {Short: "vp", Flags: "RVf", ModeDash: true},
	"setfacl": {Flags: "bkndRLPvt", Short: "mxMX", Long: []string{"modify", "remove", "modify-file", "remove-file", "set", "set-file", "restore"}},
	"sed":     {Flags: "inrsuEz", Short: "efl", Long: []string{"expression", "file", "line-length"}},
}

func init() {
	syntaxes["gsed"] = syntaxes["sed"]
}

// Syntax returns the option syntax of command name (a normalised
// Command.Name) and whether this package knows it.
func Syntax(name string) (Spec, bool) {
	s, ok := syntaxes[name]
	return s, ok
}

// SyntaxNames returns the names Syntax knows, sorted.
func SyntaxNames() []string { return slices.Sorted(maps.Keys(syntaxes)) }

// ParseCommand splits args (the words after the command word) by the
// syntax of command name; an unknown name is read with no valued options.
// Cost: that of ParseArgs.
func ParseCommand(name string, args []ir.Word) Args {
	return ParseArgs(args, syntaxes[name])
}

// PermissionChange reads chmod, chown, chgrp, chattr and setfacl: the
// files whose mode, owner, attributes or ACLs the command changes, and
// whether it changes them recursively (-R, --recursive). The mode or
// owner operand is not a file (nor is any with --reference=FILE);
// chattr's modes (+i, -a, =e) are not either. ok is false for other
// names.
func PermissionChange(name string, args []ir.Word) (files []ir.Word, recursive, ok bool) {
	switch name {
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
	default:
		return nil, false, false
	}
	p := ParseArgs(args, syntaxes[name])
	files = p.Operands
	switch name {
	case "chattr":
		files = nil
		for _, w := range p.Operands {
			if w.Unknown || w.Value == "" || !strings.ContainsRune("+-=", rune(w.Value[0])) {
				files = append(files, w)
			}
		}
	case "setfacl":
	default:
		if !p.Has("reference") && len(files) > 0 {
			files = files[1:]
		}
	}
	return files, p.Has("R", "recursive"), true
}
