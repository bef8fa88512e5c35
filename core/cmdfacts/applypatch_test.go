package cmdfacts

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestParsePatch reads testdata/patches.json: each patch text and the
// files it touches, as "op path".
func TestParsePatch(t *testing.T) {
	data, err := os.ReadFile("testdata/patches.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name  string   `json:"name"`
		Patch string   `json:"patch"`
		Files []string `json:"files"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	ops := map[PatchOp]string{PatchAdd: "add", PatchUpdate: "update", PatchDelete: "delete", PatchMoveTo: "move-to"}
	for _, tc := range cases {
		var got []string
		for _, f := range ParsePatch(tc.Patch) {
			got = append(got, ops[f.Op]+" "+f.Path)
		}
		if strings.Join(got, "|") != strings.Join(tc.Files, "|") {
			t.Errorf("%s: ParsePatch = %q, want %q", tc.Name, got, tc.Files)
		}
	}
	for _, n := range []string{"apply_patch", "applypatch"} {
		if !IsApplyPatch(n) {
			t.Errorf("IsApplyPatch(%q) = false", n)
		}
	}
	if IsApplyPatch("patch") || IsApplyPatch("git") {
		t.Error("IsApplyPatch takes patch or git for apply_patch")
	}
}
