package host

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// fakeLayer answers as told.
type fakeLayer struct {
	name  string
	ask   bool
	err   error
	panic bool
	hang  bool // ignores ctx
	block bool // waits for ctx, like an RPC
	// partial: with err or block, the verdict returned with the error asks
	// (what a built-in found before it failed).
	partial bool

	calls *atomic.Int32
	seen  func(*core.Call)
}

func (f *fakeLayer) Name() string { return f.name }

func (f *fakeLayer) Decide(ctx context.Context, c *core.Call) (core.Verdict, error) {
	if f.calls != nil {
		f.calls.Add(1)
	}
	if f.seen != nil {
		f.seen(c)
	}
	switch {
	case f.panic:
		panic("boom")
	case f.hang:
		select {} // ignores ctx on purpose
	case f.block:
		<-ctx.Done()
		if f.partial {
			return f.found(), ctx.Err()
		}
		return core.SilentVerdict, ctx.Err()
	case f.err != nil:
		if f.partial {
			return f.found(), f.err
		}
		return core.Verdict{Annotations: map[string]string{"why": "failed"}}, f.err
	case f.ask:
		return core.AskVerdict(core.Reason{Rule: "T-" + strings.ToUpper(f.name), Message: "[zcode-fence: test] " + f.name + " asks"}), nil
	}
	return core.SilentVerdict, nil
}

// found is the finding a partial layer made before it failed.
func (f *fakeLayer) found() core.Verdict {
	return core.AskVerdict(core.Reason{Rule: "T-FOUND", Message: "[zcode-fence: test] " + f.name + " found one"})
}

func builtin(l *fakeLayer, deferred bool, sw config.Spec) Builtin {
	return Builtin{Name: l.name, New: func() core.Layer { return l }, Switch: sw, Deferred: deferred}
}

// The fake layers' settings, and the schema they make with the host's.
var (
	switchA     = config.Spec{Key: "enable_a", Kind: config.Bool, Default: "true"}
	switchModel = config.Spec{Key: "enable_model", Kind: config.Bool, Default: "false"}
	ruleA       = config.Spec{Key: "a_rule", Kind: config.String}
	secretA     = config.Spec{Key: "a_secret", Kind: config.String, Sensitive: true}
	testSchema  = config.NewSchema(config.HostSettings, []config.Spec{switchA, switchModel, ruleA, secretA})
)

func cfgWith(kv map[string]string) config.Config {
	env := map[string]string{"ZCODE_FENCE_CONFIG": "/nonexistent"}
	for k, v := range kv {
		env["ZCODE_FENCE_"+strings.ToUpper(k)] = v
	}
	return testSchema.Load(config.Env{Lookup: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, Home: "/nonexistent"})
}

func TestChain(t *testing.T) {
	inproc := map[string]string{"layer_isolation": "inprocess", "enable_model": "true"}
	cases := []struct {
		name       string
		layers     []*fakeLayer
		model      *fakeLayer
		cfg        map[string]string
		want       core.Decision
		modelCalls int32
		errs       int
	}{
		{"all silent, model silent", []*fakeLayer{{name: "a"}, {name: "b"}}, &fakeLayer{name: "m"}, inproc, core.Silent, 1, 0},
		{"one asks, model skipped", []*fakeLayer{{name: "a", ask: true}, {name: "b"}}, &fakeLayer{name: "m", ask: true}, inproc, core.Ask, 0, 0},
		{"model asks when others silent", []*fakeLayer{{name: "a"}}, &fakeLayer{name: "m", ask: true}, inproc, core.Ask, 1, 0},
		{"model off", []*fakeLayer{{name: "a"}}, &fakeLayer{name: "m", ask: true}, map[string]string{"layer_isolation": "inprocess"}, core.Silent, 0, 0},
		{"error is silent", []*fakeLayer{{name: "a", err: errors.New("broken")}}, nil, inproc, core.Silent, 0, 1},
		{"panic is silent", []*fakeLayer{{name: "a", panic: true}, {name: "b", ask: true}}, nil, inproc, core.Ask, 0, 1},
		{"model error is silent", []*fakeLayer{{name: "a"}}, &fakeLayer{name: "m", err: errors.New("timeout")}, inproc, core.Silent, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var h Host
			for _, l := range tc.layers {
				h.Builtins = append(h.Builtins, builtin(l, false, config.Spec{}))
			}
			var calls atomic.Int32
			if tc.model != nil {
				tc.model.calls = &calls
				h.Builtins = append(h.Builtins, builtin(tc.model, true, switchModel))
			}
			out, release := h.Run(context.Background(), &core.Call{Tool: "Bash"}, cfgWith(tc.cfg), time.Now())
			release()
			if out.Verdict.Decision != tc.want {
				t.Fatalf("decision = %v, want %v (%+v)", out.Verdict.Decision, tc.want, out.Layers)
			}
			if calls.Load() != tc.modelCalls {
				t.Fatalf("model called %d times, want %d", calls.Load(), tc.modelCalls)
			}
			errs := 0
			for _, l := range out.Layers {
				if l.Err != nil {
					errs++
				}
			}
			if errs != tc.errs {
				t.Fatalf("%d errors, want %d: %+v", errs, tc.errs, out.Layers)
			}
			if (tc.want == core.Ask) != (out.Text != "") {
				t.Fatalf("text %q for decision %v", out.Text, tc.want)
			}
		})
	}
}

func TestLayerGetsOnlyItsOptions(t *testing.T) {
	var got map[string]string
	l := &fakeLayer{name: "a", seen: func(c *core.Call) { got = c.Options }}
	h := Host{Builtins: []Builtin{{Name: "a", New: func() core.Layer { return l }, Settings: []config.Spec{ruleA}}}}
	_, release := h.Run(context.Background(), &core.Call{}, cfgWith(map[string]string{"a_rule": "^x", "layer_isolation": "inprocess", "a_secret": "k", "language": "en"}), time.Now())
	release()
	// Its own setting and the language; not the host's, not another's.
	if len(got) != 2 || got[ruleA.Key] != "^x" || got[core.LanguageOption] != "en" {
		t.Fatalf("options = %v", got)
	}
}

func TestSwitchedOffLayerDoesNotRun(t *testing.T) {
	var calls atomic.Int32
	l := &fakeLayer{name: "a", ask: true, calls: &calls}
	h := Host{Builtins: []Builtin{builtin(l, false, switchA)}}
	out, release := h.Run(context.Background(), &core.Call{}, cfgWith(map[string]string{"enable_a": "false", "layer_isolation": "inprocess"}), time.Now())
	release()
	if out.Verdict.Decision != core.Silent || calls.Load() != 0 {
		t.Fatalf("switched-off layer ran: %v, %d calls", out.Verdict.Decision, calls.Load())
	}
}

// TestHangingLayerIsAbandoned: a layer that ignores its context must not
// hold the answer past the global deadline. The start time is set in the
// past so that deadline is near: a second away, which an in-process layer
// that answers at once meets even on a machine at load 50 (50 ms did
// not: a cold run of the suite beside a second one lost the quick
// layer's answer).
func TestHangingLayerIsAbandoned(t *testing.T) {
	h := Host{Builtins: []Builtin{builtin(&fakeLayer{name: "slow", hang: true}, false, config.Spec{}), builtin(&fakeLayer{name: "quick"}, false, config.Spec{})}}
	start := time.Now().Add(-(Budget - AnswerMargin) + time.Second)
	out, release := h.Run(context.Background(), &core.Call{}, cfgWith(map[string]string{"layer_isolation": "inprocess"}), start)
	release()
	if out.Verdict.Decision != core.Silent || out.Layers[1].Err != nil {
		t.Fatalf("quick layer's answer lost: %+v", out)
	}
	if err := out.Layers[0].Err; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow layer err = %v", err)
	}
}

// fakeRemote records Close calls.
type fakeRemote struct {
	fakeLayer
	closed *atomic.Int32
	once   sync.Once
}

func (r *fakeRemote) Close() { r.once.Do(func() { r.closed.Add(1) }) }

func TestProcessModeClosesEveryRemote(t *testing.T) {
	var launched, closed atomic.Int32
	launch := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		launched.Add(1)
		switch spec.Name {
		case "fails":
			return nil, errors.New("exec format error")
		case "panics":
			return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, panic: true}, closed: &closed}, nil
		case "hangs":
			return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, block: true}, closed: &closed}, nil
		}
		if spec.Path != "/self" || strings.Join(spec.Args, " ") != "layer serve "+spec.Name {
			t.Errorf("spec = %+v", spec)
		}
		return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name}, closed: &closed}, nil
	}
	var bs []Builtin
	for _, n := range []string{"danger", "fence", "fails", "panics", "hangs"} {
		bs = append(bs, Builtin{Name: n, New: func() core.Layer {
			if n != "fails" && n != "hangs" {
				t.Error("in-process layer built although its process answered")
			}
			return &fakeLayer{name: n, ask: n == "hangs"}
		}})
	}
	h := Host{Builtins: bs, Launch: launch, Self: "/self"}
	// "hangs" blocks until the deterministic budget is spent (2 s), then
	// its in-process fallback asks; nobody asks earlier, so AskGrace does
	// not cut the wait short.
	start := time.Now()
	out, release := h.Run(context.Background(), &core.Call{}, cfgWith(nil), start)
	release()
	if out.Verdict.Decision != core.Ask {
		t.Fatalf("decision = %v", out.Verdict.Decision)
	}
	if launched.Load() != 5 || closed.Load() != 4 {
		t.Fatalf("launched %d, closed %d; want 5 and 4", launched.Load(), closed.Load())
	}
	for _, l := range out.Layers {
		want := ModeProcess
		if l.Name == "fails" || l.Name == "hangs" {
			want = ModeInProcess // launch failed or no answer in time: judged in the host
		}
		if l.Mode != want {
			t.Fatalf("layer %s mode %s, want %s", l.Name, l.Mode, want)
		}
	}
}

func TestExternalLayersAreLaunchedWithScrubbedEnv(t *testing.T) {
	var specs []LaunchSpec
	var mu sync.Mutex
	var closed atomic.Int32
	launch := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		mu.Lock()
		specs = append(specs, spec)
		mu.Unlock()
		return &fakeRemote{fakeLayer: fakeLayer{name: "whatever", ask: true}, closed: &closed}, nil
	}
	h := Host{Launch: launch, Self: "/self"}
	layer := filepath.Join(t.TempDir(), "protect-branch")
	if err := os.WriteFile(layer, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("#!/bin/sh\n"))
	pin := hex.EncodeToString(sum[:])
	data := t.TempDir()
	cfg := cfgWith(map[string]string{
		"external_layers": layer + "#sha256=" + pin + "; relative/x ;/opt/bad#md5=1",
		"layer_options":   `{"protect-branch": {"branches": "main;release/*", "strict": true}}`,
	})
	out, release := h.Run(context.Background(), &core.Call{DataDir: data}, cfg, time.Now())
	release()
	if len(specs) != 1 {
		t.Fatalf("launched %+v", specs)
	}
	s := specs[0]
	// The pinned layer runs from its verified copy, already checked.
	if s.Name != "protect-branch" || s.Path != filepath.Join(data, LayersDirName, pin, "protect-branch") || s.Checksum != "" ||
		!slices.Equal(s.ScrubEnv, testSchema.SensitiveEnv()) || len(s.ScrubEnv) != 3 {
		t.Fatalf("spec = %+v (scrub %v, want the verified copy and the schema's sensitive variables)", s, s.ScrubEnv)
	}
	if out.Verdict.Decision != core.Ask || out.Verdict.Reasons[0].Layer != "protect-branch" {
		t.Fatalf("external reason not attributed to its slot: %+v", out.Verdict)
	}
	if len(out.Notes) != 2 {
		t.Fatalf("%d config notes, want 2 (relative path, bad pin): %q", len(out.Notes), out.Notes)
	}
}

func TestFormatReasons(t *testing.T) {
	v := core.AskVerdict(
		core.Reason{Layer: "danger", Message: "[zcode-fence: 危险命令] a"},
		core.Reason{Layer: "ext", Message: "plain"},
	)
	if got := FormatReasons(v, "zh"); got != "[zcode-fence: 危险命令] a；[zcode-fence: ext] plain" {
		t.Fatalf("zh = %q", got)
	}
	if got := FormatReasons(v, "en"); got != "[zcode-fence: 危险命令] a; [zcode-fence: ext] plain" {
		t.Fatalf("en = %q", got)
	}
	long := core.AskVerdict(core.Reason{Message: strings.Repeat("长", 2000)})
	if got := FormatReasons(long, "zh"); len([]rune(got)) != core.MaxReasonUnits+1 {
		t.Fatalf("not capped: %d", len([]rune(got)))
	}
}

// TestAskDoesNotWaitForAHungLayer: once a layer asks, a hung one is given
// only AskGrace, not the whole deterministic budget.
func TestAskDoesNotWaitForAHungLayer(t *testing.T) {
	launch := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		var closed atomic.Int32
		return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, hang: true}, closed: &closed}, nil
	}
	h := Host{Builtins: []Builtin{builtin(&fakeLayer{name: "asks", ask: true}, false, config.Spec{})}, Launch: launch, Self: "/self"}
	cfg := cfgWith(map[string]string{"layer_isolation": "inprocess", "external_layers": "/opt/hung"})
	t0 := time.Now()
	out, release := h.Run(context.Background(), &core.Call{}, cfg, t0)
	release()
	if out.Verdict.Decision != core.Ask {
		t.Fatalf("decision = %v", out.Verdict.Decision)
	}
	if err := out.Layers[1].Err; !errors.Is(err, ErrAbandoned) {
		t.Fatalf("hung layer err = %v, want ErrAbandoned (not the deadline)", err)
	}
}

// TestBuiltinFallbackKeepsTheAsk: a built-in whose process cannot answer
// within the deterministic budget (a loaded machine) is judged in-process,
// so its ask survives; an external layer in the same state is silent.
func TestBuiltinFallbackKeepsTheAsk(t *testing.T) {
	launch := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		var closed atomic.Int32
		return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, block: true}, closed: &closed}, nil
	}
	gate := Builtin{Name: "gate", New: func() core.Layer { return &fakeLayer{name: "gate", ask: true} }}
	h := Host{Builtins: []Builtin{gate}, Launch: launch, Self: "/self"}
	start := time.Now().Add(-DeterministicBudget + 50*time.Millisecond)
	out, release := h.Run(context.Background(), &core.Call{}, cfgWith(nil), start)
	release()
	if out.Verdict.Decision != core.Ask {
		t.Fatalf("built-in ask lost to a stalled process: %+v", out.Layers)
	}
	if l := out.Layers[0]; l.Mode != ModeInProcess || l.Err == nil {
		t.Fatalf("layer = %+v, want in-process with the process failure logged", l)
	}

	ext := Host{Launch: launch, Self: "/self"}
	cfg := cfgWith(map[string]string{"external_layers": "/opt/stalls"})
	out, release = ext.Run(context.Background(), &core.Call{}, cfg, start)
	release()
	if out.Verdict.Decision != core.Silent || out.Layers[0].Err == nil {
		t.Fatalf("external layer: %+v", out)
	}
}

// testIncomplete is a fail-closed built-in's Incomplete reason.
func testIncomplete(c rules.Cause, l core.Language) core.Reason {
	return core.Reason{Layer: "gate", Rule: "T-INCOMPLETE", Message: "[zcode-fence: test] not inspected: " + c.In(l)}
}

// TestBuiltinFailsClosed: a built-in with an Incomplete reason that errs,
// panics or gives no answer on a shell or file call asks, with the reason
// saying why (in the configured language) after what it had found; on
// other tools, and for layers without an Incomplete reason, a failure
// stays silent. Both isolation modes: in process mode the layer's process
// fails the same way and the in-process fallback decides.
func TestBuiltinFailsClosed(t *testing.T) {
	// The stalled process of process mode holds until DeterministicBudget:
	// start near its end. The deadline cases start near the chain's.
	soon := func() time.Time { return time.Now().Add(-DeterministicBudget + 100*time.Millisecond) }
	nearDeadline := func() time.Time { return time.Now().Add(-(Budget - AnswerMargin) + 400*time.Millisecond) }
	cases := []struct {
		name  string
		layer fakeLayer
		start func() time.Time
		cause rules.Cause
		rules []string
	}{
		{"error", fakeLayer{err: errors.New("broken")}, soon, rules.CauseFailed, []string{"T-INCOMPLETE"}},
		{"error after a finding", fakeLayer{err: errors.New("broken"), partial: true}, soon, rules.CauseFailed, []string{"T-FOUND", "T-INCOMPLETE"}},
		{"panic", fakeLayer{panic: true}, soon, rules.CauseFailed, []string{"T-INCOMPLETE"}},
		{"deadline after a finding", fakeLayer{block: true, partial: true}, nearDeadline, rules.CauseTimeout, []string{"T-FOUND", "T-INCOMPLETE"}},
		{"hang", fakeLayer{hang: true}, nearDeadline, rules.CauseTimeout, []string{"T-INCOMPLETE"}},
	}
	stalls := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		var closed atomic.Int32
		return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, block: true}, closed: &closed}, nil
	}
	for _, tc := range cases {
		for _, mode := range []string{ModeInProcess, ModeProcess} {
			for _, kind := range []core.ToolKind{core.KindShell, core.KindFile, core.KindOther} {
				t.Run(tc.name+"/"+mode+"/"+kind.String(), func(t *testing.T) {
					l := tc.layer
					l.name = "gate"
					gate := Builtin{Name: "gate", New: func() core.Layer { return &l }, Incomplete: testIncomplete}
					h := Host{Builtins: []Builtin{gate}, Launch: stalls, Self: "/self"}
					out, release := h.Run(context.Background(), &core.Call{Kind: kind}, cfgWith(map[string]string{"layer_isolation": mode, "language": "en"}), tc.start())
					release()
					if kind == core.KindOther {
						if out.Verdict.Decision != core.Silent {
							t.Fatalf("a tool the guard does not judge asked: %+v", out.Verdict)
						}
						return
					}
					var got []string
					for _, r := range out.Verdict.Reasons {
						got = append(got, r.Rule)
					}
					if out.Verdict.Decision != core.Ask || !slices.Equal(got, tc.rules) {
						t.Fatalf("verdict %v with rules %v, want ask with %v (%+v)", out.Verdict.Decision, got, tc.rules, out.Layers)
					}
					if last := out.Verdict.Reasons[len(got)-1].Message; !strings.HasSuffix(last, tc.cause.En) {
						t.Fatalf("reason %q does not give the cause %q", last, tc.cause.En)
					}
					if out.Layers[0].Err == nil {
						t.Fatal("the failure is not logged")
					}
				})
			}
		}
	}

	// A layer without an Incomplete reason (the decision model, a test
	// layer) fails open.
	open := builtin(&fakeLayer{name: "open", err: errors.New("broken")}, false, config.Spec{})
	h := Host{Builtins: []Builtin{open}}
	out, release := h.Run(context.Background(), &core.Call{Kind: core.KindShell}, cfgWith(map[string]string{"layer_isolation": "inprocess"}), time.Now())
	release()
	if out.Verdict.Decision != core.Silent {
		t.Fatalf("a fail-open layer's error asked: %+v", out.Verdict)
	}
}

// TestFallbackAnswersBeforeTheDeadline: a built-in judged in-process (as
// the fallback for a stalled process, or in-process mode) gets a deadline
// FallbackMargin before the one the chain waits on, so its own answer —
// the partial finding and the ask for the rest — is what the chain
// reports, not the chain's "no answer".
func TestFallbackAnswersBeforeTheDeadline(t *testing.T) {
	stalls := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		var closed atomic.Int32
		return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, block: true}, closed: &closed}, nil
	}
	for _, mode := range []string{ModeInProcess, ModeProcess} {
		var seenDeadline time.Time
		l := &fakeLayer{name: "gate", block: true, partial: true, seen: func(*core.Call) {}}
		layer := deadlineRecorder{fakeLayer: l, got: &seenDeadline}
		gate := Builtin{Name: "gate", New: func() core.Layer { return layer }, Incomplete: testIncomplete}
		h := Host{Builtins: []Builtin{gate}, Launch: stalls, Self: "/self"}
		start := time.Now().Add(-(Budget - AnswerMargin) + 600*time.Millisecond)
		out, release := h.Run(context.Background(), &core.Call{Kind: core.KindShell}, cfgWith(map[string]string{"layer_isolation": mode}), start)
		release()
		chainDeadline := start.Add(Budget - AnswerMargin)
		if want := chainDeadline.Add(-FallbackMargin); !seenDeadline.Equal(want) {
			t.Errorf("%s: the in-process run's deadline is %v, want %v (FallbackMargin before the chain's)", mode, seenDeadline, want)
		}
		r := out.Layers[0]
		if r.Mode != ModeInProcess || out.Verdict.Decision != core.Ask || strings.Contains(r.Err.Error(), "no answer before the deadline") {
			t.Errorf("%s: the chain gave up before the layer's own answer: %+v", mode, r)
		}
	}
}

// deadlineRecorder records the deadline Decide is given.
type deadlineRecorder struct {
	*fakeLayer
	got *time.Time
}

func (d deadlineRecorder) Decide(ctx context.Context, c *core.Call) (core.Verdict, error) {
	*d.got, _ = ctx.Deadline()
	return d.fakeLayer.Decide(ctx, c)
}

// TestOversizedScriptIsJudgedInProcess: in process isolation, a shell call
// whose analysis is too large to send (convert.ScriptFits) is judged by the
// built-ins in the host, which holds the analysis, instead of being sent
// without it to processes that would redo it.
func TestOversizedScriptIsJudgedInProcess(t *testing.T) {
	var launched atomic.Int32
	launch := func(ctx context.Context, spec LaunchSpec) (Remote, error) {
		launched.Add(1)
		var closed atomic.Int32
		return &fakeRemote{fakeLayer: fakeLayer{name: spec.Name, ask: true}, closed: &closed}, nil
	}
	h := Host{Builtins: []Builtin{builtin(&fakeLayer{name: "gate", ask: true}, false, config.Spec{})}, Launch: launch, Self: "/self"}
	step := ir.Word{Value: strings.Repeat("d", 4000), Raw: "$d", KnownPrefix: strings.Repeat("d", 4000)}
	chain := slices.Repeat([]ir.Word{step}, 32)
	huge := &ir.Script{}
	for range 64 {
		huge.Commands = append(huge.Commands, ir.Command{Name: "echo", Cd: chain, Parent: -1, FeedsInto: -1})
	}
	for _, tc := range []struct {
		script   *ir.Script
		mode     string
		launches int32
	}{
		{&ir.Script{Commands: []ir.Command{{Name: "echo", Cd: chain[:1], Parent: -1, FeedsInto: -1}}}, ModeProcess, 1},
		{huge, ModeInProcess, 0},
	} {
		launched.Store(0)
		out, release := h.Run(context.Background(), &core.Call{Kind: core.KindShell, Script: tc.script}, cfgWith(nil), time.Now())
		release()
		if out.Layers[0].Mode != tc.mode || launched.Load() != tc.launches || out.Verdict.Decision != core.Ask {
			t.Errorf("%d commands: mode %s, %d launches, %v; want %s, %d, ask", len(tc.script.Commands), out.Layers[0].Mode, launched.Load(), out.Verdict.Decision, tc.mode, tc.launches)
		}
	}
}
