package winshell

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// readJSON decodes testdata/<name> into v.
func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join("..", "testdata", name) // the corpora the shell packages share
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
}

// splitCase is one case of testdata/windows_split.json.
type splitCase struct {
	Name      string            `json:"name"`
	Dialect   string            `json:"dialect"` // "powershell" or "cmd"
	Src       string            `json:"src"`
	Env       map[string]string `json:"env"`
	Want      []string          `json:"want"`
	Truncated bool              `json:"truncated"`
}

func (c splitCase) dialect() ir.Dialect {
	if c.Dialect == "cmd" {
		return ir.Cmd
	}
	return ir.PowerShell
}

func mapLookup(env map[string]string) func(string) (string, bool) {
	if env == nil {
		return nil
	}
	return func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
}

// render shows a segment on one line:
//
//	DEPTH[^PARENT][/VIA][ =] [word]... REDIRECTS [SEP] [->FEEDS]
//
// A word is [Value]; an unknown one is followed by ? (and (KnownPrefix)
// when that is not empty); a glob word by *. A redirect is FD OP[target].
// "=" marks an expression statement; NL is a newline separator.
func render(s Segment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d", s.Depth)
	if s.Parent >= 0 {
		fmt.Fprintf(&b, "^%d", s.Parent)
	}
	if s.Via != "" {
		b.WriteString("/" + s.Via)
	}
	if s.Expression {
		b.WriteString(" =")
	}
	for _, w := range s.Words {
		b.WriteString(" " + renderWord(w))
	}
	for _, r := range s.Redirects {
		fmt.Fprintf(&b, " %s%s%s", r.Fd, r.Op, renderWord(r.Target))
	}
	switch s.Sep {
	case "":
	case "\n":
		b.WriteString(" NL")
	default:
		b.WriteString(" " + s.Sep)
	}
	if s.FeedsInto >= 0 {
		fmt.Fprintf(&b, " ->%d", s.FeedsInto)
	}
	return b.String()
}

func renderWord(w ir.Word) string {
	s := "[" + w.Value + "]"
	if w.Unknown {
		s += "?"
		if w.KnownPrefix != "" {
			s += "(" + w.KnownPrefix + ")"
		}
	}
	if w.Glob {
		s += "*"
	}
	return s
}

// checkInvariants checks what must hold for every split of any input.
func checkInvariants(t *testing.T, src string, segs []Segment) {
	t.Helper()
	if len(segs) > maxSegments+1 {
		t.Fatalf("%q: %d segments, over the cap", src, len(segs))
	}
	for i, s := range segs {
		if s.Parent < -1 || s.Parent >= i {
			t.Fatalf("%q: segment %d has parent %d", src, i, s.Parent)
		}
		if s.Parent == -1 && s.Depth != 0 || s.Parent >= 0 && s.Depth != segs[s.Parent].Depth+1 {
			t.Fatalf("%q: segment %d depth %d does not follow its parent", src, i, s.Depth)
		}
		if s.FeedsInto != -1 && (s.FeedsInto <= i || s.FeedsInto >= len(segs) || s.Sep != "|") {
			t.Fatalf("%q: segment %d feeds %d (sep %q)", src, i, s.FeedsInto, s.Sep)
		}
		if len(s.Words) == 0 && len(s.Redirects) == 0 {
			t.Fatalf("%q: segment %d is empty", src, i)
		}
		words := append([]ir.Word(nil), s.Words...)
		for _, r := range s.Redirects {
			if r.Target.Raw != "" || r.Target.Value != "" {
				words = append(words, r.Target)
			}
		}
		for _, w := range words {
			if w.Raw == "" {
				t.Fatalf("%q: segment %d has a word without source text: %+v", src, i, w)
			}
			if !strings.HasPrefix(w.Value, w.KnownPrefix) || !w.Unknown && w.KnownPrefix != w.Value {
				t.Fatalf("%q: segment %d word %+v: bad KnownPrefix", src, i, w)
			}
		}
	}
}

func TestWindowsSplit(t *testing.T) {
	var cases []splitCase
	readJSON(t, "windows_split.json", &cases)
	if len(cases) < 60 {
		t.Fatalf("only %d split cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			segs, truncated := Split(c.dialect(), c.Src, mapLookup(c.Env))
			checkInvariants(t, c.Src, segs)
			got := make([]string, len(segs))
			for i, s := range segs {
				got[i] = render(s)
			}
			if !reflect.DeepEqual(got, c.Want) || truncated != c.Truncated {
				t.Errorf("%s %q\n got (truncated=%v):\n  %s\nwant (truncated=%v):\n  %s", c.Dialect, c.Src,
					truncated, strings.Join(got, "\n  "), c.Truncated, strings.Join(c.Want, "\n  "))
			}
		})
	}
}

// TestWindowsSplitWrappers checks the two lookup-free entry points agree
// with Split.
func TestWindowsSplitWrappers(t *testing.T) {
	ps := `Remove-Item $env:TEMP\x -Recurse; del $HOME`
	want, _ := Split(ir.PowerShell, ps, nil)
	if got := splitPowerShell(ps); !reflect.DeepEqual(got, want) || len(got) != 2 || !got[0].Words[1].Unknown {
		t.Errorf("splitPowerShell(%q) = %+v", ps, got)
	}
	cmd := `del %TEMP%\x & rd /s /q C:\`
	wantCmd, _ := Split(ir.Cmd, cmd, nil)
	if got := splitCmd(cmd); !reflect.DeepEqual(got, wantCmd) || len(got) != 2 || !got[0].Words[1].Unknown {
		t.Errorf("splitCmd(%q) = %+v", cmd, got)
	}
}

// TestWindowsSplitLimits feeds pathological inputs: they must finish, stay
// within the caps and report truncation.
func TestWindowsSplitLimits(t *testing.T) {
	big := strings.Repeat("a", maxSource+10)
	cases := []struct {
		name      string
		d         ir.Dialect
		src       string
		truncated bool
	}{
		{"ps deep parens", ir.PowerShell, strings.Repeat("(", 100000), true},
		{"ps deep subexpr", ir.PowerShell, strings.Repeat("$(", 50000), true},
		{"ps deep braces in strings", ir.PowerShell, strings.Repeat(`"$(`, 30000), true},
		{"ps many statements", ir.PowerShell, strings.Repeat("a;", 10000), true},
		{"ps nested iex", ir.PowerShell, nestIex(`rm C:\`, ir.MaxDepth+3), true},
		{"ps huge word", ir.PowerShell, big, true},
		{"ps subexpressions in an unclosed here-string", ir.PowerShell, "@\"\n" + strings.Repeat("$(x) ", 20000), true},
		{"cmd deep parens", ir.Cmd, strings.Repeat("(", 100000), true},
		{"cmd many statements", ir.Cmd, strings.Repeat("a&", 10000), true},
		{"cmd deep ifs", ir.Cmd, strings.Repeat("if 1==1 ", 20000) + "del x", true},
		{"cmd carets", ir.Cmd, strings.Repeat("^", 100001), false},
		{"cmd percents", ir.Cmd, strings.Repeat("%a", 50000), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			segs, truncated := Split(c.d, c.src, nil)
			checkInvariants(t, c.name, segs)
			if truncated != c.truncated {
				t.Errorf("truncated = %v, want %v (%d segments)", truncated, c.truncated, len(segs))
			}
		})
	}
}

// nestIex wraps code in n levels of iex '...', quoting each level.
func nestIex(code string, n int) string {
	for i := 0; i < n; i++ {
		code = "iex '" + strings.ReplaceAll(code, "'", "''") + "'"
	}
	return code
}

// bindCase is one case of testdata/windows_bind.json: the first segment
// of a PowerShell text, bound.
type bindCase struct {
	Name       string              `json:"name"`
	Src        string              `json:"src"`
	Cmdlet     string              `json:"cmdlet"`
	Known      bool                `json:"known"`
	Named      map[string][]string `json:"named"`
	Switches   map[string]bool     `json:"switches"`
	Positional []string            `json:"positional"`
	Args       []string            `json:"args"`
	WhatIf     bool                `json:"whatif"`
	Deletes    []string            `json:"deletes"`
	Writes     []string            `json:"writes"`
}

func values(ws []ir.Word) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Value)
	}
	return out
}

func TestParsePowerShellCommand(t *testing.T) {
	var cases []bindCase
	readJSON(t, "windows_bind.json", &cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			segs := splitPowerShell(c.Src)
			if len(segs) == 0 {
				t.Fatalf("no segment in %q", c.Src)
			}
			got := ParsePowerShellCommand(segs[0].Words)
			named := map[string][]string{}
			for k, v := range got.Named {
				named[k] = values(v)
			}
			if c.Named == nil {
				c.Named = map[string][]string{}
			}
			if c.Switches == nil {
				c.Switches = map[string]bool{}
			}
			dels, writes := got.Targets()
			if got.Cmdlet != c.Cmdlet || got.Known != c.Known || got.WhatIf != c.WhatIf ||
				!reflect.DeepEqual(named, c.Named) || !reflect.DeepEqual(got.Switches, c.Switches) ||
				!reflect.DeepEqual(values(got.Positional), c.Positional) ||
				c.Args != nil && !reflect.DeepEqual(values(got.Args), c.Args) ||
				!reflect.DeepEqual(values(dels), c.Deletes) || !reflect.DeepEqual(values(writes), c.Writes) {
				t.Errorf("%q:\n got cmdlet=%q known=%v whatif=%v named=%v switches=%v positional=%q args=%q deletes=%q writes=%q\n"+
					"want cmdlet=%q known=%v whatif=%v named=%v switches=%v positional=%q args=%q deletes=%q writes=%q",
					c.Src, got.Cmdlet, got.Known, got.WhatIf, named, got.Switches, values(got.Positional), values(got.Args),
					values(dels), values(writes),
					c.Cmdlet, c.Known, c.WhatIf, c.Named, c.Switches, c.Positional, c.Args, c.Deletes, c.Writes)
			}
		})
	}
}

func TestPowerShellCmdlet(t *testing.T) {
	var cases map[string]string // name -> canonical ("" = unknown)
	readJSON(t, "windows_cmdlets.json", &cases)
	for name, want := range cases {
		got, known := PowerShellCmdlet(name)
		if want == "" {
			if known || got != name {
				t.Errorf("PowerShellCmdlet(%q) = %q, %v; want unknown", name, got, known)
			}
			continue
		}
		if !known || got != want {
			t.Errorf("PowerShellCmdlet(%q) = %q, %v; want %q", name, got, known, want)
		}
	}
}

// payloadCase is one case of testdata/windows_payload.json.
type payloadCase struct {
	Name        string   `json:"name"`
	Host        string   `json:"host"` // "powershell" or "cmd"
	Args        []string `json:"args"`
	OK          bool     `json:"ok"`
	Code        string   `json:"code"`
	Encoded     bool     `json:"encoded"`
	Undecodable bool     `json:"undecodable"`
	File        string   `json:"file"`
	Stdin       bool     `json:"stdin"`
	Via         string   `json:"via"`
	// Split, when given, is the rendered split of Code in the payload's
	// dialect (the payload as the analysis would see it).
	Split []string `json:"split"`
}

func TestHostPayload(t *testing.T) {
	var cases []payloadCase
	readJSON(t, "windows_payload.json", &cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var h HostPayload
			var ok bool
			if c.Host == "cmd" {
				h, ok = CmdPayload(c.Args)
			} else {
				h, ok = PowerShellPayload(c.Args)
			}
			if ok != c.OK || h.Code != c.Code || h.Encoded != c.Encoded || h.Undecodable != c.Undecodable ||
				h.File != c.File || h.Stdin != c.Stdin || ok && h.Via != c.Via {
				t.Errorf("%s %q:\n got ok=%v %+v\nwant ok=%v code=%q encoded=%v undecodable=%v file=%q stdin=%v via=%q",
					c.Host, c.Args, ok, h, c.OK, c.Code, c.Encoded, c.Undecodable, c.File, c.Stdin, c.Via)
			}
			if c.Split != nil {
				segs, _ := Split(h.Dialect, h.Code, nil)
				var got []string
				for _, s := range segs {
					got = append(got, render(s))
				}
				if !reflect.DeepEqual(got, c.Split) {
					t.Errorf("split of %q:\n got %q\nwant %q", h.Code, got, c.Split)
				}
			}
		})
	}
}

func TestDecodePowerShellEncoded(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		// "Remove-Item C:\ -Recurse" as UTF-16LE, base64.
		{"UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAQwA6AFwAIAAtAFIAZQBjAHUAcgBzAGUA", `Remove-Item C:\ -Recurse`, true},
		// The same without padding, with blanks and quotes around it.
		{" 'UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAQwA6AFwAIAAtAFIAZQBjAHUAcgBzAGUA' ", `Remove-Item C:\ -Recurse`, true},
		// "é€" (BMP, non-ASCII) with a byte-order mark.
		{"//7pAKwg", "é€", true},
		// "😀" (a surrogate pair).
		{"PdgA3g==", "😀", true},
		{"", "", false},
		{"!!!not base64!!!", "", false},
		{"QQ==", "", false}, // one byte: no UTF-16 unit
	}
	for _, c := range cases {
		got, ok := decodePowerShellEncoded(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("decodePowerShellEncoded(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestCmdSwitches(t *testing.T) {
	cases := []struct {
		src      string
		switches []string
		operands []string
	}{
		{`del /s /q C:\temp\*`, []string{"s", "q"}, []string{`C:\temp\*`}},
		{`rd/s/q C:\`, []string{"s", "q"}, []string{`C:\`}},
		{`dir /a:h /b`, []string{"a:h", "b"}, nil},
		{`del /F /Q /A:R x.txt`, []string{"f", "q", "a:r"}, []string{"x.txt"}},
		{`del /tmp/x /etc`, []string{"etc"}, []string{"/tmp/x"}},
		{`rd /s /q %TEMP%\x`, []string{"s", "q"}, []string{`%TEMP%\x`}},
		{`xcopy /e /i /y src C:\dst`, []string{"e", "i", "y"}, []string{"src", `C:\dst`}},
		{`robocopy a b /MIR /R:3`, []string{"mir", "r:3"}, []string{"a", "b"}},
	}
	for _, c := range cases {
		segs := splitCmd(c.src)
		sw, ops := CmdSwitches(segs[0].Words)
		if !reflect.DeepEqual(sw, c.switches) || !reflect.DeepEqual(values(ops), c.operands) {
			t.Errorf("CmdSwitches(%q) = %q, %q; want %q, %q", c.src, sw, values(ops), c.switches, c.operands)
		}
	}
}

// fuzzLookup knows a few variables, so the fuzzer reaches resolution.
var fuzzLookup = mapLookup(map[string]string{"USERPROFILE": `C:\Users\me`, "TEMP": `C:\Temp`, "HOME": `C:\Users\me`})

func fuzzSeeds(f *testing.F, dialect string) {
	var cases []splitCase
	readJSON(f, "windows_split.json", &cases)
	for _, c := range cases {
		if c.Dialect == dialect {
			f.Add(c.Src)
		}
	}
}

func FuzzSplitPowerShell(f *testing.F) {
	fuzzSeeds(f, "powershell")
	f.Fuzz(func(t *testing.T, src string) {
		segs, truncated := Split(ir.PowerShell, src, fuzzLookup)
		checkInvariants(t, src, segs)
		if len(src) > maxSource && !truncated {
			t.Fatalf("input of %d bytes not reported truncated", len(src))
		}
	})
}

func FuzzSplitCmd(f *testing.F) {
	fuzzSeeds(f, "cmd")
	f.Fuzz(func(t *testing.T, src string) {
		segs, truncated := Split(ir.Cmd, src, fuzzLookup)
		checkInvariants(t, src, segs)
		if len(src) > maxSource && !truncated {
			t.Fatalf("input of %d bytes not reported truncated", len(src))
		}
		if h, ok := CmdPayload(strings.Fields(src)); ok && h.Code == "" {
			t.Fatalf("CmdPayload(%q) ok with empty code", src)
		}
		if _, ok := PowerShellPayload(strings.Fields(src)); ok {
			_ = ok // must not panic; the result is checked by the table test
		}
	})
}

var benchPS = `Get-ChildItem -Path $env:USERPROFILE\Downloads -Recurse -Filter *.tmp | Where-Object { $_.Length -gt 1mb } | ForEach-Object { Remove-Item $_.FullName -Force -ErrorAction SilentlyContinue }; Write-Host "done"`
var benchCmd = `if exist "%TEMP%\build" (rd /s /q "%TEMP%\build") & mkdir "%TEMP%\build" && xcopy /e /i /y src "%TEMP%\build" > nul 2>&1 || echo failed ^& stopped`

func BenchmarkSplitPowerShell(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Split(ir.PowerShell, benchPS, fuzzLookup)
	}
}

func BenchmarkSplitCmd(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Split(ir.Cmd, benchCmd, fuzzLookup)
	}
}

// BenchmarkSplitPowerShellWorst measures the worst shape found: the
// largest input, nested to the limit.
func BenchmarkSplitPowerShellWorst(b *testing.B) {
	src := strings.Repeat(`"$(`, maxSource/3)
	b.ReportAllocs()
	for b.Loop() {
		Split(ir.PowerShell, src, nil)
	}
}
