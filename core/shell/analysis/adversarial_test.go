package analysis

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// adversarial is one generated input shape that could make the analysis
// superlinear: gen(n) returns a text of about n bytes (never much more).
type adversarial struct {
	name    string
	dialect ir.Dialect
	gen     func(n int) string
}

// repeatTo repeats unit until the text is about n bytes long, then adds
// tail.
func repeatTo(n int, unit, tail string) string {
	k := max(1, (n-len(tail))/len(unit))
	return strings.Repeat(unit, k) + tail
}

// numbered builds a text of about n bytes from format, which takes one
// integer, and adds tail.
func numbered(n int, format, tail string) string {
	var sb strings.Builder
	for i := 0; sb.Len() < n-len(tail); i++ {
		fmt.Fprintf(&sb, format, i)
	}
	sb.WriteString(tail)
	return sb.String()
}

// nested wraps core in k levels of open ... close, k chosen so the text is
// about n bytes.
func nested(n int, open, close, core string) string {
	k := max(1, (n-len(core))/(len(open)+len(close)))
	return strings.Repeat(open, k) + core + strings.Repeat(close, k)
}

// manyVars assigns (and exports) more variables than a state tracks, in
// about n bytes at most.
func manyVars(n int) string {
	return numbered(min(n, 16<<10), "export v%d=1; ", "")
}

// bigValue doubles $x up to 32 KiB in a few hundred bytes.
var bigValue = "x=abcdefgh; " + strings.Repeat(`x="$x$x"; `, 12)

// adversarialInputs are the shapes the limits and benchmarks run. The
// dangerous command at the end of several of them is only text for
// Analyze, which never runs anything.
var adversarialInputs = []adversarial{
	{"cd chain", ir.Bash, func(n int) string { return repeatTo(n, "cd a; ", "rm -rf *") }},
	{"cd and chain", ir.Bash, func(n int) string { return repeatTo(n, "cd a && ", "rm -rf *") }},
	{"cd dotdot chain", ir.Bash, func(n int) string { return repeatTo(n, "cd ../b; ", "rm -rf *") }},
	{"cd absolute chain", ir.Bash, func(n int) string { return repeatTo(n, "cd /tmp; cd a; ", "rm -rf *") }},
	{"cd unknown chain", ir.Bash, func(n int) string { return repeatTo(n, "cd $X; cd a; ", "rm -rf *") }},
	{"cd long names", ir.Bash, func(n int) string { return repeatTo(n, "cd "+strings.Repeat("d", 250)+"; ", "rm -rf *") }},
	{"pushd chain", ir.Bash, func(n int) string { return repeatTo(n, "pushd a; ", "rm -rf *") }},
	{"pushd popd", ir.Bash, func(n int) string { return repeatTo(n, "pushd a; popd; ", "rm -rf *") }},
	{"conditional cd", ir.Bash, func(n int) string { return repeatTo(n, "if t; then cd a; fi; ", "rm -rf *") }},
	{"cd in subshells", ir.Bash, func(n int) string { return repeatTo(n, "(cd a; x); ", "rm -rf *") }},
	{"and chain", ir.Bash, func(n int) string { return repeatTo(n, "true && ", "x") }},
	{"and chain with vars", ir.Bash, func(n int) string {
		return numbered(min(n/2, 8000), "v%d=1; ", "") + repeatTo(n/2, "t && ", "x")
	}},
	{"or chain of assignments", ir.Bash, func(n int) string { return numbered(n, "v%d=1 || ", "x") }},
	{"vars then subshells", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "(x); ", "") }},
	{"vars then pipelines", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "a | b; ", "") }},
	{"vars then ifs", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "if t; then x; fi; ", "") }},
	{"vars then loops", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "while t; do x; done; ", "") }},
	{"vars then cases", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "case a in a) x;; b) y;; esac; ", "") }},
	{"vars then background", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "x & ", "") }},
	{"vars then bash -c", ir.Bash, func(n int) string { return manyVars(n/2) + repeatTo(n/2, "bash -c x; ", "") }},
	{"funcs then subshells", ir.Bash, func(n int) string {
		return numbered(n/2, "f%d() { g; }; ", "") + repeatTo(n/2, "(x); ", "")
	}},
	{"assignments", ir.Bash, func(n int) string { return numbered(n, "v%d=%[1]d; ", "x") }},
	{"prefix assignments", ir.Bash, func(n int) string { return numbered(n, "v%d=x ", "cmd") }},
	{"exports", ir.Bash, func(n int) string { return numbered(n, "export v%d=1; ", "bash -c x") }},
	{"variable doubling", ir.Bash, func(n int) string { return "x=ab; " + repeatTo(n, `x="$x$x"; `, "echo $x") }},
	{"value amplification", ir.Bash, func(n int) string { return bigValue + "echo " + repeatTo(n, "a$x ", "") }},
	{"value amplification in commands", ir.Bash, func(n int) string { return bigValue + repeatTo(n, "echo a$x; ", "") }},
	{"value amplification in heredoc", ir.Bash, func(n int) string { return bigValue + "cat <<EOF\n" + repeatTo(n, "$x\n", "EOF\n") }},
	{"value amplification in bash -c", ir.Bash, func(n int) string { return bigValue + repeatTo(n, `bash -c "echo $x"; `, "") }},
	{"positional amplification", ir.Bash, func(n int) string {
		return "set -- " + strings.Repeat("abcdefgh ", min(4096, n/18)) + "; " + repeatTo(n/2, `echo "a$@"; `, "")
	}},
	{"redirects one command", ir.Bash, func(n int) string { return numbered(n, ">f%d ", "echo") }},
	{"redirects many commands", ir.Bash, func(n int) string { return numbered(n, "x >f%d 2>&1; ", "") }},
	{"pipeline", ir.Bash, func(n int) string { return repeatTo(n, "a | ", "b") }},
	{"pipeline into xargs", ir.Bash, func(n int) string { return repeatTo(n, "a | xargs ", "b") }},
	{"commands", ir.Bash, func(n int) string { return repeatTo(n, "x; ", "") }},
	{"newline commands", ir.Bash, func(n int) string { return repeatTo(n, "x\n", "") }},
	{"background commands", ir.Bash, func(n int) string { return repeatTo(n, "x & ", "") }},
	{"deep subshells", ir.Bash, func(n int) string { return nested(n, "(", ")", "x") }},
	{"deep groups", ir.Bash, func(n int) string { return nested(n, "{ ", "; }", "x") }},
	{"deep ifs", ir.Bash, func(n int) string { return nested(n, "if t; then ", "; fi", "x") }},
	{"deep substitutions", ir.Bash, func(n int) string { return nested(n, "$(", ")", "x") }},
	{"deep quoted substitutions", ir.Bash, func(n int) string { return nested(n, `"$(`, `)"`, "x") }},
	{"deep backquotes", ir.Bash, func(n int) string { return nested(min(n, 64), "echo `", "`", "x") }},
	{"deep bash -c", ir.Bash, func(n int) string { return nested(n, "bash -c '", "'", "x") }},
	{"eval chain", ir.Bash, func(n int) string { return repeatTo(n, "eval ", "x") }},
	{"heredoc body", ir.Bash, func(n int) string { return "cat <<EOF\n" + repeatTo(n, "line $x\n", "EOF\n") }},
	{"heredoc into sh", ir.Bash, func(n int) string { return "sh <<EOF\n" + repeatTo(n, "cd a; rm -rf x\n", "EOF\n") }},
	{"many heredocs", ir.Bash, func(n int) string { return repeatTo(n, "cat <<E\nx\nE\n", "") }},
	{"brace expansions", ir.Bash, func(n int) string { return repeatTo(n, "echo {a,b}{c,d}{e,f}{g,h}; ", "") }},
	{"brace words", ir.Bash, func(n int) string { return "echo " + repeatTo(n, "{a,b}{c,d}{e,f} ", "") }},
	{"brace sequence", ir.Bash, func(n int) string { return repeatTo(n, "echo {1..200}; ", "") }},
	{"nested braces", ir.Bash, func(n int) string { return "echo " + nested(n, "{a,", "}", "b") }},
	{"substitutions", ir.Bash, func(n int) string { return "echo " + repeatTo(n, "$(x) ", "") }},
	{"functions", ir.Bash, func(n int) string { return numbered(n, "f%d() { g; }; ", "") }},
	{"function calls", ir.Bash, func(n int) string { return "f() { cd a; x; }; " + repeatTo(n, "f; ", "") }},
	{"for loops", ir.Bash, func(n int) string { return repeatTo(n, "for i in a b c; do x $i; done; ", "") }},
	{"nested for loops", ir.Bash, func(n int) string { return nested(n, "for i in 1 2 3; do ", "; done", "x") }},
	{"case items", ir.Bash, func(n int) string { return "case $x in " + numbered(n, "p%d) cd a; y;; ", "esac") }},
	{"set positional", ir.Bash, func(n int) string { return "set -- " + repeatTo(n, "a ", "; echo $@") }},
	{"long word", ir.Bash, func(n int) string { return "echo " + strings.Repeat("a", n) }},
	{"quoted words", ir.Bash, func(n int) string { return "echo " + repeatTo(n, `"a" `, "") }},
	{"parse error commands", ir.Bash, func(n int) string { return repeatTo(n, "cd a; x; ", "'") }},
	{"parse error parens", ir.Bash, func(n int) string { return repeatTo(n, "(", "") }},
	{"sudo chain", ir.Bash, func(n int) string { return repeatTo(min(n, 4096), "sudo ", "rm -rf /") }},
	{"find exec", ir.Bash, func(n int) string { return "find ." + repeatTo(n, " -exec x {} ;", "") }},
	{"echo into sh", ir.Bash, func(n int) string { return repeatTo(n, "echo x | sh; ", "") }},
	{"ps statements", ir.PowerShell, func(n int) string { return repeatTo(n, "Remove-Item x; ", "") }},
	{"ps cd chain", ir.PowerShell, func(n int) string { return repeatTo(n, "cd a; ", "Remove-Item -Recurse *") }},
	{"ps script blocks", ir.PowerShell, func(n int) string { return nested(n, "& { ", " }", "x") }},
	{"ps subexpressions", ir.PowerShell, func(n int) string { return nested(n, "$(", ")", "x") }},
	{"ps iex chain", ir.PowerShell, func(n int) string { return repeatTo(n, "iex ", "x") }},
	{"ps static calls", ir.PowerShell, func(n int) string { return repeatTo(n, `[IO.File]::Delete('C:\x'); `, "") }},
	{"ps start-process", ir.PowerShell, func(n int) string { return repeatTo(n, "Start-Process cmd -ArgumentList '/c x'; ", "") }},
	{"cmd statements", ir.Cmd, func(n int) string { return repeatTo(n, "del x & ", "") }},
	{"cmd cd chain", ir.Cmd, func(n int) string { return repeatTo(n, "cd a & ", "rd /s /q .") }},
	{"cmd groups", ir.Cmd, func(n int) string { return nested(n, "(", ")", "x") }},
	{"cmd for loops", ir.Cmd, func(n int) string { return repeatTo(n, "for %i in (a b c) do del %i\n", "") }},
}

// adversarialSizes are the input sizes benchmarked: a long hand-written
// command and the MaxInput cap.
var adversarialSizes = []struct {
	label string
	n     int
}{{"4KiB", 4 << 10}, {"1MiB", MaxInput}}

// BenchmarkAdversarial analyses every adversarial shape at 4 KiB and at
// the 1 MiB cap. Linear cost shows as ns/op growing about 256 times
// between the two sizes (less when a cap cuts the work short).
func BenchmarkAdversarial(b *testing.B) {
	for _, in := range adversarialInputs {
		for _, size := range adversarialSizes {
			src := in.gen(size.n)
			opts := testOptions()
			opts.Dialect = in.dialect
			b.Run(in.name+"/"+size.label, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					Analyze(src, opts)
				}
			})
		}
	}
}

// BenchmarkCdChain3000 is the reported performance bomb: 3000 cds, then a
// command (about 3 s before the chain was bounded).
func BenchmarkCdChain3000(b *testing.B) {
	src := strings.Repeat("cd a; ", 3000) + "rm -rf *"
	opts := testOptions()
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}

// BenchmarkAdversarialParse is the floor under BenchmarkAdversarial for
// the bash shapes: mvdan.cc/sh parsing the text, nothing analysed.
func BenchmarkAdversarialParse(b *testing.B) {
	for _, in := range adversarialInputs {
		if in.dialect != ir.Bash {
			continue
		}
		src := in.gen(MaxInput)
		if nestingDepth(src, maxParseNesting) > maxParseNesting {
			continue // never given to the parser
		}
		b.Run(in.name, func(b *testing.B) {
			p := newBashParser()
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				p.Parse(strings.NewReader(src), "")
			}
		})
	}
}

// TestAdversarialAllocation bounds the memory the analysis allocates for
// every adversarial shape at the 1 MiB cap to a fixed multiple of the
// input (plus 1 MiB for the fixed costs): a quadratic path (copying a growing chain per command, cloning
// a growing state per operand) allocates far more. Memory, not time, is
// asserted, so the test does not depend on the machine.
func TestAdversarialAllocation(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates about 1 GiB in total")
	}
	const perByte = 200 // allocated bytes per input byte, at most
	for _, in := range adversarialInputs {
		src := in.gen(MaxInput)
		opts := testOptions()
		opts.Dialect = in.dialect
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := Analyze(src, opts)
		runtime.ReadMemStats(&after)
		checkInvariants(t, in.name, s)
		if strings.HasPrefix(s.ParseError, "shell: analysis failed") {
			t.Errorf("%s: %s", in.name, s.ParseError)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > perByte*uint64(len(src))+1<<20 {
			t.Errorf("%s: %d bytes allocated for %d bytes of input (%.0f per byte, limit %d)",
				in.name, got, len(src), float64(got)/float64(len(src)), perByte)
		}
	}
}
