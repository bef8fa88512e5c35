package sdk

import (
	"slices"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Git is one git invocation found in a script.
type Git struct {
	// Index is the command's position in Script.Commands.
	Index int
	// Command is the command itself (argv, redirects, cd chain, Via, ...).
	Command *ir.Command
	// Sub is the subcommand ("push", "branch", ...) after git's global
	// options, with a -c alias.NAME=... alias expanded; "help" and
	// "version" for git --help and git --version. It is "" when there is
	// none (git alone, git --exec-path) or when it cannot be known: see
	// Unknown.
	Sub string
	// Args are the arguments after the subcommand (after the alias's own
	// words, when an alias was expanded).
	Args []ir.Word
	// Config holds the settings given on the command line (-c
	// NAME=VALUE, --config-env NAME=ENVVAR) and in GIT_CONFIG_*
	// assignments whose values are known, names lower-cased. Nil when
	// there are none.
	Config map[string]string
	// Alias is the alias name Sub was expanded from, or "".
	Alias string
	// Unknown is set when a word before the subcommand, or the subcommand
	// itself, could not be resolved (git $OPTS push, git "$CMD" ...), or
	// when the subcommand is a shell alias (-c alias.x='!...'). Sub is
	// then "" and Args nil: the analysis cannot say what git will run.
	Unknown bool
}

// ParseGit reads c as a git invocation. ok is false when c is not git.
// The command counts as git when its Name is "git", or "git-SUB" (the
// dashed form of a subcommand, /usr/lib/git-core/git-push), which gives
// Sub "SUB".
//
// The command line is read by the project's one git front-end
// (core/cmdfacts.ParseGit), the way git itself reads it: every global
// option git accepts (-C, -c, --config-env, --git-dir, --work-tree,
// --namespace, --attr-source, --shallow-file take a value; --exec-path,
// --html-path, --man-path, --info-path and --list-cmds= print and exit,
// so no subcommand runs), -h/--help and -v/--version as the help and
// version commands, and aliases given with -c, --config-env or the
// GIT_CONFIG_COUNT/KEY_n/VALUE_n and GIT_CONFIG_PARAMETERS assignments on
// the same command, expanded as git expands them (an alias may name
// another). Aliases from the user's git config files are invisible to the
// analysis (an offline, file-free guess would be wrong more often than
// right).
func ParseGit(c *ir.Command) (g Git, ok bool) {
	f, ok := cmdfacts.GitCommand(c)
	if !ok {
		return Git{}, false
	}
	g = Git{Command: c, Sub: f.Sub, Args: f.Args, Alias: f.Alias, Unknown: f.Unknown}
	for _, s := range f.Config {
		if s.Unknown {
			continue
		}
		if g.Config == nil {
			g.Config = map[string]string{}
		}
		g.Config[s.Name] = s.Value
	}
	if f.ShellAlias != "" {
		g.Sub, g.Args, g.Unknown = "", nil, true
	}
	if g.Unknown {
		g.Args = nil
	}
	return g, true
}

// GitCommands returns every git invocation in s, in command order, or only
// those whose Sub is one of subs when subs are given (an Unknown
// invocation is returned only when subs is empty). A nil s gives nil.
func GitCommands(s *ir.Script, subs ...string) []Git {
	var out []Git
	for i, c := range Commands(s) {
		g, ok := ParseGit(c)
		if !ok {
			continue
		}
		g.Index = i
		if len(subs) > 0 && !slices.Contains(subs, g.Sub) {
			continue
		}
		out = append(out, g)
	}
	return out
}
