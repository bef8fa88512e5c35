package ir_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// viaKindCases is core/shell/testdata/via_kinds.json (shared with the analysis): "parse" pins ParseVia on the
// texts analysis writes; "analyze" (run by core/shell/analysis) pins the
// kinds a real analysis records.
type viaKindCases struct {
	Parse []struct {
		Text     string `json:"text"`
		Kind     string `json:"kind"`
		Function string `json:"function"`
	} `json:"parse"`
}

// TestParseVia checks each text's kind, that String returns the text
// unchanged, that RunsItems holds exactly for xargs, parallel and fd -x,
// and Function's name.
func TestParseVia(t *testing.T) {
	data, err := os.ReadFile("../shell/testdata/via_kinds.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases viaKindCases
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases.Parse) == 0 {
		t.Fatal("no parse cases")
	}
	for _, c := range cases.Parse {
		v := ir.ParseVia(c.Text)
		if v.Kind.String() != c.Kind {
			t.Errorf("ParseVia(%q).Kind = %v, want %s", c.Text, v.Kind, c.Kind)
		}
		if v.String() != c.Text {
			t.Errorf("ParseVia(%q).String() = %q", c.Text, v.String())
		}
		wantItems := c.Kind == "xargs" || c.Kind == "parallel" || c.Kind == "fd-exec"
		if v.RunsItems() != wantItems {
			t.Errorf("ParseVia(%q).RunsItems() = %v, want %v", c.Text, v.RunsItems(), wantItems)
		}
		if v.Function() != c.Function {
			t.Errorf("ParseVia(%q).Function() = %q, want %q", c.Text, v.Function(), c.Function)
		}
	}
	if got := ir.ViaTexts(nil); got != nil {
		t.Errorf("ViaTexts(nil) = %q, want nil", got)
	}
}

// TestViaJSON checks that a Via list encodes as a list of its texts and
// decodes back with the kinds ParseVia gives.
func TestViaJSON(t *testing.T) {
	in := []ir.Via{ir.ParseVia("sudo"), ir.ParseVia("fd -x"), ir.ParseVia("function f")}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := `["sudo","fd -x","function f"]`; string(data) != want {
		t.Errorf("Marshal = %s, want %s", data, want)
	}
	var out []ir.Via
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("Unmarshal = %v, want %v", out, in)
	}
	for i := range in {
		if out[i] != in[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, out[i], in[i])
		}
	}
	if err := json.Unmarshal([]byte(`[{"Kind":1}]`), &out); err == nil {
		t.Error("Unmarshal of an object: no error")
	}
}
