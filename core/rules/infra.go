package rules

import "github.com/zcode-fence/zcode-fence/core/cmdfacts"

// Infra is the danger gate's family about bulk and irreversible loss
// outside the local disk: infrastructure as code, clusters, clouds, data
// stores reached through their clients, and container volumes. The
// command facts (verbs, options, the SQL classifier) are
// core/cmdfacts.Infra and ParseDBClient. Templates may use {cmd},
// {detail} (the subcommand and options that matter) and {subject} (what
// it acts on: stack, namespace, bucket, database, table).
var Infra = family(&Family{Layer: dangerLayer, Name: "infra", Title: "Infrastructure and data stores",
	Doc: "Bulk and irreversible operations only; plans, previews, dry runs, listings and help stay silent. " +
		"A target that is clearly local and disposable stays silent: a SQLite file inside the writable roots " +
		"(the project, temp, extra_writable_roots) or in memory; a database whose name reads as a throwaway one " +
		"(a word test, tests, testing, dev, development, local, tmp, temp, scratch or sandbox, and none of " +
		"prod, production, prd, live) on this machine (no host, localhost, 127.x, ::1, a socket path) — not " +
		"Redis, whose databases have no names; a cluster command that names a local cluster's context " +
		"(--context kind-*, k3d-*, minikube, docker-desktop, rancher-desktop, orbstack, microk8s, colima)."})

// The Infra family.
var (
	IaCDestroy = def(&Rule{ID: "DG-IAC-DESTROY", Family: Infra,
		Doc: "terraform, tofu and terragrunt destroy (also with -target), apply -destroy (not -destroy=false; -destroy with -refresh-only is rejected by terraform), state rm (not -dry-run), state push -force, workspace delete -force (-chdir=DIR and other global options read); pulumi destroy/down (not --preview-only), stack rm --force, state delete; cdk and cdktf destroy; sam delete (the SAM application's stack); serverless/sls and sst remove; {list}. plan -destroy, plan, apply, show and the like stay silent.",
		Zh:  "{cmd} {detail}{subject} 会销毁基础设施或其状态记录，无法撤销。",
		En:  "{cmd} {detail}{subject} destroys infrastructure or its state for good.", covers: infra(cmdfacts.InfraIaC)})
	ClusterDelete = def(&Rule{ID: "DG-K8S-DELETE", Family: Infra,
		Doc: "kubectl (or oc) delete with --all or -A/--all-namespaces; {list} (kubectl kinds given as TYPE NAME, TYPE/NAME or TYPE.GROUP; OpenShift projects are namespaces); helm uninstall (delete, del, un) in a namespace or kube context named like production. --dry-run (client, server) stays silent, and so do other kinds named one by one (kubectl delete pod x), and delete -f/-k (the manifest is not read).",
		Zh:  "{cmd} {detail}{subject} 会批量删除集群资源及其数据，无法恢复。",
		En:  "{cmd} {detail}{subject} deletes cluster resources and their data for good.", covers: infra(cmdfacts.InfraCluster)})
	ClusterDrain = def(&Rule{ID: "DG-K8S-DRAIN", Family: Infra,
		Doc: "kubectl (or oc) drain: evicts every pod from a node (not --dry-run).",
		Zh:  "{cmd} {detail}{subject} 会驱逐该节点上的全部 Pod，服务可能中断。",
		En:  "{cmd} {detail}{subject} evicts every pod from the node; services may go down."})
	CloudDelete = def(&Rule{ID: "DG-CLOUD-DELETE", Family: Infra,
		Doc: "Cloud, service, cluster and virtualisation CLIs deleting data or a whole system: {list}. aws: global options before the service are read, long options abbreviated as argparse allows, and --dry-run (s3: --dryrun) stays silent; gcloud: also alpha, beta and preview. rclone: purge REMOTE:PATH, delete REMOTE:PATH without a filter (not -n, -i, or a local path). gh api -X/--method DELETE of a repository (repos/O/R), an organisation (orgs/O), a release (repos/O/R/releases/ID) or a package (orgs/O/packages/..., user/packages/..., users/U/packages/...), as a path or a full URL (other endpoints and methods stay silent). help, -h/--help and --generate-cli-skeleton stay silent, and so do reads, listings and deletes of one record, key or object.",
		Zh:  "{cmd} {detail}{subject} 会删除云上的数据或资源，无法恢复。",
		En:  "{cmd} {detail}{subject} deletes cloud data or resources for good.", covers: infra(cmdfacts.InfraCloud)})
	DatabaseDestroy = def(&Rule{ID: "DG-DB-DESTROY", Family: Infra,
		Doc: "A database client running DROP DATABASE|SCHEMA|TABLE|KEYSPACE, TRUNCATE, DELETE or UPDATE without WHERE (or with WHERE true, 1=1), ALTER TABLE ... DROP [COLUMN] or DROP PARTITION (any case, comments skipped, MySQL /*! */ read as code, PostgreSQL DO blocks read; one SQL classifier for every client), FLUSHALL/FLUSHDB, DEL/UNLINK fed by xargs from KEYS '*' or --scan, or dropDatabase(), COLLECTION.drop(), deleteMany({}) / remove({}): psql -c/--command (abbreviations too), mysql/mariadb -e/--execute, sqlite3 and duckdb FILE SQL, -c or -cmd, clickhouse-client -q/--query, cqlsh -e, bq query SQL, sqlcmd -Q/-q, snowsql -q, trino/presto --execute, redis-cli/valkey-cli/keydb-cli COMMAND, mongosh/mongo --eval (a use NAME before it names the database), or any of them fed by a heredoc, a here-string or literal text piped in (echo, printf, cat <<EOF); a script file of an SQL client (psql -f, sqlite3 -init, duckdb -f, cqlsh -f, sqlcmd -i, snowsql -f, clickhouse-client --queries-file, trino -f, a file fed to its input with <, and the files SQL text includes: psql \\i/\\ir, mysql source, sqlite3 .read), read from disk when the call runs it and named file:line in the reason; dropdb NAME; mysqladmin drop NAME; {list}; an HTTP DELETE of an Elasticsearch/OpenSearch index or data stream (curl -X DELETE, http/xh DELETE; port 9200/9243 or a search host). Local disposable targets stay silent (see the family). SELECT, INSERT, DELETE/UPDATE ... WHERE, ALTER TABLE ... DROP CONSTRAINT|INDEX|DEFAULT, a document's DELETE and a script file that does not exist stay silent.",
		Zh:  "{cmd} {detail}{subject} 会删除数据库中的数据，无法恢复。",
		En:  "{cmd} {detail}{subject} deletes database data for good.", covers: infra(cmdfacts.InfraDatabase)})
	ContainerPrune = def(&Rule{ID: "DG-CONTAINER-PRUNE", Family: Infra,
		Doc: "docker, podman or nerdctl system prune with -a/--all or --volumes, volume rm/remove NAME (podman volume rm --all), volume prune; podman system reset (global options such as --context, -H read); docker/podman/nerdctl compose and docker-compose/podman-compose down -v/--volumes (the project's named volumes; not --volumes=false). docker image prune, container prune, system prune without -a or --volumes, and compose down without -v stay silent.",
		Zh:  "{cmd} {detail}{subject} 会删除容器卷或镜像，卷中数据无法恢复。",
		En:  "{cmd} {detail}{subject} removes container volumes or images; volume data is lost."})
	FrameworkDBReset = def(&Rule{ID: "DG-FRAMEWORK-DB-RESET", Family: Infra,
		Doc: "An ORM or web framework dropping or emptying the application's database without a prompt of its own (core/cmdfacts.Platform; also through npx, pnpm/yarn dlx|exec, yarn/pnpm BIN, bundle exec, bin/rails, uv/poetry run): prisma migrate reset -f/--force, prisma db push --force-reset or --accept-data-loss; rails and rake db:drop, db:reset, db:schema:load, db:structure:load, db:setup, db:migrate:reset, db:purge, db:truncate_all, db:seed:replant (also :NAME and :all); manage.py / django-admin / python -m django flush or reset_db with --noinput/--no-input, or with their prompt answerable on standard input (a pipe, a heredoc or here-string, a file redirected other than /dev/null); sequelize-cli db:drop, db:migrate:undo:all, db:seed:undo:all; typeorm schema:drop; knex migrate:rollback --all; alembic downgrade base (not --sql); drizzle-kit push --force; mix ecto.drop, ecto.reset, ecto.rollback --all (also inside mix do); php artisan / ./artisan / sail artisan migrate:fresh, migrate:refresh, migrate:reset, db:wipe (not --pretend); bin/console / symfony console doctrine:database:drop or doctrine:schema:drop with --force (not --dump-sql), console command names also abbreviated part by part (d:d:d, migrate:fr); supabase db reset --linked or --db-url (the remote database). The test environment stays silent (RAILS_ENV, RACK_ENV, MIX_ENV, APP_ENV, NODE_ENV before the command, a RAILS_ENV=test task argument, --env/-e test or testing), and so does a database URL naming a local throwaway database as the family reads database names (DATABASE_URL=... before prisma or rails, --url, --db-url: postgresql://localhost/app_test); and so do the forms whose own prompt stands (prisma migrate reset without --force, flush without --noinput and nothing feeding its input, doctrine drops without --force), supabase db reset of the local stack, and prisma migrate dev, rails db:migrate, db:seed, db:rollback, manage.py migrate, mix ecto.migrate, artisan migrate.",
		Zh:  "{cmd} {detail}{subject} 会删除或清空应用的数据库，数据无法恢复。",
		En:  "{cmd} {detail}{subject} drops or empties the application's database; its data is lost."})
	PlatformDestroy = def(&Rule{ID: "DG-PLATFORM-DESTROY", Family: Infra,
		Doc: "A hosted platform destroying an app, a site, a database or their data, whether or not its CLI prompts (as the cloud CLIs' deletes): {list} (heroku's also written with a space: heroku apps destroy); fly/flyctl destroy, apps destroy (delete, remove, rm), volumes destroy, storage destroy, redis destroy; vercel/vc remove or rm of a deployment or project, project rm; netlify sites:delete; firebase firestore:delete with --all-collections or -r/--recursive or of a collection path (every document in it), firestore:databases:delete, database:remove (wrangler, neonctl, turso and pscale: not with --dry-run; Neon branches stay silent). Local virtual machines destroyed with their disks: vagrant destroy -f/--force or --parallel (which implies --force), multipass delete -p/--purge, multipass purge. heroku logs, fly deploy, vercel deploy, firebase deploy, firestore:delete of one document path (users/alice), vagrant destroy without -f (it prompts), vagrant halt and multipass delete without --purge (recoverable) stay silent.",
		Zh:  "{cmd} {detail}{subject} 会永久销毁托管的应用、站点、数据库或虚拟机及其数据。",
		En:  "{cmd} {detail}{subject} destroys a hosted app, site, database or virtual machine with its data for good.", covers: hosted})
)

// hosted is the covers of PlatformDestroy: the hosted platforms' rows.
func hosted() []cmdfacts.Covered { return cmdfacts.HostedCoverage() }
