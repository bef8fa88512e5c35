package convert

import (
	"reflect"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// FuzzCallText puts arbitrary text (any bytes, valid UTF-8 or not) in every
// text field of a call and checks that the request always marshals, that
// the shell words, command name and stdin come back byte for byte, and that
// every other field comes back as its UTF-8 repair.
func FuzzCallText(f *testing.F) {
	for _, s := range []string{"", "rm -rf /", "$'\xff'", "\xc3", "笔记 🗑️", "\x00\x01", "a\xffb\xfe\xfdc", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := ir.Word{Value: s, Raw: s, KnownPrefix: s, Unknown: true}
		call := &core.Call{
			Tool: s, Command: s, Paths: []string{s}, ProjectRoot: s, Cwd: s,
			SessionID: s, WritableRoots: []string{s}, Platform: s, DataDir: s,
			Options: map[string]string{"k": s},
			Script: &ir.Script{Source: s, ParseError: s, Commands: []ir.Command{{
				Name: s, Args: []ir.Word{w}, Cd: []ir.Word{w}, Via: []ir.Via{ir.ParseVia(s)}, Stdin: s,
				Assigns:   []ir.Assign{{Name: s, Value: w}},
				Redirects: []ir.Redirect{{Op: s, Fd: s, Target: w, Body: s}},
				Effects:   []ir.Effect{{Op: ir.EffectMove, Targets: []ir.Word{w}, Sources: []ir.Word{w}, Into: true, Recursive: true}},
			}}},
		}
		data, err := proto.Marshal(CallToProto(call))
		if err != nil {
			t.Fatalf("marshal %q: %v", s, err)
		}
		var req layerpb.DecideRequest
		if err := proto.Unmarshal(data, &req); err != nil {
			t.Fatalf("unmarshal: %v", err)
		}
		got := CallFromProto(&req)
		cmd := got.Script.Commands[0]
		for _, exactWord := range []ir.Word{cmd.Args[0], cmd.Cd[0], cmd.Assigns[0].Value, cmd.Redirects[0].Target, cmd.Effects[0].Targets[0], cmd.Effects[0].Sources[0]} {
			if exactWord != w {
				t.Errorf("word %+v, want %+v", exactWord, w)
			}
		}
		if e := cmd.Effects[0]; e.Op != ir.EffectMove || !e.Into || !e.Recursive || e.Force {
			t.Errorf("effect %+v, want a recursive move into", e)
		}
		if cmd.Name != s || cmd.Stdin != s {
			t.Errorf("name %q stdin %q, want %q", cmd.Name, cmd.Stdin, s)
		}
		r := text(s)
		repaired := []string{got.Tool, got.Command, got.Paths[0], got.ProjectRoot, got.Cwd,
			got.SessionID, got.WritableRoots[0], got.Platform, got.DataDir, got.Options["k"],
			got.Script.Source, got.Script.ParseError, cmd.Via[0].Text, cmd.Assigns[0].Name,
			cmd.Redirects[0].Op, cmd.Redirects[0].Fd, cmd.Redirects[0].Body}
		if s == "" {
			// Empty repeated/map entries still come back; empty strings stay empty.
			r = ""
		}
		for i, g := range repaired {
			if g != r {
				t.Errorf("field %d = %q, want %q", i, g, r)
			}
		}
		// The verdict direction never fails either.
		v := core.Verdict{Decision: core.Ask, Reasons: []core.Reason{{Layer: s, Rule: s, Message: s}}, Annotations: map[string]string{s: s}}
		out, err := proto.Marshal(VerdictToProto(v))
		if err != nil {
			t.Fatalf("marshal verdict: %v", err)
		}
		var resp layerpb.DecideResponse
		if err := proto.Unmarshal(out, &resp); err != nil {
			t.Fatal(err)
		}
		back, err := VerdictFromProto(&resp)
		if err != nil {
			t.Fatal(err)
		}
		want := core.Verdict{Decision: core.Ask, Reasons: []core.Reason{{Layer: r, Rule: r, Message: r}}, Annotations: map[string]string{r: r}}
		if !reflect.DeepEqual(back, want) {
			t.Errorf("verdict %+v, want %+v", back, want)
		}
	})
}
