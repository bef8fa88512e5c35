package danger

import (
	"context"
	"strings"
	"sync"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/secrets"
	"github.com/zcode-fence/zcode-fence/core/shell/cdchain"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// judge holds the judging of one call: the platform, the analysis, the
// call's cwd and the reasons found so far.
type judge struct {
	plat    paths.Platform
	en      bool
	s       *ir.Script
	cwdRaw  string     // the call's cwd as given
	cwd     paths.Path // cwdRaw cleaned, once needed (see callCwd)
	custom  *customSet
	roots   []string   // the call's writable roots (core.Call.WritableRoots)
	project paths.Path // the call's project root, cleaned (zero when unknown)

	cwdDone bool
	cur     cmdv // the command being judged (one at a time per judge)

	rev       [][]int    // rev[i]: the commands whose output reaches i (built lazily)
	downloads []download // files fetchers wrote so far (see recordDownload)
	reasons   []core.Reason
	seen      map[string]bool
	nested    int // how deep gap re-analysis (literal text fed to a shell) went
	// fromFile is where the command being judged was read from
	// (ir.Command.Origin), put before each message; baseFile is that
	// origin of the command a nested judge was started for.
	fromFile, baseFile string

	secretsOn bool         // protect_secrets (rules_secrets.go)
	secretsAt *secrets.Set // the catalogue placed for the call, once needed
	// narrowDone, narrow: the project root as the catalogue exempts it
	// (secrets.NarrowProject), once needed.
	narrowDone bool
	narrow     paths.Path

	ctx   context.Context // the call's; nested judges share it
	steps *steps.Counter  // the call's budget, shared with nested judges
	// budget is where the call's own judge keeps the counter steps points
	// to (one allocation fewer per call).
	budget steps.Counter
	bases  *cdchain.Cache[cdDir]
}

// cdDir is a command's directory as the rules see it: the call's cwd after
// its cd chain, and whether a step of the chain was unknown.
type cdDir struct {
	p       paths.Path
	unknown bool
}

// judges keeps judge values between calls: allocating one per call was a
// fifth of the cost of an everyday command.
var judges = sync.Pool{New: func() any { return new(judge) }}

// newJudge returns the judge of one call, with a budget of limit steps
// (j.steps, shared with nested judges); give it back with release.
func newJudge(ctx context.Context, plat paths.Platform, en bool, s *ir.Script, cwd string, limit int) *judge {
	j := judges.Get().(*judge)
	*j = judge{ctx: ctx, plat: plat, en: en, s: s, cwdRaw: cwd}
	j.budget.Reset(limit)
	j.steps = &j.budget
	return j
}

// release returns j to the pool. The caller keeps the reasons (the slice
// is not reused); nothing else of j may be used afterwards.
func (j *judge) release() {
	*j = judge{}
	judges.Put(j)
}

// callCwd returns the call's cwd as a Path (not absolute when unknown),
// cleaning it on first use: most calls never need it.
func (j *judge) callCwd() paths.Path {
	if !j.cwdDone {
		j.cwdDone = true
		switch {
		case j.cwdRaw != "" && j.cwdRaw == j.project.Raw:
			j.cwd = j.project // the usual call: cleaned once in Decide
		case j.cwdRaw != "":
			j.cwd = j.plat.Clean(j.cwdRaw)
		}
	}
	return j.cwd
}

// ctxCheckEvery is how many commands are judged between deadline checks.
const ctxCheckEvery = 64

// run judges every command of the analysis, then the whole text. It stops
// when ctx expires (returning its error) or when the step budget runs out
// (adding an Incomplete finding); the reasons found until then are kept
// either way.
func (j *judge) run() error {
	j.spend(steps.Path(len(j.s.Source)) * (1 + j.custom.size()))
	j.judgeCustomText(j.s.Source)
	for i := range j.s.Commands {
		if i%ctxCheckEvery == ctxCheckEvery-1 {
			if err := j.ctx.Err(); err != nil {
				return err
			}
		}
		if j.steps.Exhausted() {
			break
		}
		j.spend(j.commandCost(&j.s.Commands[i]))
		j.command(i)
	}
	j.fromFile = j.baseFile
	if j.steps.Exhausted() {
		j.incomplete(rules.CauseTooLarge)
	}
	if j.s.Truncated {
		j.add(finding{rule: rules.TooDeep})
	}
	return nil
}

// commandCost is what judging c costs, in steps: one for the command, one
// per word, and one per PathChunk bytes of its words (every rule works on
// them in a few passes), times the custom rules matched on its text. Its
// cd chain is counted as it is resolved (cdStep).
func (j *judge) commandCost(c *ir.Command) int {
	bytes := 0
	for _, w := range c.Args {
		bytes += len(w.Value) + len(w.Raw)
	}
	for _, r := range c.Redirects {
		bytes += len(r.Target.Value) + len(r.Target.Raw) + len(r.Body)
	}
	for _, a := range c.Assigns {
		bytes += len(a.Value.Value) + len(a.Value.Raw)
	}
	bytes += len(c.Stdin)
	words := len(c.Args) + len(c.Redirects) + len(c.Assigns)
	return (1 + words + bytes/steps.PathChunk) * (1 + j.custom.size())
}

// spend counts n steps of work against the call's budget.
func (j *judge) spend(n int) { j.steps.Spend(n) }

// incomplete records that the judging could not finish, and why.
func (j *judge) incomplete(c rules.Cause) {
	l := core.Chinese
	if j.en {
		l = core.English
	}
	j.add(incompleteFinding(c, l))
}

// command judges one command with every rule that applies to it.
func (j *judge) command(i int) {
	c := &j.s.Commands[i]
	j.fromFile = c.Origin
	if j.fromFile == "" {
		j.fromFile = j.baseFile
	}
	v := &j.cur
	*v = cmdv{j: j, i: i, c: c, name: dispatchName(c)}
	if len(c.Args) > 1 {
		v.args = c.Args[1:]
	}
	if c.Uninspected != "" {
		j.add(finding{rule: rules.ScriptUninspected, cmd: v.display(), detail: c.Uninspected, fullDetail: true})
	}
	j.judgeCustomCommand(c)
	v.redirects()
	v.rules()
	if cmdfacts.IsFetcher(v.name) {
		v.recordDownload()
	}
}

// rules runs every rule that looks at the command word and its arguments:
// the one keyed on its name, and those that look at any command (inline
// programs, fork bombs, switching the guard off, archivers, code
// consumers, downloads run). A package runner's command (npx rimraf ~) is
// judged by it too, as that command.
func (v *cmdv) rules() {
	if v.name == "" {
		v.unknownCommand()
	} else if rs := dispatch()[v.name]; len(rs) > 0 {
		for _, r := range rs {
			r(v)
		}
	} else if cmdfacts.MakesFileSystem(v.name) {
		ruleMkfs(v)
	} else {
		ruleEffects(v) // a command with effects and no rule of its own
	}
	v.inlineScripts()
	v.secrets()
	v.forkBomb()
	v.tamper()
	v.archiveDelete()
	v.codeConsumer()
	v.runsDownload()
}

// cmdv is one command as the rules see it.
type cmdv struct {
	j    *judge
	i    int
	c    *ir.Command
	name string    // what the rules are keyed on (see dispatchName)
	args []ir.Word // the arguments after the command word

	baseDone    bool
	base        paths.Path
	baseUnknown bool // a cd step's directory is unknown
}

// dispatchName is the name rules are keyed on: Command.Name, else
// NameIfEmpty (r${X}m is judged as rm); in PowerShell the canonical cmdlet
// of an alias, lower-cased (rm, del and ri are "remove-item").
func dispatchName(c *ir.Command) string {
	name := c.Name
	if name == "" {
		name = c.NameIfEmpty
	}
	if c.Dialect == ir.PowerShell && name != "" && len(c.Args) > 0 && !c.Args[0].Unknown {
		if canon, ok := winshell.PowerShellCmdlet(c.Args[0].Value); ok {
			return strings.ToLower(canon)
		}
	}
	return name
}

// display is how messages name the command: as dispatched, with the
// PowerShell cmdlet in its usual spelling and a .NET static call as
// written ([IO.File]::Delete).
func (v *cmdv) display() string {
	if strings.HasPrefix(v.name, "[") && len(v.c.Args) > 0 {
		return v.c.Args[0].Raw
	}
	if v.c.Dialect == ir.PowerShell && len(v.c.Args) > 0 {
		if canon, ok := winshell.PowerShellCmdlet(v.c.Args[0].Value); ok {
			return canon
		}
	}
	if v.name != "" {
		return v.name
	}
	if len(v.c.Args) > 0 {
		return v.c.Args[0].Raw
	}
	return ""
}

// baseDir is the directory the command runs in: the call's cwd after the
// command's cd chain. unknown is set when a cd step's directory is not
// known (cd "$X", cd -, a conditional cd) or is past the path limits
// (paths.Platform.TooLong); the result is then not absolute. Each distinct
// chain is resolved once per call (see cdchain).
func (v *cmdv) baseDir() (base paths.Path, unknown bool) {
	if v.baseDone {
		return v.base, v.baseUnknown
	}
	v.baseDone = true
	j := v.j
	if len(v.c.Cd) == 0 {
		v.base = j.callCwd()
		return v.base, false
	}
	if j.bases == nil {
		j.bases = cdchain.New(cdDir{p: j.callCwd()}, j.cdStep, j.steps)
	}
	b := j.bases.Dir(v.c.Cd, v.c.Dialect)
	v.base, v.baseUnknown = b.p, b.unknown
	return v.base, v.baseUnknown
}

// cdStep applies one cd step the way paths.Platform.ChangeDir does ("" and
// "~" go home); an unknown step (and "-", which the analysis reports as
// unknown anyway) makes the directory unknown, shown as the step's text,
// and it stays unknown: the analysis drops a chain before an absolute step,
// so none follows an unknown one. A known step from a known directory
// that leads nowhere paths can name (past the path limits, ~user) makes it
// unknown too. Cost: one Normalize and one Join, counted in steps.
func (j *judge) cdStep(cur cdDir, w ir.Word, _ ir.Dialect) cdDir {
	if cur.unknown {
		return cur
	}
	if w.Unknown || w.Value == "-" {
		return cdDir{p: paths.Path{Kind: paths.Unresolved, Norm: w.Raw, Raw: w.Raw}, unknown: true}
	}
	j.spend(steps.Path(len(w.Value)) + steps.Path(len(cur.p.Norm)+len(w.Value)))
	next := j.plat.ChangeDir(cur.p, []string{w.Value})
	if next.Kind == paths.Unresolved && cur.p.IsAbs() {
		if len(next.Norm) > maxShownDir {
			next.Norm, next.Raw = tooLongShown, tooLongShown
		}
		return cdDir{p: next, unknown: true}
	}
	return cdDir{p: next}
}

// tooLongShown stands in messages for an unknown directory whose text is
// longer than maxShownDir bytes.
const (
	tooLongShown = "<path too long>"
	maxShownDir  = 256
)

// hasWord reports whether one of the words appears as an argument,
// compared case-insensitively.
func hasWord(args []ir.Word, words ...string) bool {
	for _, a := range args {
		for _, w := range words {
			if strings.EqualFold(a.Value, w) {
				return true
			}
		}
	}
	return false
}

// firstOperand returns the first argument that is not an option,
// lower-cased, or "".
func firstOperand(args []ir.Word) string {
	for _, a := range args {
		if a.Unknown {
			return ""
		}
		if !strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "/") {
			return strings.ToLower(a.Value)
		}
	}
	return ""
}

// lowerValues returns the argument values, lower-cased.
func lowerValues(args []ir.Word) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ToLower(a.Value)
	}
	return out
}

// ---------------------------------------------------------------------------
// How output flows between commands

// feedTarget returns the command that consumes command k's output and how,
// or -1.
func (j *judge) feedTarget(k int) (int, ir.FeedKind) {
	c := &j.s.Commands[k]
	if c.FeedsInto >= 0 && c.FeedsInto < len(j.s.Commands) {
		return c.FeedsInto, c.Feed
	}
	return -1, ir.FeedNone
}

// feeders returns the commands whose output reaches command i.
func (j *judge) feeders(i int) []int {
	if j.rev == nil {
		j.rev = make([][]int, len(j.s.Commands))
		for k := range j.s.Commands {
			if t, _ := j.feedTarget(k); t >= 0 {
				j.rev[t] = append(j.rev[t], k)
			}
		}
	}
	if i < 0 || i >= len(j.rev) {
		return nil
	}
	return j.rev[i]
}

// upstream calls f for every command whose output reaches command i,
// directly or through other commands (curl | tee | sh), nearest first;
// kind is how the direct feeder's output reaches i. f returns false to
// stop. Each command is visited once.
func (j *judge) upstream(i int, f func(k int, kind ir.FeedKind) bool) {
	seen := map[int]bool{i: true}
	type item struct {
		k    int
		kind ir.FeedKind
	}
	var queue []item
	for _, k := range j.feeders(i) {
		_, kind := j.feedTarget(k)
		queue = append(queue, item{k, kind})
	}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if seen[it.k] {
			continue
		}
		seen[it.k] = true
		if !f(it.k, it.kind) {
			return
		}
		for _, k := range j.feeders(it.k) {
			queue = append(queue, item{k, it.kind})
		}
	}
}

// view returns the cmdv of command k.
func (j *judge) view(k int) *cmdv {
	c := &j.s.Commands[k]
	v := &cmdv{j: j, i: k, c: c, name: dispatchName(c)}
	if len(c.Args) > 1 {
		v.args = c.Args[1:]
	}
	return v
}

// viaLast returns the innermost Via entry of the command, or the zero
// Via (ViaOther, no text).
func (v *cmdv) viaLast() ir.Via {
	if n := len(v.c.Via); n > 0 {
		return v.c.Via[n-1]
	}
	return ir.Via{}
}
