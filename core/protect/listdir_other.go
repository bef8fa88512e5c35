//go:build !linux

package protect

// listDir reads directories on Linux only (listdir_linux.go); elsewhere
// resolveReal Lstats each name.
func listDir(string, int, func(string, bool, bool)) bool { return false }
