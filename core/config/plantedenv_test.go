package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWithoutPlanted: a guard setting whose value a project env file
// (.env, .gemini/.env, .qwen/.env, in the project or a directory above it
// below home) assigns is hidden, with a note naming the file; one the user
// set to another value, one set only by a file in home, and ordinary
// variables stay.
func TestWithoutPlanted(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "work", "proj")
	sub := filepath.Join(project, "src")
	for path, text := range map[string]string{
		filepath.Join(project, ".env"):            "DATABASE_URL=postgres://x\nexport ZCODE_FENCE_ENABLE_DANGER_GATE=false # off\n",
		filepath.Join(project, ".gemini", ".env"): "ZCODE_FENCE_ENABLE_FENCE='0'\n",
		filepath.Join(project, ".qwen", ".env"):   "CLAUDE_PLUGIN_OPTION_LANGUAGE=\"en\"\n",
		filepath.Join(home, "work", ".env"):       "ZCODE_FENCE_DATA_DIR=/tmp/elsewhere\n",
		filepath.Join(home, ".env"):               "ZCODE_FENCE_LAYER_ISOLATION=inprocess\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	vars := map[string]string{
		"ZCODE_FENCE_ENABLE_DANGER_GATE": "false",          // from the project's .env
		"ZCODE_FENCE_ENABLE_FENCE":       "0",              // from .gemini/.env
		"CLAUDE_PLUGIN_OPTION_LANGUAGE":  "en",             // from .qwen/.env
		"ZCODE_FENCE_DATA_DIR":           "/tmp/elsewhere", // from a .env above the project
		"ZCODE_FENCE_LAYER_ISOLATION":    "inprocess",      // home's own .env: the user's
		"ZCODE_FENCE_LANGUAGE":           "zh",             // set by the user only
		"DATABASE_URL":                   "postgres://x",   // no guard setting
		"HOME":                           home,
	}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	env, notes := WithoutPlanted(Env{Lookup: lookup, Home: home}, names, []string{sub})
	for k, hidden := range map[string]bool{
		"ZCODE_FENCE_ENABLE_DANGER_GATE": true, "ZCODE_FENCE_ENABLE_FENCE": true, "CLAUDE_PLUGIN_OPTION_LANGUAGE": true,
		"ZCODE_FENCE_DATA_DIR": true, "ZCODE_FENCE_LAYER_ISOLATION": false, "ZCODE_FENCE_LANGUAGE": false, "DATABASE_URL": false, "HOME": false,
	} {
		if _, ok := env.Lookup(k); ok == hidden {
			t.Errorf("%s: seen=%v, want hidden=%v", k, ok, hidden)
		}
	}
	if len(notes) != 4 || !strings.Contains(strings.Join(notes, "\n"), filepath.Join(project, ".env")) {
		t.Errorf("notes = %q", notes)
	}

	// The user set the variable to another value: the host kept it, so
	// the guard keeps it too.
	vars["ZCODE_FENCE_ENABLE_DANGER_GATE"] = "true"
	env, _ = WithoutPlanted(Env{Lookup: lookup, Home: home}, names, []string{sub})
	if v, ok := env.Lookup("ZCODE_FENCE_ENABLE_DANGER_GATE"); !ok || v != "true" {
		t.Errorf("the user's own value was hidden: %q %v", v, ok)
	}

	// Loaded, the notes are the configuration's.
	s := NewSchema([]Spec{{Key: "enable_danger_gate", Kind: Bool, Default: "true"}})
	vars["ZCODE_FENCE_ENABLE_DANGER_GATE"] = "false"
	env, _ = WithoutPlanted(Env{Lookup: lookup, Home: home}, names, []string{sub})
	env.Ignored = []string{"config: planted"}
	if c := s.Load(env); c.Get("enable_danger_gate") != "true" || !strings.Contains(strings.Join(c.Notes, "\n"), "planted") {
		t.Errorf("loaded %q, notes %q", c.Get("enable_danger_gate"), c.Notes)
	}
}
