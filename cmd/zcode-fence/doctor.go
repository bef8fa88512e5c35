package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
// runs every configured layer, the external ones with their pins), the
// plugin as installed in each host found (launcher, a binary for this
// platform that runs, its SHA256SUMS, the hooks file, registration), and,
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
	r.checkBinary()
	cfg := r.checkConfig(env, os.Environ())
	r.checkDataDirs(env)
	r.checkLayers(env, cfg, *online)
	r.checkInstalls(env)

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

// pluginInstall is the plugin as one host installed it.
type pluginInstall struct {
	host string // "ZCode", "Claude Code"
	// dir is the installed plugin's root; settings is the host's file
	// whose enabledPlugins registers it.
	dir, settings string
}

// findInstalls lists the plugin's installed copies: each host copies a
// plugin to <host config>/plugins/cache/<market>/zcode-fence/<version>.
func findInstalls(env config.Env) []pluginInstall {
	claude := filepath.Join(env.Home, ".claude")
	if v, ok := env.Lookup("CLAUDE_CONFIG_DIR"); ok && v != "" {
		claude = v
	}
	hosts := []struct{ name, base, settings string }{
		{"ZCode", filepath.Join(env.Home, ".zcode", "cli"), filepath.Join(env.Home, ".zcode", "cli", "config.json")},
		{"Claude Code", claude, filepath.Join(claude, "settings.json")},
	}
	var out []pluginInstall
	for _, h := range hosts {
		dirs, _ := filepath.Glob(filepath.Join(h.base, "plugins", "cache", "*", core.PluginName, "*"))
		for _, d := range dirs {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				out = append(out, pluginInstall{host: h.name, dir: d, settings: h.settings})
			}
		}
	}
	return out
}

// checkInstalls checks each installed copy of the plugin: the launcher,
// a binary for this platform that runs and matches SHA256SUMS, the hooks
// file, and its registration in the host's enabledPlugins.
func (r *doctorReport) checkInstalls(env config.Env) {
	installs := findInstalls(env)
	if len(installs) == 0 {
		r.ok("hosts", "no installed plugin found under ~/.zcode/cli/plugins/cache or ~/.claude/plugins/cache (a hook run from a checkout or --plugin-dir is not listed)")
		return
	}
	for _, in := range installs {
		area := "hosts"
		what := in.host + " " + in.dir
		launcher := filepath.Join(in.dir, "libexec", core.PluginName)
		binName := core.PluginName + "-" + runtime.GOOS + "-" + runtime.GOARCH
		if runtime.GOOS == "windows" {
			binName += ".exe"
		}
		bin := filepath.Join(in.dir, "libexec", binName)
		reinstall := "reinstall the plugin (see README: Install)"
		if _, err := os.Stat(launcher); err != nil {
			r.problem(area, reinstall, "%s: no launcher libexec/%s", what, core.PluginName)
			continue
		}
		if _, err := os.Stat(bin); err != nil {
			r.problem(area, "install a release that has a binary for "+runtime.GOOS+"/"+runtime.GOARCH+" (every guarded call asks meanwhile)",
				"%s: no binary libexec/%s for this platform", what, binName)
			continue
		}
		if res := integrity.Check(bin, "", core.Version); res.Asks() {
			r.problem(area, reinstall, "%s: %s", what, res.Note())
			continue
		}
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			r.problem(area, reinstall, "%s: libexec/%s does not run: %v", what, binName, err)
			continue
		}
		version := strings.TrimSpace(string(out))
		if msg := checkHooksFile(filepath.Join(in.dir, "hooks", "hooks.json")); msg != "" {
			r.problem(area, reinstall, "%s: %s", what, msg)
			continue
		}
		if enabled, msg := registered(in.settings, filepath.Base(filepath.Dir(filepath.Dir(in.dir)))); !enabled {
			r.problem(area, "enable zcode-fence in "+in.host+"'s plugin settings, then start a new session", "%s: %s", what, msg)
			continue
		}
		r.ok(area, "%s: %s, hooks file and registration in order", what, version)
	}
}

// checkHooksFile returns what is wrong with a plugin's hooks.json, or "".
func checkHooksFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "no hooks/hooks.json: " + err.Error()
	}
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return "hooks/hooks.json does not parse: " + err.Error()
	}
	for _, entry := range doc.Hooks["PreToolUse"] {
		for _, h := range entry.Hooks {
			if h.Type == "command" && strings.Contains(h.Command, "libexec/"+core.PluginName) &&
				strings.Contains(entry.Matcher, "Bash") && strings.Contains(entry.Matcher, "Write") {
				return ""
			}
		}
	}
	return "hooks/hooks.json has no PreToolUse command hook running libexec/" + core.PluginName + " for Bash and Write"
}

// registered reports whether the host's settings file enables
// zcode-fence@market in enabledPlugins, and otherwise why not.
func registered(settings, market string) (bool, string) {
	data, err := os.ReadFile(settings)
	if err != nil {
		return false, "no " + settings + " to enable it in"
	}
	var doc struct {
		Enabled map[string]bool `json:"enabledPlugins"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return false, settings + " does not parse: " + err.Error()
	}
	id := core.PluginName + "@" + market
	enabled, listed := doc.Enabled[id]
	switch {
	case !listed:
		return false, id + " is not in enabledPlugins of " + settings
	case !enabled:
		return false, id + " is disabled in " + settings
	}
	return true, ""
}

// shellQuote quotes a path for a fix line a person may paste.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
