package main

import (
	"context"
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// layerName is the layer's name in its messages. The host names the layer
// after its executable's file name, so build it as protect-branch.
const layerName = "protect-branch"

// Options (layer_options["protect-branch"]).
const (
	// optionBranches: ";"-separated branch names or globs (path.Match:
	// "release/*" covers release/1.2 but not release/1/2).
	optionBranches = "branches"
	// optionAskOnAnyPush: when true, every git push asks.
	optionAskOnAnyPush = "ask_on_any_push"
	defaultBranches    = "main;master"
)

// maxReasons bounds the reasons of one verdict (the host caps the joined
// text at about 800 characters anyway).
const maxReasons = 4

// commandUnits bounds the command text quoted in a message.
const commandUnits = 160

// layer is stateless: every call carries its own options.
type layer struct{}

func newLayer() layer { return layer{} }

func (layer) Name() string { return layerName }

// Decide asks when a git command in the call touches a protected branch.
// It looks only at shell tools; file tools are silent.
func (layer) Decide(ctx context.Context, call *core.Call) (core.Verdict, error) {
	if err := ctx.Err(); err != nil {
		return core.SilentVerdict, err
	}
	if call == nil || call.Kind != core.KindShell || call.Script == nil {
		return core.SilentVerdict, nil
	}
	set := loadSettings(call)
	var reasons []core.Reason
	seen := map[string]bool{}
	for _, g := range sdk.GitCommands(call.Script) {
		f, ok := set.judge(g)
		if !ok {
			continue
		}
		msg := f.message(call, sdk.CommandText(g.Command, commandUnits), set)
		if seen[msg] {
			continue
		}
		seen[msg] = true
		reasons = append(reasons, core.Reason{Layer: layerName, Rule: f.rule, Message: msg})
		if len(reasons) == maxReasons {
			break
		}
	}
	v := core.SilentVerdict
	if len(reasons) > 0 {
		v = core.AskVerdict(reasons...)
	}
	v.Annotations = map[string]string{"protected": strings.Join(set.patterns, ";")}
	if len(set.notes) > 0 {
		v.Annotations["config_note"] = strings.Join(set.notes, "; ")
	}
	return v, nil
}

// settings are the options of one call.
type settings struct {
	patterns []string
	anyPush  bool
	notes    []string
}

func loadSettings(call *core.Call) settings {
	s := settings{patterns: sdk.ListOption(call, optionBranches, defaultBranches)}
	for _, p := range s.patterns {
		if _, err := path.Match(p, ""); err != nil {
			s.notes = append(s.notes, "branches: "+p+" is not a valid glob; compared literally")
		}
	}
	askAll, ok := sdk.BoolOption(call, optionAskOnAnyPush, false)
	if !ok {
		s.notes = append(s.notes, optionAskOnAnyPush+": "+call.Options[optionAskOnAnyPush]+" is not a boolean; using false")
	}
	s.anyPush = askAll
	return s
}

// protected reports whether branch (a short name, no refs/heads/) is
// protected: equal to a pattern or matching it as a glob.
func (s settings) protected(branch string) bool {
	if branch == "" {
		return false
	}
	for _, p := range s.patterns {
		if p == branch {
			return true
		}
		if ok, err := path.Match(p, branch); err == nil && ok {
			return true
		}
	}
	return false
}

// overlaps reports whether the refspec pattern ref (one "*", as git
// allows) may name a protected branch: the literal text before its "*" and
// the literal text of some protected pattern before its first glob
// character are prefixes of one another. It errs towards asking.
func (s settings) overlaps(ref string) bool {
	before, _, _ := strings.Cut(ref, "*")
	for _, p := range s.patterns {
		lit := p
		if i := strings.IndexAny(p, "*?[\\"); i >= 0 {
			lit = p[:i]
		}
		if strings.HasPrefix(lit, before) || strings.HasPrefix(before, lit) {
			return true
		}
	}
	return false
}
