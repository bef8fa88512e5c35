package cmdfacts

// keepsFileText are the commands that read, run or describe the files they
// name without changing their text.
var keepsFileText = map[string]bool{
	"chmod": true, "chown": true, "chgrp": true, "touch": true, "cat": true, "ls": true, "stat": true,
	"file": true, "head": true, "tail": true, "wc": true, "less": true, "more": true, "grep": true,
	"diff": true, "cmp": true, "test": true, "[": true, "echo": true, "printf": true, "source": true,
	".": true, "xargs": true, "make": true, "sha256sum": true, "md5sum": true,
	"shellcheck": true, "bat": true,
}

// KeepsFileText reports whether the command name reads, runs or describes
// the files it names without changing their text (cat, chmod, bash's
// source, make ...): a file written with known text earlier in a command
// line still has that text after it. Any other command naming the file
// may have changed it.
func KeepsFileText(name string) bool { return keepsFileText[name] }

// MakefileNames are the files GNU make reads when not given -f, in the
// order it tries them.
var MakefileNames = []string{"GNUmakefile", "makefile", "Makefile"}
