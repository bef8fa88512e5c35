package oneliner

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// lispCase is one evaluator command line and the payloads it gives.
// testdata/lisp.json was recorded from the Lisp reader before it moved
// here from core/cmdfacts (cmdfacts.Payloads at 3999e30); it pins that
// the move changed nothing.
type lispCase struct {
	Args []string `json:"args"`
	// Unknown maps an argument index to its known prefix: that argument
	// is of unknown value past the prefix.
	Unknown map[string]string `json:"unknown,omitempty"`
	Want    []lispWant        `json:"want"`
}

type lispWant struct {
	Via  string    `json:"via"`
	Line *ir.Word  `json:"line,omitempty"`
	Argv []ir.Word `json:"argv,omitempty"`
}

func lispCommand(args []string, unknown map[string]string) *ir.Command {
	var ws []ir.Word
	for j, a := range args {
		w := cmdfacts.Literal(a)
		if p, ok := unknown[strconv.Itoa(j)]; ok {
			w = ir.Word{Value: a, Raw: a, Unknown: true, KnownPrefix: p}
		}
		ws = append(ws, w)
	}
	return &ir.Command{Name: args[0], Args: ws}
}

// lispRun returns what the shell analysis reads from c: cmdfacts.Payloads
// then the Lisp payloads (core/shell/analysis payloads()).
func lispRun(c *ir.Command) []lispWant {
	ps := cmdfacts.Payloads(c, nil)
	for _, code := range cmdfacts.LispCodes(c) {
		ps = append(ps, LispPayloads(code)...)
	}
	out := []lispWant{}
	for _, p := range ps {
		out = append(out, lispWant{Via: p.Via, Line: p.Line, Argv: p.Argv})
	}
	return out
}

func TestLispPayloads(t *testing.T) {
	var cases []lispCase
	readCases(t, "lisp.json", &cases)
	if len(cases) < 90 {
		t.Fatalf("lisp.json: %d cases, want the recorded 98", len(cases))
	}
	withPayloads := 0
	for _, c := range cases {
		got := lispRun(lispCommand(c.Args, c.Unknown))
		if !reflect.DeepEqual(got, c.Want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(c.Want)
			t.Errorf("%q (unknown %v):\n got %s\nwant %s", c.Args, c.Unknown, g, w)
		}
		if len(c.Want) > 0 {
			withPayloads++
		}
	}
	if withPayloads < 70 {
		t.Errorf("only %d cases give payloads: the table lost its asking cases", withPayloads)
	}
}

var fuzzLispNames = []string{"emacs", "guile", "racket", "sbcl", "clisp", "bb", "clojure", "clj"}

// FuzzLispPayloads feeds arbitrary code to each evaluator: no panic, every
// payload names the evaluator and holds a command, and the work stays
// bounded (the payloads are at most linear in the code).
func FuzzLispPayloads(f *testing.F) {
	var cases []lispCase
	readCases(f, "lisp.json", &cases)
	for _, c := range cases {
		if len(c.Args) == 3 && len(c.Unknown) == 0 {
			for i, n := range fuzzLispNames {
				if n == c.Args[0] {
					f.Add(uint8(i), c.Args[2])
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, name uint8, code string) {
		n := fuzzLispNames[int(name)%len(fuzzLispNames)]
		opt := "-e"
		switch n {
		case "emacs", "sbcl":
			opt = "--eval"
		case "guile":
			opt = "-c"
		case "clisp":
			opt = "-x"
		}
		ps := LispPayloads(cmdfacts.LispCode{Name: n, Dialect: cmdfacts.LispDialect(n), Expr: cmdfacts.Literal(code)})
		if len(ps) > len(code) {
			t.Fatalf("%s %q: %d payloads from %d bytes", n, code, len(ps), len(code))
		}
		for _, p := range ps {
			if !strings.HasPrefix(p.Via, n+" ") {
				t.Fatalf("%s %q: via %q", n, code, p.Via)
			}
			if (p.Line == nil) == (len(p.Argv) == 0) {
				t.Fatalf("%s %q: payload %+v is neither a line nor an argv", n, code, p)
			}
			if p.Line != nil && strings.TrimSpace(p.Line.Value) == "" {
				t.Fatalf("%s %q: empty line", n, code)
			}
		}
		if codes := cmdfacts.LispCodes(lispCommand([]string{n, opt, code}, nil)); len(codes) != 1 || codes[0].Expr.Value != code {
			t.Fatalf("%s %s %q: LispCodes gave %+v", n, opt, code, codes)
		}
	})
}
