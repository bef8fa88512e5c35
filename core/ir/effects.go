package ir

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

// Effect is one thing a command does to files, typed: the layers judge
// effects (a delete of /, a write onto /etc/passwd, a recursive chmod of
// ~) and leave the reading of the command line to core/cmdfacts, which
// computes them (cmdfacts.FillEffects) for Command.Effects.
type Effect struct {
	Op EffectOp
	// Targets are the files or directories, as written (relative ones in
	// the command's directory).
	Targets []Word
	// Recursive: the effect reaches everything below a directory target
	// (rm -r, chmod -R).
	Recursive bool
	// Force: the command does not ask or stop on its own (rm -f).
	Force bool
}
