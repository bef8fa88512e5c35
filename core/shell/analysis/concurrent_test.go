package analysis

import (
	"strings"
	"sync"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// TestConcurrentAnalyze: analyses running at once share no state (the
// host judges calls in parallel in one process). Run with -race: printf
// formats through mvdan's expand, whose nil Config is one package-level
// value it writes to.
func TestConcurrentAnalyze(t *testing.T) {
	cmds := []string{
		`printf '%s %d\n' build 3 | sh`,
		`printf 'echo %s\n' hi | bash`,
		`echo {a,b,c}/{1..3} | xargs ls`,
		`printf '%05d|%-4s|\n' 42 ab`,
	}
	want := make([]string, len(cmds))
	for i, c := range cmds {
		want[i] = outputs(Analyze(c, Options{Cwd: "/home/u/p", Home: "/home/u"}))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; round < 20; round++ {
				for i, c := range cmds {
					if got := outputs(Analyze(c, Options{Cwd: "/home/u/p", Home: "/home/u"})); got != want[i] {
						errs <- c + ": " + got + ", alone: " + want[i]
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if !strings.Contains(want[0], "build 3") || !strings.Contains(want[3], "00042|ab  |") {
		t.Fatalf("printf's output is not known: %q", want)
	}
}

// outputs joins what the commands of s print, as the analysis knows it.
func outputs(s *ir.Script) string {
	var b strings.Builder
	for _, c := range s.Commands {
		b.WriteString(c.Name + "=" + c.Output + ";")
	}
	return b.String()
}
