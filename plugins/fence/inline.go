package fence

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
)

// scriptTargets lists what the interpreter one-liners of command c write
// or delete (cmdfacts.InlineScripts and oneliner.Effects): every write and
// delete effect whose path is a literal (or built from literals), relative
// ones in the command's directory; the files of an in-place edit (perl -i,
// ruby -i, gawk -i inplace); and, when an effect's path is computed at run
// time (os.remove(os.path.join("/etc", f))), the absolute path literals of
// the script, as the seed README asks ("a write API and an absolute path
// literal together"). The shell commands a script runs are separate
// commands of the analysis and judged as such.
func (j *judge) scriptTargets(c *ir.Command) []target {
	var out []target
	for _, in := range cmdfacts.InlineScripts(c) {
		if in.InPlace && !cmdfacts.HasEffects(c.Name) {
			out = append(out, each(in.Files, verbWrite)...) // gawk -i inplace; perl and ruby -i are effects
		}
		computed, op := false, verbWrite
		for _, e := range oneliner.Effects(in.Lang, in.Code) {
			v := verbWrite
			switch e.Op {
			case "write":
			case "delete":
				v = verbRemove
			default:
				continue
			}
			if e.Path == "" {
				if !computed {
					computed, op = true, v
				}
				continue
			}
			out = append(out, target{w: cmdfacts.Literal(e.Path), verb: v, del: v == verbRemove})
		}
		if computed {
			for _, lit := range absoluteLiterals(in.Code) {
				out = append(out, target{w: cmdfacts.Literal(lit), verb: op, del: op == verbRemove})
			}
		}
	}
	return out
}

// maxLiterals bounds the literals absoluteLiterals returns.
const maxLiterals = 16

// absoluteLiterals returns the quoted string literals of code ('...',
// "..." or `...`, on one line, backslash escapes read) that look like
// absolute paths: /x (not //x, a protocol-relative URL), ~ and ~/x, C:\x,
// C:/x, \\srv\x, %VAR%\x, $HOME/x. Cost: one pass over code.
func absoluteLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code) && len(out) < maxLiterals; i++ {
		q := code[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(code) && code[j] != q && code[j] != '\n'; j++ {
			if code[j] == '\\' && j+1 < len(code) && (code[j+1] == '\\' || code[j+1] == q) {
				j++
			}
			b.WriteByte(code[j])
		}
		if j >= len(code) || code[j] != q {
			continue
		}
		i = j
		for _, f := range strings.Fields(b.String()) {
			if absoluteLike(f) {
				out = append(out, f)
			}
		}
	}
	return out
}

func absoluteLike(s string) bool {
	switch {
	case s == "~" || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, `~\`):
		return true
	case s[0] == '/':
		return len(s) == 1 || s[1] != '/'
	case strings.HasPrefix(s, `\\`):
		return len(s) > 2
	case len(s) >= 3 && isASCIILetter(s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/'):
		return true
	case s[0] == '%':
		return strings.IndexByte(s[1:], '%') > 0
	}
	return strings.HasPrefix(s, "$HOME") || strings.HasPrefix(s, "${HOME}")
}
