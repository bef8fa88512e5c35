package ir

import "testing"

// TestCommandName: a command word's rule name, GNU "g" names included.
func TestCommandName(t *testing.T) {
	for word, want := range map[string]string{
		"rm":                    "rm",
		"/usr/bin/RM.exe":       "rm",
		`C:\Tools\Git.EXE`:      "git",
		"grm":                   "rm",
		"/opt/homebrew/bin/grm": "rm",
		"gtimeout":              "timeout",
		"gfind":                 "find",
		"gsed":                  "sed",
		"GTAR":                  "tar",
		"gmake":                 "make",
		"grm.exe":               "rm",
		"gawk":                  "gawk", // GNU awk's own name
		"git":                   "git",
		"gcc":                   "gcc",
		"go":                    "go",
		"gzip":                  "gzip",
		"g":                     "g",
		"gvim":                  "gvim",
	} {
		if got := CommandName(word); got != want {
			t.Errorf("CommandName(%q) = %q, want %q", word, got, want)
		}
	}
}
