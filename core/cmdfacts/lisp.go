package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Lisp evaluators given code on the command line: emacs --eval, guile -c,
// racket -e, sbcl --eval, clisp -x, and the Clojures: bb -e/--eval (or
// an expression as bb's first operand), clojure/clj -e/--eval (clojure.
// main's, after -M). This file holds the facts: which commands are which
// dialect, which argument holds the code (LispCodes), and which calls
// run programs or delete files (LookupLispCall, ElispShellCommands).
// core/shell/oneliner reads the code (oneliner.LispPayloads) and the
// shell analysis runs what it finds as commands of their own.

// LispCall is how one Lisp function runs a program or deletes files.
type LispCall struct {
	// Shell: the first argument is a shell command line.
	Shell bool
	// Argv: the strings from argument Prog on are an argv (the program
	// and its arguments), run without a shell.
	Argv bool
	Prog int
	// Rm is the delete the call amounts to ("rm -f", "rm -rf", "rmdir");
	// RmRecursive applies when the second argument is non-nil
	// (delete-directory DIR t).
	Rm, RmRecursive string
	// Words: a single string is split at blanks into an argv, run
	// without a shell (babashka.process's shell and process); several
	// strings are the argv.
	Words bool
	// AnyNS: the call counts under any namespace alias (sh/sh,
	// shell/sh, clojure.java.shell/sh); a Clojure name is looked up as
	// written, then by its part after "/" when AnyNS.
	AnyNS bool
}

// lispCalls are the calls read, by dialect: "elisp" (emacs; file names
// are expanded, ~ is the home directory), "scheme", which holds the calls
// of guile, racket and the Common Lisps (sbcl's uiop, clisp's ext): their
// names do not collide, and "clojure".
var lispCalls = map[string]map[string]LispCall{
	"elisp": {
		"delete-directory": {Rm: "rmdir", RmRecursive: "rm -rf"},
		"delete-file":      {Rm: "rm -f"},
		"call-process":     {Argv: true, Prog: 0},
		"process-lines":    {Argv: true, Prog: 0},
		"start-process":    {Argv: true, Prog: 2},
	},
	"scheme": {
		"system":                     {Shell: true},
		"system*":                    {Argv: true, Prog: 0},
		"process":                    {Shell: true},
		"process*":                   {Argv: true, Prog: 0},
		"delete-file":                {Rm: "rm -f"},
		"delete-directory/files":     {Rm: "rm -rf"},
		"delete-directory":           {Rm: "rmdir"},
		"open-input-pipe":            {Shell: true},
		"open-output-pipe":           {Shell: true},
		"shell-command":              {Shell: true},
		"run-shell-command":          {Shell: true},
		"uiop:run-program":           {Shell: true},
		"uiop:launch-program":        {Shell: true},
		"ext:shell":                  {Shell: true},
		"ext:run-shell-command":      {Shell: true},
		"uiop:delete-file-if-exists": {Rm: "rm -f"},
	},
	"clojure": {
		"sh":                           {Argv: true, Prog: 0, AnyNS: true},
		"shell":                        {Words: true, AnyNS: true},
		"process":                      {Words: true, AnyNS: true},
		"delete-tree":                  {Rm: "rm -rf", AnyNS: true},
		"fs/delete":                    {Rm: "rm -f"},
		"babashka.fs/delete":           {Rm: "rm -f"},
		"fs/delete-if-exists":          {Rm: "rm -f"},
		"babashka.fs/delete-if-exists": {Rm: "rm -f"},
		"delete-file":                  {Rm: "rm -f", AnyNS: true},
	},
}

// ElispShellCommands are the Emacs Lisp functions whose first argument, a
// string, is a shell command line (read before the calls of
// LookupLispCall, in this order).
var ElispShellCommands = []string{"shell-command", "shell-command-to-string", "async-shell-command", "call-process-shell-command"}

// LispDialect is the dialect of evaluator name's code: "elisp",
// "clojure" or "scheme".
func LispDialect(name string) string {
	switch name {
	case "emacs":
		return "elisp"
	case "bb", "clojure", "clj":
		return "clojure"
	}
	return "scheme"
}

// LookupLispCall finds the call named name in dialect.
func LookupLispCall(dialect, name string) (LispCall, bool) {
	calls := lispCalls[dialect]
	if c, ok := calls[name]; ok {
		return c, true
	}
	if dialect == "clojure" {
		if k := strings.LastIndexByte(name, '/'); k >= 0 {
			if c, ok := calls[name[k+1:]]; ok && c.AnyNS {
				return c, true
			}
		}
	}
	return LispCall{}, false
}

// lispEvalOpts are the options whose value is code, by evaluator.
var lispEvalOpts = map[string][]string{
	"emacs":   {"--eval", "-eval"},
	"guile":   {"-c"},
	"racket":  {"-e", "--eval"},
	"sbcl":    {"--eval"},
	"clisp":   {"-x"},
	"bb":      {"-e", "--eval"},
	"clojure": {"-e", "--eval"},
	"clj":     {"-e", "--eval"},
}

// LispCode is one Lisp expression given to an evaluator on its command
// line.
type LispCode struct {
	// Name is the evaluator (c.Name: "emacs", "guile", "bb", ...).
	Name string
	// Dialect is LispDialect(Name).
	Dialect string
	// Expr is the argument that holds the code, as known as it is.
	Expr ir.Word
}

// LispCodes returns the expressions Lisp evaluator c (c.Name normalised)
// is given: every value of its code options (also --eval=EXPR), and bb's
// first operand when it is a form. Arguments of unknown value are
// skipped. Nil for a command that is no Lisp evaluator. Cost: linear in
// the arguments.
func LispCodes(c *ir.Command) []LispCode {
	if c == nil || len(c.Args) == 0 {
		return nil
	}
	opts, ok := lispEvalOpts[c.Name]
	if !ok {
		return nil
	}
	args := c.Args[1:]
	dialect := LispDialect(c.Name)
	var out []LispCode
	operand := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		var expr *ir.Word
		switch {
		case a.Unknown:
		case containsStr(opts, a.Value) && i+1 < len(args):
			i++
			expr = &args[i]
		case c.Name == "bb" && !operand && !strings.HasPrefix(a.Value, "-"):
			operand = true // bb's first operand: an expression when it is a form
			if strings.HasPrefix(strings.TrimSpace(a.Value), "(") {
				expr = &args[i]
			}
		case strings.HasPrefix(a.Value, "--eval="):
			w := SubWord(a, len("--eval="))
			expr = &w
		}
		if expr != nil {
			out = append(out, LispCode{Name: c.Name, Dialect: dialect, Expr: *expr})
		}
	}
	return out
}
