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
	// EffectCopy writes the targets from Sources (cp, install): a target
	// is created or replaced by a copy of the sources, or, with Into,
	// receives them under their own names.
	EffectCopy
	// EffectMove is a copy that removes its Sources (mv).
	EffectMove
	// EffectLink makes the targets links to Sources (ln): written like a
	// copy's, the sources left in place.
	EffectLink
)

// String names the op ("delete", "write", "modify", "copy", "move",
// "link").
func (op EffectOp) String() string {
	switch op {
	case EffectDelete:
		return "delete"
	case EffectWrite:
		return "write"
	case EffectModify:
		return "modify"
	case EffectCopy:
		return "copy"
	case EffectMove:
		return "move"
	case EffectLink:
		return "link"
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
	// Sources are what a copy, move or link takes (cp's SRC...), as
	// written; nil for the other ops.
	Sources []Word
	// Into: the targets are directories the sources land in under their
	// own names (cp -t DIR, ln TARGET with no link name); without it a
	// copy's, move's or link's one target is the new name itself, or a
	// directory they land in when it exists (cp a b DIR).
	Into bool
	// Recursive: the effect reaches everything below a directory target
	// (rm -r, chmod -R).
	Recursive bool
	// Force: the command does not ask or stop on its own (rm -f).
	Force bool
	// Sync: the targets also lose what the sources lack (rsync --delete):
	// a copy that deletes below its targets.
	Sync bool
	// Option is the option, as written, that gives the effect its reach
	// (rsync's --delete-after for Sync), for a message; "" when none.
	Option string
	// RemoteSources: some sources are on another host (rsync's
	// host:path) and are not in Sources; what they bring is not known
	// here.
	RemoteSources bool
	// Symbolic: a link's targets are symbolic links whose text is the
	// source as written (ln -s, cp -s); without it a link is a hard link
	// (ln, cp -l, link).
	Symbolic bool
	// Relative: a symbolic link's text is made relative to where the
	// link lies (ln -r), so it points at the source as written, read
	// from the command's directory like every other path; without it the
	// text is the source as written, read from the link's directory.
	Relative bool
}
