package core

import (
	"encoding/json"
	"os"
	"testing"
)

func TestParseLanguage(t *testing.T) {
	data, err := os.ReadFile("testdata/languages.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct{ Value, Want string }
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		got, ok := ParseLanguage(tc.Value)
		if string(got) != tc.Want || ok != (tc.Want != "") {
			t.Errorf("ParseLanguage(%q) = %q, %v; want %q", tc.Value, got, ok, tc.Want)
		}
		call := &Call{Options: map[string]string{LanguageOption: tc.Value}}
		if got := call.Language(); string(got) != tc.Want {
			t.Errorf("Call.Language with %q = %q, want %q", tc.Value, got, tc.Want)
		}
	}
	var none *Call
	if none.Language() != "" || (&Call{}).Language() != "" {
		t.Error("a call without the option has a language")
	}
}
