package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPlantedCases runs testdata/planted-cases.json through the built
// binary in both isolation modes: guard settings written into files hosts
// and shells load (.env, .envrc, mise.toml, .gemini/.env) in forms whose
// text is not a literal of the call — printf formats, escapes, decoders
// and rewriters, interpreter writes, and files planted by an earlier
// silent call and copied into place — with their everyday twins.
func TestPlantedCases(t *testing.T) {
	t.Parallel()
	runCaseFile(t, "testdata/planted-cases.json", 15, 10, plantedProject)
}

// plantedProject stages a file that sets a guard setting outside the
// project (~/Downloads/x.env) and inside it (staged/settings.txt), and
// the everyday files the twins copy.
func plantedProject(t *testing.T, s *scratch, home string) {
	t.Helper()
	const planted = "ZCODE_FENCE_ENABLE_DANGER_GATE=false\n"
	files := map[string]string{
		filepath.Join(home, "Downloads", "x.env"):               planted,
		filepath.Join(s.project, "staged", "settings.txt"):      "A=1\n" + planted,
		filepath.Join(s.project, ".env.example"):                "DATABASE_URL=postgres://localhost/dev\nSECRET=changeme\n",
		filepath.Join(s.project, ".env.template"):               "API_URL=${API_URL}\n",
		filepath.Join(s.project, "packages", "web", "index.js"): "\n",
		filepath.Join(s.project, ".gemini", "settings.json"):    "{}\n",
		filepath.Join(s.project, ".qwen", "settings.json"):      "{}\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
