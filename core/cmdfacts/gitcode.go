package cmdfacts

import (
	"strings"
)

// Git's code-running configuration: the one list of configuration keys
// whose value git executes or loads — a shell command line, a program, a
// directory of hooks, another configuration file, or a transport that runs
// a command — researched from git-config(1) (git 2.39) and gitattributes(5).
// Set once, such a value runs in every later git command, the user's own
// in a terminal with no guard included; so the danger gate asks when the
// agent sets one (git config at any scope, --file), and judges the command
// a value runs when it is given for one invocation (-c, --config-env,
// GIT_CONFIG_*). Everyday values stay silent: a boolean where the key also
// takes one, an empty value (which resets or disables), and a well-known
// program for the key's role (less as a pager, vim as an editor, store as
// a credential helper, git-lfs as a filter ...).

// GitCode says what git does with a code-running setting's value.
type GitCode uint8

const (
	// GitShell: a shell command line (core.pager, core.sshCommand, a
	// "!" alias, filter.<driver>.clean, diff.<driver>.textconv ...).
	GitShell GitCode = iota + 1
	// GitProgram: a program git runs by name or path (core.askPass,
	// gpg.program, core.fsmonitor, a credential helper's name, remote.<name>.vcs).
	GitProgram
	// GitHooks: a directory git runs hooks from (core.hooksPath,
	// init.templateDir, whose hooks/ a new repository copies).
	GitHooks
	// GitInclude: another configuration file git loads, which may set any
	// key (include.path, includeIf.<condition>.path).
	GitInclude
	// GitTransport: a transport that runs a command (an ext:: URL, the
	// policy that allows it, a URL rewrite that leads to it).
	GitTransport
)

// String names the kind in messages.
func (c GitCode) String() string {
	switch c {
	case GitShell:
		return "shell command"
	case GitProgram:
		return "program"
	case GitHooks:
		return "hooks dir"
	case GitInclude:
		return "config file"
	case GitTransport:
		return "ext:: transport"
	}
	return "code"
}

// gitCodeKey is one entry of gitCodeKeys: the kind and the programs that
// are everyday values for the key's role (nil: none is).
type gitCodeKey struct {
	code     GitCode
	everyday map[string]bool
}

// Everyday programs by role: the first word of a value (its base name,
// without .exe), compared lower-case.
var (
	gitPagers    = names("less", "more", "most", "cat", "delta", "diff-so-fancy", "bat", "batcat", "riff", "diff-highlight", "moar", "ov", "lv")
	gitEditors   = names("vi", "vim", "nvim", "gvim", "mvim", "nano", "pico", "emacs", "emacsclient", "code", "code-insiders", "codium", "cursor", "windsurf", "zed", "subl", "mate", "micro", "hx", "helix", "kak", "gedit", "kate", "notepad", "notepad++", "idea", "true", ":")
	gitSSH       = names("ssh", "plink", "tortoiseplink", "ssh.exe")
	gitAskPass   = names("ssh-askpass", "ksshaskpass", "git-gui--askpass", "lxqt-openssh-askpass", "x11-ssh-askpass")
	gitGPG       = names("gpg", "gpg2", "gpgsm", "ssh-keygen")
	gitDiffTools = names("meld", "vimdiff", "nvim", "vim", "gvimdiff", "kdiff3", "opendiff", "bcompare", "bcomp", "code", "p4merge", "tkdiff", "diffmerge", "difft", "difftastic", "delta", "smerge", "kompare", "diffuse", "araxis", "winmerge", "winmergeu")
	gitTextconv  = names("cat", "strings", "hexdump", "xxd", "od", "exiftool", "pdftotext", "odt2txt", "docx2txt", "pandoc", "plutil", "zcat", "gunzip", "xlsx2csv", "unzip")
	gitFilters   = names("git-lfs", "git-crypt", "git-annex", "nbstripout")
	gitMerge     = names("true", ":", "git-lfs", "npm-merge-driver", "git-merge-file")
	gitDiffs     = names("delta", "diff-so-fancy", "diff-highlight", "riff", "cat")
	// gitCredential are credential helpers: a name git runs as
	// git-credential-NAME, or the program of a "!" or path helper.
	gitCredential = names("store", "cache", "osxkeychain", "manager", "manager-core", "libsecret", "gnome-keyring",
		"wincred", "netrc", "oauth", "gh", "glab", "git-credential-manager", "git-credential-manager-core",
		"git-credential-osxkeychain", "git-credential-libsecret", "git-credential-store", "git-credential-cache",
		"git-credential-gnome-keyring", "git-credential-wincred", "git-credential-oauth", "gcloud.sh", "docker-credential-gcr", "aws")
)

// gitCodeKeys are the keys by pattern (lower-case; "*" stands for a
// subsection, and for the name under alias. and pager.).
var gitCodeKeys = map[string]gitCodeKey{
	"core.sshcommand":            {GitShell, gitSSH},
	"core.pager":                 {GitShell, gitPagers},
	"core.editor":                {GitShell, gitEditors},
	"sequence.editor":            {GitShell, gitEditors},
	"core.askpass":               {GitProgram, gitAskPass},
	"core.fsmonitor":             {GitProgram, nil}, // true/false: the built-in daemon
	"core.gitproxy":              {GitShell, nil},
	"core.alternaterefscommand":  {GitShell, nil},
	"core.hookspath":             {GitHooks, nil},
	"init.templatedir":           {GitHooks, nil},
	"diff.external":              {GitShell, gitDiffTools},
	"diff.*.command":             {GitShell, gitDiffTools},
	"diff.*.textconv":            {GitShell, gitTextconv},
	"merge.*.driver":             {GitShell, gitMerge},
	"filter.*.clean":             {GitShell, gitFilters},
	"filter.*.smudge":            {GitShell, gitFilters},
	"filter.*.process":           {GitShell, gitFilters},
	"difftool.*.cmd":             {GitShell, gitDiffTools},
	"difftool.*.path":            {GitProgram, gitDiffTools},
	"mergetool.*.cmd":            {GitShell, gitDiffTools},
	"mergetool.*.path":           {GitProgram, gitDiffTools},
	"man.*.cmd":                  {GitShell, nil},
	"man.*.path":                 {GitProgram, nil},
	"browser.*.cmd":              {GitShell, nil},
	"browser.*.path":             {GitProgram, nil},
	"web.browser":                {GitProgram, nil},
	"instaweb.browser":           {GitProgram, nil},
	"instaweb.httpd":             {GitShell, nil},
	"guitool.*.cmd":              {GitShell, nil},
	"gpg.program":                {GitProgram, gitGPG},
	"gpg.*.program":              {GitProgram, gitGPG},
	"gpg.*.defaultkeycommand":    {GitShell, nil}, // gpg.ssh.defaultKeyCommand
	"credential.helper":          {GitProgram, gitCredential},
	"credential.*.helper":        {GitProgram, gitCredential},
	"pager.*":                    {GitShell, gitPagers}, // true/false: paging on or off
	"alias.*":                    {GitShell, nil},       // only a "!" alias runs a shell
	"interactive.difffilter":     {GitShell, gitDiffs},
	"uploadpack.packobjectshook": {GitShell, nil},
	"sendemail.sendmailcmd":      {GitShell, nil},
	"sendemail.tocmd":            {GitShell, nil},
	"sendemail.cccmd":            {GitShell, nil},
	"sendemail.headercmd":        {GitShell, nil},
	"imap.tunnel":                {GitShell, nil},
	"remote.*.uploadpack":        {GitShell, nil},
	"remote.*.receivepack":       {GitShell, nil},
	"remote.*.vcs":               {GitProgram, nil}, // git-remote-<vcs>
	"submodule.*.update":         {GitShell, nil},   // only "!command" runs a shell
	"include.path":               {GitInclude, nil},
	"includeif.*.path":           {GitInclude, nil},
	"protocol.allow":             {GitTransport, nil},
	"protocol.*.allow":           {GitTransport, nil},
	"url.*.insteadof":            {GitTransport, nil},
	"url.*.pushinsteadof":        {GitTransport, nil},
	"remote.*.url":               {GitTransport, nil},
	"remote.*.pushurl":           {GitTransport, nil},
	"submodule.*.url":            {GitTransport, nil},
}

func names(ns ...string) map[string]bool {
	m := make(map[string]bool, len(ns))
	for _, n := range ns {
		m[n] = true
	}
	return m
}

// gitKeyPattern reduces a config name to its pattern: the subsection of a
// three-part name (filter.lfs.clean) and the name of a two-part one under
// pager. and alias. become "*".
func gitKeyPattern(name string) string {
	first, rest, ok := strings.Cut(name, ".")
	if !ok {
		return name
	}
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		return first + ".*" + rest[i:]
	}
	if first == "pager" || first == "alias" {
		return first + ".*"
	}
	return name
}

// subsection is the middle part of a three-part name (the base URL of
// url.<base>.insteadOf), as written.
func subsection(name string) string {
	_, rest, _ := strings.Cut(name, ".")
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		return rest[:i]
	}
	return ""
}

// GitCodeSetting reports whether setting name (any case) to value makes git
// run or load code, and what kind; false for a key that runs nothing, and
// for an everyday value of one that does (see the file comment). A value
// with unknown parts must be passed with unknown set: it is code unless
// the key takes none at all. Cost: a map lookup and a scan of the value.
func GitCodeSetting(name, value string, unknown bool) (GitCode, bool) {
	lower := strings.ToLower(name)
	pat := gitKeyPattern(lower)
	k, ok := gitCodeKeys[pat]
	if !ok {
		return 0, false
	}
	v := strings.TrimSpace(value)
	if unknown {
		if pat == "url.*.insteadof" || pat == "url.*.pushinsteadof" {
			return k.code, IsExtURL(subsection(lower))
		}
		return k.code, true
	}
	if v == "" {
		return 0, false // git reads an empty value as "reset" or "off"
	}
	switch pat {
	case "core.fsmonitor", "pager.*":
		if isGitBool(v) {
			return 0, false
		}
	case "alias.*", "submodule.*.update":
		sh, bang := strings.CutPrefix(v, "!")
		if !bang {
			return 0, false // a git command line / a plain update mode
		}
		return k.code, !everydayCommand(sh, k.everyday)
	case "core.hookspath":
		if v == "/dev/null" || strings.EqualFold(v, "nul") {
			return 0, false // no hooks at all
		}
		return k.code, true
	case "credential.helper", "credential.*.helper":
		if sh, bang := strings.CutPrefix(v, "!"); bang {
			return GitShell, !everydayCommand(sh, k.everyday)
		}
	case "protocol.allow", "protocol.*.allow":
		allows := strings.EqualFold(v, "always") || strings.EqualFold(v, "user")
		return k.code, allows && (pat == "protocol.allow" || subsection(lower) == "ext")
	case "url.*.insteadof", "url.*.pushinsteadof":
		return k.code, IsExtURL(subsection(lower))
	case "remote.*.url", "remote.*.pushurl", "submodule.*.url":
		return k.code, IsExtURL(v)
	}
	if k.code == GitHooks || k.code == GitInclude {
		return k.code, true
	}
	return k.code, !everydayCommand(v, k.everyday)
}

// IsExtURL reports whether a remote URL uses git's ext:: transport, which
// runs its text as a command.
func IsExtURL(url string) bool {
	return len(url) >= 5 && strings.EqualFold(url[:5], "ext::")
}

// ExtCommand returns the command an ext:: URL runs, as argv: the text after
// "ext::" split at unescaped blanks, "% " standing for a blank, "%%" for
// "%" and "%s"/"%S" for the service git runs (git-upload-pack). ok is
// false when url is not an ext:: URL or names no command.
func ExtCommand(url string) ([]string, bool) {
	if !IsExtURL(url) {
		return nil, false
	}
	var out []string
	var cur strings.Builder
	inWord := false
	text := url[5:]
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '%' && i+1 < len(text):
			i++
			switch text[i] {
			case ' ':
				cur.WriteByte(' ')
			case '%':
				cur.WriteByte('%')
			case 's', 'S':
				cur.WriteString("git-upload-pack")
			}
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, len(out) > 0
}

// everydayCommand reports whether a command line is one of the everyday
// programs of a role: its first word (base name, no .exe, lower-case) is
// in progs, and it holds no shell syntax (;|&$`<>(){} or a line break) and
// no ssh option that runs a command (ProxyCommand, LocalCommand).
func everydayCommand(line string, progs map[string]bool) bool {
	if len(progs) == 0 || strings.ContainsAny(line, ";|&$`<>(){}\n\r") {
		return false
	}
	lower := strings.ToLower(line)
	if strings.Contains(lower, "proxycommand") || strings.Contains(lower, "localcommand") {
		return false
	}
	first := firstField(line)
	if i := strings.LastIndexAny(first, `/\`); i >= 0 {
		first = first[i+1:]
	}
	first = strings.TrimSuffix(strings.ToLower(first), ".exe")
	return first != "" && progs[first]
}

// firstField is a command line's first word, quotes removed ('C:/Program
// Files/x.exe' -flag is one word).
func firstField(line string) string {
	line = strings.TrimSpace(line)
	if line == "" {
		return ""
	}
	if q := line[0]; q == '\'' || q == '"' {
		if end := strings.IndexByte(line[1:], q); end >= 0 {
			return line[1 : 1+end]
		}
		return line[1:]
	}
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		return line[:i]
	}
	return line
}

// gitCodeEnv are the environment variables that make git load code from
// elsewhere for the command they are given to: another global or system
// configuration file, the directory it runs its own programs from, the
// template a new repository copies its hooks from. (Command-valued ones
// such as GIT_SSH_COMMAND are CommandVar: their command is judged.)
var gitCodeEnv = map[string]GitCode{
	"GIT_CONFIG_GLOBAL": GitInclude, "GIT_CONFIG_SYSTEM": GitInclude, "GIT_CONFIG": GitInclude,
	"GIT_EXEC_PATH": GitProgram, "GIT_TEMPLATE_DIR": GitHooks,
}

// GitCodeEnv reports whether assigning value to environment variable name
// makes git load code that is not on the command line, and what kind:
// gitCodeEnv's variables (unless /dev/null), and GIT_ALLOW_PROTOCOL when it
// allows ext.
func GitCodeEnv(name, value string, unknown bool) (GitCode, bool) {
	v := strings.TrimSpace(value)
	if name == "GIT_ALLOW_PROTOCOL" {
		if unknown {
			return GitTransport, true
		}
		for _, p := range strings.Split(v, ":") {
			if strings.EqualFold(strings.TrimSpace(p), "ext") {
				return GitTransport, true
			}
		}
		return 0, false
	}
	code, ok := gitCodeEnv[name]
	if !ok || !unknown && (v == "" || v == "/dev/null") {
		return 0, false
	}
	return code, true
}
