// Package cmdfacts is the one copy of what the layers know about how
// commands read their command lines: the git front-end (every global
// option git accepts, -c / --config-env / GIT_CONFIG_* settings, alias
// expansion, the subcommand and its operands), find's start paths and
// actions and fd's search paths, the interpreter names (with versions
// and build suffixes: python3.13t is python), the shell names, the .NET
// file calls PowerShell can make, and the option-spec parser every
// command table is written against (Spec, ParseArgs, HasShort, HasLong,
// Value).
//
// The danger gate, the project fence, the layer SDK and the shell
// analysis all read these facts here; a test (ownership_test.go) fails
// when one of them grows its own copy of a table this package owns.
//
// Everything here is pure: no I/O, no global state beyond read-only
// tables, safe for concurrent use, linear in the words it is given.
package cmdfacts
