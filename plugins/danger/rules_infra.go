package danger

import (
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
	"github.com/zcode-fence/zcode-fence/core/shell/analysis"
	"github.com/zcode-fence/zcode-fence/core/steps"
)

// infraRules are the rules of this file and the command names they judge.
var infraRules = []judging{
	on(ruleInfraCLI, cmdfacts.InfraCLIs()...),
	on(ruleDBClient, cmdfacts.DBClients()...),
	on(ruleRclone, "rclone"),
	on(ruleSearchDelete, cmdfacts.HTTPClients()...),
}

// fedRedisKeys reports whether the command's arguments are appended by
// xargs (or parallel) from a redis-cli listing of every key (KEYS '*',
// --scan): redis-cli KEYS '*' | xargs redis-cli DEL.
func (v *cmdv) fedRedisKeys() bool {
	if !v.viaArgs() {
		return false
	}
	found := false
	v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
		lv := v.j.view(k)
		found = cmdfacts.RedisKeyListing(lv.name, lv.args)
		return !found
	})
	return found
}

// ruleSearchDelete: an HTTP DELETE of a search engine's index or data
// stream (Elasticsearch, OpenSearch) over curl or httpie
// (DG-DATABASE-DESTROY); a document's DELETE, other verbs and other HTTP
// services stay silent, as does an index named like test on this machine.
func ruleSearchDelete(v *cmdv) {
	d, ok := cmdfacts.SearchIndexDelete(v.name, v.args)
	if !ok || d.Local && cmdfacts.DisposableName(d.Index) {
		return
	}
	v.j.add(finding{rule: rules.DatabaseDestroy, cmd: v.display(), detail: "DELETE index", subject: d.URL})
}

// Infrastructure and data stores (the Infra family): bulk and
// irreversible loss outside the local disk. The command facts are
// core/cmdfacts.Infra (IaC tools, cluster clients, cloud CLIs, container
// engines), ParseDBClient with SQLLosses/RedisLosses/MongoLosses (database
// clients), and ContainerExec (a client run inside a container or pod).
// What stays silent because it is clearly local and disposable is
// written in the family's doc (core/rules/infra.go).

// ruleInfraCLI judges an IaC tool, a cluster client, a cloud CLI or a
// container engine; an exec into a container or pod is judged as the
// command it runs there.
func ruleInfraCLI(v *cmdv) {
	if argv, ok := cmdfacts.ContainerExec(v.name, v.args); ok {
		v.execInner(argv)
		return
	}
	op, ok := cmdfacts.Infra(v.name, v.args)
	if !ok {
		return
	}
	var rule *rules.Rule
	switch op.Kind {
	case cmdfacts.InfraIaC:
		rule = rules.IaCDestroy
	case cmdfacts.InfraCluster:
		if op.Context != nil && !op.Context.Unknown && cmdfacts.LocalKubeContext(op.Context.Value) {
			return
		}
		rule = rules.ClusterDelete
		switch op.Detail {
		case "drain":
			rule = rules.ClusterDrain
		case "uninstall":
			if !productionLike(op.Namespace) && !productionLike(op.Context) {
				return
			}
		}
	case cmdfacts.InfraCloud:
		rule = rules.CloudDelete
	case cmdfacts.InfraContainer:
		rule = rules.ContainerPrune
	case cmdfacts.InfraDatabase:
		rule = rules.DatabaseDestroy
	default:
		return
	}
	v.j.add(finding{rule: rule, cmd: v.display(), detail: op.Detail, subject: v.infraSubject(op)})
}

// ruleRclone: rclone purge of a remote path, or delete of one with no
// filter (DG-CLOUD-DELETE), as gsutil rm -r and aws s3 rm --recursive of
// any cloud path ask (cmdfacts.ParseRcloneDelete).
func ruleRclone(v *cmdv) {
	d, ok := cmdfacts.ParseRcloneDelete(v.args)
	if !ok {
		return
	}
	v.j.add(finding{rule: rules.CloudDelete, cmd: v.display(), detail: d.Verb,
		subject: v.infraSubject(cmdfacts.InfraOp{Targets: d.Targets})})
}

// productionLike reports a known name that reads as production (an
// unknown one, $NS, is not assumed to).
func productionLike(w *ir.Word) bool {
	return w != nil && !w.Unknown && cmdfacts.ProductionLike(w.Value)
}

// infraSubject names what an operation acts on: its targets, and the
// namespace and context of a cluster operation.
func (v *cmdv) infraSubject(op cmdfacts.InfraOp) string {
	var parts []string
	for _, w := range op.Targets {
		parts = append(parts, shownRaw(w))
	}
	s := strings.Join(parts, " ")
	if op.Namespace != nil {
		s = strings.TrimSpace(s + " " + "-n " + shownRaw(*op.Namespace))
	}
	if op.Context != nil {
		s = strings.TrimSpace(s + " " + "--context " + shownRaw(*op.Context))
	}
	return s
}

// ruleDBClient judges a database client: what it drops itself (dropdb,
// mysqladmin drop), and what the statements it runs lose — given on its
// command line, or fed to its input by a heredoc, a here-string or
// literal text piped in.
func ruleDBClient(v *cmdv) {
	c, ok := cmdfacts.ParseDBClient(v.name, v.args)
	if !ok {
		return
	}
	host := v.dbHost(c)
	for _, d := range c.Drops {
		if host == nil && !d.Unknown && cmdfacts.DisposableName(d.Value) {
			continue
		}
		v.j.add(finding{rule: rules.DatabaseDestroy, cmd: v.display(), detail: "DROP DATABASE", subject: shownRaw(d)})
	}
	var texts []string
	for _, w := range c.Scripts {
		texts = append(texts, w.Value)
		if c.Engine == cmdfacts.EngineRedis && cmdfacts.RedisKeyDelete(w.Value) && v.fedRedisKeys() {
			v.j.add(finding{rule: rules.DatabaseDestroy, cmd: v.display(), detail: "DEL of every key", subject: v.dbSubject(c, cmdfacts.Loss{})})
		}
	}
	if c.ReadsStdin {
		texts = append(texts, v.stdinTexts()...)
	}
	fileInput := v.scriptInput()
	for _, text := range texts {
		var losses []cmdfacts.Loss
		switch c.Engine {
		case cmdfacts.EngineRedis:
			losses = cmdfacts.RedisLosses(text)
		case cmdfacts.EngineMongo:
			losses = cmdfacts.MongoLosses(text)
		default:
			losses = cmdfacts.SQLLosses(text)
		}
		for _, l := range losses {
			if v.disposableDB(c, host, l) {
				continue
			}
			f := finding{rule: rules.DatabaseDestroy, cmd: v.display(), detail: l.Op, subject: v.dbSubject(c, l)}
			if fileInput && text == v.c.Stdin && l.Line > 0 {
				// The input is the file Origin names: name the line.
				saved := v.j.fromFile
				v.j.fromFile = v.c.Origin + ":" + strconv.Itoa(l.Line)
				v.j.add(f)
				v.j.fromFile = saved
				continue
			}
			v.j.add(f)
		}
	}
}

// scriptInput reports a command run with a script file's whole text on
// its input (ir.ViaScriptInput, its Origin that file).
func (v *cmdv) scriptInput() bool {
	via := v.c.Via
	return v.c.Origin != "" && len(via) > 0 && via[len(via)-1].Kind == ir.ViaScriptInput
}

// dbHost is the server a client talks to: its -h/--host or URL, else
// the host an assignment before it names (PGHOST=db psql ...); nil for
// the client's local default.
func (v *cmdv) dbHost(c cmdfacts.DBClient) *ir.Word {
	if !cmdfacts.LocalHost(c.Host) {
		return c.Host
	}
	for _, a := range v.c.Assigns {
		switch a.Name {
		case "PGHOST", "PGHOSTADDR", "MYSQL_HOST":
			if w := a.Value; !cmdfacts.LocalHost(&w) {
				return &w
			}
		}
	}
	return nil
}

// disposableDB reports a loss that is clearly local and throwaway: an
// SQLite database in memory or inside the writable roots, or a database
// named like test or dev on this machine (Redis databases have no names,
// so a flush always asks).
func (v *cmdv) disposableDB(c cmdfacts.DBClient, host *ir.Word, l cmdfacts.Loss) bool {
	switch c.Engine {
	case cmdfacts.EngineRedis:
		return false
	case cmdfacts.EngineSQLite:
		return v.inWritableRoots(c.File)
	}
	if host != nil {
		return false
	}
	name := ""
	switch {
	case l.Database && l.Target != "":
		name = l.Target
	case l.In != "":
		name = l.In // mongosh: use NAME before the call
	case c.Database != nil && !c.Database.Unknown:
		name = c.Database.Value
	case c.Engine == cmdfacts.EngineMongo:
		name = "test" // mongosh's default database
	}
	if c.Engine == cmdfacts.EnginePostgres && c.Database == nil && !l.Database {
		for _, a := range v.c.Assigns {
			if a.Name == "PGDATABASE" && !a.Value.Unknown {
				name = a.Value.Value
			}
		}
	}
	return name != "" && cmdfacts.DisposableName(name)
}

// inWritableRoots reports whether an SQLite database file is in memory
// (no file, :memory:, "") or inside the call's writable roots (the
// project, temp dirs, extra roots; the cwd when no project is known).
func (v *cmdv) inWritableRoots(file *ir.Word) bool {
	if file == nil {
		return true
	}
	if file.Unknown {
		return false
	}
	if file.Value == "" || file.Value == ":memory:" {
		return true
	}
	j := v.j
	p := j.plat.Normalize(file.Value)
	if p.Kind == paths.Relative {
		base, unknown := v.baseDir()
		if unknown || !base.IsAbs() {
			return false
		}
		p = j.plat.Join(base, p)
	}
	if !p.IsAbs() {
		return false
	}
	roots := j.roots
	if len(roots) == 0 && j.callCwd().IsAbs() {
		roots = []string{j.callCwd().Norm}
	}
	for _, r := range roots {
		if j.plat.Contains(j.plat.Clean(r), p) {
			return true
		}
	}
	return false
}

// dbSubject names what a loss hits: the object, and the database or file
// it lives in.
func (v *cmdv) dbSubject(c cmdfacts.DBClient, l cmdfacts.Loss) string {
	var parts []string
	if l.Target != "" {
		parts = append(parts, l.Target)
	}
	switch {
	case c.File != nil:
		parts = append(parts, "@"+shownRaw(*c.File))
	case l.In != "":
		parts = append(parts, "@"+l.In)
	case c.Database != nil && (!l.Database || l.Target == ""):
		parts = append(parts, "@"+shownRaw(*c.Database))
	}
	if c.Host != nil {
		parts = append(parts, "-h "+shownRaw(*c.Host))
	}
	return strings.Join(parts, " ")
}

// stdinTexts returns the text a command reads on its standard input, as
// far as the command line shows it: its heredoc or here-string, and what
// a literal echo, printf or cat <<EOF upstream of it prints.
func (v *cmdv) stdinTexts() []string {
	var out []string
	if v.c.Stdin != "" {
		out = append(out, v.c.Stdin)
	}
	v.j.upstream(v.i, func(k int, kind ir.FeedKind) bool {
		if kind != ir.FeedPipe {
			return true
		}
		u := v.j.view(k)
		if text, ok := literalOutput(u); ok {
			out = append(out, text)
		} else if u.name == "cat" && u.c.Stdin != "" {
			out = append(out, u.c.Stdin)
		}
		return true
	})
	return out
}

// infraDispatch runs the family's rule for command v, if it has one.
func infraDispatch(v *cmdv) {
	switch {
	case cmdfacts.IsDBClient(v.name):
		ruleDBClient(v)
	case cmdfacts.IsInfraCLI(v.name):
		ruleInfraCLI(v)
	}
}

// execInner judges, with this family's rules only, the command an exec
// runs inside a container or a pod: a database client or a cloud CLI
// there loses the same data, while its file paths are the container's
// (not judged here). A shell's -c script there is analysed and each of
// its commands judged the same way.
func (v *cmdv) execInner(argv []ir.Word) {
	if len(argv) == 0 || argv[0].Unknown {
		return
	}
	name := ir.CommandName(argv[0].Value)
	if !cmdfacts.IsShell(name) {
		inner := *v.c
		inner.Args, inner.Name, inner.NameIfEmpty = argv, name, name
		w := &cmdv{j: v.j, i: v.i, c: &inner, name: name, args: argv[1:]}
		cmdfacts.FillEffects(&inner, name) // a command made here: its effects as the analysis fills them
		infraDispatch(w)
		return
	}
	script := cmdfacts.Value(argv[1:], "-c")
	if script == nil || script.Unknown || v.j.nested > 0 {
		return
	}
	j := v.j
	j.spend(4 * steps.Path(len(script.Value)))
	if j.seen == nil {
		j.seen = map[string]bool{}
	}
	s := analysis.Analyze(script.Value, analysis.Options{Dialect: ir.Bash, Home: j.plat.Home, Lookup: j.plat.Lookup})
	sub := &judge{plat: j.plat, en: j.en, s: s, custom: j.custom, roots: j.roots, project: j.project, seen: j.seen, nested: j.nested + 1, steps: j.steps, ctx: j.ctx, secretsOn: j.secretsOn, secretsAt: j.secretsAt,
		fromFile: j.fromFile, baseFile: j.fromFile}
	for k := range s.Commands {
		if j.steps.Exhausted() {
			break
		}
		c := &s.Commands[k]
		w := &cmdv{j: sub, i: k, c: c, name: dispatchName(c)}
		if len(c.Args) > 1 {
			w.args = c.Args[1:]
		}
		infraDispatch(w)
	}
	j.reasons = append(j.reasons, sub.reasons...)
}
