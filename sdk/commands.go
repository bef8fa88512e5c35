package sdk

import (
	"iter"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Commands yields the index and the address of every command in s whose
// Name is one of names, or of every command when names is empty, in the
// order of s.Commands (nested commands — bash -c, $(...), xargs, ... —
// included). A nil s yields nothing. Names are compared with
// ir.Command.Name, which is already lower-cased and stripped of its
// directory and of .exe/.cmd/.bat/.com/.ps1.
func Commands(s *ir.Script, names ...string) iter.Seq2[int, *ir.Command] {
	return func(yield func(int, *ir.Command) bool) {
		if s == nil {
			return
		}
		for i := range s.Commands {
			c := &s.Commands[i]
			if len(names) > 0 && !slices.Contains(names, c.Name) {
				continue
			}
			if !yield(i, c) {
				return
			}
		}
	}
}

// CommandText is c's argv as written (each word's Raw text, joined by
// spaces), cut to at most max UTF-16 units with "…" appended when cut; max
// <= 0 means no limit. Use it to name the command in a message.
func CommandText(c *ir.Command, max int) string {
	if c == nil {
		return ""
	}
	raws := make([]string, 0, len(c.Args))
	for _, w := range c.Args {
		raws = append(raws, w.Raw)
	}
	s := strings.Join(raws, " ")
	if max > 0 {
		s = core.CapUTF16(s, max)
	}
	return s
}

// Literal returns w's value and true when the value is fully known (no
// unset variable, no $(...) in it); otherwise "" and false.
func Literal(w ir.Word) (string, bool) {
	if w.Unknown {
		return "", false
	}
	return w.Value, true
}

// HasFlag reports whether args hold the long option long (exactly, or as
// long=VALUE) or the short option short, alone or inside a cluster ("-fu"
// holds 'f'), before a "--" argument. Pass short 0 for no short form or ""
// for no long form. Unknown words never match. It knows nothing about
// which options take values, so an option's value that looks like a flag
// ("-m -f") can mislead it; parse the subcommand with a cmdfacts.Spec
// when that matters.
func HasFlag(args []ir.Word, long string, short rune) bool {
	return (long != "" && cmdfacts.HasLong(args, long)) || (short != 0 && cmdfacts.HasShort(args, string(short)))
}
