package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPlacesCases runs testdata/places-cases.json through the built
// binary in both isolation modes (issue 27: two silent calls must never
// add up to a switched-off guard): protected places replaced whole,
// git configuration whose value runs, the repository redirected, command
// transports, guard settings planted in files hosts and shells load, and
// tool input that is not an object; each with its silent twins. The
// project is a git repository whose hooks live in .husky
// (core.hooksPath), with a nested repository and a submodule.
func TestPlacesCases(t *testing.T) {
	t.Parallel()
	runCaseFile(t, "testdata/places-cases.json", 20, 10, placesProject)
}

// placesProject makes the scratch project a repository as the places
// cases expect: .git with config (hooks in .husky) and hooks, a stage/
// directory holding a .claude settings file and a git dir, a nested
// repository sub/.git, a submodule's git dir under .git/modules, and an
// everyday .env.
func placesProject(t *testing.T, s *scratch, home string) {
	t.Helper()
	files := map[string]string{
		".git/HEAD":                       "ref: refs/heads/main\n",
		".git/config":                     "[core]\n\trepositoryformatversion = 0\n\thooksPath = .husky\n",
		".git/hooks/pre-commit.sample":    "#!/bin/sh\n",
		".git/modules/lib/HEAD":           "ref: refs/heads/main\n",
		".git/modules/lib/hooks/x.sample": "#!/bin/sh\n",
		".husky/pre-commit":               "npm test\n",
		"sub/.git/HEAD":                   "ref: refs/heads/main\n",
		"sub/.git/config":                 "[core]\n",
		"lib/.git":                        "gitdir: ../.git/modules/lib\n",
		"stage/.claude/settings.json":     "{\"disableAllHooks\": true}\n",
		"stage/.git/config":               "[core]\n\tfsmonitor = ./x.sh\n",
		"stage/src/main.go":               "package main\n",
		".env":                            "DATABASE_URL=postgres://localhost/dev\n",
		"src/a.go":                        "package src\n",
	}
	for rel, text := range files {
		p := filepath.Join(s.project, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
