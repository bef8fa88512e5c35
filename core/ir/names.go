package ir

import "strings"

// CommandName reduces a command word to its rule name: the last path
// element, lower-cased, with .exe/.cmd/.bat/.com/.ps1 removed
// ("/usr/bin/RM.exe" gives "rm").
func CommandName(v string) string {
	if i := strings.LastIndexAny(v, `/\`); i >= 0 {
		v = v[i+1:]
	}
	v = strings.ToLower(v)
	for _, ext := range [...]string{".exe", ".cmd", ".bat", ".com", ".ps1"} {
		if strings.HasSuffix(v, ext) && len(v) > len(ext) {
			return v[:len(v)-len(ext)]
		}
	}
	return v
}
