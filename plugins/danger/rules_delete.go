package danger

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/shell/winshell"
)

// deleteRules are the rules of this file and the command names they judge.
var deleteRules = []judging{
	on(ruleRm, "rm"),
	on(ruleRimraf, "rimraf"),
	on(ruleRmdir, "rmdir"),
	on(ruleWinDelete, "del", "erase", "rd"),
	on(ruleRemoveItem, "remove-item"),
	on(ruleFind, "find"),
	on(ruleShred, "shred"),
	on(ruleUnlink, "unlink"),
	on(ruleMv, "mv", "move"),
	on(ruleMoveItem, "move-item"),
	on(ruleDotNet, cmdfacts.DotNetFileCalls()...),
	on(ruleRsync, "rsync"),
	on(ruleRobocopy, "robocopy"),
	on(ruleFd, "fd", "fdfind"),
}

// ruleRm: rm -r of a catastrophic target (DG-RM-RECURSIVE), rm
// --no-preserve-root (DG-RM-NO-PRESERVE-ROOT), rm of a glob over a
// catastrophic directory (DG-RM-GLOB), xargs rm of listed items
// (DG-XARGS-DELETE), critical files and unknown targets.
func ruleRm(v *cmdv) {
	rmTargets(v, cmdfacts.HasShort(v.args, "rR") || cmdfacts.HasLong(v.args, "--recursive"))
}

// ruleRimraf: rimraf (also through npx) is rm -rf.
func ruleRimraf(v *cmdv) { rmTargets(v, true) }

// rmTargets judges the operands of an rm-like command.
func rmTargets(v *cmdv, recursive bool) {
	args := v.args
	noPreserve := cmdfacts.HasLong(args, "--no-preserve-root")
	want := hitCatastrophic | hitCritical
	if recursive || noPreserve {
		want |= hitUnknown | hitRepo
	}
	ops := cmdfacts.Operands(args)
	hs := v.targets(ops, want)
	if recursive {
		hs = v.wholeDirHits(ops, hs)
	}
	hs = v.fedFromFind(hs, ops, recursive)
	cat := pick(hs, hitCatastrophic)
	if noPreserve {
		shown := append(cat, pick(hs, hitUnknown)...)
		if len(shown) == 0 {
			for _, w := range ops {
				if p := v.j.plat.Normalize(w.Value); p.IsAbs() {
					shown = append(shown, hit{kind: hitCatastrophic, shown: p.Norm})
				}
			}
		}
		v.report(rules.RmNoPreserveRoot, "", shown)
		if len(shown) > 0 {
			v.report(rules.CriticalFile, "", pick(hs, hitCritical))
			return
		}
	}
	fed, own := splitInput(cat, v.viaArgs())
	v.report(rules.XargsDelete, "", fed)
	if recursive {
		v.report(rules.RmRecursive, "", own)
	} else {
		v.report(rules.RmGlob, "", globbed(own))
	}
	v.reportRepo("", hs)
	v.reportCommon(hs)
}

// wholeDirHits adds to hs the directories the operands empty of every
// entry, dot entries included, judged as the directory itself: a glob
// over every plain entry with the shell's dotglob on (shopt -s dotglob,
// GLOBIGNORE, setopt globdots) or a zsh D qualifier, or beside a glob
// over every dot entry of the same directory (* .*, ./* ./.[!.]*,
// {*,.*}). At the project root that is the project (DG-PROJECT-DELETE,
// which then stands for the .git the dot glob hits too); home and / are
// already catastrophic through their globs.
func (v *cmdv) wholeDirHits(ops []ir.Word, hs []hit) []hit {
	type cover struct{ plain, dots bool }
	var dirs map[string]*cover
	var order []string
	dotglob := -1 // unknown until a glob needs it
	for _, w := range ops {
		if w.Unknown || !strings.ContainsAny(w.Value, "*?[") {
			continue
		}
		abs, ok := v.absDir(w)
		if !ok {
			continue
		}
		dir, last := splitLast(abs)
		if dir == "" {
			continue
		}
		if dotglob < 0 {
			dotglob = 0
			if v.dotglob() {
				dotglob = 1
			}
		}
		plain, dots := cmdfacts.GlobCovers(last, dotglob == 1)
		if !plain && !dots {
			continue
		}
		if dirs == nil {
			dirs = map[string]*cover{}
		}
		c := dirs[dir]
		if c == nil {
			c = &cover{}
			dirs[dir] = c
			order = append(order, dir)
		}
		c.plain, c.dots = c.plain || plain, c.dots || dots
	}
	for _, dir := range order {
		if c := dirs[dir]; !c.plain || !c.dots {
			continue
		}
		p := v.j.plat.Clean(dir)
		if cat, _ := v.j.catastrophic(p); cat {
			continue
		}
		whole := pick(v.pathHits(p, hitRepo), hitProject)
		if len(whole) == 0 {
			continue
		}
		kept := hs[:0:0]
		for _, h := range hs {
			if d, _ := splitLast(h.shown); h.kind != hitRepo || d != dir {
				kept = append(kept, h)
			}
		}
		hs = append(kept, whole...)
	}
	return hs
}

// dotglob reports whether the shell's dotglob is on when the command
// runs: the last command before it in the line that sets or clears it
// (cmdfacts.DotGlobSetting) decides.
func (v *cmdv) dotglob() bool {
	on := false
	for k := 0; k < v.i && k < len(v.j.s.Commands); k++ {
		if set, o := cmdfacts.DotGlobSetting(&v.j.s.Commands[k]); set {
			on = o
		}
	}
	return on
}

// splitInput separates the hits derived from xargs input (when the command
// runs under xargs) from the others.
func splitInput(hs []hit, underArgs bool) (fed, own []hit) {
	for _, h := range hs {
		if h.fromInput && underArgs {
			fed = append(fed, h)
		} else {
			own = append(own, h)
		}
	}
	return fed, own
}

// globbed returns the hits that stand for everything in a directory: a
// glob target, or items a $(...) lists.
func globbed(hs []hit) []hit {
	var out []hit
	for _, h := range hs {
		if h.fromInput || strings.ContainsAny(h.shown, "*?[") {
			out = append(out, h)
		}
	}
	return out
}

// ruleRmdir: POSIX rmdir of a catastrophic directory (DG-RMDIR); with
// cmd.exe switches (rmdir /s /q) it is the Windows command.
func ruleRmdir(v *cmdv) {
	if v.c.Dialect == ir.Cmd || hasSlashSwitch(v.args) {
		ruleWinDelete(v)
		return
	}
	hs := v.targets(cmdfacts.Operands(v.args), hitCatastrophic)
	fed, own := splitInput(hs, v.viaArgs())
	v.report(rules.XargsDelete, "", fed)
	v.report(rules.Rmdir, "", own)
}

func hasSlashSwitch(args []ir.Word) bool {
	for _, a := range args {
		if isSlashSwitch(a) {
			return true
		}
	}
	return false
}

// ruleWinDelete: cmd.exe del, erase, rd, rmdir of a catastrophic target
// (DG-WIN-DELETE); no /s is needed (del C:\Users\x deletes the files in
// the profile's top level).
func ruleWinDelete(v *cmdv) {
	switches, ops := winshell.CmdSwitches(v.c.Args)
	want := hitCatastrophic | hitCritical
	for _, s := range switches {
		if s == "s" {
			want |= hitUnknown | hitRepo
		}
	}
	hs := v.targets(ops, want)
	v.report(rules.WinDelete, "", pick(hs, hitCatastrophic))
	v.reportRepo("", hs)
	v.reportCommon(hs)
}

// ruleRemoveItem: PowerShell Remove-Item (rm, del, ri, rd, rmdir, erase
// in PowerShell) of a catastrophic target, named or piped in from
// Get-ChildItem (DG-PS-REMOVE); a registry hive or first-level key
// (DG-REG-DELETE).
func ruleRemoveItem(v *cmdv) {
	pc := winshell.ParsePowerShellCommand(v.c.Args)
	if pc.WhatIf {
		return
	}
	dels, _ := pc.Targets()
	var words []ir.Word
	for _, w := range dels {
		if isSlashSwitch(w) {
			continue
		}
		if key, ok := cmdfacts.RegistryWord(w, v.c.Cd); ok {
			if shown, rule := criticalKey(key, false); rule != nil {
				v.report(rule, "", []hit{{shown: shown}})
			}
			continue
		}
		words = append(words, w)
	}
	if len(dels) == 0 {
		v.registryListed()
	}
	want := hitCatastrophic | hitCritical
	if pc.Switches["recurse"] {
		want |= hitUnknown | hitRepo
	}
	hs := v.targets(words, want)
	if len(dels) == 0 {
		v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
			if kind == ir.FeedPipe {
				hs = append(hs, v.j.listedHits(k, hitCatastrophic, "")...)
			}
			return true
		})
		if pc.Switches["recurse"] {
			hs = append(hs, v.listedRepoHits()...)
		}
	}
	v.report(rules.PSRemove, "", pick(hs, hitCatastrophic))
	v.reportRepo("", hs)
	v.reportCommon(hs)
}

// ruleFind: find -delete, or -exec/-ok of rm/unlink/shred/rmdir, under a
// catastrophic start path (DG-FIND-DELETE). A recursive rm run by -exec is
// left to ruleRm, which sees it as a command of its own.
func ruleFind(v *cmdv) {
	f := cmdfacts.ParseFind(v.args)
	deletes := f.Delete
	ruleFindRepo(v, f)
	for _, e := range f.Execs {
		if len(e.Argv) == 0 {
			continue
		}
		run := e.Argv[1:]
		switch ir.CommandName(e.Argv[0].Value) {
		case "unlink", "shred", "rmdir":
			deletes = true
		case "rm":
			deletes = deletes || !(cmdfacts.HasShort(run, "rR") || cmdfacts.HasLong(run, "--recursive"))
		}
	}
	if !deletes {
		return
	}
	hs := v.targets(f.Roots, hitCatastrophic|hitUnknown)
	v.report(rules.FindDelete, "", pick(hs, hitCatastrophic))
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// ruleFd: fd (fdfind) whose -x/-X command recursively deletes what fd
// finds (rm -r with a placeholder, or none). From the project root (or a
// directory holding it) with hidden entries searched and nothing leaving
// any out, it is the whole project with its history (DG-PROJECT-DELETE,
// as find . -mindepth 1 -exec rm -rf {} +); without -H the dot entries
// stay, as with rm -rf *. Otherwise a pattern that picks .git, hidden
// entries searched and directories let through, deletes every
// repository's history below (DG-GIT-REPO-DELETE, as find . -name .git
// -exec rm -rf {} +). Catastrophic search paths (fd . / -x rm -rf) are
// the rm's own business: its placeholder is judged as what fd lists.
func ruleFd(v *cmdv) {
	if !v.fdRemovesResults() {
		return
	}
	f := cmdfacts.ParseFd(v.args)
	if f.Hidden && !f.Filtered {
		var roots []ir.Word
		for _, r := range f.Roots {
			if dir, ok := v.absDir(r); ok && f.PicksAll(dir) {
				roots = append(roots, r)
			}
		}
		if hs := repoOnly(v.targets(roots, hitCatastrophic|hitRepo), hitProject); len(hs) > 0 {
			v.report(rules.ProjectDelete, "", hs)
			return
		}
	}
	for _, r := range f.Roots {
		dir, ok := v.absDir(r)
		if !ok {
			dir = shownRaw(r)
		}
		if len(v.targets([]ir.Word{r}, hitCatastrophic)) > 0 {
			continue // rm's own rule names the catastrophic directory
		}
		if ok && f.PicksAll(dir) && !(v.j.project.IsAbs() && v.j.plat.Contains(v.j.plat.Clean(dir), v.j.project)) {
			continue // everything in a directory that is not the project's: as rm -rf dist/* dist/.* (strayDotGlob)
		}
		if f.PicksGitDir(dir) {
			shown := strings.Join(operandTexts(f.Roots), " ")
			if f.Pattern != nil {
				shown += " " + shownRaw(*f.Pattern)
			}
			v.report(rules.GitRepoDelete, "", []hit{{kind: hitRepo, shown: shown}})
			return
		}
	}
}

// fdRemovesResults reports whether a command fd -x/-X runs (as the shell
// analysis gives it, wrappers such as sudo stripped) is a recursive rm of
// each result: an argument that is a placeholder, or the appended path.
func (v *cmdv) fdRemovesResults() bool {
	cmds := v.j.s.Commands
	for k := v.i + 1; k < len(cmds); k++ {
		c := &cmds[k]
		if c.Parent != v.i || c.Name != "rm" || !slices.ContainsFunc(c.Via, func(s ir.Via) bool { return s.Kind == ir.ViaFdExec }) {
			continue
		}
		run := c.Args[1:]
		if !cmdfacts.HasShort(run, "rR") && !cmdfacts.HasLong(run, "--recursive") {
			continue
		}
		for _, w := range run {
			if w.Unknown && (w.Raw == analysis.InputPlaceholder || cmdfacts.IsFdPlaceholder(w.Raw)) {
				return true
			}
		}
	}
	return false
}

// absDir resolves a directory operand against the command's directory;
// ok is false when it cannot be (unknown word or directory).
func (v *cmdv) absDir(w ir.Word) (string, bool) {
	if w.Unknown {
		return "", false
	}
	p := v.j.plat.Normalize(w.Value)
	if p.Kind == paths.Relative {
		base, _ := v.baseDir()
		if !base.IsAbs() {
			return "", false
		}
		p = v.j.plat.Join(base, p)
	}
	return p.Norm, p.IsAbs()
}

// ruleShred: shred of a disk, a critical file or a catastrophic target
// (DG-SHRED).
func ruleShred(v *cmdv) {
	ops, _ := v.effectTargets(ir.EffectWrite)
	hs := v.targets(ops, hitCatastrophic|hitCritical|hitDisk|hitUnknown|hitRepo)
	hs = v.fedFromFind(hs, ops, false)
	fed, own := splitInput(pick(hs, hitCatastrophic|hitCritical|hitDisk), v.viaArgs())
	v.report(rules.XargsDelete, "", fed)
	v.report(rules.Shred, "", own)
	v.report(rules.GitRepoDelete, "", repoOnly(hs, hitRepo)) // shred never recurses: a directory is no project delete
	v.report(rules.UnresolvedTarget, "", pick(hs, hitUnknown))
}

// ruleUnlink: unlink of a critical file.
func ruleUnlink(v *cmdv) {
	ops, _ := v.effectTargets(ir.EffectDelete)
	v.reportCommon(v.targets(ops, hitCritical))
}

// ruleMv: mv (or cmd.exe move) of a catastrophic source (DG-MV-SOURCE),
// or of/onto a critical file.
func ruleMv(v *cmdv) {
	var sources, dest []ir.Word
	if v.name == "move" || v.c.Dialect == ir.Cmd {
		_, ops := winshell.CmdSwitches(v.c.Args)
		if len(ops) == 0 {
			return
		}
		sources, dest = ops[:len(ops)-1], ops[len(ops)-1:]
	} else {
		for _, e := range v.c.Effects {
			sources, dest = append(sources, e.Sources...), append(dest, e.Targets...)
		}
	}
	hs := v.targets(sources, hitCatastrophic|hitCritical)
	v.report(rules.MvSource, "", pick(hs, hitCatastrophic))
	v.report(rules.CriticalFile, "", append(pick(hs, hitCritical), v.targets(dest, hitCritical)...))
}

// ruleDotNet: a PowerShell .NET file call ([System.IO.Directory]::Delete,
// [IO.File]::WriteAllText, ...) deleting a catastrophic target
// (DG-PS-REMOVE), or deleting or writing a critical file or a disk.
func ruleDotNet(v *cmdv) {
	var dels, writes []ir.Word
	ops, _ := cmdfacts.DotNetFileCall(v.name)
	for _, op := range ops {
		if op.Index >= len(v.args) {
			continue
		}
		if op.Op == cmdfacts.FileWrite {
			writes = append(writes, v.args[op.Index])
		} else {
			dels = append(dels, v.args[op.Index])
		}
	}
	hs := v.targets(dels, hitCatastrophic|hitCritical|hitRepo)
	v.report(rules.PSRemove, "", pick(hs, hitCatastrophic))
	v.reportRepo("", hs)
	v.report(rules.CriticalFile, "", pick(hs, hitCritical))
	v.writes(writes)
}

// ruleMoveItem: PowerShell Move-Item of a catastrophic source.
func ruleMoveItem(v *cmdv) {
	dels, writes := winshell.ParsePowerShellCommand(v.c.Args).Targets()
	v.registryKeys(dels, false)
	hs := v.targets(dels, hitCatastrophic|hitCritical)
	v.report(rules.MvSource, "", pick(hs, hitCatastrophic))
	v.report(rules.CriticalFile, "", append(pick(hs, hitCritical), v.targets(writes, hitCritical)...))
}

// ruleRsync: rsync with a --delete option into a catastrophic destination
// (DG-RSYNC-DELETE) or the project, and rsync --remove-source-files of a
// catastrophic source (DG-MV-SOURCE): the sync and move effects of
// Command.Effects.
func ruleRsync(v *cmdv) {
	for _, e := range v.c.Effects {
		if e.Op == ir.EffectMove {
			v.report(rules.MvSource, "", v.targets(e.Sources, hitCatastrophic))
		}
		if !e.Sync {
			continue
		}
		hs := v.targets(e.Targets, hitCatastrophic|hitRepo)
		v.report(rules.RsyncDelete, e.Option, pick(hs, hitCatastrophic))
		v.reportRepo(e.Option, hs)
	}
}

// ruleRobocopy: robocopy /MIR or /PURGE into a catastrophic destination
// (DG-RSYNC-DELETE).
func ruleRobocopy(v *cmdv) {
	switches, ops := winshell.CmdSwitches(v.c.Args)
	detail := ""
	for _, s := range switches {
		if s == "mir" || s == "purge" {
			detail = "/" + strings.ToUpper(s)
		}
	}
	if detail == "" || len(ops) < 2 {
		return
	}
	v.report(rules.RsyncDelete, detail, v.targets(ops[1:2], hitCatastrophic))
}
