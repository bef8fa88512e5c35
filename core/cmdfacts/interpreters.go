package cmdfacts

import "strings"

// InterpreterLang returns the language of an interpreter command name (a
// normalised Command.Name), or "" when name is no interpreter: "node"
// (node, nodejs, node22), "python" (python, python3, python3.12, the
// free-threaded python3.13t, pythonw, py, pypy, pypy3), "perl", "ruby",
// "php" (with versions: perl5.36, ruby3.3, php8.2), "deno", "bun", "awk"
// (awk, gawk, mawk, nawk, goawk), "osascript", "lua" (lua, luajit,
// lua5.4), "r" (R, Rscript), "tcl" (tclsh, tclsh8.6, wish, expect),
// "julia", "elixir" (elixir, iex, mix), "erlang" (erl), "groovy",
// "haskell" (ghc, runghc, runhaskell), "crystal" and "scala" (scala,
// scala-cli). It is the language the one-liner
// scan takes.
func InterpreterLang(name string) string {
	switch name {
	case "nodejs":
		return "node"
	case "luajit":
		return "lua"
	case "r", "rscript":
		return "r"
	case "wish", "expect":
		return "tcl"
	case "py", "pypy", "pypy3":
		return "python"
	case "deno", "bun", "osascript", "julia", "elixir", "groovy", "crystal":
		return name
	case "iex", "mix":
		return "elixir"
	case "erl":
		return "erlang"
	case "scala", "scala-cli":
		return "scala"
	case "ghc", "runghc", "runhaskell":
		return "haskell"
	case "awk", "gawk", "mawk", "nawk", "goawk":
		return "awk"
	}
	if strings.HasPrefix(name, "tclsh") && versionSuffix(name[len("tclsh"):]) {
		return "tcl"
	}
	for _, base := range [...]string{"python", "perl", "ruby", "php", "node", "lua"} {
		if strings.HasPrefix(name, base) && versionSuffix(name[len(base):]) {
			return base
		}
	}
	return ""
}

// versionSuffix accepts what follows an interpreter's base name: "", "3",
// "3.12", "3.13t" (a build suffix letter), "5.36.0", "w".
func versionSuffix(s string) bool {
	if len(s) > 0 {
		if c := s[len(s)-1]; c >= 'a' && c <= 'z' {
			s = s[:len(s)-1]
		}
	}
	if s == "" {
		return true
	}
	if s[0] < '0' || s[0] > '9' {
		return false
	}
	return strings.Trim(s, "0123456789.") == ""
}
