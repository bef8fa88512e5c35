package analysis

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// limitCase is one input past a limit of the analysis, generated in code
// (the inputs are large), with what must hold of its analysis.
type limitCase struct {
	name      string
	dialect   ir.Dialect
	input     string
	maxCmds   int  // Options.MaxCommands; 0: the default
	truncated bool // Script.Truncated must be set
	// check inspects the analysis further; it returns "" or what is wrong.
	check func(s *ir.Script) string
}

// lastNamed returns the last command named name, or nil.
func lastNamed(s *ir.Script, name string) *ir.Command {
	for i := len(s.Commands) - 1; i >= 0; i-- {
		if s.Commands[i].Name == name {
			return &s.Commands[i]
		}
	}
	return nil
}

// chainWithin checks the cd chain of the last command named name against
// the chain bounds and against want: the values of the steps, "?" for an
// unknown one; nil skips that comparison.
func chainWithin(name string, want []string) func(s *ir.Script) string {
	return func(s *ir.Script) string {
		c := lastNamed(s, name)
		if c == nil {
			return "no " + name + " command"
		}
		if len(c.Cd) > maxCdSteps {
			return "chain of " + strconv.Itoa(len(c.Cd)) + " steps"
		}
		var got []string
		for _, w := range c.Cd {
			if len(w.Value) > maxCdStepLen || len(w.Raw) > maxCdStepLen {
				return "step of " + strconv.Itoa(len(w.Value)) + " bytes"
			}
			if w.Unknown {
				got = append(got, "?")
			} else {
				got = append(got, w.Value)
			}
		}
		if want != nil && strings.Join(got, "|") != strings.Join(want, "|") {
			return "chain " + strings.Join(got, "|") + ", want " + strings.Join(want, "|")
		}
		return ""
	}
}

// commandCount checks the number of commands against [lo, hi].
func commandCount(lo, hi int) func(s *ir.Script) string {
	return func(s *ir.Script) string {
		if n := len(s.Commands); n < lo || n > hi {
			return strconv.Itoa(n) + " commands, want " + strconv.Itoa(lo) + ".." + strconv.Itoa(hi)
		}
		return ""
	}
}

// lastArgUnknown checks that the last argument of the last command named
// name is unknown (an expansion given up on).
func lastArgUnknown(name string) func(s *ir.Script) string {
	return func(s *ir.Script) string {
		c := lastNamed(s, name)
		if c == nil || len(c.Args) < 2 {
			return "no " + name + " command with arguments"
		}
		if w := c.Args[len(c.Args)-1]; !w.Unknown {
			return "last argument known: " + cutUTF8(w.Value, 40)
		}
		return ""
	}
}

// limitCases are the inputs past each limit: the size and nesting
// budgets, then the cd chain's.
func limitCases() []limitCase {
	return append(budgetLimitCases(), cdLimitCases()...)
}

// budgetLimitCases: nesting, input size, command, word, brace, loop and
// value budgets.
func budgetLimitCases() []limitCase {
	return []limitCase{
		{name: "deep subshells go to the fallback", input: strings.Repeat("(", 5000) + "rm x" + strings.Repeat(")", 5000),
			check: func(s *ir.Script) string {
				if s.ParseError == "" || lastNamed(s, "rm") == nil {
					return "want a parse error and rm found by the fallback"
				}
				return ""
			}},
		{name: "deep command substitutions", input: strings.Repeat("$(", 3000) + "rm x" + strings.Repeat(")", 3000),
			check: func(s *ir.Script) string {
				if lastNamed(s, "rm") == nil {
					return "rm not found"
				}
				return ""
			}},
		{name: "nested eval past MaxDepth", input: strings.Repeat("eval ", 20) + "x", truncated: true,
			check: func(s *ir.Script) string {
				for _, c := range s.Commands {
					if c.Depth > ir.MaxDepth {
						return "depth " + strconv.Itoa(c.Depth)
					}
				}
				return ""
			}},
		{name: "statement nesting past maxNest", input: strings.Repeat("{ ", 450) + "x" + strings.Repeat("; }", 450), truncated: true},
		{name: "input cut at 1 MiB", input: "echo " + strings.Repeat("a", MaxInput) + "\nrm -rf /", truncated: true,
			check: func(s *ir.Script) string {
				if lastNamed(s, "rm") != nil {
					return "the command past the cut was analysed"
				}
				if len(s.Source) <= MaxInput {
					return "Source was shortened"
				}
				return ""
			}},
		{name: "input cut inside a UTF-8 character", input: strings.Repeat("é", MaxInput/2+1), truncated: true,
			check: func(s *ir.Script) string {
				for _, c := range s.Commands {
					for _, w := range c.Args {
						if !utf8.ValidString(w.Value) {
							return "invalid UTF-8 after the cut"
						}
					}
				}
				return ""
			}},
		{name: "command cap", input: strings.Repeat("x; ", 5000), truncated: true, check: commandCount(DefaultMaxCommands, DefaultMaxCommands)},
		{name: "command cap from options", input: strings.Repeat("x; ", 50), maxCmds: 10, truncated: true, check: commandCount(10, 10)},
		{name: "command cap stops an and chain", input: strings.Repeat("x && ", 5000) + "y", truncated: true, check: commandCount(DefaultMaxCommands, DefaultMaxCommands)},
		{name: "command cap with pending heredocs", input: strings.Repeat("cat <<E; x\nb\nE\n", 3000), truncated: true, check: commandCount(DefaultMaxCommands, DefaultMaxCommands)},
		{name: "word budget", input: "echo " + strings.Repeat("a ", maxWords+10), truncated: true,
			check: func(s *ir.Script) string {
				if n := len(s.Commands[0].Args); n > maxWords+1 {
					return strconv.Itoa(n) + " words"
				}
				return ""
			}},
		{name: "redirect budget", input: "echo" + strings.Repeat(" >f", maxWords+10), truncated: true,
			check: func(s *ir.Script) string {
				if n := len(s.Commands[0].Redirects); n > maxWords {
					return strconv.Itoa(n) + " redirects"
				}
				return ""
			}},
		{name: "brace sequence too long", input: "echo x{1..100000}", check: lastArgUnknown("echo")},
		{name: "brace product too large", input: "echo " + strings.Repeat("{a,b}", 9), check: lastArgUnknown("echo")},
		{name: "brace words over the total", input: strings.Repeat("echo {1..200}; ", 40) + "echo {a,b}", truncated: true, check: lastArgUnknown("echo")},
		{name: "nested loops bounded", input: strings.Repeat("for i in 1 2 3 4 5 6 7 8; do ", 6) + "x $i" + strings.Repeat("; done", 6),
			check: commandCount(1, maxLoopMult*maxIterations)},
		{name: "long loop list not unrolled", input: "for i in " + strings.Repeat("a ", 100) + "; do rm $i; done",
			check: func(s *ir.Script) string {
				if c := lastNamed(s, "rm"); c == nil || !c.Args[1].Unknown {
					return "want one rm with an unknown argument"
				}
				return commandCount(1, 1)(s)
			}},
		{name: "value doubling becomes unknown", input: "x=ab; " + strings.Repeat(`x="$x$x"; `, 20) + "echo $x", check: lastArgUnknown("echo")},
		{name: "pasted values budget", input: bigValue + strings.Repeat("echo a$x; ", 200), truncated: true, check: lastArgUnknown("echo")},
		{name: "nested text budget", input: bigValue + strings.Repeat(`bash -c "echo $x"; `, 200), truncated: true},
	}
}

// cdLimitCases: the cd chain's step count and step length.
func cdLimitCases() []limitCase {
	// 3000 steps "a" merge into 2048 (4095 bytes, the most that fits in
	// maxCdStepLen) and 952.
	steps := func(n int) string { return strings.TrimSuffix(strings.Repeat("a/", n), "/") }
	return []limitCase{
		{name: "cd chain of 3000 relative steps", input: strings.Repeat("cd a; ", 3000) + "rm -rf *",
			check: chainWithin("rm", []string{steps(2048), steps(952)})},
		{name: "cd chain of 20000 relative steps", input: strings.Repeat("cd abcdefghij; ", 20000) + "rm -rf *", maxCmds: 1 << 17,
			check: func(s *ir.Script) string {
				if msg := chainWithin("rm", nil)(s); msg != "" {
					return msg
				}
				if c := lastNamed(s, "rm"); len(c.Cd) != maxCdSteps || !sameStep(c.Cd[maxCdSteps-1], cdChainTooLong) {
					return "want 32 steps ending in the cap step"
				}
				return ""
			}},
		{name: "cd chain reset by absolute steps", input: strings.Repeat("cd a; cd /tmp; ", 2000) + "cd b; rm -rf *",
			check: chainWithin("rm", []string{"/tmp", "b"})},
		{name: "cd chain past 32 steps", input: strings.Repeat("cd x$V; cd a; ", 40) + "rm -rf *",
			check: func(s *ir.Script) string {
				c := lastNamed(s, "rm")
				if c == nil || len(c.Cd) != maxCdSteps || !sameStep(c.Cd[maxCdSteps-1], cdChainTooLong) {
					return "want 32 steps ending in the cap step"
				}
				return ""
			}},
		{name: "cd chain past 32 steps reset by an absolute step", input: strings.Repeat("cd x$V; cd a; ", 40) + "cd /srv; cd b; rm -rf *",
			check: chainWithin("rm", []string{"/srv", "b"})},
		{name: "cd step too long", input: "cd " + strings.Repeat("d", maxCdStepLen+1) + "; rm -rf *",
			check: chainWithin("rm", []string{"?"})},
		{name: "cd steps of 4000 bytes each", input: strings.Repeat("cd "+strings.Repeat("d", 4000)+"; ", 40) + "rm -rf *",
			check: func(s *ir.Script) string {
				if msg := chainWithin("rm", nil)(s); msg != "" {
					return msg
				}
				c := lastNamed(s, "rm")
				if len(c.Cd) != maxCdSteps || !sameStep(c.Cd[maxCdSteps-1], cdChainTooLong) {
					return "want 32 steps ending in the cap step"
				}
				return ""
			}},
		{name: "conditional cds stay one step", input: strings.Repeat("if t; then cd a; fi; ", 100) + "rm -rf *",
			check: chainWithin("rm", []string{"?"})},
		{name: "pushd stack bounded", input: strings.Repeat("pushd a; ", 100) + strings.Repeat("popd; ", 100) + "rm -rf *",
			check: func(s *ir.Script) string {
				c := lastNamed(s, "rm")
				if c == nil || len(c.Cd) == 0 || !c.Cd[len(c.Cd)-1].Unknown {
					return "want the directory unknown after popping past the bounded stack"
				}
				return chainWithin("rm", nil)(s)
			}},
		{name: "powershell cd chain", dialect: ir.PowerShell, input: strings.Repeat("cd a; ", 3000) + "Remove-Item -Recurse *",
			check: chainWithin("remove-item", nil)},
		{name: "cmd cd chain", dialect: ir.Cmd, input: strings.Repeat("cd a & ", 3000) + "rd /s /q .",
			check: chainWithin("rd", nil)},
	}
}

// TestLimits runs inputs past every limit of the analysis: each must
// finish without a panic, keep the invariants, and stay within the bound.
func TestLimits(t *testing.T) {
	for _, tc := range limitCases() {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions()
			opts.Dialect = tc.dialect
			opts.MaxCommands = tc.maxCmds
			s := Analyze(tc.input, opts)
			if strings.HasPrefix(s.ParseError, "shell: analysis failed") {
				t.Fatal(s.ParseError)
			}
			checkInvariants(t, tc.name, s)
			if tc.truncated && !s.Truncated {
				t.Errorf("Truncated not set")
			}
			if tc.check != nil {
				if msg := tc.check(s); msg != "" {
					t.Error(msg)
				}
			}
		})
	}
}
