package cmdfacts_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/oneliner"
)

type payloadCase struct {
	Command string `json:"command"`
	Stdin   string `json:"stdin"`
	// Want lists the payloads as "VIA: TEXT" (a command line), "VIA:
	// argv A B" (an argv), "VIA: stdin" or "VIA: file F".
	Want []string `json:"want"`
	Why  string   `json:"why"`
}

func showPayload(p cmdfacts.Payload) string {
	switch {
	case p.Line != nil:
		if p.Line.Unknown {
			return p.Via + ": <?" + p.Line.Value + "?>"
		}
		return p.Via + ": " + p.Line.Value
	case len(p.Argv) > 0:
		return p.Via + ": argv " + strings.Join(shown(p.Argv), " ")
	case p.File != nil:
		return p.Via + ": file " + p.File.Raw
	}
	return p.Via + ": stdin " + p.Lang
}

// TestPayloads runs testdata/payloads.json: the commands programs run for
// their caller in their own syntax (the Lisp evaluators' read by
// oneliner.LispPayloads), and git's command-valued settings.
func TestPayloads(t *testing.T) {
	for _, tc := range load[payloadCase](t, "payloads.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			var stdin *ir.Word
			if tc.Stdin != "" {
				w := cmdfacts.Literal(tc.Stdin)
				stdin = &w
			}
			ps := cmdfacts.Payloads(c, stdin)
			for _, code := range cmdfacts.LispCodes(c) { // read by core/shell/oneliner, as the analysis does
				ps = append(ps, oneliner.LispPayloads(code)...)
			}
			if g, ok := cmdfacts.GitCommand(c); ok {
				ps = append(ps, cmdfacts.GitPayloads(g)...)
			}
			got := make([]string, 0, len(ps))
			for _, p := range ps {
				got = append(got, showPayload(p))
			}
			want := tc.Want
			if want == nil {
				want = []string{}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got  %q\nwant %q (%s)", got, want, tc.Why)
			}
		})
	}
}

type makeCase struct {
	Text string   `json:"text"`
	Want []string `json:"want"`
}

// TestMakeCommands runs testdata/make.json through MakeCommands.
func TestMakeCommands(t *testing.T) {
	for _, tc := range load[makeCase](t, "make.json") {
		got := cmdfacts.MakeCommands(tc.Text)
		if got == nil {
			got = []string{}
		}
		want := tc.Want
		if want == nil {
			want = []string{}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q:\n got  %q\n want %q", tc.Text, got, want)
		}
	}
}

type executorCase struct {
	Command string   `json:"command"`
	Cmd     []string `json:"cmd"`     // the command words
	Replace string   `json:"replace"` // xargs -I / parallel -I ("" none for xargs)
	Insert  string   `json:"insert"`
	Sources []string `json:"sources"` // parallel: "a b" per ::: list, "file F" per file
	Flags   []string `json:"flags"`   // null lines dry-run pipe semaphore quote norun
}

// TestExecutors runs testdata/executors.json through ParseXargs and
// ParseParallel.
func TestExecutors(t *testing.T) {
	for _, tc := range load[executorCase](t, "executors.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			args := c.Args[1:]
			var cmd, sources, flags []string
			var replace, insert string
			switch c.Name {
			case "xargs":
				x := cmdfacts.ParseXargs(args)
				cmd = shown(args[x.Cmd:])
				replace, insert = x.Replace, x.Insert
				for name, on := range map[string]bool{"null": x.Null, "lines": x.Lines, "norun": x.NoRun} {
					if on {
						flags = append(flags, name)
					}
				}
				if x.ArgFile != nil {
					sources = append(sources, "file "+x.ArgFile.Raw)
				}
			default:
				p := cmdfacts.ParseParallel(args, c.Name == "sem")
				cmd = shown(args[p.CmdFrom:p.CmdTo])
				replace = p.Replace
				for _, s := range p.Sources {
					if s.File != nil {
						sources = append(sources, "file "+s.File.Raw)
					} else {
						sources = append(sources, strings.Join(shown(s.Words), " "))
					}
				}
				for name, on := range map[string]bool{"null": p.Null, "dry-run": p.DryRun, "pipe": p.Pipe,
					"semaphore": p.Semaphore, "quote": p.Quote, "norun": p.NoRun} {
					if on {
						flags = append(flags, name)
					}
				}
			}
			slices.Sort(flags)
			if !slices.Equal(cmd, nonNil(tc.Cmd)) || replace != tc.Replace || insert != tc.Insert ||
				!slices.Equal(nonNil(sources), nonNil(tc.Sources)) || !slices.Equal(nonNil(flags), nonNil(tc.Flags)) {
				t.Errorf("got cmd %q replace %q insert %q sources %q flags %q", cmd, replace, insert, sources, flags)
			}
		})
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestParallelCommand checks the replacement strings.
func TestParallelCommand(t *testing.T) {
	q := func(s string) string { return "<" + s + ">" }
	for _, tc := range []struct {
		tmpl, repl string
		items      []string
		want       string
	}{
		{"rm {}", "{}", []string{"/a/b.c"}, "rm </a/b.c>"},
		{"x {.} {/} {//} {/.} {#}", "{}", []string{"/a/b.c"}, "x </a/b> <b.c> </a> <b> <1>"},
		{"cp {1} {2}", "{}", []string{"a", "b"}, "cp <a> <b>"},
		{"gzip", "{}", []string{"a", "b"}, "gzip <a> <b>"},
		{"mv ,, ,,.bak", ",,", []string{"f"}, "mv <f> <f>.bak"},
		{"echo {//}", "{}", []string{"top"}, "echo <.>"},
		{"echo {x}", "{}", []string{"i"}, "echo {x} <i>"},
	} {
		if got := cmdfacts.ParallelCommand(tc.tmpl, tc.repl, tc.items, q); got != tc.want {
			t.Errorf("%q %q: got %q want %q", tc.tmpl, tc.items, got, tc.want)
		}
	}
}

type transformCase struct {
	Command string `json:"command"`
	Want    string `json:"want"` // unchanged, decoded, rewritten
}

// TestTextChange runs testdata/transform.json through TextChangeOf.
func TestTextChange(t *testing.T) {
	names := map[cmdfacts.TextChange]string{cmdfacts.Unchanged: "unchanged", cmdfacts.Decoded: "decoded", cmdfacts.Rewritten: "rewritten"}
	for _, tc := range load[transformCase](t, "transform.json") {
		if got := names[cmdfacts.TextChangeOf(command(t, tc.Command))]; got != tc.Want {
			t.Errorf("%q: got %s, want %s", tc.Command, got, tc.Want)
		}
	}
}

type gitArgsCase struct {
	Sub      string   `json:"sub"`
	Args     string   `json:"args"`
	Opts     []string `json:"opts"` // name, name=value, no-name; as git reads them
	Operands []string `json:"operands"`
	DashDash int      `json:"dashdash"`
	Exits    bool     `json:"exits"`
}

// TestGitArgs runs testdata/gitargs.json through ParseGitArgs: git's
// abbreviations, bundles, negations, values and exits.
func TestGitArgs(t *testing.T) {
	for _, tc := range load[gitArgsCase](t, "gitargs.json") {
		t.Run(tc.Sub+" "+tc.Args, func(t *testing.T) {
			c := command(t, "git "+tc.Sub+" "+tc.Args)
			key, rest := cmdfacts.GitSubSub(tc.Sub, c.Args[2:])
			p, ok := cmdfacts.ParseGitArgs(key, rest)
			if !ok {
				t.Fatalf("no table for %q", key)
			}
			var opts []string
			for _, o := range p.Opts {
				s := o.Name
				if o.Neg {
					s = "no-" + s
				}
				if o.Value != nil {
					s += "=" + o.Value.Value
				}
				opts = append(opts, s)
			}
			if !slices.Equal(nonNil(opts), nonNil(tc.Opts)) || !slices.Equal(nonNil(shown(p.Operands)), nonNil(tc.Operands)) ||
				p.DashDash != tc.DashDash || p.Exits != tc.Exits {
				t.Errorf("got opts %q operands %q dashdash %d exits %v", opts, shown(p.Operands), p.DashDash, p.Exits)
			}
		})
	}
}

type gitWritesCase struct {
	Cmd string `json:"cmd"`
	// Writes are the places written: the path, " members" when the
	// command writes entries it does not name below it, " name=P" for
	// their name prefix.
	Writes []string `json:"writes"`
}

// TestGitWrites runs testdata/gitwrites.json through GitWrites: the
// places git subcommands write that their options and operands name.
func TestGitWrites(t *testing.T) {
	for _, tc := range load[gitWritesCase](t, "gitwrites.json") {
		t.Run(tc.Cmd, func(t *testing.T) {
			g := cmdfacts.ParseGit(command(t, "git "+tc.Cmd).Args[1:], nil)
			var got []string
			for _, w := range cmdfacts.GitWrites(g.Sub, g.Args) {
				s := w.Path.Value
				if w.Members {
					s += " members"
				}
				if w.NamePrefix != "" {
					s += " name=" + w.NamePrefix
				}
				got = append(got, s)
			}
			if !slices.Equal(nonNil(got), nonNil(tc.Writes)) {
				t.Errorf("writes %q, want %q", got, tc.Writes)
			}
		})
	}
}

type registryCase struct {
	Path     string `json:"path"`
	Key      string `json:"key"` // "" when not a registry path
	Critical bool   `json:"critical"`
}

// TestRegistry runs testdata/registry.json through RegistryKey and
// RegistryKeyCritical.
func TestRegistry(t *testing.T) {
	for _, tc := range load[registryCase](t, "registry.json") {
		key, ok := cmdfacts.RegistryKey(tc.Path)
		if !ok {
			key = ""
		}
		if key != tc.Key || ok && cmdfacts.RegistryKeyCritical(key) != tc.Critical {
			t.Errorf("%q: got key %q critical %v, want %q %v", tc.Path, key, ok && cmdfacts.RegistryKeyCritical(key), tc.Key, tc.Critical)
		}
	}
}

// TestWindowsArgv: bash's reading of C:\ followed by a blank is undone.
func TestWindowsArgv(t *testing.T) {
	c := command(t, `icacls C:\ /grant x:F /T`)
	got := shown(cmdfacts.WindowsArgv(c.Args))
	want := []string{"icacls", `C:\`, "/grant", "x:F", "/T"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	c = command(t, `icacls 'C:\ x' /T`)
	if got := shown(cmdfacts.WindowsArgv(c.Args)); len(got) != 3 {
		t.Errorf("a quoted word must stay whole: %q", got)
	}
}

type containerCase struct {
	Command string   `json:"command"`
	Cmd     []string `json:"cmd"`
	Mounts  []string `json:"mounts"` // HOST:TARGET, :ro when read-only
	Workdir string   `json:"workdir"`
	Devices bool     `json:"devices"`
	NotRun  bool     `json:"not_run"`
}

// TestContainerRun runs testdata/containers.json through ContainerSub
// and ParseContainerRun.
func TestContainerRun(t *testing.T) {
	for _, tc := range load[containerCase](t, "containers.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			k := cmdfacts.ContainerSub(c.Args[1:])
			if k < 0 {
				if !tc.NotRun {
					t.Fatal("not read as a run")
				}
				return
			}
			r, _ := cmdfacts.ParseContainerRun(c.Args[1+k:])
			var mounts []string
			for _, m := range r.Mounts {
				s := m.Host.Value + ":" + m.Target.Value
				if m.ReadOnly {
					s += ":ro"
				}
				mounts = append(mounts, s)
			}
			wd := ""
			if r.Workdir != nil {
				wd = r.Workdir.Value
			}
			if !slices.Equal(nonNil(shown(r.Cmd)), nonNil(tc.Cmd)) || !slices.Equal(nonNil(mounts), nonNil(tc.Mounts)) ||
				wd != tc.Workdir || r.HostDevices != tc.Devices || tc.NotRun {
				t.Errorf("got cmd %q mounts %q workdir %q devices %v", shown(r.Cmd), mounts, wd, r.HostDevices)
			}
		})
	}
}

// gitCodeCase is one row of testdata/gitcode.json.
type gitCodeCase struct {
	Name, Value string
	Unknown     bool
	Want        string // "", "shell", "program", "hooks", "config", "transport"
	Why         string
}

// TestGitCodeSetting runs testdata/gitcode.json: every code-running key
// of git's configuration, by kind, and the everyday values (booleans,
// empty values, well-known programs for the key's role) that stay silent.
func TestGitCodeSetting(t *testing.T) {
	kinds := map[cmdfacts.GitCode]string{cmdfacts.GitShell: "shell", cmdfacts.GitProgram: "program",
		cmdfacts.GitHooks: "hooks", cmdfacts.GitInclude: "config", cmdfacts.GitTransport: "transport"}
	for _, tc := range load[gitCodeCase](t, "gitcode.json") {
		code, ok := cmdfacts.GitCodeSetting(tc.Name, tc.Value, tc.Unknown)
		got := ""
		if ok {
			got = kinds[code]
		}
		if got != tc.Want {
			t.Errorf("%s=%q (unknown %v): got %q, want %q (%s)", tc.Name, tc.Value, tc.Unknown, got, tc.Want, tc.Why)
		}
	}
}

// textCase is one row of a table whose input is a text and whose answer a
// list of strings (gitconfigfile.json, diffpaths.json).
type textCase struct {
	Text string
	Want []string
	Why  string
}

// runTextCases runs the table file through f.
func runTextCases(t *testing.T, file string, f func(string) []string) {
	t.Helper()
	for _, c := range load[textCase](t, file) {
		got := f(c.Text)
		if got == nil {
			got = []string{}
		}
		if !slices.Equal(got, c.Want) {
			t.Errorf("%s: %q: got %q, want %q (%s)", file, c.Text, got, c.Want, c.Why)
		}
	}
}

// TestParseGitConfig runs testdata/gitconfigfile.json: the key = value
// lines git reads from a configuration file.
func TestParseGitConfig(t *testing.T) {
	runTextCases(t, "gitconfigfile.json", func(text string) []string {
		var out []string
		for _, e := range cmdfacts.ParseGitConfig([]byte(text)) {
			out = append(out, e.Key+"="+e.Value)
		}
		return out
	})
}

// TestDiffPaths runs testdata/diffpaths.json: the paths a unified diff
// names.
func TestDiffPaths(t *testing.T) {
	runTextCases(t, "diffpaths.json", cmdfacts.DiffPaths)
	if cmdfacts.StripDiffPath("a/b/c", 1) != "b/c" || cmdfacts.StripDiffPath("a", 1) != "" || cmdfacts.StripDiffPath("a/b", 0) != "a/b" {
		t.Error("StripDiffPath")
	}
}
