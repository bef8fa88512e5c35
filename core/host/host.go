// Package host runs the chain of layers for one tool call. It decodes
// nothing and prints nothing itself: cmd/zcode-fence hands it a decoded
// payload and gets back an Outcome to print and log.
//
// Chain (order is data, see Host.Builtins): every deterministic layer —
// the built-ins that are switched on and every external layer — runs
// concurrently; if any asks, the answer is ask; otherwise, when a deferred
// layer (the decision model) is switched on, it runs alone; then every
// plugin process is killed and its socket removed, on every path.
//
// Time: one global budget (Budget, about 4.5 s from the hook's start, inside
// the host's 5 s hook timeout). Deterministic layers get DeterministicBudget
// of it; a deferred layer gets what its own timeout asks for, capped by what
// is left minus AnswerMargin. A layer that overruns is abandoned.
//
// Failure policy (DESIGN §3): a built-in layer with an Incomplete reason
// (danger, fence) that errs, panics or overruns on a shell or file call
// makes the call ask, with that reason (why, in the call's language) after
// the findings it made before; its in-process runs get their own deadline,
// FallbackMargin before the one the chain waits on, so that answer is in
// time. Third-party layers and the decision model fail open: silent, with
// an error in the log.
package host

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/layerproto/convert"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Budget is the whole time a hook may take, from its start to its answer.
const Budget = 4500 * time.Millisecond

// DeterministicBudget bounds the deterministic phase (launch included).
const DeterministicBudget = 2 * time.Second

// AnswerMargin is kept free at the end of Budget to print and log.
const AnswerMargin = 250 * time.Millisecond

// FallbackMargin is how much earlier than the deadline the chain waits on
// a built-in judged in-process must stop: its partial answer (and the ask
// for what it could not inspect) then arrives before the chain gives up.
const FallbackMargin = 150 * time.Millisecond

// Builtin describes a layer compiled into the binary.
type Builtin struct {
	// Name is the layer's name, also its `layer serve NAME` argument.
	Name string
	// New builds the layer (in-process mode, and inside `layer serve`).
	New func() core.Layer
	// Switch is the boolean setting that turns the layer on (a zero Spec:
	// always on).
	Switch config.Spec
	// Settings are the layer's own settings. Their values, and
	// core.LanguageOption, are passed to the layer as Call.Options.
	Settings []config.Spec
	// Deferred layers run only when every deterministic layer was silent.
	Deferred bool
	// TimeoutKey names an integer config key (milliseconds) holding the
	// layer's own time limit; deferred layers are given that much time plus
	// a little, within the global budget.
	TimeoutKey string
	// Reads is the boolean setting under which the layer judges read
	// calls (core.KindRead: the hosts' Read, Grep, ... tools), on by its
	// default; a zero Spec: the layer never sees them. A read call goes to
	// these layers only: never to one without Reads, a third-party layer
	// or a deferred one (the decision model), so adding the read tools to
	// the hook matchers makes no other line judge reads. With no such
	// layer switched on, a read call runs no layer at all.
	Reads config.Spec
	// Incomplete, when set, makes the layer fail closed on shell and file
	// calls (and, for a layer with Reads, read calls): when it errs, panics or gives no answer in time, the call asks
	// with the reason Incomplete renders for the cause, in the call's
	// language, after whatever the layer had found. Nil: the layer fails
	// open (the decision model).
	Incomplete func(c rules.Cause, l core.Language) core.Reason
}

// Remote is a layer running in another process; Close kills it and removes
// everything it left (socket, socket dir). Close must be idempotent.
type Remote interface {
	core.Layer
	Close()
}

// LaunchSpec says how to start one layer process.
type LaunchSpec struct {
	// Name is the layer's name in logs and reasons.
	Name string
	// Path is the executable; Args its arguments.
	Path string
	Args []string
	// Checksum is the pinned sha256 (hex) of Path, or "": the launcher
	// verifies it (hashing the file) before the process starts.
	Checksum string
	// Verified is the sha256 (hex) Path's bytes were verified to have
	// before the spec was made (a pinned external layer's private
	// content-addressed copy), or "". The launcher does not hash per call;
	// a warm server is reattached only when its record holds this hash.
	Verified string
	// ScrubEnv lists environment variables the child must not inherit.
	ScrubEnv []string
	// DataDir is the call's data dir: the launcher keeps its private run
	// dir there (warm-server records, socket dirs).
	DataDir string
	// Idle, when positive, asks for a warm server: one that outlives the
	// call, is reattached to by later calls and exits after Idle without
	// calls (layer_idle_timeout). Zero: a process for this call only.
	Idle time.Duration
}

// LaunchFunc starts a layer process. It must honour ctx (never outlive its
// deadline) and, on error, leave nothing running.
type LaunchFunc func(ctx context.Context, spec LaunchSpec) (Remote, error)

// Host holds what does not change between calls.
type Host struct {
	// Builtins in chain order.
	Builtins []Builtin
	// Launch starts layer processes (process isolation, external layers).
	Launch LaunchFunc
	// Prefetch, when set, begins reconnecting in the background to a
	// layer's long-lived process ahead of the Launch that will want it
	// (see PrefetchLayers). It must not block.
	Prefetch func(ctx context.Context, spec LaunchSpec)
	// Self is this executable, re-run as `Self layer serve NAME`.
	Self string
}

// Mode says where a layer ran.
const (
	ModeInProcess = "inprocess"
	ModeProcess   = "process"
	ModeExternal  = "external"
)

// LayerResult is one layer's part of a decision.
type LayerResult struct {
	Name    string
	Mode    string
	Verdict core.Verdict
	// Err is why the layer could not decide. The layer then counts as
	// silent, except a built-in that fails closed (Builtin.Incomplete):
	// its Verdict asks.
	Err error
	// Launch is the time spent starting its process (0 in-process).
	Launch time.Duration
	// Decide is the time of the Decide call itself.
	Decide time.Duration
	// Disabled are the reasons of rules disabled_rules switched off,
	// removed from Verdict (built-in layers only).
	Disabled []core.Reason
}

// Outcome is the chain's answer for one call.
type Outcome struct {
	Verdict core.Verdict
	Layers  []LayerResult
	// Text is the reason line for the ask answer ("" when silent).
	Text string
	// Notes are configuration problems found while building the chain.
	Notes []string
}

// options are the values of b's settings and the language, for
// Call.Options.
func (b *Builtin) options(cfg config.Config) map[string]string {
	keys := make([]string, 0, len(b.Settings)+1)
	for _, s := range b.Settings {
		keys = append(keys, s.Key)
	}
	return cfg.Subset(append(keys, config.KeyLanguage)...)
}

// slot is one layer of this call's chain.
type slot struct {
	name     string
	mode     string
	builtin  *Builtin
	spec     LaunchSpec
	options  map[string]string
	deferred bool
	timeout  time.Duration
}

// Run judges call with configuration cfg. start is when the hook began
// (the global budget counts from it). call's Options are set per layer.
//
// The returned release function kills every layer process Run started and
// removes what they left; call it once the answer is written (killing and
// reaping costs a few milliseconds per process, and the answer should not
// wait for that). It is bounded by CloseBudget and safe to call twice.
func (h *Host) Run(ctx context.Context, call *core.Call, cfg config.Config, start time.Time) (Outcome, func()) {
	return h.run(ctx, call, nil, cfg, start)
}

// RunPrepared is Run for a prepared call: its findings (asks raised while
// decoding) come first in the verdict, and like any ask they keep the
// deferred layers from running.
func (h *Host) RunPrepared(ctx context.Context, prep Prepared, cfg config.Config, start time.Time) (Outcome, func()) {
	return h.run(ctx, prep.Call, prep.Findings, cfg, start)
}

func (h *Host) run(ctx context.Context, call *core.Call, pre []core.Reason, cfg config.Config, start time.Time) (Outcome, func()) {
	ctx, cancel := context.WithDeadline(ctx, start.Add(Budget-AnswerMargin))
	remotes := &remoteSet{}
	release := func() { remotes.closeAll(cancel) }
	ok := false
	defer func() {
		if !ok { // a panic on the way: still leave nothing behind
			release()
		}
	}()

	slots, notes := h.slots(cfg, call.DataDir)
	if call.Kind == core.KindRead {
		slots = readSlots(slots, cfg)
	}
	disabled, offNotes := DisabledRules(cfg)
	notes = append(notes, offNotes...)
	vet := vetExternal(slots, call, cfg.Get(config.KeyLanguage))
	slots = vet.slots
	out := Outcome{Notes: append(notes, vet.notes...)}

	var det, deferred []slot
	for _, s := range slots {
		if s.deferred {
			deferred = append(deferred, s)
		} else {
			det = append(det, s)
		}
	}

	// Deterministic layers: processes get DeterministicBudget; a built-in
	// whose process failed or ran out of it is judged in-process with what
	// is left of the global budget, so load never turns its ask into
	// silence.
	detCtx, detCancel := context.WithDeadline(ctx, start.Add(DeterministicBudget))
	results := h.runAll(detCtx, ctx, det, call, remotes)
	detCancel()
	switchOff(results, disabled)
	out.Layers = append(out.Layers, results...)

	verdicts := make([]core.Verdict, 0, len(results)+1)
	if len(pre) > 0 {
		verdicts = append(verdicts, core.AskVerdict(pre...))
	}
	for _, r := range results {
		verdicts = append(verdicts, r.Verdict)
	}
	if len(vet.reasons) > 0 {
		// A pinned layer failed its integrity check: the call asks.
		verdicts = append([]core.Verdict{core.AskVerdict(vet.reasons...)}, verdicts...)
	}
	out.Verdict = core.Merge(verdicts...)

	if out.Verdict.Decision == core.Silent {
		for _, s := range deferred {
			dctx := ctx
			var dcancel context.CancelFunc = func() {}
			if s.timeout > 0 {
				dctx, dcancel = context.WithTimeout(ctx, s.timeout+200*time.Millisecond)
			}
			res := h.runAll(dctx, dctx, []slot{s}, call, remotes)
			dcancel()
			switchOff(res, disabled)
			out.Layers = append(out.Layers, res...)
			out.Verdict = core.Merge(out.Verdict, res[0].Verdict)
			if out.Verdict.Decision == core.Ask {
				break
			}
		}
	}
	if out.Verdict.Decision == core.Ask {
		out.Text = FormatReasons(out.Verdict, cfg.Get(config.KeyLanguage))
	}
	ok = true
	return out, release
}

// PrefetchLayers lets the built-in layers that cfg runs as processes
// begin reconnecting to their warm servers now, through h.Prefetch, so
// that a hook reading and analysing its payload meanwhile finds the
// connections made when it runs the chain. The deferred layers (the
// model) are left alone: most calls never reach them. It returns at once;
// what no Launch takes is closed by whoever implements Prefetch.
func (h *Host) PrefetchLayers(ctx context.Context, cfg config.Config, dataDir string) {
	if h.Prefetch == nil {
		return
	}
	slots, _ := h.slots(cfg, dataDir)
	for _, s := range slots {
		if s.builtin != nil && s.mode == ModeProcess && !s.deferred {
			h.Prefetch(ctx, s.spec)
		}
	}
}

// readSlots keeps the slots that judge read calls: built-in, not deferred,
// with their Reads setting on.
func readSlots(slots []slot, cfg config.Config) []slot {
	var out []slot
	for _, s := range slots {
		if s.builtin != nil && !s.deferred && s.builtin.Reads.Key != "" && cfg.Bool(s.builtin.Reads.Key) {
			out = append(out, s)
		}
	}
	return out
}

// slots lists this call's layers from the configuration.
func (h *Host) slots(cfg config.Config, dataDir string) ([]slot, []string) {
	var out []slot
	var notes []string
	process := cfg.Get(config.KeyLayerIsolation) != ModeInProcess
	idle := time.Duration(cfg.Int(config.KeyLayerIdleTimeout)) * time.Second
	for i := range h.Builtins {
		b := &h.Builtins[i]
		if b.Switch.Key != "" && !cfg.Bool(b.Switch.Key) {
			continue
		}
		s := slot{name: b.Name, builtin: b, options: b.options(cfg), deferred: b.Deferred, mode: ModeInProcess}
		if b.TimeoutKey != "" {
			s.timeout = time.Duration(cfg.Int(b.TimeoutKey)) * time.Millisecond
		}
		if process && h.Launch != nil && h.Self != "" {
			s.mode = ModeProcess
			s.spec = LaunchSpec{Name: b.Name, Path: h.Self, Args: []string{"layer", "serve", b.Name}, DataDir: dataDir, Idle: idle}
		}
		out = append(out, s)
	}
	ext, extNotes := ExternalLayers(cfg.Get(config.KeyExternalLayers), cfg.Get(config.KeyLayerOptions))
	notes = append(notes, extNotes...)
	lang := cfg.Get(config.KeyLanguage)
	// Every environment variable that can carry a sensitive setting (the
	// model's API key and headers) stays out of third-party processes.
	scrub := cfg.Schema().SensitiveEnv()
	for _, e := range ext {
		if h.Launch == nil {
			notes = append(notes, fmt.Sprintf("layer %s: no launcher, skipped", e.Name))
			continue
		}
		opts := map[string]string{config.KeyLanguage: lang}
		for k, v := range e.Options {
			opts[k] = v
		}
		out = append(out, slot{
			name: e.Name, mode: ModeExternal, options: opts,
			spec: LaunchSpec{Name: e.Name, Path: e.Path, Checksum: e.Checksum, ScrubEnv: scrub, DataDir: dataDir, Idle: idle},
		})
	}
	return out, notes
}

// remoteSet collects launched processes so that every one is closed.
type remoteSet struct {
	mu      sync.Mutex
	list    []Remote
	closing bool           // no new launch may begin
	done    bool           // closed: late arrivals are closed at once
	pending sync.WaitGroup // launches in flight
}

// begin registers a launch about to start; false once closing began.
func (s *remoteSet) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.pending.Add(1)
	return true
}

// CloseBudget bounds closeAll: waiting for launches in flight after
// cancelling them (a launch honours its context, so this is rarely used)
// and killing every process. A layer process still alive after it exits on
// its own once the host is gone (it watches the host's pid).
const CloseBudget = 200 * time.Millisecond

// add registers r; if the set was already closed, r is closed at once.
func (s *remoteSet) add(r Remote) {
	s.mu.Lock()
	closed := s.done
	if !closed {
		s.list = append(s.list, r)
	}
	s.mu.Unlock()
	if closed {
		r.Close()
	}
}

func (s *remoteSet) closeAll(cancel context.CancelFunc) {
	cancel()
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.closing = true
	s.mu.Unlock()
	limit := time.NewTimer(CloseBudget)
	defer limit.Stop()
	waited := make(chan struct{})
	go func() { s.pending.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-limit.C:
	}
	s.mu.Lock()
	list := s.list
	s.list, s.done = nil, true
	s.mu.Unlock()
	closed := make(chan struct{})
	var wg sync.WaitGroup
	for _, r := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }()
			r.Close()
		}()
	}
	go func() { wg.Wait(); close(closed) }()
	select {
	case <-closed:
	case <-limit.C:
	}
}

// AskGrace is how long the chain still waits for external layers once one
// layer has asked: the answer is ask whatever they say, so a slow or hung
// third-party layer must not hold it up; the grace only lets quick ones
// add their reasons.
const AskGrace = 100 * time.Millisecond

// namedLayerError prefixes err with "layer NAME: " unless its text already
// starts so (layerproto's errors name the layer themselves).
func namedLayerError(name string, err error) error {
	if strings.HasPrefix(err.Error(), "layer "+name+": ") {
		return err
	}
	return fmt.Errorf("layer %s: %w", name, err)
}

// ErrAbandoned marks an external layer the chain stopped waiting for
// because another layer had already asked: not a failure of that layer.
var ErrAbandoned = errors.New("not waited for: another layer had already asked")

// runAll runs slots concurrently and waits for all of them, but never past
// a deadline (a layer still running then is reported as timed out) and no
// longer than AskGrace after the first ask. Layer processes get ctx;
// built-in layers may fall back to running in-process until outer.
func (h *Host) runAll(ctx, outer context.Context, slots []slot, call *core.Call, remotes *remoteSet) []LayerResult {
	results := make([]LayerResult, len(slots))
	done := make([]chan struct{}, len(slots))
	// Once a layer asks, external layers get AskGrace more; built-ins are
	// always waited for (they are bounded by the budgets and fall back to
	// in-process judging), so their reasons are never lost.
	waitExternal, stopExternal := context.WithCancel(ctx)
	defer stopExternal()
	var asked sync.Once
	for i, s := range slots {
		done[i] = make(chan struct{})
		results[i] = LayerResult{Name: s.name, Mode: s.mode}
		go func(i int, s slot) {
			res := h.runOne(ctx, outer, s, call, remotes)
			results[i] = res
			close(done[i])
			if res.Verdict.Decision == core.Ask {
				asked.Do(func() { time.AfterFunc(AskGrace, stopExternal) })
			}
		}(i, s)
	}
	final := make([]LayerResult, len(slots))
	for i, s := range slots {
		wait, limit := waitExternal, ctx
		if s.builtin != nil {
			wait, limit = outer, outer
		}
		select {
		case <-done[i]:
		case <-wait.Done():
		}
		// Prefer an answer that is there, even when the deadline also passed.
		select {
		case <-done[i]:
			final[i] = results[i]
		default:
			err := fmt.Errorf("layer %s: no answer before the deadline: %w", s.name, context.DeadlineExceeded)
			if limit.Err() == nil {
				err = fmt.Errorf("layer %s: %w", s.name, ErrAbandoned)
			}
			final[i] = LayerResult{Name: s.name, Mode: s.mode, Err: err}
			if failsClosed(s, call) {
				final[i].Verdict = incompleteVerdict(s, call, core.Verdict{}, rules.CauseTimeout)
			}
		}
	}
	return final
}

// runOne asks one layer: in-process, or through its process (launched
// here). A built-in whose launch fails, or (deterministic ones) whose
// process fails to answer within ctx, is asked again in-process within
// outer (less FallbackMargin). It never panics. A built-in that fails
// closed and could not decide asks (see failsClosed).
func (h *Host) runOne(ctx, outer context.Context, s slot, call *core.Call, remotes *remoteSet) (res LayerResult) {
	res = LayerResult{Name: s.name, Mode: s.mode}
	var v core.Verdict // what the layer answered, partial on error
	defer func() {
		if p := recover(); p != nil {
			res.Verdict = core.SilentVerdict
			res.Err = errors.Join(res.Err, fmt.Errorf("layer %s: panic: %v\n%s", s.name, p, firstLines(string(debug.Stack()), 12)))
			if failsClosed(s, call) {
				res.Verdict = incompleteVerdict(s, call, v, rules.CauseFailed)
			}
		}
	}()
	c := *call
	c.Options = s.options
	var err error
	if s.mode == ModeProcess && s.builtin != nil && !s.deferred && !convert.ScriptFits(call.Script) {
		// Its process would get the command without the analysis (too
		// large to send) and make it again: judge it here, with the
		// analysis in hand. Same code, same verdict.
		s.mode, res.Mode = ModeInProcess, ModeInProcess
	}
	if s.mode == ModeInProcess {
		t0 := time.Now()
		v, err = h.inProcess(outer, s, &c)
		res.Decide = time.Since(t0)
	} else {
		var launched bool
		v, launched, err = h.viaProcessWithin(ctx, s, &c, remotes, &res)
		fallback := err != nil && s.builtin != nil && outer.Err() == nil && (!launched || !s.deferred)
		if fallback {
			// A built-in is compiled in: a loaded machine that cannot start
			// or run its process in time must not switch the gate off. The
			// failure is logged; the verdict comes from the host itself.
			res.Err = fmt.Errorf("layer %s: process failed, judged in-process instead: %w", s.name, err)
			res.Mode = ModeInProcess
			t0 := time.Now()
			v, err = h.inProcess(outer, s, &c)
			res.Decide = time.Since(t0)
		}
	}
	if err != nil {
		res.Err = errors.Join(res.Err, namedLayerError(s.name, err))
		if failsClosed(s, call) {
			cause := rules.CauseFailed
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) || outer.Err() != nil {
				cause = rules.CauseTimeout
			}
			res.Verdict = incompleteVerdict(s, call, v, cause)
			return res
		}
		// An error is silence, but keep annotations for the log.
		res.Verdict = core.Verdict{Annotations: v.Annotations}
		return res
	}
	for i := range v.Reasons {
		if s.mode == ModeExternal || v.Reasons[i].Layer == "" {
			v.Reasons[i].Layer = s.name
		}
	}
	if v.Decision == core.Ask && len(v.Reasons) == 0 {
		v.Reasons = []core.Reason{{Layer: s.name, Rule: "ASK", Message: "[zcode-fence: " + s.name + "] ask"}}
	}
	res.Verdict = v
	return res
}

// inProcess runs built-in s in this process with its own deadline,
// FallbackMargin before outer's, so that what it found (and, for a layer
// failing closed, the ask for what it could not inspect) arrives before
// the chain stops waiting on outer.
func (h *Host) inProcess(outer context.Context, s slot, c *core.Call) (core.Verdict, error) {
	ctx := outer
	if d, ok := outer.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(outer, d.Add(-FallbackMargin))
		defer cancel()
	}
	return s.builtin.New().Decide(ctx, c)
}

// failsClosed reports whether s must ask when it cannot decide call: a
// built-in with an Incomplete reason, on a shell or file call (the calls
// the guard judges; DESIGN §3), or on a read call it judges (Reads).
func failsClosed(s slot, call *core.Call) bool {
	return s.builtin != nil && s.builtin.Incomplete != nil && call != nil &&
		(call.Kind == core.KindShell || call.Kind == core.KindFile || call.Kind == core.KindRead && s.builtin.Reads.Key != "")
}

// incompleteVerdict is the ask of a built-in that could not decide: the
// reasons it had found (partial, possibly none), then its Incomplete
// reason for cause, in the call's language.
func incompleteVerdict(s slot, call *core.Call, partial core.Verdict, cause rules.Cause) core.Verdict {
	lang, _ := core.ParseLanguage(s.options[config.KeyLanguage])
	r := s.builtin.Incomplete(cause, lang)
	if r.Layer == "" {
		r.Layer = s.name
	}
	v := core.Merge(partial, core.AskVerdict(r))
	v.Annotations = partial.Annotations
	return v
}

// viaProcessWithin is viaProcess that returns by ctx's deadline even when
// the launch does not (a fork and exec on a machine loaded to a standstill
// can outlast it): a built-in's in-process fallback then starts on time.
// The abandoned launch goes on in the background; what it starts is
// closed with the call's other processes.
func (h *Host) viaProcessWithin(ctx context.Context, s slot, c *core.Call, remotes *remoteSet, res *LayerResult) (core.Verdict, bool, error) {
	type answer struct {
		v        core.Verdict
		launched bool
		err      error
		timing   LayerResult
		panicked any
		stack    string // where it panicked (a re-panic would lose it)
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		defer func() {
			if a.panicked = recover(); a.panicked != nil {
				a.stack = firstLines(string(debug.Stack()), 16)
			}
			done <- a
		}()
		a.v, a.launched, a.err = h.viaProcess(ctx, s, c, remotes, &a.timing)
	}()
	take := func(a answer) (core.Verdict, bool, error) {
		if a.panicked != nil {
			// runOne's to handle, as if it had happened here.
			panic(fmt.Sprintf("%v\n%s", a.panicked, a.stack))
		}
		res.Launch, res.Decide = a.timing.Launch, a.timing.Decide
		return a.v, a.launched, a.err
	}
	select {
	case a := <-done:
		return take(a)
	case <-ctx.Done():
		select {
		case a := <-done: // it answered at the same moment
			return take(a)
		default:
		}
		return core.Verdict{}, false, fmt.Errorf("no answer from the process before the deadline (launch or call still running): %w", ctx.Err())
	}
}

// viaProcess launches s's process and asks it, within ctx. launched
// reports whether the process started.
func (h *Host) viaProcess(ctx context.Context, s slot, c *core.Call, remotes *remoteSet, res *LayerResult) (v core.Verdict, launched bool, err error) {
	if !remotes.begin() {
		return v, false, errors.New("not launched: the call is over")
	}
	t0 := time.Now()
	r, err := h.Launch(ctx, s.spec)
	res.Launch = time.Since(t0)
	remotes.pending.Done()
	if err != nil {
		return v, false, fmt.Errorf("launch: %w", err)
	}
	remotes.add(r)
	t0 = time.Now()
	v, err = r.Decide(ctx, c)
	res.Decide = time.Since(t0)
	if err == nil && ctx.Err() != nil {
		err = fmt.Errorf("answered after the deadline: %w", ctx.Err())
	}
	return v, true, err
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// FormatReasons renders an ask verdict's reasons as the hook's reason line:
// every message carries the "[zcode-fence: ...]" marker (added for layers
// that did not write one), joined with "；" (zh) or "; " (en), capped at
// core.MaxReasonUnits.
func FormatReasons(v core.Verdict, lang string) string {
	sep := "；"
	if l, _ := core.ParseLanguage(lang); l == core.English {
		sep = "; "
	}
	msgs := make([]core.Reason, len(v.Reasons))
	for i, r := range v.Reasons {
		if !strings.HasPrefix(r.Message, "[zcode-fence") {
			r.Message = "[zcode-fence: " + r.Layer + "] " + r.Message
		}
		msgs[i] = r
	}
	return core.ReasonText(core.Verdict{Decision: v.Decision, Reasons: msgs}, sep)
}

// External is one configured third-party layer.
type External struct {
	Name     string
	Path     string
	Checksum string
	Options  map[string]string
}

// ExternalLayers parses external_layers ("PATH[#sha256=HEX];...") and
// layer_options (a JSON object keyed by layer name, each value an object of
// string options). A layer's name is its file name without extension.
func ExternalLayers(list, options string) ([]External, []string) {
	var notes []string
	opts := parseLayerOptions(options, &notes)
	var out []External
	for _, item := range config.List(list) {
		path, pin, _ := strings.Cut(item, "#")
		path = strings.TrimSpace(path)
		e := External{Path: path}
		if pin != "" {
			hex, ok := strings.CutPrefix(strings.TrimSpace(pin), "sha256=")
			if !ok || !isHex64(hex) {
				notes = append(notes, fmt.Sprintf("external layer %q: pin %q is not sha256=<64 hex digits>; layer skipped", path, pin))
				continue
			}
			e.Checksum = strings.ToLower(hex)
		}
		if !filepath.IsAbs(path) {
			notes = append(notes, fmt.Sprintf("external layer %q: path is not absolute; layer skipped", path))
			continue
		}
		base := filepath.Base(path)
		e.Name = strings.TrimSuffix(base, filepath.Ext(base))
		e.Options = opts[e.Name]
		out = append(out, e)
	}
	return out, notes
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range strings.ToLower(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
