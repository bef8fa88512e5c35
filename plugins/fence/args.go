package fence

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell"
)

// argSpec describes a command's options the way GNU getopt_long sees them:
// which short letters and which long names take a value. Options may come
// after operands (GNU permutation) unless posix is set; "--" ends them.
type argSpec struct {
	// vals are the short option letters that take a value ("t" for -t DIR,
	// -tDIR, or -xt DIR in a cluster).
	vals string
	// longVals are the long option names (without "--") that take a value
	// (--name VALUE or --name=VALUE). Other long options take a value only
	// when it is attached with "=".
	longVals []string
	// posix: options end at the first operand.
	posix bool
}

// option is one parsed option: a short letter or a long name, and its
// value when it has one.
type option struct {
	name string
	val  *shell.Word
}

// parsedArgs are a command's options and operands, in order.
type parsedArgs struct {
	opts     []option
	operands []shell.Word
}

// parseArgs splits args (the arguments after the command word) by spec.
// A word is an option when its known text starts with "-" and is longer
// than "-"; an unknown word never is (it is an operand). Cost: linear in
// the arguments, one small allocation per attached value.
func parseArgs(args []shell.Word, spec argSpec) parsedArgs {
	var out parsedArgs
	done := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		if done || !isOptionWord(w) {
			out.operands = append(out.operands, w)
			if spec.posix {
				done = true
			}
			continue
		}
		if v == "--" {
			done = true
			continue
		}
		if strings.HasPrefix(v, "--") {
			name, _, eq := strings.Cut(v[2:], "=")
			switch {
			case eq:
				val := subWord(w, 2+len(name)+1)
				out.opts = append(out.opts, option{name: name, val: &val})
			case contains(spec.longVals, name) && i+1 < len(args):
				i++
				val := args[i]
				out.opts = append(out.opts, option{name: name, val: &val})
			default:
				out.opts = append(out.opts, option{name: name})
			}
			continue
		}
		// A cluster of short options: -abc, -tDIR, -xt DIR.
		for k := 1; k < len(v); k++ {
			letter := v[k : k+1]
			if !strings.Contains(spec.vals, letter) {
				out.opts = append(out.opts, option{name: letter})
				continue
			}
			var val shell.Word
			if k+1 < len(v) {
				val = subWord(w, k+1)
			} else if i+1 < len(args) {
				i++
				val = args[i]
			} else {
				out.opts = append(out.opts, option{name: letter})
				break
			}
			out.opts = append(out.opts, option{name: letter, val: &val})
			break
		}
	}
	return out
}

// isOptionWord reports whether w reads as an option: its text (at least its
// known prefix) starts with "-" and is longer than "-".
func isOptionWord(w shell.Word) bool {
	v := w.Value
	if w.Unknown {
		v = w.KnownPrefix
	}
	return len(v) > 1 && v[0] == '-'
}

// has reports whether any of names was given.
func (p parsedArgs) has(names ...string) bool {
	for _, o := range p.opts {
		if contains(names, o.name) {
			return true
		}
	}
	return false
}

// values returns the values of every option in names, in order.
func (p parsedArgs) values(names ...string) []shell.Word {
	var out []shell.Word
	for _, o := range p.opts {
		if o.val != nil && contains(names, o.name) {
			out = append(out, *o.val)
		}
	}
	return out
}

// last returns the last operand and true, or false when there are fewer
// than min operands.
func (p parsedArgs) last(min int) (shell.Word, bool) {
	if len(p.operands) < min || len(p.operands) == 0 {
		return shell.Word{}, false
	}
	return p.operands[len(p.operands)-1], true
}

// subWord is the part of w from byte off of its value on: the value of an
// attached option (-tDIR, --output=FILE, of=FILE). Raw is cut the same way
// when it starts with the same text (no quotes before off), else left
// empty; KnownPrefix is cut or emptied to match.
func subWord(w shell.Word, off int) shell.Word {
	if off > len(w.Value) {
		return shell.Word{}
	}
	out := shell.Word{Value: w.Value[off:], Unknown: w.Unknown, Glob: w.Glob}
	if strings.HasPrefix(w.Raw, w.Value[:off]) {
		out.Raw = w.Raw[off:]
	}
	switch {
	case !w.Unknown:
		out.KnownPrefix = out.Value
	case len(w.KnownPrefix) > off:
		out.KnownPrefix = w.KnownPrefix[off:]
	}
	return out
}

// literal makes a known word from text (a directory the layer names
// itself, such as the current one).
func literal(text string) shell.Word {
	return shell.Word{Value: text, Raw: text, KnownPrefix: text}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// isRemote reports whether an rsync/scp/rclone/docker-cp operand names a
// remote or container location (host:path, user@host:path, host::module,
// rsync://...) rather than a local path. A one-letter prefix (C:) is a
// Windows drive, so local.
func isRemote(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	if i == 1 && isASCIILetter(v[0]) {
		return false
	}
	return !strings.ContainsAny(v[:i], `/\`)
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
