package main

import (
	"regexp"
	"strings"
	"testing"
)

// placeholderRE matches a corpus placeholder, {NAME} or {{NAME}}, together
// with a "$" right before it, so that fillPlaceholders can tell the
// placeholder from shell parameter syntax.
var placeholderRE = regexp.MustCompile(`\$?(\{\{[A-Z_]+\}\}|\{[A-Z_]+\})`)

// fillPlaceholders is the one renderer of the corpora's placeholders: each
// {NAME} or {{NAME}} whose NAME is a key of vals becomes its value. A brace
// right after "$" is shell syntax, never a placeholder: "${HOME}" and
// "${PROJECT}" reach the hook as written, so a case like `rm -rf "${HOME}"`
// is judged as the shell text it is (an earlier strings.Replacer turned it
// into "$/home/alice"). Unknown names are left as they are. Cost: one regexp
// pass over v.
func fillPlaceholders(v string, vals map[string]string) string {
	return placeholderRE.ReplaceAllStringFunc(v, func(m string) string {
		if strings.HasPrefix(m, "$") {
			return m
		}
		name := strings.Trim(m, "{}")
		if val, ok := vals[name]; ok {
			return val
		}
		return m
	})
}

// TestFillPlaceholders pins the rendering rules the corpora rely on.
func TestFillPlaceholders(t *testing.T) {
	t.Parallel()
	vals := map[string]string{"HOME": "/home/alice", "PROJECT": "/work/p"}
	for _, c := range []struct{ in, want string }{
		{`rm -rf {HOME}/x`, `rm -rf /home/alice/x`},
		{`cat {{HOME}}/.bashrc`, `cat /home/alice/.bashrc`},
		{`rm -rf "${HOME}"`, `rm -rf "${HOME}"`},
		{`echo ${PROJECT}/{PROJECT}`, `echo ${PROJECT}//work/p`},
		{`cp {a,b} {UNKNOWN}`, `cp {a,b} {UNKNOWN}`},
		{`$HOME {HOME}`, `$HOME /home/alice`},
	} {
		if got := fillPlaceholders(c.in, vals); got != c.want {
			t.Errorf("fillPlaceholders(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
