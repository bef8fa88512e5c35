package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Managed services beyond compute and buckets: the command paths of the
// cloud, cluster and virtualisation CLIs whose run deletes a system or
// the data it holds for good — databases and their clusters, queues,
// streams and Kafka clusters, identity pools, app hosting, registries, API
// gateways, Kubernetes clusters (managed, virtual, or the node's own),
// virtual machines and containers with their disks, backups, storage
// pools. One table, verb × resource per CLI, read by one reader
// (servicePathOp); aws, gcloud and az keep theirs in infra.go (their
// command lines are read differently) and this file adds their rows.
//
// A path is the leading operands, compared case-insensitively; a word may
// list aliases ("databases|d"). Reading, listing, describing, dry runs and
// help are never paths here, so they stay silent; so do deletes of a
// single record, key, message or object, of configuration (aliases,
// labels, firewall rules, users of a database), and deletes of local
// throwaway clusters (kind, k3d, minikube).

// servicePath is one command path that destroys.
type servicePath struct {
	// path: the leading operands, space-separated; "a|b" lists aliases.
	path string
	// kind: what it destroys.
	kind InfraKind
	// needs: the run destroys only with one of these options given
	// (kops delete cluster only previews without --yes).
	needs []string
}

// serviceCLI is one CLI's paths and how its command line is read.
type serviceCLI struct {
	spec  Spec
	paths []servicePath
	// dry: options that make any run a preview (help is always one).
	dry []string
}

// serviceCLIs: the CLIs read by servicePathOp, from each one's reference.
var serviceCLIs = map[string]serviceCLI{
	// DigitalOcean: databases (d), kubernetes (k8s, k), compute droplet
	// (d) and volume, registry, apps; delete's aliases rm, d, del.
	"doctl": {spec: SpecFor("--context", "-t", "--access-token", "-o", "--output", "--config", "-c", "--api-url"), paths: []servicePath{
		{path: "databases|database|db|d delete|rm|d|del", kind: InfraCloud},
		{path: "databases|database|db|d db delete|rm|d|del", kind: InfraCloud},
		{path: "kubernetes|kube|k8s|k cluster|clusters|c delete|rm|d|del", kind: InfraCluster},
		{path: "compute|c droplet|d delete|rm|d|del", kind: InfraCloud},
		{path: "compute|c volume delete|rm|d|del", kind: InfraCloud},
		{path: "registry|reg|r delete|rm|d|del", kind: InfraCloud},
		{path: "apps|app|a delete|rm|d|del", kind: InfraCloud},
		{path: "compute|c snapshot delete|rm|d|del", kind: InfraCloud},
	}},
	// Scaleway: servers (with their volumes by default), volumes,
	// managed databases, buckets, Kubernetes clusters.
	"scw": {spec: SpecFor("-p", "--profile", "-c", "--config", "-o", "--output"), paths: []servicePath{
		{path: "instance server delete|terminate", kind: InfraCloud},
		{path: "instance volume delete", kind: InfraCloud},
		{path: "rdb instance delete", kind: InfraCloud},
		{path: "rdb database delete", kind: InfraCloud},
		{path: "object bucket delete", kind: InfraCloud},
		{path: "k8s cluster delete", kind: InfraCluster},
	}},
	// Hetzner Cloud: servers and volumes.
	"hcloud": {spec: SpecFor("--config", "--context", "-o", "--output"), paths: []servicePath{
		{path: "server delete", kind: InfraCloud},
		{path: "volume delete", kind: InfraCloud},
	}},
	// Oracle Cloud: databases, buckets, instances (their boot volume
	// goes unless preserved), volumes, Kubernetes clusters.
	"oci": {spec: SpecFor("--profile", "--config-file", "--region", "--output", "--query", "--auth"), paths: []servicePath{
		{path: "db autonomous-database delete", kind: InfraCloud},
		{path: "db database delete", kind: InfraCloud},
		{path: "db system terminate", kind: InfraCloud},
		{path: "mysql db-system delete", kind: InfraCloud},
		{path: "os bucket delete", kind: InfraCloud},
		{path: "compute instance terminate", kind: InfraCloud},
		{path: "bv volume delete", kind: InfraCloud},
		{path: "ce cluster delete", kind: InfraCluster},
	}},
	"vultr-cli": {spec: SpecFor("--config", "-o", "--output"), paths: []servicePath{
		{path: "instance delete|destroy", kind: InfraCloud},
		{path: "database delete", kind: InfraCloud},
		{path: "block-storage delete", kind: InfraCloud},
		{path: "kubernetes|k delete", kind: InfraCluster},
	}},
	// Exoscale: instances, managed databases, buckets, SKS clusters.
	"exo": {spec: SpecFor("-C", "--config", "-O", "--output-format", "-z", "--zone", "-A", "--use-account"), paths: []servicePath{
		{path: "compute instance delete", kind: InfraCloud},
		{path: "dbaas delete", kind: InfraCloud},
		{path: "storage rb", kind: InfraCloud},
		{path: "compute sks delete", kind: InfraCluster},
	}},
	"ibmcloud": {spec: SpecFor("-r", "-g", "-a"), paths: []servicePath{
		{path: "resource service-instance-delete", kind: InfraCloud},
		{path: "is instance-delete", kind: InfraCloud},
		{path: "is volume-delete", kind: InfraCloud},
		{path: "ks cluster rm", kind: InfraCluster},
	}},
	// AWS Copilot: an application or environment goes with everything
	// deployed in it.
	"copilot": {spec: SpecFor("-a", "--app", "-e", "--env", "-n", "--name"), paths: []servicePath{
		{path: "app delete", kind: InfraCloud},
		{path: "env delete", kind: InfraCloud},
	}},
	"eksctl": {spec: SpecFor("-n", "--name", "-r", "--region", "-p", "--profile", "-f", "--config-file"), paths: []servicePath{
		{path: "delete cluster", kind: InfraCluster},
	}},
	"kops": {spec: SpecFor("--name", "--state", "-v", "--config"), paths: []servicePath{
		{path: "delete cluster", kind: InfraCluster, needs: []string{"yes", "y"}},
	}},
	"linode-cli": {spec: SpecFor("--as-user", "--suppress-warnings", "--page", "--page-size", "--format"), paths: []servicePath{
		{path: "linodes delete", kind: InfraCloud},
		{path: "lke clusters|cluster delete", kind: InfraCluster},
		{path: "lke cluster-delete", kind: InfraCluster},
		{path: "volumes delete", kind: InfraCloud},
		{path: "object-storage buckets|bucket delete", kind: InfraCloud},
		{path: "obj rb", kind: InfraCloud},
		{path: "domains delete", kind: InfraCloud},
		{path: "databases mysql-delete|postgresql-delete", kind: InfraCloud},
	}},
	"openstack": {spec: SpecFor("--os-cloud", "--os-region-name", "--os-project-name", "--os-auth-url", "--os-username",
		"--os-password", "-f", "--format", "-c", "--column"), paths: []servicePath{
		{path: "server delete", kind: InfraCloud},
		{path: "volume delete", kind: InfraCloud},
		{path: "image delete", kind: InfraCloud},
		{path: "stack delete", kind: InfraCloud},
		{path: "project delete", kind: InfraCloud},
		{path: "database instance delete", kind: InfraCloud},
		{path: "container delete", kind: InfraCloud},
		{path: "coe cluster delete", kind: InfraCluster},
	}},
	// Argo CD deletes an application together with the resources it
	// deployed (cascade is the default).
	"argocd": {spec: SpecFor("--server", "--auth-token", "--grpc-web-root-path", "--config", "--context", "-o", "--output",
		"-N", "--app-namespace", "-p", "--propagation-policy"), paths: []servicePath{
		{path: "app|apps|application|applications delete|rm", kind: InfraCluster},
		{path: "proj|project delete|rm", kind: InfraCluster},
		{path: "cluster rm", kind: InfraCluster},
	}},
	"vcluster": {spec: SpecFor("-n", "--namespace", "--context", "--driver"), paths: []servicePath{
		{path: "delete|rm", kind: InfraCluster},
		{path: "platform delete", kind: InfraCluster},
	}},
	"loft": {spec: SpecFor("--project", "--cluster", "--space"), paths: []servicePath{
		{path: "delete vcluster|space", kind: InfraCluster},
	}},
	// kubeadm reset and talosctl reset wipe the node's cluster state
	// (etcd data on a control-plane node, certificates, manifests).
	"kubeadm": {spec: SpecFor("--cri-socket", "--kubeconfig", "--cert-dir", "--config"), paths: []servicePath{
		{path: "reset", kind: InfraCluster},
	}},
	"talosctl": {spec: SpecFor("-n", "--nodes", "-e", "--endpoints", "--context", "--talosconfig"), paths: []servicePath{
		{path: "reset", kind: InfraCluster},
	}},
	"velero": {spec: SpecFor("-n", "--namespace", "--kubecontext", "--kubeconfig"), paths: []servicePath{
		{path: "backup|backups delete", kind: InfraCluster},
	}},
	// LXD and Incus system containers and VMs keep their root disk:
	// delete (rm) loses it.
	"incus": {spec: SpecFor("--project"), paths: []servicePath{
		{path: "delete|rm", kind: InfraCloud},
		{path: "storage delete", kind: InfraCloud},
		{path: "storage volume delete", kind: InfraCloud},
	}},
	"lxc": {spec: SpecFor("--project"), paths: []servicePath{
		{path: "delete|rm", kind: InfraCloud},
		{path: "storage delete", kind: InfraCloud},
		{path: "storage volume delete", kind: InfraCloud},
	}},
	"lxc-destroy": {spec: SpecFor("-n", "--name", "-P", "--lxcpath", "-o", "--logfile", "-l", "--logpriority"),
		paths: []servicePath{{path: "", kind: InfraCloud}}},
	// libvirt: undefine with the domain's storage, a volume, a pool's
	// storage (pool-destroy only stops a pool).
	"virsh": {spec: SpecFor("-c", "--connect"), paths: []servicePath{
		{path: "undefine", kind: InfraCloud, needs: []string{"remove-all-storage", "storage", "wipe-storage"}},
		{path: "vol-delete|vol-wipe", kind: InfraCloud},
		{path: "pool-delete", kind: InfraCloud},
	}},
	"VBoxManage": vboxManage, "vboxmanage": vboxManage,
	// Proxmox: qm (VMs) and pct (containers) destroy, with aliases.
	"qm": {spec: SpecFor("--force", "--archive", "--storage"), paths: []servicePath{
		{path: "destroy|des", kind: InfraCloud},
		{path: "create|cr", kind: InfraCloud, needs: []string{"force"}},
	}},
	"pct": {spec: SpecFor("--force", "--archive", "--storage"), paths: []servicePath{
		{path: "destroy|des", kind: InfraCloud},
		{path: "create|cr", kind: InfraCloud, needs: []string{"force"}},
	}},
	"ceph": {spec: SpecFor("-c", "--conf", "-n", "--name", "--cluster", "-k", "--keyring"), paths: []servicePath{
		{path: "osd pool delete|rm", kind: InfraCloud},
		{path: "fs rm|fail", kind: InfraCloud},
	}},
	// dokku destroys an app or a database service with its data.
	"dokku": {paths: []servicePath{
		{path: "apps:destroy", kind: InfraCloud},
		{path: "postgres:destroy|mysql:destroy|mariadb:destroy|mongo:destroy|redis:destroy|rabbitmq:destroy|elasticsearch:destroy", kind: InfraCloud},
	}},
	// RabbitMQ: reset returns a node to its virgin state (queues,
	// messages, users gone).
	"rabbitmqctl": {spec: SpecFor("-n", "--node", "-t", "--timeout"), paths: []servicePath{
		{path: "reset|force_reset", kind: InfraCloud},
		{path: "delete_queue|purge_queue", kind: InfraCloud},
	}},
	"kdb5_util": {spec: SpecFor("-r", "-d", "-k", "-M", "-sf"), paths: []servicePath{
		{path: "destroy", kind: InfraCloud},
	}},
	"stratis": {paths: []servicePath{
		{path: "filesystem|fs destroy", kind: InfraCloud},
		{path: "pool destroy", kind: InfraCloud},
	}},
	// etcd: del with --prefix or --from-key deletes a whole key range
	// (del KEY deletes one key).
	"etcdctl": {spec: SpecFor("--endpoints", "--user", "--password", "--cacert", "--cert", "--key",
		"--command-timeout", "--dial-timeout", "-w", "--write-out", "--discovery-srv"), paths: []servicePath{
		{path: "del", kind: InfraDatabase, needs: []string{"prefix", "from-key"}},
	}},
	// BigQuery: rm of a table, view, model or a dataset (-r: with its
	// tables); bq query is read as an SQL client (ParseDBClient).
	"bq": {spec: SpecFor("--project_id", "--location", "--dataset_id", "--format", "--api", "--flagfile"), paths: []servicePath{
		{path: "rm", kind: InfraDatabase},
	}},
	// Kafka's topic tool deletes a topic with its messages.
	"kafka-topics": kafkaTopics, "kafka-topics.sh": kafkaTopics,
	// sqlx database drop/reset drops the database DATABASE_URL (or -D)
	// names.
	"sqlx": {spec: SpecFor("-D", "--database-url", "--source", "--connect-timeout"), paths: []servicePath{
		{path: "database|db drop|reset", kind: InfraDatabase},
	}},
	// dvc destroy removes every DVC file and the cache with the data
	// versions it holds.
	"dvc": {paths: []servicePath{{path: "destroy", kind: InfraIaC}}},
	"ndctl": {paths: []servicePath{
		{path: "destroy-namespace", kind: InfraCloud},
	}},
}

// kafkaTopics: kafka-topics --delete (its options are all named).
var kafkaTopics = serviceCLI{spec: SpecFor("--zookeeper", "--bootstrap-server", "--topic", "--command-config",
	"--partitions", "--replication-factor", "--config", "--delete-config", "--replica-assignment"),
	paths: []servicePath{{path: "", kind: InfraDatabase, needs: []string{"delete"}}}}

// vboxManage: VirtualBox's unregistervm --delete (the VM's disks too),
// closemedium --delete, and a cloud instance's termination.
var vboxManage = serviceCLI{paths: []servicePath{
	{path: "unregistervm", kind: InfraCloud, needs: []string{"delete", "delete-all"}},
	{path: "closemedium", kind: InfraCloud, needs: []string{"delete"}},
	{path: "cloud instance terminate", kind: InfraCloud},
}}

// matchPath reports whether ops (lower-cased operands) start with the
// path, and its length in words.
func matchPath(ops []string, path string) (int, bool) {
	if path == "" {
		return 0, true
	}
	n := 0 // the words of path, read in place (no allocation: called per command)
	for w := range strings.FieldsSeq(path) {
		if n >= len(ops) {
			return 0, false
		}
		found := false
		for alt := range strings.SplitSeq(w, "|") {
			if alt == ops[n] {
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
		n++
	}
	return n, true
}

// servicePathOp reads a CLI of serviceCLIs. Options may come anywhere
// (after the path too, as every one of these CLIs accepts them); an
// unknown word in the path stops the reading (no guess).
func servicePathOp(name string, args []ir.Word) (InfraOp, bool) {
	cli, ok := serviceCLIs[name]
	if !ok {
		return InfraOp{}, false
	}
	p := ParseArgs(args, cli.spec)
	if p.Has("h", "help", "?") || p.Has("dry-run", "dryrun") || (len(cli.dry) > 0 && p.Has(cli.dry...)) {
		return InfraOp{}, false
	}
	var ops []string
	for _, w := range p.Operands {
		if w.Unknown {
			break
		}
		ops = append(ops, strings.ToLower(w.Value))
	}
	for _, sp := range cli.paths {
		n, ok := matchPath(ops, sp.path)
		if !ok || (len(sp.needs) > 0 && !serviceNeeds(p, sp.needs)) {
			continue
		}
		detail := strings.Join(ops[:n], " ")
		if detail == "" {
			detail = name
		}
		if slices.Contains(ops[n:], "help") {
			return InfraOp{}, false
		}
		return InfraOp{Kind: sp.kind, Detail: detail, Targets: p.Operands[n:]}, true
	}
	return InfraOp{}, false
}

// serviceNeeds reports whether one of the needed options is given and not
// turned off (--force 0, --force=false).
func serviceNeeds(p Args, names []string) bool {
	for _, o := range p.Opts {
		if !slices.Contains(names, o.Name) {
			continue
		}
		if o.Val == nil || o.Val.Unknown {
			return true
		}
		switch strings.ToLower(o.Val.Value) {
		case "0", "false", "no":
			continue
		}
		return true
	}
	return false
}

func init() {
	for name := range serviceCLIs {
		infraCLIs[name] = servicePathOp
	}
}
