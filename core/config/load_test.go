package config_test

// The loader against the binary's real schema (the host's settings and the
// built-in layers'): testdata/cases.json names real keys.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/plugins"
	"github.com/zcode-fence/zcode-fence/plugins/decisionmodel"
)

type fileCase struct {
	Name  string            `json:"name"`
	File  json.RawMessage   `json:"file"`
	Raw   string            `json:"raw"`
	Env   map[string]string `json:"env"`
	Want  map[string]string `json:"want"`
	Notes int               `json:"notes"`
	// Neutral is the host-neutral file (~/.config/zcode-fence/config.json).
	Neutral json.RawMessage `json:"neutral"`
	// Claude is Claude Code's user settings file (~/.claude/settings.json).
	Claude json.RawMessage `json:"claude"`
	// Sources are SourceOf(key) values to expect, with {{FILE}},
	// {{NEUTRAL}} and {{CLAUDE}} standing for the files' paths.
	Sources map[string]string `json:"sources"`
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
			neutral := filepath.Join(dir, ".config", "zcode-fence", "config.json")
			if len(tc.Neutral) > 0 {
				if err := os.MkdirAll(filepath.Dir(neutral), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(neutral, tc.Neutral, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			claude := filepath.Join(dir, ".claude", "settings.json")
			if len(tc.Claude) > 0 {
				if err := os.MkdirAll(filepath.Dir(claude), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(claude, tc.Claude, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{"ZCODE_FENCE_CONFIG": path}
			for k, v := range tc.Env {
				env[k] = v
			}
			cfg := plugins.Schema.Load(config.Env{Lookup: mapLookup(env), Home: dir})
			for k, want := range tc.Sources {
				want = strings.NewReplacer("{{FILE}}", path, "{{NEUTRAL}}", neutral, "{{CLAUDE}}", claude).Replace(want)
				if got := cfg.SourceOf(k); got != want {
					t.Errorf("SourceOf(%s) = %q, want %q", k, got, want)
				}
			}
			for k, want := range tc.Want {
				if _, ok := plugins.Schema.Spec(k); !ok {
					t.Errorf("case names %q, which no declaration has", k)
				}
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

func TestSensitiveValuesNeverPublic(t *testing.T) {
	// An invalid sensitive value cannot exist (strings are free-form), but a
	// public dump must never include one.
	env := map[string]string{}
	for _, s := range plugins.Schema.Specs() {
		if s.Sensitive {
			env["ZCODE_FENCE_"+strings.ToUpper(s.Key)] = "sk-secret-value-" + s.Key
		}
	}
	if len(env) == 0 {
		t.Fatal("the schema declares no sensitive setting")
	}
	cfg := plugins.Schema.Load(config.Env{Lookup: mapLookup(env), Home: t.TempDir()})
	for k, v := range cfg.Public() {
		if strings.Contains(v, "sk-secret-value") {
			t.Fatalf("Public()[%s] leaks a sensitive value", k)
		}
	}
	if cfg.Get(decisionmodel.KeyAPIKey) != "sk-secret-value-"+decisionmodel.KeyAPIKey {
		t.Fatal("API key not loaded from env")
	}
}

// TestSensitiveEnvCoversTheLoader finds, by behaviour, every environment
// variable through which the loader sets a sensitive setting, and checks
// that the scrub list for third-party layers names it: a new variable
// prefix or a new sensitive key cannot reach a third-party process.
func TestSensitiveEnvCoversTheLoader(t *testing.T) {
	// Every variable the loader looks up.
	asked := map[string]bool{}
	plugins.Schema.Load(config.Env{Home: t.TempDir(), Lookup: func(k string) (string, bool) {
		asked[k] = true
		if k == "ZCODE_FENCE_CONFIG" {
			return "/nonexistent/config.json", true
		}
		return "", false
	}})
	scrub := plugins.Schema.SensitiveEnv()
	found := 0
	for name := range asked {
		cfg := plugins.Schema.Load(config.Env{Home: t.TempDir(), Lookup: mapLookup(map[string]string{
			"ZCODE_FENCE_CONFIG": "/nonexistent/config.json",
			name:                 "marker-value",
		})})
		for _, s := range plugins.Schema.Specs() {
			if s.Sensitive && cfg.Get(s.Key) == "marker-value" {
				found++
				if !slices.Contains(scrub, name) {
					t.Errorf("%s sets sensitive %s but is not in SensitiveEnv %v", name, s.Key, scrub)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no environment variable sets a sensitive setting; the probe is broken")
	}
	if found != len(scrub) {
		t.Errorf("%d variables set sensitive settings, SensitiveEnv lists %d: %v", found, len(scrub), scrub)
	}
}

func mapLookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}
