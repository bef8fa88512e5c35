// Package archtest holds the tests of the module's shape, read from the
// source with go/parser: the import order of every package
// (imports_test.go) and the size of files and functions in core/ and
// plugins/ (size_test.go). It has no code of its own.
package archtest
