// Package ir holds the intermediate representation of a command line, the
// part of the layer ABI that travels to every layer over the layer
// protocol: Script, Command, Word, Redirect, Assign, Dialect, FeedKind and
// Via, the Outline rendering and CommandName. It has no logic beyond them
// and imports nothing of the project: it is the bottom of the module's
// import order (internal/archtest keeps it so).
//
// The parsers that build a Script live under core/shell, above
// core/cmdfacts (how commands read their command lines), each importing
// only the ones after it:
//
//   - core/shell/analysis: the walker (analysis.Analyze) that turns command
//     text into a Script: bash through mvdan.cc/sh/v3, nested scripts,
//     wrappers, substitutions, the cd chain;
//   - core/shell/winshell: the PowerShell and cmd.exe splitters, powershell
//     and cmd host payloads, cmdlet parameter binding and .NET static calls;
//   - core/shell/oneliner: what an interpreter one-liner's code deletes,
//     writes and runs, (lang, code) -> effects, with no shell types;
//   - core/shell/cdchain: the working directory a command runs in.
//
// core/shell/testdata holds the analysis corpora the parsers' tests and the
// golden test of cmd/zcode-fence share.
package ir
