package rules

import "github.com/zcode-fence/zcode-fence/core/cmdfacts"

// Rules of the danger gate declared apart from danger.go (added by the
// executor work; same families).
var (
	UserdelHome = def(&Rule{ID: "DG-USERDEL-HOME", Family: Deletes,
		Doc: "userdel -r / --remove (the account's home directory and mail spool go with it), deluser --remove-home or --remove-all-files (every file the account owns, anywhere).",
		Zh:  "{cmd} {detail} 会删除该账户的主目录及其全部文件，无法恢复。",
		En:  "{cmd} {detail} deletes the account's home directory and every file in it, irrecoverably."})
)

// The long tail (core/cmdfacts.LongTail): disks, firmware, sessions,
// accounts and publishing, each documented from its table (when the
// reference is rendered, not at start-up).
var (
	DiskOverwrite = def(&Rule{ID: "DG-DISK-OVERWRITE", Family: DiskAndSystem,
		Doc: "Tools that overwrite a disk, a volume or the whole machine's data: {list}. Read-only scans, copies off a device and help stay silent.", covers: longTail(cmdfacts.TailDisk),
		Zh: "{cmd} {detail} 会覆盖或抹除磁盘、卷或整台机器上的数据，无法恢复。",
		En: "{cmd} {detail} overwrites or erases a disk, a volume or the machine's data for good."})
	FirmwareWrite = def(&Rule{ID: "DG-FIRMWARE-WRITE", Family: PowerAndBoot,
		Doc: "Writes to boot entries, firmware variables or firmware: {list}. Listing (efibootmgr, efibootmgr -v, nvram -p, fwupdmgr get-updates) stays silent.", covers: longTail(cmdfacts.TailFirmware),
		Zh: "{cmd} {detail} 会改写启动项、固件变量或固件本身，机器可能无法启动。",
		En: "{cmd} {detail} rewrites boot entries, firmware variables or firmware; the machine may not boot."})
	SessionEnd = def(&Rule{ID: "DG-SESSION-END", Family: PowerAndBoot,
		Doc: "Ending the machine or the session through other doors: {list}; loginctl terminate-user/-session, kill-user/-session; logind's PowerOff, Reboot, Halt, KExec, Terminate*/Kill* methods and the GNOME, KDE and Xfce session managers' shutdown, reboot and logout methods over D-Bus (busctl, gdbus, dbus-send, qdbus). Suspend, hibernate, lock and the Can* queries stay silent.", covers: longTail(cmdfacts.TailPower),
		Zh: "{cmd} {detail} 会关机、重启或结束用户会话。",
		En: "{cmd} {detail} shuts down or reboots the machine, or ends the user's session."})
	AccountChange = def(&Rule{ID: "DG-ACCOUNT-CHANGE", Family: DiskAndSystem,
		Doc: "Changing how accounts log in: {list}. A person's own account (usermod -aG docker alice) and passwd alone (it prompts) stay silent.", covers: longTail(cmdfacts.TailAccount),
		Zh: "{cmd} {detail}{subject} 会改动账户的登录方式（密码、root 或系统账户），可能无法登录或被他人登录。",
		En: "{cmd} {detail}{subject} changes how an account logs in; logins may break or open up."})
	PublishDelete = def(&Rule{ID: "DG-PUBLISH-DELETE", Family: Infra,
		Doc: "Withdrawing a published package for every user: {list}. publish and its dry runs stay silent.", covers: longTail(cmdfacts.TailPublish),
		Zh: "{cmd} {detail}{subject} 会撤下已发布的包，所有用户都受影响，且版本号不能再用。",
		En: "{cmd} {detail}{subject} withdraws a published package for everyone; the version can never be reused."})
)

// longTail returns the covers of a long-tail rule: the table's rows of
// effect e.
func longTail(e cmdfacts.TailEffect) func() []cmdfacts.Covered {
	return func() []cmdfacts.Covered { return cmdfacts.LongTailCoverage(e) }
}

// infra returns the covers of an infra rule: the rows of kind k.
func infra(k cmdfacts.InfraKind) func() []cmdfacts.Covered {
	return func() []cmdfacts.Covered { return cmdfacts.InfraCoverage(k) }
}
