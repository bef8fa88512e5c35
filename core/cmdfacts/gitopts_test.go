package cmdfacts

import (
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// TestGitTablesRead checks every parsed option of every gitOptSpecs entry
// against its field in the spec: the letter, the long name (a span of the
// spec), whether it takes a value, and whether --no- negates it. The
// fields are read here by a second route (spelled-out suffixes, in the
// order the notation gives them) so a wrong span shows.
func TestGitTablesRead(t *testing.T) {
	tables := gitOptTables()
	if len(tables) != len(gitOptSpecs) {
		t.Fatalf("%d tables for %d specs", len(tables), len(gitOptSpecs))
	}
	for sub, spec := range gitOptSpecs {
		table := tables[sub]
		fields := strings.Fields(spec)
		if len(table.opts) != len(fields) {
			t.Fatalf("%s: %d options for %d fields", sub, len(table.opts), len(fields))
		}
		for i, f := range fields {
			o := table.opts[i]
			wantNeg := !strings.HasSuffix(f, "!")
			f = strings.TrimSuffix(f, "!")
			var wantArg byte
			if rest, ok := strings.CutSuffix(f, "=?"); ok {
				wantArg, f = '?', rest
			} else if rest, ok := strings.CutSuffix(f, "="); ok {
				wantArg, f = '=', rest
			}
			var wantShort byte
			wantLong := f
			if len(f) == 1 {
				wantShort, wantLong = f[0], ""
			} else if letter, long, ok := strings.Cut(f, ","); ok && len(letter) == 1 {
				wantShort, wantLong = letter[0], long
			}
			if got := table.long(o); got != wantLong || o.short != wantShort || o.arg != wantArg || o.negation != wantNeg {
				t.Errorf("%s field %q: read as short %q long %q arg %q negation %v", sub, fields[i], o.short, got, o.arg, o.negation)
			}
		}
	}
	// Abbreviations, negation and letters read through the spans.
	for _, c := range []struct {
		sub, word, want string
		neg             bool
	}{
		{"push", "--porc", "porcelain", false},
		{"push", "--no-thin", "thin", true},
		{"push", "-f", "force", false},
		{"clean", "-x", "x", false},
	} {
		args, ok := ParseGitArgs(c.sub, []ir.Word{{Value: c.word}})
		if !ok || len(args.Opts) == 0 || args.Opts[0].Name != c.want || args.Opts[0].Neg != c.neg {
			t.Errorf("git %s %s: read %+v (ok %v), want %s negated %v", c.sub, c.word, args.Opts, ok, c.want, c.neg)
		}
	}
}
