package analysis

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// TestEffectsAttached analyses every command line of the layers' case
// files (plugins/danger, plugins/fence) and the bypass corpus in all three
// dialects, and checks that every command reported, nested and wrapped
// ones included, carries Effects equal to cmdfacts.EffectsOf of the name
// it runs as (Name, else NameIfEmpty; none for a PowerShell cmdlet or
// alias) and its arguments: whichever way the analysis builds a command,
// its effects are filled, and filled the same way.
func TestEffectsAttached(t *testing.T) {
	var lines []string
	for _, glob := range []string{
		"../../../plugins/danger/testdata/cases_*.json",
		"../../../plugins/fence/testdata/cases_*.json",
		"../../../cmd/zcode-fence/testdata/bypass-corpus.json",
	} {
		files, err := filepath.Glob(glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("no case files match %s (%v)", glob, err)
		}
		for _, f := range files {
			lines = append(lines, caseCommands(t, f)...)
		}
	}
	if len(lines) < 1000 {
		t.Fatalf("only %d command lines read from the case files", len(lines))
	}
	var withEffects, nested, wrapped, powershell, cmdexe, unnamed int
	for _, line := range lines {
		for _, d := range []ir.Dialect{ir.Bash, ir.PowerShell, ir.Cmd} {
			s := Analyze(line, Options{Dialect: d, Cwd: "/p", Home: "/home/u"})
			for i := range s.Commands {
				c := &s.Commands[i]
				want := wantEffects(c)
				if !reflect.DeepEqual(c.Effects, want) {
					t.Errorf("%s %q, command %d (%s): Effects %+v, want %+v", d, line, i, c.Name, c.Effects, want)
					continue
				}
				if len(want) == 0 {
					continue
				}
				withEffects++
				if c.Depth > 0 {
					nested++
				}
				if len(c.Via) > 0 {
					wrapped++
				}
				if c.Name == "" {
					unnamed++
				}
				switch c.Dialect {
				case ir.PowerShell:
					powershell++
				case ir.Cmd:
					cmdexe++
				}
			}
		}
	}
	t.Logf("%d command lines, %d commands with effects: %d nested, %d wrapped, %d by NameIfEmpty, %d PowerShell, %d cmd.exe",
		len(lines), withEffects, nested, wrapped, unnamed, powershell, cmdexe)
	for what, n := range map[string]int{"nested": nested, "wrapped": wrapped, "unnamed": unnamed, "PowerShell": powershell, "cmd.exe": cmdexe} {
		if n == 0 {
			t.Errorf("no %s command with effects: the case files no longer exercise that path", what)
		}
	}
}

// wantEffects states independently what the analysis must attach.
func wantEffects(c *ir.Command) []ir.Effect {
	if len(c.Args) == 0 {
		return nil
	}
	if c.Dialect == ir.PowerShell && !c.Args[0].Unknown {
		if _, cmdlet := winshell.PowerShellCmdlet(c.Args[0].Value); cmdlet {
			return nil // Remove-Item's parameters are not rm's options
		}
	}
	name := c.Name
	if name == "" {
		name = c.NameIfEmpty
	}
	if name == "" {
		return nil
	}
	return cmdfacts.EffectsOf(name, c.Args[1:])
}

// caseCommands reads the "command" of every case of a JSON case file.
func caseCommands(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, c := range cases {
		if c.Command != "" {
			out = append(out, c.Command)
		}
	}
	return out
}
