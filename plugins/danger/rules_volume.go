package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// volumeRules are the rules of this file and the command names they judge.
var volumeRules = []judging{
	on(ruleZfs, "zfs", "zpool"),
	on(ruleLvmRemove, "lvremove", "vgremove", "pvremove"),
	on(ruleBtrfs, "btrfs"),
	on(ruleMdadm, "mdadm"),
	on(ruleKill, "kill", "killall5"),
}

// Volume managers that destroy a pool, dataset, volume or RAID member with
// its data (DG-VOLUME-DESTROY), and kills of every process (DG-KILL-ALL).
// Their targets are pool and volume names, not paths, so every
// destroying form asks; the dry runs and help stay silent.

// zfsDestroys are the zfs and zpool verbs that destroy data.
var zfsDestroys = map[string]map[string]bool{
	"zfs":   {"destroy": true},
	"zpool": {"destroy": true, "labelclear": true},
}

// ruleZfs: zfs destroy, zpool destroy / labelclear (not zfs destroy -n).
func ruleZfs(v *cmdv) {
	verb := firstOperand(v.args)
	if !zfsDestroys[v.name][verb] || hasWord(v.args, "-?", "--help") {
		return
	}
	if v.name == "zfs" && cmdfacts.HasShort(v.args, "n") {
		return
	}
	v.flag(rules.VolumeDestroy, verb)
}

// ruleLvmRemove: lvremove, vgremove, pvremove (not -t/--test or help).
func ruleLvmRemove(v *cmdv) {
	if cmdfacts.HasShort(v.args, "th") || cmdfacts.HasLong(v.args, "--test", "--help", "--version") {
		return
	}
	if len(cmdfacts.Operands(v.args)) == 0 {
		return
	}
	v.flag(rules.VolumeDestroy, "")
}

// ruleBtrfs: btrfs subvolume delete (any unambiguous prefixes of both
// words, as btrfs accepts: btrfs sub del).
func ruleBtrfs(v *cmdv) {
	var ops []string
	for _, a := range v.args {
		if a.Unknown {
			return
		}
		if !strings.HasPrefix(a.Value, "-") {
			ops = append(ops, strings.ToLower(a.Value))
		}
	}
	if len(ops) < 3 || len(ops[0]) < 2 || !strings.HasPrefix("subvolume", ops[0]) ||
		len(ops[1]) < 2 || !strings.HasPrefix("delete", ops[1]) {
		return
	}
	v.flag(rules.VolumeDestroy, "subvolume delete")
}

// ruleMdadm: mdadm --zero-superblock erases a RAID member's metadata.
func ruleMdadm(v *cmdv) {
	if hasWord(v.args, "--zero-superblock") {
		v.flag(rules.VolumeDestroy, "--zero-superblock")
	}
}

// ruleKill: kill of pid -1 (every process the caller may signal) or pid 1
// (init), and killall5. kill's first argument, when it starts with "-", is
// the signal (-9, -KILL, -s KILL, -n 9), so kill -1 1234 sends SIGHUP to
// 1234; after it, or after "--", -1 is the pid. Bash dialect only
// (PowerShell's kill is Stop-Process).
func ruleKill(v *cmdv) {
	if v.c.Dialect != ir.Bash {
		return
	}
	if v.name == "killall5" {
		v.flag(rules.KillAll, "")
		return
	}
	args := v.args
	i := 0
	if i < len(args) && !args[i].Unknown {
		switch a := args[i].Value; {
		case a == "-l" || a == "-L" || strings.HasPrefix(a, "--list") || a == "--help" || a == "--table":
			return
		case a == "-0" || a == "-s0" || a == "-n0":
			return // signal 0 only checks that the process exists
		case a == "-s" || a == "-n" || a == "--signal":
			if i+1 < len(args) && args[i+1].Value == "0" {
				return
			}
			i += 2
		case a == "--":
		case strings.HasPrefix(a, "-"):
			i++
		}
	}
	if i < len(args) && args[i].Value == "--" && !args[i].Unknown {
		i++
	}
	for ; i < len(args); i++ {
		if a := args[i]; !a.Unknown && (a.Value == "-1" || a.Value == "1") {
			v.flag(rules.KillAll, "pid "+a.Value)
			return
		}
	}
}
