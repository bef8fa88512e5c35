package winshell

import (
	"github.com/zcode-fence/zcode-fence/core/ir"
	"strings"
)

// PowerShell .NET static method calls, value feeds of PowerShell blocks,
// and the programs Start-Process (and cmd.exe's start) run.

// StaticCall recognises segment i as a static method call
// ([System.IO.Directory]::Delete("C:\x", $true), also after casts such as
// [void] and with blanks inside the brackets) and returns the words of the
// synthetic command that reports it: the call's name (see
// PSStaticCallName) with the call's source as Raw, then the arguments as
// the splitter resolved them, commas dropped. A static property, or a
// type literal alone, is not a call.
func StaticCall(segs []Segment, i int) ([]ir.Word, bool) {
	seg := &segs[i]
	k := 0
	var head strings.Builder
	for k < len(seg.Words) && !strings.HasPrefix(seg.Words[k].Raw, "(") {
		head.WriteString(seg.Words[k].Raw)
		k++
	}
	if k == 0 || k >= len(seg.Words) {
		return nil, false // no argument list: not a call
	}
	name, ok := PSStaticCallName(head.String())
	if !ok {
		return nil, false
	}
	out := []ir.Word{{Value: name, Raw: head.String(), KnownPrefix: name}}
	if strings.TrimSpace(strings.Trim(seg.Words[k].Raw, "()")) == "" {
		return out, true // ()
	}
	for j := i + 1; j < len(segs); j++ {
		if segs[j].Parent == i && segs[j].Via == "()" {
			for _, w := range segs[j].Words {
				if w.Raw != "," {
					out = append(out, w)
				}
			}
			break
		}
	}
	return out, true
}

// PSStaticCallName returns the Command.Name that reports a PowerShell
// static method call written as head ("[IO.File]::Delete", "[void]
// [System.IO.File]::Delete"): "[" type "]::" method, lower-case, blanks
// removed, casts before the type dropped, and the type name completed the
// way PowerShell resolves it: a type accelerator is replaced by its full
// name ([scriptblock] gives system.management.automation.scriptblock) and
// a name under a System namespace gets its "system." prefix ([IO.File]
// and [System.IO.File] both give "[system.io.file]::delete"). ok is false
// when head is not a static member access.
func PSStaticCallName(head string) (name string, ok bool) {
	h := strings.ToLower(strings.Join(strings.Fields(head), ""))
	sep := strings.LastIndex(h, "]::")
	if sep < 0 {
		return "", false
	}
	open, depth := -1, 0 // the [ matching the ] at sep (generic types nest)
	for j := sep; j >= 0 && open < 0; j-- {
		switch h[j] {
		case ']':
			depth++
		case '[':
			if depth--; depth == 0 {
				open = j
			}
		}
	}
	if open < 0 {
		return "", false
	}
	member := h[sep+3:]
	if member == "" || !psIdentifier(member) || !psCasts(h[:open]) {
		return "", false
	}
	typ := h[open+1 : sep]
	if typ == "" || !psTypeChars(typ) {
		return "", false
	}
	return "[" + psFullTypeName(typ) + "]::" + member, true
}

func psIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !psNameChar(s[i]) {
			return false
		}
	}
	return true
}

func psTypeChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !psNameChar(c) && c != '.' && c != '`' && c != '+' && c != ',' && c != '[' && c != ']' {
			return false
		}
	}
	return true
}

// psCasts reports text made only of type literals ([void][string]).
func psCasts(s string) bool {
	for s != "" {
		if s[0] != '[' {
			return false
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		s = s[end+1:]
	}
	return true
}

// psAccelerators maps the PowerShell type accelerators a static call may
// name to their full type names (lower-case).
var psAccelerators = map[string]string{
	"scriptblock":     "system.management.automation.scriptblock",
	"powershell":      "system.management.automation.powershell",
	"runspacefactory": "system.management.automation.runspaces.runspacefactory",
	"psobject":        "system.management.automation.psobject",
	"wmiclass":        "system.management.managementclass",
	"wmi":             "system.management.managementobject",
	"wmisearcher":     "system.management.managementobjectsearcher",
	"adsi":            "system.directoryservices.directoryentry",
	"adsisearcher":    "system.directoryservices.directorysearcher",
	"xml":             "system.xml.xmldocument",
	"regex":           "system.text.regularexpressions.regex",
	"ipaddress":       "system.net.ipaddress",
	"int":             "system.int32",
	"long":            "system.int64",
	"bool":            "system.boolean",
	"hashtable":       "system.collections.hashtable",
	"pscustomobject":  "system.management.automation.pscustomobject",
	"securestring":    "system.security.securestring",
	"x509certificate": "system.security.cryptography.x509certificates.x509certificate",
	"cimclass":        "microsoft.management.infrastructure.cimclass",
	"cimsession":      "microsoft.management.infrastructure.cimsession",
	"cimtype":         "microsoft.management.infrastructure.cimtype",
	"pscredential":    "system.management.automation.pscredential",
	"psmoduleinfo":    "system.management.automation.psmoduleinfo",
	"mailaddress":     "system.net.mail.mailaddress",
	"type":            "system.type",
	"psvariable":      "system.management.automation.psvariable",
}

// psSystemRoots are the first names of types PowerShell finds under
// System. when the prefix is left out ([IO.File], [Environment]).
var psSystemRoots = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`io net text diagnostics security reflection runtime threading
		collections management environment convert math console guid datetime string array appdomain
		activator web xml data globalization resources componentmodel linq numerics uri gc bitconverter
		buffer char int32 int64 boolean byte object enum random timespan version directoryservices
		timezoneinfo windows drawing deployment configuration transactions serviceprocess`) {
		psSystemRoots[n] = true
	}
}

// psFullTypeName completes a lower-case type name as PowerShell resolves it.
func psFullTypeName(t string) string {
	if full, ok := psAccelerators[t]; ok {
		return full
	}
	root, _, _ := strings.Cut(t, ".")
	if psSystemRoots[root] {
		return "system." + t
	}
	return t
}

// ValueBlock reports whether the commands of segment seg (in a block)
// produce a value for the command holding the block: ( ), $( ) and @( )
// always; a { } script block when its holder runs it in place and
// returns its output (& { }, . { }, Invoke-Command { }).
func ValueBlock(segs []Segment, seg *Segment) bool {
	switch seg.Via {
	case "()", "$()", "@()":
		return true
	case "{}":
		h := &segs[seg.Parent]
		if len(h.Words) == 0 || h.Expression {
			return false
		}
		if strings.HasPrefix(h.Words[0].Raw, "{") {
			return true
		}
		name, _ := PowerShellCmdlet(h.Words[0].Value)
		return name == "Invoke-Command" && !h.Words[0].Unknown
	}
	return false
}

// startProcessCmd analyses the program Start-Process (saps, start) runs in
// PowerShell, and the one cmd.exe's start runs, one level deeper as a
// Windows process (dialect Cmd): its -FilePath with its -ArgumentList
// joined by blanks, as Start-Process passes them, and split into argv the
// way Windows programs do (cmd.exe gets the line unsplit, since it reads
// its command line itself). -WorkingDirectory (start /d) is its cd step;
// without -Wait (/wait) it runs in the background. A URL is a document to
// open, not a program: nothing is reported for it.

func SplitWindowsCommandLine(line string) []string {
	var out []string
	var cur strings.Builder
	have, quoted := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			j := i
			for j < len(line) && line[j] == '\\' {
				j++
			}
			n := j - i
			if j < len(line) && line[j] == '"' {
				cur.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					cur.WriteByte('"')
					i = j
				} else {
					i = j - 1
				}
			} else {
				cur.WriteString(line[i:j])
				i = j - 1
			}
			have = true
		case c == '"':
			if quoted && i+1 < len(line) && line[i+1] == '"' {
				cur.WriteByte('"')
				i++
			} else {
				quoted = !quoted
			}
			have = true
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}
