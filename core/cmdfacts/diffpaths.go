package cmdfacts

import (
	"strings"
)

// DiffPaths returns the paths a unified diff (git diff, diff -u, a mail
// git am reads) names, as written with their a/ b/ prefixes: each file's
// "--- " and "+++ " names (not /dev/null), the two paths of a "diff --git"
// line, and "rename from/to" and "copy from/to" names; the patch can
// create, change or delete any of them. A name is cut at a tab (diff -u's
// time stamp) and unquoted when git quoted it. Cost: linear in the text.
func DiffPaths(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = diffName(p)
		if p == "" || p == "/dev/null" || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "):
			add(line[4:])
		case strings.HasPrefix(line, "diff --git "):
			a, b := splitGitDiffLine(line[len("diff --git "):])
			add(a)
			add(b)
		case strings.HasPrefix(line, "rename from "), strings.HasPrefix(line, "copy from "):
			add(line[strings.Index(line, " from ")+6:])
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			add(line[strings.Index(line, " to ")+4:])
		}
	}
	return out
}

// diffName reads one name: a quoted "..." name unescaped, else the text
// before a tab.
func diffName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		if end := strings.LastIndexByte(s, '"'); end > 0 {
			return strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\t`, "\t", `\n`, "\n").Replace(s[1:end])
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// splitGitDiffLine splits "a/x b/y" (or quoted names) into its two paths;
// with unquoted names holding blanks, the split is where " b/" starts.
func splitGitDiffLine(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if end := strings.Index(s[1:], `"`); end >= 0 {
			return s[:end+2], strings.TrimSpace(s[end+2:])
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return s[:i], s[i+1:]
	}
	a, b, _ := strings.Cut(s, " ")
	return a, b
}

// StripDiffPath removes the first n leading components of a diff name
// (patch -pN, git apply -pN); "" when it has fewer than n+1.
func StripDiffPath(p string, n int) string {
	for i := 0; i < n; i++ {
		_, rest, ok := strings.Cut(p, "/")
		if !ok {
			return ""
		}
		p = strings.TrimLeft(rest, "/")
	}
	return p
}
