package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// hookMode is the agent host's entry point. Whatever happens it writes
// nothing or the exact ask line, nothing on stderr, and returns 0.
func hookMode(stdin io.Reader, stdout io.Writer) (code int) {
	start := time.Now()
	// Read the payload from the first moment: loading the configuration
	// meanwhile must not make a payload that has arrived look late.
	reading := agenthost.StartReading(stdin, config.OSEnv().Lookup)
	j := newJudgement("hook", start)
	stop := onSignal(j)
	defer stop()
	defer func() {
		if p := recover(); p != nil {
			err := j.recovered(p)
			// A judged call still gets the fail-closed answer: the hook
			// failing is no reason for the call to pass unjudged.
			if j.payload.Judged && j.claimAnswer() {
				out := newHost().Unfinished(j.payload.Tool.Kind, j.cfg, rules.CauseFailed)
				j.out = out
				j.unfinished = err
				if line := j.answer(); line != nil {
					_, _ = stdout.Write(line)
				}
			}
			j.log()
			code = 0
		}
		j.done()
	}()
	// Warm layer servers: connect while the payload is read and analysed.
	newHost().PrefetchLayers(j.ctx, j.cfg, j.dataDir)
	p, raw, err := reading.Wait(j.start.Add(stdinWait))
	j.stdinTook = time.Since(j.start)
	var late *agenthost.LateError
	switch {
	case errors.As(err, &late) && !isTerminal(stdin):
		// The host is still writing: it will run the call (DESIGN §3).
		j.lateInput(p, late, raw)
	case err != nil:
		j.failInput(fmt.Errorf("stdin: %w", err), raw)
		j.log()
		return 0
	default:
		j.payload = p
		if p.Judged {
			defer j.armOverdue(stdout)()
		}
		j.run(p)
		j.checkIntegrity()
	}
	if !j.claimAnswer() {
		select {} // the overdue answer is out; its goroutine ends the process
	}
	if line := j.answer(); line != nil {
		_, _ = stdout.Write(line)
	}
	// The answer is out. Log it (one append, never more than the rotation
	// lock's short wait), then stop the layer processes, but exit by exitBy
	// whatever that still does: the host kills a hook at 5 s, and a killed
	// hook's answer may be dropped.
	j.log()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer func() { _ = recover() }() // the answer is out; nothing to change
		j.done()
	}()
	wait := time.NewTimer(time.Until(j.start.Add(exitBy)))
	defer wait.Stop()
	select {
	case <-finished:
	case <-wait.C:
	}
	return 0
}

// armOverdue makes sure a judged call is answered within the hook's
// budget (host.Budget from its start) however slow the machine: if the
// answer is not out by then — the analysis, the layers, anything still
// running — the fail-closed built-ins ask for what they could not inspect
// in time (host.Unfinished), the record says so, and the process exits. A
// hook the host kills at 5 s answers nothing, which the hosts take as "go
// ahead". The returned func disarms it; j.payload must be set.
func (j *judgement) armOverdue(stdout io.Writer) func() {
	t := time.AfterFunc(time.Until(j.start.Add(host.Budget)), func() {
		u := &judgement{start: j.start, source: j.source, env: j.env, cfg: j.cfg, dataDir: j.dataDir,
			payload: j.payload, stdinTook: j.stdinTook}
		u.out = newHost().Unfinished(j.payload.Tool.Kind, j.cfg, rules.CauseTimeout)
		u.unfinished = fmt.Errorf("hook: no answer within the %v budget (%w); answered for the built-in layers that had not finished", host.Budget, context.DeadlineExceeded)
		line := u.answer()
		if !j.claimAnswer() {
			return // the chain's own answer is out
		}
		if line != nil {
			_, _ = stdout.Write(line)
		}
		u.log()
		os.Exit(0)
	})
	return func() { t.Stop() }
}

// onSignal makes SIGTERM, SIGINT and SIGHUP end the call: the run's
// context is cancelled, its per-call layer processes killed and their
// socket dirs removed (within host.CloseBudget and a little), then the
// process exits 0 with nothing on stdout. The returned func stops
// listening.
func onSignal(j *judgement) func() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, hookSignals...)
	quit := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			// Launches honour the cancelled context: the run returns
			// with what it started, which done then kills.
			j.cancel()
			t := time.NewTimer(signalRunWait)
			select {
			case <-j.ran:
			case <-t.C:
			}
			j.doneWithin(host.CloseBudget + 100*time.Millisecond)
			os.Exit(0)
		case <-quit:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(quit)
	}
}

// signalRunWait bounds how long a signalled hook waits for its run to
// return before cleaning up.
const signalRunWait = 300 * time.Millisecond

// exitBy is when, from its start, hook mode returns (and the process
// exits) at the latest, layer processes stopped or not: past host.Budget
// (the answer) by a log append and the time the layer processes take to
// stop (host.CloseBudget), and well before the host's 5 s kill. A layer
// process left running exits on its own once the hook is gone.
const exitBy = 4800 * time.Millisecond

// isTerminal reports whether stdin is a terminal: someone typing at the
// hook by hand, not a host (a payload still to come from a terminal is not
// a call a host will run).
func isTerminal(stdin io.Reader) bool {
	f, ok := stdin.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && f.Name() != os.DevNull
}

// evalMode judges a payload built from the command line, exactly as hook
// mode would, and prints a summary for people on stderr. It returns
// exitSilent, exitAsk, or exitError when the input could not be judged.
func evalMode(p agenthost.Payload, stdout, stderr io.Writer) (code int) {
	j := newJudgement("eval", time.Now())
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "[zcode-fence] decision=error: %v\n", j.recovered(r))
			j.log()
			code = exitError
		}
		j.done()
	}()
	j.run(p)
	if line := j.answer(); line != nil {
		_, _ = stdout.Write(line)
	}
	j.done()
	j.log()
	switch {
	case j.inputErr != nil:
		fmt.Fprintf(stderr, "[zcode-fence] decision=error (fails open): %v\n", j.inputErr)
	case j.ask():
		fmt.Fprintln(stderr, "[zcode-fence] decision=ask")
		for _, r := range j.out.Verdict.Reasons {
			fmt.Fprintf(stderr, "  - %s (%s, %s)\n", r.Message, r.Layer, r.Rule)
		}
	default:
		fmt.Fprintln(stderr, "[zcode-fence] decision=silent (no output: the agent host decides)")
	}
	for _, l := range j.out.Layers {
		if l.Err != nil {
			fmt.Fprintf(stderr, "  ! %v\n", l.Err)
		}
	}
	for _, w := range j.configWarnings(os.Environ()) {
		fmt.Fprintf(stderr, "[zcode-fence] %s\n", w)
	}
	return judgedExit(j)
}

// bashPayload is the payload --eval judges, read as the default host
// (agenthost.Default) would send it. Its cwd is the current directory, so
// without ZCODE_PROJECT_DIR the project is where you stand.
func bashPayload(command string) agenthost.Payload {
	return manualPayload("Bash", map[string]string{"command": command})
}

// filePayload is the payload --eval-write / --eval-edit judge.
func filePayload(tool, path string) agenthost.Payload {
	return manualPayload(tool, map[string]string{"file_path": path})
}

func manualPayload(tool string, input map[string]string) agenthost.Payload {
	p, err := agenthost.DecodeFor(agenthost.MarshalPayload(tool, input, cwd()), agenthost.Default())
	if err != nil {
		// A payload built from a map of strings always decodes.
		panic(fmt.Sprintf("zcode-fence: building the %s payload: %v", tool, err))
	}
	return p
}

func cwd() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	return d
}
