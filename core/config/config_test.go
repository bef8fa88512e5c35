package config

import (
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
