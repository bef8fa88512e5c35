package danger

import (
	"context"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell"
)

// This file bridges known gaps of core/shell, each in one function marked
// "Known core/shell gap". They are meant to move into core/shell; until
// then they stay small and self-contained so that moving them only
// deletes code here.

// gapLiteralStdin judges literal code piped into an interpreter
// (echo "import shutil; shutil.rmtree('/')" | python3) as the script it
// is: its file effects, and the shell commands it runs one level deeper.
// k is the feeding command (echo or printf with known arguments).
//
// Known core/shell gap: the analysis follows literal text piped into a
// shell (echo ... | sh), and heredocs into an interpreter, but not a pipe
// into an interpreter.
func gapLiteralStdin(v *cmdv, k int) {
	j := v.j
	lang := interpreterLang(v.name)
	if j.nested > 0 || lang == "" || shells[v.name] {
		return
	}
	text, ok := literalOutput(j.view(k))
	if !ok || strings.TrimSpace(text) == "" {
		return
	}
	v.judgeEffects(v.display()+" stdin", text, shell.ScriptEffects(lang, text))
	for _, line := range shell.ScriptExecs(lang, text) {
		j.nestedScript(v, line, shell.Bash)
	}
}

// nestedScript analyses text as a script run by v, in v's directory, and
// judges it with this judge's settings; its reasons join ours.
func (j *judge) nestedScript(v *cmdv, text string, dialect shell.Dialect) {
	base, _ := v.baseDir()
	cwd := ""
	if base.IsAbs() {
		cwd = base.Norm
	}
	s := shell.Analyze(text, shell.Options{Dialect: dialect, Cwd: cwd, Home: j.plat.Home, Lookup: j.plat.Lookup})
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	sub := &judge{plat: j.plat, en: j.en, s: s, cwd: j.callCwd(), cwdDone: true, custom: j.custom, seen: j.seen, nested: j.nested + 1}
	if base.IsAbs() {
		sub.cwd = base
	}
	_ = sub.run(context.Background()) // a nested script is small; no deadline to honour
	j.reasons = append(j.reasons, sub.reasons...)
}

// literalOutput returns what echo or printf prints when all its arguments
// are known.
func literalOutput(u *cmdv) (string, bool) {
	args := u.args
	for _, a := range args {
		if a.Unknown {
			return "", false
		}
	}
	switch u.name {
	case "echo":
		escapes := false
		for len(args) > 0 && len(args[0].Value) > 1 && args[0].Value[0] == '-' && strings.Trim(args[0].Value[1:], "neE") == "" {
			escapes = escapes || strings.Contains(args[0].Value, "e")
			args = args[1:]
		}
		vals := make([]string, len(args))
		for i, a := range args {
			vals[i] = a.Value
		}
		out := strings.Join(vals, " ")
		if escapes {
			out = unescapeC(out)
		}
		return out, true
	case "printf":
		if len(args) == 0 {
			return "", false
		}
		out := args[0].Value
		for _, a := range args[1:] {
			i := strings.Index(out, "%s")
			if i < 0 {
				i = strings.Index(out, "%b")
			}
			if i < 0 {
				break
			}
			out = out[:i] + a.Value + out[i+2:]
		}
		return unescapeC(strings.ReplaceAll(out, "%%", "%")), true
	}
	return "", false
}

// unescapeC turns the \n, \t and \\ escapes of echo -e and printf into
// the characters.
func unescapeC(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(s)
}

// gapPowerShellGroupFeed reports that a PowerShell command inside (...) or
// $(...) of another PowerShell command feeds that command (iex (irm URL),
// Invoke-Expression $(iwr URL).Content), and returns it.
//
// Known core/shell gap: the Windows splitter nests these commands under
// their parent but does not set FeedsInto as it does for $(...) in bash.
func gapPowerShellGroupFeed(s *shell.Script, k int) (int, bool) {
	c := &s.Commands[k]
	if c.Dialect != shell.PowerShell || c.FeedsInto >= 0 || c.Parent < 0 || c.Parent >= len(s.Commands) || len(c.Via) == 0 {
		return -1, false
	}
	if last := c.Via[len(c.Via)-1]; last != "()" && last != "$()" {
		return -1, false
	}
	if s.Commands[c.Parent].Dialect != shell.PowerShell {
		return -1, false
	}
	return c.Parent, true
}

// ruleStartProcess analyses what Start-Process starts: its -FilePath with
// its -ArgumentList, as a PowerShell command line (Start-Process cmd
// -ArgumentList '/c rd /s /q C:\' runs cmd /c rd /s /q C:\).
//
// Known core/shell gap: Start-Process is not followed as a wrapper.
func ruleStartProcess(v *cmdv) {
	pc := shell.ParsePowerShellCommand(v.c.Args)
	prog := pc.Named["filepath"]
	if len(prog) != 1 || prog[0].Unknown || v.j.nested >= maxAliasNesting {
		return
	}
	text := psQuoteArg(prog[0].Value)
	for _, a := range pc.Named["argumentlist"] {
		if a.Unknown {
			return
		}
		text += " " + a.Value
	}
	v.j.nestedScript(v, text, shell.PowerShell)
}

// psQuoteArg quotes a program path for a PowerShell command line when it
// holds a space.
func psQuoteArg(s string) string {
	if strings.ContainsAny(s, " \t") {
		return "& '" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// gapWebClient reports New-Object Net.WebClient (its DownloadString result
// is what (New-Object Net.WebClient).DownloadString(URL) yields), part of
// the PowerShell group-feed gap above.
func gapWebClient(u *cmdv) bool {
	if u.name != "new-object" {
		return false
	}
	for _, a := range u.args {
		if strings.Contains(strings.ToLower(a.Value), "webclient") {
			return true
		}
	}
	return false
}

// gapWebClientArgs: Invoke-Expression whose argument text calls
// .DownloadString(...) / .DownloadData(...) ($wc.DownloadString(URL)),
// which the splitter keeps as opaque expression words.
func gapWebClientArgs(v *cmdv) {
	for _, a := range v.args {
		l := strings.ToLower(a.Raw)
		if strings.Contains(l, ".downloadstring") || strings.Contains(l, ".downloaddata") {
			v.j.add(finding{rule: "DG-RCE-PIPE", cmd: webClientName, detail: v.display()})
			return
		}
	}
}

// webClientName is how messages name a Net.WebClient download.
const webClientName = "Net.WebClient"

// gapPowerShellText scans PowerShell code for .NET static file calls
// ([System.IO.Directory]::Delete("C:\Users\x", $true), [IO.File]::Delete,
// WriteAllText, Copy, Move ...) with a literal path: the top-level text of
// a PowerShell call and the -Command payload of every powershell/pwsh
// command.
//
// Known core/shell gap: such calls are expressions, so the analysis has no
// Command for them.
func (j *judge) gapPowerShellText() {
	if j.s.Dialect == shell.PowerShell {
		j.dotNetCalls(j.s.Source)
	}
	for i := range j.s.Commands {
		c := &j.s.Commands[i]
		if c.Name != "powershell" && c.Name != "pwsh" {
			continue
		}
		if h, ok := shell.PowerShellPayload(c.ArgValues()); ok && h.Code != "" {
			j.dotNetCalls(h.Code)
		}
	}
}

// dotNetOp is what one argument of a .NET file call does.
type dotNetOp struct {
	arg   int
	write bool // else delete
}

// dotNetOps returns the effects of Type::Method (both lower-case, without
// a "system." prefix).
func dotNetOps(typ, method string) []dotNetOp {
	switch typ {
	case "io.directory", "directory":
		if method == "delete" {
			return []dotNetOp{{0, false}}
		}
	case "io.file", "file":
		switch method {
		case "delete":
			return []dotNetOp{{0, false}}
		case "writealltext", "writeallbytes", "writealllines", "appendalltext", "appendalllines",
			"create", "createtext", "openwrite", "appendtext":
			return []dotNetOp{{0, true}}
		case "copy", "replace":
			return []dotNetOp{{1, true}}
		case "move":
			return []dotNetOp{{0, false}, {1, true}}
		}
	case "microsoft.visualbasic.fileio.filesystem", "fileio.filesystem":
		if method == "deletedirectory" || method == "deletefile" {
			return []dotNetOp{{0, false}}
		}
	}
	return nil
}

// dotNetCalls finds the .NET file calls of text and judges their literal
// paths.
func (j *judge) dotNetCalls(text string) {
	lower := strings.ToLower(text)
	for off := 0; off < len(lower); {
		i := strings.Index(lower[off:], "]::")
		if i < 0 {
			return
		}
		i += off
		off = i + 3
		open := strings.LastIndexByte(lower[:i], '[')
		if open < 0 {
			continue
		}
		typ := strings.TrimPrefix(strings.TrimSpace(lower[open+1:i]), "system.")
		end := off
		for end < len(lower) && isNameByte(lower[end]) {
			end++
		}
		ops := dotNetOps(typ, lower[off:end])
		if len(ops) == 0 {
			continue
		}
		rest := strings.TrimLeft(text[end:], " \t")
		if !strings.HasPrefix(rest, "(") {
			continue
		}
		args := psLiteralArgs(rest[1:], 2)
		v := j.pseudo(text[open:end])
		var dels, writes []shell.Word
		for _, op := range ops {
			if op.arg >= len(args) || args[op.arg] == "" {
				continue
			}
			if op.write {
				writes = append(writes, textWord(args[op.arg]))
			} else {
				dels = append(dels, textWord(args[op.arg]))
			}
		}
		hs := v.targets(dels, hitCatastrophic|hitCritical)
		v.report("DG-PS-REMOVE", "", pick(hs, hitCatastrophic))
		v.report("DG-CRITICAL-FILE", "", pick(hs, hitCritical))
		v.writes(writes)
	}
}

// pseudo is a command-less view for judging paths found in text, resolved
// against the call's cwd and named as display.
func (j *judge) pseudo(display string) *cmdv {
	return &cmdv{j: j, i: -1, c: &shell.Command{Args: []shell.Word{textWord(display)}, Parent: -1, FeedsInto: -1}, name: display}
}

// psLiteralArgs reads up to n comma-separated arguments of a PowerShell
// method call (s starts after the "("): the value of each quoted literal,
// "" for anything else. It stops at the closing parenthesis.
func psLiteralArgs(s string, n int) []string {
	var out []string
	for len(out) < n {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" || s[0] == ')' {
			return out
		}
		val, rest, ok := psLiteral(s)
		if !ok {
			// Not a literal: skip to the next comma or the end of the call.
			depth, i := 0, 0
			for ; i < len(s); i++ {
				c := s[i]
				if c == '(' {
					depth++
				} else if c == ')' {
					if depth == 0 {
						break
					}
					depth--
				} else if c == ',' && depth == 0 {
					break
				}
			}
			val, rest = "", s[i:]
		}
		out = append(out, val)
		rest = strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(rest, ",") {
			return out
		}
		s = rest[1:]
	}
	return out
}

// psLiteral reads a PowerShell string literal at the start of s: '...'
// with ” for a quote, or "..." with `" or "" for a quote.
func psLiteral(s string) (val, rest string, ok bool) {
	if s == "" || s[0] != '\'' && s[0] != '"' {
		return "", s, false
	}
	q := s[0]
	var sb strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case q == '"' && c == '`' && i+1 < len(s):
			i++
			sb.WriteByte(s[i])
		case c == q && i+1 < len(s) && s[i+1] == q:
			sb.WriteByte(q)
			i++
		case c == q:
			return sb.String(), s[i+1:], true
		default:
			sb.WriteByte(c)
		}
	}
	return "", s, false
}
