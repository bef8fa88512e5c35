package ir

import "strings"

// CommandName reduces a command word to its rule name: the last path
// element, lower-cased, with .exe/.cmd/.bat/.com/.ps1 removed
// ("/usr/bin/RM.exe" gives "rm"), and a GNU tool's "g" prefix removed
// (gnuPrefixed: Homebrew installs GNU coreutils, findutils, sed, tar,
// grep and make on macOS as grm, gfind, gsed ...: "grm" gives "rm").
func CommandName(v string) string {
	if i := strings.LastIndexAny(v, `/\`); i >= 0 {
		v = v[i+1:]
	}
	v = strings.ToLower(v)
	for _, ext := range [...]string{".exe", ".cmd", ".bat", ".com", ".ps1"} {
		if strings.HasSuffix(v, ext) && len(v) > len(ext) {
			v = v[:len(v)-len(ext)]
			break
		}
	}
	if len(v) > 1 && v[0] == 'g' && gnuPrefixed[v[1:]] {
		return v[1:]
	}
	return v
}

// gnuPrefixed are the GNU tools a package manager installs under a "g"
// prefix beside the system's own (Homebrew's coreutils, findutils,
// gnu-sed, gnu-tar, grep, make): the ones the layers judge, read or
// strip, and the everyday ones. awk is not among them: gawk is GNU awk's
// own name, with options of its own (-i inplace).
var gnuPrefixed = map[string]bool{
	"rm": true, "rmdir": true, "unlink": true, "cp": true, "mv": true, "ln": true, "link": true,
	"install": true, "dd": true, "shred": true, "chmod": true, "chown": true, "chgrp": true,
	"chcon": true, "truncate": true, "touch": true, "mkdir": true, "mkfifo": true, "mknod": true,
	"tee": true, "split": true, "csplit": true, "sort": true, "mktemp": true, "timeout": true,
	"env": true, "nohup": true, "stdbuf": true, "nice": true, "chroot": true, "runcon": true,
	"kill": true, "cat": true, "tac": true, "head": true, "tail": true, "base64": true,
	"base32": true, "basenc": true, "od": true, "tr": true, "cut": true, "paste": true,
	"readlink": true, "realpath": true, "ls": true, "du": true, "stat": true, "printf": true,
	"echo": true, "date": true, "sha256sum": true, "md5sum": true, "wc": true, "uniq": true,
	"find": true, "xargs": true, "locate": true, "updatedb": true, "sed": true, "tar": true,
	"grep": true, "egrep": true, "fgrep": true, "make": true,
}
