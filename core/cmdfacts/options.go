package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Spec describes a command's options the way GNU getopt_long reads them:
// which short letters and which long names take a value. Options may come
// after operands (GNU permutation) unless POSIX is set; "--" ends them.
type Spec struct {
	// Short are the short option letters that take a value: "t" reads
	// -t DIR, -tDIR, and -xt DIR (a value letter ends its cluster).
	Short string
	// Long are the long option names (without "--") that take the next
	// word as value when none is attached with "="; any long option takes
	// an attached one (--name=VALUE).
	Long []string
	// POSIX: options end at the first operand.
	POSIX bool
	// Flags are the short letters that take no value. ParseArgs needs
	// them only with ModeDash (any letter not in Short is a flag); a
	// command's Syntax lists them all, so that its tests can feed each
	// one to the layers.
	Flags string
	// ModeDash: a short-option word with a letter that is neither in
	// Short nor in Flags (before any value letter) is an operand, as
	// chmod reads "-x" and chattr "-i": a mode written with a dash.
	ModeDash bool
	// OneDash: every option is a long one, written with one dash or two
	// (macOS arch reads -arch NAME, -x86_64, -e VAR=VALUE): no clusters,
	// and the names in Long take the next word as their value.
	OneDash bool
}

// long returns the name of option word v when s reads it as a long
// option: "--name" always, "-name" under OneDash.
func (s Spec) long(v string) (string, bool) {
	switch {
	case len(v) < 2 || v[0] != '-':
		return "", false
	case v[1] == '-':
		return v[2:], true
	case s.OneDash:
		return v[1:], true
	}
	return "", false
}

// modeWord reports whether the short-option cluster v (without its
// dash) is an operand under spec's ModeDash.
func (s Spec) modeWord(v string) bool {
	if !s.ModeDash {
		return false
	}
	for k := 0; k < len(v); k++ {
		switch {
		case strings.IndexByte(s.Short, v[k]) >= 0:
			return false // the rest is the value
		case strings.IndexByte(s.Flags, v[k]) < 0:
			return true
		}
	}
	return false
}

// SpecFor builds a Spec from option names as written ("-t",
// "--target-directory"): each one-letter short option takes a value, and
// so does each long one. It is the quick form for a rule that lists the
// valued options of one command.
func SpecFor(valued ...string) Spec {
	var s Spec
	for _, o := range valued {
		switch {
		case strings.HasPrefix(o, "--"):
			s.Long = append(s.Long, o[2:])
		case len(o) == 2 && o[0] == '-':
			s.Short += o[1:]
		}
	}
	return s
}

// Takes reports whether the option word w, as written ("-p",
// "--package"), takes the next word as its value under s: a short option
// whose last letter is valued, a long one that is listed. A word with an
// attached value (-pX, --package=X) takes none.
func (s Spec) Takes(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	if name, ok := s.long(w); ok {
		return slices.Contains(s.Long, name)
	}
	for k := 1; k < len(w); k++ {
		if strings.IndexByte(s.Short, w[k]) >= 0 {
			return k == len(w)-1
		}
	}
	return false
}

// Opt is one parsed option: its short letter or long name (no dashes),
// and its value when it has one.
type Opt struct {
	Name string
	Val  *ir.Word
	// At is the index in ParseArgs's args of the word Val was read from:
	// the option's own word for an attached value (-tDIR, --out=FILE),
	// the next word otherwise.
	At int
}

// Args are a command's options and operands, in order.
type Args struct {
	Opts     []Opt
	Operands []ir.Word
	// OptsBefore[k] is how many of Opts came before Operands[k], for the
	// options that apply only to the operands after them (tar -C DIR).
	OptsBefore []int
}

// ParseArgs splits args (the words after the command word) by spec. A
// word is an option when IsOption says so; an unknown word whose known
// text does not start with "-" is an operand. A value attached to its
// option (-tDIR, --out=FILE) is the SubWord after the option. Cost: linear
// in the words; the operands and OptsBefore one allocation each, sized
// by the words left at the first operand; one small allocation per
// option value.
func ParseArgs(args []ir.Word, spec Spec) Args {
	var out Args
	done := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		long, isLong := spec.long(v)
		if done || !IsOption(w) || !isLong && !w.Unknown && spec.modeWord(v[1:]) {
			if out.Operands == nil { // room for every word left: one allocation each
				out.Operands = make([]ir.Word, 0, len(args)-i)
				out.OptsBefore = make([]int, 0, len(args)-i)
			}
			out.Operands = append(out.Operands, w)
			out.OptsBefore = append(out.OptsBefore, len(out.Opts))
			if spec.POSIX {
				done = true
			}
			continue
		}
		if v == "--" {
			done = true
			continue
		}
		if isLong {
			name, _, eq := strings.Cut(long, "=")
			switch {
			case eq:
				val := SubWord(w, len(v)-len(long)+len(name)+1)
				out.Opts = append(out.Opts, Opt{Name: name, Val: &val, At: i})
			case slices.Contains(spec.Long, name) && i+1 < len(args):
				i++
				val := args[i]
				out.Opts = append(out.Opts, Opt{Name: name, Val: &val, At: i})
			default:
				out.Opts = append(out.Opts, Opt{Name: name})
			}
			continue
		}
		// A cluster of short options: -abc, -tDIR, -xt DIR.
		for k := 1; k < len(v); k++ {
			letter := v[k : k+1]
			if !strings.Contains(spec.Short, letter) {
				out.Opts = append(out.Opts, Opt{Name: letter})
				continue
			}
			var val ir.Word
			switch {
			case k+1 < len(v):
				val = SubWord(w, k+1)
			case i+1 < len(args):
				i++
				val = args[i]
			default:
				out.Opts = append(out.Opts, Opt{Name: letter})
				k = len(v)
				continue
			}
			out.Opts = append(out.Opts, Opt{Name: letter, Val: &val, At: i})
			break
		}
	}
	return out
}

// Has reports whether any of names (letters or long names, no dashes)
// was given.
func (a Args) Has(names ...string) bool {
	for _, o := range a.Opts {
		if slices.Contains(names, o.Name) {
			return true
		}
	}
	return false
}

// Values returns the values of every option in names, in order.
func (a Args) Values(names ...string) []ir.Word {
	var out []ir.Word
	for _, o := range a.Opts {
		if o.Val != nil && slices.Contains(names, o.Name) {
			out = append(out, *o.Val)
		}
	}
	return out
}

// Last returns the last operand and true, or false when there are fewer
// than min operands (or none).
func (a Args) Last(min int) (ir.Word, bool) {
	if len(a.Operands) < min || len(a.Operands) == 0 {
		return ir.Word{}, false
	}
	return a.Operands[len(a.Operands)-1], true
}

// Operands returns the operands of args, where valued lists the options
// that take a value, written as they appear ("-t", "--target-directory";
// see SpecFor). Unknown words count as operands unless their known text
// starts with "-".
func Operands(args []ir.Word, valued ...string) []ir.Word {
	return ParseArgs(args, SpecFor(valued...)).Operands
}

// Value returns the value of the first of the options (written as they
// appear: "-t", "--target-directory") found before "--": "-t DIR", "-tDIR"
// for a one-letter option, or "--name=DIR" and "--name DIR"; nil when none
// is given. Unknown words are skipped.
func Value(args []ir.Word, names ...string) *ir.Word {
	for i, a := range args {
		if a.Unknown {
			continue
		}
		if a.Value == "--" {
			return nil
		}
		for _, n := range names {
			switch {
			case a.Value == n && i+1 < len(args):
				return &args[i+1]
			case strings.HasPrefix(n, "--") && strings.HasPrefix(a.Value, n+"="):
				w := SubWord(a, len(n)+1)
				return &w
			case len(n) == 2 && n[0] == '-' && n[1] != '-' && len(a.Value) > 2 && strings.HasPrefix(a.Value, n):
				w := SubWord(a, 2)
				return &w
			}
		}
	}
	return nil
}

// IsOption reports whether w reads as an option: its text (for an unknown
// word, its known prefix) starts with "-" and is longer than "-".
func IsOption(w ir.Word) bool {
	v := w.Value
	if w.Unknown {
		v = w.KnownPrefix
	}
	return len(v) > 1 && v[0] == '-'
}

// HasShort reports whether a short-option cluster before "--" holds one
// of letters (-rf holds r and f). A long option (--x) never does, and
// unknown words are skipped. It knows nothing of which options take a
// value, so a value that looks like a cluster (-m -f) can mislead it;
// parse with a Spec where that matters.
func HasShort(args []ir.Word, letters string) bool {
	for _, a := range args {
		v := a.Value
		if a.Unknown {
			continue
		}
		if v == "--" {
			return false
		}
		if len(v) > 1 && v[0] == '-' && v[1] != '-' && strings.ContainsAny(v[1:], letters) {
			return true
		}
	}
	return false
}

// HasLong reports whether one of the long options (written with their
// dashes: "--force"), alone or with "=value", appears before "--".
// Unknown words are skipped.
func HasLong(args []ir.Word, names ...string) bool {
	for _, a := range args {
		if a.Unknown {
			continue
		}
		if a.Value == "--" {
			return false
		}
		v, _, _ := strings.Cut(a.Value, "=")
		if slices.Contains(names, v) {
			return true
		}
	}
	return false
}

// SubWord is the part of w from byte off of its value on: the value of an
// attached option (-tDIR, --output=FILE, of=FILE). Raw is cut the same way
// when it starts with the same text (no quotes before off), else left
// empty; KnownPrefix is cut or emptied to match.
func SubWord(w ir.Word, off int) ir.Word {
	if off > len(w.Value) {
		return ir.Word{}
	}
	out := ir.Word{Value: w.Value[off:], Unknown: w.Unknown, Glob: w.Glob}
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

// Literal makes a known word from text (a directory a rule names itself,
// such as ".", or a word of a git alias).
func Literal(text string) ir.Word {
	return ir.Word{Value: text, Raw: text, KnownPrefix: text}
}

// walkOptions reads options in POSIX order from args: they end at the
// first operand (or after "--"; a word with an unknown start that is not
// "-" is an operand). set is called for each option with its value:
// valued names take the rest of their cluster or the next word, optional
// ones only an attached value (-i{}, --eof=X); --name=VALUE always
// carries one. It returns the index of the first operand (len(args) when
// none). Cost: linear in the words.
func walkOptions(args []ir.Word, valued, optional func(name string) bool, set func(name string, val *ir.Word)) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-") || len(v) < 2 || v[0] != '-' {
			return i
		}
		if v == "--" {
			return i + 1
		}
		if strings.HasPrefix(v, "--") {
			name, _, eq := strings.Cut(v[2:], "=")
			switch {
			case eq:
				w := SubWord(a, 3+len(name))
				set(name, &w)
			case valued(name) && i+1 < len(args):
				i++
				set(name, &args[i])
			default:
				set(name, nil)
			}
			continue
		}
		for k := 1; k < len(v); k++ {
			name := v[k : k+1]
			switch {
			case (valued(name) || optional(name)) && k+1 < len(v):
				w := SubWord(a, k+1)
				set(name, &w)
			case valued(name) && i+1 < len(args):
				i++
				set(name, &args[i])
			default:
				set(name, nil)
				continue
			}
			break
		}
	}
	return len(args)
}
