package config

import (
	"encoding/json"
	"os"
	"testing"
)

// TestGuardEnv checks which variables change the guard (GuardEnv) and
// which of those change its settings or state (GuardSettingsEnv), from
// testdata/guardenv.json.
func TestGuardEnv(t *testing.T) {
	data, err := os.ReadFile("testdata/guardenv.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name            string
		Guard, Settings bool
		Why             string
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("testdata/guardenv.json has no cases")
	}
	for _, c := range cases {
		if got := GuardEnv(c.Name); got != c.Guard {
			t.Errorf("GuardEnv(%s) = %v, want %v (%s)", c.Name, got, c.Guard, c.Why)
		}
		if got := GuardSettingsEnv(c.Name); got != c.Settings {
			t.Errorf("GuardSettingsEnv(%s) = %v, want %v (%s)", c.Name, got, c.Settings, c.Why)
		}
		if c.Settings && !c.Guard {
			t.Errorf("%s: a settings variable is a guard variable too; fix the case", c.Name)
		}
	}
}
