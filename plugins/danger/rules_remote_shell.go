package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

var _ = addRules(ruleRemoteShell, "ssh", "autossh", "mosh", "vagrant")

// maxRemoteNesting bounds ssh inside ssh (ssh a ssh b 'CMD').
const maxRemoteNesting = 3

// remoteStdinMark ends the heredoc that gives the remote command the text
// the client reads on its stdin.
const remoteStdinMark = "ZCODE_FENCE_REMOTE_STDIN"

// ruleRemoteShell: ssh host CMD ARGS, ssh -t host 'CMD', mosh host -- CMD
// run CMD on another machine (cmdfacts.RemoteCommand); ssh host <<EOF
// runs the heredoc in the remote login shell, and ssh host bash -s <<EOF
// gives it to the remote command's stdin. Its commands are
// judged by this layer's rules, in the remote user's home (ssh's working
// directory there): rm -rf / or mkfs on the remote disk is still a
// catastrophe; findings of the families in remoteEveryday are dropped. Only this layer judges it: the command's paths are the
// other machine's, so the shell analysis (and the layers that judge local
// writes) never see them. Cost: one analysis of the command text.
func ruleRemoteShell(v *cmdv) {
	j := v.j
	r, ok := cmdfacts.RemoteCommand(v.name, v.args)
	if !ok || j.nested >= maxRemoteNesting {
		return
	}
	text := r.Command
	switch {
	case r.Login:
		text = v.c.Stdin // the login shell reads its commands from stdin
	case v.c.Stdin != "":
		// What the remote command reads (ssh host bash -s <<EOF).
		text += " <<'" + remoteStdinMark + "'\n" + v.c.Stdin + "\n" + remoteStdinMark + "\n"
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	j.spend(4 * steps.Path(len(text)))
	s := analysis.Analyze(text, analysis.Options{Dialect: shell.Bash, Cwd: j.plat.Home, Home: j.plat.Home})
	sub := &judge{plat: j.plat, en: j.en, s: s, cwdRaw: j.plat.Home, custom: j.custom, nested: j.nested + 1, steps: j.steps, ctx: j.ctx}
	_ = sub.run() // a deadline error shows again in the caller's next check
	for _, r := range sub.reasons {
		if rule, ok := rules.Lookup(r.Rule); ok && !remoteEveryday[rule.Family] {
			j.addReason(rule, r.Message)
		}
	}
}

// remoteEveryday are the families whose findings on another machine are
// everyday administration, not a hard line: its git working trees (a
// deploy's git reset --hard there is not this project's work, which is
// what the Git line guards) and its services and schedules. Everything
// else is judged as here: deletes, overwrites, disks, data stores and
// hidden commands, and also power (a reboot takes the machine and what
// runs on it down, as here) and downloaded code run there (code nobody
// has read, on a machine the user is responsible for).
var remoteEveryday = map[*rules.Family]bool{
	rules.Git: true, rules.Persistence: true,
}
