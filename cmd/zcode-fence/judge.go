package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync/atomic"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/plugins"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
)

// stdinWait is when, from the hook's start, a payload that has not
// arrived whole counts as late (host.LateInput: it asks). It is as late as
// the chain's own deadline (host.Budget less host.AnswerMargin: 4.25 s)
// allows, less the in-process judging that a payload arriving just in
// time still needs. Measured with a Go writer like the tests' (the
// decision log's stdin_ms, 2-core VM at load 30–50, 2026-12-05): one
// call at a time, p95 85 ms, max 153 ms; 16 at once, max 630 ms; 100
// started at once, p95 2.2 s, max 3.0 s — which is how the old 3 s wait,
// then answered silent, let dangerous calls through in the test suite.
const stdinWait = 4 * time.Second

// hookFault runs between a judged call's preparation and its chain; it
// does nothing except in binaries built with the zcodefence_faults tag
// (tests: faults_zcodefence_faults.go), where it stalls or panics on
// demand to show that the hook still answers (armOverdue, the recover in
// hookMode).
var hookFault = func(*core.Call) {}

// judgement is everything one call produced, for the answer and the log.
type judgement struct {
	start   time.Time
	source  string
	env     config.Env
	cfg     config.Config
	dataDir string
	payload agenthost.Payload
	prep    host.Prepared
	out     host.Outcome
	// inputErr is why the input could not be judged (the call fails open).
	inputErr error
	// late is why the payload was not read in time (host.LateInput).
	late error
	// unfinished is why the chain's answer did not come (the hook's
	// budget ran out, or the hook failed): host.Unfinished answered.
	unfinished error
	// answered is set by whoever writes the hook's answer (claimAnswer).
	answered atomic.Bool
	stdin    []byte
	// stdinTook is how long the payload took to arrive (hook mode).
	stdinTook time.Duration
	// release kills the layer processes of the run; call it after the
	// answer is written, through done.
	release   func()
	releasing atomic.Bool
	released  chan struct{} // closed once done's release has finished
	ran       chan struct{} // closed when run returns
	// ctx is the call's context; cancel ends it (a signal to the hook).
	ctx    context.Context
	cancel context.CancelFunc
}

// newJudgement loads the configuration for a call that began at start.
func newJudgement(source string, start time.Time) *judgement {
	return newJudgementIn(config.OSEnv(), source, start)
}

// newJudgementIn is newJudgement with the environment env (doctor's
// trial call changes one setting).
func newJudgementIn(env config.Env, source string, start time.Time) *judgement {
	ctx, cancel := context.WithCancel(context.Background())
	return &judgement{start: start, source: source, env: env, cfg: plugins.Schema.Load(env), dataDir: config.DataDir(env),
		released: make(chan struct{}), ran: make(chan struct{}), ctx: ctx, cancel: cancel}
}

// newHost is the chain with this binary as the process-isolation target.
func newHost() *host.Host {
	h := &host.Host{Builtins: plugins.Builtins, Launch: launchLayer, Prefetch: prefetchLayer}
	if exe, err := os.Executable(); err == nil {
		h.Self = exe
	}
	return h
}

// run judges p.
func (j *judgement) run(p agenthost.Payload) {
	defer close(j.ran)
	j.payload = p
	prep, err := host.Prepare(p, j.env, paths.Native(), j.cfg, j.dataDir, j.start)
	j.prep = prep
	if err != nil {
		j.inputErr = err
		return
	}
	if prep.Skip {
		return
	}
	hookFault(prep.Call)
	j.out, j.release = newHost().RunPrepared(j.ctx, prep, j.cfg, j.start)
}

// done releases what the run started: it kills the per-call layer
// processes, removes their socket dirs and sweeps what dead processes left
// in the run dir (warm servers go on serving). Only the first call does
// anything (the others return at once, never waiting for it): hook mode's
// bounded tail and its deferred clean-up may both call it.
func (j *judgement) done() {
	if !j.releasing.CompareAndSwap(false, true) {
		return
	}
	defer close(j.released)
	defer finishLaunches()
	j.cancel()
	if j.release != nil {
		j.release()
	}
}

// doneWithin is done that, when another goroutine is already releasing,
// waits for it up to d (a signal handler must not exit while the
// processes are being killed).
func (j *judgement) doneWithin(d time.Duration) {
	j.done()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-j.released:
	case <-t.C:
	}
}

// claimAnswer reports whether the caller is the one to write the hook's
// answer: the first caller is (the chain's answer, or the overdue one).
func (j *judgement) claimAnswer() bool { return j.answered.CompareAndSwap(false, true) }

// ask reports whether the answer is ask.
func (j *judgement) ask() bool { return j.out.Verdict.Decision == core.Ask }

// answer is the hook's stdout: the ask line or nothing.
func (j *judgement) answer() []byte {
	if !j.ask() {
		return nil
	}
	a := j.payload.Host
	if a == nil {
		a = agenthost.Default()
	}
	return a.Answer(agenthost.Ask{Reason: j.out.Text, Rules: j.rules(), Lang: j.cfg.Get(config.KeyLanguage),
		NoAskFallback: j.cfg.Get(config.KeyNoAskFallback), Env: j.env.Lookup})
}

// rules lists the rule ids that asked, in reason order, without repeats.
func (j *judgement) rules() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range j.out.Verdict.Reasons {
		if r.Rule != "" && !seen[r.Rule] {
			seen[r.Rule] = true
			out = append(out, r.Rule)
		}
	}
	return out
}

// record builds the decision-log record (redacted by decisionlog).
func (j *judgement) record() decisionlog.Record {
	r := decisionlog.Record{
		Platform: runtime.GOOS, Source: j.source, Level: "info", Verdict: j.out.Verdict.Decision.String(),
		Tool: j.payload.ToolName, Session: j.payload.SessionID,
		Isolation:     j.cfg.Get(config.KeyLayerIsolation),
		AnalysisSteps: j.prep.AnalysisSteps,
		Files:         fileRecords(j.prep.Files),
		Ms:            ms(time.Since(j.start)),
	}
	if j.payload.Host != nil {
		r.Host = j.payload.Host.Name()
	}
	if c := j.prep.Call; c != nil {
		r.Tool, r.ProjectDir, r.Cwd = c.Tool, c.ProjectRoot, c.Cwd
		r.Detail = detail(c)
	}
	r.Notes = append(append(append(r.Notes, j.cfg.Notes...), j.prep.Notes...), j.out.Notes...)
	if j.inputErr != nil {
		r.Level, r.Verdict = "error", "error"
		r.Errors = append(r.Errors, j.inputErr.Error())
		r.Stdin = string(j.stdin)
	}
	if j.late != nil {
		r.Level = "error"
		r.Errors = append(r.Errors, j.late.Error())
		r.Stdin = string(j.stdin)
	}
	if j.unfinished != nil {
		r.Level, r.Verdict = "error", j.out.Verdict.Decision.String()
		r.Errors = append(r.Errors, j.unfinished.Error())
	}
	if j.source == "hook" {
		r.StdinMs = ms(j.stdinTook)
	}
	for _, reason := range j.out.Verdict.Reasons {
		r.Reasons = append(r.Reasons, reason.Message)
	}
	r.Rules = j.rules()
	for _, l := range j.out.Layers {
		lr := decisionlog.LayerRecord{Name: l.Name, Mode: l.Mode, Verdict: l.Verdict.Decision.String(),
			Ms: ms(l.Launch + l.Decide), Annotations: l.Verdict.Annotations}
		for _, reason := range l.Verdict.Reasons {
			lr.Rules = append(lr.Rules, reason.Rule)
		}
		for _, reason := range l.Disabled {
			lr.Disabled = append(lr.Disabled, reason.Rule)
		}
		switch {
		case errors.Is(l.Err, host.ErrAbandoned):
			// Another layer had asked: not this layer's failure.
			lr.Verdict, lr.Error = "abandoned", l.Err.Error()
		case l.Err != nil:
			// A built-in that fails closed asks (its verdict says so);
			// any other layer's error counts as silence.
			lr.Error = l.Err.Error()
			if l.Verdict.Decision != core.Ask {
				lr.Verdict = "error"
			}
			r.Level = "error"
			r.Errors = append(r.Errors, l.Err.Error())
		}
		r.Layers = append(r.Layers, lr)
	}
	return r
}

// log appends the record unless it is a plain silent call with enable_log
// off (asks and failures are always recorded).
func (j *judgement) log() {
	r := j.record()
	if r.Level == "info" && r.Verdict == "silent" && !j.cfg.Bool(config.KeyEnableLog) {
		return
	}
	// Logging never changes the answer; a failure is noted for doctor
	// and `zcode-fence log` to report.
	if err := decisionlog.Append(j.dataDir, r); err != nil {
		decisionlog.NoteFailure(j.dataDir, r.Source, err)
	}
}

// lateInput answers a payload that was still arriving when the stdin
// wait ended: p is what had arrived, raw its first bytes (for the log).
func (j *judgement) lateInput(p agenthost.Payload, late *agenthost.LateError, raw []byte) {
	j.payload, j.stdin = p, raw
	j.late = fmt.Errorf("stdin: %w", late)
	j.out = host.LateInput(p, late.Received, j.stdinTook, j.cfg.Get(config.KeyLanguage))
}

// failInput records input that could not be judged.
func (j *judgement) failInput(err error, raw []byte) {
	j.inputErr, j.stdin = err, raw
}

// recovered turns a panic into a logged error; it returns the error.
func (j *judgement) recovered(p any) error {
	err := fmt.Errorf("internal error: %v", p)
	j.inputErr = errors.Join(j.inputErr, err)
	j.out = host.Outcome{}
	return err
}

func detail(c *core.Call) string {
	if c.Kind == core.KindShell {
		return c.Command
	}
	if len(c.Paths) > 0 {
		s := c.Paths[0]
		for _, p := range c.Paths[1:] {
			s += " " + p
		}
		return s
	}
	return ""
}

func ms(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// configWarnings are the configuration problems of a judged call, for
// people (--eval and explain print them on stderr): every fallback the
// loader noted (an invalid value, an unknown key in the config file), each
// environment variable that looks like a setting but is none, and the
// custom rules the danger gate skipped.
func (j *judgement) configWarnings(environ []string) []string {
	var out []string
	out = append(out, j.cfg.Notes...)
	for _, u := range plugins.Schema.UnknownEnv(environ) {
		out = append(out, "config: "+u.String())
	}
	for _, l := range j.out.Layers {
		if v := l.Verdict.Annotations[danger.AnnotationCustomSkipped]; v != "" {
			out = append(out, "config: custom_rules: skipped "+v)
		}
	}
	return out
}
