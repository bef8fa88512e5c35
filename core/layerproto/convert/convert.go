// Package convert translates between the layer contract's types (core.Call,
// ir.Script, core.Verdict) and the layer protocol's messages (layerpb):
// the host converts a call to a DecideRequest and a DecideResponse back,
// a served layer does the reverse. It is pure: no I/O, no state.
package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// MaxInputBytes is the largest raw tool_input sent to a layer. A larger one
// (a Write of a big file) is left out of the request and InputOmitted is
// set; the decoded fields (Command and Paths) are always sent.
const MaxInputBytes = 256 << 10

// MaxScriptBytes is the largest encoded Script sent to a layer. Commands
// share what the analysis found once (a cd chain, a heredoc's text), and
// the wire repeats it per command: a crafted 12 KB command can encode to
// 300 MB. A larger Script is left out (the request's script is then unset
// for a shell call, core.Call.Script nil), and the layer analyses Command
// itself (the built-in layers do; see core.Call.Script).
const MaxScriptBytes = 4 << 20

// CallToProto converts a call into a Decide request. It never fails: text
// that is not valid UTF-8 (which protobuf refuses to marshal) is sent with
// invalid bytes replaced by U+FFFD, and for the words, command names and
// stdin texts of the Script (where shell escapes such as $'\xff' can make
// such bytes) the exact bytes travel alongside, so CallFromProto restores
// them. Apart from that and from an omitted oversized Input or Script
// (MaxInputBytes, MaxScriptBytes), the conversion is lossless, except that
// proto3 cannot tell a nil slice or map from an empty one. A nil call
// gives an empty request. Cost: linear in the call, plus one proto.Size
// pass over the Script.
func CallToProto(c *core.Call) *layerpb.DecideRequest {
	if c == nil {
		return &layerpb.DecideRequest{}
	}
	script := c.Script
	if !ScriptFits(script) {
		script = nil
	}
	r := &layerpb.DecideRequest{
		Tool:          text(c.Tool),
		Kind:          layerpb.ToolKind(c.Kind),
		InputSize:     uint64(len(c.Input)),
		Command:       text(c.Command),
		Script:        scriptToProto(script),
		Paths:         texts(c.Paths),
		ProjectRoot:   text(c.ProjectRoot),
		Cwd:           text(c.Cwd),
		SessionId:     text(c.SessionID),
		WritableRoots: texts(c.WritableRoots),
		Platform:      text(c.Platform),
		Options:       textMap(c.Options),
		DataDir:       text(c.DataDir),
	}
	if r.Script != nil && proto.Size(r.Script) > MaxScriptBytes {
		r.Script = nil // the estimate is a lower bound: this is the exact test
	}
	if len(c.Input) > MaxInputBytes {
		r.InputOmitted = true
	} else if len(c.Input) > 0 {
		r.Input = []byte(c.Input)
	}
	return r
}

// CallFromProto converts a Decide request back into a call. Empty slices
// and maps come back nil; an omitted Input comes back nil. A nil request
// gives a zero call.
func CallFromProto(r *layerpb.DecideRequest) *core.Call {
	if r == nil {
		return &core.Call{}
	}
	c := &core.Call{
		Tool:          r.GetTool(),
		Kind:          core.ToolKind(r.GetKind()),
		Command:       r.GetCommand(),
		Script:        scriptFromProto(r.GetScript()),
		Paths:         nilIfEmpty(r.GetPaths()),
		ProjectRoot:   r.GetProjectRoot(),
		Cwd:           r.GetCwd(),
		SessionID:     r.GetSessionId(),
		WritableRoots: nilIfEmpty(r.GetWritableRoots()),
		Platform:      r.GetPlatform(),
		DataDir:       r.GetDataDir(),
	}
	if len(r.GetInput()) > 0 {
		c.Input = json.RawMessage(r.GetInput())
	}
	if len(r.GetOptions()) > 0 {
		c.Options = r.GetOptions()
	}
	return c
}

// ScriptFits reports whether CallToProto sends s (nil fits): false when
// even a lower bound of its encoding passes MaxScriptBytes. Cost: one pass
// over the commands and their words, stopping once past the limit.
func ScriptFits(s *ir.Script) bool {
	return s == nil || scriptBytes(s) <= MaxScriptBytes
}

// scriptBytes is a lower bound of s's encoded size: the bytes of its
// strings. Cost: one pass over the commands and their words, without
// building anything, so an oversized Script is dropped before it is
// converted.
func scriptBytes(s *ir.Script) int {
	n := len(s.Source) + len(s.ParseError)
	word := func(w ir.Word) int { return len(w.Value) + len(w.Raw) + len(w.KnownPrefix) }
	for i := range s.Commands {
		c := &s.Commands[i]
		n += len(c.Name) + len(c.NameIfEmpty) + len(c.Stdin) + len(c.Output) + len(c.Origin) + len(c.Uninspected)
		for _, w := range c.Args {
			n += word(w)
		}
		for _, w := range c.Cd {
			n += word(w)
		}
		for _, a := range c.Assigns {
			n += len(a.Name) + word(a.Value)
		}
		for _, r := range c.Redirects {
			n += len(r.Op) + len(r.Fd) + len(r.Body) + word(r.Target)
		}
		for _, v := range c.Via {
			n += len(v.Text)
		}
		for _, e := range c.Effects {
			for _, w := range e.Targets {
				n += word(w)
			}
			for _, w := range e.Sources {
				n += word(w)
			}
		}
		if n > MaxScriptBytes {
			return n
		}
	}
	return n
}

func scriptToProto(s *ir.Script) *layerpb.Script {
	if s == nil {
		return nil
	}
	p := &layerpb.Script{
		Source:     text(s.Source),
		Dialect:    layerpb.Dialect(s.Dialect),
		ParseError: text(s.ParseError),
		Truncated:  s.Truncated,
	}
	if len(s.Commands) > 0 {
		p.Commands = make([]*layerpb.Command, len(s.Commands))
		for i := range s.Commands {
			p.Commands[i] = commandToProto(&s.Commands[i])
		}
	}
	return p
}

func scriptFromProto(p *layerpb.Script) *ir.Script {
	if p == nil {
		return nil
	}
	s := &ir.Script{
		Source:     p.GetSource(),
		Dialect:    ir.Dialect(p.GetDialect()),
		ParseError: p.GetParseError(),
		Truncated:  p.GetTruncated(),
	}
	if len(p.GetCommands()) > 0 {
		s.Commands = make([]ir.Command, len(p.GetCommands()))
		for i, pc := range p.GetCommands() {
			s.Commands[i] = commandFromProto(pc)
		}
	}
	return s
}

func commandToProto(c *ir.Command) *layerpb.Command {
	p := &layerpb.Command{
		Args:       wordsToProto(c.Args),
		Cd:         wordsToProto(c.Cd),
		Dialect:    layerpb.Dialect(c.Dialect),
		Depth:      int32(c.Depth),
		Via:        viaToProto(c.Via),
		Parent:     int32(c.Parent),
		FeedsInto:  int32(c.FeedsInto),
		Feed:       layerpb.FeedKind(c.Feed),
		Background: c.Background,
	}
	p.Name, p.NameBytes = exactText(c.Name)
	p.NameIfEmpty = text(c.NameIfEmpty)
	p.Origin = text(c.Origin)
	p.Uninspected = text(c.Uninspected)
	p.Stdin, p.StdinBytes = exactText(c.Stdin)
	p.Output, p.OutputBytes = exactText(c.Output)
	if len(c.Assigns) > 0 {
		p.Assigns = make([]*layerpb.Assign, len(c.Assigns))
		for i, a := range c.Assigns {
			p.Assigns[i] = &layerpb.Assign{Name: text(a.Name), Value: wordToProto(a.Value)}
		}
	}
	if len(c.Effects) > 0 {
		p.Effects = make([]*layerpb.Effect, len(c.Effects))
		for i, e := range c.Effects {
			p.Effects[i] = &layerpb.Effect{Op: layerpb.EffectOp(e.Op), Targets: wordsToProto(e.Targets), Sources: wordsToProto(e.Sources),
				Into: e.Into, Recursive: e.Recursive, Force: e.Force, Sync: e.Sync, Option: text(e.Option), RemoteSources: e.RemoteSources,
				Symbolic: e.Symbolic, Relative: e.Relative}
		}
	}
	if len(c.Redirects) > 0 {
		p.Redirects = make([]*layerpb.Redirect, len(c.Redirects))
		for i, r := range c.Redirects {
			p.Redirects[i] = &layerpb.Redirect{
				Op:     text(r.Op),
				Fd:     text(r.Fd),
				Target: wordToProto(r.Target),
				Body:   text(r.Body),
			}
		}
	}
	return p
}

func commandFromProto(p *layerpb.Command) ir.Command {
	c := ir.Command{
		Name:        exact(p.GetName(), p.GetNameBytes()),
		NameIfEmpty: p.GetNameIfEmpty(),
		Args:        wordsFromProto(p.GetArgs()),
		Cd:          wordsFromProto(p.GetCd()),
		Dialect:     ir.Dialect(p.GetDialect()),
		Depth:       int(p.GetDepth()),
		Via:         viaFromProto(p.GetVia()),
		Parent:      int(p.GetParent()),
		FeedsInto:   int(p.GetFeedsInto()),
		Feed:        ir.FeedKind(p.GetFeed()),
		Stdin:       exact(p.GetStdin(), p.GetStdinBytes()),
		Output:      exact(p.GetOutput(), p.GetOutputBytes()),
		Background:  p.GetBackground(),
		Origin:      p.GetOrigin(),
		Uninspected: p.GetUninspected(),
	}
	if len(p.GetAssigns()) > 0 {
		c.Assigns = make([]ir.Assign, len(p.GetAssigns()))
		for i, a := range p.GetAssigns() {
			c.Assigns[i] = ir.Assign{Name: a.GetName(), Value: wordFromProto(a.GetValue())}
		}
	}
	if len(p.GetEffects()) > 0 {
		c.Effects = make([]ir.Effect, len(p.GetEffects()))
		for i, e := range p.GetEffects() {
			c.Effects[i] = ir.Effect{Op: ir.EffectOp(e.GetOp()), Targets: wordsFromProto(e.GetTargets()), Sources: wordsFromProto(e.GetSources()),
				Into: e.GetInto(), Recursive: e.GetRecursive(), Force: e.GetForce(), Sync: e.GetSync(), Option: e.GetOption(),
				RemoteSources: e.GetRemoteSources(), Symbolic: e.GetSymbolic(), Relative: e.GetRelative()}
		}
	}
	if len(p.GetRedirects()) > 0 {
		c.Redirects = make([]ir.Redirect, len(p.GetRedirects()))
		for i, r := range p.GetRedirects() {
			c.Redirects[i] = ir.Redirect{
				Op:     r.GetOp(),
				Fd:     r.GetFd(),
				Target: wordFromProto(r.GetTarget()),
				Body:   r.GetBody(),
			}
		}
	}
	return c
}

func wordsToProto(ws []ir.Word) []*layerpb.Word {
	if len(ws) == 0 {
		return nil
	}
	out := make([]*layerpb.Word, len(ws))
	for i, w := range ws {
		out[i] = wordToProto(w)
	}
	return out
}

func wordsFromProto(ps []*layerpb.Word) []ir.Word {
	if len(ps) == 0 {
		return nil
	}
	out := make([]ir.Word, len(ps))
	for i, p := range ps {
		out[i] = wordFromProto(p)
	}
	return out
}

func wordToProto(w ir.Word) *layerpb.Word {
	p := &layerpb.Word{Unknown: w.Unknown, Glob: w.Glob}
	p.Value, p.ValueBytes = exactText(w.Value)
	p.Raw, p.RawBytes = exactText(w.Raw)
	p.KnownPrefix, p.KnownPrefixBytes = exactText(w.KnownPrefix)
	return p
}

// wordFromProto accepts nil (a missing target or value) as the zero word.
func wordFromProto(p *layerpb.Word) ir.Word {
	return ir.Word{
		Value:       exact(p.GetValue(), p.GetValueBytes()),
		Raw:         exact(p.GetRaw(), p.GetRawBytes()),
		Unknown:     p.GetUnknown(),
		KnownPrefix: exact(p.GetKnownPrefix(), p.GetKnownPrefixBytes()),
		Glob:        p.GetGlob(),
	}
}

// VerdictToProto converts a verdict into a Decide response. Text that is
// not valid UTF-8 is sent with invalid bytes replaced by U+FFFD; nothing
// else is lost (an empty annotation map comes back nil).
func VerdictToProto(v core.Verdict) *layerpb.DecideResponse {
	r := &layerpb.DecideResponse{
		Decision:    layerpb.Decision(v.Decision),
		Annotations: textMap(v.Annotations),
	}
	if len(v.Reasons) > 0 {
		r.Reasons = make([]*layerpb.Reason, len(v.Reasons))
		for i, reason := range v.Reasons {
			r.Reasons[i] = &layerpb.Reason{
				Layer:   text(reason.Layer),
				Rule:    text(reason.Rule),
				Message: text(reason.Message),
			}
		}
	}
	return r
}

// ErrUnknownDecision is returned (wrapped) by VerdictFromProto for a
// decision value other than SILENT and ASK.
var ErrUnknownDecision = errors.New("unknown decision")

// VerdictFromProto converts a Decide response into a verdict. A decision
// other than SILENT or ASK (a newer or broken layer) is an error, never
// guessed at; so is a nil response.
func VerdictFromProto(r *layerpb.DecideResponse) (core.Verdict, error) {
	if r == nil {
		return core.Verdict{}, errors.New("empty response")
	}
	var v core.Verdict
	switch r.GetDecision() {
	case layerpb.Decision_DECISION_SILENT:
		v.Decision = core.Silent
	case layerpb.Decision_DECISION_ASK:
		v.Decision = core.Ask
	default:
		return core.Verdict{}, fmt.Errorf("%w %d", ErrUnknownDecision, int32(r.GetDecision()))
	}
	if len(r.GetReasons()) > 0 {
		v.Reasons = make([]core.Reason, len(r.GetReasons()))
		for i, p := range r.GetReasons() {
			v.Reasons[i] = core.Reason{Layer: p.GetLayer(), Rule: p.GetRule(), Message: p.GetMessage()}
		}
	}
	if len(r.GetAnnotations()) > 0 {
		v.Annotations = r.GetAnnotations()
	}
	return v, nil
}

// Text returns s as valid UTF-8 (protobuf refuses to marshal anything
// else), replacing invalid bytes with U+FFFD. It costs one scan and no
// allocation when s is already valid.
func Text(s string) string { return text(s) }

func text(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// exactText returns s as valid UTF-8 plus, when it had to be repaired, the
// exact bytes.
func exactText(s string) (string, []byte) {
	if utf8.ValidString(s) {
		return s, nil
	}
	return strings.ToValidUTF8(s, "\uFFFD"), []byte(s)
}

// exact is the inverse of exactText.
func exact(s string, b []byte) string {
	if len(b) > 0 {
		return string(b)
	}
	return s
}

// texts returns ss with every element valid UTF-8, copying only when an
// element needs repair.
func texts(ss []string) []string {
	for i, s := range ss {
		if !utf8.ValidString(s) {
			out := append([]string(nil), ss...)
			for j := i; j < len(out); j++ {
				out[j] = text(out[j])
			}
			return out
		}
	}
	return nilIfEmpty(ss)
}

func textMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[text(k)] = text(v)
	}
	return out
}

// viaToProto writes each Via as its text (the wire keeps Via a list of
// strings), repairing invalid UTF-8 as texts does.
func viaToProto(vias []ir.Via) []string {
	if len(vias) == 0 {
		return nil
	}
	return texts(ir.ViaTexts(vias))
}

// viaFromProto reads Via texts back into typed entries with
// ir.ParseVia; nil for none.
func viaFromProto(ss []string) []ir.Via {
	if len(ss) == 0 {
		return nil
	}
	out := make([]ir.Via, len(ss))
	for i, s := range ss {
		out[i] = ir.ParseVia(s)
	}
	return out
}

func nilIfEmpty(ss []string) []string {
	if len(ss) == 0 {
		return nil
	}
	return ss
}
