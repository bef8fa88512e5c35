package analysis

import (
	"strings"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// FuzzAnalyze feeds arbitrary text in every dialect: Analyze must not
// panic (it would recover and report "analysis failed", which fails here),
// must finish (the guard is generous: a hang, not speed), and its result
// must keep the invariants of checkInvariants.
func FuzzAnalyze(f *testing.F) {
	_, cases := readCases(f, "../testdata/cases.txt")
	for _, tc := range cases {
		f.Add(tc.input, uint8(tc.options().Dialect))
	}
	for _, s := range []string{
		"$(((((((((((", "${x:-${y:-${z}}}", "a=(1 2); ${a[@]:1}", "<<<", "<(", "cat <<A <<B\nx\nA\ny\nB",
		"eval eval eval eval eval eval eval eval eval eval x", "x{1..100000}", "{a,b}{c,d}{e,f}{g,h}",
		"bash -c \"bash -c 'bash -c \\\"$x\\\"'\"", "xargs -I{} sh -c '{}' <<< 'rm -rf /'",
		"powershell -enc ////", "cmd /c \"\"\"", "f(){ f; }; f", "for a in 1 2 3 4 5 6 7 8; do for b in 1 2 3 4 5 6 7 8; do x; done; done",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, src string, dialect uint8) {
		opts := testOptions()
		opts.Dialect = ir.Dialect(dialect % 3)
		start := time.Now()
		s := Analyze(src, opts)
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("Analyze took %v on %q", d, src)
		}
		if strings.HasPrefix(s.ParseError, "shell: analysis failed") {
			t.Fatalf("panic inside Analyze on %q: %s", src, s.ParseError)
		}
		if len(s.Commands) > DefaultMaxCommands {
			t.Fatalf("%d commands", len(s.Commands))
		}
		for i, c := range s.Commands {
			if c.Depth == 0 && c.Dialect != opts.Dialect && c.Parent == -1 {
				t.Fatalf("#%d: top-level command in dialect %v, want %v", i, c.Dialect, opts.Dialect)
			}
		}
		checkInvariants(t, src, s)
		_ = s.Outline()
	})
}
