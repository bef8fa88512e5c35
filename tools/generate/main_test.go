package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestSetMemberKeepsTheRest rewrites the committed manifests with their own
// userConfig: nothing may change (member order, indentation, non-ASCII
// text, the final newline).
func TestSetMemberKeepsTheRest(t *testing.T) {
	for _, m := range Manifests {
		doc, err := os.ReadFile(filepath.Join("..", "..", m))
		if err != nil {
			t.Fatal(err)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(doc, &top); err != nil {
			t.Fatal(err)
		}
		same, err := SetMember(doc, "userConfig", top["userConfig"])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(same, doc) {
			t.Errorf("%s: rewriting with its own userConfig changed it:\n%s", m, same)
		}
		out, err := SetMember(doc, "keywords", []byte(`[ "x" ]`))
		if err != nil {
			t.Fatal(err)
		}
		back, err := SetMember(out, "userConfig", []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(back, []byte(`"enable_fence"`)) || !bytes.Contains(out, []byte("\"keywords\": [\n    \"x\"\n  ]")) {
			t.Errorf("%s: members not replaced:\n%s", m, out)
		}
		if !bytes.Contains(out, []byte("只弹确认")) {
			t.Errorf("%s: non-ASCII text escaped", m)
		}
	}
}

func TestSetMemberAppendsAndRejects(t *testing.T) {
	out, err := SetMember([]byte(`{"a": "<b>"}`), "userConfig", []byte(`{"k":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": \"<b>\",\n  \"userConfig\": {\n    \"k\": 1\n  }\n}\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if _, err := SetMember([]byte(`[1]`), "userConfig", []byte(`{}`)); err == nil {
		t.Error("an array was accepted as a manifest")
	}
}
