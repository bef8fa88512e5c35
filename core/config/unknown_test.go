package config

import (
	"strings"
	"testing"
)

// TestUnknownEnv: a variable with a setting prefix that names no setting
// is reported, with the setting probably meant; settings, the binary's own
// variables and the test harness's are not.
func TestUnknownEnv(t *testing.T) {
	s := NewSchema(HostSettings, []Spec{{Key: "enable_fence", Kind: Bool, Default: "true"}})
	environ := []string{
		"ZCODE_FENCE_ENABLE_FENSE=false",
		"CLAUDE_PLUGIN_OPTION_LANGUGE=en",
		"ZCODE_FENCE_SOMETHING_ELSE_ENTIRELY=1",
		"ZCODE_FENCE_ENABLE_FENCE=false",
		"CLAUDE_PLUGIN_OPTION_EXTRA_WRITABLE_ROOTS=/x",
		"ZCODE_FENCE_DATA_DIR=/d",
		"ZCODE_FENCE_CONFIG=/c.json",
		"ZCODE_FENCE_E2E_REQUIRE=1",
		"ZCODE_FENCE_TEST_BINARY=/b",
		"HOME=/h",
		"ZCODE_FENCE_NOVALUE",
	}
	var got []string
	for _, u := range s.UnknownEnv(environ) {
		got = append(got, u.String())
	}
	want := []string{
		"CLAUDE_PLUGIN_OPTION_LANGUGE is not a setting (ignored; did you mean CLAUDE_PLUGIN_OPTION_LANGUAGE?)",
		"ZCODE_FENCE_ENABLE_FENSE is not a setting (ignored; did you mean ZCODE_FENCE_ENABLE_FENCE?)",
		"ZCODE_FENCE_NOVALUE is not a setting (ignored)",
		"ZCODE_FENCE_SOMETHING_ELSE_ENTIRELY is not a setting (ignored)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("UnknownEnv:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if k := s.UnknownKeys([]string{"language", "enable_fense", "enable_fence", "colour"}); strings.Join(k, ",") != "colour,enable_fense" {
		t.Errorf("UnknownKeys = %q", k)
	}
}
