package winshell

import (
	"encoding/base64"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// ---------------------------------------------------------------------------
// Classifying Windows commands

// CmdSwitches separates the arguments of a cmd.exe command (args[0] being
// the command word) into switches and operands. Switches are returned
// lower-case without the slash, with glued ones split (`/s/q` gives "s" and
// "q"; `/a:h` gives "a:h"; `/MIR` gives "mir"). An argument with several
// slash-separated parts, one longer than a letter (/tmp/x), is an operand.
// Cost: linear in the arguments.
func CmdSwitches(args []ir.Word) (switches []string, operands []ir.Word) {
	for i, a := range args {
		if i == 0 {
			continue
		}
		v := a.Value
		if len(v) >= 2 && v[0] == '/' && !a.Unknown && !strings.Contains(v[1:], `\`) && !looksLikePath(v) {
			for _, sw := range strings.Split(v[1:], "/") {
				if sw != "" {
					switches = append(switches, strings.ToLower(sw))
				}
			}
			continue
		}
		operands = append(operands, a)
	}
	return switches, operands
}

// looksLikePath tells a Unix-style path (/tmp/x) from cmd.exe switches
// (/s, /MIR, /a:h, /s/q): it has at least two parts and one of them is
// longer than a letter (or a letter and a colon).
func looksLikePath(v string) bool {
	parts := strings.Split(strings.Trim(v, "/"), "/")
	if len(parts) < 2 {
		return false
	}
	for _, part := range parts {
		if len(part) > 1 && part[1] != ':' {
			return true
		}
	}
	return false
}

// HostPayload is the code a powershell.exe/pwsh or cmd.exe command line
// runs.
type HostPayload struct {
	// Code is the command text to analyse in Dialect; "" when the code is
	// not in the command line (File, Stdin, Undecodable).
	Code    string
	Dialect ir.Dialect
	// Encoded: Code was decoded from -EncodedCommand.
	Encoded bool
	// Undecodable: -EncodedCommand was given but is not valid base64 of
	// UTF-16LE text, so the code is unknown.
	Undecodable bool
	// File is the script run by -File (its content is not analysed).
	File string
	// Stdin: the code is read from standard input (-Command -).
	Stdin bool
	// Via names the wrapper: "powershell -Command", "powershell
	// -EncodedCommand", "powershell -File", "cmd /c".
	Via string
}

// PowerShellPayload finds what a powershell.exe / pwsh command line runs.
// args are the arguments after the program name, as the program receives
// them. It understands -Command/-c (and any prefix of it: -com, -comm),
// -CommandWithArgs/-cwa, -EncodedCommand/-enc/-e/-ec, -File/-f, the
// switches that take a value (-ExecutionPolicy, -WindowStyle, -Version, ...)
// with -, -- or / as prefix, and the implicit command (the first argument
// that is not a switch: the rest of the line, or File when it names a
// .ps1). ok is false when the line runs nothing analysable (an interactive
// shell, -Version only).
func PowerShellPayload(args []string) (h HostPayload, ok bool) {
	h.Dialect = ir.PowerShell
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, isSwitch := switchName(a)
		if !isSwitch {
			if strings.HasSuffix(strings.ToLower(a), ".ps1") {
				h.File, h.Via = a, "powershell -File"
				return h, true
			}
			h.Code, h.Via = strings.Join(args[i:], " "), "powershell -Command"
			return h, strings.TrimSpace(h.Code) != ""
		}
		switch {
		case name == "c" || name == "co" || len(name) >= 3 && strings.HasPrefix("command", name):
			rest := args[i+1:]
			if len(rest) == 1 && rest[0] == "-" || len(rest) == 0 {
				h.Stdin, h.Via = true, "powershell -Command"
				return h, true
			}
			h.Code, h.Via = strings.Join(rest, " "), "powershell -Command"
			return h, true
		case name == "cwa" || len(name) >= 8 && strings.HasPrefix("commandwithargs", name):
			if i+1 < len(args) {
				h.Code, h.Via = args[i+1], "powershell -Command"
				return h, true
			}
			return h, false
		case name == "e" || name == "ec" || len(name) >= 2 && strings.HasPrefix("encodedcommand", name):
			h.Encoded, h.Via = true, "powershell -EncodedCommand"
			if i+1 >= len(args) {
				h.Undecodable = true
				return h, true
			}
			code, okDecode := decodePowerShellEncoded(args[i+1])
			h.Code, h.Undecodable = code, !okDecode
			return h, true
		case name == "f" || len(name) >= 2 && strings.HasPrefix("file", name):
			h.Via = "powershell -File"
			if i+1 < len(args) {
				h.File = args[i+1]
			}
			return h, true
		case psHostValueSwitch(name):
			i++
		}
	}
	return h, false
}

// switchName strips -, -- or / from a switch and lower-cases it.
func switchName(a string) (string, bool) {
	switch {
	case strings.HasPrefix(a, "--") && len(a) > 2:
		return strings.ToLower(a[2:]), true
	case len(a) > 1 && (a[0] == '-' || a[0] == '/'):
		return strings.ToLower(a[1:]), true
	}
	for _, dash := range []string{"\u2013", "\u2014", "\u2015"} {
		if strings.HasPrefix(a, dash) && len(a) > len(dash) {
			return strings.ToLower(a[len(dash):]), true
		}
	}
	return "", false
}

// psHostValueSwitch reports the powershell.exe/pwsh switches that take a
// value (named in full, by alias, or by a prefix).
func psHostValueSwitch(name string) bool {
	switch name {
	case "ep", "ex", "exec", "w", "v", "if", "of", "o", "wd", "ea", "settings":
		return true
	}
	for _, full := range []string{"executionpolicy", "windowstyle", "version", "inputformat", "outputformat",
		"configurationname", "psconsolefile", "workingdirectory", "settingsfile", "custompipename",
		"encodedarguments", "configurationfile"} {
		if len(name) >= 3 && strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// CmdPayload finds what a cmd.exe command line runs: the text after /c, /k
// or /r (also glued, `/cdir`, and MSYS-style `//c`), with the outer quotes
// removed the way cmd.exe does (unless the quoted text is just the path of
// an executable). Other switches (/q /d /s /v:on ...) are skipped. args are
// the arguments after the program name; ok is false when there is no /c.
func CmdPayload(args []string) (h HostPayload, ok bool) {
	h.Dialect, h.Via = ir.Cmd, "cmd /c"
	for i, a := range args {
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "//") {
			l, a = l[1:], a[1:]
		}
		if !strings.HasPrefix(l, "/") {
			return h, false
		}
		if len(l) >= 2 && (l[1] == 'c' || l[1] == 'k' || l[1] == 'r') && (len(l) == 2 || l[2] != ':') {
			rest := args[i+1:]
			if len(a) > 2 {
				rest = append([]string{a[2:]}, rest...)
			}
			h.Code = cmdStripQuotes(strings.Join(rest, " "))
			return h, strings.TrimSpace(h.Code) != ""
		}
	}
	return h, false
}

// cmdStripQuotes removes the first and the last double quote of a /c
// command line when it starts with one, as cmd.exe does, except for the
// case cmd.exe keeps: exactly two quotes around an executable's path.
func cmdStripQuotes(code string) string {
	t := strings.TrimLeft(code, " \t")
	if !strings.HasPrefix(t, `"`) {
		return code
	}
	last := strings.LastIndexByte(t, '"')
	if strings.Count(t, `"`) == 2 && last == len(t)-1 {
		inner := strings.ToLower(t[1:last])
		if !strings.ContainsAny(inner, "&<>()@^|") {
			for _, ext := range []string{".exe", ".com", ".bat", ".cmd"} {
				if strings.HasSuffix(inner, ext) {
					return code
				}
			}
		}
	}
	if last <= 0 {
		return t[1:]
	}
	return t[1:last] + t[last+1:]
}

// decodePowerShellEncoded decodes an -EncodedCommand payload: base64
// (standard or URL alphabet, padding optional, blanks and surrounding quotes
// ignored) of UTF-16LE text. It reports false when the text is not base64 or
// decodes to nothing. At most maxSource bytes of payload are decoded.
func decodePowerShellEncoded(b64 string) (string, bool) {
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '"', '\'':
			return -1
		}
		return r
	}, b64)
	if s == "" || len(s) > maxSource*4/3+4 {
		return "", false
	}
	var data []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		in := s
		if enc == base64.RawStdEncoding || enc == base64.RawURLEncoding {
			in = strings.TrimRight(s, "=")
		}
		if data, err = enc.DecodeString(in); err == nil {
			break
		}
	}
	if err != nil || len(data) < 2 {
		return "", false
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		units[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
	}
	if units[0] == 0xFEFF {
		units = units[1:]
	}
	text := string(utf16.Decode(units))
	return text, text != ""
}

// psAliasSpec lists PowerShell's built-in aliases (and the mkdir/md
// functions) by the cmdlet they run. `curl` and `wget` are aliases in
// Windows PowerShell 5.1 only (pwsh 7 runs the programs); `sc` likewise.
var psAliasSpec = map[string]string{
	"Remove-Item":            "ri rm rmdir del erase rd",
	"Copy-Item":              "cp copy cpi",
	"Move-Item":              "mv move mi",
	"Rename-Item":            "ren rni",
	"Set-Content":            "sc",
	"Add-Content":            "ac",
	"Clear-Content":          "clc",
	"Clear-Item":             "cli",
	"New-Item":               "ni mkdir md",
	"Set-Item":               "si",
	"Set-ItemProperty":       "sp",
	"Remove-ItemProperty":    "rp",
	"Tee-Object":             "tee",
	"Invoke-WebRequest":      "iwr curl wget",
	"Invoke-RestMethod":      "irm",
	"Invoke-Expression":      "iex",
	"Invoke-Command":         "icm",
	"Invoke-Item":            "ii",
	"Start-Process":          "start saps",
	"Stop-Process":           "kill spps",
	"Get-Process":            "gps ps",
	"Set-Location":           "cd chdir sl",
	"Push-Location":          "pushd",
	"Pop-Location":           "popd",
	"Get-Location":           "pwd gl",
	"Get-ChildItem":          "gci ls dir",
	"Get-Content":            "gc cat type",
	"Get-Item":               "gi",
	"Write-Output":           "echo write",
	"ForEach-Object":         "% foreach",
	"Where-Object":           "? where",
	"Set-Variable":           "set sv",
	"Remove-Variable":        "rv",
	"Set-Alias":              "sal",
	"New-Alias":              "nal",
	"Import-Module":          "ipmo",
	"Export-Csv":             "epcsv",
	"Start-Sleep":            "sleep",
	"Clear-Host":             "cls clear",
	"Out-File":               "",
	"Expand-Archive":         "",
	"Compress-Archive":       "",
	"New-ItemProperty":       "",
	"Export-Clixml":          "",
	"Stop-Computer":          "",
	"Restart-Computer":       "",
	"Format-Volume":          "",
	"Clear-Disk":             "",
	"Initialize-Disk":        "",
	"Remove-Partition":       "",
	"Reset-PhysicalDisk":     "",
	"Set-NetFirewallProfile": "",
	"Set-ExecutionPolicy":    "",
	"Set-MpPreference":       "",
	"Join-Path":              "",
	"Write-Host":             "",
}

// psParamSpec gives the parameters of the cmdlets whose arguments name
// files: "name|alias" for a switch, "name|alias=" for a parameter taking a
// value, "name=N" for one also bound from position N.
var psParamSpec = map[string]string{
	"Remove-Item":         "path=0 literalpath|pspath|lp= filter= include= exclude= recurse force credential= stream=",
	"Copy-Item":           "path=0 destination=1 literalpath|pspath|lp= container force filter= include= exclude= recurse passthru credential= tosession= fromsession=",
	"Move-Item":           "path=0 destination=1 literalpath|pspath|lp= force filter= include= exclude= passthru credential=",
	"Rename-Item":         "path=0 newname=1 literalpath|pspath|lp= force passthru credential=",
	"Set-Content":         "path=0 value=1 literalpath|pspath|lp= passthru filter= include= exclude= force credential= nonewline encoding= asbytestream stream=",
	"Add-Content":         "path=0 value=1 literalpath|pspath|lp= passthru filter= include= exclude= force credential= nonewline encoding= asbytestream stream=",
	"Clear-Content":       "path=0 literalpath|pspath|lp= filter= include= exclude= force credential= stream=",
	"Clear-Item":          "path=0 literalpath|pspath|lp= filter= include= exclude= force credential=",
	"Set-Item":            "path=0 value=1 literalpath|pspath|lp= force passthru filter= include= exclude= credential=",
	"Out-File":            "filepath|path=0 encoding=1 literalpath|pspath|lp= append force noclobber|nooverwrite width= nonewline inputobject=",
	"Tee-Object":          "filepath|path=0 literalpath|pspath|lp= append variable= inputobject= encoding=",
	"New-Item":            "path=0 itemtype|type= name= value= force credential=",
	"Set-ItemProperty":    "path=0 name=1 value=2 literalpath|pspath|lp= passthru force filter= include= exclude= credential= type=",
	"New-ItemProperty":    "path=0 name=1 value= propertytype|type= literalpath|pspath|lp= force filter= include= exclude= credential=",
	"Remove-ItemProperty": "path=0 name=1 literalpath|pspath|lp= force filter= include= exclude= credential=",
	"Expand-Archive":      "path=0 destinationpath=1 literalpath|pspath= force passthru",
	"Compress-Archive":    "path=0 destinationpath=1 literalpath|pspath= compressionlevel= update force passthru",
	"Export-Csv":          "path=0 literalpath|pspath|lp= inputobject= delimiter= encoding= append force noclobber|nooverwrite notypeinformation|nti",
	"Export-Clixml":       "path=0 literalpath|pspath|lp= inputobject= depth= encoding= force noclobber|nooverwrite",
	"Invoke-WebRequest":   "uri=0 outfile= method= body= headers= infile= usebasicparsing passthru credential= useragent= contenttype= timeoutsec= maximumredirection= sessionvariable|sv= websession= proxy= proxycredential= proxyusedefaultcredentials usedefaultcredentials disablekeepalive transferencoding= certificatethumbprint= certificate= skipcertificatecheck form= resume skiphttperrorcheck noproxy authentication= token= allowunencryptedauthentication sslprotocol= httpversion= maximumretrycount= retryintervalsec= custommethod|cm= statuscodevariable= responseheadersvariable|rhv= skipheadervalidation preserveauthorizationonredirect allowinsecureredirect connectiontimeoutseconds= operationtimeoutseconds= preservehttpmethodonredirect unixsocket=",
	"Invoke-RestMethod":   "uri=0 outfile= method= body= headers= infile= usebasicparsing passthru credential= useragent= contenttype= timeoutsec= maximumredirection= sessionvariable|sv= websession= proxy= proxycredential= proxyusedefaultcredentials usedefaultcredentials disablekeepalive transferencoding= certificatethumbprint= certificate= skipcertificatecheck form= resume skiphttperrorcheck noproxy authentication= token= allowunencryptedauthentication sslprotocol= httpversion= maximumretrycount= retryintervalsec= custommethod|cm= statuscodevariable= responseheadersvariable|rhv= followrellink|fl maximumfollowrellink|ml= skipheadervalidation preserveauthorizationonredirect allowinsecureredirect connectiontimeoutseconds= operationtimeoutseconds= preservehttpmethodonredirect unixsocket=",
	"Invoke-Expression":   "command=0",
	"Invoke-Command":      "scriptblock|command=0 filepath|psPath= argumentlist|args= computername|cn= session= credential= asjob nonewscope hidecomputername jobname= inputobject=",
	"Start-Process":       "filepath|path=0 argumentlist|args=1 workingdirectory= verb= windowstyle= wait nonewwindow passthru redirectstandardoutput|rso= redirectstandarderror|rse= redirectstandardinput|rsi= credential|runas= loaduserprofile|lup usenewenvironment environment=",
	"Set-Location":        "path=0 literalpath|pspath|lp= passthru stackname=",
	"Push-Location":       "path=0 literalpath|pspath|lp= passthru stackname=",
	"Pop-Location":        "passthru stackname=",
	"Get-ChildItem":       "path=0 filter=1 literalpath|pspath|lp= include= exclude= recurse depth= force name attributes= followsymlink directory|ad file|af hidden|ah readonly|ar system|as",
	"Get-Content":         "path=0 literalpath|pspath|lp= readcount= totalcount|first|head= tail|last= filter= include= exclude= force credential= delimiter= wait raw encoding= asbytestream stream=",
	"Get-Item":            "path=0 literalpath|pspath|lp= filter= include= exclude= force credential= stream=",
	"Invoke-Item":         "path=0 literalpath|pspath|lp= filter= include= exclude= credential=",
	"Join-Path":           "path=0 childpath=1 additionalchildpath= resolve credential=",
	"Stop-Process":        "id=0 name|processname= inputobject= force passthru",
	"Get-Process":         "name|processname=0 id= inputobject= computername|cn= module fileversioninfo|fv includeusername",
}

// psCommonSpec lists the common parameters every cmdlet takes.
const psCommonSpec = "verbose|vb debug|db erroraction|ea= warningaction|wa= informationaction|infa= progressaction|proga= " +
	"errorvariable|ev= warningvariable|wv= informationvariable|iv= outvariable|ov= outbuffer|ob= pipelinevariable|pv= " +
	"whatif|wi confirm|cf usetransaction|usetx"

type psParam struct {
	names []string // canonical lower-case name first, then aliases
	value bool
	pos   int // -1 when not positional
}

// psTables are the PowerShell name and parameter tables, parsed from
// psAliasSpec, psParamSpec and psCommonSpec on first use (about 0.15 ms and
// 700 allocations, which a bash-only call need not pay at start-up).
type psTables struct {
	alias  map[string]string    // lower-case alias or name → canonical name
	params map[string][]psParam // canonical cmdlet name → its parameters
	common []psParam            // the common parameters of every cmdlet
}

var psTablesOnce = sync.OnceValue(func() *psTables {
	t := &psTables{alias: map[string]string{}, params: map[string][]psParam{}}
	for name, aliases := range psAliasSpec {
		t.alias[strings.ToLower(name)] = name
		for _, a := range strings.Fields(aliases) {
			t.alias[a] = name
		}
	}
	for name, spec := range psParamSpec {
		t.alias[strings.ToLower(name)] = name
		t.params[name] = psParseSpec(spec)
	}
	t.common = psParseSpec(psCommonSpec)
	return t
})

func psParseSpec(spec string) []psParam {
	var out []psParam
	for _, f := range strings.Fields(spec) {
		p := psParam{pos: -1}
		names, val, hasVal := strings.Cut(f, "=")
		p.value = hasVal
		if val != "" {
			p.pos = int(val[0] - '0')
		}
		p.names = strings.Split(strings.ToLower(names), "|")
		out = append(out, p)
	}
	return out
}

// PowerShellCmdlet returns the canonical name of a PowerShell command name
// or alias, compared case-insensitively, with a module or path qualifier
// dropped: "ri", "RM", "Microsoft.PowerShell.Management\Remove-Item" all
// give "Remove-Item". known is false (and name is returned unchanged) for
// names it does not know: external programs, functions, other cmdlets.
// Aliases follow Windows PowerShell 5.1, which has the most (curl, wget, sc).
func PowerShellCmdlet(name string) (canonical string, known bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexAny(n, `\/`); i >= 0 {
		n = n[i+1:]
	}
	if c, ok := psTablesOnce().alias[n]; ok {
		return c, true
	}
	return name, false
}

// PSCommand is a PowerShell command with its arguments bound to parameters
// the way PowerShell binds them. Common parameters (-ErrorAction,
// -Verbose, -WhatIf, ...) and their values are removed.
type PSCommand struct {
	// Cmdlet is the canonical cmdlet name ("Remove-Item"), or the command
	// word's value as written when it is not a known cmdlet or alias.
	Cmdlet string
	// Known is set when the cmdlet's parameters are known, so that Named,
	// Switches and Positional are bound as PowerShell would. For other
	// commands every -Name is recorded as a switch and every other argument
	// is positional (a value after -Name is not taken from the positional
	// list: check Args).
	Known bool
	// Named maps the lower-case canonical names of value parameters
	// ("path", "destination", "literalpath") to their values; positional
	// arguments are bound here too. A comma list gives several values.
	Named map[string][]ir.Word
	// Switches maps lower-case switch names to their state (-Recurse gives
	// "recurse": true, -Recurse:$false gives false).
	Switches map[string]bool
	// Positional are the arguments no parameter took, in order.
	Positional []ir.Word
	// Args are the arguments after the command word with the common
	// parameters (and their values) and the array commas removed.
	Args []ir.Word
	// WhatIf is set when -WhatIf is on: the cmdlet only reports what it
	// would do.
	WhatIf bool
}

// ParsePowerShellCommand binds the arguments of one PowerShell command
// (args[0] being the command word, as in Segment.Words or Command.Args).
// Parameter names may be abbreviated to any unambiguous prefix and written
// with an en or em dash; -Name:value is understood. An ambiguous or unknown
// parameter is taken as a switch, so the word after it stays positional.
// Cost: linear in the arguments.
func ParsePowerShellCommand(args []ir.Word) PSCommand {
	c := PSCommand{Named: map[string][]ir.Word{}, Switches: map[string]bool{}}
	if len(args) == 0 {
		return c
	}
	c.Cmdlet = args[0].Value
	var params []psParam
	if name, ok := PowerShellCmdlet(args[0].Value); ok && !args[0].Unknown {
		c.Cmdlet = name
		params, c.Known = psTablesOnce().params[name]
	}
	var groups [][]ir.Word
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a.Raw == "," {
			continue
		}
		name, attached, hasAttached, isParam := psParamWord(a)
		if !isParam {
			g := []ir.Word{a}
			for i+2 < len(args) && args[i+1].Raw == "," {
				g = append(g, args[i+2])
				i += 2
			}
			groups = append(groups, g)
			c.Args = append(c.Args, g...)
			continue
		}
		p, common := psFindParam(params, name, c.Known)
		if p == nil {
			c.Switches[name] = true
			c.Args = append(c.Args, a)
			continue
		}
		canon := p.names[0]
		if !p.value {
			on := !hasAttached || !strings.EqualFold(strings.TrimSpace(attached.Value), "false") && attached.Value != "0"
			if canon == "whatif" {
				c.WhatIf = on
			}
			if !common {
				c.Switches[canon] = on
				c.Args = append(c.Args, a)
			}
			continue
		}
		var vals []ir.Word
		if hasAttached {
			vals = append(vals, attached)
		} else if i+1 < len(args) {
			i++
			vals = append(vals, args[i])
		}
		for i+2 < len(args) && args[i+1].Raw == "," {
			vals = append(vals, args[i+2])
			i += 2
		}
		if !common {
			c.Named[canon] = append(c.Named[canon], vals...)
			c.Args = append(c.Args, a)
			c.Args = append(c.Args, vals...)
		}
	}
	// Bind positional groups to the positional parameters not given by name.
	next := 0
	for _, g := range groups {
		bound := false
		for ; next < 10 && !bound; next++ {
			for _, p := range params {
				if p.pos == next && len(c.Named[p.names[0]]) == 0 {
					c.Named[p.names[0]] = g
					bound = true
					break
				}
			}
		}
		if !bound {
			c.Positional = append(c.Positional, g...)
		}
	}
	return c
}

// psParamWord reports whether a is a parameter name (-Name, -Name:value),
// returning the lower-case name and the attached value. A quoted '-x' is
// an argument, not a parameter.
func psParamWord(a ir.Word) (name string, attached ir.Word, hasAttached, ok bool) {
	raw := a.Raw
	dash := 0
	switch {
	case strings.HasPrefix(raw, "-"):
		dash = 1
	case strings.HasPrefix(raw, "\u2013"), strings.HasPrefix(raw, "\u2014"), strings.HasPrefix(raw, "\u2015"):
		dash = 3
	default:
		return "", ir.Word{}, false, false
	}
	if len(raw) == dash || !psNameStart(raw[dash]) && raw[dash] != '?' {
		return "", ir.Word{}, false, false
	}
	end := dash
	for end < len(raw) && (psNameChar(raw[end]) || raw[end] == '?') {
		end++
	}
	name = strings.ToLower(raw[dash:end])
	if end < len(raw) && raw[end] == ':' {
		// The value follows the first colon of the resolved value.
		v := a.Value
		if k := strings.IndexByte(v, ':'); k >= 0 {
			v = v[k+1:]
		}
		kp := ""
		if !a.Unknown {
			kp = v
		} else if k := strings.IndexByte(a.KnownPrefix, ':'); k >= 0 {
			kp = a.KnownPrefix[k+1:]
		}
		attached = ir.Word{Value: v, Raw: raw[end+1:], Unknown: a.Unknown, KnownPrefix: kp, Glob: a.Glob}
		return name, attached, true, true
	}
	if end != len(raw) {
		return "", ir.Word{}, false, false
	}
	return name, ir.Word{}, false, true
}

// psFindParam finds a parameter by name, alias or unambiguous prefix among
// the cmdlet's parameters and the common ones. Prefixes are only tried for
// known cmdlets (for others the full parameter list is not known).
func psFindParam(params []psParam, name string, prefixes bool) (*psParam, bool) {
	for pass := 0; pass < 2; pass++ {
		var found *psParam
		common, n := false, 0
		for gi, list := range [][]psParam{params, psTablesOnce().common} {
			for i := range list {
				p := &list[i]
				for _, pn := range p.names {
					hit := pn == name
					if pass == 1 {
						hit = strings.HasPrefix(pn, name)
					}
					if hit {
						if found != p {
							n++
						}
						found, common = p, gi == 1
						break
					}
				}
			}
		}
		if pass == 0 && n == 1 {
			return found, common
		}
		if pass == 1 && n == 1 && prefixes {
			return found, common
		}
		if pass == 0 && n > 1 {
			return nil, false
		}
	}
	return nil, false
}

// Targets lists the items a file cmdlet deletes and the files it writes:
// Remove-Item deletes -Path/-LiteralPath (and any unbound argument);
// Move-Item deletes its source and writes -Destination; Copy-Item writes
// -Destination; Rename-Item deletes and writes its item; Set-Content,
// Add-Content, Clear-Content, Set-Item, Clear-Item, Out-File, Tee-Object,
// Export-Csv, Export-Clixml and New-Item write their path (New-Item's -Name
// joined to -Path when both are known); Expand-Archive and Compress-Archive
// write -DestinationPath; Invoke-WebRequest/-RestMethod write -OutFile;
// Start-Process writes its -RedirectStandardOutput/-Error files; the
// *-ItemProperty cmdlets write (Remove-: delete) their registry path. Both
// are empty for other commands and under -WhatIf.
func (c PSCommand) Targets() (deletes, writes []ir.Word) {
	if c.WhatIf {
		return nil, nil
	}
	n := c.Named
	paths := append(append([]ir.Word(nil), n["path"]...), n["literalpath"]...)
	switch c.Cmdlet {
	case "Remove-Item":
		deletes = append(paths, c.Positional...)
	case "Move-Item":
		deletes, writes = paths, n["destination"]
	case "Copy-Item":
		writes = n["destination"]
	case "Rename-Item":
		deletes, writes = paths, paths
	case "Set-Content", "Add-Content", "Clear-Content", "Set-Item", "Clear-Item", "Export-Csv", "Export-Clixml",
		"Set-ItemProperty", "New-ItemProperty":
		writes = paths
	case "Remove-ItemProperty":
		deletes = paths
	case "Out-File", "Tee-Object":
		writes = append(n["filepath"], n["literalpath"]...)
	case "New-Item":
		writes = paths
		if names := n["name"]; len(names) == 1 {
			if len(paths) == 0 {
				writes = names
			} else if len(paths) == 1 && !paths[0].Unknown && !names[0].Unknown {
				j := strings.TrimRight(paths[0].Value, `\/`) + `\` + names[0].Value
				writes = []ir.Word{{Value: j, Raw: paths[0].Raw + ` ` + names[0].Raw, KnownPrefix: j}}
			} else {
				writes = append(writes, names...)
			}
		}
	case "Expand-Archive", "Compress-Archive":
		writes = n["destinationpath"]
	case "Invoke-WebRequest", "Invoke-RestMethod":
		writes = n["outfile"]
	case "Start-Process":
		writes = append(n["redirectstandardoutput"], n["redirectstandarderror"]...)
	}
	return deletes, writes
}
