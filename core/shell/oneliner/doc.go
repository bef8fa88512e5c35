// Package oneliner scans the code of an interpreter one-liner (python -c,
// node -e, perl -e, ruby -e, php -r, awk programs, AppleScript) for what it
// does that a layer may judge: the files it deletes and writes and the
// shell commands it runs (Effects, Execs). It takes a language and the code
// as text, (lang, code) -> effects, and needs no shell types: which
// argument of which interpreter holds the code is a command fact
// (core/cmdfacts.InlineScripts).
//
// The scan is lexical, per language: string literals, comments, regex
// literals and interpolation are told apart so that data (a regex
// /rm -rf/, a printed string) never counts, and a call's arguments are
// evaluated only when they are literals (or single-assignment variables,
// joins and home-directory expressions built from literals). It never
// panics and does linear work, on at most maxCode bytes of code.
package oneliner
