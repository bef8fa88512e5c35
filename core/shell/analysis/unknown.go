package analysis

import (
	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// A command word that is wholly unknown ($X, "$SUDO", ${RUNNER},
// $(which sudo)) and followed by a known command name is most often a
// wrapper (sudo, doas, env, a runner) or empty, so the rest is also
// reported as a nested command, Via "unknown wrapper": `$SUDO rm -rf /`
// reports rm -rf / one level under the unknown command. Several unknown
// words in a row ($A $B rm) are skipped alike. Only the commands a layer
// judges by name count (cmdfacts.Judged), besides the wrappers, the
// commands with a nested handler and the interpreters, so `$EDITOR
// notes.md` or `$CC -o x main.c` report nothing more.

// isWrappedCommand reports whether name counts as a command after an
// unknown command word.
func isWrappedCommand(name string) bool {
	if name == "" {
		return false
	}
	if cmdfacts.Judged(name) || nestedHandlers[name] != nil || cmdfacts.InterpreterLang(name) != "" {
		return true
	}
	_, ok := wrappers[name]
	return ok
}

// whollyUnknownWord reports a word with no known text at all.
func whollyUnknownWord(w xword) bool {
	for _, p := range w.parts {
		if !p.unknown && p.text != "" {
			return false
		}
	}
	return !w.known()
}

// unknownWrapper reports the command after the unknown command word(s) of
// ex, one level deeper, in a copy of ist (the state the command sees). If
// the unknown word is sudo, a cd there does not change this shell; if it is
// empty, it does: so a cd, pushd or popd makes the directory of st (the
// shell running ex) unknown afterwards.
func (a *analyzer) unknownWrapper(c ctx, ist, st *state, ex exec) {
	k := 0
	for k < len(ex.words) && k < maxWrappers && whollyUnknownWord(ex.words[k]) {
		k++
	}
	if k == 0 || k >= len(ex.words) || !isWrappedCommand(nameOf(ex.words[k])) {
		return
	}
	inner := nameOf(ex.words[k])
	a.nestedArgv(c, ist.clone(), ex.words[k:], "unknown wrapper", ex.idx)
	switch inner {
	case "cd", "chdir", "pushd", "popd", "set-location", "sl", "push-location", "pop-location":
		st.chdir(unknownStep("(unknown wrapper)"), c.dialect)
	}
}
