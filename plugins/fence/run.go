package fence

import (
	"os"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// fileTool judges every target path of a file tool, relative ones against
// the call's cwd. Symlinks are followed: writing through a link writes
// what it points to.
func (j *judge) fileTool() {
	o := origin{rule: rules.FenceWriteOutside, label: j.fileToolLabel(), verb: verbWrite}
	for _, s := range j.call.Paths {
		if j.ctx.Err() != nil || !j.steps.Spend(steps.Path(len(s))) {
			return
		}
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		j.add(o, j.judgeTarget(j.p.Normalize(s), j.cwd, target{verb: verbWrite}))
	}
	j.plantedFile()
}

// shellScript judges every command of the analysis, then the .NET file
// calls of PowerShell text.
//
// It stops when ctx expires or the step budget runs out (Decide reports
// either); a truncated analysis is reported as incomplete, since writes in
// the part the analysis did not reach are unknown.
func (j *judge) shellScript() {
	if j.call.Script.Truncated {
		j.incomplete(rules.CauseTruncated)
	}
	cmds := j.call.Script.Commands
	j.planLinks(cmds)
	for i := range cmds {
		if j.ctx.Err() != nil || !j.steps.Spend(commandCost(&cmds[i])) {
			return
		}
		j.cur = i
		j.command(i, &cmds[i])
	}
}

// commandCost is the fixed part of judging c, in steps: one, one per
// word and one per PathChunk bytes of its words. Resolving its directory
// and targets is counted as it happens (dirOf, check, the symlink walks).
func commandCost(c *ir.Command) int {
	bytes := 0
	for _, w := range c.Args {
		bytes += len(w.Value) + len(w.Raw)
	}
	for _, r := range c.Redirects {
		bytes += len(r.Target.Value) + len(r.Target.Raw)
	}
	return 1 + len(c.Args) + len(c.Redirects) + bytes/steps.PathChunk
}

// planLinks records the symbolic links the script creates (the link
// effects with Symbolic: ln -s, cp -s, in every form cmdfacts reads: -t
// DIR, several sources, one operand linking into the current directory),
// so that a later write through one (ln -s /etc cfg && echo x >
// cfg/hosts) is judged by where it leads.
func (j *judge) planLinks(cmds []ir.Command) {
	for i := range cmds {
		c := &cmds[i]
		if c.Dialect != ir.Bash {
			continue
		}
		for _, e := range c.Effects {
			if e.Op == ir.EffectLink && e.Symbolic {
				j.planLink(i, c, e)
			}
		}
	}
}

// planLink records the links of one link effect of command i. A
// relative source is read from the link's directory (the link's text),
// or from the command's with Relative (ln -r).
func (j *judge) planLink(i int, c *ir.Command, e ir.Effect) {
	base := j.dirOf(c)
	for _, src := range e.Sources {
		if src.Unknown || src.Value == "" {
			continue
		}
		for _, link := range j.linkPlaces(c, e, src, base) {
			if !link.IsAbs() {
				continue
			}
			from := base
			if !e.Relative {
				from = j.p.Join(link, j.p.Clean(".."))
			}
			if to := j.p.Join(from, j.p.Normalize(src.Value)); to.IsAbs() {
				j.planned = append(j.planned, plannedLink{after: i, link: link, to: to})
			}
		}
	}
}

// linkPlaces are where the link to src will lie: below each target
// directory under src's own name (Into, or several sources), else the
// one target itself, or below it when it is a directory on disk. A
// target that is a symbolic link to a directory gives both places: ln
// -n/-T replaces the link itself, plain ln makes one inside.
func (j *judge) linkPlaces(c *ir.Command, e ir.Effect, src ir.Word, base paths.Path) []paths.Path {
	name := j.p.Clean(baseName(src.Value))
	var out []paths.Path
	for _, t := range e.Targets {
		for _, r := range j.resolve(t, base, c.Dialect) {
			at := j.p.Join(base, r.p)
			if e.Into || len(e.Sources) > 1 {
				out = append(out, j.p.Join(at, name))
				continue
			}
			if j.p.EvalSymlinks == nil || !at.IsAbs() {
				out = append(out, at)
				continue
			}
			switch fi, err := os.Lstat(at.Norm); {
			case err != nil:
				out = append(out, at)
			case fi.IsDir():
				out = append(out, j.p.Join(at, name))
			case fi.Mode()&os.ModeSymlink != 0:
				out = append(out, at)
				if st, err := os.Stat(at.Norm); err == nil && st.IsDir() {
					out = append(out, j.p.Join(at, name))
				}
			default:
				out = append(out, at)
			}
		}
	}
	return out
}

// baseName is the last element of a path written with / or \.
func baseName(s string) string {
	s = strings.TrimRight(s, `/\`)
	if k := strings.LastIndexAny(s, `/\`); k >= 0 {
		return s[k+1:]
	}
	return s
}

// command judges one simple command: its write redirects, the write
// targets its arguments name, and the writes of an inline script.
func (j *judge) command(i int, c *ir.Command) {
	var base paths.Path
	haveBase := false
	dir := func() paths.Path { // only commands that write need their directory
		if !haveBase {
			base, haveBase = j.dirOf(c), true
		}
		return base
	}
	name := commandLabel(c)
	before := len(j.reasons)
	for _, r := range c.Redirects {
		if !r.IsWrite() {
			continue
		}
		o := origin{rule: rules.FenceRedirectOutside, label: j.redirectLabel(name, r.Fd+r.Op), verb: verbWrite}
		j.target(i, c, dir(), target{w: r.Target}, o)
	}
	if len(c.Args) == 0 || c.Name == "" {
		return
	}
	ts, ok := cmdStyleTargets(c, j.p.OS == "windows")
	if !ok {
		ts = commandTargets(c)
	}
	for _, t := range ts {
		j.target(i, c, dir(), t, origin{rule: rules.FenceCommandWriteOutside, label: name, verb: t.verb})
	}
	scripted := j.scriptTargets(c)
	j.plantedShell(i, c, append(ts[:len(ts):len(ts)], scripted...), before)
	for _, t := range append(linkSources(c), archiveInputs(c)...) {
		j.target(i, c, dir(), t, origin{rule: rules.FenceCommandWriteOutside, label: name, verb: t.verb})
	}
	j.gitLandings(c, dir())
	for _, t := range j.diffApplyTargets(c) {
		j.target(i, c, dir(), t, origin{rule: rules.FenceCommandWriteOutside, label: name, verb: t.verb})
	}
	for _, t := range scripted {
		j.target(i, c, dir(), t, origin{rule: rules.FenceScriptWriteOutside, label: j.scriptLabel(c.Name), verb: t.verb})
	}
	if label, targets := dotNetTargets(c); len(targets) > 0 {
		for _, t := range targets {
			j.target(i, c, dir(), t, origin{rule: rules.FenceScriptWriteOutside, label: label, verb: t.verb})
		}
	}
}

// target judges one target of command i: its directories (under) are
// applied to base first; an input item of xargs, parallel or fd -x, and a
// $(...) argument, are replaced by what produces them when that is known.
func (j *judge) target(i int, c *ir.Command, base paths.Path, t target, o origin) {
	for _, u := range t.under {
		base = j.step(base, u, c.Dialect)
	}
	if t.w.Unknown && t.w.KnownPrefix == "" && i >= 0 {
		var items []paths.Path
		ok := false
		switch {
		case isItemRunner(c):
			items, ok = j.items(i, c)
		case isSubst(t.w.Value):
			if _, known := j.substPath(t.w.Value, base); !known {
				items, ok = j.substItems(i)
			}
		}
		if ok {
			for _, x := range items {
				j.add(o, j.judgeTarget(x, base, t))
			}
			return
		}
	}
	// Several readings (the value, the raw text) of one target make one
	// reason: the first that is not inside, the raw reading first (it is
	// what the agent wrote).
	rs := j.resolve(t.w, base, c.Dialect)
	for k := len(rs) - 1; k >= 0; k-- {
		res := j.judgeTarget(rs[k].p, base, t)
		if res.kind == inside {
			continue
		}
		if rs[k].shown != "" {
			res.shown = rs[k].shown
		}
		j.add(o, res)
		return
	}
}

// commandLabel names a command in messages: the canonical cmdlet name in
// PowerShell, else the command name.
func commandLabel(c *ir.Command) string {
	if len(c.Args) == 0 {
		return ""
	}
	if c.Dialect == ir.PowerShell {
		if canon, ok := winshell.PowerShellCmdlet(c.Args[0].Value); ok {
			return canon
		}
	}
	if c.Name == "" {
		return c.Args[0].Value
	}
	return c.Name
}

// isItemRunner reports whether c is run by xargs, parallel or fd -x, so an
// unknown argument stands for an input item: directly, or through the
// shells they run (xargs sh -c 'rm "$@"' _, sh -c 'xargs rm').
func isItemRunner(c *ir.Command) bool {
	for k := len(c.Via) - 1; k >= 0; k-- {
		if c.Via[k].RunsItems() {
			return true
		}
		if !strings.HasSuffix(c.Via[k].Text, " -c") {
			return false
		}
	}
	return false
}

// isSubst reports whether a word value starts with a command
// substitution.
func isSubst(v string) bool { return strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`") }

// items returns the paths the input items of command i can be: the start
// paths of the find / fd / ls / grep -l / git ls-files that feeds it, or
// the words echo / printf print. ok is false when an item source is not
// known (cat list.txt | xargs rm): the item is then unresolved.
func (j *judge) items(i int, c *ir.Command) ([]paths.Path, bool) {
	cmds := j.call.Script.Commands
	if c.Via[len(c.Via)-1].Kind == ir.ViaFdExec {
		if c.Parent < 0 || c.Parent >= len(cmds) {
			return nil, false
		}
		return j.itemsFrom([]int{c.Parent}, 0)
	}
	return j.itemsFrom(j.itemFeeders(i), 0)
}

// itemFeeders returns the commands whose output becomes command i's input
// items: its own feeders, else those of the xargs, parallel or shell that
// runs it (find | sh -c 'xargs rm': the shell's stdin is xargs's).
func (j *judge) itemFeeders(i int) []int {
	cmds := j.call.Script.Commands
	for k := i; k >= 0 && k < len(cmds); k = cmds[k].Parent {
		if fs := j.feeders(k); len(fs) > 0 {
			return fs
		}
		if p := cmds[k].Parent; p >= 0 && p < len(cmds) {
			if n := cmds[p].Name; n != "xargs" && n != "parallel" && !cmdfacts.IsShell(n) {
				return nil
			}
		}
	}
	return nil
}

// substItems is items for a $(...) argument of command i: what the
// substitutions in its words print, when every one of them is a known
// path lister ($(grep -rl x src), $(find . -name '*.o'),
// $(ls -t *.log | head -1)).
func (j *judge) substItems(i int) ([]paths.Path, bool) {
	var feeders []int
	for _, f := range j.feeders(i) {
		if j.call.Script.Commands[f].Feed == ir.FeedSubst {
			feeders = append(feeders, f)
		}
	}
	return j.itemsFrom(feeders, 0)
}

// feeders is Script.Feeders(i), counted in steps: it scans every command.
func (j *judge) feeders(i int) []int {
	j.steps.Spend(1 + len(j.call.Script.Commands)/steps.PathChunk)
	return j.call.Script.Feeders(i)
}

// passThrough are filters whose output lines are some of their input
// lines: the items of head, tail, sort ... are those of their feeders (as
// are those of a grep that picks whole lines, cmdfacts.PicksLines).
var passThrough = map[string]bool{"head": true, "tail": true, "sort": true, "uniq": true, "shuf": true, "tac": true}

// maxItemDepth bounds how far itemsFrom follows pipes back.
const maxItemDepth = 8

// itemsFrom returns the paths the commands in feeders print (see items).
func (j *judge) itemsFrom(feeders []int, depth int) ([]paths.Path, bool) {
	if len(feeders) == 0 || depth > maxItemDepth {
		return nil, false
	}
	cmds := j.call.Script.Commands
	var out []paths.Path
	for _, f := range feeders {
		fc := &cmds[f]
		if len(fc.Args) > 0 && (passThrough[fc.Name] && len(cmdfacts.ParseArgs(fc.Args[1:], syntax("head")).Operands) == 0 ||
			cmdfacts.PicksLines(fc.Name, fc.Args[1:])) {
			var ups []int
			for _, u := range j.feeders(f) {
				if cmds[u].Feed == ir.FeedPipe {
					ups = append(ups, u)
				}
			}
			more, ok := j.itemsFrom(ups, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, more...)
			continue
		}
		words, ok := itemWords(fc)
		if !ok {
			return nil, false
		}
		base := j.dirOf(fc)
		for _, w := range words {
			for _, r := range j.resolve(w, base, fc.Dialect) {
				x := r.p
				if x.Kind == paths.Relative {
					x = j.p.Join(base, x)
				}
				out = append(out, x)
			}
		}
	}
	return out, true
}

// itemWords returns the words whose paths (or paths below them) command c
// prints one per line, when c is a known path lister.
func itemWords(c *ir.Command) ([]ir.Word, bool) {
	if len(c.Args) == 0 {
		return nil, false
	}
	args := c.Args[1:]
	dot := []ir.Word{cmdfacts.Literal(".")}
	orDot := func(ws []ir.Word) []ir.Word {
		if len(ws) == 0 {
			return dot
		}
		return ws
	}
	switch c.Name {
	case "find":
		return cmdfacts.ParseFind(args).Roots, true
	case "fd", "fdfind":
		return cmdfacts.FdRoots(args), true
	case "ls":
		return orDot(cmdfacts.ParseArgs(args, syntax("ls")).Operands), true
	case "echo":
		for len(args) > 0 && (args[0].Value == "-n" || args[0].Value == "-e" || args[0].Value == "-E") {
			args = args[1:]
		}
		return splitItems(args), true
	case "printf":
		if len(args) > 1 && args[0].Value == "-v" {
			args = args[2:]
		}
		switch {
		case len(args) > 1:
			return splitItems(args[1:]), true
		case len(args) == 1:
			return splitItems(args), true // printf '/\n': the format is the output
		}
		return nil, true
	case "git":
		if len(args) > 0 && (args[0].Value == "ls-files" || args[0].Value == "diff" || args[0].Value == "status" || args[0].Value == "grep") {
			return dot, true
		}
	case "grep", "egrep", "fgrep", "rg":
		p := cmdfacts.ParseArgs(args, grepSpec)
		if !p.Has("l", "L", "files-with-matches", "files-without-match", "files") {
			return nil, false
		}
		ops := p.Operands
		if c.Name != "rg" || !p.Has("files") {
			if !p.Has("e", "f", "regexp", "file") && len(ops) > 0 {
				ops = ops[1:]
			}
		}
		return orDot(ops), true
	}
	return nil, false
}

// splitItems splits the words echo or printf print into the items xargs
// reads: at blanks and line breaks (written as \n too). Unknown words stay
// whole.
func splitItems(ws []ir.Word) []ir.Word {
	var out []ir.Word
	for _, w := range ws {
		if w.Unknown || !strings.ContainsAny(w.Value, " \t\n\\") {
			out = append(out, w)
			continue
		}
		v := strings.ReplaceAll(strings.ReplaceAll(w.Value, `\n`, "\n"), `\t`, "\t")
		for _, f := range strings.Fields(v) {
			out = append(out, cmdfacts.Literal(f))
		}
	}
	return out
}

var (
	grepSpec = syntax("grep")
)
