package danger

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// remoteShellRules judge every remote runner; the infrastructure clients
// among them (gcloud, az, aws, kubectl, docker ...) have ruleInfraCLI too
// (infraRules), which runs first.
var remoteShellRules = []judging{
	on(ruleRemoteShell, cmdfacts.RemoteClients()...),
}

// maxRemoteNesting bounds ssh inside ssh (ssh a ssh b 'CMD').
const maxRemoteNesting = 3

// remoteStdinMark ends the heredoc that gives the remote command the text
// the client reads on its stdin.
const remoteStdinMark = "ZCODE_FENCE_REMOTE_STDIN"

// ruleRemoteShell: ssh host CMD ARGS, ssh -t host 'CMD', mosh host -- CMD
// run CMD on another machine, and so do gcloud compute ssh --command,
// az vm run-command, aws ssm send-command; docker / kubectl / lxc exec
// and machinectl shell NAME run it in a container or pod
// (cmdfacts.RemoteCommand); ssh host <<EOF
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
	dialect := ir.Bash
	if r.PowerShell {
		dialect = ir.PowerShell
	}
	// ruleInfraCLI judges the data stores a docker / kubectl exec reaches
	// (execInner), before this rule: its findings are not repeated here.
	_, infraJudged := cmdfacts.ContainerExec(v.name, v.args)
	s := analysis.Analyze(text, analysis.Options{Dialect: dialect, Cwd: j.plat.Home, Home: j.plat.Home})
	sub := &judge{plat: j.plat, en: j.en, s: s, cwdRaw: j.plat.Home, custom: j.custom, nested: j.nested + 1, steps: j.steps, ctx: j.ctx, secretsOn: j.secretsOn}
	_ = sub.run() // a deadline error shows again in the caller's next check
	for k := range s.Commands {
		c := &s.Commands[k]
		w := &cmdv{j: sub, i: k, c: c, name: dispatchName(c)}
		if len(c.Args) > 1 {
			w.args = c.Args[1:]
		}
		remoteDataDelete(w)
	}
	// What execInner already reported for this exec is not said twice;
	// the rest of the Infra family (a framework's database reset run in
	// the container, npx prisma migrate reset --force) is reported here.
	reported := map[string]bool{}
	if infraJudged {
		for _, r := range j.reasons {
			reported[r.Rule] = true
		}
	}
	for _, r := range sub.reasons {
		if rule, ok := rules.Lookup(r.Rule); ok && !remoteEveryday[rule.Family] && !(rule.Family == rules.Infra && reported[r.Rule]) {
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

// Labels of the remote deletes (remoteDataDelete).
const (
	labelTopLevel = "top-level directory there"
	labelDataDir  = "service data directory there"
)

// remoteDataDelete: a recursive rm, on another machine or in a container,
// of a top-level directory (/data, /app; not /tmp) or of a service's data
// directory, anything in it or below it (/var/lib/postgresql/data,
// /var/lib/mysql/*: cmdfacts.ServiceDataDir) asks DG-RM-RECURSIVE. Here
// the project fence guards such paths; there, nothing else does. Cost:
// linear in the operands.
func remoteDataDelete(v *cmdv) {
	if v.name != "rm" || !cmdfacts.HasShort(v.args, "rR") && !cmdfacts.HasLong(v.args, "--recursive") {
		return
	}
	var hs []hit
	for _, w := range cmdfacts.Operands(v.args) {
		if w.Unknown {
			continue
		}
		p := v.j.plat.Normalize(w.Value)
		if p.Kind != paths.Unix || !p.IsAbs() {
			continue
		}
		if yes, _ := v.j.plat.IsCatastrophic(p); yes {
			continue // the delete rules name it already
		}
		var segs []string
		for _, s := range strings.Split(p.Norm, "/") {
			if s == "" {
				continue
			}
			if strings.ContainsAny(s, "*?[") {
				break // a glob: everything in the directory before it
			}
			segs = append(segs, s)
		}
		switch {
		case len(segs) == 1 && segs[0] != "tmp":
			hs = append(hs, hit{kind: hitCatastrophic, shown: p.Norm, label: labelTopLevel})
		case cmdfacts.ServiceDataDir(segs):
			hs = append(hs, hit{kind: hitCatastrophic, shown: p.Norm, label: labelDataDir})
		}
	}
	v.report(rules.RmRecursive, "", hs)
}
