package cmdfacts

import "strings"

// apply_patch is the file-editing format of OpenAI's Codex: a patch text of
// "*** Begin Patch", file sections and "*** End Patch". Codex offers it as
// a tool (a freeform tool whose input is the text; its PreToolUse hook
// names the tool apply_patch with the text in tool_input.command) and also
// recognises it in a shell call: `apply_patch <<'EOF' ... EOF` (or the text
// as the one argument) run through exec_command is applied by Codex itself,
// and the hook sees a Bash call with that command line (both measured with
// Codex 0.171.0, core/agenthost/testdata/hosts/codex-*.json).

// applyPatchNames are the command names Codex applies a patch for.
var applyPatchNames = []string{"apply_patch", "applypatch"}

// IsApplyPatch reports whether the command word name (a base name, as
// ir.Command.Name holds it) is apply_patch.
func IsApplyPatch(name string) bool {
	for _, n := range applyPatchNames {
		if name == n {
			return true
		}
	}
	return false
}

// PatchOp is what a patch does to one file.
type PatchOp int

const (
	// PatchAdd creates the file ("*** Add File: PATH").
	PatchAdd PatchOp = iota
	// PatchUpdate changes it in place ("*** Update File: PATH").
	PatchUpdate
	// PatchDelete removes it ("*** Delete File: PATH").
	PatchDelete
	// PatchMoveTo is where the preceding update moves its file
	// ("*** Move to: PATH"); that file is moved away.
	PatchMoveTo
)

// PatchFile is one file a patch touches, as written (relative paths are
// relative to the directory the patch is applied in).
type PatchFile struct {
	Op   PatchOp
	Path string
}

// patchMarkers are the section headers, by operation.
var patchMarkers = []struct {
	prefix string
	op     PatchOp
}{
	{"*** Add File:", PatchAdd},
	{"*** Update File:", PatchUpdate},
	{"*** Delete File:", PatchDelete},
	{"*** Move to:", PatchMoveTo},
}

// ParsePatch lists the files an apply_patch text touches, in order: every
// line that starts (after spaces and tabs) with a section header, with the
// trimmed, non-empty rest as the path. It reads headers anywhere, not only
// between Begin and End, and ignores everything else, so a malformed patch
// still names every file it could touch. Linear in len(text).
func ParsePatch(text string) []PatchFile {
	var out []PatchFile
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimRight(strings.TrimLeft(line, " \t"), "\r")
		if !strings.HasPrefix(line, "*** ") {
			continue
		}
		for _, m := range patchMarkers {
			if rest, ok := strings.CutPrefix(line, m.prefix); ok {
				if p := strings.TrimSpace(rest); p != "" {
					out = append(out, PatchFile{Op: m.op, Path: p})
				}
				break
			}
		}
	}
	return out
}
