package redact

import (
	"encoding/base64"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// Tool rules: the short password flags that mean a password only for
// particular tools (see the package doc, "The -p rule"). At every word
// start the main loop looks the word up; for a known tool the following
// words of the same command (up to ; | & or a line end) are read as shell
// words.

// flagAct says what a tool's flag does with its argument.
type flagAct uint8

const (
	actSkip     flagAct = iota + 1 // takes an argument that is not secret
	actSecret                      // the argument is the secret
	actUserPass                    // user<sep>password: the part after sep
	actCookie                      // name=value cookies (a file name otherwise)
	actCert                        // certfile:password
)

type toolFlag struct {
	name string
	act  flagAct
}

// toolRule describes one tool (or one subcommand of it).
type toolRule struct {
	kind  string
	needs []string   // subcommand words that must come first, in order
	flags []toolFlag // "-x" takes the next word or a glued rest; "--x" the next word or "=v"
	// gluedOnly: the flag's value is only ever glued on (mysql -pSecret,
	// 7z -pSecret); a separate next word is something else.
	gluedOnly bool
	// noGlue: the tool spells long options with one dash (openssl -key),
	// so -kX is never -k with X glued on.
	noGlue bool
	// operandStops: the first operand ends the scan (the command sshpass or
	// sudo runs has flags of its own).
	operandStops bool
	userSep      byte // for actUserPass
	// tokenNoSep: an actUserPass value without sep is a token (httpie
	// -A bearer -a TOKEN) when it looks generated.
	tokenNoSep bool
	// stdinFlag arms the piped-secret rule: "echo pw | tool <stdinFlag>" or
	// "tool <stdinFlag> <<< pw"; stdinCluster is a short flag letter that
	// may come inside a cluster (sudo -kS); stdinAlways needs no flag.
	stdinFlag    string
	stdinCluster byte
	stdinAlways  bool
	htpasswd     bool // htpasswd -b [-n] [file] user password
	// operandSecret: the first operand after needs (one without '=') is
	// the secret (vault login TOKEN).
	operandSecret bool
	// encoded: the value is base64 text; only one that decodes to a
	// password-like word is a secret (see encodedSecret).
	encoded bool
}

var (
	ruleMySQL    = &toolRule{kind: "password", gluedOnly: true, flags: []toolFlag{{"-p", actSecret}}}
	ruleSevenZip = &toolRule{kind: "password", gluedOnly: true, flags: []toolFlag{{"-p", actSecret}}}
	// ruleSSHPass: -p is the password; sshpass's other valued options
	// come from cmdfacts (wrapperFlags, in init).
	ruleSSHPass = &toolRule{kind: "password", operandStops: true}
	ruleLogin   = &toolRule{kind: "password", needs: []string{"login"}, stdinFlag: "--password-stdin",
		flags: []toolFlag{{"-p", actSecret}}}
	ruleMongo    = &toolRule{kind: "password", flags: []toolFlag{{"-p", actSecret}}}
	ruleRedisCLI = &toolRule{kind: "password", flags: []toolFlag{{"-a", actSecret}}}
	ruleSQLCmd   = &toolRule{kind: "password", flags: []toolFlag{{"-P", actSecret}}}
	ruleLDAP     = &toolRule{kind: "password", flags: []toolFlag{{"-w", actSecret}}}
	ruleLDAPPass = &toolRule{kind: "password", flags: []toolFlag{{"-w", actSecret}, {"-s", actSecret}, {"-a", actSecret}}}
	ruleZip      = &toolRule{kind: "password", flags: []toolFlag{{"-P", actSecret}}}
	ruleKeygen   = &toolRule{kind: "password", flags: []toolFlag{{"-N", actSecret}, {"-P", actSecret}}}
	rulePlink    = &toolRule{kind: "password", flags: []toolFlag{{"-pw", actSecret}}}
	ruleOpenSSL  = &toolRule{kind: "password", noGlue: true, flags: []toolFlag{{"-k", actSecret}}}
	ruleCurl     = &toolRule{kind: "password", userSep: ':', flags: []toolFlag{
		{"-u", actUserPass}, {"--user", actUserPass}, {"-U", actUserPass}, {"--proxy-user", actUserPass},
		{"-b", actCookie}, {"--cookie", actCookie}, {"-E", actCert}, {"--cert", actCert}}}
	ruleHTTPie = &toolRule{kind: "password", userSep: ':', tokenNoSep: true, flags: []toolFlag{
		{"-a", actUserPass}, {"--auth", actUserPass}}}
	ruleSMB = &toolRule{kind: "password", userSep: '%', flags: []toolFlag{
		{"-U", actUserPass}, {"--user", actUserPass}}}
	ruleGHSecret = &toolRule{kind: "secret", needs: []string{"secret", "set"}, flags: []toolFlag{
		{"-b", actSecret}, {"--body", actSecret}}}
	ruleGHAuth   = &toolRule{kind: "token", needs: []string{"auth", "login"}, stdinFlag: "--with-token"}
	ruleAZSecret = &toolRule{kind: "secret", needs: []string{"secret", "set"}, flags: []toolFlag{{"--value", actSecret}}}
	// ruleSudo: sudo's valued options (-u USER, --chdir DIR ...) hold
	// no secret; they come from cmdfacts (wrapperFlags, in init).
	ruleSudo       = &toolRule{kind: "password", operandStops: true, stdinFlag: "--stdin", stdinCluster: 'S'}
	ruleChpasswd   = &toolRule{kind: "password", stdinAlways: true, userSep: ':'}
	rulePasswd     = &toolRule{kind: "password", stdinFlag: "--stdin"}
	ruleHtpasswd   = &toolRule{kind: "password", htpasswd: true}
	ruleVaultLogin = &toolRule{kind: "vault-token", needs: []string{"login"}, operandSecret: true}
	// base64 -d: what is decoded is encoded on purpose (echo <b64 pw> |
	// base64 -d | sudo -S ...); the text fed to it is kept out of the log.
	ruleBase64 = &toolRule{kind: "encoded-secret", stdinFlag: "--decode", stdinCluster: 'd', encoded: true}
)

// toolTable maps a command name to its rules.
var toolTable = map[string][]*toolRule{}

// wrapperFlags returns the flags of a rule for wrapper name: secret
// first, then each of the wrapper's value-taking options
// (cmdfacts.WrapperOf) not in secret, as a flag whose value is skipped.
// The options are cmdfacts' one copy of the wrapper's syntax; which of
// them holds a password is this package's fact.
func wrapperFlags(name string, secret ...toolFlag) []toolFlag {
	w, ok := cmdfacts.WrapperOf(name)
	if !ok {
		panic("redact: no cmdfacts wrapper " + name)
	}
	out := secret
	add := func(f string) {
		for _, s := range secret {
			if s.name == f {
				return
			}
		}
		out = append(out, toolFlag{f, actSkip})
	}
	for k := 0; k < len(w.Spec.Short); k++ {
		add("-" + w.Spec.Short[k:k+1])
	}
	for _, l := range w.Spec.Long {
		add("--" + l)
	}
	return out
}

func init() {
	ruleSudo.flags = wrapperFlags("sudo")
	ruleSSHPass.flags = wrapperFlags("sshpass", toolFlag{"-p", actSecret})
	add := func(r []*toolRule, names ...string) {
		for _, n := range names {
			toolTable[n] = r
		}
	}
	add([]*toolRule{ruleMySQL}, "mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow",
		"mysqlcheck", "mysqlpump", "mysqlslap", "mariadb-dump", "mariadb-admin", "mariadb-import",
		"mariadb-check", "mariadb-show")
	add([]*toolRule{ruleSevenZip}, "7z", "7za", "7zz", "7zr", "rar", "unrar")
	add([]*toolRule{ruleSSHPass}, "sshpass")
	add([]*toolRule{ruleLogin}, "docker", "podman", "helm", "nerdctl", "buildah", "skopeo", "oras", "finch", "oc", "cf")
	add([]*toolRule{ruleLogin, ruleAZSecret}, "az")
	add([]*toolRule{ruleMongo}, "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport",
		"mongostat", "mongotop", "mongofiles")
	add([]*toolRule{ruleRedisCLI}, "redis-cli", "keydb-cli", "valkey-cli")
	add([]*toolRule{ruleSQLCmd}, "sqlcmd", "bcp", "osql")
	add([]*toolRule{ruleLDAP}, "ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapmodrdn", "ldapwhoami",
		"ldapcompare", "ldapexop")
	add([]*toolRule{ruleLDAPPass}, "ldappasswd")
	add([]*toolRule{ruleZip}, "zip", "unzip", "zipcloak")
	add([]*toolRule{ruleKeygen}, "ssh-keygen")
	add([]*toolRule{rulePlink}, "plink", "pscp", "psftp", "putty")
	add([]*toolRule{ruleOpenSSL}, "openssl")
	add([]*toolRule{ruleCurl}, "curl")
	add([]*toolRule{ruleHTTPie}, "http", "https", "xh", "xhs")
	add([]*toolRule{ruleSMB}, "smbclient", "rpcclient", "smbcacls", "smbget")
	add([]*toolRule{ruleGHSecret, ruleGHAuth}, "gh")
	add([]*toolRule{ruleSudo}, "sudo")
	add([]*toolRule{ruleChpasswd}, "chpasswd")
	add([]*toolRule{rulePasswd}, "passwd")
	add([]*toolRule{ruleHtpasswd}, "htpasswd")
	add([]*toolRule{ruleVaultLogin}, "vault", "bao")
	add([]*toolRule{ruleBase64}, "base64", "gbase64")
	for name := range toolTable {
		byteFlags[name[0]] |= startsTool
		toolSecond[name[0]] |= 1 << (name[1] & 63)
	}
}

var (
	// toolSecond[first] has bit (second&63) set for each second byte of a
	// tool name, a cheap filter before the table lookup.
	toolSecond [256]uint64
	// toolBoundary: what may come right before a command name (a path
	// separator too: /usr/bin/mysql, C:\tools\7z.exe).
	toolBoundary = byteSet(" \t\r\n;&|(`'\"/\\{=")
	toolNameChar = byteSet(lowers + digits + "-_.")
	// segmentEnd ends a simple command.
	segmentEnd = byteSet(";|&()\n\r")
	// wordByte is a byte inside a shell word with no special meaning.
	wordByte = func() [256]bool {
		t := byteSet(lowers + uppers + digits + "-_./:=,+@%^~!?*[]{}#")
		for c := 0x80; c < 0x100; c++ {
			t[c] = true
		}
		return t
	}()
)

// maxToolWords bounds how many words after a tool are read.
const maxToolWords = 64

// tool is called at a word start i: if the word is a known tool, its rules
// read the words after it.
func (sc *scanner) tool(i int) {
	s := sc.s
	if i+1 >= len(s) || toolSecond[s[i]]&(1<<(s[i+1]&63)) == 0 {
		return
	}
	j := i
	for j < len(s) && j-i < 24 && toolNameChar[s[j]] {
		j++
	}
	if j == i || (j < len(s) && !space[s[j]]) {
		return
	}
	name := strings.TrimSuffix(s[i:j], ".exe")
	rules, ok := toolTable[name]
	if !ok {
		return
	}
	for _, r := range rules {
		sc.toolArgs(r, i, j)
	}
}

// toolArgs reads the words of the command after the tool word [ts, te).
func (sc *scanner) toolArgs(r *toolRule, ts, te int) {
	s := sc.s
	p := te
	// A rule reads no state beyond one flag and its argument, except
	// htpasswd (counts operands) and the ones that stop at an operand. When
	// the same rule read past this tool word already and ended as it began
	// (no subcommand matched, stdin not armed), those words were judged the
	// same way: go on from where that reading stopped (mysql mysql ...).
	resumable := !r.operandStops && !r.htpasswd
	if resumable && r == sc.lastTool && sc.lastToolQuiet && te < sc.lastToolEnd {
		p = sc.lastToolEnd
	}
	need := 0
	stdinArmed := r.stdinAlways
	if resumable {
		defer func() {
			sc.lastTool, sc.lastToolEnd, sc.lastToolQuiet = r, p, need == 0 && stdinArmed == r.stdinAlways
		}()
	}
	var positional [4][2]int
	nPositional := 0
	operandDone := false
	batch, noFile := false, false
	for range maxToolWords {
		a, e, ok := sc.nextWord(p)
		if !ok {
			break
		}
		p = e
		w := s[a:e]
		if need < len(r.needs) {
			if w == r.needs[need] {
				need++
			}
			continue
		}
		if w == "<<<" && stdinArmed {
			if va, ve, ok := sc.nextWord(p); ok {
				sc.toolValue(r, actUserPassIf(r), va, ve)
				p = ve
			}
			continue
		}
		if w[0] != '-' || w == "-" {
			if r.operandStops {
				if stdinArmed {
					// sudo -S cmd <<< pw: the here-string is the command's
					// stdin, which the armed tool reads first.
					sc.hereString(r, p)
				}
				break
			}
			if r.operandSecret && need == len(r.needs) && strings.IndexByte(w, '=') < 0 && !operandDone {
				operandDone = true
				sc.toolValue(r, actSecret, a, e) // vault login TOKEN
				continue
			}
			if r.htpasswd && nPositional < len(positional) {
				positional[nPositional] = [2]int{a, e}
				nPositional++
			}
			continue
		}
		if r.stdinFlag != "" && w == r.stdinFlag {
			stdinArmed = true
			continue
		}
		if r.stdinCluster != 0 && len(w) >= 2 && w[1] != '-' && strings.IndexByte(w[1:], r.stdinCluster) >= 0 && allLetters(w[1:]) {
			stdinArmed = true
		}
		if r.htpasswd {
			if len(w) >= 2 && w[1] != '-' && allLetters(w[1:]) {
				batch = batch || strings.IndexByte(w, 'b') > 0
				noFile = noFile || strings.IndexByte(w, 'n') > 0
				if strings.IndexByte(w, 'C') > 0 || strings.IndexByte(w, 'r') > 0 {
					if _, ve, ok := sc.nextWord(p); ok {
						p = ve // -C cost, -r rounds
					}
				}
			}
			continue
		}
		p = sc.toolFlag(r, w, a, e, p)
	}
	if r.htpasswd && batch {
		k := 2
		if noFile {
			k = 1
		}
		if k < nPositional {
			sc.toolValue(r, actSecret, positional[k][0], positional[k][1])
		}
	}
	if stdinArmed {
		sc.pipedSecret(r, ts)
	}
}

func actUserPassIf(r *toolRule) flagAct {
	if r.userSep != 0 {
		return actUserPass
	}
	return actSecret
}

// toolFlag handles one flag word w = s[a:e] of rule r; p is where the next
// word starts. It returns where scanning continues.
func (sc *scanner) toolFlag(r *toolRule, w string, a, e, p int) int {
	s := sc.s
	for _, f := range r.flags {
		switch {
		case w == f.name:
			if r.gluedOnly {
				return p
			}
			va, ve, ok := sc.nextWord(p)
			if !ok || (f.act != actSkip && s[va] == '-' && ve-va > 1) {
				return p // no argument: the tool prompts
			}
			if f.act != actSkip {
				sc.toolValue(r, f.act, va, ve)
			}
			return ve
		case len(f.name) == 2 && len(w) > 2 && !r.noGlue && strings.HasPrefix(w, f.name):
			if f.act != actSkip {
				sc.toolValue(r, f.act, a+2, e) // -pSecret
			}
			return p
		case strings.HasPrefix(f.name, "--") && len(w) > len(f.name) && strings.HasPrefix(w, f.name) && w[len(f.name)] == '=':
			if f.act != actSkip {
				sc.toolValue(r, f.act, a+len(f.name)+1, e) // --user=u:p
			}
			return p
		}
	}
	return p
}

// toolValue redacts the argument [a, e) of a flag according to act.
func (sc *scanner) toolValue(r *toolRule, act flagAct, a, e int) {
	s := sc.s
	vs, ve := unquoteWord(s, a, e)
	kind := r.kind
	switch act {
	case actUserPass:
		k := strings.IndexByte(s[vs:ve], r.userSep)
		if k < 0 {
			if !r.tokenNoSep || !tokenLike(s[vs:ve]) {
				return // a user alone: the tool prompts for the password
			}
			kind = "token"
		} else {
			vs += k + 1
		}
	case actCookie:
		if strings.IndexByte(s[vs:ve], '=') < 0 {
			return // a cookie file
		}
		kind = "cookie"
	case actCert:
		k := strings.LastIndexByte(s[vs:ve], ':')
		if k < 0 || (k == 1 && letter[s[vs]]) {
			return // no password, or only a drive letter
		}
		vs += k + 1
	}
	if nonSecretValue(s[vs:ve]) || r.encoded && !encodedSecret(s[vs:ve]) {
		return
	}
	sc.add(vs, ve, kind, prioContext)
}

// encodedSecret reports whether base64 text decodes to a password-like
// word: 8 to 256 printable ASCII bytes without blanks (echo <base64 of a
// password> | base64 -d). Sentences, binary and short words are not.
func encodedSecret(v string) bool {
	v = strings.TrimRight(v, "=")
	if len(v) < 11 || len(v) > 344 {
		return false
	}
	dec, err := base64.RawStdEncoding.DecodeString(v)
	if err != nil {
		if dec, err = base64.RawURLEncoding.DecodeString(v); err != nil {
			return false
		}
	}
	if len(dec) < 8 {
		return false
	}
	for _, c := range dec {
		if c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// pipedSecret handles a secret piped into a tool that reads it from stdin:
// echo pw | sudo -S ..., printf '%s' pw | docker login --password-stdin.
// The tool word starts at ts; the command before the pipe must be echo or
// printf, whose arguments are the secret.
func (sc *scanner) pipedSecret(r *toolRule, ts int) {
	s := sc.s
	j := ts
	for j > 0 && hspace[s[j-1]] {
		j--
	}
	if j == 0 || s[j-1] != '|' || (j >= 2 && s[j-2] == '|') {
		return
	}
	end := j - 1
	st := sc.segmentStart(end)
	a, e, ok := sc.nextWord(st)
	if !ok || e > end {
		return
	}
	name := s[a:e]
	if k := strings.LastIndexByte(name, '/'); k >= 0 {
		name = name[k+1:]
	}
	if name != "echo" && name != "printf" {
		return
	}
	var args [8][2]int
	n := 0
	for p := e; n < len(args); {
		a, e, ok := sc.nextWord(p)
		if !ok || e > end {
			break
		}
		p = e
		if name == "echo" && n == 0 && len(s[a:e]) >= 2 && s[a] == '-' && allLetters(s[a+1:e]) {
			continue // echo -n, -e
		}
		args[n] = [2]int{a, e}
		n++
	}
	first := 0
	if name == "printf" && n >= 2 {
		first = 1 // printf FORMAT ARG...: the arguments are the secret
	}
	for k := first; k < n; k++ {
		sc.toolValue(r, actUserPassIf(r), args[k][0], args[k][1])
	}
}

// hereString redacts the word after a "<<<" among the words of the
// current simple command from p on: the here-string a stdin-reading tool
// (sudo -S) gets through the command it runs.
func (sc *scanner) hereString(r *toolRule, p int) {
	for range maxToolWords {
		a, e, ok := sc.nextWord(p)
		if !ok {
			return
		}
		p = e
		if sc.s[a:e] == "<<<" {
			if va, ve, ok := sc.nextWord(p); ok {
				sc.toolValue(r, actUserPassIf(r), va, ve)
			}
			return
		}
	}
}

// segmentStart returns where the simple command that ends at end (a pipe
// or another command end) starts: the line's words are read forward with
// their quotes, so a quoted ; | & inside a word (echo 'a&b' | sudo -S)
// does not cut it. At most 1024 bytes back.
func (sc *scanner) segmentStart(end int) int {
	s := sc.s
	from := end
	for from > 0 && end-from < 1024 && s[from-1] != '\n' {
		from--
	}
	st, p := from, from
	for p < end {
		_, e, ok := sc.nextWord(p)
		if ok {
			p = e
			continue
		}
		// At a command end: the next command starts after it.
		if e >= end {
			break
		}
		p = e + 1
		st = p
	}
	return st
}

// nextWord returns the next shell word of the current simple command at or
// after p: [a, e), quotes, escapes and $(...) included. ok is false at the
// end of the command (; | & ( ) or a line end) or of the text. A
// redirection operator (<, >>, <<<, 2>&) is a word of its own.
func (sc *scanner) nextWord(p int) (a, e int, ok bool) {
	s := sc.s
	for p < len(s) {
		if space[s[p]] && !segmentEnd[s[p]] {
			p++ // blanks, also \f and \v
		} else if s[p] == '\\' && p+1 < len(s) && s[p+1] == '\n' {
			p += 2
		} else {
			break
		}
	}
	if p >= len(s) || segmentEnd[s[p]] {
		return p, p, false
	}
	a = p
	if s[p] == '<' || s[p] == '>' {
		for p < len(s) && (s[p] == '<' || s[p] == '>' || s[p] == '&') {
			p++
		}
		return a, p, true
	}
	for p < len(s) {
		c := s[p]
		if wordByte[c] {
			p++
			continue
		}
		switch {
		case space[c] || segmentEnd[c] || c == '<' || c == '>':
			return a, p, true
		case c == '\'':
			k := strings.IndexByte(s[p+1:], '\'')
			if k < 0 || k > maxValue {
				return a, runeStartAtOrBefore(s, min(len(s), p+1+maxValue)), true
			}
			p += k + 2
		case c == '"':
			p = closeQuote(s, p+1, '"')
			if p < len(s) && s[p] == '"' {
				p++
			}
		case c == '\\':
			p += 2
		case c == '$' && p+1 < len(s) && (s[p+1] == '(' || s[p+1] == '{'):
			p = sc.closeNested(p + 1)
		case c == '`':
			k := strings.IndexByte(s[p+1:], '`')
			if k < 0 || k > maxValue {
				return a, runeStartAtOrBefore(s, min(len(s), p+1+maxValue)), true
			}
			p += k + 2
		default:
			p++
		}
	}
	return a, min(p, len(s)), true
}

// closeNested returns the index after the bracket matching the one at
// s[p] ('(' or '{', nesting counted, quotes not), or the end of the text
// when it has none: an unclosed $( runs to the end. The matches of the
// whole text are found once per pass, so repeated brackets stay linear.
func (sc *scanner) closeNested(p int) int {
	if sc.brackets == nil {
		sc.brackets = matchBrackets(sc.s)
	}
	if m := sc.brackets[p]; m > 0 {
		return int(m) + 1
	}
	return len(sc.s)
}

// matchBrackets returns, for every '(' and '{' of s, the index of its
// matching ')' or '}' (0 when unmatched; other entries are 0 too).
func matchBrackets(s string) []int32 {
	m := make([]int32, len(s))
	var parens, braces []int32
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			parens = append(parens, int32(i))
		case '{':
			braces = append(braces, int32(i))
		case ')':
			if n := len(parens); n > 0 {
				m[parens[n-1]] = int32(i)
				parens = parens[:n-1]
			}
		case '}':
			if n := len(braces); n > 0 {
				m[braces[n-1]] = int32(i)
				braces = braces[:n-1]
			}
		}
	}
	return m
}

// unquoteWord returns the inside of the word [a, e) when it is one quoted
// string, else the word.
func unquoteWord(s string, a, e int) (int, int) {
	if e-a >= 2 && (s[a] == '\'' || s[a] == '"') && s[e-1] == s[a] {
		return a + 1, e - 1
	}
	return a, e
}

func allLetters(w string) bool {
	return w != "" && plainWord(w)
}
