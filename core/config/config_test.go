package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type fileCase struct {
	Name  string            `json:"name"`
	File  json.RawMessage   `json:"file"`
	Raw   string            `json:"raw"`
	Env   map[string]string `json:"env"`
	Want  map[string]string `json:"want"`
	Notes int               `json:"notes"`
}

func TestLoad(t *testing.T) {
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []fileCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "config.json")
			content := tc.Raw
			if content == "" && len(tc.File) > 0 && string(tc.File) != "null" {
				content = string(tc.File)
			}
			if content != "" {
				if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{"ZCODE_FENCE_CONFIG": path}
			for k, v := range tc.Env {
				env[k] = v
			}
			cfg := Load(Env{Lookup: mapLookup(env), Home: dir})
			for k, want := range tc.Want {
				if got := cfg.Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if len(cfg.Notes) != tc.Notes {
				t.Errorf("notes = %d %q, want %d", len(cfg.Notes), cfg.Notes, tc.Notes)
			}
			for _, n := range cfg.Notes {
				if strings.Contains(n, "from-file") || strings.Contains(n, "from-env") {
					t.Errorf("note leaks a sensitive value: %q", n)
				}
			}
		})
	}
}

func TestSensitiveValuesNeverNoted(t *testing.T) {
	// An invalid sensitive value cannot exist (strings are free-form), but a
	// public dump must never include one.
	env := map[string]string{"ZCODE_FENCE_DECISION_MODEL_API_KEY": "sk-secret-value"}
	cfg := Load(Env{Lookup: mapLookup(env), Home: t.TempDir()})
	for k, v := range cfg.Public() {
		if strings.Contains(v, "sk-secret-value") {
			t.Fatalf("Public()[%s] leaks the API key", k)
		}
	}
	if cfg.Get(KeyDecisionModelAPIKey) != "sk-secret-value" {
		t.Fatal("API key not loaded from env")
	}
}

func TestDataDir(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"ZCODE_FENCE_DATA_DIR": "/a", "ZCODE_PLUGIN_DATA": "/b", "CLAUDE_PLUGIN_DATA": "/c"}, "/a"},
		{map[string]string{"ZCODE_PLUGIN_DATA": "/b", "CLAUDE_PLUGIN_DATA": "/c"}, "/b"},
		{map[string]string{"CLAUDE_PLUGIN_DATA": "/c"}, "/c"},
		{map[string]string{}, filepath.Join("/h", ".zcode", "cli", "plugins", "data", "zcode-fence")},
	}
	for _, tc := range cases {
		if got := DataDir(Env{Lookup: mapLookup(tc.env), Home: "/h"}); got != tc.want {
			t.Errorf("DataDir(%v) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

func TestList(t *testing.T) {
	got := List(" a ; ;b;; c ")
	if strings.Join(got, "|") != "a|b|c" {
		t.Fatalf("List = %q", got)
	}
	if List("") != nil {
		t.Fatal("List of empty is not empty")
	}
}

func TestHomeDir(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "USERPROFILE": `C:\Users\u`}
	if got := HomeDir(mapLookup(env)); got != "/home/u" {
		t.Fatalf("HomeDir = %q", got)
	}
	env["ZCODE_FENCE_HOME"] = "/override"
	if got := HomeDir(mapLookup(env)); got != "/override" {
		t.Fatalf("HomeDir with override = %q", got)
	}
}

func mapLookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}
