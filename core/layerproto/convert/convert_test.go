package convert

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/layerproto/internal/wiretest"
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// overWire marshals a request to bytes and back, as gRPC would.
func overWire(t *testing.T, r *layerpb.DecideRequest) *layerpb.DecideRequest {
	t.Helper()
	data, err := proto.Marshal(r)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var back layerpb.DecideRequest
	if err := proto.Unmarshal(data, &back); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return &back
}

func TestCallRoundTrip(t *testing.T) {
	for _, tc := range wiretest.Calls(t) {
		t.Run(tc.Name, func(t *testing.T) {
			got := CallFromProto(overWire(t, CallToProto(&tc.Call)))
			want := wiretest.Normalized(tc.Call)
			if !reflect.DeepEqual(*got, want) {
				gotJSON, _ := json.MarshalIndent(got, "", " ")
				wantJSON, _ := json.MarshalIndent(want, "", " ")
				t.Errorf("round trip changed the call\ngot:  %s\nwant: %s", gotJSON, wantJSON)
			}
			if (tc.Call.Script == nil) != (got.Script == nil) {
				t.Errorf("script presence: sent nil=%v, got nil=%v", tc.Call.Script == nil, got.Script == nil)
			}
		})
	}
}

// TestInvalidUTF8 covers text that protobuf cannot carry as a string:
// shell words, command names and stdin keep their exact bytes, other text
// arrives with U+FFFD, and marshalling never fails.
func TestInvalidUTF8(t *testing.T) {
	bad := "/tmp/\xff\xfe-link"
	word := ir.Word{Value: bad, Raw: "$'/tmp/\\xff\\xfe-link'", KnownPrefix: bad[:6]}
	call := &core.Call{
		Tool:    "Bash\xff",
		Kind:    core.KindShell,
		Command: "rm -rf $'/tmp/\\xff\\xfe-link'",
		Script: &ir.Script{
			Source: "src\xc3",
			Commands: []ir.Command{{
				Name:      "r\xffm",
				Args:      []ir.Word{{Value: "r\xffm", Raw: "r\xffm", KnownPrefix: "r\xffm"}, word},
				Assigns:   []ir.Assign{{Name: "X\xff", Value: word}},
				Redirects: []ir.Redirect{{Op: ">", Target: word, Body: "body\xff"}},
				Cd:        []ir.Word{word},
				Via:       []ir.Via{ir.ParseVia("sudo\xff")},
				Parent:    -1,
				FeedsInto: -1,
				Stdin:     "in\xff",
			}},
		},
		Paths:         []string{"ok", "p\xff"},
		Cwd:           "/home/\xffdir",
		WritableRoots: []string{"/w\xff"},
		Options:       map[string]string{"k\xff": "v\xff"},
	}
	req := CallToProto(call)
	got := CallFromProto(overWire(t, req))

	cmd := got.Script.Commands[0]
	exact := map[string][2]string{
		"name":             {cmd.Name, "r\xffm"},
		"args[0].value":    {cmd.Args[0].Value, "r\xffm"},
		"args[1].value":    {cmd.Args[1].Value, bad},
		"args[1].raw":      {cmd.Args[1].Raw, word.Raw},
		"args[1].prefix":   {cmd.Args[1].KnownPrefix, bad[:6]},
		"assign value":     {cmd.Assigns[0].Value.Value, bad},
		"redirect target":  {cmd.Redirects[0].Target.Value, bad},
		"cd":               {cmd.Cd[0].Value, bad},
		"stdin":            {cmd.Stdin, "in\xff"},
		"repaired tool":    {got.Tool, "Bash\uFFFD"},
		"repaired source":  {got.Script.Source, "src\uFFFD"},
		"repaired body":    {cmd.Redirects[0].Body, "body\uFFFD"},
		"repaired via":     {cmd.Via[0].Text, "sudo\uFFFD"},
		"repaired assign":  {cmd.Assigns[0].Name, "X\uFFFD"},
		"repaired path":    {got.Paths[1], "p\uFFFD"},
		"untouched path":   {got.Paths[0], "ok"},
		"repaired cwd":     {got.Cwd, "/home/\uFFFDdir"},
		"repaired root":    {got.WritableRoots[0], "/w\uFFFD"},
		"repaired options": {got.Options["k\uFFFD"], "v\uFFFD"},
	}
	for what, pair := range exact {
		if pair[0] != pair[1] {
			t.Errorf("%s: got %q, want %q", what, pair[0], pair[1])
		}
	}
	if call.Paths[1] != "p\xff" {
		t.Errorf("CallToProto modified the caller's Paths: %q", call.Paths)
	}
	if len(req.GetScript().GetCommands()[0].GetArgs()[1].GetValueBytes()) == 0 {
		t.Error("value_bytes not set for an invalid value")
	}
	if len(req.GetScript().GetCommands()[0].GetArgs()[1].GetRawBytes()) != 0 {
		t.Error("raw_bytes set for a valid raw text")
	}
}

func TestInputLimit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		size     int
		omitted  bool
		wantSent bool
	}{
		{"empty", 0, false, false},
		{"small", 20, false, true},
		{"exactly the limit", MaxInputBytes, false, true},
		{"one byte over", MaxInputBytes + 1, true, false},
		{"huge", 4 << 20, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var input json.RawMessage
			if tc.size > 0 {
				input = json.RawMessage(`"` + strings.Repeat("a", tc.size-2) + `"`)
			}
			req := overWire(t, CallToProto(&core.Call{Tool: "Write", Input: input}))
			if req.GetInputOmitted() != tc.omitted {
				t.Errorf("input_omitted = %v, want %v", req.GetInputOmitted(), tc.omitted)
			}
			if req.GetInputSize() != uint64(tc.size) {
				t.Errorf("input_size = %d, want %d", req.GetInputSize(), tc.size)
			}
			got := CallFromProto(req)
			if tc.wantSent != (len(got.Input) == tc.size && tc.size > 0) {
				t.Errorf("sent %d bytes of %d (want sent=%v)", len(got.Input), tc.size, tc.wantSent)
			}
			if !tc.wantSent && got.Input != nil {
				t.Errorf("omitted input came back as %d bytes", len(got.Input))
			}
		})
	}
}

// TestScriptLimit: a Script whose encoding would pass MaxScriptBytes (its
// commands sharing one long cd chain, which the wire repeats per command)
// is left out; a smaller one is sent whole.
func TestScriptLimit(t *testing.T) {
	chain := make([]ir.Word, 32)
	for i := range chain {
		chain[i] = ir.Word{Value: strings.Repeat("d", 4000), Raw: "$d", KnownPrefix: strings.Repeat("d", 4000)}
	}
	script := func(n int) *ir.Script {
		s := &ir.Script{Source: "crafted"}
		for range n {
			s.Commands = append(s.Commands, ir.Command{Name: "echo", Args: []ir.Word{{Value: "echo", Raw: "echo", KnownPrefix: "echo"}}, Cd: chain, Parent: -1, FeedsInto: -1})
		}
		return s
	}
	for _, tc := range []struct {
		commands int
		sent     bool
	}{{1, true}, {8, true}, {64, false}, {1234, false}} {
		req := overWire(t, CallToProto(&core.Call{Tool: "Bash", Kind: core.KindShell, Command: "crafted", Script: script(tc.commands)}))
		got := CallFromProto(req)
		if sent := got.Script != nil; sent != tc.sent {
			t.Errorf("%d commands under a 256 KB chain: script sent %v, want %v", tc.commands, sent, tc.sent)
		}
		if got.Command != "crafted" {
			t.Errorf("the command was not sent: %q", got.Command)
		}
		if size := proto.Size(req); size > MaxScriptBytes+1024 {
			t.Errorf("%d commands: a request of %d bytes", tc.commands, size)
		}
	}
}

func TestVerdictRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    core.Verdict
	}{
		{"silent zero", core.SilentVerdict},
		{"silent with annotations", core.Verdict{Annotations: map[string]string{"kind": "benign", "score": "0.02"}}},
		{"silent with reasons kept", core.Verdict{Reasons: []core.Reason{{Layer: "x", Rule: "r", Message: "m"}}}},
		{"ask one reason", core.AskVerdict(core.Reason{Layer: "danger", Rule: "rm-root", Message: "rm -rf / deletes everything; ask the user"})},
		{"ask unicode and empty fields", core.Verdict{
			Decision:    core.Ask,
			Reasons:     []core.Reason{{Message: "删除整个目录 🗑️ — 请先询问用户"}, {Layer: "fence", Rule: "outside-root"}},
			Annotations: map[string]string{"": "", "模型": "否"},
		}},
		{"ask empty maps", core.Verdict{Decision: core.Ask, Reasons: []core.Reason{}, Annotations: map[string]string{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := proto.Marshal(VerdictToProto(tc.v))
			if err != nil {
				t.Fatal(err)
			}
			var resp layerpb.DecideResponse
			if err := proto.Unmarshal(data, &resp); err != nil {
				t.Fatal(err)
			}
			got, err := VerdictFromProto(&resp)
			if err != nil {
				t.Fatal(err)
			}
			if want := wiretest.Normalized(tc.v); !reflect.DeepEqual(got, want) {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestVerdictInvalidUTF8(t *testing.T) {
	v := core.AskVerdict(core.Reason{Layer: "l\xff", Rule: "r\xff", Message: "rm $'\xff'"})
	v.Annotations = map[string]string{"k\xff": "v\xff"}
	data, err := proto.Marshal(VerdictToProto(v))
	if err != nil {
		t.Fatalf("marshal must never fail: %v", err)
	}
	var resp layerpb.DecideResponse
	if err := proto.Unmarshal(data, &resp); err != nil {
		t.Fatal(err)
	}
	got, err := VerdictFromProto(&resp)
	if err != nil {
		t.Fatal(err)
	}
	if got.Reasons[0].Message != "rm $'\uFFFD'" || got.Annotations["k\uFFFD"] != "v\uFFFD" {
		t.Errorf("got %+v", got)
	}
}

func TestVerdictFromProtoRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp *layerpb.DecideResponse
		is   error
	}{
		{"nil response", nil, nil},
		{"future decision", &layerpb.DecideResponse{Decision: 2}, ErrUnknownDecision},
		{"negative decision", &layerpb.DecideResponse{Decision: -1}, ErrUnknownDecision},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := VerdictFromProto(tc.resp)
			if err == nil {
				t.Fatalf("accepted, gave %+v", v)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
			if v.Decision != core.Silent {
				t.Errorf("rejected response still decided %v", v.Decision)
			}
		})
	}
}

func TestNilConversions(t *testing.T) {
	if r := CallToProto(nil); r == nil || r.GetScript() != nil {
		t.Errorf("CallToProto(nil) = %v", r)
	}
	if c := CallFromProto(nil); c == nil || !reflect.DeepEqual(*c, core.Call{}) {
		t.Errorf("CallFromProto(nil) = %+v", c)
	}
	// A redirect or assignment without its word decodes as the zero word.
	c := CallFromProto(&layerpb.DecideRequest{Script: &layerpb.Script{Commands: []*layerpb.Command{{
		Redirects: []*layerpb.Redirect{{Op: ">"}},
		Assigns:   []*layerpb.Assign{{Name: "A"}},
	}}}})
	if got := c.Script.Commands[0]; got.Redirects[0].Target != (ir.Word{}) || got.Assigns[0].Value != (ir.Word{}) {
		t.Errorf("missing words decoded as %+v", got)
	}
}
