package cmdfacts_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type fdCase struct {
	Command  string     `json:"command"`
	Roots    []string   `json:"roots"`
	Pattern  *string    `json:"pattern"` // absent: no pattern
	Hidden   bool       `json:"hidden"`
	Filtered bool       `json:"filtered"`
	Execs    [][]string `json:"execs"` // "-x" or "-X" first, then argv
	// PicksAll and PicksGit are checked with the search path /p.
	PicksAll bool   `json:"picks_all"`
	PicksGit bool   `json:"picks_git"`
	Why      string `json:"why"`
}

// TestParseFd runs testdata/fd.json: fd's search paths, pattern, hidden
// and filtering options, the commands of -x/-X, and whether the pattern
// picks every name and a .git directory.
func TestParseFd(t *testing.T) {
	for _, tc := range load[fdCase](t, "fd.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			f := cmdfacts.ParseFd(c.Args[1:])
			if got := shown(f.Roots); !slices.Equal(got, tc.Roots) {
				t.Errorf("roots %q, want %q (%s)", got, tc.Roots, tc.Why)
			}
			switch {
			case (f.Pattern == nil) != (tc.Pattern == nil):
				t.Errorf("pattern %v, want %v (%s)", f.Pattern, tc.Pattern, tc.Why)
			case f.Pattern != nil && f.Pattern.Value != *tc.Pattern:
				t.Errorf("pattern %q, want %q (%s)", f.Pattern.Value, *tc.Pattern, tc.Why)
			}
			if f.Hidden != tc.Hidden || f.Filtered != tc.Filtered {
				t.Errorf("hidden %v filtered %v, want %v %v (%s)", f.Hidden, f.Filtered, tc.Hidden, tc.Filtered, tc.Why)
			}
			var execs [][]string
			for _, e := range f.Execs {
				flag := "-x"
				if e.Batch {
					flag = "-X"
				}
				execs = append(execs, append([]string{flag}, shown(e.Argv)...))
			}
			if !slices.EqualFunc(execs, tc.Execs, slices.Equal[[]string]) {
				t.Errorf("execs %q, want %q (%s)", execs, tc.Execs, tc.Why)
			}
			if got := f.PicksAll("/p"); got != tc.PicksAll {
				t.Errorf("PicksAll %v, want %v (%s)", got, tc.PicksAll, tc.Why)
			}
			if got := f.PicksGitDir("/p"); got != tc.PicksGit {
				t.Errorf("PicksGitDir %v, want %v (%s)", got, tc.PicksGit, tc.Why)
			}
		})
	}
}

// TestGlobRegexp: fd's globs (globset syntax) as anchored expressions.
func TestGlobRegexp(t *testing.T) {
	cases := []struct {
		glob  string
		match []string
		miss  []string
	}{
		{"*", []string{"a", ".git", "main.go"}, []string{"a/b"}},
		{"*.go", []string{"main.go"}, []string{"main.gox", "go"}},
		{".git", []string{".git"}, []string{"agit", ".gitignore"}},
		{"[!.]*", []string{"src"}, []string{".git"}},
		{"*.{js,ts}", []string{"a.js", "a.ts"}, []string{"a.go"}},
		{"**/x", []string{"a/b/x"}, []string{"a/b/y"}},
		{`\*`, []string{"*"}, []string{"a"}},
	}
	for _, c := range cases {
		expr, ok := cmdfacts.GlobRegexp(c.glob)
		if !ok {
			t.Errorf("%q: not read", c.glob)
			continue
		}
		re := regexp.MustCompile(expr)
		for _, m := range c.match {
			if !re.MatchString(m) {
				t.Errorf("%q (%s) does not match %q", c.glob, expr, m)
			}
		}
		for _, m := range c.miss {
			if re.MatchString(m) {
				t.Errorf("%q (%s) matches %q", c.glob, expr, m)
			}
		}
	}
	for _, bad := range []string{"[a", "{a,b", "a}"} {
		if _, ok := cmdfacts.GlobRegexp(bad); ok {
			t.Errorf("%q read as a glob", bad)
		}
	}
}
