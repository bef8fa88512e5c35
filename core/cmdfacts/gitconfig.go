package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// What git runs through a shell because its configuration or environment
// says so (core.sshCommand, GIT_SSH_COMMAND, core.pager, a "!" credential
// helper, a filter driver ...), what `git config` writes and where, and the
// environment variables other programs run as commands (PAGER, EDITOR).

// GitConfigCommand returns the command line a configuration setting makes
// git run, and whether it makes git run one: the value of a shell- or
// program-valued key of gitCodeKeys (not a boolean where the key also
// takes one: core.fsmonitor, pager.<cmd>), the text after "!" of a shell
// alias, a credential helper or a submodule update mode, a credential
// helper given as an absolute path. name is lower-case.
func GitConfigCommand(name, value string) (string, bool) {
	pat := gitKeyPattern(strings.ToLower(name))
	k, ok := gitCodeKeys[pat]
	if !ok || k.code != GitShell && k.code != GitProgram || strings.TrimSpace(value) == "" {
		return "", false
	}
	switch pat {
	case "alias.*", "submodule.*.update":
		sh, ok := strings.CutPrefix(value, "!")
		return sh, ok
	case "credential.helper", "credential.*.helper":
		if sh, ok := strings.CutPrefix(value, "!"); ok {
			return sh, true
		}
		return value, strings.HasPrefix(value, "/")
	case "core.fsmonitor", "pager.*":
		if isGitBool(value) {
			return "", false
		}
	}
	return value, true
}

func isGitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

// commandVars are the environment variables whose value a program runs
// as a shell command: git's (GIT_SSH_COMMAND, GIT_PAGER, GIT_EDITOR ...),
// the general pager and editor variables, and bash's PROMPT_COMMAND.
var commandVars = map[string]bool{
	"GIT_SSH_COMMAND": true, "GIT_PAGER": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true,
	"GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_PROXY_COMMAND": true,
	"PAGER": true, "EDITOR": true, "VISUAL": true, "MANPAGER": true, "SYSTEMD_PAGER": true,
	"SUDO_ASKPASS": true, "RSYNC_RSH": true, "CVS_RSH": true,
	"PROMPT_COMMAND": true, // bash runs it before each prompt
}

// CommandVar reports whether programs run the value of environment
// variable name as a shell command (GIT_SSH_COMMAND, PAGER, EDITOR ...).
func CommandVar(name string) bool { return commandVars[name] }

// shellVars are the variables that name the running or the user's shell.
var shellVars = map[string]bool{"SHELL": true, "BASH": true, "ZSH_NAME": true, "ZSH_ARGZERO": true}

// ShellVar reports whether variable name holds a shell's path ($SHELL,
// $BASH): `$SHELL -c ...` runs a shell.
func ShellVar(name string) bool { return shellVars[name] }

// GitConfigWrite is one `git config` invocation that sets a value.
type GitConfigWrite struct {
	// Scope is "global", "system", "local", "worktree" or "file".
	Scope string
	// File is the --file / -f / --blob target when Scope is "file".
	File *ir.Word
	// Name is the key, lower-cased in its section and variable parts.
	Name string
	// Value is the value written ("" for --unset and the like).
	Value ir.Word
	// Unset is set for --unset, --unset-all, --remove-section,
	// --rename-section and the unset subcommand.
	Unset bool
}

// gitConfigValued are git config's options that take a value.
var gitConfigValued = map[string]bool{"--file": true, "-f": true, "--blob": true, "--type": true,
	"--default": true, "--comment": true, "--value": true, "--url": true}

// ParseGitConfigWrite reads the arguments of `git config` (g.Args when
// g.Sub is "config") and returns the write it makes, if it makes one:
// `git config [SCOPE] NAME VALUE [VALUE_PATTERN]`, --add, --replace-all,
// --unset[-all], --rename-section, --remove-section, and the subcommand
// forms `git config set|unset|rename-section|remove-section [SCOPE] ...`.
// Reads (--get, --list, get, list ...) and `--edit` return false.
func ParseGitConfigWrite(args []ir.Word) (GitConfigWrite, bool) {
	var w GitConfigWrite
	w.Scope = "local"
	var ops []ir.Word
	mode := ""
	if len(args) > 0 && !args[0].Unknown {
		switch args[0].Value {
		case "set", "unset", "rename-section", "remove-section":
			mode = args[0].Value
			args = args[1:]
		case "get", "list", "edit", "get-regexp", "get-all", "get-urlmatch", "get-color", "get-colorbool":
			return w, false
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown || !strings.HasPrefix(v, "-") || v == "-" {
			ops = append(ops, a)
			continue
		}
		if v == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		name, val, eq := strings.Cut(v, "=")
		switch name {
		case "--global", "--system", "--local", "--worktree":
			w.Scope = name[2:]
		case "--file", "-f", "--blob":
			w.Scope = "file"
			if eq {
				f := SubWord(a, len(name)+1)
				w.File = &f
			} else if i+1 < len(args) {
				i++
				w.File = &args[i]
			}
			continue
		case "--unset", "--unset-all", "--remove-section", "--rename-section":
			w.Unset = true
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list", "-l", "--edit", "-e",
			"--get-color", "--get-colorbool", "--show-origin", "--show-scope":
			if name != "--show-origin" && name != "--show-scope" {
				return w, false
			}
		}
		if strings.HasPrefix(v, "-f") && len(v) > 2 && !strings.HasPrefix(v, "--") {
			w.Scope = "file"
			f := SubWord(a, 2)
			w.File = &f
			continue
		}
		if gitConfigValued[name] && !eq {
			i++
		}
		_ = val
	}
	switch mode {
	case "unset", "rename-section", "remove-section":
		w.Unset = true
	}
	if len(ops) == 0 || ops[0].Unknown && ops[0].KnownPrefix == "" {
		if len(ops) > 0 {
			return w, true // an unknown key: a write all the same
		}
		return w, false
	}
	w.Name = gitConfigName(ops[0].Value)
	if w.Unset {
		return w, true
	}
	if len(ops) < 2 {
		return w, false // git config NAME reads
	}
	w.Value = ops[1]
	return w, true
}

// gitConfigName lower-cases a config name's section and variable, keeping
// a subsection as written (remote.Origin.url keeps "Origin").
func gitConfigName(n string) string {
	first := strings.IndexByte(n, '.')
	last := strings.LastIndexByte(n, '.')
	if first < 0 {
		return strings.ToLower(n)
	}
	if first == last {
		return strings.ToLower(n)
	}
	return strings.ToLower(n[:first]) + n[first:last] + strings.ToLower(n[last:])
}

// GitPayloads returns the shell commands a git invocation makes git run
// for its caller: the command-valued settings of -c, --config-env and
// GIT_CONFIG_* (core.sshCommand, core.pager, a "!" credential helper ...),
// a `git config` write of such a setting, and the --upload-pack /
// --receive-pack / --exec options. A shell alias is not among them (Git
// .ShellCommand). Cost: linear in the words.
func GitPayloads(g Git) []Payload {
	var out []Payload
	add := func(text string, unknown bool, via string) {
		w := Literal(text)
		if unknown {
			w = ir.Word{Value: text, Raw: text, Unknown: true}
		}
		out = append(out, Payload{Via: via, Line: &w})
	}
	for _, c := range g.Config {
		if strings.HasPrefix(c.Name, "alias.") {
			continue // aliases run only when used (ParseGit expands them)
		}
		if sh, ok := GitConfigCommand(c.Name, c.Value); ok {
			add(sh, c.Unknown, "git -c "+c.Name)
		}
	}
	if g.Sub == "config" {
		if w, ok := ParseGitConfigWrite(g.Args); ok && !w.Unset {
			if sh, isCmd := GitConfigCommand(w.Name, w.Value.Value); isCmd {
				val := w.Value
				if off := len(w.Value.Value) - len(sh); off > 0 {
					val = SubWord(w.Value, off)
				}
				out = append(out, Payload{Via: "git config " + w.Name, Line: &val})
			}
		}
	}
	out = append(out, gitSubcommandPayloads(g)...)
	return append(out, gitExtPayloads(g)...)
}

// gitURLSubs are the subcommands that take a remote URL as an operand or
// an option value (and git config, whose value may be one).
var gitURLSubs = map[string]bool{"clone": true, "fetch": true, "pull": true, "push": true, "ls-remote": true,
	"remote": true, "submodule": true, "archive": true, "fetch-pack": true, "send-pack": true, "config": true}

// gitExtPayloads returns the commands of the ext:: URLs a URL-taking
// subcommand names (git clone 'ext::sh -c touch% /tmp/x' runs sh -c
// "touch /tmp/x"): judged as the commands they are, whether or not ext is
// allowed (protocol.ext.allow) where git will run them.
func gitExtPayloads(g Git) []Payload {
	if !gitURLSubs[g.Sub] {
		return nil
	}
	var out []Payload
	for _, a := range g.Args {
		text := a.Value
		if _, v, ok := strings.Cut(text, "="); ok && strings.HasPrefix(text, "--") {
			text = v // --remote=ext::...
		}
		if a.Unknown {
			if IsExtURL(a.KnownPrefix) {
				w := ir.Word{Value: text, Raw: text, Unknown: true}
				out = append(out, Payload{Via: "git " + g.Sub + " ext::", Line: &w})
			}
			continue
		}
		argv, ok := ExtCommand(text)
		if !ok {
			continue
		}
		ws := make([]ir.Word, len(argv))
		for i, s := range argv {
			ws[i] = Literal(s)
		}
		out = append(out, Payload{Via: "git " + g.Sub + " ext::", Argv: ws})
	}
	return out
}

// gitLineOptions are subcommand options whose value git runs through a
// shell: rebase --exec/-x, filter-branch's filters, difftool --extcmd/-x,
// send-email's --to-cmd/--cc-cmd, and --upload-pack (-u for clone and
// ls-remote), --receive-pack, --exec, which run on this machine when the
// remote is local (a path or file://).
var gitLineOptions = map[string][]string{
	"clone":     {"--upload-pack", "-u"},
	"fetch":     {"--upload-pack"},
	"pull":      {"--upload-pack"},
	"ls-remote": {"--upload-pack", "-u"},
	"push":      {"--receive-pack", "--exec"},
	"send-pack": {"--receive-pack", "--exec"},
	"archive":   {"--exec"},
	"rebase":    {"--exec", "-x"},
	"filter-branch": {"--tree-filter", "--index-filter", "--msg-filter", "--env-filter", "--commit-filter",
		"--parent-filter", "--tag-name-filter", "--setup"},
	"difftool":   {"--extcmd", "-x"},
	"send-email": {"--to-cmd", "--cc-cmd", "--header-cmd"},
}

// gitSubcommandPayloads returns the commands git subcommands run for the
// caller: submodule foreach's command, bisect run's command, and the
// values of gitLineOptions.
func gitSubcommandPayloads(g Git) []Payload {
	var out []Payload
	switch key, rest := GitSubSub(g.Sub, g.Args); key {
	case "submodule foreach":
		i := 0
		for i < len(rest) && !rest[i].Unknown && strings.HasPrefix(rest[i].Value, "-") {
			i++ // --recursive, -q
		}
		if i < len(rest) {
			w := joinWords(rest[i:])
			out = append(out, Payload{Via: "git submodule foreach", Line: &w})
		}
	case "bisect run":
		if len(rest) > 0 {
			out = append(out, Payload{Via: "git bisect run", Argv: rest})
		}
	}
	for _, opt := range gitLineOptions[g.Sub] {
		for i := 0; i < len(g.Args); i++ {
			a := g.Args[i]
			switch {
			case a.Unknown:
			case a.Value == "--":
				i = len(g.Args)
			case a.Value == opt && i+1 < len(g.Args):
				i++
				val := g.Args[i]
				out = append(out, Payload{Via: "git " + g.Sub + " " + opt, Line: &val})
			case strings.HasPrefix(a.Value, opt+"=") && strings.HasPrefix(opt, "--"):
				val := SubWord(a, len(opt)+1)
				out = append(out, Payload{Via: "git " + g.Sub + " " + opt, Line: &val})
			case len(opt) == 2 && strings.HasPrefix(a.Value, opt) && len(a.Value) > 2 && !strings.HasPrefix(a.Value, "--"):
				val := SubWord(a, 2)
				out = append(out, Payload{Via: "git " + g.Sub + " " + opt, Line: &val})
			}
		}
	}
	return out
}

// joinWords joins words with blanks into one word, unknown from the first
// unknown word on.
func joinWords(ws []ir.Word) ir.Word {
	var vals []string
	known, prefix := true, ""
	for i, w := range ws {
		if known && w.Unknown {
			known = false
			prefix = strings.Join(vals, " ")
			if i > 0 {
				prefix += " "
			}
			prefix += w.KnownPrefix
		}
		vals = append(vals, w.Value)
	}
	text := strings.Join(vals, " ")
	if known {
		return Literal(text)
	}
	return ir.Word{Value: text, Raw: text, Unknown: true, KnownPrefix: prefix}
}
