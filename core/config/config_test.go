package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// TestDataDirs: a variable names the one data dir; else every existing
// host data dir is found (ZCode's, then Claude Code's, under
// CLAUDE_CONFIG_DIR when set); with none, DataDir's default.
func TestDataDirs(t *testing.T) {
	home := t.TempDir()
	claudeConfig := filepath.Join(t.TempDir(), "claude-config")
	dirs := []string{
		filepath.Join(home, ".zcode", "cli", "plugins", "data", "zcode-fence@market"),
		filepath.Join(home, ".zcode", "cli", "plugins", "data", "zcode-fence"),
		filepath.Join(home, ".claude", "plugins", "data", "zcode-fence-market"),
		filepath.Join(claudeConfig, "plugins", "data", "zcode-fence-inline"),
	}
	cases := []struct {
		name   string
		env    map[string]string
		exists []string
		want   []string
	}{
		{"variable", map[string]string{"CLAUDE_PLUGIN_DATA": "/c"}, dirs, []string{"/c"}},
		{"none", nil, nil, []string{filepath.Join(home, ".zcode", "cli", "plugins", "data", "zcode-fence")}},
		{"both hosts", nil, dirs[:3], dirs[:3]},
		{"claude config dir", map[string]string{"CLAUDE_CONFIG_DIR": claudeConfig}, []string{dirs[0], dirs[3]}, []string{dirs[0], dirs[3]}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.RemoveAll(home); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(claudeConfig); err != nil {
				t.Fatal(err)
			}
			for _, d := range tc.exists {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			got := DataDirs(Env{Lookup: mapLookup(tc.env), Home: home})
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("DataDirs = %q, want %q", got, tc.want)
			}
		})
	}
}
