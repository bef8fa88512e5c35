package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// accountsRules are the rules of this file and the command names they judge.
var accountsRules = []judging{
	on(ruleUserdel, "userdel", "deluser"),
	on(ruleKillUser, "pkill", "killall"),
}

// ruleUserdel: userdel -r / --remove deletes the account's home directory
// and mail spool; deluser --remove-home the home, --remove-all-files every
// file the account owns (DG-USERDEL-HOME). Deleting only the account
// (userdel NAME, deluser NAME) keeps its files and stays silent.
func ruleUserdel(v *cmdv) {
	for _, a := range v.args {
		if a.Unknown {
			continue
		}
		x := a.Value
		switch {
		case v.name == "userdel" && (x == "--remove" || len(x) > 1 && x[0] == '-' && x[1] != '-' && strings.Contains(x, "r")):
			v.flag(rules.UserdelHome, strings.Join(lowerValues(v.args), " "))
			return
		case v.name == "deluser" && (x == "--remove-home" || x == "--remove-all-files"):
			v.flag(rules.UserdelHome, strings.Join(lowerValues(v.args), " "))
			return
		}
	}
}

// killUserSpec: pkill's and killall's options that take a value.
var killUserSpec = mustSyntax("pkill")

// ruleKillUser: pkill -u USER / killall -u USER with no process name
// signals every process of USER (DG-KILL-ALL) when USER is root (the
// system) or the caller ($USER, $(whoami), the home directory's owner
// name: the session and the agent). A name or pattern narrows it.
func ruleKillUser(v *cmdv) {
	if v.c.Dialect != ir.Bash {
		return
	}
	p := cmdfacts.ParseArgs(v.args, killUserSpec)
	if len(p.Operands) > 0 || p.Has("l", "list", "h", "help", "V", "version") {
		return
	}
	for _, u := range p.Values("u", "U", "euid", "uid", "user") {
		for _, name := range strings.Split(u.Value, ",") {
			if u.Unknown && !v.currentUserWord(u) || !u.Unknown && name != "root" && name != "0" && name != v.homeUser() {
				continue
			}
			v.flag(rules.KillAll, "-u "+u.Value)
			return
		}
	}
}

// currentUserWord reports a word written as the caller's user name
// ($USER, $LOGNAME, $(whoami), $(id -un)).
func (v *cmdv) currentUserWord(w ir.Word) bool {
	r := strings.Trim(w.Raw, `"`)
	switch r {
	case "$USER", "${USER}", "$LOGNAME", "${LOGNAME}", "$(whoami)", "`whoami`", "$(id -un)", "$(id -u)", "$UID", "${UID}", "$EUID":
		return true
	}
	return false
}

// homeUser is the last element of the home directory, the caller's user
// name on the usual layouts ("" when unknown).
func (v *cmdv) homeUser() string {
	h := strings.TrimRight(v.j.plat.Home, `/\`)
	if i := strings.LastIndexAny(h, `/\`); i >= 0 && i+1 < len(h) {
		return h[i+1:]
	}
	return ""
}
