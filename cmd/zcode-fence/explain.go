package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/plugins"
)

// explainReport is what explain prints: the text form for people, the
// same fields as one JSON object with --json. Its JSON field names are a
// contract for scripts: add fields, never rename them.
type explainReport struct {
	Tool     string   `json:"tool"`
	Command  string   `json:"command,omitempty"`
	Paths    []string `json:"paths,omitempty"`
	Project  string   `json:"project"`
	WideRoot string   `json:"wide_root,omitempty"`
	Cwd      string   `json:"cwd"`
	Writable []string `json:"writable_roots"`
	// Isolation is the layer_isolation setting the call ran with.
	Isolation string `json:"isolation"`
	// Host is the agent host whose payload and answer form were used.
	Host string `json:"host"`
	// Config names where the options came from; Precedence lists the
	// sources, lowest first; Settings are the values not at their default,
	// each with its source.
	Config     string           `json:"config"`
	Precedence []string         `json:"precedence"`
	Settings   []explainSetting `json:"settings,omitempty"`
	// Language is the language of the reasons; LanguageChoice says how
	// the setting "auto" chose it ("" when it was set).
	Language       string `json:"language"`
	LanguageChoice string `json:"language_choice,omitempty"`
	// RulesOff are the rule ids disabled_rules switches off (families
	// expanded).
	RulesOff []string `json:"rules_off,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	// ParseError is set when the shell parser failed and the token scan
	// was used; Parse is the parse outline, one line per entry.
	ParseError string               `json:"parse_error,omitempty"`
	Parse      []string             `json:"parse,omitempty"`
	Layers     []explainLayerReport `json:"layers"`
	// Decision is "ask" or "silent"; Reason is the ask text; Answer is
	// what the host's hook would print (the ask in its form).
	Decision string  `json:"decision"`
	Reason   string  `json:"reason,omitempty"`
	Answer   string  `json:"answer,omitempty"`
	Ms       float64 `json:"ms"`
	// InputError is why the call could not be judged (then nothing else
	// but Decision "error" is set).
	InputError string `json:"input_error,omitempty"`
}

// explainLayerReport is one layer's part. State is the verdict ("ask",
// "silent"), "error", "abandoned", "off" or "not run"; Why says why a
// layer did not run.
type explainLayerReport struct {
	Name     string          `json:"name"`
	State    string          `json:"state"`
	Why      string          `json:"why,omitempty"`
	Mode     string          `json:"mode,omitempty"`
	LaunchMs float64         `json:"launch_ms,omitempty"`
	DecideMs float64         `json:"decide_ms"`
	Reasons  []explainReason `json:"reasons,omitempty"`
	// Disabled are the asks the layer made under rules disabled_rules
	// switches off: they did not count.
	Disabled    []explainReason   `json:"disabled,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Error       string            `json:"error,omitempty"`
}

// explainSetting is one setting not at its default (sensitive values
// hidden) and where it came from.
type explainSetting struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

type explainReason struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// explainMode shows how a command or a write is judged: the parse, every
// layer's verdict with rule ids and timings, and the answer. It writes no
// hook output and no log record. Its arguments are options (--json,
// --host NAME, --write PATH, --edit PATH) followed by the command (several arguments
// are joined by spaces; "--" ends the options). It exits like --eval:
// exitSilent, exitAsk, exitError (input not judged) or exitUsage.
func explainMode(args []string, stdout, stderr io.Writer) int {
	asJSON := false
	adapter := agenthost.Default()
	var p *agenthost.Payload
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		args = args[1:]
		switch a {
		case "--":
		case "--json":
			asJSON = true
			continue
		case "--host":
			if len(args) == 0 {
				return usageError(stderr, "explain --host needs a host (known: %s)", strings.Join(hostNames(), ", "))
			}
			a, ok := agenthost.ByName(args[0])
			if !ok {
				return usageError(stderr, "explain: unknown host %q (known: %s)", args[0], strings.Join(hostNames(), ", "))
			}
			adapter, args = a, args[1:]
			continue
		case "--write", "--edit":
			if p != nil {
				return usageError(stderr, "explain: one of --write or --edit")
			}
			if len(args) == 0 || args[0] == "" {
				return usageError(stderr, "explain %s needs a path", a)
			}
			tool := "Write"
			if a == "--edit" {
				tool = "Edit"
			}
			fp := filePayload(tool, args[0])
			p = &fp
			args = args[1:]
			continue
		default:
			return usageError(stderr, "explain: unknown flag %q (put the command after --)", a)
		}
		break // "--": the rest is the command
	}
	switch {
	case p != nil && len(args) > 0:
		return usageError(stderr, "explain: a path or a command, not both (%q)", strings.Join(args, " "))
	case p == nil:
		command := strings.Join(args, " ")
		if strings.TrimSpace(command) == "" {
			return usageError(stderr, "explain needs a command: zcode-fence explain 'CMD' | explain --write PATH")
		}
		bp := bashPayload(command)
		p = &bp
	}

	p.Host = adapter
	j := newJudgement("explain", time.Now())
	j.run(*p)
	total := time.Since(j.start)
	j.done()
	r := j.report(total)
	for _, w := range j.configWarnings(os.Environ()) {
		fmt.Fprintf(stderr, "[zcode-fence] %s\n", w)
	}
	if asJSON {
		line, _ := json.Marshal(r)
		fmt.Fprintln(stdout, string(line))
	} else {
		_, _ = io.WriteString(stdout, r.text())
	}
	return judgedExit(j)
}

// report gathers the explain report of a finished judgement.
func (j *judgement) report(total time.Duration) explainReport {
	r := explainReport{Decision: j.out.Verdict.Decision.String(), Ms: ms(total),
		Isolation: j.cfg.Get(config.KeyLayerIsolation), Config: j.cfg.Source, Layers: []explainLayerReport{},
		Language: j.cfg.Get(config.KeyLanguage), LanguageChoice: j.cfg.LanguageChoice}
	if j.payload.Host != nil {
		r.Host = j.payload.Host.Name()
	}
	r.Precedence = append([]string{"defaults", config.NeutralFilePath(j.env), config.FilePath(j.env)}, envSources()...)
	for _, spec := range j.cfg.Schema().Specs() {
		if src := j.cfg.SourceOf(spec.Key); src != "default" {
			value := j.cfg.Get(spec.Key)
			if spec.Sensitive {
				value = "<hidden>"
			}
			r.Settings = append(r.Settings, explainSetting{Key: spec.Key, Value: value, Source: src})
		}
	}
	c := j.prep.Call
	if c == nil {
		r.Decision = "error"
		r.InputError = fmt.Sprint(j.inputErr)
		return r
	}
	r.Tool, r.Project, r.Cwd, r.WideRoot = c.Tool, c.ProjectRoot, c.Cwd, j.prep.WideRoot
	r.Writable = append([]string{}, c.WritableRoots...)
	if c.Kind == core.KindShell {
		r.Command = c.Command
	} else {
		r.Paths = append([]string{}, c.Paths...)
	}
	r.Notes = append(append(append(r.Notes, j.cfg.Notes...), j.prep.Notes...), j.out.Notes...)
	if off, _, _ := rules.ParseDisabled(j.cfg.Get(config.KeyDisabledRules)); !off.Empty() {
		r.RulesOff = off.IDs()
	}
	if c.Script != nil {
		r.ParseError = c.Script.ParseError
		r.Parse = strings.Split(strings.TrimRight(c.Script.Outline(), "\n"), "\n")
	}
	ran := map[string]bool{}
	for _, l := range j.out.Layers {
		ran[l.Name] = true
		lr := explainLayerReport{Name: l.Name, State: l.Verdict.Decision.String(), Mode: l.Mode,
			DecideMs: ms(l.Decide), Annotations: l.Verdict.Annotations}
		if l.Mode != host.ModeInProcess {
			lr.LaunchMs = ms(l.Launch)
		}
		switch {
		case errors.Is(l.Err, host.ErrAbandoned):
			lr.State = "abandoned"
		case l.Err != nil:
			lr.State = "error"
		}
		if l.Err != nil {
			lr.Error = l.Err.Error()
		}
		for _, reason := range l.Verdict.Reasons {
			lr.Reasons = append(lr.Reasons, explainReason{Rule: reason.Rule, Message: reason.Message})
		}
		for _, reason := range l.Disabled {
			lr.Disabled = append(lr.Disabled, explainReason{Rule: reason.Rule, Message: reason.Message})
		}
		r.Layers = append(r.Layers, lr)
	}
	for _, b := range plugins.Builtins {
		if ran[b.Name] {
			continue
		}
		lr := explainLayerReport{Name: b.Name, State: "off", Why: b.Switch.Key + "=false"}
		if b.Switch.Key == "" || j.cfg.Bool(b.Switch.Key) {
			lr.State, lr.Why = "not run", "a deterministic layer asked"
		}
		if j.prep.Skip {
			lr.State, lr.Why = "not run", "tool not judged"
		}
		r.Layers = append(r.Layers, lr)
	}
	if j.ask() {
		r.Reason = j.out.Text
		r.Answer = string(j.answer())
	}
	return r
}

// text is the report for people.
func (r explainReport) text() string {
	w := &strings.Builder{}
	if r.InputError != "" {
		fmt.Fprintf(w, "cannot judge: %s\n", r.InputError)
		return w.String()
	}
	fmt.Fprintf(w, "tool:        %s\n", r.Tool)
	if r.Paths == nil {
		fmt.Fprintf(w, "command:     %s\n", r.Command)
	} else {
		fmt.Fprintf(w, "paths:       %s\n", strings.Join(r.Paths, "  "))
	}
	fmt.Fprintf(w, "project:     %s\n", orNone(r.Project))
	if r.WideRoot != "" {
		fmt.Fprintf(w, "  WARNING: the project root is the %s: the fence guards only the protected paths\n", r.WideRoot)
	}
	fmt.Fprintf(w, "cwd:         %s\n", orNone(r.Cwd))
	fmt.Fprintf(w, "writable:    %s\n", orNone(strings.Join(r.Writable, "  ")))
	fmt.Fprintf(w, "isolation:   %s\n", r.Isolation)
	fmt.Fprintf(w, "host:        %s\n", r.Host)
	fmt.Fprintf(w, "config:      %s\n", r.Config)
	fmt.Fprintf(w, "precedence:  %s\n", strings.Join(r.Precedence, " < "))
	for _, st := range r.Settings {
		fmt.Fprintf(w, "  setting:   %s=%q from %s\n", st.Key, st.Value, st.Source)
	}
	if r.LanguageChoice != "" {
		fmt.Fprintf(w, "language:    %s (%s)\n", r.Language, r.LanguageChoice)
	} else {
		fmt.Fprintf(w, "language:    %s\n", r.Language)
	}
	if len(r.RulesOff) > 0 {
		fmt.Fprintf(w, "rules off:   %s\n", strings.Join(r.RulesOff, " "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if r.Parse != nil {
		fmt.Fprintln(w, "parse:")
		if r.ParseError != "" {
			fmt.Fprintf(w, "  parse error (token scan used): %s\n", r.ParseError)
		}
		for _, line := range r.Parse {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	fmt.Fprintln(w, "layers:")
	for _, l := range r.Layers {
		if l.Why != "" {
			why := l.State + " (" + l.Why + ")"
			if l.State == "off" {
				why = "off (" + l.Why + ")"
			}
			fmt.Fprintf(w, "  %-14s %s\n", l.Name, why)
			continue
		}
		timing := fmt.Sprintf("decide %.2fms", l.DecideMs)
		if l.Mode != host.ModeInProcess {
			timing = fmt.Sprintf("launch %.2fms  %s", l.LaunchMs, timing)
		}
		fmt.Fprintf(w, "  %-14s %-7s %-10s %s\n", l.Name, l.State, l.Mode, timing)
		for _, reason := range l.Reasons {
			fmt.Fprintf(w, "      %s  %s\n", reason.Rule, reason.Message)
		}
		for _, reason := range l.Disabled {
			fmt.Fprintf(w, "      %s  switched off (%s): %s\n", reason.Rule, config.KeyDisabledRules, reason.Message)
		}
		for _, k := range sortedKeys(l.Annotations) {
			fmt.Fprintf(w, "      %s = %s\n", k, l.Annotations[k])
		}
		if l.Error != "" {
			fmt.Fprintf(w, "      %s\n", l.Error)
		}
	}
	fmt.Fprintf(w, "decision:    %s  (%.2fms)\n", r.Decision, r.Ms)
	if r.Reason != "" {
		fmt.Fprintf(w, "reason:      %s\n", r.Reason)
		fmt.Fprintf(w, "answer:      %s", orNone(r.Answer))
		if !strings.HasSuffix(r.Answer, "\n") {
			fmt.Fprintln(w)
		}
	}
	return w.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// hostNames lists the agent hosts zcode-fence has an adapter for.
func hostNames() []string {
	var out []string
	for _, a := range agenthost.Adapters() {
		out = append(out, a.Name())
	}
	return out
}

// envSources names the environment sources of settings, lowest first
// (PREFIX<KEY> for each of config.EnvPrefixes).
func envSources() []string {
	var out []string
	for _, p := range config.EnvPrefixes {
		out = append(out, p+"<KEY>")
	}
	return out
}
