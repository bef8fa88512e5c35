package ondisk

import (
	"path"
	"strings"
)

// Shebang is a script's #! line, read the way the kernel and env read it.
type Shebang struct {
	// Prog is the interpreter's name, its last path element ("bash",
	// "python3"); through /usr/bin/env it is the program env runs.
	Prog string
	// Args are the arguments after it (env -S splits them; the kernel
	// passes the rest of the line as one).
	Args []string
}

// ParseShebang reads text's #! line; ok is false when there is none.
func ParseShebang(text string) (Shebang, bool) {
	if !strings.HasPrefix(text, "#!") {
		return Shebang{}, false
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	line = strings.TrimSuffix(line, "\r")
	f := strings.Fields(line)
	if len(f) == 0 {
		return Shebang{}, false
	}
	prog, args := path.Base(f[0]), f[1:]
	if prog == "env" {
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			if args[0] == "-u" && len(args) > 1 {
				args = args[1:]
			}
			args = args[1:]
		}
		for len(args) > 0 && strings.Contains(args[0], "=") {
			args = args[1:] // env NAME=VALUE prog
		}
		if len(args) == 0 {
			return Shebang{}, false
		}
		prog, args = path.Base(args[0]), args[1:]
	}
	return Shebang{Prog: prog, Args: args}, true
}

// Binary reports text that is a compiled program or other binary data, not
// a script: an ELF, Mach-O, PE or wasm header, or a NUL byte in its first
// 1024 bytes.
func Binary(text string) bool {
	for _, magic := range [...]string{"\x7fELF", "\xfe\xed\xfa", "\xcf\xfa\xed\xfe", "\xce\xfa\xed\xfe", "\xca\xfe\xba\xbe", "MZ", "\x00asm"} {
		if strings.HasPrefix(text, magic) {
			return true
		}
	}
	return strings.IndexByte(text[:min(len(text), 1024)], 0) >= 0
}
