package cmdfacts

import (
	"slices"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The git front-end: how git reads its own command line before it runs a
// subcommand (git.c, handle_options and the alias loop), as of git 2.50.
// Every layer that judges git reads an invocation through ParseGit.

// gitGlobal says what one of git's global options does.
type gitGlobal uint8

const (
	gitFlag    gitGlobal = iota // takes no value
	gitValued                   // takes the next word, or "=VALUE" where gitAttached
	gitExits                    // prints something and exits: no subcommand runs
	gitCommand                  // is a command in disguise (--help is "help")
)

// gitGlobals are the global options git accepts, as handle_options reads
// them. Valued ones take the next word; those in gitAttached also accept
// "--name=VALUE". --super-prefix was removed in git 2.41 but older gits
// still take its value. An option git does not know ends git with a usage
// error; the front-end reads one it does not list as a flag, so that an
// option added to a later git never hides the subcommand that follows.
var gitGlobals = map[string]gitGlobal{
	"-C": gitValued, "-c": gitValued, "--config-env": gitValued, "--git-dir": gitValued,
	"--work-tree": gitValued, "--namespace": gitValued, "--super-prefix": gitValued,
	"--attr-source": gitValued, "--shallow-file": gitValued,
	"-p": gitFlag, "--paginate": gitFlag, "-P": gitFlag, "--no-pager": gitFlag, "--bare": gitFlag,
	"--no-replace-objects": gitFlag, "--no-lazy-fetch": gitFlag, "--no-optional-locks": gitFlag,
	"--no-advice": gitFlag, "--literal-pathspecs": gitFlag, "--no-literal-pathspecs": gitFlag,
	"--glob-pathspecs": gitFlag, "--noglob-pathspecs": gitFlag, "--icase-pathspecs": gitFlag,
	"--exec-path": gitExits, "--html-path": gitExits, "--man-path": gitExits, "--info-path": gitExits,
	"--help": gitCommand, "-h": gitCommand, "--version": gitCommand, "-v": gitCommand,
}

// gitAttached are the valued global options that also take "=VALUE".
// --exec-path=DIR sets the path instead of printing it, and --list-cmds=
// prints a list and exits.
var gitAttached = map[string]gitGlobal{
	"--config-env": gitValued, "--git-dir": gitValued, "--work-tree": gitValued, "--namespace": gitValued,
	"--super-prefix": gitValued, "--attr-source": gitValued, "--exec-path": gitFlag, "--list-cmds": gitExits,
}

// maxGitAliases bounds alias expansion (an alias may name another alias;
// git itself stops at a loop).
const maxGitAliases = 8

// GitConfig is one configuration setting given on the command line (-c,
// --config-env) or in the environment (GIT_CONFIG_COUNT/KEY_n/VALUE_n,
// GIT_CONFIG_PARAMETERS).
type GitConfig struct {
	// Name is the setting's name, lower-cased ("alias.p").
	Name string
	// Value is its value ("" for a bare -c NAME, which means true).
	Value string
	// Unknown is set when the value depends on something unresolved.
	Unknown bool
}

// Git is one git invocation read the way git reads it.
type Git struct {
	// Sub is the subcommand ("push"), after the global options and any
	// alias expansion; "help" and "version" for --help/-h and
	// --version/-v. It is "" when there is none (git alone, git
	// --exec-path), when a word before it or it itself is unknown (git
	// $OPTS push, see Unknown), or when it is a shell alias (ShellAlias).
	Sub string
	// Args are the words after the subcommand, an alias's own words first.
	Args []ir.Word
	// Alias is the alias name Sub was expanded from (the first one when
	// aliases name aliases), or "".
	Alias string
	// ShellAlias is the shell command a "!..." alias runs (without the
	// "!"), Args being its arguments; "" otherwise.
	ShellAlias string
	// Unknown is set when the subcommand cannot be known: an unresolved
	// word before it or as it, or an alias whose value is unresolved.
	Unknown bool
	// Config holds the settings of -c, --config-env and the GIT_CONFIG_*
	// assignments, in the order git applies them (later wins).
	Config []GitConfig
	// Dirs are the -C directories, in order; GitDir and WorkTree the
	// values of --git-dir and --work-tree.
	Dirs, GitDir, WorkTree []ir.Word
	// ConfigEnv are the variables --config-env NAME=VAR reads (each VAR).
	ConfigEnv []string
}

// GitConfigVar reports whether git reads settings for one invocation
// from the environment variable name: GIT_CONFIG_PARAMETERS,
// GIT_CONFIG_COUNT, GIT_CONFIG_KEY_n, GIT_CONFIG_VALUE_n.
func GitConfigVar(name string) bool {
	return name == "GIT_CONFIG_PARAMETERS" || name == "GIT_CONFIG_COUNT" ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// ParseGit reads args (the words after "git") and assigns (the
// command's prefix assignments, for --config-env and GIT_CONFIG_*) the
// way git does: global options, then the subcommand, with -c alias.NAME=
// aliases expanded (aliases in the user's git config files are invisible
// to an offline analysis). Cost: linear in the words and the aliases.
func ParseGit(args []ir.Word, assigns []ir.Assign) Git {
	return ParseGitWith(args, assigns, nil)
}

// ParseGitWith is ParseGit with settings from git's configuration files
// known beforehand (files are read first: the environment and -c win
// over them), such as an alias the same script wrote with `git config`.
func ParseGitWith(args []ir.Word, assigns []ir.Assign, files []GitConfig) Git {
	var g Git
	g.Config = append(append(g.Config, files...), envConfig(assigns)...)
	i, sub, ok := g.globals(args, assigns)
	if !ok {
		return g
	}
	if sub != "" { // --help, --version
		g.Sub, g.Args = sub, args[i:]
		return g
	}
	if i >= len(args) {
		return g
	}
	if args[i].Unknown {
		g.Unknown = true
		return g
	}
	g.Sub, g.Args = args[i].Value, args[i+1:]
	g.expandAliases(assigns)
	return g
}

// GitCommand reads c as a git invocation: "git ..." or the dashed form of
// a subcommand ("git-push ...", /usr/lib/git-core/git-push), which takes
// no global options. ok is false when c is neither.
func GitCommand(c *ir.Command) (g Git, ok bool) {
	if c == nil || len(c.Args) == 0 {
		return Git{}, false
	}
	if sub, dashed := strings.CutPrefix(c.Name, "git-"); dashed && sub != "" {
		return Git{Sub: sub, Args: c.Args[1:]}, true
	}
	if !IsGitFrontEnd(c.Name) {
		return Git{}, false
	}
	return ParseGit(c.Args[1:], c.Assigns), true
}

// gitFrontEnds are the commands that take git's command line and run git
// with it: git itself, hub (GitHub's wrapper: hub push -f is git push -f)
// and yadm (git on the dotfiles in home: yadm reset --hard resets them).
var gitFrontEnds = map[string]bool{"git": true, "hub": true, "yadm": true}

// IsGitFrontEnd reports whether the command named name runs git with its
// arguments (GitFrontEnds lists them).
func IsGitFrontEnd(name string) bool { return gitFrontEnds[name] }

// GitFrontEnds returns the names IsGitFrontEnd accepts, sorted.
func GitFrontEnds() []string { return sortedNames(gitFrontEnds) }

// globals reads the global options from args. It returns the index of the
// first word after them, the subcommand when an option stands for one
// (--help), and ok false when no subcommand runs (an option that exits)
// or an unknown word hides it (Unknown is set then).
func (g *Git) globals(args []ir.Word, assigns []ir.Assign) (next int, sub string, ok bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			g.Unknown = true
			return i, "", false
		}
		v := a.Value
		if !strings.HasPrefix(v, "-") {
			break
		}
		kind, known := gitGlobals[v]
		if !known && strings.HasPrefix(v, "-c") && len(v) > 2 && v[2] != '-' {
			// -cNAME=VALUE, -c glued to its setting: read as -c NAME=VALUE
			// (a git that refuses it runs nothing).
			g.global("-c", SubWord(a, 2), assigns)
			continue
		}
		if !known {
			if name, _, eq := strings.Cut(v, "="); eq {
				switch gitAttached[name] {
				case gitExits:
					return i, "", false
				case gitValued:
					g.global(name, SubWord(a, len(name)+1), assigns)
				}
			}
			continue // a flag, or an option of a newer git
		}
		switch kind {
		case gitExits:
			return i, "", false
		case gitCommand:
			return i + 1, gitCommandName(v), true
		case gitValued:
			if i+1 < len(args) {
				g.global(v, args[i+1], assigns)
			}
			i++
		}
	}
	return i, "", true
}

// gitCommandName is the command a command-like option stands for.
func gitCommandName(v string) string {
	switch v {
	case "-h", "--help":
		return "help"
	}
	return "version"
}

// global records the value of a valued global option.
func (g *Git) global(name string, val ir.Word, assigns []ir.Assign) {
	switch name {
	case "-C":
		g.Dirs = append(g.Dirs, val)
	case "--git-dir":
		g.GitDir = append(g.GitDir, val)
	case "--work-tree":
		g.WorkTree = append(g.WorkTree, val)
	case "-c":
		key, value, _ := strings.Cut(val.Value, "=")
		g.Config = append(g.Config, GitConfig{Name: strings.ToLower(key), Value: value, Unknown: val.Unknown})
	case "--config-env":
		// NAME=ENVVAR: the value is the variable's.
		key, env, _ := strings.Cut(val.Value, "=")
		if env != "" {
			g.ConfigEnv = append(g.ConfigEnv, env)
		}
		w, found := lookupAssign(assigns, env)
		g.Config = append(g.Config, GitConfig{Name: strings.ToLower(key), Value: w.Value, Unknown: val.Unknown || !found || w.Unknown})
	}
}

// alias returns the value of alias.NAME, the last one set.
func (g *Git) alias(name string) (GitConfig, bool) {
	key := "alias." + strings.ToLower(name)
	for k := len(g.Config) - 1; k >= 0; k-- {
		if g.Config[k].Name == key {
			return g.Config[k], true
		}
	}
	return GitConfig{}, false
}

// expandAliases replaces Sub by what its alias says, as git does when Sub
// is not a command of its own: a "!" alias runs a shell command; another
// is split like a command line (quotes and backslashes), its leading
// global options read, and its first word becomes the subcommand.
func (g *Git) expandAliases(assigns []ir.Assign) {
	var seen []string
	for range maxGitAliases + 1 {
		def, ok := g.alias(g.Sub)
		if !ok {
			return
		}
		if len(seen) == maxGitAliases || slices.Contains(seen, strings.ToLower(g.Sub)) {
			g.Sub, g.Args = "", nil // git stops at an alias loop
			return
		}
		seen = append(seen, strings.ToLower(g.Sub))
		if g.Alias == "" {
			g.Alias = g.Sub
		}
		if def.Unknown && !strings.ContainsAny(def.Value, "$`") {
			g.Sub, g.Args, g.Unknown = "", nil, true
			return
		}
		if sh, isShell := strings.CutPrefix(def.Value, "!"); isShell {
			g.Sub, g.ShellAlias = "", sh
			return
		}
		fields, ok := splitGitCmdline(def.Value)
		if !ok {
			g.Sub, g.Args = "", nil // git dies on a bad alias
			return
		}
		words := make([]ir.Word, len(fields), len(fields)+len(g.Args))
		for k, f := range fields {
			words[k] = Literal(f)
			if cut := strings.IndexAny(f, "$`"); def.Unknown && cut >= 0 {
				// An unresolved part of the alias, kept as its source text.
				words[k].Unknown, words[k].KnownPrefix = true, f[:cut]
			}
		}
		i, sub, ok := g.globals(words, assigns)
		if !ok || sub != "" || i >= len(words) || strings.EqualFold(words[i].Value, g.Sub) {
			g.Sub, g.Args = "", nil // git dies: an alias that exits, is empty or calls itself
			return
		}
		g.Sub, g.Args = words[i].Value, append(words[i+1:], g.Args...)
	}
}

// ShellCommand is the command line a shell alias runs: its text followed
// by the known arguments (the first unknown one ends them); "" when g is
// not a shell alias.
func (g Git) ShellCommand() string {
	if g.ShellAlias == "" {
		return ""
	}
	sh := g.ShellAlias
	for _, w := range g.Args {
		if w.Unknown {
			break
		}
		sh += " " + w.Value
	}
	return sh
}

// splitGitCmdline splits an alias value the way git's split_cmdline does:
// at blanks, with single and double quotes grouping and a backslash
// escaping the next character outside single quotes. ok is false for an
// unclosed quote or a trailing backslash (git rejects the alias).
func splitGitCmdline(s string) (fields []string, ok bool) {
	var cur strings.Builder
	var quote byte
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'):
			if inWord {
				fields = append(fields, cur.String())
				cur.Reset()
				inWord = false
			}
		case quote == 0 && (c == '\'' || c == '"'):
			quote, inWord = c, true
		case c == quote:
			quote = 0
		case c == '\\' && quote != '\'':
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		fields = append(fields, cur.String())
	}
	return fields, true
}

// envConfig reads the configuration the command's assignments give git:
// GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n, and
// GIT_CONFIG_PARAMETERS (the form git passes -c settings to its children
// in: 'name'='value' or 'name=value', blank-separated).
func envConfig(assigns []ir.Assign) []GitConfig {
	var out []GitConfig
	if p, ok := lookupAssign(assigns, "GIT_CONFIG_PARAMETERS"); ok {
		out = append(out, parseConfigParameters(p)...)
	}
	count, hasCount := lookupAssign(assigns, "GIT_CONFIG_COUNT")
	if !hasCount {
		return out
	}
	n, err := strconv.Atoi(count.Value)
	for _, as := range assigns {
		idx, isKey := strings.CutPrefix(as.Name, "GIT_CONFIG_KEY_")
		if !isKey {
			continue
		}
		k, kerr := strconv.Atoi(idx)
		if kerr != nil || k < 0 || (!count.Unknown && err == nil && k >= n) {
			continue // git reads only keys below a known count
		}
		val, found := lookupAssign(assigns, "GIT_CONFIG_VALUE_"+idx)
		out = append(out, GitConfig{Name: strings.ToLower(as.Value.Value), Value: val.Value,
			Unknown: as.Value.Unknown || !found || val.Unknown})
	}
	return out
}

// parseConfigParameters reads GIT_CONFIG_PARAMETERS: shell single-quoted
// items, each 'name=value' or 'name'='value'.
func parseConfigParameters(w ir.Word) []GitConfig {
	var out []GitConfig
	s := w.Value
	for {
		s = strings.TrimLeft(s, " \t\n")
		if s == "" {
			return out
		}
		item, rest, ok := cutSingleQuoted(s)
		if !ok {
			return out
		}
		name, value, eq := strings.Cut(item, "=")
		if !eq && strings.HasPrefix(rest, "=") {
			value, rest, ok = cutSingleQuoted(rest[1:])
			if !ok {
				return out
			}
		}
		out = append(out, GitConfig{Name: strings.ToLower(name), Value: value, Unknown: w.Unknown})
		s = rest
	}
}

// cutSingleQuoted reads one shell single-quoted string at the start of s
// ('it'\”s' included) and returns its text and what follows.
func cutSingleQuoted(s string) (text, rest string, ok bool) {
	var sb strings.Builder
	if !strings.HasPrefix(s, "'") {
		return "", s, false
	}
	for len(s) > 0 && s[0] == '\'' {
		end := strings.IndexByte(s[1:], '\'')
		if end < 0 {
			return "", "", false
		}
		sb.WriteString(s[1 : 1+end])
		s = s[2+end:]
		if strings.HasPrefix(s, `\'`) {
			sb.WriteByte('\'')
			s = s[2:]
		}
	}
	return sb.String(), s, true
}

// lookupAssign returns the value of the last assignment of name.
func lookupAssign(assigns []ir.Assign, name string) (ir.Word, bool) {
	for k := len(assigns) - 1; k >= 0; k-- {
		if assigns[k].Name == name {
			return assigns[k].Value, true
		}
	}
	return ir.Word{}, false
}
