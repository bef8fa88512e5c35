package redact

import (
	"encoding/json"
	"os"
	"testing"
)

// TestClassifyKey checks the key-name table in testdata/keynames.json:
// which names stand for a secret, and of which kind.
func TestClassifyKey(t *testing.T) {
	raw, err := os.ReadFile("testdata/keynames.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Names map[string]string `json:"names"`
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatalf("testdata/keynames.json: %v", err)
	}
	if len(table.Names) < 50 {
		t.Fatalf("only %d key names", len(table.Names))
	}
	for name, want := range table.Names {
		if got := classifyKey(name); got != want {
			t.Errorf("classifyKey(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestSplitKey: parts at separators and camelCase humps, the last ones kept.
func TestSplitKey(t *testing.T) {
	cases := map[string][]string{
		"aws_secret_access_key": {"aws", "secret", "access", "key"},
		"SecretAccessKey":       {"Secret", "Access", "Key"},
		"APIKey":                {"API", "Key"},
		"oauth2Token":           {"oauth2", "Token"},
		"_authToken":            {"auth", "Token"},
		"x-api-key":             {"x", "api", "key"},
		"a.b.c.d.e.f.g.h.i.j":   {"c", "d", "e", "f", "g", "h", "i", "j"},
		"PGPASSWORD":            {"PGPASSWORD"},
		"a__b":                  {"a", "b"},
		"k":                     {"k"},
	}
	for name, want := range cases {
		var parts [8]string
		n := splitKey(name, &parts)
		if n != len(want) {
			t.Errorf("splitKey(%q) = %q, want %q", name, parts[:n], want)
			continue
		}
		for i := range want {
			if parts[i] != want[i] {
				t.Errorf("splitKey(%q) = %q, want %q", name, parts[:n], want)
				break
			}
		}
	}
}
