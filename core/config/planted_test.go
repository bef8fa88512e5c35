package config

import (
	"encoding/json"
	"os"
	"testing"
)

// TestPlanted runs testdata/planted.json: the texts that set a guard
// setting or a host's hook switch, in each file syntax, and everyday texts
// that do not.
func TestPlanted(t *testing.T) {
	data, err := os.ReadFile("testdata/planted.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Text, Want, Why string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, c := range cases {
		got, ok := Planted(c.Text)
		if got != c.Want || ok != (c.Want != "") {
			t.Errorf("Planted(%q) = %q, %v; want %q (%s)", c.Text, got, ok, c.Want, c.Why)
		}
		if ok {
			found++
		}
	}
	if found < 10 || len(cases)-found < 6 {
		t.Fatalf("%d texts that set one, %d that do not: too thin", found, len(cases)-found)
	}
}
