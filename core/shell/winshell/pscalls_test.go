package winshell

import (
	"reflect"
	"testing"
)

// TestPSStaticCallName checks the names static method calls are reported
// under (testdata/ps_static_names.json): the type completed and lower-cased,
// casts and blanks dropped; "bad" heads are not static calls.
func TestPSStaticCallName(t *testing.T) {
	var cases []struct {
		Head string `json:"head"`
		Name string `json:"name"`
		Bad  bool   `json:"bad"`
	}
	readJSON(t, "ps_static_names.json", &cases)
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		name, ok := PSStaticCallName(tc.Head)
		if ok == tc.Bad || name != tc.Name {
			t.Errorf("PSStaticCallName(%q) = %q, %v; want %q, %v", tc.Head, name, ok, tc.Name, !tc.Bad)
		}
	}
}

// TestSplitWindowsCommandLine checks the argv rules of Windows programs
// (testdata/windows_cmdline.json).
func TestSplitWindowsCommandLine(t *testing.T) {
	var cases []struct {
		Line string   `json:"line"`
		Want []string `json:"want"`
	}
	readJSON(t, "windows_cmdline.json", &cases)
	if len(cases) < 10 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		if got := SplitWindowsCommandLine(tc.Line); !reflect.DeepEqual(got, tc.Want) {
			t.Errorf("SplitWindowsCommandLine(%q) = %q, want %q", tc.Line, got, tc.Want)
		}
	}
}
