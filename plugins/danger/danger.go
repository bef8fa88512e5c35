// Package danger is the danger gate: it asks before a shell command does
// something catastrophic, irreversible or system-level — deletes a root, a
// home or a system directory, writes a disk, powers the machine off,
// destroys Git history or uncommitted work, runs code fetched from the
// network, installs persistence or turns a protection off — wherever the
// command sits (wrappers, bash -c, eval, $(...), xargs, find -exec,
// powershell -Command, cmd /c, interpreter one-liners). Everyday work inside
// the project (rm -rf node_modules, git push, chmod +x, find . -delete) and
// dangerous-looking text that is only data (echo "rm -rf /") stay silent.
//
// The layer judges the host's analysis of the command (core.Call.Script,
// made by core/shell) and never parses POSIX shell text itself; paths are
// normalised and judged with core/paths for the call's platform. One known
// gap of core/shell is bridged in gaps.go (literal code piped into an
// interpreter) and one of core/paths in targets.go (WSL's /mnt/c drive
// mounts), each in one marked function.
//
// # Rules
//
// Every ask carries one of these stable rule ids (one reason per distinct
// finding). "Catastrophic" means paths.IsCatastrophic after the target was
// resolved against the command's cd chain and the call's cwd: the
// filesystem, drive and share roots, home and its ancestors, a whole user
// profile (also ~NAME, %USERPROFILE%, $env:USERPROFILE), system
// directories; a glob over one (/etc/*, ~/.*) counts as the directory.
//
// Deletes:
//   - DG-RM-RECURSIVE: rm -r/-R/--recursive (or rimraf, also run by npx,
//     pnpm dlx, npm exec) of a catastrophic target, named or listed by a
//     $(...) (rm -rf $(ls /), rm -rf "$(dirname "$PWD")").
//   - DG-RM-NO-PRESERVE-ROOT: rm --no-preserve-root with an absolute or unknown target.
//   - DG-RM-GLOB: rm without -r of a glob over a catastrophic directory (rm /etc/*).
//   - DG-RMDIR: rmdir of a catastrophic directory.
//   - DG-WIN-DELETE: del, erase, rd, rmdir /s (cmd.exe) on a catastrophic target.
//   - DG-PS-REMOVE: Remove-Item (any alias), or a .NET delete
//     ([System.IO.Directory]::Delete, [IO.File]::Delete, VisualBasic
//     FileSystem), of a catastrophic target; also Get-ChildItem ROOT | Remove-Item.
//   - DG-FIND-DELETE: find -delete (or -exec rm/unlink/shred without -r) under a catastrophic start.
//   - DG-XARGS-DELETE: an xargs, parallel or fd -x/-X delete of items listed
//     from a catastrophic directory (find /, ls ~, echo /, fd . ~).
//   - DG-SHRED: shred of a disk, a critical file or a catastrophic glob.
//   - DG-MV-SOURCE: mv/Move-Item/move of a catastrophic source.
//   - DG-RSYNC-DELETE: rsync --delete* (robocopy /MIR /PURGE) into a catastrophic destination.
//   - DG-UNRESOLVED-TARGET: a recursive delete, find -delete, chmod -R or disk
//     write whose target is only unknown values ("$D", "$1"), becomes
//     catastrophic with its unknown variables empty or at their defaults
//     ($X/, $X/*, ${X:-/}, $DIR/bin), is a catastrophic directory followed
//     by unknown text (/$X, ~/$X), or is * . .. after a cd to an unknown
//     directory (cd $X && rm -rf *). $TMPDIR/x and ${TMPDIR:-/tmp}/x are not.
//   - DG-UNKNOWN-COMMAND: the command word is unknown until run time (a
//     variable, a substitution) and its flagged arguments name a
//     catastrophic target ($RM -rf /).
//   - DG-CRITICAL-FILE: deleting, overwriting, editing in place or chmod/chown
//     of /etc/passwd, shadow, gshadow, group, sudoers, fstab, master.passwd or
//     the Windows SAM/SYSTEM/SECURITY/SOFTWARE hives.
//
// Disk and system:
//   - DG-DD-DEVICE: dd of= a device (not /dev/null, /dev/zero, /dev/stdout, ...).
//   - DG-DD-TARGET: dd of= a catastrophic path.
//   - DG-DEVICE-WRITE: a redirect, tee, cp, install or pv writing onto a disk device.
//   - DG-MKFS: mkfs*, mke2fs, mkswap, newfs*, mkntfs ... on a device.
//   - DG-WIPEFS: wipefs -a/-o on a device.
//   - DG-PARTITION: blkdiscard, sgdisk, parted, sfdisk, fdisk, gdisk, cfdisk,
//     nvme format/sanitize on a device (not their listing modes).
//   - DG-DISKPART: diskpart, always.
//   - DG-DISKUTIL-WIPE: diskutil eraseDisk/eraseVolume/zeroDisk/partitionDisk/apfs delete...
//   - DG-FORMAT: format of a drive letter.
//   - DG-PS-DISK: Format-Volume, Clear-Disk, Remove-Partition, Initialize-Disk, Reset-PhysicalDisk.
//   - DG-REG-DELETE: reg delete (or Remove-Item HKLM:\...) of a hive or a first-level key.
//   - DG-VSSADMIN: vssadmin delete shadows / resize shadowstorage, wmic shadowcopy
//     delete, wbadmin delete catalog/backup/systemstatebackup, Win32_ShadowCopy | Remove-CimInstance.
//   - DG-CIPHER-W: cipher /w.
//   - DG-CHMOD-RECURSIVE: chmod/chown/chgrp/chattr/setfacl -R, icacls /T, takeown /R
//     on a catastrophic target.
//
// Power and boot:
//   - DG-POWEROFF: shutdown (not /a -a -c -k, help), reboot, halt, poweroff,
//     Stop-Computer, Restart-Computer, writes to /proc/sysrq-trigger.
//   - DG-SYSTEMCTL-POWER: systemctl/loginctl poweroff, reboot, halt, kexec,
//     soft-reboot, rescue, emergency (and isolate of those targets).
//   - DG-INIT-RUNLEVEL: init/telinit 0 or 6.
//   - DG-BCDEDIT-WRITE: bcdedit /set, /delete, /deletevalue, /import, /create, ...
//
// Git (also inside the project; git -C DIR, -c k=v and -c alias.X=... are followed):
//   - DG-GIT-FORCE-PUSH: push --force/-f, +refspec, --mirror, --delete/-d,
//     :branch, --prune (--force-with-lease stays silent, see ruleGitPush).
//   - DG-GIT-RESET-HARD: reset --hard, reset --merge.
//   - DG-GIT-CLEAN: clean with any -f spelling, unless -n/--dry-run.
//   - DG-GIT-BRANCH-D: branch -D, branch --delete --force.
//   - DG-GIT-STASH-DROP: stash drop, stash clear.
//   - DG-GIT-DISCARD: checkout -- PATH, checkout ., checkout -f,
//     checkout --pathspec-from-file, restore other than --staged only,
//     switch --discard-changes/-f.
//
// Code execution, persistence, protections:
//   - DG-RCE-PIPE: curl, wget, fetch, httpie, nc, Invoke-WebRequest,
//     Invoke-RestMethod, Net.WebClient output run by a shell, an interpreter,
//     eval, source, at or Invoke-Expression — by pipe, $(...), <(...),
//     PowerShell (...) or xargs; or a file downloaded earlier in the same
//     command line and then run (curl -o i.sh URL && sh i.sh, ./tool).
//   - DG-RCE-DECODED: base64 -d, xxd -r, openssl enc -d/base64 -d output run the same way.
//   - DG-PERSIST-CRON: crontab -r, or crontab installing a file or stdin.
//   - DG-PERSIST-SYSTEMD: systemctl enable/reenable.
//   - DG-PERSIST-SERVICE: sc create/config, New-Service, update-rc.d, chkconfig on.
//   - DG-PERSIST-REG: reg add, reg import, Set-/New-ItemProperty on a Run key.
//   - DG-PERSIST-SCHTASKS: schtasks /create /change, Register-ScheduledTask.
//   - DG-PERSIST-LAUNCHCTL: launchctl load, unload, bootstrap, bootout.
//   - DG-FIREWALL-OFF: ufw disable, netsh advfirewall ... state off, netsh
//     firewall set opmode disable, Set-NetFirewallProfile -Enabled False,
//     systemctl/service stop/disable/mask of firewalld/ufw/nftables/iptables,
//     iptables -F, nft flush ruleset, pfctl -d, Set-MpPreference -Disable* true,
//     stopping WinDefend/MpsSvc, setenforce 0, spctl --master-disable, csrutil disable.
//   - DG-SCRIPT-DELETE / DG-SCRIPT-WRITE: an interpreter one-liner (python -c,
//     node -e, perl -e, ruby -e, php -r, awk, osascript, ...) or a PowerShell
//     .NET call that deletes or writes a catastrophic target or a device.
//   - DG-FORK-BOMB: a function that calls itself in a pipe or in the
//     background (any name, not only ':'); cmd.exe %0|%0.
//
// Other:
//   - DG-CUSTOM: a custom_rules regex (Go RE2, case-sensitive, ';'-separated)
//     matches the whole command text or the text of any command in it. A
//     rule that does not compile is skipped and named in the verdict's
//     annotations ("custom_rules_skipped"); the others still apply.
//   - DG-TOO-DEEP: the analysis was truncated (nesting beyond shell.MaxDepth,
//     or a size limit), so part of the command could not be inspected.
//
// # Blind spots
//
// What the command text does not show: script files (bash x.sh, python
// x.py, make) and what they do, files downloaded by an earlier tool call,
// functions and aliases defined outside the command, payloads that do not
// decode. Single files in system directories (rm /usr/bin/python3)
// are not catastrophes by this layer's definition (the project fence asks
// about them); targets are judged lexically (a symlink to / is not
// followed). Unknown values are not blind spots: they ask where emptiness
// or an unknown directory could make the target catastrophic.
//
// # Options
//
// custom_rules (see DG-CUSTOM; compiled sets are cached by the rule string)
// and language (core.Call.Language: English reasons for "en", else Chinese).
//
// # Cost
//
// Pure string work over the commands of the analysis: a map lookup per
// command, path normalisation only for the arguments of the commands a
// rule is about. About a microsecond per everyday command (see
// BenchmarkDecide); no system calls, no regular expressions unless
// custom_rules is set.
package danger

import (
	"context"
	"fmt"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/config"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/shell"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
)

// Name is the layer's name.
const Name = "danger"

// KeyCustomRules is the danger gate's own setting; the host passes its
// value, with core.LanguageOption, as Call.Options.
const KeyCustomRules = "custom_rules"

// Enable is the setting that switches the danger gate on.
var Enable = config.Spec{
	Key: "enable_danger_gate", Kind: config.Bool, Default: "true",
	Title:       "Danger gate",
	Description: "Ask before catastrophic, irreversible or system-level commands (rm -rf ~, mkfs, dd of=/dev/sda, git push --force, curl | sh, ...).",
}

// Settings declares the danger gate's own settings.
var Settings = []config.Spec{{
	Key: KeyCustomRules, Kind: config.String,
	Title:       "Custom danger rules",
	Description: "Extra regular expressions, separated by ';'. A command that matches any of them asks. A rule that does not compile is skipped.",
}}

// Layer is the danger gate. Use New; it is safe for concurrent use.
type Layer struct {
	platform func(goos string) paths.Platform
}

var _ core.Layer = (*Layer)(nil)

// Option configures a Layer.
type Option func(*Layer)

// WithPlatform makes the layer judge paths with the Platform f returns for
// core.Call.Platform instead of paths.ForOS. Tests inject Windows or macOS
// semantics, a home and an environment this way.
func WithPlatform(f func(goos string) paths.Platform) Option {
	return func(l *Layer) {
		if f != nil {
			l.platform = f
		}
	}
}

// New returns the danger gate.
func New(opts ...Option) *Layer {
	l := &Layer{platform: paths.ForOS}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Name returns "danger".
func (*Layer) Name() string { return Name }

// Decide judges a shell call: Ask with one reason per finding, or Silent.
// File tools and other tools are always Silent (the project fence judges
// file targets). A nil Script is analysed here from Command, the way the
// host does. It never panics: an internal failure is returned as an error
// (the host logs it and treats the layer as Silent).
func (l *Layer) Decide(ctx context.Context, c *core.Call) (v core.Verdict, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = core.SilentVerdict, fmt.Errorf("danger: internal error: %v", r)
		}
	}()
	if c == nil || c.Kind != core.KindShell {
		return core.SilentVerdict, nil
	}
	plat := l.platform(c.Platform)
	script := c.Script
	if script == nil {
		dialect := shell.Bash
		if c.Tool == "PowerShell" {
			dialect = shell.PowerShell
		}
		script = analysis.Analyze(c.Command, analysis.Options{Dialect: dialect, Cwd: c.Cwd, Home: plat.Home, Lookup: plat.Lookup})
	}
	custom := compileCustom(c.Option(KeyCustomRules, ""))
	j := newJudge(plat, c.Language() == core.English, script, c.Cwd)
	j.custom = custom
	err = j.run(ctx)
	reasons := j.reasons
	j.release()
	if err != nil {
		return core.SilentVerdict, err
	}
	if len(reasons) > 0 {
		v = core.AskVerdict(reasons...)
	}
	if len(custom.bad) > 0 {
		v.Annotations = map[string]string{annotationSkipped: custom.skippedNote()}
	}
	return v, nil
}
