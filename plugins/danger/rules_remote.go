package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// ---------------------------------------------------------------------------
// Remote code execution: downloads piped into, or saved and run by, a
// shell or an interpreter (DG-RCE-PIPE, DG-RCE-DECODED).

// fetchers are the commands whose output is content from the network.
var fetchers = map[string]bool{
	"curl": true, "wget": true, "fetch": true, "http": true, "https": true, "xh": true, "nc": true, "ncat": true,
	"netcat": true, "socat": true, "invoke-webrequest": true, "invoke-restmethod": true,
}

// runsCode says where the command takes code from: stdin (a pipe feeding
// it is code) and words (a $(...) or <(...) in its arguments is code).
func (v *cmdv) runsCode() (stdin, words bool) {
	switch {
	case cmdfacts.IsShell(v.name):
		return v.shellReadsStdin(), true
	case v.name == "powershell" || v.name == "pwsh":
		h, ok := winshell.PowerShellPayload(v.c.ArgValues())
		return h.Stdin || !ok || h.Code == "-", true
	case v.name == "cmd":
		_, ok := winshell.CmdPayload(v.c.ArgValues())
		return !ok, true
	case v.name == "eval":
		return false, true
	case v.name == "source" || v.name == ".":
		return hasWord(v.args, "/dev/stdin", "-"), true
	case v.name == "invoke-expression":
		return true, true
	case v.name == "[system.management.automation.scriptblock]::create", v.name == "invoke-command",
		v.name == "start-job", v.name == "start-threadjob":
		// A script block made from text, or run in place: the text is code.
		return false, true
	case v.name == "" && v.c.Dialect == ir.PowerShell && len(v.c.Args) > 0 && !strings.HasPrefix(v.c.Args[0].Raw, "{"):
		// & (...) / . (...) / & $sb: the command is whatever the expression
		// gives (a block written in place, & { ... }, is not).
		return false, true
	case v.name == "" && v.c.Dialect == ir.Bash && len(v.c.Args) > 0 && v.c.Args[0].Unknown &&
		v.c.Args[0].KnownPrefix == "":
		// $(...) / `...` as the command word: the command is whatever the
		// substitution prints, run as argv.
		return false, true
	case v.name == "at" || v.name == "batch":
		return !cmdfacts.HasShort(v.args, "f"), false
	}
	if cmdfacts.InterpreterLang(v.name) == "" {
		return false, false
	}
	return cmdfacts.ProgramFromStdin(v.c), true
}

// shellReadsStdin reports whether a shell takes its script from stdin: no
// -c, and no script operand (or -s, or "-" / /dev/stdin as the script).
func (v *cmdv) shellReadsStdin() bool {
	s := false
	for i := 0; i < len(v.args); i++ {
		a := v.args[i]
		if a.Unknown {
			return false
		}
		x := a.Value
		switch {
		case x == "-" || x == "--":
			return true
		case x == "-o" || x == "+o" || x == "--rcfile" || x == "--init-file":
			i++
		case strings.HasPrefix(x, "--"):
		case len(x) > 1 && (x[0] == '-' || x[0] == '+'):
			if strings.Contains(x[1:], "c") {
				return false
			}
			s = s || strings.Contains(x[1:], "s")
		default:
			return s || x == "/dev/stdin"
		}
	}
	return true
}

// codeConsumer: a command that runs code fed to it from a fetcher
// (DG-RCE-PIPE), a decoder (DG-RCE-DECODED) or a rewriter
// (DG-RCE-TRANSFORMED), whatever the text becomes, by pipe into a stdin
// reader or by $(...) / <(...) / PowerShell (...) into its words.
func (v *cmdv) codeConsumer() {
	stdin, words := v.runsCode()
	if !stdin && !words {
		return
	}
	v.decodedVariable(words) // rules_psvar.go
	if t, kind := v.j.feedTarget(v.i); v.name == "[system.management.automation.scriptblock]::create" && t >= 0 &&
		kind == ir.FeedSubst {
		if _, w := v.j.view(t).runsCode(); w {
			return // the block goes on to iex / & / Invoke-Command, which is judged
		}
	}
	for _, k := range v.j.feeders(v.i) {
		_, kind := v.j.feedTarget(k)
		switch kind {
		case ir.FeedPipe:
			if !stdin {
				continue
			}
		case ir.FeedSubst, ir.FeedProcSubst, ir.FeedArgs:
			// FeedArgs: xargs puts the items in the words (xargs sh -c).
			if !words {
				continue
			}
		default:
			continue
		}
		fetch, decode := v.j.origin(k)
		switch {
		case fetch >= 0:
			name := v.j.view(fetch).display()
			if webClient(v.j.view(fetch)) {
				name = webClientName
			}
			v.j.add(finding{rule: rules.RCEPipe, cmd: name, detail: v.display()})
		case decode >= 0:
			rule := rules.RCEDecoded
			if cmdfacts.TextChangeOf(v.j.view(decode).c) == cmdfacts.Rewritten {
				rule = rules.RCETransformed
			}
			v.j.add(finding{rule: rule, cmd: v.j.view(decode).display(), detail: v.display()})
		case kind == ir.FeedPipe:
			gapLiteralStdin(v, k)
		}
	}
	if v.name == "invoke-expression" {
		webClientArgs(v)
	}
}

// download is a file a fetcher wrote, resolved, and the fetcher.
type download struct {
	path  paths.Path
	fetch int
}

// recordDownload remembers the files a fetcher writes (curl -o F / -O,
// wget [-O F], fetch -o F, Invoke-WebRequest -OutFile F), for
// runsDownload.
func (v *cmdv) recordDownload() {
	for _, w := range v.downloadTargets() {
		if w.Unknown || w.Value == "" || w.Value == "-" {
			continue
		}
		p := v.j.plat.Normalize(w.Value)
		if p.Kind == paths.Relative {
			base, _ := v.baseDir()
			p = v.j.plat.Join(base, p)
		}
		if p.IsAbs() {
			v.j.downloads = append(v.j.downloads, download{p, v.i})
		}
	}
}

// downloadTargets returns the files the command downloads into.
func (v *cmdv) downloadTargets() []ir.Word {
	switch v.name {
	case "curl", "fetch":
		return curlOutputs(v.args)
	case "wget":
		if o := cmdfacts.Value(v.args, "-O", "--output-document"); o != nil {
			return []ir.Word{*o}
		}
		for _, u := range cmdfacts.ParseCommand("wget", v.args).Operands {
			if b := urlBase(u.Value); b != "" {
				return []ir.Word{cmdfacts.Literal(b)}
			}
		}
	case "invoke-webrequest", "invoke-restmethod":
		return winshell.ParsePowerShellCommand(v.c.Args).Named["outfile"]
	}
	return nil
}

// curlOutputs returns curl's -o/--output files and, for -O/--remote-name,
// the base names of its URLs.
func curlOutputs(args []ir.Word) []ir.Word {
	var out []ir.Word
	remote := false
	for i := 0; i < len(args); i++ {
		s := args[i].Value
		switch {
		case args[i].Unknown:
		case s == "--output" && i+1 < len(args):
			i++
			out = append(out, args[i])
		case strings.HasPrefix(s, "--output="):
			out = append(out, cmdfacts.SubWord(args[i], len("--output=")))
		case s == "--remote-name" || s == "--remote-name-all":
			remote = true
		case len(s) > 1 && s[0] == '-' && s[1] != '-':
			for k := 1; k < len(s); k++ {
				switch s[k] {
				case 'O':
					remote = true
				case 'o':
					if k+1 < len(s) {
						out = append(out, cmdfacts.SubWord(args[i], k+1))
					} else if i+1 < len(args) {
						i++
						out = append(out, args[i])
					}
					k = len(s)
				}
			}
		}
	}
	if remote {
		for _, u := range cmdfacts.Operands(args) {
			if b := urlBase(u.Value); b != "" {
				out = append(out, cmdfacts.Literal(b))
			}
		}
	}
	return out
}

// urlBase returns the last path segment of an http(s)/ftp URL, or "".
func urlBase(u string) string {
	l := strings.ToLower(u)
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") && !strings.HasPrefix(l, "ftp://") {
		return ""
	}
	u = u[strings.Index(u, "://")+3:]
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	slash := strings.LastIndexByte(u, '/')
	if slash < 0 {
		return ""
	}
	return u[slash+1:]
}

// runsDownload: a command runs a file an earlier fetcher of the same
// command line downloaded (curl -o x.sh URL && sh x.sh, wget URL/i.sh &&
// bash i.sh, curl -LO URL/tool && ./tool): remote code run unseen, as
// with curl | sh (DG-RCE-PIPE).
func (v *cmdv) runsDownload() {
	if len(v.j.downloads) == 0 {
		return
	}
	w := v.scriptFile()
	if w == nil || w.Unknown {
		return
	}
	p := v.j.plat.Normalize(w.Value)
	if p.Kind == paths.Relative {
		base, _ := v.baseDir()
		p = v.j.plat.Join(base, p)
	}
	if !p.IsAbs() {
		return
	}
	for _, d := range v.j.downloads {
		if d.fetch < v.i && v.j.plat.Contains(d.path, p) && v.j.plat.Contains(p, d.path) {
			v.j.add(finding{rule: rules.RCEPipe, cmd: v.j.view(d.fetch).display(), detail: v.display() + " " + w.Value})
			return
		}
	}
}

// scriptFile returns the file the command runs as a program or script: a
// command word with a directory (./install.sh), the script operand of a
// shell or interpreter, what source or . reads, powershell -File.
func (v *cmdv) scriptFile() *ir.Word {
	if len(v.c.Args) > 0 && strings.ContainsAny(v.c.Args[0].Value, `/\`) && !v.c.Args[0].Unknown {
		return &v.c.Args[0]
	}
	switch {
	case v.name == "source" || v.name == ".":
		if ops := cmdfacts.Operands(v.args); len(ops) > 0 {
			return &ops[0]
		}
	case v.name == "powershell" || v.name == "pwsh":
		if h, ok := winshell.PowerShellPayload(v.c.ArgValues()); ok && h.File != "" {
			w := cmdfacts.Literal(h.File)
			return &w
		}
	case cmdfacts.IsShell(v.name), cmdfacts.InterpreterLang(v.name) != "":
		stdin, _ := v.runsCode()
		if stdin || len(cmdfacts.InlineScripts(v.c)) > 0 {
			return nil
		}
		for i := 0; i < len(v.args); i++ {
			a := v.args[i]
			if a.Unknown || !strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "+") {
				return &v.args[i]
			}
			if a.Value == "-o" || a.Value == "+o" || a.Value == "--rcfile" || a.Value == "--init-file" {
				i++
			}
		}
	}
	return nil
}

// webClient reports New-Object Net.WebClient: what its DownloadString
// returns is remote content ((New-Object Net.WebClient).DownloadString(URL)).
func webClient(u *cmdv) bool {
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

// webClientArgs: Invoke-Expression whose argument text calls
// .DownloadString(...) / .DownloadData(...) on a client made earlier
// ($wc.DownloadString(URL)), an expression the analysis keeps opaque.
func webClientArgs(v *cmdv) {
	for _, a := range v.args {
		l := strings.ToLower(a.Raw)
		if strings.Contains(l, ".downloadstring") || strings.Contains(l, ".downloaddata") {
			v.j.add(finding{rule: rules.RCEPipe, cmd: webClientName, detail: v.display()})
			return
		}
	}
}

// webClientName is how messages name a Net.WebClient download.
const webClientName = "Net.WebClient"

// origin looks at command k and everything upstream of it for the first
// fetcher and the first decoder (-1 when none).
func (j *judge) origin(k int) (fetch, decode int) {
	fetch, decode = -1, -1
	check := func(i int) bool {
		u := j.view(i)
		switch {
		case fetchers[u.name] || webClient(u):
			fetch = i
			return false
		case decode < 0 && u.isDecoder():
			decode = i
		}
		return true
	}
	if check(k) {
		j.upstream(k, func(i int, _ ir.FeedKind) bool { return check(i) })
	}
	return fetch, decode
}

// isDecoder reports a command that decodes or rewrites the text it
// outputs (cmdfacts.TextChangeOf).
func (v *cmdv) isDecoder() bool {
	return cmdfacts.TextChangeOf(v.c) != cmdfacts.Unchanged
}
