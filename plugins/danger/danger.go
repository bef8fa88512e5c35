// Package danger is the danger gate: it asks before a shell command does
// something catastrophic, irreversible or system-level — deletes a root, a
// home or a system directory, writes a disk, powers the machine off,
// destroys Git history or uncommitted work, runs code fetched from the
// network, installs persistence or turns a protection off — wherever the
// command sits (wrappers, bash -c, eval, $(...), xargs, find -exec,
// powershell -Command, cmd /c, interpreter one-liners). Everyday work inside
// the project (rm -rf node_modules, git push, chmod +x, find . -delete) and
// dangerous-looking text that is only data (echo "rm -rf /") stay silent.
//
// The layer judges the host's analysis of the command (core.Call.Script,
// made by core/shell) and never parses POSIX shell text itself; paths are
// normalised and judged with core/paths for the call's platform. One known
// gap of core/shell is bridged in gaps.go (literal code piped into an
// interpreter) and one of core/paths in targets.go (WSL's /mnt/c drive
// mounts), each in one marked function.
//
// # Rules
//
// Every ask carries one stable rule id, one reason per distinct finding.
// The rules (DG-*), their families, docs and message templates are
// declared in core/rules and listed in docs/rules.md; this package reports
// them as values (rules.RmRecursive) and renders their templates.
//
// # Blind spots
//
// What the command text does not show: script files (bash x.sh, python
// x.py, make) and what they do, files downloaded by an earlier tool call,
// functions and aliases defined outside the command, payloads that do not
// decode. Single files in system directories (rm /usr/bin/python3)
// are not catastrophes by this layer's definition (the project fence asks
// about them); targets are judged lexically (a symlink to / is not
// followed). Unknown values are not blind spots: they ask where emptiness
// or an unknown directory could make the target catastrophic.
//
// # Options
//
// custom_rules (see DG-CUSTOM; compiled sets are cached by the rule string)
// and language (core.Call.Language: English reasons for "en", else Chinese).
//
// # Cost
//
// Pure string work over the commands of the analysis: a map lookup per
// command, path normalisation only for the arguments of the commands a
// rule is about. About a microsecond per everyday command (see
// BenchmarkDecide); no system calls, no regular expressions unless
// custom_rules is set.
package danger

import (
	"context"
	"fmt"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// Name is the layer's name.
const Name = "danger"

// KeyCustomRules is the danger gate's own setting; the host passes its
// value, with core.LanguageOption, as Call.Options.
const KeyCustomRules = "custom_rules"

// Enable is the setting that switches the danger gate on.
var Enable = config.Spec{
	Key: "enable_danger_gate", Kind: config.Bool, Default: "true",
	Title:       "Danger gate",
	Description: "Ask before catastrophic, irreversible or system-level commands (rm -rf ~, mkfs, dd of=/dev/sda, git push --force, curl | sh, ...).",
}

// KeyProtectSecrets switches the fourth line (the secrets family): asking
// before the user's credential stores outside the project are read,
// copied or sent, by shell commands and by the hosts' read tools.
const KeyProtectSecrets = "protect_secrets"

// ProtectSecrets is the fourth line's switch. It is also the host's
// Builtin.Reads for this layer: with it off, read calls run no layer.
var ProtectSecrets = config.Spec{
	Key: KeyProtectSecrets, Kind: config.Bool, Default: "true",
	Title:       "Protect secrets",
	Description: "Ask before the agent reads, copies or sends your credential stores outside the project (SSH private keys, cloud and registry tokens, browser cookies and logins, the agent hosts' own auth files, password managers that print secrets), by shell commands and by its Read and Grep tools. Files inside the project and public keys stay silent. Part of the danger gate.",
}

// Settings declares the danger gate's own settings.
var Settings = []config.Spec{{
	Key: KeyCustomRules, Kind: config.String,
	Title:       "Custom danger rules",
	Description: "Extra regular expressions, separated by ';'. A command that matches any of them asks. A rule that does not compile is skipped.",
}, ProtectSecrets}

// Layer is the danger gate. Use New; it is safe for concurrent use.
type Layer struct {
	platform func(goos string) paths.Platform
	budget   int
}

var _ core.Layer = (*Layer)(nil)

// StepBudget is the work one Decide may do, in steps (core/steps): one per
// command and word, one per path operation per 256 bytes. Everyday
// commands take about 20 steps (21 at most over the everyday corpora, 122
// over every corpus; TestGolden checks they stay under a tenth of it); a
// script at the analysis' command cap (4,096 commands) with a few targets
// each takes a few tens of thousands, and a 1 MiB crafted text about
// 35,000. When the budget runs out the gate stops and asks (DG-INCOMPLETE)
// with what it found so far. At about a microsecond a step at most, it
// bounds Decide to a few hundred milliseconds.
const StepBudget = 1 << 18

// Option configures a Layer.
type Option func(*Layer)

// WithPlatform makes the layer judge paths with the Platform f returns for
// core.Call.Platform instead of paths.ForOS. Tests inject Windows or macOS
// semantics, a home and an environment this way.
func WithPlatform(f func(goos string) paths.Platform) Option {
	return func(l *Layer) {
		if f != nil {
			l.platform = f
		}
	}
}

// WithStepBudget replaces StepBudget (tests exercise the exhausted budget
// on small inputs this way).
func WithStepBudget(n int) Option {
	return func(l *Layer) { l.budget = n }
}

// New returns the danger gate.
func New(opts ...Option) *Layer {
	l := &Layer{platform: paths.ForOS, budget: StepBudget}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Name returns "danger".
func (*Layer) Name() string { return Name }

// Decide judges a shell call: Ask with one reason per finding, or Silent.
// File tools and other tools are always Silent (the project fence judges
// file targets). A nil Script is analysed here from Command, the way the
// host does.
//
// Its work is bounded by the step budget (StepBudget): when that runs out
// it asks with DG-INCOMPLETE besides what it found. It never panics: an
// internal failure, or ctx expiring, is returned as an error together with
// the findings made before (the host then asks, DESIGN §3). The verdict's
// annotations hold the steps used (core/steps.Annotation).
func (l *Layer) Decide(ctx context.Context, c *core.Call) (v core.Verdict, err error) {
	var j *judge
	defer func() {
		if r := recover(); r != nil {
			v, err = core.SilentVerdict, fmt.Errorf("danger: internal error: %v", r)
			if j != nil && len(j.reasons) > 0 {
				v = core.AskVerdict(j.reasons...)
			}
		}
	}()
	if c != nil && c.Kind == core.KindRead {
		return l.decideRead(ctx, c), nil
	}
	if c == nil || c.Kind != core.KindShell {
		return core.SilentVerdict, nil
	}
	plat := l.platform(c.Platform)
	script := c.Script
	if script == nil {
		// Not sent (too large for the layer protocol) or a call built by
		// hand: analyse it here, the way the host does.
		script = analysis.Analyze(c.Command, analysis.Options{Dialect: c.ShellDialect(), Cwd: c.Cwd, Home: plat.Home, Lookup: plat.Lookup})
	}
	custom := compileCustom(c.Option(KeyCustomRules, ""))
	j = newJudge(ctx, plat, c.Language() == core.English, script, c.Cwd, l.budget)
	j.custom = custom
	j.secretsOn = secretsOn(c)
	j.roots = c.WritableRoots
	if c.ProjectRoot != "" {
		j.project = plat.CleanRoot(c.ProjectRoot)
	}
	err = j.run()
	reasons := j.reasons
	if len(reasons) > 0 {
		v = core.AskVerdict(reasons...)
	}
	v.Annotations = j.steps.Annotations()
	if len(custom.bad) > 0 {
		v.Annotations = map[string]string{steps.Annotation: j.steps.String(), AnnotationCustomSkipped: custom.skippedNote()}
	}
	j.release()
	j = nil
	if err != nil {
		return v, fmt.Errorf("danger: %w", err)
	}
	return v, nil
}
