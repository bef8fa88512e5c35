package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The long tail of destructive commands that are not cloud or cluster
// clients: disks and firmware, power through other doors, accounts,
// publishing and remote history. One table (tailCLIs), one reader
// (LongTail): a command name, the leading operands (a path, "a|b" lists
// aliases), the options one of which must be given (needs) and those that
// make the run harmless (unless), and the effect. Everything else the
// same commands do — listing, reading, a read-only test, help, a dry run —
// is not in the table and stays silent.
//
// From each tool's manual:
//   - badblocks -w writes test patterns over the whole device (read-only
//     and -n non-destructive scans keep the data); ddrescue onto a device
//     (its second operand under /dev) overwrites it; pvcreate -f/-ff
//     writes an LVM label over whatever the device held; lvm's subcommands
//     are the lvremove/vgremove/pvremove tools; asr restore --erase erases
//     the target volume; steamos-factory-reset wipes the machine.
//   - efibootmgr with -c/-C (create), -B (delete), -o (order), -n (next
//     boot), -a/-A (activate), -b with a change, or -D/-N rewrites the
//     firmware's boot entries; macOS nvram NAME=VALUE, -d, -c and -f write
//     firmware variables (nvram -p and a bare NAME read them); bootctl
//     remove takes the boot loader off the ESP; fwupdmgr update/install
//     and fwupdtool install/install-blob flash firmware; rpi-eeprom-update
//     -a/-f stages a bootloader update; flashrom -w/-E overwrites the
//     BIOS chip (st-flash and the like flash a development board, not the
//     machine: they stay silent).
//   - i3exit shutdown/reboot/logout, gnome-session-quit --power-off/
//     --reboot/--logout, xfce4-session-logout (all but --suspend/
//     --hibernate), loginctl terminate-user/-session, kill-user/-session,
//     updatectl --reboot, dnf system-upgrade/offline-upgrade reboot,
//     softwareupdate -R/--restart, wsl --shutdown/--terminate (the Linux
//     machine the agent may run in) and KDE's org.kde.Shutdown methods
//     through qdbus end the session or the machine; so do logind's
//     PowerOff/Reboot/Halt/KExec and Terminate* methods called over D-Bus
//     (busctl call, gdbus call, dbus-send: LogindPower reads those).
//   - passwd -d deletes an account's password (log in without one) and
//     -l/-u of root locks or unlocks it; chpasswd sets passwords in bulk
//     from its input; usermod of root or a system account; homectl remove
//     deletes a home with its data; systemd-firstboot
//     --delete-root-password.
//   - npm, pnpm and yarn (npm) unpublish, vsce and ovsx unpublish, pio
//     pkg unpublish (not --undo), gem yank (a yanked version can never be
//     pushed again) withdraw a published package for every user; the
//     git-extras and legit commands git delete-branch, delete-tag and
//     unpublish delete the remote ref too; git reset-file discards a
//     file's changes.

// TailEffect is what a long-tail command destroys.
type TailEffect uint8

const (
	// TailDisk: a disk, volume or whole machine's data.
	TailDisk TailEffect = iota + 1
	// TailFirmware: boot entries, firmware variables or firmware itself.
	TailFirmware
	// TailPower: the machine or the user's session goes down.
	TailPower
	// TailAccount: an account's password or identity changes.
	TailAccount
	// TailPublish: a published package is withdrawn for everyone.
	TailPublish
	// TailRemoteRef: a branch or tag is deleted on the remote.
	TailRemoteRef
	// TailDiscard: uncommitted changes are thrown away.
	TailDiscard
	// TailRewrite: a repository's history is rewritten.
	TailRewrite
)

// tailRule is one row of the table.
type tailRule struct {
	path   string
	needs  []string // one of these options must be given (any, when empty)
	unless []string // none of these may be given
	effect TailEffect
	// device: the operand at this index (1-based, after the path) must
	// name a device under /dev; 0: no such condition.
	device int
	// systemUser: the last operand must be root or a system account.
	systemUser bool
}

// tailCLI is one command's rows and how its command line is read.
type tailCLI struct {
	spec  Spec
	rules []tailRule
}

var tailCLIs = map[string]tailCLI{
	"badblocks": {spec: SpecFor("-b", "-c", "-d", "-e", "-i", "-o", "-p", "-t"), rules: []tailRule{
		{needs: []string{"w"}, effect: TailDisk},
	}},
	"ddrescue": {spec: SpecFor("-b", "-c", "-e", "-i", "-m", "-o", "-s", "-K", "-l", "-x", "-a", "-D"), rules: []tailRule{
		{device: 2, effect: TailDisk},
	}},
	"pvcreate": {spec: SpecFor("--metadatasize", "--dataalignment", "--uuid", "-u", "--restorefile", "--label", "--zero", "-Z", "--setphysicalvolumesize", "--metadatatype", "-M", "--pvmetadatacopies", "--config"),
		rules: []tailRule{{needs: []string{"f", "force"}, effect: TailDisk}}},
	"asr": {spec: SpecFor("--source", "-s", "--target", "-t", "--file"), rules: []tailRule{
		{path: "restore|restoreexact", needs: []string{"erase"}, effect: TailDisk},
	}},
	"steamos-factory-reset": {rules: []tailRule{{effect: TailDisk}}},
	"efibootmgr": {spec: SpecFor("-b", "--bootnum", "-d", "--disk", "-p", "--part", "-l", "--loader", "-L", "--label",
		"-o", "--bootorder", "-n", "--bootnext", "-t", "--timeout", "-e", "--edd", "-E", "--device", "-m", "--mirror-below-4G", "-M", "--mirror-above-4G"),
		rules: []tailRule{{needs: []string{"c", "create", "C", "create-only", "B", "delete-bootnum", "o", "bootorder",
			"n", "bootnext", "a", "active", "A", "inactive", "D", "remove-dups", "N", "delete-bootnext", "O", "delete-bootorder",
			"T", "delete-timeout", "t", "timeout", "r", "driver", "y", "sysprep"}, effect: TailFirmware}}},
	"nvram": {spec: SpecFor("-f", "-d"), rules: []tailRule{
		{needs: []string{"d", "c", "f"}, effect: TailFirmware},
		{path: "*=*", effect: TailFirmware},
	}},
	"bootctl": {spec: SpecFor("--esp-path", "--boot-path", "--root", "--image"), rules: []tailRule{
		{path: "remove", effect: TailFirmware},
	}},
	"fwupdmgr":  {rules: []tailRule{{path: "update|upgrade|install|downgrade|reinstall|switch-branch|local-install", effect: TailFirmware}}},
	"fwupdtool": {rules: []tailRule{{path: "install|install-blob|update|reinstall|firmware-patch|firmware-write", effect: TailFirmware}}},
	"rpi-eeprom-update": {spec: SpecFor("-d", "-f", "-b"), rules: []tailRule{
		{needs: []string{"a", "f"}, effect: TailFirmware},
	}},
	"flashrom": {spec: SpecFor("-p", "--programmer", "-r", "--read", "-v", "--verify", "-c", "--chip", "-l", "--layout", "-i", "--image", "-o", "--output"),
		rules: []tailRule{{needs: []string{"w", "write", "E", "erase"}, effect: TailFirmware}}},
	"i3exit":               {rules: []tailRule{{path: "shutdown|reboot|logout", effect: TailPower}}},
	"gnome-session-quit":   {rules: []tailRule{{needs: []string{"power-off", "reboot", "logout"}, effect: TailPower}}},
	"xfce4-session-logout": {rules: []tailRule{{unless: []string{"s", "suspend", "hibernate", "hybrid-sleep", "help", "h", "version", "V"}, effect: TailPower}}},
	"updatectl":            {rules: []tailRule{{needs: []string{"reboot"}, effect: TailPower}}},
	"dnf":                  dnfUpgradeReboot, "dnf5": dnfUpgradeReboot, "dnf4": dnfUpgradeReboot, "yum": dnfUpgradeReboot,
	"clear-recyclebin": {rules: []tailRule{{needs: []string{"force"}, effect: TailDisk}}},
	"softwareupdate":   {rules: []tailRule{{needs: []string{"R", "restart"}, effect: TailPower}}},
	"wsl": {spec: SpecFor("-d", "--distribution", "-u", "--user", "--cd"), rules: []tailRule{
		{needs: []string{"shutdown", "terminate", "t", "unregister"}, effect: TailPower},
	}},
	"passwd": {spec: SpecFor("-x", "-n", "-w", "-i", "-r", "--repository", "-R", "--root", "-P", "--prefix"), rules: []tailRule{
		{needs: []string{"d", "delete"}, effect: TailAccount},
		{needs: []string{"l", "lock", "u", "unlock", "e", "expire"}, systemUser: true, effect: TailAccount},
	}},
	"chpasswd": {rules: []tailRule{{unless: []string{"h", "help"}, effect: TailAccount}}},
	"usermod": {spec: SpecFor("-c", "-d", "-e", "-f", "-g", "-G", "-l", "-p", "-R", "-P", "-s", "-u", "-v", "-V", "-w", "-W", "-Z",
		"--comment", "--home", "--expiredate", "--inactive", "--gid", "--groups", "--login", "--password", "--root", "--prefix",
		"--shell", "--uid", "--add-subuids", "--del-subuids", "--add-subgids", "--del-subgids", "--selinux-user"),
		rules: []tailRule{{systemUser: true, effect: TailAccount}}},
	"homectl":           {rules: []tailRule{{path: "remove|rm", effect: TailAccount}}},
	"systemd-firstboot": {rules: []tailRule{{needs: []string{"delete-root-password"}, effect: TailAccount}}},
	"vsce":              {rules: []tailRule{{path: "unpublish", effect: TailPublish}}},
	"ovsx":              {rules: []tailRule{{path: "unpublish", effect: TailPublish}}},
	"pio":               {rules: []tailRule{{path: "pkg|package unpublish", unless: []string{"undo"}, effect: TailPublish}}},
	"gem":               {spec: SpecFor("-v", "--version", "-p", "--platform", "--host", "-k", "--key", "--otp"), rules: []tailRule{{path: "yank", effect: TailPublish}}},
}

// dnfUpgradeReboot: dnf system-upgrade reboot and offline-upgrade reboot
// (also offline reboot) restart the machine into the upgrade.
var dnfUpgradeReboot = tailCLI{rules: []tailRule{{path: "system-upgrade|offline-upgrade|offline reboot", effect: TailPower}}}

// dbusClients are the D-Bus command-line clients DBusPower reads.
var dbusClients = []string{"busctl", "gdbus", "dbus-send", "qdbus", "qdbus6", "qdbus-qt5"}

// dbusServices are the D-Bus services whose methods end the session or
// the machine: systemd-logind and KDE's session manager.
var dbusServices = []string{"org.freedesktop.login1", "org.kde.shutdown", "org.kde.ksmserver", "org.gnome.sessionmanager", "org.xfce.sessionmanager"}

// dbusEnds are those services' methods (lower case) that power off,
// reboot or end a session: logind's PowerOff, Reboot, Halt, KExec (and
// their WithFlags forms), Terminate/Kill User/Session; KDE's logout,
// logoutAndReboot, logoutAndShutdown; GNOME's and Xfce's Shutdown,
// Reboot, Logout.
var dbusEnds = []string{"poweroff", "reboot", "halt", "kexec", "poweroffwithflags", "rebootwithflags", "haltwithflags",
	"kexecwithflags", "terminateuser", "terminatesession", "killuser", "killsession", "logout", "logoutandreboot",
	"logoutandshutdown", "shutdown", "requestshutdown", "requestreboot"}

// DBusPower reports a D-Bus client (busctl call, gdbus call, dbus-send,
// qdbus) calling one of dbusEnds on one of dbusServices, and names the
// method. Pure; linear in args.
func DBusPower(name string, args []ir.Word) (string, bool) {
	if !slices.Contains(dbusClients, name) {
		return "", false
	}
	service, method := false, ""
	for _, a := range args {
		if a.Unknown {
			continue
		}
		w := strings.ToLower(a.Value)
		if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "--") {
			w = v // --dest=NAME, --method=NAME
		}
		for _, svc := range dbusServices {
			if strings.HasPrefix(w, svc) {
				service = true
			}
		}
		m := w[strings.LastIndexByte(w, '.')+1:]
		if slices.Contains(dbusEnds, m) {
			method = a.Value
		}
	}
	return method, service && method != ""
}

// GitExtraEffects are the git subcommands that add-on suites install
// (git-extras, legit) whose run loses work: delete-branch, delete-tag and
// unpublish (legit) delete the remote ref too; reset-file discards a
// file's changes; undo --hard, clear and clear-soft reset the working
// tree (clear also cleans ignored files); obliterate rewrites every
// commit to drop a file.
var GitExtraEffects = map[string]TailEffect{
	"delete-branch": TailRemoteRef, "delete-tag": TailRemoteRef, "unpublish": TailRemoteRef,
	"reset-file": TailDiscard, "clear": TailDiscard, "clear-soft": TailDiscard,
	"obliterate": TailRewrite,
}

// npmUnpublishers are the package managers whose unpublish withdraws a
// published package (yarn's through its npm plugin: yarn npm unpublish).
var npmUnpublishers = map[string]string{"npm": "unpublish", "pnpm": "unpublish", "yarn": "npm unpublish"}

// systemAccounts are account names that are not a person's: root and the
// usual daemon accounts (a numeric uid below 1000 is one too).
var systemAccounts = []string{"root", "daemon", "bin", "sys", "sync", "games", "man", "lp", "mail", "news",
	"uucp", "proxy", "www-data", "backup", "list", "irc", "nobody", "systemd-network", "systemd-resolve",
	"messagebus", "sshd", "postgres", "mysql", "git", "admin", "administrator", "_www"}

// SystemAccount reports whether name is root or a system account.
func SystemAccount(name string) bool {
	n := strings.ToLower(name)
	if slices.Contains(systemAccounts, n) {
		return true
	}
	return n != "" && strings.Trim(n, "0123456789") == "" && len(n) < 4
}

// TailOp is one long-tail operation.
type TailOp struct {
	Effect TailEffect
	// Detail is the subcommand and the option that make it one.
	Detail string
	// Targets are what it acts on, as written.
	Targets []ir.Word
}

// LongTail reports whether command name, run with args, is one of the
// table's destructive operations. Help, version, dry runs and the forms
// the table does not list are not. Pure; linear in args.
func LongTail(name string, args []ir.Word) (TailOp, bool) {
	if verb, ok := npmUnpublishers[name]; ok {
		return npmUnpublish(name, verb, args)
	}
	if m, ok := DBusPower(name, args); ok {
		return TailOp{Effect: TailPower, Detail: m}, true
	}
	cli, ok := tailCLIs[name]
	if !ok {
		return TailOp{}, false
	}
	if strings.Contains(name, "-") && !strings.Contains(name, "_") && strings.ToLower(name) == name && cmdletLike(name) {
		args = cmdletArgs(args)
	}
	p := ParseArgs(args, cli.spec)
	if p.Has("h", "help", "?", "dry-run", "dryrun") {
		return TailOp{}, false
	}
	var ops []string
	for _, w := range p.Operands {
		if w.Unknown {
			ops = append(ops, "\x00")
			continue
		}
		ops = append(ops, strings.ToLower(w.Value))
	}
	for _, r := range cli.rules {
		n, ok := 0, true
		if r.path == "*=*" {
			ok = len(ops) > 0 && strings.Contains(ops[0], "=")
			n = 1
		} else {
			n, ok = matchPath(ops, r.path)
		}
		if !ok || (len(r.needs) > 0 && !p.Has(r.needs...)) || (len(r.unless) > 0 && p.Has(r.unless...)) {
			continue
		}
		rest := p.Operands[n:]
		if r.device > 0 {
			if len(rest) < r.device || rest[r.device-1].Unknown || !strings.HasPrefix(rest[r.device-1].Value, "/dev/") {
				continue
			}
		}
		if r.systemUser {
			if len(rest) == 0 {
				continue
			}
			last := rest[len(rest)-1]
			if last.Unknown || !SystemAccount(last.Value) {
				continue
			}
		}
		detail := strings.Join(ops[:n], " ")
		for _, o := range p.Opts {
			if slices.Contains(r.needs, o.Name) {
				detail = strings.TrimSpace(detail + " " + optText(o.Name))
				break
			}
		}
		return TailOp{Effect: r.effect, Detail: detail, Targets: rest}, true
	}
	return TailOp{}, false
}

// cmdletLike reports a PowerShell cmdlet name (Verb-Noun) among the
// table's names.
func cmdletLike(name string) bool {
	verb, _, _ := strings.Cut(name, "-")
	return slices.Contains([]string{"clear", "remove", "stop", "restart", "set"}, verb)
}

// cmdletArgs rewrites a cmdlet's -Name parameters as --name options, so
// that ParseArgs reads -Force as one option, not five letters.
func cmdletArgs(args []ir.Word) []ir.Word {
	out := make([]ir.Word, len(args))
	for i, a := range args {
		out[i] = a
		if !a.Unknown && len(a.Value) > 2 && a.Value[0] == '-' && a.Value[1] != '-' {
			out[i] = Literal("--" + strings.ToLower(a.Value[1:]))
		}
	}
	return out
}

// optText spells an option name as written on a command line.
func optText(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// npmUnpublish reads npm/pnpm unpublish and yarn npm unpublish (not
// --dry-run, not help).
func npmUnpublish(name, verb string, args []ir.Word) (TailOp, bool) {
	// Nearly every npm call is something else: without a known word that
	// is the verb's last word there is no unpublish, and nothing to parse.
	last := verb[strings.LastIndexByte(verb, ' ')+1:]
	if !slices.ContainsFunc(args, func(w ir.Word) bool { return !w.Unknown && strings.EqualFold(w.Value, last) }) {
		return TailOp{}, false
	}
	p := ParseArgs(args, SpecFor("--registry", "--otp", "--workspace", "-w", "--timeout"))
	if p.Has("h", "help", "dry-run") {
		return TailOp{}, false
	}
	ops := lowerOps(p.Operands)
	n, ok := matchPath(ops, verb)
	if !ok {
		return TailOp{}, false
	}
	return TailOp{Effect: TailPublish, Detail: verb, Targets: p.Operands[n:]}, true
}

// LongTailCLIs returns the command names LongTail reads, sorted.
func LongTailCLIs() []string {
	out := append(sortedNames(tailCLIs), dbusClients...)
	for n := range npmUnpublishers {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
