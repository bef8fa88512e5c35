// Package fence is the project fence: it asks before a tool call writes,
// creates, moves, deletes or changes the permissions of anything outside
// the writable roots (the project root, the real temp dirs, the agent
// memory dir ~/.zcode/cli/memories and extra_writable_roots), and stays
// silent for everything inside them. Reads are never fenced.
//
// File tools (Write, Edit, MultiEdit, NotebookEdit, ApplyPatch) are judged
// exactly: every target path is normalised with the call's platform
// (core/paths), a relative one is joined onto the call's cwd, the deepest
// existing ancestor is resolved through symlinks, and the result is
// compared with the roots (case-insensitively on Windows and macOS).
// Drive-letter, MSYS (/c/x) and UNC paths are absolute Windows paths on
// every platform, so on Linux C:\Users\x lies outside every root.
//
// Shell tools are judged from the host's analysis (core.Call.Script): for
// every simple command that would run, wherever it sits, the write targets
// its redirects and its arguments name (see targets.go for the list of
// forms), resolved against the command's cd/pushd/popd chain and the call's
// cwd, then judged like a file-tool target. The layer does not parse shell
// text itself (the one exception: .NET file calls in PowerShell text, which
// are expressions and have no Command).
//
// # Rules
//
// Every ask carries one stable rule id (FN-*), one reason per distinct
// target: which write left the roots (a file tool, a redirect, a command,
// a one-liner), a symlink leading out, or a target that cannot be
// resolved. They are declared, with their message templates, in core/rules
// and listed in docs/rules.md.
//
// Protected paths (core/protect: the guard's config and data, the
// installed plugin, host settings and hooks, shell start-up files, ~/.ssh,
// git config) ask whatever the roots are (FN-PROTECTED-*, protected.go):
// also when the call has no project root and when enable_fence is off;
// then nothing else is fenced.
//
// # What counts as a write
//
// Redirects (>, >>, >|, &>, &>>, 2>, <>, >&FILE; no space needed), and
// the targets of the commands listed at commandTargets (cp/mv/install/
// rsync/scp/rclone destinations and -t DIR, mv's sources, ln's link,
// tee, touch, mkdir, truncate, sed -i, perl/ruby -i, curl -o/-O/
// --output-dir, wget -O/-P, tar -x -C and tar -c -f, unzip -d, 7z -o, zip,
// dd of=, chmod/chown/chgrp/chattr/setfacl operands, rm/rmdir/unlink/shred,
// find -delete start paths and find -exec rm (via the analysis), git
// clone/init/worktree add and git -C with a writing subcommand, PowerShell
// file cmdlets, cmd.exe copy/move/del/rd/ren/md/xcopy/robocopy/mklink, and
// more), the output-like long options of tools the tables do not list
// (--output, --out-dir, --target-dir, --log-file ...), the literal
// write/delete targets of interpreter one-liners and PowerShell .NET file
// calls, and the input items of xargs / parallel / fd -x and $(...)
// arguments when a known path lister (find, fd, ls, grep -l, git ls-files,
// echo, printf) produces them. Relative targets are resolved against the
// command's cd/pushd/popd chain (and env -C, sudo -D, find -execdir),
// symlinks created earlier in the same command (ln -s) are followed, and
// the real path of the deepest existing ancestor (through dangling links
// too) decides. Reads are never judged.
//
// # Blind spots
//
// What a command does that its text does not show: script files (bash
// x.sh, python x.py, make, npm scripts), build tools' own output places
// (make -C, cmake -B, go install), tools' own files outside (git config
// --global, npm config, caches); programs not in the tables that write
// through short options or operands (ffmpeg OUT, convert IN OUT,
// ssh-keygen -f); sed's w command; archive members with absolute names
// (tar -P, zip slip); writes through volume mounts (docker run -v); hard
// links to outside files; PowerShell .NET calls whose path is not a
// literal, and other .NET types; interpreter writes whose path is computed
// at run time without any absolute literal in the script; Windows
// junctions and symlinks when judging Windows paths on another OS
// (lexical only); UNC paths are never resolved. Unknown values are not
// blind spots: they ask (FN-UNRESOLVED), except an unknown tail after a
// known directory (/tmp/$X) is assumed not to climb out with "..".
//
// # Cost
//
// String work per target plus the real-path walk (one EvalSymlinks per
// missing trailing component, cached per process, and one Lstat): a few
// microseconds for an everyday command (see BenchmarkDecide). No regular
// expressions.
package fence

import (
	"context"
	"fmt"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// Name is the layer's name.
const Name = "fence"

// Enable is the setting that switches the project fence on. The fence has
// no other settings: the writable roots (extra_writable_roots) and the
// session-root lock are the host's, which fills Call.WritableRoots and
// Call.ProjectRoot with them.
//
// It is one of the layer's Settings, not its host switch: the layer always
// runs, and with the setting off it still guards the protected paths.
var Enable = config.Spec{
	Key: "enable_fence", Kind: config.Bool, Default: "true",
	Title:       "Project fence",
	Description: "Ask before any write that lands outside the writable roots: the project, the temp directories, ~/.zcode/cli/memories and extra_writable_roots. Writes to zcode-fence's own files, host settings and hooks, shell start-up files, ~/.ssh and ~/.gitconfig ask even when this is off.",
}

// Settings are the layer's settings: its on/off switch.
var Settings = []config.Spec{Enable}

// Layer is the project fence. Use New; the zero value is not usable.
type Layer struct {
	platform func(goos string) paths.Platform
	budget   int
}

// StepBudget is the work one Decide may do, in steps (core/steps): one per
// command, word and path operation (per 256 bytes), one per component of
// every file-system call (the symlink walks). Everyday calls take about 20
// steps (20 at most over the everyday corpora, 90 over every corpus;
// TestGolden checks they stay under a tenth of it); 4,096 distinct new
// targets take about 300,000. When the budget runs out the fence stops and
// asks (FN-INCOMPLETE) with the targets found so far. At well under a
// microsecond a step, it bounds Decide to a few hundred milliseconds.
const StepBudget = 1 << 19

// WithStepBudget replaces StepBudget (tests exercise the exhausted budget
// on small inputs this way).
func WithStepBudget(n int) Option {
	return func(l *Layer) { l.budget = n }
}

var _ core.Layer = (*Layer)(nil)

// Option configures a Layer.
type Option func(*Layer)

// WithPlatform makes the layer judge paths with the Platform f returns for
// core.Call.Platform instead of paths.ForOS. Tests inject Windows or macOS
// semantics, a home, an environment and a symlink resolver this way.
func WithPlatform(f func(goos string) paths.Platform) Option {
	return func(l *Layer) {
		if f != nil {
			l.platform = f
		}
	}
}

// New returns the fence layer.
func New(opts ...Option) *Layer {
	l := &Layer{platform: paths.ForOS, budget: StepBudget}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Name returns "fence".
func (*Layer) Name() string { return Name }

// Decide judges a file or shell call: Ask with one reason per distinct
// target outside the writable roots (or unresolvable) or protected, else
// Silent. Other tool kinds are Silent; without a project root (or with
// enable_fence off) only protected paths are judged; a shell call
// without an analysis (core.Call.Script) is analysed here. Reasons are in English when core.Call.Language is
// English, else in Chinese. Safe for concurrent use.
//
// Its work is bounded by the step budget (StepBudget): when that runs out,
// or the analysis was truncated, it asks with FN-INCOMPLETE besides the
// targets found. It returns an error only when it could not finish (a bug
// caught by recover, or ctx expired), together with the targets found
// before; the host then asks (DESIGN §3). The verdict's annotations hold
// the steps used (core/steps.Annotation).
func (l *Layer) Decide(ctx context.Context, c *core.Call) (v core.Verdict, err error) {
	if c == nil {
		return core.SilentVerdict, nil
	}
	if c.Kind != core.KindFile && c.Kind != core.KindShell {
		return core.SilentVerdict, nil
	}
	var j *judge
	defer func() {
		if r := recover(); r != nil {
			v, err = core.SilentVerdict, fmt.Errorf("fence: internal error: %v", r)
			if j != nil && len(j.reasons) > 0 {
				v = core.AskVerdict(j.reasons...)
			}
		}
	}()
	budget := steps.New(l.budget)
	plat := l.platform(c.Platform)
	if c.Kind == core.KindShell && c.Script == nil {
		// Not sent (too large for the layer protocol): analyse it here,
		// the way the host does.
		withScript := *c
		withScript.Script = analysis.Analyze(c.Command, analysis.Options{Dialect: c.ShellDialect(), Cwd: c.Cwd, Home: plat.Home, Lookup: plat.Lookup})
		c = &withScript
	}
	j = newJudge(ctx, plat, c, budget)
	if c.Kind == core.KindFile {
		j.fileTool()
	} else {
		j.shellScript()
	}
	if err := ctx.Err(); err != nil {
		return j.verdict(), fmt.Errorf("fence: %w", err)
	}
	if budget.Exhausted() {
		j.incomplete(rules.CauseTooLarge)
	}
	v = j.verdict()
	v.Annotations = budget.Annotations()
	return v, nil
}
