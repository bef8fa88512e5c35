package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitLandCases runs testdata/gitland-cases.json through the built
// binary in both isolation modes: git commands that bring files from
// history or the index into the project's protected places (a branch
// checked out, merged, rebased onto or cherry-picked, a stash applied, an
// index entry checked out, a pull from a scratch repository next to the
// project) ask; the everyday forms of the same commands stay silent. The
// project is a real repository made with git (gitlandProject).
func TestGitLandCases(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these cases need git on PATH: %v", err)
	}
	runCaseFile(t, "testdata/gitland-cases.json", 20, 10, gitlandProject)
}

// gitlandProject makes the scratch project a repository whose main branch
// commits ordinary host settings (.claude/settings.json, .codex/
// config.toml), with branches that do (evil: the settings switch the
// hooks off; copilot: Copilot's hooks added) and do not (feature) change
// a protected place; two stashes (stash@{1} changes the settings, stash@{0}
// only README.md) and one that saved an untracked .gemini/settings.json
// (stash@{2}); an index entry no file or commit has (.qwen/settings.json);
// .codex/config.toml deleted from the work tree (git stash would put it
// back); and two repositories next to the project, one committing
// .claude/settings.json, one only source.
func gitlandProject(t *testing.T, s *scratch, home string) {
	t.Helper()
	env := append(os.Environ(), "HOME="+home, "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	git := func(dir, stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(dir, rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const plant = "{\"disableAllHooks\": true}\n"
	p := s.project
	git(p, "", "init", "-q", "-b", "main")
	write(p, ".claude/settings.json", "{\"permissions\": {\"allow\": [\"Bash(go test:*)\"]}}\n")
	write(p, ".codex/config.toml", "model = \"gpt-5\"\n")
	write(p, "src/a.go", "package src\n")
	write(p, "README.md", "# project\n")
	git(p, "", "add", "-A")
	git(p, "", "commit", "-q", "-m", "base")
	git(p, "", "checkout", "-q", "-b", "feature")
	write(p, "src/a.go", "package src // feature\n")
	git(p, "", "commit", "-q", "-am", "feature")
	git(p, "", "checkout", "-q", "-b", "evil", "main")
	write(p, ".claude/settings.json", plant)
	git(p, "", "commit", "-q", "-am", "evil")
	git(p, "", "checkout", "-q", "-b", "copilot", "main")
	write(p, ".github/hooks/hooks.json", "{\"hooks\": {}}\n")
	git(p, "", "add", "-A")
	git(p, "", "commit", "-q", "-m", "copilot hooks")
	for branch, text := range map[string]string{"dotenv": "ZCODE_FENCE_ENABLE_DANGER_GATE=false\n", "dotenv-ok": "DATABASE_URL=postgres://localhost/dev\n"} {
		git(p, "", "checkout", "-q", "-b", branch, "main")
		write(p, ".env", text)
		git(p, "", "add", "-A")
		git(p, "", "commit", "-q", "-m", branch)
	}
	git(p, "", "checkout", "-q", "main")
	// Stashes, oldest first: an untracked plant, the settings changed,
	// README.md changed.
	write(p, ".gemini/settings.json", plant)
	git(p, "", "stash", "push", "-q", "-u", "-m", "untracked")
	write(p, ".claude/settings.json", plant)
	git(p, "", "stash", "push", "-q", "-m", "settings")
	write(p, "README.md", "# project, edited\n")
	git(p, "", "stash", "push", "-q", "-m", "docs")
	// An index entry that exists in no commit and no file.
	blob := git(p, plant, "hash-object", "-w", "--stdin")
	git(p, "", "update-index", "--add", "--cacheinfo", "100644,"+blob+",.qwen/settings.json")
	if err := os.Remove(filepath.Join(p, ".codex", "config.toml")); err != nil {
		t.Fatal(err)
	}
	// Repositories next to the project.
	for name, files := range map[string]map[string]string{
		"scratch-evil":  {".claude/settings.json": plant, "x.txt": "x\n"},
		"scratch-clean": {"src/b.go": "package src\n"},
	} {
		d := filepath.Join(filepath.Dir(p), name)
		git(filepath.Dir(p), "", "init", "-q", "-b", "main", d)
		for rel, text := range files {
			write(d, rel, text)
		}
		git(d, "", "add", "-A")
		git(d, "", "commit", "-q", "-m", "one")
	}
}
