package config

import (
	"strings"
	"testing"
)

func TestNewSchemaRejectsBadDeclarations(t *testing.T) {
	ok := Spec{Key: "a", Kind: Bool, Default: "true"}
	cases := []struct {
		name  string
		specs []Spec
		want  string
	}{
		{"key twice", []Spec{ok, ok}, `"a" declared twice`},
		{"no key", []Spec{{Kind: String}}, "lower_snake_case"},
		{"upper-case key", []Spec{{Key: "Enable", Kind: String}}, "lower_snake_case"},
		{"bool default", []Spec{{Key: "b", Kind: Bool, Default: "yes"}}, "not a valid value"},
		{"enum default", []Spec{{Key: "e", Kind: Enum, Default: "x", Choices: []string{"y"}}}, "not a valid value"},
		{"enum without choices", []Spec{{Key: "e", Kind: Enum}}, "without Choices"},
		{"int default above max", []Spec{{Key: "i", Kind: Int, Default: "9", Min: 1, Max: 5}}, "not a valid value"},
		{"int min above max", []Spec{{Key: "i", Kind: Int, Default: "3", Min: 5, Max: 1}}, "Min 5 above Max 1"},
		{"unknown kind", []Spec{{Key: "k", Kind: Kind(99)}}, "unknown Kind"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatal("NewSchema accepted it")
				}
				if msg := strings.TrimSpace(strings.TrimPrefix(toString(r), "config:")); !strings.Contains(msg, tc.want) {
					t.Fatalf("panic %q, want it to say %q", msg, tc.want)
				}
			}()
			NewSchema([]Spec{{Key: "first", Kind: String}}, tc.specs)
		})
	}
}

func toString(r any) string {
	if err, ok := r.(error); ok {
		return err.Error()
	}
	s, _ := r.(string)
	return s
}

// TestUserConfig pins the manifest rendering of every kind: the hosts'
// settings UI reads this shape.
func TestUserConfig(t *testing.T) {
	s := NewSchema(
		[]Spec{{Key: "enable_x", Kind: Bool, Default: "true", Title: "X", Description: "Turns <x> & y on."}},
		[]Spec{
			{Key: "secret", Kind: String, Sensitive: true, Title: "S", Description: "d"},
			{Key: "level", Kind: Enum, Default: "1", Choices: []string{"0", "1", "2"}, Title: "L", Description: "d"},
			{Key: "mode", Kind: Enum, Default: "fast", Choices: []string{"fast", "slow"}, Title: "M", Description: "d"},
			{Key: "timeout_ms", Kind: Int, Default: "3500", Min: 1, Max: 4000, Title: "T", Description: "d"},
		},
	)
	want := `{"enable_x":{"title":"X","description":"Turns <x> & y on.","type":"boolean","default":true},` +
		`"secret":{"title":"S","description":"d","type":"string","default":"","sensitive":true},` +
		`"level":{"title":"L","description":"d","type":"number","default":1,"min":0,"max":2},` +
		`"mode":{"title":"M","description":"d","type":"string","default":"fast"},` +
		`"timeout_ms":{"title":"T","description":"d","type":"string","default":"3500"}}`
	if got := string(s.UserConfig()); got != want {
		t.Errorf("UserConfig\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(s.SensitiveEnv(), ","); got != "CLAUDE_PLUGIN_OPTION_SECRET,ZCODE_PLUGIN_OPTION_SECRET,ZCODE_FENCE_SECRET" {
		t.Errorf("SensitiveEnv = %s", got)
	}
}

func TestLoadAppliesCanonAndCaps(t *testing.T) {
	s := NewSchema(HostSettings, []Spec{{Key: "timeout_ms", Kind: Int, Default: "3500", Min: 1, Max: 4000}})
	env := mapLookup(map[string]string{
		"ZCODE_FENCE_CONFIG":       "/nonexistent/config.json",
		"ZCODE_FENCE_LANGUAGE":     " EN_us ",
		"ZCODE_FENCE_TIMEOUT_MS":   "90000",
		"ZCODE_FENCE_ENABLE_LOG":   "0",
		"ZCODE_FENCE_NOT_DECLARED": "x",
	})
	cfg := s.Load(Env{Lookup: env, Home: "/nonexistent"})
	if cfg.Get(KeyLanguage) != "en" || cfg.Get("timeout_ms") != "4000" || cfg.Bool(KeyEnableLog) {
		t.Errorf("language %q timeout %q enable_log %v", cfg.Get(KeyLanguage), cfg.Get("timeout_ms"), cfg.Bool(KeyEnableLog))
	}
	if cfg.Get("not_declared") != "" {
		t.Error("a key no declaration has was loaded")
	}
	if len(cfg.Notes) != 1 || !strings.Contains(cfg.Notes[0], "capped to 4000") {
		t.Errorf("notes %q, want one about the cap", cfg.Notes)
	}
	if cfg.Schema() != s {
		t.Error("Config.Schema is not the schema it was loaded with")
	}
}
