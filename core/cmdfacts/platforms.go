package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Framework database resets and hosted-platform destroys: which
// invocations of the ORM and web-framework tools drop or empty the
// application's database, which invocations of the hosted-platform CLIs
// destroy an app, a site, a database or their data, and which forms of
// docker compose, gh api and the local VM managers lose volumes,
// repositories or machines. Each CLI is read the way it reads its own
// command line (options anywhere unless noted; "--" ends them).
//
// The line drawn, tool by tool, from each tool's reference:
//
//   - A framework reset asks when it runs without a prompt of its own:
//     either the tool never prompts, or the form given skips the prompt.
//     A form whose own prompt stands stays silent: the agent's shell has
//     no terminal, so the tool refuses or reads end of input as "no".
//   - prisma migrate reset drops the database (or every table), recreates
//     it and reapplies the migrations; it prompts unless -f/--force, and
//     refuses in a non-interactive shell without it. prisma db push
//     --force-reset drops everything before pushing; --accept-data-loss
//     applies changes that drop columns or tables without the warning
//     that otherwise stops the push.
//   - rails and rake database tasks have no prompt; Active Record refuses
//     them against a database marked production unless
//     DISABLE_DATABASE_ENVIRONMENT_CHECK is set, which does not protect
//     the development data. db:drop, db:reset, db:schema:load and
//     db:structure:load (tables recreated, rows gone), db:setup (loads the
//     schema), db:migrate:reset, db:purge, db:truncate_all and
//     db:seed:replant destroy data, also per database (db:drop:primary)
//     and :all. RAILS_ENV / RACK_ENV, given before the command or as a
//     task argument, name the environment.
//   - django's flush empties every table and prompts unless
//     --noinput/--no-input; django-extensions' reset_db drops and
//     recreates the database, prompting the same way. The prompt is read
//     with input(), so text piped in (echo yes |) or a here-string
//     answers it: that form is reported with NeedsInput.
//   - sequelize-cli db:drop and db:migrate:undo:all, typeorm schema:drop,
//     knex migrate:rollback --all, alembic downgrade base, mix ecto.drop,
//     ecto.reset and ecto.rollback --all (also inside mix do) have no
//     prompt. drizzle-kit push
//     prompts before statements that lose data unless --force.
//   - laravel's migrate:fresh, migrate:refresh, migrate:reset and db:wipe
//     prompt only in the production environment (--force skips it):
//     against the local database they run at once (php artisan, ./artisan,
//     sail artisan).
//   - symfony's doctrine:database:drop and doctrine:schema:drop refuse to
//     run without --force (-f) (bin/console, php bin/console, symfony
//     console). Both consoles take command names abbreviated part by part
//     (d:d:d, migrate:fr).
//   - supabase db reset resets the local development stack by default
//     (silent); with --linked or --db-url it resets a remote database
//     behind a y/N prompt that does not name the project (--yes, a global
//     option, answers it), so it asks.
//   - A reset whose database URL (DATABASE_URL=... before prisma or
//     rails, --url, --db-url) names a local database with a throwaway
//     name (LocalDisposableURL) stays silent, as the database clients'
//     drops of such a database do; so does one in the framework's test
//     environment (TestEnvName).
//   - Hosted-platform destroys ask whether or not the CLI prompts, as the
//     cloud CLIs' deletes do: heroku apps:destroy (destroy, apps:delete),
//     addons:destroy (addons:remove, addons:delete), pg:reset; fly and
//     flyctl apps destroy (delete, remove), destroy, volumes destroy,
//     storage destroy, redis destroy; vercel remove/rm and project rm;
//     netlify sites:delete; firebase firestore:delete with
//     --all-collections, -r/--recursive, or of a collection path (every
//     document in it; one document path stays silent),
//     firestore:databases:delete, database:remove; wrangler delete, d1
//     delete, r2 bucket delete, kv namespace delete; neonctl projects and
//     databases delete; turso db destroy; pscale database delete (see
//     hostedPaths).
//   - gh api with -X/--method DELETE on a repository (repos/O/R), an
//     organisation (orgs/O), a release or a package: the API form of gh
//     repo delete / release delete. Other methods and endpoints stay
//     silent.
//   - docker compose down -v/--volumes (docker, podman and nerdctl
//     compose, docker-compose, podman-compose) removes the project's
//     named volumes, as docker volume rm does.
//   - vagrant destroy -f/--force or --parallel, which implies it (without
//     a terminal, the prompt fails with DestroyRequiresForce), and multipass
//     delete -p/--purge, multipass purge (a plain delete can be
//     recovered) destroy virtual machines with their disks.

// PlatformKind says what a platform or framework operation destroys.
type PlatformKind uint8

const (
	// PlatformDBReset: a framework or ORM command drops or empties the
	// application's database.
	PlatformDBReset PlatformKind = iota + 1
	// PlatformHosted: a hosted platform destroys an app, a site, a
	// database or their data.
	PlatformHosted
	// PlatformVM: a local virtual machine is destroyed with its disk.
	PlatformVM
	// PlatformVolumes: a compose project's volumes are removed.
	PlatformVolumes
	// PlatformForge: a forge's API deletes a repository, an organisation,
	// a release or a package.
	PlatformForge
)

// PlatformOp is one database reset or platform destroy.
type PlatformOp struct {
	Kind PlatformKind
	// Detail is the subcommand and options that make it one, as written
	// ("migrate reset --force", "db:drop", "manage.py flush --noinput",
	// "apps:destroy", "compose down --volumes").
	Detail string
	// Targets are what it acts on, as written (app, site, volume,
	// endpoint, database path); empty for the configured database.
	Targets []ir.Word
	// EnvVars are the environment variables that pick the framework
	// environment the reset runs in (RAILS_ENV, MIX_ENV, APP_ENV ...), and
	// Env the environment the command line itself names (--env=test,
	// RAILS_ENV=test as a rake argument), nil when none.
	EnvVars []string
	Env     *ir.Word
	// URLVars are the environment variables the tool reads the database's
	// URL from by convention (DATABASE_URL), and URL the URL its command
	// line gives (--url, --db-url), nil when none.
	URLVars []string
	URL     *ir.Word
	// Remote is set for a reset of a remote database the command line
	// does not name (supabase db reset --linked: the linked project's).
	Remote bool
	// NeedsInput is set for a form that runs only once its prompt is
	// answered on standard input (django's flush without --noinput reads
	// "yes" with input(), which a pipe or a here-string can supply); it
	// destroys only when something feeds that input.
	NeedsInput bool
}

// Platform reports whether command name (Command.Name), run with args,
// is a framework database reset or a platform destroy (see the table
// above). Help, dry runs, and forms whose own prompt stands are not.
// Pure; linear in args.
func Platform(name string, args []ir.Word) (PlatformOp, bool) {
	if f := platformCLIs[name]; f != nil {
		return f(name, args)
	}
	if InterpreterLang(name) == "python" {
		return pythonScriptOp(args)
	}
	return PlatformOp{}, false
}

// platformCLIs maps each command name Platform reads (besides the python
// interpreters, which it reads for manage.py) to its reader.
var platformCLIs = map[string]func(name string, args []ir.Word) (PlatformOp, bool){
	"prisma": prismaOp,
	"rails":  railsOp, "rake": railsOp,
	"manage.py": djangoOp, "django-admin": djangoOp, "django-admin.py": djangoOp,
	"sequelize": sequelizeOp, "sequelize-cli": sequelizeOp,
	"typeorm": typeormOp, "typeorm-ts-node-commonjs": typeormOp, "typeorm-ts-node-esm": typeormOp,
	"knex": knexOp, "alembic": alembicOp, "drizzle-kit": drizzleOp,
	"mix": mixOp,
	"php": phpOp, "artisan": laravelOp, "console": symfonyOp, "sail": sailOp, "symfony": symfonyCLIOp,
	"supabase": supabaseOp,
	"heroku":   herokuOp,
	"fly":      flyOp, "flyctl": flyOp,
	"vercel": vercelOp, "vc": vercelOp,
	"netlify":  netlifyOp,
	"firebase": firebaseOp,
	"gh":       ghAPIOp,
	"docker":   composeOp, "podman": composeOp, "nerdctl": composeOp, "docker-compose": composeOp, "podman-compose": composeOp,
	"vagrant":   vagrantOp,
	"multipass": multipassOp,
	"wrangler":  hostedPathOp, "neonctl": hostedPathOp, "neon": hostedPathOp, "turso": hostedPathOp, "pscale": hostedPathOp,
}

// pythonNames are the python interpreter names the dispatch of command
// names lists for manage.py (Platform itself accepts any InterpreterLang
// "python" name).
var pythonNames = []string{"python", "python3", "python2", "py", "pypy", "pypy3",
	"python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13", "python3.14"}

// PlatformCLIs returns the command names Platform reads, sorted (python
// interpreters by their usual names).
func PlatformCLIs() []string { return append(sortedNames(platformCLIs), pythonNames...) }

// IsPlatformCLI reports whether a package runner's first word (yarn
// prisma, pnpm sequelize) is a command Platform reads.
func IsPlatformCLI(name string) bool { return platformCLIs[name] != nil }

// TestEnvName reports whether a framework environment name is the test
// one (test, testing): its database exists to be reset.
func TestEnvName(env string) bool {
	switch strings.ToLower(env) {
	case "test", "testing":
		return true
	}
	return false
}

// LocalDisposableURL reports whether a database URL (postgresql://,
// mysql://, or a key=value string) names a database on this machine
// whose name reads as a throwaway one (DisposableName): the same line the
// database clients' drops draw.
func LocalDisposableURL(w ir.Word) bool {
	host, db, ok := connString(w)
	return ok && LocalHost(host) && db != nil && DisposableName(db.Value)
}

// helpAsked reports -h/--help among the parsed options.
func helpAsked(p Args) bool { return p.Has("h", "help") }

// lastValue returns the last value of the named options, nil when none.
func lastValue(p Args, names ...string) *ir.Word {
	vs := p.Values(names...)
	if len(vs) == 0 {
		return nil
	}
	return &vs[len(vs)-1]
}

// verbIs reports whether word (lower-cased) is one of verbs, or one of
// them followed by ":NAME" (rails' per-database tasks: db:drop:primary).
func verbIs(word string, verbs ...string) bool {
	for _, v := range verbs {
		if word == v || strings.HasPrefix(word, v+":") {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// ORMs and web frameworks

// prismaSpec: prisma's options that take a value.
var prismaSpec = Spec{Short: "n", Long: []string{"schema", "config", "url", "name", "from-url", "to-url", "file"}}

func prismaOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, prismaSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) < 2 {
		return PlatformOp{}, false
	}
	// The schema names its datasource's variable; DATABASE_URL is the
	// convention prisma init writes.
	op := PlatformOp{Kind: PlatformDBReset, URLVars: []string{"DATABASE_URL"}, URL: lastValue(p, "url")}
	switch {
	case ops[0] == "migrate" && ops[1] == "reset":
		if _, force := pflagBool(p, "force", "f"); force {
			op.Detail = "migrate reset --force"
			return op, true
		}
	case ops[0] == "db" && ops[1] == "push":
		if _, reset := pflagBool(p, "force-reset"); reset {
			op.Detail = "db push --force-reset"
			return op, true
		}
		if _, loss := pflagBool(p, "accept-data-loss"); loss {
			op.Detail = "db push --accept-data-loss"
			return op, true
		}
	}
	return PlatformOp{}, false
}

// railsDestroys are the rails/rake database tasks that drop or empty a
// database (also as TASK:NAME per database, TASK:all).
var railsDestroys = []string{"db:drop", "db:reset", "db:schema:load", "db:structure:load", "db:setup",
	"db:migrate:reset", "db:purge", "db:truncate_all", "db:seed:replant"}

// railsSpec: the rails and rake options that take a value (rake's
// --backtrace and -j/--jobs take theirs only attached, so are left out).
var railsSpec = Spec{Short: "eCfIRrEp", Long: []string{"environment", "directory", "rakefile", "libdir",
	"rakelibdir", "require", "execute", "execute-print", "execute-continue"}}

func railsOp(name string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, railsSpec)
	if helpAsked(p) || p.Has("n", "dry-run", "T", "tasks", "P", "prereqs", "W", "where", "D", "describe") {
		return PlatformOp{}, false
	}
	op := PlatformOp{Kind: PlatformDBReset, EnvVars: []string{"RAILS_ENV", "RACK_ENV"}, URLVars: []string{"DATABASE_URL"}}
	if name == "rails" { // rake's -e is --execute (Ruby code)
		op.Env = lastValue(p, "environment", "e")
	}
	var tasks []string
	for _, w := range p.Operands {
		if w.Unknown {
			continue
		}
		if k, _, ok := strings.Cut(w.Value, "="); ok {
			if k == "RAILS_ENV" || k == "RACK_ENV" {
				env := SubWord(w, len(k)+1)
				op.Env = &env
			}
			continue
		}
		if t := strings.ToLower(w.Value); verbIs(t, railsDestroys...) {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return PlatformOp{}, false
	}
	op.Detail = strings.Join(tasks, " ")
	return op, true
}

// djangoSpec: the options of django-admin / manage.py that take a value.
// (reset_db's -U/--user, -O/--owner, -P/--password, -D/--dbname,
// -R/--router among them).
var djangoSpec = Spec{Short: "vUOPDR", Long: []string{"database", "settings", "pythonpath", "verbosity", "router",
	"owner", "user", "password", "dbname"}}

func djangoOp(name string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, djangoSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 {
		return PlatformOp{}, false
	}
	switch ops[0] {
	case "flush", "reset_db":
		op := PlatformOp{Kind: PlatformDBReset, Detail: name + " " + ops[0], Targets: p.Values("database", "dbname", "D")}
		if p.Has("noinput", "no-input") {
			op.Detail += " --noinput"
		} else {
			op.NeedsInput = true
		}
		return op, true
	}
	return PlatformOp{}, false
}

// pythonScriptOp reads python [OPTIONS] manage.py ARGS and python -m
// django ARGS.
func pythonScriptOp(args []ir.Word) (PlatformOp, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			return PlatformOp{}, false
		}
		switch v := a.Value; {
		case v == "-m":
			if i+1 < len(args) && args[i+1].Value == "django" {
				return djangoOp("django-admin", args[i+2:])
			}
			return PlatformOp{}, false
		case v == "-W" || v == "-X":
			i++
		case v == "-c" || v == "-":
			return PlatformOp{}, false
		case strings.HasPrefix(v, "-"):
		default:
			if ir.CommandName(v) == "manage.py" {
				return djangoOp("manage.py", args[i+1:])
			}
			return PlatformOp{}, false
		}
	}
	return PlatformOp{}, false
}

// nodeORMSpec: the options of sequelize-cli, typeorm, knex and
// drizzle-kit that take a value.
var nodeORMSpec = Spec{Short: "dc", Long: []string{"env", "config", "options-path", "models-path",
	"migrations-path", "seeders-path", "url", "dataSource", "datasource", "knexfile", "knexpath", "cwd",
	"client", "connection", "migrations-directory", "migrations-table-name", "specific", "dialect", "schema", "out"}}

func sequelizeOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, nodeORMSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 {
		return PlatformOp{}, false
	}
	switch ops[0] {
	case "db:drop", "db:migrate:undo:all", "db:seed:undo:all":
		return PlatformOp{Kind: PlatformDBReset, Detail: ops[0], EnvVars: []string{"NODE_ENV"}, Env: lastValue(p, "env"), URL: lastValue(p, "url")}, true
	}
	return PlatformOp{}, false
}

func typeormOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, nodeORMSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 || ops[0] != "schema:drop" {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformDBReset, Detail: "schema:drop"}, true
}

func knexOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, nodeORMSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 || ops[0] != "migrate:rollback" {
		return PlatformOp{}, false
	}
	if _, all := pflagBool(p, "all"); !all {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformDBReset, Detail: "migrate:rollback --all", EnvVars: []string{"NODE_ENV"}, Env: lastValue(p, "env")}, true
}

func drizzleOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, nodeORMSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 || ops[0] != "push" {
		return PlatformOp{}, false
	}
	if _, force := pflagBool(p, "force"); !force {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformDBReset, Detail: "push --force", URL: lastValue(p, "url")}, true
}

// alembicSpec: alembic's options that take a value.
var alembicSpec = Spec{Short: "cnx", Long: []string{"config", "name", "x", "tag", "raiseerr"}}

func alembicOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, alembicSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) < 2 || ops[0] != "downgrade" || ops[1] != "base" {
		return PlatformOp{}, false
	}
	if p.Has("sql") { // offline mode prints the SQL
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformDBReset, Detail: "downgrade base"}, true
}

// mixSpec: the options of mix's ecto tasks that take a value.
var mixSpec = Spec{Short: "rn", Long: []string{"repo", "migrations-path", "to", "step", "log-level", "to-exclusive"}}

func mixOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, mixSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 {
		return PlatformOp{}, false
	}
	op := PlatformOp{Kind: PlatformDBReset, EnvVars: []string{"MIX_ENV"}, Targets: p.Values("repo", "r")}
	tasks := ops[:1]
	if ops[0] == "do" { // mix do TASK1 ARGS, TASK2 (or TASK1 + TASK2)
		tasks = nil
		for _, t := range ops[1:] {
			if t = strings.TrimSuffix(t, ","); t != "" && t != "+" {
				tasks = append(tasks, t)
			}
		}
	}
	for _, t := range tasks {
		switch t {
		case "ecto.drop", "ecto.reset":
			op.Detail = t
			return op, true
		case "ecto.rollback":
			if _, all := pflagBool(p, "all"); all {
				op.Detail = "ecto.rollback --all"
				return op, true
			}
		}
	}
	return PlatformOp{}, false
}

// phpOp reads php [OPTIONS] artisan ... and php [OPTIONS] bin/console ...
// (-f SCRIPT names the script too; -r CODE runs code instead).
func phpOp(_ string, args []ir.Word) (PlatformOp, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			return PlatformOp{}, false
		}
		switch a.Value {
		case "-r", "-a", "-S", "-l", "-s", "-m", "-i", "-v":
			return PlatformOp{}, false
		case "-d", "-c", "-z", "-t":
			i++
			continue
		case "-f":
			continue // the next word is the script
		}
		if strings.HasPrefix(a.Value, "-") {
			continue
		}
		switch ir.CommandName(a.Value) {
		case "artisan":
			return laravelOp("artisan", args[i+1:])
		case "console":
			return symfonyOp("console", args[i+1:])
		}
		return PlatformOp{}, false
	}
	return PlatformOp{}, false
}

// sailOp reads Laravel Sail: sail artisan|art|a ... and sail php artisan
// ..., run in the application's container against its database.
func sailOp(_ string, args []ir.Word) (PlatformOp, bool) {
	ops := lowerOps(args)
	if len(ops) == 0 || IsOption(args[0]) {
		return PlatformOp{}, false
	}
	switch ops[0] {
	case "artisan", "art", "a":
		return laravelOp("artisan", args[1:])
	case "php":
		return phpOp("php", args[1:])
	}
	return PlatformOp{}, false
}

// symfonyCLIOp reads the Symfony CLI's symfony console ... (bin/console
// run by the CLI).
func symfonyCLIOp(_ string, args []ir.Word) (PlatformOp, bool) {
	if len(args) == 0 || args[0].Unknown || args[0].Value != "console" {
		return PlatformOp{}, false
	}
	return symfonyOp("console", args[1:])
}

// symfonySpec: the options of artisan and bin/console that take a value.
var symfonySpec = Spec{Short: "ec", Long: []string{"env", "database", "path", "connection", "em", "seeder"}}

// laravelDestroys are the artisan commands that drop every table or roll
// every migration back.
var laravelDestroys = []string{"migrate:fresh", "migrate:refresh", "migrate:reset", "db:wipe"}

func laravelOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, symfonySpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || p.Has("pretend") || len(ops) == 0 {
		return PlatformOp{}, false
	}
	for _, d := range laravelDestroys {
		if consoleNames(ops[0], d) {
			return PlatformOp{Kind: PlatformDBReset, Detail: "artisan " + d, EnvVars: []string{"APP_ENV"},
				Env: lastValue(p, "env"), Targets: p.Values("database")}, true
		}
	}
	return PlatformOp{}, false
}

func symfonyOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, symfonySpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || p.Has("dump-sql") || len(ops) == 0 {
		return PlatformOp{}, false
	}
	for _, d := range []string{"doctrine:database:drop", "doctrine:schema:drop"} {
		if consoleNames(ops[0], d) && p.Has("force", "f") {
			return PlatformOp{Kind: PlatformDBReset, Detail: "console " + d + " --force", EnvVars: []string{"APP_ENV"},
				Env: lastValue(p, "env", "e"), Targets: p.Values("connection", "c", "em")}, true
		}
	}
	return PlatformOp{}, false
}

// consoleNames reports whether word names command full the way Symfony
// Console (artisan and bin/console) finds commands: the whole name, or
// each colon-separated part abbreviated to a prefix (d:d:d for
// doctrine:database:drop, migrate:fr for migrate:fresh). An abbreviation
// the application finds ambiguous is refused there; it is read here as
// the command, on the safe side.
func consoleNames(word, full string) bool {
	if word == full {
		return true
	}
	ws, fs := strings.Split(word, ":"), strings.Split(full, ":")
	if len(ws) != len(fs) {
		return false
	}
	for i := range ws {
		if ws[i] == "" || !strings.HasPrefix(fs[i], ws[i]) {
			return false
		}
	}
	return true
}

// supabaseSpec: the supabase options that take a value.
var supabaseSpec = Spec{Short: "po", Long: []string{"db-url", "workdir", "profile", "output", "network-id",
	"dns-resolver", "version", "project-ref", "password"}}

func supabaseOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, supabaseSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) < 2 || ops[0] != "db" || ops[1] != "reset" {
		return PlatformOp{}, false
	}
	if _, linked := pflagBool(p, "linked"); linked {
		return PlatformOp{Kind: PlatformDBReset, Detail: "db reset --linked", Remote: true}, true
	}
	if url := lastValue(p, "db-url"); url != nil {
		return PlatformOp{Kind: PlatformDBReset, Detail: "db reset --db-url", Targets: []ir.Word{*url}, URL: url}, true
	}
	return PlatformOp{}, false
}

// ---------------------------------------------------------------------------
// Hosted platforms

// topicVerb returns an oclif-style command (heroku apps:destroy, netlify
// sites:delete, firebase database:remove) as "topic:verb", lower-cased,
// from its first operands, accepting the space-separated form as well
// (heroku apps destroy); rest are the operands after it.
func topicVerb(ops []string, words []ir.Word) (cmd string, rest []ir.Word) {
	if len(ops) == 0 {
		return "", nil
	}
	if strings.Contains(ops[0], ":") || len(ops) == 1 {
		return ops[0], words[1:]
	}
	return ops[0] + ":" + ops[1], words[2:]
}

// herokuSpec: the heroku options that take a value.
var herokuSpec = Spec{Short: "arc", Long: []string{"app", "remote", "confirm", "team"}}

// herokuDestroys maps the heroku commands (and their aliases) that
// destroy an app, an add-on (a Postgres or Redis database among them) or
// a database's data to the name shown.
var herokuDestroys = map[string]string{
	"apps:destroy": "apps:destroy", "destroy": "apps:destroy", "apps:delete": "apps:destroy",
	"addons:destroy": "addons:destroy", "addons:remove": "addons:destroy", "addons:delete": "addons:destroy",
	"pg:reset": "pg:reset",
}

func herokuOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, herokuSpec)
	if helpAsked(p) {
		return PlatformOp{}, false
	}
	ops := lowerOps(p.Operands)
	cmd, rest := topicVerb(ops, p.Operands)
	if len(ops) > 0 && herokuDestroys[ops[0]] != "" {
		cmd, rest = ops[0], p.Operands[1:]
	}
	shown := herokuDestroys[cmd]
	if shown == "" {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformHosted, Detail: shown, Targets: slices.Concat(rest, p.Values("app", "a"))}, true
}

// flySpec: the fly/flyctl options that take a value.
var flySpec = Spec{Short: "aoct", Long: []string{"app", "org", "config", "access-token", "region", "output"}}

func flyOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, flySpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 {
		return PlatformOp{}, false
	}
	del := func(v string) bool { return v == "destroy" || v == "delete" || v == "remove" || v == "rm" }
	switch {
	case ops[0] == "destroy":
		return PlatformOp{Kind: PlatformHosted, Detail: "destroy", Targets: slices.Concat(p.Operands[1:], p.Values("app", "a"))}, true
	case len(ops) >= 2 && (ops[0] == "apps" || ops[0] == "app") && del(ops[1]):
		return PlatformOp{Kind: PlatformHosted, Detail: "apps destroy", Targets: slices.Concat(p.Operands[2:], p.Values("app", "a"))}, true
	case len(ops) >= 2 && (ops[0] == "volumes" || ops[0] == "volume" || ops[0] == "vol") && del(ops[1]):
		return PlatformOp{Kind: PlatformHosted, Detail: "volumes destroy", Targets: p.Operands[2:]}, true
	case len(ops) >= 2 && (ops[0] == "storage" || ops[0] == "redis") && del(ops[1]):
		return PlatformOp{Kind: PlatformHosted, Detail: ops[0] + " destroy", Targets: p.Operands[2:]}, true
	}
	return PlatformOp{}, false
}

// vercelSpec: the vercel options that take a value.
var vercelSpec = Spec{Short: "tSAQ", Long: []string{"token", "scope", "local-config", "global-config", "cwd", "team"}}

func vercelOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, vercelSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) < 2 {
		return PlatformOp{}, false
	}
	switch {
	case ops[0] == "remove" || ops[0] == "rm":
		return PlatformOp{Kind: PlatformHosted, Detail: ops[0], Targets: p.Operands[1:]}, true
	case (ops[0] == "project" || ops[0] == "projects") && (ops[1] == "rm" || ops[1] == "remove") && len(ops) >= 3:
		return PlatformOp{Kind: PlatformHosted, Detail: "project rm", Targets: p.Operands[2:]}, true
	}
	return PlatformOp{}, false
}

// netlifySpec: the netlify options that take a value.
var netlifySpec = Spec{Long: []string{"auth", "site", "filter", "account-slug"}}

func netlifyOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, netlifySpec)
	if helpAsked(p) {
		return PlatformOp{}, false
	}
	cmd, rest := topicVerb(lowerOps(p.Operands), p.Operands)
	if cmd != "sites:delete" {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformHosted, Detail: "sites:delete", Targets: rest}, true
}

// firebaseSpec: the firebase options that take a value.
var firebaseSpec = Spec{Short: "P", Long: []string{"project", "token", "account", "config", "database", "instance", "only", "except"}}

func firebaseOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, firebaseSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 {
		return PlatformOp{}, false
	}
	project := p.Values("project", "P")
	switch ops[0] {
	case "firestore:delete":
		if p.Has("all-collections") {
			return PlatformOp{Kind: PlatformHosted, Detail: "firestore:delete --all-collections", Targets: slices.Concat(p.Values("database"), project)}, true
		}
		if len(ops) < 2 {
			return PlatformOp{}, false
		}
		if p.Has("r", "recursive") {
			return PlatformOp{Kind: PlatformHosted, Detail: "firestore:delete --recursive", Targets: slices.Concat(p.Operands[1:], project)}, true
		}
		// A collection path (an odd number of segments) loses every
		// document in the collection; a document path only that document.
		if path := p.Operands[1]; !path.Unknown && len(strings.Split(strings.Trim(path.Value, "/"), "/"))%2 == 1 {
			return PlatformOp{Kind: PlatformHosted, Detail: "firestore:delete", Targets: slices.Concat(p.Operands[1:], project)}, true
		}
	case "firestore:databases:delete":
		return PlatformOp{Kind: PlatformHosted, Detail: ops[0], Targets: slices.Concat(p.Operands[1:], project)}, true
	case "database:remove":
		if len(ops) >= 2 {
			return PlatformOp{Kind: PlatformHosted, Detail: ops[0], Targets: slices.Concat(p.Operands[1:], project)}, true
		}
	}
	return PlatformOp{}, false
}

// hostedPaths are, per CLI, the command paths (leading operands, lower
// case) that delete a hosted database, bucket, store or deployed app:
// Cloudflare's wrangler delete (the Worker), d1 delete, r2 bucket delete,
// kv namespace delete (also the older kv:namespace); Neon's projects and
// databases delete (branches, often per pull request, stay silent);
// Turso's db destroy; PlanetScale's database delete.
var hostedPaths = map[string][][]string{
	"wrangler": {{"delete"}, {"d1", "delete"}, {"r2", "bucket", "delete"}, {"kv", "namespace", "delete"}, {"kv:namespace", "delete"}},
	"neonctl":  {{"projects", "delete"}, {"project", "delete"}, {"databases", "delete"}, {"database", "delete"}, {"db", "delete"}},
	"neon":     {{"projects", "delete"}, {"project", "delete"}, {"databases", "delete"}, {"database", "delete"}, {"db", "delete"}},
	"turso":    {{"db", "destroy"}},
	"pscale":   {{"database", "delete"}, {"db", "delete"}},
}

// hostedPathSpec: the options of wrangler, neonctl, turso and pscale that
// take a value.
var hostedPathSpec = Spec{Short: "ceo", Long: []string{"config", "env", "name", "project-id", "api-key", "output",
	"context-file", "branch", "org", "service-token", "service-token-id", "group", "location", "binding", "namespace-id"}}

func hostedPathOp(name string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, hostedPathSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || p.Has("dry-run") {
		return PlatformOp{}, false
	}
	for _, want := range hostedPaths[name] {
		if len(ops) >= len(want) && slices.Equal(ops[:len(want)], want) {
			return PlatformOp{Kind: PlatformHosted, Detail: strings.Join(want, " "),
				Targets: slices.Concat(p.Operands[len(want):], p.Values("name", "binding", "namespace-id"))}, true
		}
	}
	return PlatformOp{}, false
}

// ghAPISpec: the gh api options that take a value.
var ghAPISpec = Spec{Short: "XHfFqtpR", Long: []string{"method", "header", "raw-field", "field", "input", "jq",
	"template", "hostname", "preview", "cache", "repo"}}

func ghAPIOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, ghAPISpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) < 2 || ops[0] != "api" {
		return PlatformOp{}, false
	}
	m := lastValue(p, "method", "X")
	if m == nil || m.Unknown || !strings.EqualFold(m.Value, "DELETE") {
		return PlatformOp{}, false
	}
	ep := p.Operands[1]
	if ep.Unknown || !ForgeAPIDestroys(ep.Value) {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformForge, Detail: "api --method DELETE", Targets: []ir.Word{ep}}, true
}

// ForgeAPIDestroys reports whether a GitHub REST endpoint (as gh api
// takes it: repos/O/R, /orgs/O, a full https://api.github.com/... URL,
// {owner}/{repo} placeholders) is one whose DELETE destroys a repository,
// an organisation, a release or a package.
func ForgeAPIDestroys(endpoint string) bool {
	e := endpoint
	if i := strings.Index(e, "://"); i >= 0 {
		e = e[i+3:]
		if j := strings.IndexByte(e, '/'); j >= 0 {
			e = e[j:]
		} else {
			return false
		}
	}
	e, _, _ = strings.Cut(e, "?")
	e = strings.TrimPrefix(strings.Trim(e, "/"), "api/v3/")
	s := strings.Split(strings.ToLower(e), "/")
	switch {
	case len(s) == 3 && s[0] == "repos": // repos/O/R
		return true
	case len(s) == 5 && s[0] == "repos" && s[3] == "releases" && s[4] != "assets": // repos/O/R/releases/ID
		return true
	case len(s) == 2 && s[0] == "orgs": // orgs/O
		return true
	case len(s) >= 4 && s[0] == "orgs" && s[2] == "packages": // orgs/O/packages/TYPE/NAME[/versions/ID]
		return true
	case len(s) >= 3 && s[0] == "user" && s[1] == "packages": // user/packages/TYPE/NAME
		return true
	case len(s) >= 4 && s[0] == "users" && s[2] == "packages": // users/U/packages/TYPE/NAME
		return true
	}
	return false
}

// ---------------------------------------------------------------------------
// Compose projects and local virtual machines

// composeSpec: the docker/podman global options and the compose options
// that take a value.
var composeSpec = Spec{Short: "cHlfpt", Long: []string{"context", "host", "config", "log-level", "tlscacert",
	"tlscert", "tlskey", "connection", "url", "identity", "root", "runroot", "namespace", "address", "file",
	"project-name", "project-directory", "profile", "env-file", "ansi", "parallel", "progress", "rmi", "timeout"}}

func composeOp(name string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, composeSpec)
	ops := lowerOps(p.Operands)
	if helpAsked(p) {
		return PlatformOp{}, false
	}
	if name != "docker-compose" && name != "podman-compose" {
		if len(ops) == 0 || ops[0] != "compose" {
			return PlatformOp{}, false
		}
		ops = ops[1:]
	}
	if len(ops) == 0 || ops[0] != "down" {
		return PlatformOp{}, false
	}
	if _, vols := pflagBool(p, "volumes", "v"); !vols {
		return PlatformOp{}, false
	}
	return PlatformOp{Kind: PlatformVolumes, Detail: "compose down --volumes", Targets: p.Values("project-name", "p")}, true
}

func vagrantOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, Spec{})
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 || ops[0] != "destroy" {
		return PlatformOp{}, false
	}
	if _, force := pflagBool(p, "force", "f"); force {
		return PlatformOp{Kind: PlatformVM, Detail: "destroy --force", Targets: p.Operands[1:]}, true
	}
	if _, par := pflagBool(p, "parallel"); par { // --parallel turns --force on
		return PlatformOp{Kind: PlatformVM, Detail: "destroy --parallel", Targets: p.Operands[1:]}, true
	}
	return PlatformOp{}, false
}

func multipassOp(_ string, args []ir.Word) (PlatformOp, bool) {
	p := ParseArgs(args, Spec{})
	ops := lowerOps(p.Operands)
	if helpAsked(p) || len(ops) == 0 {
		return PlatformOp{}, false
	}
	switch ops[0] {
	case "purge":
		return PlatformOp{Kind: PlatformVM, Detail: "purge"}, true
	case "delete", "remove":
		if p.Has("p", "purge") {
			op := PlatformOp{Kind: PlatformVM, Detail: ops[0] + " --purge", Targets: p.Operands[1:]}
			if p.Has("all") {
				op.Detail += " --all"
			}
			return op, true
		}
	}
	return PlatformOp{}, false
}
