package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/decisionlog"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/plugins"
	"github.com/zcode-fence/zcode-fence/plugins/danger"
	"github.com/zcode-fence/zcode-fence/plugins/decisionmodel"
)

// finding is one line of doctor's report: an area, what was found, and,
// for a problem, how to fix it.
type finding struct {
	Area    string `json:"area"`
	Problem bool   `json:"problem"`
	Text    string `json:"text"`
	Fix     string `json:"fix,omitempty"`
}

// doctorReport collects the findings.
type doctorReport struct {
	findings []finding
}

func (r *doctorReport) ok(area, format string, a ...any) {
	r.findings = append(r.findings, finding{Area: area, Text: fmt.Sprintf(format, a...)})
}

// advice is a finding that is not a problem but has a suggested change.
func (r *doctorReport) advice(area, fix, format string, a ...any) {
	r.findings = append(r.findings, finding{Area: area, Text: fmt.Sprintf(format, a...), Fix: fix})
}

func (r *doctorReport) problem(area, fix, format string, a ...any) {
	r.findings = append(r.findings, finding{Area: area, Problem: true, Text: fmt.Sprintf(format, a...), Fix: fix})
}

func (r *doctorReport) problems() int {
	n := 0
	for _, f := range r.findings {
		if f.Problem {
			n++
		}
	}
	return n
}

// doctorMode checks the installation and prints each finding, each
// problem with its fix: this binary (version, integrity), the effective
// configuration and every problem in it, the data dirs (permissions,
// writable, log readable), the layers (a trial call of a harmless command
// runs every configured layer, the external ones with their pins), each
// agent host found (checkHosts: the plugin installed there, the guard's
// hook registrations, the command they run, their matcher and timeout,
// the host's hazards), and,
// with --online, the decision model's endpoint (one real request). It
// exits exitSilent when nothing is wrong, exitError otherwise.
func doctorMode(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	online := fs.Bool("online", false, "also send one request to the decision model's endpoint")
	asJSON := fs.Bool("json", false, "print the findings as one JSON object")
	if err := fs.Parse(args); err != nil {
		return usageError(stderr, "doctor: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "doctor: unexpected argument %q", fs.Arg(0))
	}
	r := &doctorReport{}
	env := config.OSEnv()
	present := hostsPresent(env) // before the trial call creates a data dir
	r.checkBinary()
	cfg := r.checkConfig(env, os.Environ())
	r.checkDataDirs(env)
	r.checkLayers(env, cfg, *online)
	r.checkHosts(env, cfg, present)

	if *asJSON {
		out, _ := json.Marshal(struct {
			Version  string    `json:"version"`
			Problems int       `json:"problems"`
			Findings []finding `json:"findings"`
		}{core.Version, r.problems(), r.findings})
		fmt.Fprintln(stdout, string(out))
	} else {
		fmt.Fprintf(stdout, "zcode-fence %s doctor (%s/%s)\n", core.Version, runtime.GOOS, runtime.GOARCH)
		for _, f := range r.findings {
			mark := "ok "
			switch {
			case f.Problem:
				mark = "BAD"
			case f.Fix != "":
				mark = "tip"
			}
			fmt.Fprintf(stdout, "%s %-8s %s\n", mark, f.Area, f.Text)
			if f.Fix != "" {
				fmt.Fprintf(stdout, "             fix: %s\n", f.Fix)
			}
		}
		if n := r.problems(); n > 0 {
			fmt.Fprintf(stdout, "%d problem(s) found\n", n)
		} else {
			fmt.Fprintln(stdout, "no problems found")
		}
	}
	if r.problems() > 0 {
		return exitError
	}
	return exitSilent
}

// checkBinary reports this executable and, when a SHA256SUMS lies beside
// it (an installed plugin), whether it matches.
func (r *doctorReport) checkBinary() {
	exe, err := os.Executable()
	if err != nil {
		r.problem("binary", "run zcode-fence by its full path", "cannot locate this executable: %v", err)
		return
	}
	res := integrity.Check(exe, "", core.Version)
	switch {
	case res.Status == integrity.Unchecked:
		r.ok("binary", "%s (no %s beside it: a build from source, not checked)", exe, integrity.SumsFile)
	case res.Asks():
		r.problem("binary", "reinstall the plugin, or rebuild with go run ./tools/bundle", "%s: %s", exe, res.Note())
	default:
		r.ok("binary", "%s (matches %s)", exe, integrity.SumsFile)
	}
}

// checkConfig loads the configuration and reports where it came from and
// each problem: the loader's notes, and variables that name no setting.
func (r *doctorReport) checkConfig(env config.Env, environ []string) config.Config {
	cfg := plugins.Schema.Load(env)
	r.ok("config", "from %s (file %s)", cfg.Source, config.FilePath(env))
	if cfg.LanguageChoice != "" {
		r.ok("config", "language %s (%s)", cfg.Get(config.KeyLanguage), cfg.LanguageChoice)
	}
	for _, n := range cfg.Notes {
		r.problem("config", "correct the value where it is set (the file above, or the variable); until then the default applies", "%s", n)
	}
	for _, n := range func() []string { _, notes := host.DisabledRules(cfg); return notes }() {
		r.problem("config", "correct "+config.KeyDisabledRules+": name rule ids or families from docs/rules.md (explain lists them); locked rules cannot be switched off", "%s", n)
	}
	for _, u := range plugins.Schema.UnknownEnv(environ) {
		fix := "unset " + u.Name
		if u.Suggest != "" {
			fix = "rename it to " + u.Suggest
		}
		r.problem("config", fix, "%s", u.String())
	}
	return cfg
}

// checkDataDirs reports every data dir found: present, private, writable,
// and its decision log readable.
func (r *doctorReport) checkDataDirs(env config.Env) {
	for _, dir := range config.DataDirs(env) {
		if f := decisionlog.ReadFailures(dir); f.Count > 0 {
			r.problem("data", "free space or make "+shellQuote(dir)+" writable, then remove "+strings.Join(quoteAll(f.Paths), " "),
				"%s: %s", dir, f)
		}
		st, err := os.Stat(dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
			r.ok("data", "%s (not created yet: the first guarded call creates it)", dir)
			continue
		case err != nil:
			r.problem("data", "check the path and its permissions", "%s: %v", dir, err)
			continue
		case !st.IsDir():
			r.problem("data", "move the file away; the guard keeps its log and state in this directory", "%s is not a directory", dir)
			continue
		}
		if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
			r.advice("data", "chmod 700 "+shellQuote(dir), "%s is open to other users (%v): the log holds commands and paths (redacted)", dir, st.Mode().Perm())
		}
		f, err := os.CreateTemp(dir, ".doctor-*")
		if err != nil {
			r.problem("data", "make it writable by this user (the log and session roots are written there)", "%s is not writable: %v", dir, err)
			continue
		}
		name := f.Name()
		f.Close()
		os.Remove(name)
		recs, bad, err := decisionlog.Read(dir)
		switch {
		case err != nil:
			r.problem("data", "move the unreadable file away", "%s: %v", dir, err)
		case bad > 0:
			r.ok("data", "%s (writable; %d log records, %d unreadable lines skipped)", dir, len(recs), bad)
		default:
			r.ok("data", "%s (writable; %d log records)", dir, len(recs))
		}
	}
}

// checkLayers judges a harmless command (`true`) with the effective
// configuration, so every configured layer is started as a hook would
// start it: a layer that cannot start, a pin that does not match, a
// custom rule that does not compile is a problem. The decision model runs
// (one request to its endpoint) only with online.
func (r *doctorReport) checkLayers(env config.Env, cfg config.Config, online bool) {
	exts, notes := host.ExternalLayers(cfg.Get(config.KeyExternalLayers), cfg.Get(config.KeyLayerOptions))
	for _, n := range notes {
		r.problem("layers", "correct external_layers / layer_options", "%s", n)
	}
	for _, e := range exts {
		st, err := os.Stat(e.Path)
		switch {
		case err != nil:
			r.problem("layers", "install the layer there or remove it from external_layers", "external layer %s: %v", e.Name, err)
			continue
		case runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
			r.problem("layers", "chmod +x "+shellQuote(e.Path), "external layer %s: %s is not executable", e.Name, e.Path)
			continue
		}
		if e.Checksum != "" {
			sum, _, err := integrity.HashFile(e.Path)
			switch {
			case err != nil:
				r.problem("layers", "check the file", "external layer %s: %v", e.Name, err)
			case !strings.EqualFold(sum, e.Checksum):
				r.problem("layers", "pin the layer you meant: "+e.Path+"#sha256="+sum+" (after checking that file)",
					"external layer %s: pinned sha256 %s, the file has %s: every guarded call asks", e.Name, e.Checksum, sum)
			default:
				r.ok("layers", "external layer %s: %s (pin matches)", e.Name, e.Path)
			}
		} else {
			r.ok("layers", "external layer %s: %s (not pinned)", e.Name, e.Path)
		}
	}

	// The trial call launches its layers per call (no warm server is left
	// running by doctor) and, unless --online, without the model.
	trialEnv := env
	modelKey := decisionmodel.Enable.Key
	model := cfg.Bool(modelKey)
	overrides := map[string]string{"ZCODE_FENCE_" + strings.ToUpper(config.KeyLayerIdleTimeout): "0"}
	if !online {
		overrides["ZCODE_FENCE_"+strings.ToUpper(modelKey)] = "false"
	}
	base := env.Lookup
	trialEnv.Lookup = func(k string) (string, bool) {
		if v, ok := overrides[k]; ok {
			return v, true
		}
		return base(k)
	}
	j := newJudgementIn(trialEnv, "doctor", time.Now())
	j.run(bashPayload("true"))
	j.done()
	if j.inputErr != nil {
		r.problem("layers", "report this as a bug", "a trial call could not be judged: %v", j.inputErr)
		return
	}
	if j.ask() {
		r.problem("layers", "fix what the reason names; until then every guarded call asks",
			"a harmless command (true) asks: %s", j.out.Text)
	}
	for _, l := range j.out.Layers {
		if v := l.Verdict.Annotations[danger.AnnotationCustomSkipped]; v != "" {
			r.problem("config", "fix or remove those expressions in custom_rules (Go RE2 syntax)", "custom_rules: skipped %s", v)
		}
		switch {
		case errors.Is(l.Err, host.ErrAbandoned):
			r.ok("layers", "%s (%s): not waited for", l.Name, l.Mode)
		case errors.Is(l.Err, context.DeadlineExceeded) && l.Name != "decisionmodel":
			// Slow, not broken: a loaded machine does this to a healthy
			// layer (a built-in is then judged in-process and still asks
			// when it must; a third-party layer fails open). A model that
			// does not answer in time is a problem of its endpoint.
			r.advice("layers", "if this persists on a quiet machine, check the layer; see zcode-fence explain 'true'",
				"%s (%s): %s, slow: %v", l.Name, l.Mode, l.Verdict.Decision, l.Err)
		case l.Err != nil:
			fix := "check the layer; see zcode-fence explain 'true' for details"
			if l.Name == "decisionmodel" {
				fix = "check decision_model_endpoint, _model, _api_key and the network (proxy, TLS)"
			}
			r.problem("layers", fix, "%s (%s): %v", l.Name, l.Mode, l.Err)
		default:
			r.ok("layers", "%s (%s): %s in %.0f ms", l.Name, l.Mode, l.Verdict.Decision, ms(l.Launch+l.Decide))
		}
	}
	switch {
	case !model:
		r.ok("model", "decision model off (%s=false)", modelKey)
	case !online:
		r.ok("model", "decision model on, endpoint %s not contacted (add --online to send one request)", orNone(cfg.Get(decisionmodel.KeyEndpoint)))
	}
}

// quoteAll is shellQuote of each path.
func quoteAll(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = shellQuote(p)
	}
	return out
}

// shellQuote quotes a path for a fix line a person may paste.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
