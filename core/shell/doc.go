// Package shell holds the types of a shell analysis, the part of the layer
// ABI that travels to every layer over the layer protocol: Script, Command,
// Word, Redirect, Assign, Dialect and FeedKind, the Outline rendering and
// CommandName. It has no logic beyond them and imports nothing of the
// project.
//
// The analysis itself is in sub-packages, imported one way (each may use
// the ones after it, never the ones before):
//
//   - core/shell/analysis: the walker (analysis.Analyze) that turns command
//     text into a Script: bash through mvdan.cc/sh/v3, nested scripts,
//     wrappers, substitutions, the cd chain;
//   - core/shell/winshell: the PowerShell and cmd.exe splitters, powershell
//     and cmd host payloads, cmdlet parameter binding and .NET static calls;
//   - core/shell/oneliner: what an interpreter one-liner's code deletes,
//     writes and runs, (lang, code) -> effects, with no shell types;
//   - core/shell/ondisk: the files a command runs, read bounded from disk
//     (scripts, task files, git hooks), and the task files parsed into the
//     command lines they run, with file and line; no shell types;
//   - core/cmdfacts (outside this tree): how commands read their command
//     lines, shared with the layers.
//
// testdata/ holds the analysis corpora the sub-packages' tests and the
// golden test of cmd/zcode-fence share.
package shell
