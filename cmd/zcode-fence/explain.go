package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/agenthost"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/plugins"
)

// explainMode shows how a command or a write is judged: the parse, every
// layer's verdict with rule ids and timings, and the answer. It writes no
// hook output and no log record.
func explainMode(args []string, stdout, stderr io.Writer) int {
	adapter := agenthost.Default()
	if len(args) >= 2 && args[0] == "--host" {
		a, ok := agenthost.ByName(args[1])
		if !ok {
			fmt.Fprintf(stderr, "zcode-fence explain: unknown host %q (known: %s)\n", args[1], strings.Join(hostNames(), ", "))
			return 2
		}
		adapter, args = a, args[2:]
	}
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: zcode-fence explain [--host NAME] 'CMD' | explain [--host NAME] --write PATH")
		return 2
	}
	p := bashPayload(strings.Join(args, " "))
	if args[0] == "--write" || args[0] == "--edit" {
		tool := "Write"
		if args[0] == "--edit" {
			tool = "Edit"
		}
		p = filePayload(tool, strings.Join(args[1:], " "))
	}
	p.Host = adapter
	j := newJudgement("explain", time.Now())
	j.run(p)
	total := time.Since(j.start)
	j.done()

	w := &strings.Builder{}
	c := j.prep.Call
	if c == nil {
		fmt.Fprintf(stdout, "cannot judge: %v\n", j.inputErr)
		return 0
	}
	fmt.Fprintf(w, "tool:        %s\n", c.Tool)
	if c.Kind == core.KindShell {
		fmt.Fprintf(w, "command:     %s\n", c.Command)
	} else {
		fmt.Fprintf(w, "paths:       %s\n", strings.Join(c.Paths, "  "))
	}
	fmt.Fprintf(w, "project:     %s\n", orNone(c.ProjectRoot))
	if j.prep.WideRoot != "" {
		fmt.Fprintf(w, "  WARNING: the project root is the %s: the fence guards only the protected paths\n", j.prep.WideRoot)
	}
	fmt.Fprintf(w, "cwd:         %s\n", orNone(c.Cwd))
	fmt.Fprintf(w, "writable:    %s\n", orNone(strings.Join(c.WritableRoots, "  ")))
	fmt.Fprintf(w, "isolation:   %s\n", j.cfg.Get(config.KeyLayerIsolation))
	fmt.Fprintf(w, "host:        %s\n", adapter.Name())
	fmt.Fprintf(w, "config:      %s\n", j.cfg.Source)
	fmt.Fprintf(w, "precedence:  defaults < %s < %s < %s\n", config.NeutralFilePath(j.env), config.FilePath(j.env),
		strings.Join(config.EnvPrefixes, "<KEY> < ")+"<KEY>")
	for _, spec := range j.cfg.Schema().Specs() {
		if src := j.cfg.SourceOf(spec.Key); src != "default" {
			value := j.cfg.Get(spec.Key)
			if spec.Sensitive {
				value = "<hidden>"
			}
			fmt.Fprintf(w, "  setting:   %s=%q from %s\n", spec.Key, value, src)
		}
	}
	if off, _, _ := rules.ParseDisabled(j.cfg.Get(config.KeyDisabledRules)); !off.Empty() {
		fmt.Fprintf(w, "rules off:   %s\n", strings.Join(off.IDs(), " "))
	}
	for _, n := range append(append(append([]string{}, j.cfg.Notes...), j.prep.Notes...), j.out.Notes...) {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if c.Script != nil {
		fmt.Fprintln(w, "parse:")
		if c.Script.ParseError != "" {
			fmt.Fprintf(w, "  parse error (token scan used): %s\n", c.Script.ParseError)
		}
		for _, line := range strings.Split(strings.TrimRight(c.Script.Outline(), "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	fmt.Fprintln(w, "layers:")
	ran := map[string]bool{}
	for _, l := range j.out.Layers {
		ran[l.Name] = true
		state := l.Verdict.Decision.String()
		switch {
		case errors.Is(l.Err, host.ErrAbandoned):
			state = "abandoned"
		case l.Err != nil:
			state = "error"
		}
		timing := fmt.Sprintf("decide %.2fms", ms(l.Decide))
		if l.Mode != host.ModeInProcess {
			timing = fmt.Sprintf("launch %.2fms  %s", ms(l.Launch), timing)
		}
		fmt.Fprintf(w, "  %-14s %-7s %-10s %s\n", l.Name, state, l.Mode, timing)
		for _, r := range l.Verdict.Reasons {
			fmt.Fprintf(w, "      %s  %s\n", r.Rule, r.Message)
		}
		for _, r := range l.Disabled {
			fmt.Fprintf(w, "      %s  switched off (%s): %s\n", r.Rule, config.KeyDisabledRules, r.Message)
		}
		for _, k := range sortedKeys(l.Verdict.Annotations) {
			fmt.Fprintf(w, "      %s = %s\n", k, l.Verdict.Annotations[k])
		}
		if l.Err != nil {
			fmt.Fprintf(w, "      %v\n", l.Err)
		}
	}
	for _, b := range plugins.Builtins {
		if ran[b.Name] {
			continue
		}
		why := "off (" + b.Switch.Key + "=false)"
		if b.Switch.Key == "" || j.cfg.Bool(b.Switch.Key) {
			why = "not run (a deterministic layer asked)"
		}
		if j.prep.Skip {
			why = "not run (tool not judged)"
		}
		fmt.Fprintf(w, "  %-14s %s\n", b.Name, why)
	}
	fmt.Fprintf(w, "decision:    %s  (%.2fms)\n", j.out.Verdict.Decision, ms(total))
	if j.ask() {
		fmt.Fprintf(w, "reason:      %s\n", j.out.Text)
		fmt.Fprintf(w, "answer:      %s", orNone(string(j.answer())))
		if len(j.answer()) == 0 {
			fmt.Fprintln(w)
		}
	}
	_, _ = io.WriteString(stdout, w.String())
	return 0
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
