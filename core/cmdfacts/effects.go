package cmdfacts

import (
	"maps"
	"slices"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// What a command does to files, typed: the layers judge effects (a delete
// of /, a write onto /etc/passwd, a recursive chmod of ~) and leave the
// reading of the command line to this package. EffectsOf covers the file
// commands whose command line both layers read the same way; a command it
// does not cover gives nil, and the layers still read those themselves.

// EffectOp is what an effect does to its targets.
type EffectOp uint8

const (
	// EffectDelete removes the targets (rm, rmdir, unlink).
	EffectDelete EffectOp = iota + 1
	// EffectWrite creates or overwrites the targets (touch, mkdir, tee,
	// truncate, shred's overwrite).
	EffectWrite
	// EffectModify changes the targets' mode, owner, attributes or ACLs
	// (chmod, chown, chgrp, chattr, setfacl).
	EffectModify
)

// String names the op ("delete", "write", "modify").
func (op EffectOp) String() string {
	switch op {
	case EffectDelete:
		return "delete"
	case EffectWrite:
		return "write"
	case EffectModify:
		return "modify"
	}
	return "none"
}

// Effect is one thing a command does to files.
type Effect struct {
	Op EffectOp
	// Targets are the files or directories, as written (relative ones in
	// the command's directory).
	Targets []ir.Word
	// Recursive: the effect reaches everything below a directory target
	// (rm -r, chmod -R).
	Recursive bool
	// Force: the command does not ask or stop on its own (rm -f).
	Force bool
}

// EffectsOf returns what command name (a normalised Command.Name) does to
// files, given args (the words after the command word), read by its
// Syntax: nil when the command is not one EffectsOf covers or does
// nothing to a file. Cost: that of ParseArgs.
func EffectsOf(name string, args []ir.Word) []Effect {
	if f := effectReaders[name]; f != nil {
		return f(name, args)
	}
	return nil
}

// EffectNames returns the command names EffectsOf covers, sorted.
func EffectNames() []string { return slices.Sorted(maps.Keys(effectReaders)) }

func deleteEffects(name string, args []ir.Word) []Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) == 0 {
		return nil
	}
	return []Effect{{Op: EffectDelete, Targets: p.Operands, Recursive: name == "rimraf" || p.Has("r", "R", "recursive"),
		Force: p.Has("f", "force")}}
}

func writeEffects(name string, args []ir.Word) []Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) == 0 {
		return nil
	}
	return []Effect{{Op: EffectWrite, Targets: p.Operands}}
}

func firstWriteEffect(name string, args []ir.Word) []Effect {
	p := ParseCommand(name, args)
	if len(p.Operands) == 0 {
		return nil
	}
	return []Effect{{Op: EffectWrite, Targets: p.Operands[:1]}}
}

func permissionEffects(name string, args []ir.Word) []Effect {
	files, recursive, _ := PermissionChange(name, args)
	if len(files) == 0 {
		return nil
	}
	return []Effect{{Op: EffectModify, Targets: files, Recursive: recursive}}
}
