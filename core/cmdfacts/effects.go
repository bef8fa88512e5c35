package cmdfacts

import (
	"maps"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// What a command does to files, typed (ir.Effect): EffectsOf covers the
// file commands whose command line both layers read the same way; a
// command it does not cover gives nil, and the layers still read those
// themselves. FillEffects attaches them to an ir.Command once, when the
// command is built; the layers read Command.Effects.

// FillEffects sets c.Effects to what the command does to files, read by
// EffectsOf under name from c.Args[1:]. name is the name the command runs
// as, the one the layers key their rules on: c.Name, else c.NameIfEmpty
// (r${X}m runs rm when X is empty); "" for a PowerShell cmdlet or an alias
// of one (rm is Remove-Item there, which binds its own parameters), which
// gives no effects. Every builder of a Command a layer judges calls it:
// the shell analysis for each command it reports, and a layer for a
// command it makes itself. Cost: one map lookup for a command EffectsOf
// does not cover, else that of ParseArgs.
func FillEffects(c *ir.Command, name string) {
	c.Effects = nil
	if name == "" || len(c.Args) == 0 {
		return
	}
	c.Effects = EffectsOf(name, c.Args[1:])
}

// EffectsOf returns what command name (a normalised Command.Name) does to
// files, given args (the words after the command word), read by its
// Syntax: nil when the command is not one EffectsOf covers or does
// nothing to a file. Cost: that of ParseArgs.
func EffectsOf(name string, args []ir.Word) []ir.Effect {
	if f := effectReaders[name]; f != nil {
		return f(name, args)
	}
	return nil
}

// HasEffects reports whether EffectsOf covers command name.
func HasEffects(name string) bool { return effectReaders[name] != nil }

// EffectNames returns the command names EffectsOf covers, sorted.
func EffectNames() []string { return slices.Sorted(maps.Keys(effectReaders)) }

func deleteEffects(name string, args []ir.Word) []ir.Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectDelete, Targets: p.Operands, Recursive: name == "rimraf" || p.Has("r", "R", "recursive"),
		Force: p.Has("f", "force")}}
}

func writeEffects(name string, args []ir.Word) []ir.Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectWrite, Targets: p.Operands}}
}

func firstWriteEffect(name string, args []ir.Word) []ir.Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectWrite, Targets: p.Operands[:1]}}
}

func permissionEffects(name string, args []ir.Word) []ir.Effect {
	files, recursive, _ := PermissionChange(name, args)
	if len(files) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectModify, Targets: files, Recursive: recursive}}
}

// copyOps are the ops of the copy-like commands.
var copyOps = map[string]ir.EffectOp{"cp": ir.EffectCopy, "install": ir.EffectCopy, "mv": ir.EffectMove, "ln": ir.EffectLink}

// copyEffects: cp / mv / ln / install SRC... DEST, or -t DIR SRC...; ln
// TARGET links into the current directory; install -d DIR... creates
// directories. cp -l and cp -s link instead of copying; ln -s and cp -s
// make symbolic links.
func copyEffects(name string, args []ir.Word) []ir.Effect {
	p := ParseCommand(name, args)
	e := ir.Effect{Op: copyOps[name], Force: p.Has("f", "force")}
	switch {
	case name == "ln":
		// ln's -r is --relative, not a recursion
		e.Symbolic = p.Has("s", "symbolic")
		e.Relative = e.Symbolic && p.Has("r", "relative")
	case name == "mv":
		e.Recursive = true
	default:
		e.Recursive = p.Has("r", "R", "a", "recursive", "archive")
	}
	switch {
	case name == "cp" && p.Has("s", "symbolic-link"):
		e.Op, e.Symbolic = ir.EffectLink, true
	case name == "cp" && p.Has("l", "link"):
		e.Op = ir.EffectLink
	}
	switch t := p.Values("t", "target-directory"); {
	case name == "install" && p.Has("d", "directory"):
		if len(p.Operands) == 0 {
			return nil
		}
		return []ir.Effect{{Op: ir.EffectWrite, Targets: p.Operands}}
	case len(t) > 0:
		e.Targets, e.Sources, e.Into = t, p.Operands, true
	case len(p.Operands) >= 2:
		n := len(p.Operands) - 1
		e.Targets, e.Sources = p.Operands[n:], p.Operands[:n]
	case name == "ln" && len(p.Operands) == 1:
		e.Targets, e.Sources, e.Into = []ir.Word{Literal(".")}, p.Operands, true
	default:
		return nil
	}
	return []ir.Effect{e}
}

// inPlaceEffects: sed -i / --in-place FILE... (every operand after the
// script, or every operand with -e/-f/--expression/--file) rewrites its
// files. GNU's optional suffix is glued to -i, so -ie means suffix "e";
// BSD's separate suffix (an empty word or .bak) is read as the script,
// which only adds a harmless relative name.
func inPlaceEffects(name string, args []ir.Word) []ir.Effect {
	inPlace, script, done := false, false, false
	var ops []ir.Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		if done || !IsOption(w) {
			ops = append(ops, w)
			continue
		}
		if v == "--" {
			done = true
			continue
		}
		if strings.HasPrefix(v, "--") {
			name, _, eq := strings.Cut(v[2:], "=")
			switch name {
			case "in-place":
				inPlace = true
			case "expression", "file":
				script = true
				if !eq {
					i++
				}
			case "line-length":
				if !eq {
					i++
				}
			}
			continue
		}
	cluster:
		for k := 1; k < len(v); k++ {
			switch v[k] {
			case 'i':
				inPlace = true
				break cluster
			case 'e', 'f':
				script = true
				if k+1 == len(v) {
					i++
				}
				break cluster
			case 'l':
				if k+1 == len(v) {
					i++
				}
				break cluster
			}
		}
	}
	if !inPlace {
		return nil
	}
	if !script && len(ops) > 0 {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectWrite, Targets: ops}}
}

// ddEffects: dd writes the file of every of=FILE operand (dd keeps the
// last; each is judged). The operand's name is read case-insensitively,
// as the danger gate always has (OF=/dev/sda).
func ddEffects(_ string, args []ir.Word) []ir.Effect {
	var out []ir.Word
	for _, w := range args {
		if len(w.Value) >= 3 && strings.EqualFold(w.Value[:3], "of=") && (!w.Unknown || len(w.KnownPrefix) >= 3) {
			out = append(out, SubWord(w, 3))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectWrite, Targets: out}}
}

// rsyncDeletes are rsync's options by which the destination also loses
// what the sources lack: --delete and its timings (--del is
// --delete-during), --delete-excluded (implies --delete), and
// --delete-missing-args (a source argument that does not exist deletes
// the destination's file of that name).
var rsyncDeletes = []string{"delete", "del", "delete-before", "delete-during", "delete-delay", "delete-after",
	"delete-excluded", "delete-missing-args"}

// rsyncEffects: rsync SRC... DEST copies the local sources into a local
// DEST (a sync with a --delete option, Option naming the first given; a
// move with --remove-source-files, whose sources are removed file by
// file whatever DEST is); --log-file, --write-batch and
// --only-write-batch write their files. Remote operands (RemoteSpec) are
// left out: a remote DEST gives no target, a remote source sets
// RemoteSources.
func rsyncEffects(name string, args []ir.Word) []ir.Effect {
	p := ParseCommand(name, args)
	var out []ir.Effect
	if logs := p.Values("log-file", "write-batch", "only-write-batch"); len(logs) > 0 {
		out = append(out, ir.Effect{Op: ir.EffectWrite, Targets: logs})
	}
	d, ok := p.Last(2)
	if !ok {
		return out
	}
	e := ir.Effect{Op: ir.EffectCopy, Recursive: p.Has("r", "a", "recursive", "archive")}
	if p.Has("remove-source-files", "remove-sent-files") {
		e.Op = ir.EffectMove
	}
	for _, o := range p.Opts {
		if slices.Contains(rsyncDeletes, o.Name) {
			e.Sync, e.Option = true, "--"+o.Name
			break
		}
	}
	if !RemoteSpec(d.Value) {
		e.Targets = []ir.Word{d}
	}
	for _, s := range p.Operands[:len(p.Operands)-1] {
		if RemoteSpec(s.Value) {
			e.RemoteSources = true
		} else {
			e.Sources = append(e.Sources, s)
		}
	}
	if len(e.Targets) == 0 && (e.Op != ir.EffectMove || len(e.Sources) == 0) {
		return out
	}
	return append(out, e)
}

// RemoteSpec reports whether an operand of rsync, scp, rclone or a
// container copy names a remote or container location ([user@]host:path,
// host::module, rsync://..., container:path) rather than a local path:
// a colon with no slash before it. A one-letter prefix (C:) is a Windows
// drive, so local.
func RemoteSpec(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	if c := v[0] | 0x20; i == 1 && 'a' <= c && c <= 'z' {
		return false
	}
	return !strings.ContainsAny(v[:i], `/\`)
}

// linkEffects: link FILE1 FILE2 makes FILE2 a hard link to FILE1 (exactly
// two operands, or link does nothing).
func linkEffects(name string, args []ir.Word) []ir.Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) != 2 {
		return nil
	}
	return []ir.Effect{{Op: ir.EffectLink, Targets: p.Operands[1:], Sources: p.Operands[:1]}}
}
