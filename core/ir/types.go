package ir

import "strings"

// Dialect is the shell language a command is written in.
type Dialect int

const (
	// Bash is POSIX sh / bash (the Bash and Shell tools, bash -c, sh -c ...).
	Bash Dialect = iota
	// PowerShell is Windows PowerShell / pwsh (the PowerShell tool,
	// powershell -Command ...).
	PowerShell
	// Cmd is cmd.exe (cmd /c ...).
	Cmd
)

// String returns "bash", "powershell" or "cmd".
func (d Dialect) String() string {
	switch d {
	case PowerShell:
		return "powershell"
	case Cmd:
		return "cmd"
	default:
		return "bash"
	}
}

// Word is one argument (or redirect target, or assignment value) as the
// shell would see it.
type Word struct {
	// Value is the argument after quote removal, backslash escapes and
	// expansion of known variables ($HOME, $TMPDIR, $PWD, assignments made
	// earlier in the same command, the process environment). Parts whose
	// value is unknown (an unset variable, $(...), `...`) are kept as their
	// source text and Unknown is set.
	Value string
	// Raw is the word's source text exactly as written (quotes included).
	// Under POSIX quoting C:\Users loses its backslashes in Value; Raw keeps
	// them, so a layer can consider both.
	Raw string
	// Unknown is set when any part of Value could not be resolved.
	Unknown bool
	// KnownPrefix is the resolved text before the first unknown part; equal
	// to Value when Unknown is false. "$X/etc" gives "", "/tmp/$X" gives "/tmp/".
	KnownPrefix string
	// Glob is set when the word contains an unquoted glob (*, ?, [...]).
	Glob bool
}

// LiteralTilde reports whether a bash word starts with a tilde the shell
// left alone because it was quoted or escaped ("~", '~/x', \~, $'~'):
// the program gets a name starting with "~", a file in its working
// directory, not the home directory. Value keeps the "~"; a layer that
// normalises it as a path must read it as "./" + Value. Unquoted tildes
// are already expanded in Value.
func (w Word) LiteralTilde() bool {
	if !strings.HasPrefix(w.Value, "~") {
		return false
	}
	r := strings.TrimPrefix(w.Raw, "$")
	return len(r) > 1 && (r[0] == '"' || r[0] == '\'' || r[0] == '\\') && r[1] == '~'
}

// Redirect is one I/O redirection of a command.
type Redirect struct {
	// Op is the operator as written: ">", ">>", ">|", "&>", "&>>", "<", "<<",
	// "<<-", "<<<", ">&", "<&", "<>".
	Op string
	// Fd is the explicit file descriptor ("2" in 2>), or "".
	Fd string
	// Target is the file (or fd for >&) the redirect names. For heredocs and
	// here-strings it is the delimiter / the string.
	Target Word
	// Body is the heredoc body text (for << and <<-), else "".
	Body string
}

// IsWrite reports whether the redirect writes to (or truncates) its target
// file: >, >>, >|, &>, &>>, <>, and >& when its target is not a descriptor.
func (r Redirect) IsWrite() bool {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		return !isFdWord(r.Target.Value) && r.Target.Value != "-"
	}
	return false
}

func isFdWord(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// FeedKind says how a command's output reaches another command.
type FeedKind int

const (
	// FeedNone: the output goes nowhere the analysis tracks.
	FeedNone FeedKind = iota
	// FeedPipe: stdout is piped into the next command of a pipeline.
	FeedPipe
	// FeedSubst: the command runs inside $(...) or `...` in an argument,
	// assignment or redirect of another command; in PowerShell, its output
	// is the value of a ( ), $( ) or @( ) block (or of a { } block run in
	// place: & { }, Invoke-Command { }) in a word of another command, as in
	// iex (irm URL). In a pipeline inside such a block only the last
	// command feeds the holder.
	FeedSubst
	// FeedProcSubst: the command runs inside <(...) or >(...) of another
	// command.
	FeedProcSubst
	// FeedArgs: the command is run by xargs (or parallel) with arguments
	// read from its input.
	FeedArgs
)

// String returns "", "pipe", "subst", "procsubst" or "args".
func (k FeedKind) String() string {
	switch k {
	case FeedPipe:
		return "pipe"
	case FeedSubst:
		return "subst"
	case FeedProcSubst:
		return "procsubst"
	case FeedArgs:
		return "args"
	default:
		return ""
	}
}

// Command is one simple command that would run.
type Command struct {
	// Name is argv[0] reduced to what rules match on: the last path element,
	// lower-cased, with .exe/.cmd/.bat/.com/.ps1 removed ("/usr/bin/RM.exe"
	// gives "rm"). "" when argv[0] is unknown (e.g. $CMD with CMD unset).
	//
	// A PowerShell .NET static method call, [System.IO.Directory]::Delete(
	// "C:\x", $true), is reported as a Command too, with a synthetic name:
	// "[" full type name "]::" method, lower-case (see PSStaticCallName:
	// [IO.File] and [System.IO.File] both give "[system.io.file]::delete",
	// [scriptblock]::Create gives
	// "[system.management.automation.scriptblock]::create"). Args[0] is
	// that name (Raw: the call as written), Args[1:] the call's arguments
	// as PowerShell values ($true is "True"); an argument that is itself an
	// expression is Unknown, and the commands in it follow, feeding the
	// call (FeedSubst).
	Name string
	// NameIfEmpty is the Name argv[0] would have if its unknown parts
	// expanded to nothing: "r${X}m" and "$BIN/rm" give "rm", "$CMD" gives
	// "". Equal to Name when argv[0] is known. Wrappers and nested shells
	// are followed on it too (ba${X}sh -c ... is analysed as bash -c), so a
	// layer seeing Name == "" may match its rules on NameIfEmpty.
	NameIfEmpty string
	// Args is argv, Args[0] being the command word, after wrapper commands
	// (sudo, env, nice, timeout, ...) and their options were stripped.
	Args []Word
	// Assigns are the NAME=value words before the command (FOO=1 rm ...).
	Assigns []Assign
	// Redirects are the command's redirections, in source order.
	Redirects []Redirect
	// Cd is the chain of directory changes (cd, pushd, popd) in effect when
	// the command runs, oldest first, each as its cd argument. Resolve it
	// against the call's cwd: an absolute step replaces the base, a relative
	// one is joined. An Unknown step (cd -, cd "$X") makes the directory
	// unknown. Empty: the command runs in the call's cwd.
	//
	// The chain is kept short: consecutive known relative steps are merged
	// into one, joined with / (bash) or \ (cmd, PowerShell), with .. kept as
	// written (cd a; cd ../b gives "a/../b"), Raw joined alike; a known
	// absolute step drops the steps before it; consecutive wholly unknown
	// steps collapse into one. A chain holds at most 32 steps of at most
	// 4 KiB: a longer step becomes the Unknown step "(cd step too long)",
	// and a chain that would grow past 32 steps ends in the Unknown step
	// "(cd chain too long)". The slice may be shared with other Commands:
	// do not modify it.
	Cd []Word
	// Dialect is the language this command was parsed in.
	Dialect Dialect
	// Depth is the nesting depth: 0 at top level, +1 per bash -c, eval,
	// $(...), powershell -Command, cmd /c, xargs, find -exec, ... level.
	Depth int
	// Via lists the wrappers and contexts that lead here, outermost first:
	// "sudo", "bash -c", "$()", "eval", "xargs", "find -exec", "sh <<",
	// "echo | sh" (literal text piped into a shell), "unknown wrapper" (the
	// command after a wholly unknown command word: $SUDO rm ...),
	// "Start-Process" and "start" (a program started from PowerShell or
	// cmd.exe, in dialect Cmd), "for" (a cmd.exe for body)... Each entry
	// keeps that text and a ViaKind (ParseVia) for the contexts layers test.
	Via []Via
	// Parent is the index (in Script.Commands) of the command that runs this
	// one: the wrapper for bash -c / eval / xargs / find -exec, the command
	// whose word holds the $(...) for substitutions. -1 at top level.
	Parent int
	// FeedsInto is the index of the command that consumes this command's
	// output (see Feed), or -1.
	FeedsInto int
	// Feed says how the output reaches FeedsInto.
	Feed FeedKind
	// Stdin is text fed to the command's standard input by a heredoc, a
	// here-string or literal text piped in (echo '...' | python3, the
	// text the producer prints, unknown parts as written), "" when none.
	Stdin string
	// Output is what an echo or printf prints when the analysis can format
	// it (printf '%s=%s\n' A b prints "A=b\n"; unknown parts as written),
	// "" otherwise: the text a write redirect of the command puts in a file.
	Output string
	// Background is set for a command run with & at the end.
	Background bool
	// Origin is where the command was read from when it comes from a file
	// on disk that the call runs (a script, a makefile recipe, a
	// package.json script, a git hook): the file as the call names it
	// (relative to the call's cwd when inside it) and the line, as
	// "scripts/clean.sh:12"; just the file for an interpreter file, whose
	// whole text is the program ("tools/gen.py"). "" for the command line
	// itself. Layers put it before their message.
	Origin string
	// Effects are what the command does to files (deletes, writes, mode
	// changes, with their targets), read from Name and Args by
	// core/cmdfacts once, when the command is built (cmdfacts.FillEffects):
	// the analysis fills them for every command it reports, and a layer
	// that makes a Command of its own (a package runner's command) fills
	// them the same way. Layers judge these rather than re-reading argv.
	// nil when the command does nothing to a file that cmdfacts knows of.
	Effects []Effect
	// Uninspected is set on a command that runs a file whose text the
	// analysis could not read although it exists: the file and why, as
	// "run.sh: not a regular file" (a FIFO, a device, /proc/self/fd/N).
	// Layers must treat what it runs as unknown.
	Uninspected string
}

// Assign is one NAME=value prefix assignment.
type Assign struct {
	Name  string
	Value Word
}

// Script is the analysis of one command string.
type Script struct {
	// Source is the command text as given.
	Source string
	// Dialect is the top-level language.
	Dialect Dialect
	// Commands lists every simple command found, in source order of their
	// start, nested ones after the command that contains them.
	Commands []Command
	// ParseError is the parser's message when the text did not parse. The
	// analysis then fell back to a conservative token scan: Commands hold
	// what that scan found, and layers should treat the result as
	// incomplete, never as harmless.
	ParseError string
	// Truncated is set when nesting went deeper than the analysis follows
	// (MaxDepth) or a size limit was hit; what lies beyond is unknown.
	Truncated bool
}

// MaxDepth bounds how deep bash -c / eval / $(...) / cmd /c ... nesting is
// followed. Deeper text is not analysed and Script.Truncated is set.
const MaxDepth = 8
