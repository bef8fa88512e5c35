package sdk

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell"
)

// Git is one git invocation found in a script.
type Git struct {
	// Index is the command's position in Script.Commands.
	Index int
	// Command is the command itself (argv, redirects, cd chain, Via, ...).
	Command *shell.Command
	// Sub is the subcommand ("push", "branch", ...) after git's global
	// options, with a -c alias.NAME=... alias expanded. It is "" when
	// there is none (git --version) or when it cannot be known: see
	// Unknown.
	Sub string
	// Args are the arguments after the subcommand (after the alias's own
	// words, when an alias was expanded).
	Args []shell.Word
	// Config holds the -c NAME=VALUE settings given on the command line,
	// names lower-cased. Nil when there are none.
	Config map[string]string
	// Alias is the alias name Sub was expanded from, or "".
	Alias string
	// Unknown is set when a word before the subcommand, or the subcommand
	// itself, could not be resolved (git $OPTS push, git "$CMD" ...), or
	// when the subcommand is a shell alias (-c alias.x='!...'). Sub is
	// then "" and Args nil: the analysis cannot say what git will run.
	Unknown bool
}

// gitValued are git's global options that take their value as the next
// argument when it is not given with "=".
var gitValued = map[string]bool{
	"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true,
	"--super-prefix": true, "--config-env": true, "--attr-source": true,
}

// maxAliasDepth bounds alias expansion (an alias may name another alias).
const maxAliasDepth = 4

// ParseGit reads c as a git invocation. ok is false when c is not git.
// The command counts as git when its Name is "git", or "git-SUB" (the
// dashed form of a subcommand, /usr/lib/git-core/git-push), which gives
// Sub "SUB".
//
// Global options recognised before the subcommand: every word starting
// with "-" (git's flags), where -C, -c, --git-dir, --work-tree,
// --namespace, --super-prefix, --config-env and --attr-source take the
// next word as their value unless written NAME=VALUE. -h/--help and
// -v/--version end the scan with no subcommand. Aliases are known only
// when given with -c on the same command line; aliases from the user's
// git config are invisible to the analysis (an offline, file-free guess
// would be wrong more often than right).
func ParseGit(c *shell.Command) (g Git, ok bool) {
	if c == nil || len(c.Args) == 0 {
		return Git{}, false
	}
	g.Command = c
	if sub, dashed := strings.CutPrefix(c.Name, "git-"); dashed && sub != "" {
		g.Sub, g.Args = sub, c.Args[1:]
		return g, true
	}
	if c.Name != "git" {
		return Git{}, false
	}
	ws := c.Args[1:]
	for k := 0; k < len(ws); k++ {
		v, known := Literal(ws[k])
		if !known {
			g.Unknown = true
			return g, true
		}
		switch {
		case v == "-h" || v == "--help" || v == "-v" || v == "--version":
			return g, true
		case gitValued[v]:
			if v == "-c" && k+1 < len(ws) {
				g.setConfig(ws[k+1])
			}
			k++
		case strings.HasPrefix(v, "-"):
			// A flag, or --option=value.
		default:
			g.Sub, g.Args = v, ws[k+1:]
			g.expandAlias()
			return g, true
		}
	}
	return g, true
}

func (g *Git) setConfig(w shell.Word) {
	name, value, _ := strings.Cut(w.Value, "=")
	if g.Config == nil {
		g.Config = map[string]string{}
	}
	g.Config[strings.ToLower(name)] = value
}

// expandAlias replaces Sub by the alias -c alias.SUB=... defines, a few
// levels deep. A shell alias ("!...") makes the invocation Unknown.
func (g *Git) expandAlias() {
	for range maxAliasDepth {
		def, ok := g.Config["alias."+strings.ToLower(g.Sub)]
		if !ok {
			return
		}
		fields := strings.Fields(def)
		if len(fields) == 0 || strings.HasPrefix(def, "!") {
			*g = Git{Index: g.Index, Command: g.Command, Config: g.Config, Alias: g.Sub, Unknown: true}
			return
		}
		words := make([]shell.Word, 0, len(fields)-1+len(g.Args))
		for _, f := range fields[1:] {
			words = append(words, shell.Word{Value: f, Raw: f, KnownPrefix: f})
		}
		if g.Alias == "" {
			g.Alias = g.Sub
		}
		g.Sub, g.Args = fields[0], append(words, g.Args...)
	}
}

// GitCommands returns every git invocation in s, in command order, or only
// those whose Sub is one of subs when subs are given (an Unknown
// invocation is returned only when subs is empty). A nil s gives nil.
func GitCommands(s *shell.Script, subs ...string) []Git {
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
