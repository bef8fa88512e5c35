package cmdfacts_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// load reads testdata/name into cases and fails when it holds none.
func load[T any](t testing.TB, name string) []T {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []T
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases in testdata/%s", name)
	}
	return cases
}

// command analyses text and returns its first command (the one the
// cases are about), resolved as the host resolves it.
func command(t *testing.T, text string) *ir.Command {
	t.Helper()
	s := analysis.Analyze(text, analysis.Options{Cwd: "/p", Home: "/home/u"})
	if len(s.Commands) == 0 {
		t.Fatalf("%q: no command", text)
	}
	return &s.Commands[0]
}

// shown is how the cases write words: the value, or <?raw?> when unknown.
func shown(ws []ir.Word) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if w.Unknown {
			out = append(out, "<?"+w.Raw+"?>")
			continue
		}
		out = append(out, w.Value)
	}
	return out
}

type gitCase struct {
	Command    string            `json:"command"`
	Sub        string            `json:"sub"`
	Args       []string          `json:"args"`
	Alias      string            `json:"alias"`
	ShellAlias string            `json:"shell_alias"`
	ShellCmd   string            `json:"shell_command"`
	Unknown    bool              `json:"unknown"`
	Dirs       []string          `json:"dirs"`
	GitDir     []string          `json:"git_dir"`
	WorkTree   []string          `json:"work_tree"`
	Config     map[string]string `json:"config"` // known settings; "?" for an unknown value
	Why        string            `json:"why"`
}

// TestGit runs testdata/git.json through the git front-end: the
// subcommand, its arguments, aliases, the directories and the settings
// git would read from the command line and the command's assignments.
func TestGit(t *testing.T) {
	for _, tc := range load[gitCase](t, "git.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			g, ok := cmdfacts.GitCommand(c)
			if !ok {
				t.Fatalf("not read as git (name %q)", c.Name)
			}
			if g.Sub != tc.Sub || g.Alias != tc.Alias || g.ShellAlias != tc.ShellAlias || g.Unknown != tc.Unknown {
				t.Errorf("sub %q alias %q shell %q unknown %v; want %q %q %q %v (%s)",
					g.Sub, g.Alias, g.ShellAlias, g.Unknown, tc.Sub, tc.Alias, tc.ShellAlias, tc.Unknown, tc.Why)
			}
			if tc.Args != nil && !slices.Equal(shown(g.Args), tc.Args) {
				t.Errorf("args %q, want %q", shown(g.Args), tc.Args)
			}
			if tc.ShellCmd != "" && g.ShellCommand() != tc.ShellCmd {
				t.Errorf("shell command %q, want %q", g.ShellCommand(), tc.ShellCmd)
			}
			for _, f := range []struct {
				name      string
				got       []ir.Word
				want      []string
				mustMatch bool
			}{{"dirs", g.Dirs, tc.Dirs, true}, {"git dir", g.GitDir, tc.GitDir, true}, {"work tree", g.WorkTree, tc.WorkTree, true}} {
				if len(f.got) != len(f.want) || (len(f.want) > 0 && !slices.Equal(shown(f.got), f.want)) {
					t.Errorf("%s %q, want %q", f.name, shown(f.got), f.want)
				}
			}
			if tc.Config != nil {
				got := map[string]string{}
				for _, s := range g.Config {
					got[s.Name] = s.Value
					if s.Unknown {
						got[s.Name] = "?"
					}
				}
				for k, v := range tc.Config {
					if got[k] != v {
						t.Errorf("config %s = %q, want %q (all: %v)", k, got[k], v, got)
					}
				}
			}
		})
	}
}

type findCase struct {
	Command string     `json:"command"`
	Roots   []string   `json:"roots"`
	Delete  bool       `json:"delete"`
	Execs   [][]string `json:"execs"` // action first, then argv
	Outputs []string   `json:"outputs"`
	Fd      bool       `json:"fd"` // an fd command: only Roots are checked (FdRoots)
	// Filtered, MaxDepth, ByAttributes and Types are checked when given.
	Filtered     *bool   `json:"filtered"`
	MaxDepth     *bool   `json:"maxdepth"`
	ByAttributes *bool   `json:"by_attributes"`
	Types        *string `json:"types"`
}

// TestFind runs testdata/find.json: start paths, -delete, the commands of
// -exec and friends, and the files find itself writes; fd's search paths.
func TestFind(t *testing.T) {
	for _, tc := range load[findCase](t, "find.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			if tc.Fd {
				if got := shown(cmdfacts.FdRoots(c.Args[1:])); !slices.Equal(got, tc.Roots) {
					t.Errorf("fd roots %q, want %q", got, tc.Roots)
				}
				return
			}
			f := cmdfacts.ParseFind(c.Args[1:])
			if got := shown(f.Roots); !slices.Equal(got, tc.Roots) {
				t.Errorf("roots %q, want %q", got, tc.Roots)
			}
			if f.Delete != tc.Delete {
				t.Errorf("delete %v, want %v", f.Delete, tc.Delete)
			}
			var execs [][]string
			for _, e := range f.Execs {
				execs = append(execs, append([]string{e.Action}, shown(e.Argv)...))
			}
			if !slices.EqualFunc(execs, tc.Execs, slices.Equal[[]string]) {
				t.Errorf("execs %q, want %q", execs, tc.Execs)
			}
			if got := shown(f.Outputs); len(got)+len(tc.Outputs) > 0 && !slices.Equal(got, tc.Outputs) {
				t.Errorf("outputs %q, want %q", got, tc.Outputs)
			}
			if tc.Filtered != nil && f.Filtered != *tc.Filtered {
				t.Errorf("filtered %v, want %v", f.Filtered, *tc.Filtered)
			}
			if tc.MaxDepth != nil && f.MaxDepth != *tc.MaxDepth {
				t.Errorf("maxdepth %v, want %v", f.MaxDepth, *tc.MaxDepth)
			}
			if tc.ByAttributes != nil && f.ByAttributes != *tc.ByAttributes {
				t.Errorf("by_attributes %v, want %v", f.ByAttributes, *tc.ByAttributes)
			}
			if tc.Types != nil && f.Types != *tc.Types {
				t.Errorf("types %q, want %q", f.Types, *tc.Types)
			}
		})
	}
}

type optionsCase struct {
	Command  string   `json:"command"` // the words after the command word are parsed
	Short    string   `json:"short"`
	Long     []string `json:"long"`
	POSIX    bool     `json:"posix"`
	OneDash  bool     `json:"one_dash"`
	Opts     []string `json:"opts"` // NAME or NAME=VALUE, in order
	Operands []string `json:"operands"`
}

// TestParseArgs runs testdata/options.json through the option-spec
// parser: clusters, attached and separate values, "--", permutation and
// POSIX order, unknown words.
func TestParseArgs(t *testing.T) {
	for _, tc := range load[optionsCase](t, "options.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			p := cmdfacts.ParseArgs(c.Args[1:], cmdfacts.Spec{Short: tc.Short, Long: tc.Long, POSIX: tc.POSIX, OneDash: tc.OneDash})
			var opts []string
			for _, o := range p.Opts {
				if o.Val != nil {
					opts = append(opts, o.Name+"="+shown([]ir.Word{*o.Val})[0])
				} else {
					opts = append(opts, o.Name)
				}
			}
			if !slices.Equal(opts, tc.Opts) {
				t.Errorf("opts %q, want %q", opts, tc.Opts)
			}
			if got := shown(p.Operands); !slices.Equal(got, tc.Operands) && len(got)+len(tc.Operands) > 0 {
				t.Errorf("operands %q, want %q", got, tc.Operands)
			}
		})
	}
}

// TestFlagQueries: HasShort, HasLong and Value stop at "--", skip unknown
// words and read the attached forms.
func TestFlagQueries(t *testing.T) {
	args := command(t, `rm -fr --no-preserve-root --target-directory=/x -t/y "$U" -- -q`).Args[1:]
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"short r in a cluster", cmdfacts.HasShort(args, "r"), true},
		{"short q only after --", cmdfacts.HasShort(args, "q"), false},
		{"long exact", cmdfacts.HasLong(args, "--no-preserve-root"), true},
		{"long with a value", cmdfacts.HasLong(args, "--target-directory"), true},
		{"long absent", cmdfacts.HasLong(args, "--recursive"), false},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if v := cmdfacts.Value(args, "--target-directory"); v == nil || v.Value != "/x" {
		t.Errorf("Value --target-directory = %v, want /x", v)
	}
	if v := cmdfacts.Value(args, "-t"); v == nil || v.Value != "/y" {
		t.Errorf("Value -t = %v, want /y", v)
	}
	quoted := command(t, `dd "of=C:\x"`).Args[1]
	if w := cmdfacts.SubWord(quoted, 3); w.Value != `C:\x` || w.Raw != "" {
		t.Errorf("SubWord of a quoted word = %+v, want value C:\\x and no raw text", w)
	}
}

// TestInterpreterLang: names with versions and build suffixes are their
// language; other names are none.
func TestInterpreterLang(t *testing.T) {
	for name, want := range map[string]string{
		"python": "python", "python3": "python", "python3.12": "python", "python3.13t": "python",
		"pythonw": "python", "py": "python", "pypy3": "python", "node": "node", "nodejs": "node",
		"node22": "node", "perl5.36": "perl", "ruby3.3": "ruby", "php8.2": "php", "gawk": "awk",
		"goawk": "awk", "osascript": "osascript", "deno": "deno", "bun": "bun",
		"pythonista": "", "perlbrew": "", "rubocop": "", "phpunit": "", "nodemon": "", "awkward": "", "bash": "",
	} {
		if got := cmdfacts.InterpreterLang(name); got != want {
			t.Errorf("InterpreterLang(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestShells: shell names, also as the paths awk's system() names.
func TestShells(t *testing.T) {
	for name, want := range map[string]bool{"bash": true, "sh": true, "dash": true, "ksh93": true, "fish": true,
		"/bin/sh": true, "/usr/bin/bash": true, "python": false, "bashful": false, "/opt/sh": false, "busybox": false} {
		if got := cmdfacts.IsShell(name); got != want {
			t.Errorf("IsShell(%q) = %v, want %v", name, got, want)
		}
	}
	if n := len(cmdfacts.Shells()); n < 16 {
		t.Errorf("Shells() has %d names", n)
	}
}

// TestDotNetFileCalls: what the known .NET file calls do to which
// argument, as the analysis names the calls.
func TestDotNetFileCalls(t *testing.T) {
	for name, want := range map[string]string{
		"[system.io.file]::writealltext":                             "0w",
		"[system.io.file]::move":                                     "0m 1w",
		"[system.io.directory]::move":                                "0m 1w",
		"[system.io.file]::replace":                                  "1w 2w",
		"[system.io.directory]::delete":                              "0d",
		"[microsoft.visualbasic.fileio.filesystem]::deletedirectory": "0d",
		"[system.io.directory]::createdirectory":                     "0w",
		"[system.io.file]::readalltext":                              "",
		"[system.io.directory]::writealltext":                        "",
	} {
		ops, ok := cmdfacts.DotNetFileCall(name)
		var parts []string
		for _, o := range ops {
			parts = append(parts, string(rune('0'+o.Index))+map[cmdfacts.FileOp]string{cmdfacts.FileWrite: "w", cmdfacts.FileDelete: "d", cmdfacts.FileMove: "m"}[o.Op])
		}
		if got := strings.Join(parts, " "); got != want || ok != (want != "") {
			t.Errorf("DotNetFileCall(%q) = %q %v, want %q", name, got, ok, want)
		}
	}
	if len(cmdfacts.DotNetFileCalls()) < 20 {
		t.Errorf("DotNetFileCalls() has %d names", len(cmdfacts.DotNetFileCalls()))
	}
}
