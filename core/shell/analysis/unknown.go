package analysis

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

// A command word that is wholly unknown ($X, "$SUDO", ${RUNNER},
// $(which sudo)) and followed by a known command name is most often a
// wrapper (sudo, doas, env, a runner) or empty, so the rest is also
// reported as a nested command, Via "unknown wrapper": `$SUDO rm -rf /`
// reports rm -rf / one level under the unknown command. Several unknown
// words in a row ($A $B rm) are skipped alike. Only names in
// wrappedCommands count, so `$EDITOR notes.md` or `$CC -o x main.c` report
// nothing more.

// wrappedCommands are the names taken as the wrapped command after an
// unknown command word, besides the wrappers, the commands with a nested
// handler and the interpreters: commands that delete, overwrite, change
// permissions or the system, fetch or install, and cd (whose effect makes
// the directory unknown).
var wrappedCommands = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`rm rmdir unlink shred rimraf mv cp ln install dd truncate tee
		chmod chown chgrp chattr setfacl wipefs blkdiscard fdisk sfdisk sgdisk gdisk parted diskutil
		mkswap mke2fs kill pkill killall shutdown reboot halt poweroff systemctl launchctl crontab
		cd chdir pushd popd iptables ip6tables nft ufw git curl wget rsync scp tar unzip sed gsed perl npm npx pnpm yarn
		pip pip3 apt apt-get dnf yum brew docker kubectl make
		del erase rd format diskpart reg robocopy icacls takeown cipher vssadmin wmic bcdedit schtasks sc net netsh`) {
		wrappedCommands[n] = true
	}
}

// isWrappedCommand reports whether name counts as a command after an
// unknown command word.
func isWrappedCommand(name string) bool {
	if name == "" {
		return false
	}
	if wrappedCommands[name] || nestedHandlers[name] != nil || cmdfacts.InterpreterLang(name) != "" || strings.HasPrefix(name, "mkfs") {
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
