package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Infrastructure command lines: which invocations of the infrastructure-
// as-code tools (terraform, tofu, terragrunt, pulumi, cdk, cdktf,
// serverless, sst), the cluster clients (kubectl, oc, helm), the cloud
// CLIs (aws, gcloud, gsutil, az) and the container engines (docker,
// podman, nerdctl) destroy infrastructure or data in bulk, read the way
// each CLI reads its own command line:
//
//   - terraform and tofu use Go's flag package: one or two dashes,
//     -flag=false turns a boolean off, no abbreviations, global options
//     (-chdir=DIR) before the subcommand. destroy and apply -destroy are
//     the same operation; -destroy with -refresh-only is rejected
//     ("Incompatible plan mode options"), so nothing runs; plan -destroy
//     only plans.
//   - pulumi, kubectl, oc, helm, docker, podman and nerdctl are cobra
//     programs (pflag): options anywhere, short ones bundled, long ones
//     never abbreviated, --flag=false turns a boolean off.
//   - aws is Python argparse: long options may be abbreviated to any
//     unambiguous prefix (--recur is --recursive); global options come
//     before the service.
//   - gcloud and az take the command path as the leading words and every
//     other argument as a named option.
//
// Verbs and options were read from each CLI's reference (terraform 1.x
// command docs and sources, pulumi destroy/stack rm/state delete, cdk
// destroy, kubectl delete/drain, helm uninstall, aws s3/s3api/rds/...,
// gcloud and az references, docker/podman system, volume).

// InfraKind says what an infrastructure operation destroys.
type InfraKind uint8

const (
	// InfraIaC: resources an infrastructure-as-code tool manages, or its
	// record of them (state).
	InfraIaC InfraKind = iota + 1
	// InfraCluster: Kubernetes namespaces, volumes, definitions, nodes or
	// releases.
	InfraCluster
	// InfraCloud: cloud resources that hold data or carry a whole system
	// (buckets, databases, clusters, stacks, projects, resource groups).
	InfraCloud
	// InfraContainer: container engine volumes, or every unused image and
	// volume.
	InfraContainer
	// InfraDatabase: a database, or a store's topic or data, through a
	// tool that is not a database client (sqlx, kafka-topics).
	InfraDatabase
)

// InfraOp is one bulk or irreversible infrastructure operation.
type InfraOp struct {
	Kind InfraKind
	// Detail is the subcommand and options that make it one, as the CLI
	// spells them ("destroy", "apply -destroy", "delete namespace",
	// "s3 rm --recursive", "system prune --volumes").
	Detail string
	// Targets are what it acts on, as written (stack, namespace, bucket,
	// database, resource group); empty when it acts on everything the
	// tool manages.
	Targets []ir.Word
	// Namespace and Context are a cluster operation's -n/--namespace and
	// --context (--kube-context) values, nil when not given.
	Namespace, Context *ir.Word
}

// Infra reports whether command name (Command.Name), run with args (the
// words after the command word), is a bulk or irreversible infrastructure
// operation. Reading, listing, planning and dry-run forms are not; neither
// is an invocation whose subcommand is unknown ($VERB). Pure; linear in
// args.
func Infra(name string, args []ir.Word) (InfraOp, bool) {
	if parse := infraCLIs[name]; parse != nil {
		return parse(name, args)
	}
	return InfraOp{}, false
}

// infraCLIs maps each command name Infra reads to its reader.
var infraCLIs = map[string]func(name string, args []ir.Word) (InfraOp, bool){
	"terraform": terraformOp, "tofu": terraformOp, "terragrunt": terraformOp,
	"pulumi": pulumiOp, "cdk": cdkOp, "cdktf": cdkOp, "serverless": serverlessOp, "sls": serverlessOp, "sst": serverlessOp,
	"sam":     samOp,
	"kubectl": kubectlOp, "oc": kubectlOp, "helm": helmOp,
	"aws": awsOp, "gcloud": gcloudOp, "gsutil": gsutilOp, "az": azOp,
	"gh": forgeOp, "glab": forgeOp,
	"docker": containerOp, "podman": containerOp, "nerdctl": containerOp,
}

// IsInfraCLI reports whether name is a command Infra reads.
func IsInfraCLI(name string) bool { return infraCLIs[name] != nil }

// InfraCLIs returns the command names Infra reads, sorted.
func InfraCLIs() []string { return sortedNames(infraCLIs) }

// sortedNames returns the keys of a table of commands, sorted.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// ---------------------------------------------------------------------------
// Infrastructure as code

// goBool reads a Go flag-package boolean option among args (before "--"):
// -name, --name, -name=BOOL. set reports whether it was given, on its
// last value. strconv.ParseBool's spellings are accepted; anything else is
// an error terraform reports, read as not set.
func goBool(args []ir.Word, name string) (set, on bool) {
	for _, a := range args {
		if a.Unknown {
			continue
		}
		v := a.Value
		if v == "--" {
			break
		}
		v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-")
		if len(v) == len(a.Value) {
			continue
		}
		n, val, eq := strings.Cut(v, "=")
		if n != name {
			continue
		}
		if !eq {
			set, on = true, true
			continue
		}
		switch val {
		case "1", "t", "T", "true", "TRUE", "True":
			set, on = true, true
		case "0", "f", "F", "false", "FALSE", "False":
			set, on = true, false
		}
	}
	return set, on
}

// goOperands returns the words that are not options (Go flag package:
// every -x and --x=v is an option; a valued option given as "-x v" is not
// distinguished, which only adds its value to the operands).
func goOperands(args []ir.Word) []ir.Word {
	var out []ir.Word
	for i, a := range args {
		if a.Value == "--" && !a.Unknown {
			return append(out, args[i+1:]...)
		}
		if !IsOption(a) {
			out = append(out, a)
		}
	}
	return out
}

// terragruntValued are terragrunt's own options that take the next word.
var terragruntValued = []string{"--working-dir", "--terragrunt-working-dir", "--config", "--terragrunt-config",
	"--log-level", "--terragrunt-log-level", "--queue-include-dir", "--queue-exclude-dir", "--terragrunt-include-dir",
	"--terragrunt-exclude-dir", "--parallelism", "--terragrunt-parallelism", "--iam-assume-role",
	"--terragrunt-iam-role", "--tf-path", "--terragrunt-tfpath"}

func terraformOp(name string, args []ir.Word) (InfraOp, bool) {
	// Global options before the subcommand: -chdir=DIR, -help, -version
	// (terragrunt: its own options, and run-all / run [--all] [--]).
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			return InfraOp{}, false
		}
		v := a.Value
		if v == "-help" || v == "--help" || v == "-h" || v == "-version" || v == "--version" || v == "-v" {
			return InfraOp{}, false
		}
		if name == "terragrunt" && slices.Contains(terragruntValued, v) {
			i++
			continue
		}
		if name == "terragrunt" && (v == "run-all" || v == "run" || v == "--all" || v == "--" || v == "-a") {
			continue
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
	}
	if i >= len(args) {
		return InfraOp{}, false
	}
	sub := args[i].Value
	rest := args[i+1:]
	if set, _ := goBool(rest, "help"); set {
		return InfraOp{}, false
	}
	if set, _ := goBool(rest, "h"); set {
		return InfraOp{}, false
	}
	_, refreshOnly := goBool(rest, "refresh-only")
	switch sub {
	case "destroy":
		if refreshOnly {
			return InfraOp{}, false
		}
		return InfraOp{Kind: InfraIaC, Detail: "destroy", Targets: goValues(rest, "target")}, true
	case "apply":
		if _, on := goBool(rest, "destroy"); on && !refreshOnly {
			return InfraOp{Kind: InfraIaC, Detail: "apply -destroy", Targets: goValues(rest, "target")}, true
		}
	case "state":
		ops := goOperands(rest)
		if len(ops) == 0 || ops[0].Unknown {
			return InfraOp{}, false
		}
		switch ops[0].Value {
		case "rm":
			if _, dry := goBool(rest, "dry-run"); dry || len(ops) < 2 {
				return InfraOp{}, false
			}
			return InfraOp{Kind: InfraIaC, Detail: "state rm", Targets: ops[1:]}, true
		case "push":
			// state push -force overwrites the remote state with a local file.
			if _, force := goBool(rest, "force"); force {
				return InfraOp{Kind: InfraIaC, Detail: "state push -force", Targets: ops[1:]}, true
			}
		}
	case "workspace":
		ops := goOperands(rest)
		if len(ops) >= 2 && !ops[0].Unknown && ops[0].Value == "delete" {
			// -force deletes a workspace whose state still tracks resources:
			// they are left running, unmanaged.
			if _, force := goBool(rest, "force"); force {
				return InfraOp{Kind: InfraIaC, Detail: "workspace delete -force", Targets: ops[1:]}, true
			}
		}
	}
	return InfraOp{}, false
}

// goValues returns the values of a Go flag-package option given as
// -name=VALUE or -name VALUE (one or two dashes).
func goValues(args []ir.Word, name string) []ir.Word {
	var out []ir.Word
	for i, a := range args {
		if a.Unknown {
			continue
		}
		v := strings.TrimPrefix(strings.TrimPrefix(a.Value, "-"), "-")
		if len(v) == len(a.Value) {
			continue
		}
		switch {
		case strings.HasPrefix(v, name+"="):
			out = append(out, SubWord(a, len(a.Value)-len(v)+len(name)+1))
		case v == name && i+1 < len(args):
			out = append(out, args[i+1])
		}
	}
	return out
}

// pflagBool reads a pflag boolean (--name, -x in a cluster, --name=BOOL):
// set reports whether one of names was given, on its last value.
func pflagBool(p Args, names ...string) (set, on bool) {
	for _, o := range p.Opts {
		if !slices.Contains(names, o.Name) {
			continue
		}
		set, on = true, true
		if o.Val != nil && !o.Val.Unknown {
			switch strings.ToLower(o.Val.Value) {
			case "0", "f", "false":
				on = false
			}
		}
	}
	return set, on
}

// pulumiSpec lists pulumi's options that take a value (global and those
// of destroy, stack rm and state delete).
var pulumiSpec = Spec{Short: "Csmpvcrx", Long: []string{"cwd", "color", "tracing", "profiling", "stack", "message",
	"parallel", "verbose", "config", "config-file", "target", "exclude", "exec-kind", "exec-agent", "suppress-permalink",
	"policy-pack", "policy-pack-config", "import-file", "attach-debugger"}}

func pulumiOp(_ string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, pulumiSpec)
	if h, _ := pflagBool(p, "help", "h"); h {
		return InfraOp{}, false
	}
	ops := lowerOps(p.Operands)
	stack := p.Values("stack", "s")
	switch {
	case len(ops) >= 1 && (ops[0] == "destroy" || ops[0] == "down"):
		if _, preview := pflagBool(p, "preview-only"); preview {
			return InfraOp{}, false
		}
		return InfraOp{Kind: InfraIaC, Detail: "destroy", Targets: stack}, true
	case len(ops) >= 2 && ops[0] == "stack" && (ops[1] == "rm" || ops[1] == "remove"):
		// Without --force, stack rm refuses a stack that still has
		// resources; with it their state is lost and they keep running.
		if _, force := pflagBool(p, "force", "f"); force {
			return InfraOp{Kind: InfraIaC, Detail: "stack rm --force", Targets: append(p.Operands[2:], stack...)}, true
		}
	case len(ops) == 3 && ops[0] == "env" && (ops[1] == "rm" || ops[1] == "remove"):
		// env rm ORG/PROJECT/ENV deletes an ESC environment with its
		// values and secrets (env rm ENV PATH removes one value).
		return InfraOp{Kind: InfraIaC, Detail: "env rm", Targets: p.Operands[2:]}, true
	case len(ops) >= 2 && ops[0] == "state" && ops[1] == "delete":
		return InfraOp{Kind: InfraIaC, Detail: "state delete", Targets: p.Operands[2:]}, true
	}
	return InfraOp{}, false
}

// cdkSpec lists the options of the cdk and cdktf CLIs that take a value.
var cdkSpec = Spec{Short: "acop", Long: []string{"app", "context", "output", "profile", "plugin", "role-arn",
	"toolkit-stack-name", "concurrency", "proxy", "ca-bundle-path", "build", "language", "parallelism"}}

func cdkOp(_ string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, cdkSpec)
	ops := lowerOps(p.Operands)
	if len(ops) == 0 || ops[0] != "destroy" {
		return InfraOp{}, false
	}
	if h, _ := pflagBool(p, "help", "h"); h {
		return InfraOp{}, false
	}
	return InfraOp{Kind: InfraIaC, Detail: "destroy", Targets: p.Operands[1:]}, true
}

// serverlessSpec lists serverless's and sst's options that take a value.
var serverlessSpec = Spec{Short: "srcp", Long: []string{"stage", "region", "config", "aws-profile", "profile", "app", "org"}}

func serverlessOp(_ string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, serverlessSpec)
	ops := lowerOps(p.Operands)
	if len(ops) == 0 || ops[0] != "remove" {
		return InfraOp{}, false
	}
	if h, _ := pflagBool(p, "help", "h"); h {
		return InfraOp{}, false
	}
	return InfraOp{Kind: InfraIaC, Detail: "remove", Targets: append(p.Values("stage", "s"), p.Operands[1:]...)}, true
}

// samSpec lists the AWS SAM CLI's options that take a value (global and
// delete's).
var samSpec = Spec{Long: []string{"stack-name", "region", "profile", "config-file", "config-env", "s3-bucket",
	"s3-prefix", "template-file", "t"}}

// samOp: sam delete deletes the application's CloudFormation stack and
// every resource it made (its prompt is answered by --no-prompts, and a
// non-interactive shell cannot be relied on to refuse it).
func samOp(_ string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, samSpec)
	ops := lowerOps(p.Operands)
	if len(ops) == 0 || ops[0] != "delete" {
		return InfraOp{}, false
	}
	if h, _ := pflagBool(p, "help", "h"); h {
		return InfraOp{}, false
	}
	return InfraOp{Kind: InfraIaC, Detail: "delete", Targets: p.Values("stack-name")}, true
}

// ---------------------------------------------------------------------------
// Clusters

// kubectlSpec lists kubectl's options that take a value, global and those
// of delete and drain (--dry-run, --cascade and --wait take theirs only
// attached with "=").
var kubectlSpec = Spec{Short: "nsflkoLv", Long: []string{"namespace", "context", "cluster", "kubeconfig", "user",
	"server", "token", "as", "as-group", "as-uid", "certificate-authority", "client-certificate", "client-key",
	"tls-server-name", "request-timeout", "cache-dir", "password", "username", "profile", "profile-output",
	"filename", "kustomize", "selector", "field-selector", "output", "grace-period", "timeout", "pod-selector",
	"chunk-size", "template", "v", "vmodule", "log-dir", "log-file", "log-backtrace-at", "skip-headers",
	"log-flush-frequency", "disable-eviction"}}

// kubeKinds maps the resource type names kubectl accepts (singular,
// plural, short, and with their API group) for the kinds whose deletion
// destroys a namespace's content, stored data, cluster-wide definitions
// or machines, to the kind.
var kubeKinds = map[string]string{
	"namespace": "namespace", "namespaces": "namespace", "ns": "namespace",
	"persistentvolume": "persistentvolume", "persistentvolumes": "persistentvolume", "pv": "persistentvolume",
	"persistentvolumeclaim": "persistentvolumeclaim", "persistentvolumeclaims": "persistentvolumeclaim",
	"pvc":                      "persistentvolumeclaim",
	"customresourcedefinition": "customresourcedefinition", "customresourcedefinitions": "customresourcedefinition",
	"crd": "customresourcedefinition", "crds": "customresourcedefinition",
	"node": "node", "nodes": "node", "no": "node",
	// OpenShift's projects are namespaces (oc delete project P)
	"project": "project", "projects": "project",
}

// kubeKind returns the kind a resource type word names (NAME[.GROUP]), or "".
func kubeKind(t string) string {
	t = strings.ToLower(t)
	if i := strings.IndexByte(t, '.'); i > 0 {
		t = t[:i]
	}
	return kubeKinds[t]
}

// kubeDryRun reports a --dry-run that sends nothing: --dry-run alone, or
// =client / =server (=none is a real run).
func kubeDryRun(p Args) bool {
	dry := false
	for _, o := range p.Opts {
		if o.Name != "dry-run" {
			continue
		}
		dry = o.Val == nil || o.Val.Unknown || !strings.EqualFold(o.Val.Value, "none") && !strings.EqualFold(o.Val.Value, "false")
	}
	return dry
}

func kubectlOp(_ string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, kubectlSpec)
	if len(p.Operands) == 0 || p.Operands[0].Unknown {
		return InfraOp{}, false
	}
	op := InfraOp{Kind: InfraCluster}
	if ns := p.Values("namespace", "n"); len(ns) > 0 {
		op.Namespace = &ns[len(ns)-1]
	}
	if ctx := p.Values("context"); len(ctx) > 0 {
		op.Context = &ctx[len(ctx)-1]
	}
	if h, _ := pflagBool(p, "help", "h"); h || kubeDryRun(p) {
		return InfraOp{}, false
	}
	switch strings.ToLower(p.Operands[0].Value) {
	case "drain":
		op.Detail, op.Targets = "drain", p.Operands[1:]
		return op, true
	case "delete":
	default:
		return InfraOp{}, false
	}
	ops := p.Operands[1:]
	if _, all := pflagBool(p, "all"); all {
		op.Detail, op.Targets = "delete --all", ops
		return op, true
	}
	if _, all := pflagBool(p, "all-namespaces", "A"); all {
		op.Detail, op.Targets = "delete --all-namespaces", ops
		return op, true
	}
	// delete -f FILE|DIR|URL, -k DIR: every object the manifests define,
	// whatever their kinds (a namespace, a stateful set's volume claims).
	if files := p.Values("filename", "f"); len(files) > 0 {
		op.Detail, op.Targets = "delete -f", files
		return op, true
	}
	if dirs := p.Values("kustomize", "k"); len(dirs) > 0 {
		op.Detail, op.Targets = "delete -k", dirs
		return op, true
	}
	// TYPE[,TYPE] NAME... or TYPE/NAME...
	for k, w := range ops {
		if w.Unknown {
			continue
		}
		if t, name, ok := strings.Cut(w.Value, "/"); ok {
			if kind := kubeKind(t); kind != "" {
				op.Detail = "delete " + kind
				op.Targets = append(op.Targets, Literal(name))
			}
			continue
		}
		if k != 0 {
			continue
		}
		for _, t := range strings.Split(w.Value, ",") {
			if kind := kubeKind(t); kind != "" && (len(ops) > 1 || p.Has("l", "selector", "field-selector")) {
				op.Detail = "delete " + kind
				op.Targets = append(op.Targets, ops[1:]...)
				break
			}
		}
	}
	if op.Detail == "" {
		return InfraOp{}, false
	}
	return op, true
}

// helmSpec lists helm's options that take a value (global and uninstall's).
var helmSpec = Spec{Short: "n", Long: []string{"namespace", "kube-context", "kubeconfig", "kube-apiserver",
	"kube-as-user", "kube-as-group", "kube-ca-file", "kube-token", "kube-tls-server-name", "registry-config",
	"repository-cache", "repository-config", "burst-limit", "qps", "description", "timeout", "cascade"}}

// helmUninstall are helm uninstall's name and aliases.
var helmUninstall = []string{"uninstall", "delete", "del", "un"}

func helmOp(_ string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, helmSpec)
	ops := lowerOps(p.Operands)
	if len(ops) < 2 || !slices.Contains(helmUninstall, ops[0]) {
		return InfraOp{}, false
	}
	if h, _ := pflagBool(p, "help", "h"); h {
		return InfraOp{}, false
	}
	if _, dry := pflagBool(p, "dry-run"); dry {
		return InfraOp{}, false
	}
	op := InfraOp{Kind: InfraCluster, Detail: "uninstall", Targets: p.Operands[1:]}
	if ns := p.Values("namespace", "n"); len(ns) > 0 {
		op.Namespace = &ns[len(ns)-1]
	}
	if ctx := p.Values("kube-context"); len(ctx) > 0 {
		op.Context = &ctx[len(ctx)-1]
	}
	return op, true
}

// ---------------------------------------------------------------------------
// Clouds

// awsGlobalValued are the AWS CLI's global options that take a value.
var awsGlobalValued = []string{"--profile", "--region", "--output", "--endpoint-url", "--query", "--color",
	"--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"}

// awsDestructive lists, per service, the operations that delete data or a
// whole system with no way back (an RDS final snapshot, when taken, is a
// new resource; the deletion is still final). s3 rm and rb ask only with
// --recursive and --force (judged apart).
var awsDestructive = map[string][]string{
	"s3api":          {"delete-bucket"},
	"rds":            {"delete-db-instance", "delete-db-cluster", "delete-global-cluster", "delete-db-snapshot", "delete-db-cluster-snapshot"},
	"docdb":          {"delete-db-cluster", "delete-db-instance"},
	"neptune":        {"delete-db-cluster", "delete-db-instance"},
	"dynamodb":       {"delete-table", "delete-backup"},
	"cloudformation": {"delete-stack"},
	"ec2":            {"terminate-instances", "delete-volume", "delete-snapshot"},
	"eks":            {"delete-cluster"},
	"ecs":            {"delete-cluster"},
	"redshift":       {"delete-cluster"},
	"elasticache":    {"delete-cache-cluster", "delete-replication-group"},
	"efs":            {"delete-file-system"},
	"ecr":            {"delete-repository"},
	"kms":            {"schedule-key-deletion"},
	"opensearch":     {"delete-domain"},
	"es":             {"delete-elasticsearch-domain"},
	"backup":         {"delete-backup-vault", "delete-recovery-point"},
	"glacier":        {"delete-vault"},
	"logs":           {"delete-log-group"},
	// Managed services beyond compute and buckets (services.go has the
	// other CLIs): app hosting, identity pools, queues, streams, Kafka,
	// API gateways, analytics catalogs, registries, functions.
	"amplify":              {"delete-app", "delete-backend-environment"},
	"cloud9":               {"delete-environment"},
	"cognito-idp":          {"delete-user-pool", "admin-delete-user"},
	"cognito-identity":     {"delete-identity-pool"},
	"kafka":                {"delete-cluster", "delete-cluster-v2"},
	"lightsail":            {"delete-instance", "delete-relational-database", "delete-bucket", "delete-disk", "delete-container-service"},
	"sqs":                  {"delete-queue", "purge-queue"},
	"sns":                  {"delete-topic"},
	"kinesis":              {"delete-stream"},
	"firehose":             {"delete-delivery-stream"},
	"ecr-public":           {"delete-repository"},
	"apigateway":           {"delete-rest-api"},
	"apigatewayv2":         {"delete-api"},
	"glue":                 {"delete-database", "delete-table"},
	"timestream-write":     {"delete-database", "delete-table"},
	"redshift-serverless":  {"delete-namespace", "delete-workgroup"},
	"lambda":               {"delete-function"},
	"elasticbeanstalk":     {"terminate-environment", "delete-application"},
	"apprunner":            {"delete-service"},
	"memorydb":             {"delete-cluster"},
	"dax":                  {"delete-cluster"},
	"mq":                   {"delete-broker"},
	"fsx":                  {"delete-file-system"},
	"s3control":            {"delete-bucket"},
	"organizations":        {"close-account", "delete-organization"},
	"codecommit":           {"delete-repository"},
	"emr":                  {"terminate-clusters"},
	"keyspaces":            {"delete-keyspace", "delete-table"},
	"qldb":                 {"delete-ledger"},
	"neptune-graph":        {"delete-graph"},
	"opensearchserverless": {"delete-collection"},
	"workspaces":           {"terminate-workspaces"},
	"timestream-influxdb":  {"delete-db-instance"},
	"docdb-elastic":        {"delete-cluster"},
}

// awsNeeds lists the operations that delete for good only with an
// option: s3 rm of a whole prefix (--recursive), s3 rb of a bucket that
// still holds objects (--force), a secret without its recovery window
// (without it the deletion can be undone for days).
var awsNeeds = map[string]map[string]string{
	"s3":             {"rm": "--recursive", "rb": "--force"},
	"s3api":          {"delete-objects": "--delete"},
	"secretsmanager": {"delete-secret": "--force-delete-without-recovery"},
}

// awsPeers lists, for an option awsNeeds names, the operation's other
// options that share a prefix with it (an abbreviation of both is
// ambiguous, so names neither).
var awsPeers = map[string][]string{"--recursive": {"--request-payer"}}

// awsOption reports whether word w is the long option name, given in full
// or as an unambiguous prefix among the operation's options (argparse);
// others lists the option names of the operation that share a prefix.
func awsOption(w ir.Word, name string, others ...string) bool {
	if w.Unknown || !strings.HasPrefix(w.Value, "--") {
		return false
	}
	v, _, _ := strings.Cut(w.Value, "=")
	if v == name {
		return true
	}
	if len(v) < 3 || !strings.HasPrefix(name, v) {
		return false
	}
	for _, o := range others {
		if strings.HasPrefix(o, v) {
			return false
		}
	}
	return true
}

// awsHas reports whether one of the words (before "--") is option name
// or an unambiguous abbreviation of it.
func awsHas(ws []ir.Word, name string, others ...string) bool {
	for _, w := range ws {
		if w.Value == "--" && !w.Unknown {
			return false
		}
		if awsOption(w, name, others...) {
			return true
		}
	}
	return false
}

// awsTargets returns the values of the operation's options that name what
// it acts on (--bucket, --stack-name, --db-instance-identifier,
// --instance-ids ...), and its s3:// operands.
func awsTargets(ws []ir.Word) []ir.Word {
	var out []ir.Word
	for i, w := range ws {
		if w.Unknown {
			continue
		}
		if strings.HasPrefix(strings.ToLower(w.Value), "s3://") {
			out = append(out, w)
			continue
		}
		name, val, eq := strings.Cut(w.Value, "=")
		if !strings.HasPrefix(name, "--") || name == "--cli-input-json" || name == "--cli-input-yaml" {
			continue
		}
		if !(strings.HasSuffix(name, "-name") || strings.HasSuffix(name, "-id") || strings.HasSuffix(name, "-ids") ||
			strings.HasSuffix(name, "-identifier") || strings.HasSuffix(name, "-arn") || strings.HasSuffix(name, "-url") || name == "--bucket" ||
			name == "--cluster" || name == "--table-name") {
			continue
		}
		switch {
		case eq:
			out = append(out, Literal(val))
		case i+1 < len(ws):
			out = append(out, ws[i+1])
		}
	}
	return out
}

func awsOp(_ string, args []ir.Word) (InfraOp, bool) {
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			return InfraOp{}, false
		}
		name, _, eq := strings.Cut(a.Value, "=")
		switch {
		case slices.Contains(awsGlobalValued, name):
			if !eq {
				i++
			}
		case strings.HasPrefix(a.Value, "-"):
		default:
			goto service
		}
	}
	return InfraOp{}, false
service:
	if i+1 >= len(args) || args[i+1].Unknown {
		return InfraOp{}, false
	}
	svc, verb := strings.ToLower(args[i].Value), strings.ToLower(args[i+1].Value)
	rest := args[i+2:]
	for _, w := range rest {
		if !w.Unknown && (w.Value == "help" || w.Value == "--generate-cli-skeleton" || strings.HasPrefix(w.Value, "--generate-cli-skeleton=")) {
			return InfraOp{}, false
		}
	}
	op := InfraOp{Kind: InfraCloud, Detail: svc + " " + verb, Targets: awsTargets(rest)}
	if opt := awsNeeds[svc][verb]; opt != "" {
		if !awsHas(rest, opt, awsPeers[opt]...) {
			return InfraOp{}, false
		}
		op.Detail += " " + opt
	} else if !slices.Contains(awsDestructive[svc], verb) {
		return InfraOp{}, false
	}
	// s3's high-level commands spell their preview --dryrun.
	if awsHas(rest, "--dry-run") || svc == "s3" && awsHas(rest, "--dryrun") {
		return InfraOp{}, false
	}
	return op, true
}

// gcloudDestructive are the gcloud command paths (after alpha/beta) that
// delete data or a whole system; storage rm asks only with -r/--recursive.
var gcloudDestructive = [][]string{
	{"projects", "delete"},
	{"sql", "instances", "delete"}, {"sql", "databases", "delete"},
	{"container", "clusters", "delete"},
	{"compute", "instances", "delete"}, {"compute", "disks", "delete"}, {"compute", "snapshots", "delete"},
	{"storage", "buckets", "delete"},
	{"spanner", "instances", "delete"}, {"spanner", "databases", "delete"},
	{"bigtable", "instances", "delete"},
	{"firestore", "databases", "delete"},
	{"redis", "instances", "delete"},
	{"filestore", "instances", "delete"},
	{"alloydb", "clusters", "delete"},
	{"pubsub", "topics", "delete"}, {"pubsub", "subscriptions", "delete"},
	{"run", "services", "delete"}, {"app", "services", "delete"}, {"functions", "delete"},
	{"artifacts", "repositories", "delete"}, {"artifacts", "docker", "images", "delete"}, {"container", "images", "delete"},
	{"secrets", "delete"},
	{"dataproc", "clusters", "delete"}, {"composer", "environments", "delete"},
	{"api-gateway", "apis", "delete"}, {"api-gateway", "gateways", "delete"},
	{"kms", "keys", "versions", "destroy"},
	{"memcache", "instances", "delete"},
	{"bigtable", "tables", "delete"},
	{"iam", "workload-identity-pools", "delete"},
	{"sql", "backups", "delete"}, {"spanner", "backups", "delete"}, {"bigtable", "backups", "delete"},
	{"compute", "images", "delete"}, {"compute", "instance-groups", "managed", "delete"},
	{"pubsub", "lite-topics", "delete"}, {"source", "repos", "delete"},
}

// gcloudRecursiveRm is gcloud's object delete, which asks only with
// -r/--recursive (a whole prefix or bucket) or a wildcard that reaches as
// far (wholeWildcard).
var gcloudRecursiveRm = []string{"storage", "rm"}

// gcloudValued are gcloud's global options that take the next word when
// not given with "=".
var gcloudValued = []string{"--project", "--account", "--configuration", "--format", "--verbosity",
	"--impersonate-service-account", "--billing-project", "--flags-file", "--flatten", "--trace-token",
	"--region", "--zone", "--instance", "--cluster", "--location"}

// cloudPath splits a gcloud or az command line into its command path (the
// leading operands, lower-cased) and its other words; valued lists the
// options that take the next word.
func cloudPath(args []ir.Word, valued []string) (path []string, pathWords, rest []ir.Word, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			if len(path) == 0 {
				return nil, nil, nil, false
			}
			rest = append(rest, a)
			continue
		}
		name, _, eq := strings.Cut(a.Value, "=")
		switch {
		case strings.HasPrefix(a.Value, "-"):
			rest = append(rest, a)
			if slices.Contains(valued, name) && !eq && i+1 < len(args) {
				i++
				rest = append(rest, args[i])
			}
		default:
			path = append(path, strings.ToLower(a.Value))
			pathWords = append(pathWords, a)
		}
	}
	return path, pathWords, rest, true
}

// hasPathPrefix reports whether path starts with want.
func hasPathPrefix(path, want []string) bool {
	return len(path) >= len(want) && slices.Equal(path[:len(want)], want)
}

func gcloudOp(_ string, args []ir.Word) (InfraOp, bool) {
	path, words, rest, ok := cloudPath(args, gcloudValued)
	if !ok {
		return InfraOp{}, false
	}
	if len(path) > 0 && (path[0] == "alpha" || path[0] == "beta" || path[0] == "preview") {
		path, words = path[1:], words[1:]
	}
	for _, w := range rest {
		if !w.Unknown && (w.Value == "--help" || w.Value == "-h") {
			return InfraOp{}, false
		}
	}
	if hasPathPrefix(path, gcloudRecursiveRm) {
		if HasShort(rest, "rR") || HasLong(rest, "--recursive") || wholeWildcard(words[2:]) {
			return InfraOp{Kind: InfraCloud, Detail: "storage rm --recursive", Targets: words[2:]}, true
		}
		return InfraOp{}, false
	}
	for _, want := range gcloudDestructive {
		if hasPathPrefix(path, want) {
			return InfraOp{Kind: InfraCloud, Detail: strings.Join(want, " "), Targets: words[len(want):]}, true
		}
	}
	return InfraOp{}, false
}

// gsutilRecursiveRm is gsutil's object delete, which asks only with
// -r/-R/--recursive or a wildcard that reaches as far (wholeWildcard).
const gsutilRecursiveRm = "rm"

// gsutilSpec lists gsutil's global options that take a value.
var gsutilSpec = Spec{Short: "ohu"}

func gsutilOp(_ string, args []ir.Word) (InfraOp, bool) {
	// gsutil [-m] [-o K=V] [-h H] [-u PROJECT] rm -r|-R|-a URL...
	p := ParseArgs(args, gsutilSpec)
	ops := lowerOps(p.Operands)
	if len(ops) < 2 || ops[0] != gsutilRecursiveRm {
		return InfraOp{}, false
	}
	if p.Has("r", "R", "recursive") || wholeWildcard(p.Operands[1:]) {
		return InfraOp{Kind: InfraCloud, Detail: "rm -r", Targets: p.Operands[1:]}, true
	}
	return InfraOp{}, false
}

// wholeWildcard reports whether an object URL is a wildcard that reaches
// as far as a recursive delete: "**" anywhere (every object below, as -r
// does), or a bucket's whole top level (gs://b/*). A wildcard inside a
// prefix (gs://b/logs/*.log) is not. An unknown word is not known to be.
func wholeWildcard(urls []ir.Word) bool {
	for _, w := range urls {
		if w.Unknown {
			continue
		}
		_, rest, ok := strings.Cut(w.Value, "://")
		if !ok {
			continue
		}
		_, object, _ := strings.Cut(rest, "/")
		if strings.Contains(object, "**") || object == "*" {
			return true
		}
	}
	return false
}

// azDestructive are the az command paths that delete data or a whole
// system (key vault delete is recoverable while soft-delete lasts; purge
// is not).
var azDestructive = [][]string{
	{"group", "delete"},
	{"storage", "account", "delete"}, {"storage", "container", "delete"}, {"storage", "share", "delete"},
	{"storage", "blob", "delete-batch"},
	{"sql", "db", "delete"}, {"sql", "server", "delete"}, {"sql", "mi", "delete"},
	{"cosmosdb", "delete"}, {"cosmosdb", "sql", "database", "delete"},
	{"postgres", "server", "delete"}, {"postgres", "flexible-server", "delete"},
	{"mysql", "server", "delete"}, {"mysql", "flexible-server", "delete"},
	{"redis", "delete"},
	{"aks", "delete"},
	{"vm", "delete"}, {"vmss", "delete"}, {"disk", "delete"},
	{"keyvault", "purge"}, {"keyvault", "secret", "purge"}, {"keyvault", "key", "purge"},
	{"acr", "delete"}, {"acr", "repository", "delete"},
	{"apim", "delete"}, {"appconfig", "delete"},
	{"container", "delete"}, {"containerapp", "delete"}, {"image", "delete"},
	{"webapp", "delete"}, {"functionapp", "delete"}, {"logicapp", "delete"}, {"staticwebapp", "delete"},
	{"spring", "app", "delete"},
	{"storage", "queue", "delete"}, {"storage", "table", "delete"},
	{"servicebus", "namespace", "delete"}, {"servicebus", "queue", "delete"}, {"servicebus", "topic", "delete"},
	{"eventhubs", "namespace", "delete"}, {"eventhubs", "eventhub", "delete"},
	{"cosmosdb", "mongodb", "database", "delete"}, {"cosmosdb", "sql", "container", "delete"},
	{"synapse", "workspace", "delete"}, {"kusto", "cluster", "delete"},
	{"search", "service", "delete"}, {"iot", "hub", "delete"},
	{"storage", "fs", "delete"}, {"storage", "fs", "directory", "delete"},
	{"netappfiles", "volume", "delete"}, {"databricks", "workspace", "delete"}, {"hdinsight", "delete"},
	{"redisenterprise", "delete"}, {"snapshot", "delete"},
}

// azValued are the az options that take the next word, as far as finding
// the command path is concerned (every az argument is named).
var azValued = []string{"--name", "-n", "--resource-group", "-g", "--subscription", "--output", "-o",
	"--query", "--account-name", "--server", "-s", "--source", "--container-name", "-c", "--cluster-name",
	"--location", "-l", "--ids", "--account-key", "--connection-string", "--sas-token", "--pattern",
	"--repository", "--image", "--registry"}

func azOp(_ string, args []ir.Word) (InfraOp, bool) {
	// az takes no positional arguments: the command path ends at the
	// first option after it (az cosmosdb sql container delete -a ACC -d
	// DB -n C: the values of options azValued does not list are no path).
	for i := 1; i < len(args); i++ {
		if !args[i].Unknown && strings.HasPrefix(args[i].Value, "-") && !args[i-1].Unknown && !strings.HasPrefix(args[i-1].Value, "-") {
			args = slices.Concat(args[:i], stripOperands(args[i:]))
			break
		}
	}
	path, _, rest, ok := cloudPath(args, azValued)
	if !ok {
		return InfraOp{}, false
	}
	for _, w := range rest {
		if !w.Unknown && (w.Value == "--help" || w.Value == "-h") {
			return InfraOp{}, false
		}
	}
	for _, want := range azDestructive {
		if slices.Equal(path, want) {
			var targets []ir.Word
			for i, w := range rest {
				name, val, eq := strings.Cut(w.Value, "=")
				if w.Unknown || !slices.Contains([]string{"--name", "-n", "--resource-group", "-g", "--source", "-s"}, name) {
					continue
				}
				if eq {
					targets = append(targets, Literal(val))
				} else if i+1 < len(rest) {
					targets = append(targets, rest[i+1])
				}
			}
			return InfraOp{Kind: InfraCloud, Detail: strings.Join(want, " "), Targets: targets}, true
		}
	}
	return InfraOp{}, false
}

// stripOperands marks every word after the first of ws that is not an
// option as the value of the option before it, so cloudPath reads no
// path from them: "-a", "ACC" becomes "-a=ACC".
func stripOperands(ws []ir.Word) []ir.Word {
	out := make([]ir.Word, 0, len(ws))
	for _, w := range ws {
		if n := len(out); n > 0 && !w.Unknown && !strings.HasPrefix(w.Value, "-") && !out[n-1].Unknown &&
			strings.HasPrefix(out[n-1].Value, "-") && !strings.Contains(out[n-1].Value, "=") {
			out[n-1] = Literal(out[n-1].Value + "=" + w.Value)
			continue
		}
		out = append(out, w)
	}
	return out
}

// forgeDestructive are the gh (GitHub) and glab (GitLab) command paths
// that delete a repository, its releases or its packages for good (a
// deleted repository takes its issues, pull requests, wiki and CI history
// with it).
var forgeDestructive = map[string][][]string{
	"gh":   {{"repo", "delete"}, {"release", "delete"}, {"codespace", "delete"}, {"cs", "delete"}},
	"glab": {{"repo", "delete"}, {"release", "delete"}},
}

// forgeValued are the gh/glab options that take the next word.
var forgeValued = []string{"--repo", "-R", "--hostname", "--cleanup-tag"}

func forgeOp(name string, args []ir.Word) (InfraOp, bool) {
	path, pathWords, rest, ok := cloudPath(args, forgeValued)
	if !ok {
		return InfraOp{}, false
	}
	for _, w := range rest {
		if !w.Unknown && (w.Value == "--help" || w.Value == "-h") {
			return InfraOp{}, false
		}
	}
	for _, want := range forgeDestructive[name] {
		if hasPathPrefix(path, want) {
			targets := pathWords[len(want):]
			if r := Value(rest, "--repo", "-R"); r != nil {
				targets = append(targets, *r)
			}
			return InfraOp{Kind: InfraCloud, Detail: strings.Join(want, " "), Targets: targets}, true
		}
	}
	return InfraOp{}, false
}

// ---------------------------------------------------------------------------
// Containers

// containerEngineSpec lists the global options of docker, podman and
// nerdctl, and those of system prune and volume rm/prune, that take a
// value.
var containerEngineSpec = Spec{Short: "cHl", Long: []string{"context", "host", "config", "log-level", "tlscacert",
	"tlscert", "tlskey", "connection", "url", "identity", "root", "runroot", "storage-driver", "namespace",
	"address", "filter", "cgroup-manager", "events-backend", "network-cmd-path", "runtime", "tmpdir",
	"volumepath", "imagestore", "module", "storage-opt", "ssh"}}

func containerOp(name string, args []ir.Word) (InfraOp, bool) {
	p := ParseArgs(args, containerEngineSpec)
	ops := lowerOps(p.Operands)
	if h, _ := pflagBool(p, "help", "h"); h || len(ops) < 2 {
		return InfraOp{}, false
	}
	op := InfraOp{Kind: InfraContainer}
	switch {
	case ops[0] == "system" && ops[1] == "prune":
		_, all := pflagBool(p, "all", "a")
		_, vols := pflagBool(p, "volumes")
		switch {
		case all && vols:
			op.Detail = "system prune --all --volumes"
		case vols:
			op.Detail = "system prune --volumes"
		case all:
			op.Detail = "system prune --all"
		default:
			return InfraOp{}, false
		}
		return op, true
	case ops[0] == "system" && ops[1] == "reset" && name == "podman":
		op.Detail = "system reset"
		return op, true
	case ops[0] == "volume" && (ops[1] == "rm" || ops[1] == "remove"):
		op.Detail, op.Targets = "volume "+ops[1], p.Operands[2:]
		if _, all := pflagBool(p, "all", "a"); all && name == "podman" {
			op.Detail += " --all"
		} else if len(op.Targets) == 0 {
			return InfraOp{}, false
		}
		return op, true
	case ops[0] == "volume" && ops[1] == "prune":
		op.Detail = "volume prune"
		return op, true
	}
	return InfraOp{}, false
}

// ---------------------------------------------------------------------------
// Names

// nameTokens splits a name at everything but letters and digits,
// lower-cased.
func nameTokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
}

// LocalKubeContext reports whether a kubeconfig context name is one the
// local cluster tools create for a cluster on this machine: kind
// (kind-NAME), minikube, k3d (k3d-NAME), Docker Desktop, Rancher Desktop,
// OrbStack, microk8s.
func LocalKubeContext(ctx string) bool {
	c := strings.ToLower(ctx)
	switch c {
	case "minikube", "docker-desktop", "docker-for-desktop", "rancher-desktop", "orbstack", "microk8s", "colima":
		return true
	}
	return strings.HasPrefix(c, "kind-") || strings.HasPrefix(c, "k3d-")
}

// ProductionLike reports whether a name (namespace, context, stage)
// reads as a production environment: one of its words is prod,
// production, prd or live.
func ProductionLike(name string) bool {
	for _, t := range nameTokens(name) {
		switch t {
		case "prod", "production", "prd", "live":
			return true
		}
	}
	return false
}

// DisposableName reports whether a database name reads as a throwaway
// one: one of its words is test, tests, testing, dev, development, local,
// tmp, temp, scratch or sandbox (myapp_test, dev, test-db), and none
// reads as production.
func DisposableName(name string) bool {
	if ProductionLike(name) {
		return false
	}
	for _, t := range nameTokens(name) {
		switch t {
		case "test", "tests", "testing", "dev", "development", "local", "tmp", "temp", "scratch", "sandbox":
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Commands run inside a container or a pod

// execValued are the options of docker/podman/nerdctl exec, compose exec
// and compose's global options that take a value.
var execValued = Spec{Short: "euwfp", Long: []string{"env", "env-file", "user", "workdir", "detach-keys", "index",
	"file", "project-name", "project-directory", "profile", "context", "host", "config", "log-level",
	"container", "pod-running-timeout"}}

// ContainerExec returns the command line (argv) a docker, podman or
// nerdctl exec (also container exec, compose exec), or a kubectl or oc
// exec, runs inside the container or pod; ok is false for anything else
// and when the command is not given. Pure; linear in args.
func ContainerExec(name string, args []ir.Word) ([]ir.Word, bool) {
	switch name {
	case "kubectl", "oc":
		// kubectl exec POD [-c C] -- COMMAND...
		for i, a := range args {
			if !a.Unknown && a.Value == "--" {
				pre := ParseArgs(args[:i], kubectlSpec)
				if len(pre.Operands) > 0 && !pre.Operands[0].Unknown && pre.Operands[0].Value == "exec" && i+1 < len(args) {
					return args[i+1:], true
				}
				return nil, false
			}
		}
		return nil, false
	case "docker", "podman", "nerdctl", "docker-compose", "podman-compose":
	default:
		return nil, false
	}
	// Options up to "exec", the container (or service), then the command:
	// exec's own options end at the container (POSIX order).
	seenExec := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			if !seenExec || strings.HasPrefix(a.KnownPrefix, "-") || i+1 == len(args) {
				return nil, false
			}
			return args[i+1:], true // a container named by "$C" or $(docker ps -q)
		}
		v := a.Value
		if strings.HasPrefix(v, "-") && v != "-" {
			n, _, eq := strings.Cut(strings.TrimLeft(v, "-"), "=")
			if !eq && (strings.HasPrefix(v, "--") && slices.Contains(execValued.Long, n) ||
				!strings.HasPrefix(v, "--") && len(n) > 0 && strings.Contains(execValued.Short, n[len(n)-1:])) {
				i++
			}
			continue
		}
		switch {
		case !seenExec && (v == "container" || v == "compose"):
		case !seenExec && v == "exec":
			seenExec = true
		case !seenExec:
			return nil, false
		default: // the container; the command follows
			if i+1 < len(args) {
				return args[i+1:], true
			}
			return nil, false
		}
	}
	return nil, false
}
