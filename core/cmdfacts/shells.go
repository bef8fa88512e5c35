package cmdfacts

// shellNames are the POSIX-family shells and their relatives: each runs
// a script given with -c, named as an operand, or read from stdin.
var shellNames = map[string]bool{
	"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "ash": true, "mksh": true, "fish": true,
	"rbash": true, "yash": true, "csh": true, "tcsh": true, "ksh93": true, "pdksh": true, "lksh": true, "oksh": true,
	// Newer shells whose -c takes a command line rm, dd, mkfs ... read
	// the same way (their own syntax beyond that is not followed).
	"nu": true, "elvish": true, "xonsh": true, "osh": true, "ysh": true,
}

// IsShell reports whether name (a normalised Command.Name, or a path as
// awk's system() and popen name it: /bin/sh) is a shell.
func IsShell(name string) bool {
	if shellNames[name] {
		return true
	}
	for _, dir := range [...]string{"/bin/", "/usr/bin/", "/usr/local/bin/"} {
		if len(name) > len(dir) && name[:len(dir)] == dir && shellNames[name[len(dir):]] {
			return true
		}
	}
	return false
}

// Shells returns the shell names, for tables keyed by command name.
func Shells() []string {
	out := make([]string, 0, len(shellNames))
	for n := range shellNames {
		out = append(out, n)
	}
	return out
}
