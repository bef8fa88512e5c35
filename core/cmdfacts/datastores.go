package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Database clients and what they run: psql, mysql and mariadb, sqlite3,
// redis-cli (valkey-cli, keydb-cli), mongosh and mongo, and the two
// clients that drop a database themselves (dropdb, mysqladmin drop).
// ParseDBClient reads a client's command line the way the client does
// (psql and mysql are getopt_long programs: long options may be
// abbreviated, short ones bundled; mysql's -p takes a password only when
// attached; redis-cli stops reading options at the command; sqlite3's
// options have one dash and its first operand is the database file);
// SQLLosses, RedisLosses and MongoLosses classify the text they run.

// DBEngine is the kind of data store a client talks to.
type DBEngine uint8

const (
	EnginePostgres DBEngine = iota + 1
	EngineMySQL
	EngineSQLite
	EngineRedis
	EngineMongo
	// EngineSQL is another SQL server (ClickHouse, SQL Server, BigQuery,
	// Snowflake, Trino): SQLLosses reads its statements.
	EngineSQL
	// EngineCassandra is a CQL server; SQLLosses reads CQL too.
	EngineCassandra
)

// DBClient is a database client's command line.
type DBClient struct {
	Engine DBEngine
	// Scripts are the statements the command line gives (psql -c, mysql
	// -e, sqlite3's SQL operands and -cmd, mongosh --eval, redis-cli's
	// command words joined by spaces).
	Scripts []ir.Word
	// ReadsStdin: with no script and no script file the client runs what
	// its standard input holds (a heredoc, a here-string, a pipe).
	ReadsStdin bool
	// Host is the server named (-h, --host, a connection URL's host), nil
	// for the client's default (a local socket or localhost).
	Host *ir.Word
	// Database is the database named (-d, -D, --dbname, a positional
	// name, a URL's path), nil for the client's default.
	Database *ir.Word
	// File is sqlite3's database file, nil for an in-memory database.
	File *ir.Word
	// Drops are the databases the client itself drops (dropdb NAME,
	// mysqladmin drop NAME).
	Drops []ir.Word
	// ScriptFiles are the script files the client runs (psql -f, sqlite3
	// -init, duckdb -f, cqlsh -f, sqlcmd -i, snowsql -f,
	// clickhouse-client --queries-file, trino -f); "-" (the input) is
	// not one.
	ScriptFiles []ir.Word
	// InputArgs are the indices of the args the client keeps when it runs
	// one script's text from its input instead of the statements and
	// script files its command line gives: the command a script file's
	// text (or a file fed to its input) is judged as.
	InputArgs []int
}

// withScripts sets c's ScriptFiles and InputArgs from args parsed with
// spec (scriptArgs); a file "-" is the input, read as with no file.
func (c DBClient) withScripts(args []ir.Word, spec Spec, o scriptOpts) DBClient {
	files, keep := scriptArgs(args, spec, o)
	c.InputArgs = keep
	for _, f := range files {
		if f.Unknown || f.Value != "-" {
			c.ScriptFiles = append(c.ScriptFiles, f)
		}
	}
	return c
}

// dbClients maps each command name ParseDBClient reads to its reader.
var dbClients = map[string]func(args []ir.Word) (DBClient, bool){
	"psql": psqlClient, "mysql": mysqlClient, "mariadb": mysqlClient, "sqlite3": sqliteClient,
	"redis-cli": redisClient, "valkey-cli": redisClient, "keydb-cli": redisClient,
	"mongosh": mongoClient, "mongo": mongoClient,
	"dropdb": dropdbClient, "mysqladmin": mysqladminClient, "mariadb-admin": mysqladminClient,
}

// IsDBClient reports whether name is a command ParseDBClient reads.
func IsDBClient(name string) bool { return dbClients[name] != nil }

// DBClients returns the command names ParseDBClient reads, sorted.
func DBClients() []string { return sortedNames(dbClients) }

// ParseDBClient reads a database client's command line (args: the words
// after the command word). ok is false for other commands and for
// informational runs (--help, --version, listing). Pure; linear in args.
func ParseDBClient(name string, args []ir.Word) (DBClient, bool) {
	if parse := dbClients[name]; parse != nil {
		return parse(args)
	}
	return DBClient{}, false
}

// expandLong rewrites each long option given as an unambiguous prefix of
// one of longs (--comm, --exec=X) to its full name, as getopt_long reads
// it; an exact name always wins. The words are copied only when one
// changes.
func expandLong(args []ir.Word, longs []string) []ir.Word {
	out := args
	for i, a := range args {
		if a.Unknown || !strings.HasPrefix(a.Value, "--") || len(a.Value) < 3 {
			continue
		}
		if a.Value == "--" {
			break
		}
		name, val, eq := strings.Cut(a.Value[2:], "=")
		if slices.Contains(longs, name) {
			continue
		}
		full := ""
		for _, l := range longs {
			if strings.HasPrefix(l, name) {
				if full != "" {
					full = ""
					break
				}
				full = l
			}
		}
		if full == "" {
			continue
		}
		if &out[0] == &args[0] {
			out = slices.Clone(args)
		}
		w := a
		w.Value = "--" + full
		if eq {
			w.Value += "=" + val
		}
		w.Raw, w.KnownPrefix = w.Value, w.Value
		out[i] = w
	}
	return out
}

// last returns a pointer to the last of ws, or nil.
func last(ws []ir.Word) *ir.Word {
	if len(ws) == 0 {
		return nil
	}
	w := ws[len(ws)-1]
	return &w
}

// psqlLongs are psql's long options (valued ones in psqlSpec).
var psqlLongs = []string{"echo-all", "no-align", "command", "dbname", "echo-queries", "echo-errors", "echo-hidden",
	"file", "list", "log-file", "no-readline", "single-transaction", "output", "port", "pset", "quiet",
	"record-separator", "single-step", "single-line", "tuples-only", "table-attr", "username", "set", "variable",
	"version", "no-password", "password", "expanded", "no-psqlrc", "field-separator", "field-separator-zero",
	"record-separator-zero", "csv", "help", "host", "html"}

var psqlSpec = Spec{Short: "cdfhpUvPoLTFR", Long: []string{"command", "dbname", "file", "host", "port", "username",
	"set", "variable", "pset", "output", "log-file", "table-attr", "field-separator", "record-separator"}}

func psqlClient(args []ir.Word) (DBClient, bool) {
	args = expandLong(args, psqlLongs)
	p := ParseArgs(args, psqlSpec)
	if p.Has("help", "version", "V", "list", "l") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EnginePostgres, Scripts: p.Values("command", "c"),
		Host: last(p.Values("host", "h")), Database: last(p.Values("dbname", "d"))}
	if len(p.Operands) > 0 && c.Database == nil {
		c.Database = &p.Operands[0]
	}
	if c.Database != nil {
		if host, db, ok := connString(*c.Database); ok {
			c.Database = db
			if host != nil {
				c.Host = host
			}
		}
	}
	c = c.withScripts(args, psqlSpec, scriptOpts{short: "c", long: []string{"command"}, fileShort: "f",
		fileLong: []string{"file"}, operands: -1})
	c.ReadsStdin = len(c.Scripts) == 0 && (!p.Has("file", "f") || len(c.ScriptFiles) < len(p.Values("file", "f")))
	return c, true
}

// connString reads a PostgreSQL or MySQL connection URL
// (postgresql://user@host:5432/db?x=y) or a PostgreSQL key=value string
// (host=h dbname=d): its host (nil when none) and database.
func connString(w ir.Word) (host, db *ir.Word, ok bool) {
	if w.Unknown {
		return nil, nil, false
	}
	v := w.Value
	if scheme, rest, found := strings.Cut(v, "://"); found && !strings.ContainsAny(scheme, "/ ") {
		rest, _, _ = strings.Cut(rest, "?")
		auth, path, _ := strings.Cut(rest, "/")
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			auth = auth[at+1:]
		}
		if auth != "" {
			h := Literal(hostOnly(auth))
			host = &h
		}
		if path != "" {
			d := Literal(path)
			db = &d
		}
		return host, db, true
	}
	if strings.Contains(v, "=") {
		for _, kv := range strings.Fields(v) {
			k, val, _ := strings.Cut(kv, "=")
			switch k {
			case "host", "hostaddr":
				h := Literal(val)
				host = &h
			case "dbname":
				d := Literal(val)
				db = &d
			}
		}
		return host, db, true
	}
	return nil, nil, false
}

// hostOnly removes the port from host:port and [v6]:port.
func hostOnly(s string) string {
	if strings.HasPrefix(s, "[") {
		if i := strings.IndexByte(s, ']'); i > 0 {
			return s[1:i]
		}
	}
	if strings.Count(s, ":") == 1 {
		s, _, _ = strings.Cut(s, ":")
	}
	if i := strings.IndexByte(s, ','); i >= 0 { // a host list: the first
		s = s[:i]
	}
	return s
}

// mysqlLongs are the mysql client's long options that take a value, and
// the flags that end it early (help, version).
var mysqlLongs = []string{"execute", "database", "host", "user", "port", "socket", "password", "help", "version",
	"batch", "silent", "verbose", "force", "protocol", "default-character-set", "defaults-file",
	"defaults-extra-file", "init-command", "login-path", "ssl-mode", "ssl-ca", "ssl-cert", "ssl-key", "table",
	"tee", "pager", "prompt", "bind-address", "connect-timeout", "max-allowed-packet", "comments", "skip-comments"}

var mysqlSpec = Spec{Short: "eDhuPSOo", Long: []string{"execute", "database", "host", "user", "port", "socket",
	"protocol", "default-character-set", "defaults-file", "defaults-extra-file", "init-command", "login-path",
	"ssl-mode", "ssl-ca", "ssl-cert", "ssl-key", "tee", "pager", "prompt", "bind-address", "connect-timeout",
	"max-allowed-packet", "plugin-dir", "default-auth", "character-sets-dir", "delimiter"}}

// dropPassword removes mysql's -pSECRET / -p / --password[=X] words: the
// password is attached or prompted for, never the next word.
func dropPassword(args []ir.Word) []ir.Word {
	var out []ir.Word
	for _, a := range args {
		if !mysqlPassword(a) {
			out = append(out, a)
		}
	}
	return out
}

// mysqlPassword reports a mysql password word (see dropPassword).
func mysqlPassword(a ir.Word) bool {
	return !a.Unknown && (strings.HasPrefix(a.Value, "-p") || a.Value == "--password" || strings.HasPrefix(a.Value, "--password=") ||
		a.Value == "--pass" || strings.HasPrefix(a.Value, "--pass="))
}

func mysqlClient(args []ir.Word) (DBClient, bool) {
	args = expandLong(args, mysqlLongs)
	p := ParseArgs(dropPassword(args), mysqlSpec)
	if p.Has("help", "version", "V", "?") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineMySQL, Scripts: p.Values("execute", "e"),
		Host: last(p.Values("host", "h")), Database: last(p.Values("database", "D"))}
	if len(p.Operands) > 0 && c.Database == nil {
		c.Database = &p.Operands[0]
	}
	c = c.withScripts(args, mysqlSpec, scriptOpts{short: "e", long: []string{"execute"}, operands: -1, flag: mysqlPassword})
	c.ReadsStdin = len(c.Scripts) == 0
	return c, true
}

// sqliteValued are sqlite3's options that take the next word.
var sqliteValued = []string{"cmd", "init", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap",
	"pagecache", "lookaside", "heap", "escape", "A"}

func sqliteClient(args []ir.Word) (DBClient, bool) {
	return fileSQLClient(args, fileSQLSpec{valued: sqliteValued, first: []string{"cmd"}, init: []string{"init"}})
}

// fileSQLSpec names the options of a client of a database file:
// valued ones take the next word; the values of first (run before the
// input) and exits (run instead of it) are statements; init names a
// script file run before the input, file one run instead of it.
type fileSQLSpec struct {
	valued, first, exits, init, file []string
}

// fileSQLClient reads the command line of a client of a database file
// (sqlite3, duckdb): single- or double-dash options (spec); the operands
// after the first (the file) are statements too.
func fileSQLClient(args []ir.Word, spec fileSQLSpec) (DBClient, bool) {
	c := DBClient{Engine: EngineSQLite}
	var ops []ir.Word
	noStdin := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown || !strings.HasPrefix(a.Value, "-") || len(a.Value) < 2 {
			if len(ops) == 0 {
				c.InputArgs = append(c.InputArgs, i)
			}
			ops = append(ops, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a.Value, "-"), "-")
		has := func(names []string) bool { return slices.Contains(names, name) && i+1 < len(args) }
		switch {
		case name == "help" || name == "version":
			return DBClient{}, false
		case has(spec.first) || has(spec.exits):
			i++
			c.Scripts = append(c.Scripts, args[i])
			noStdin = noStdin || slices.Contains(spec.exits, name)
		case has(spec.init) || has(spec.file):
			i++
			c.ScriptFiles = append(c.ScriptFiles, args[i])
			noStdin = noStdin || slices.Contains(spec.file, name)
		case slices.Contains(spec.valued, name):
			c.InputArgs = append(c.InputArgs, i, i+1)
			i++
		default:
			c.InputArgs = append(c.InputArgs, i)
		}
	}
	if len(ops) > 0 {
		c.File = &ops[0]
		c.Scripts = append(c.Scripts, ops[1:]...)
	}
	c.ReadsStdin = len(ops) < 2 && !noStdin
	return c, true
}

// redisValued are redis-cli's options that take the next word.
var redisValued = []string{"-h", "-p", "-s", "-a", "-u", "-n", "-r", "-i", "-d", "-D", "-t", "--user", "--pass",
	"--sni", "--cacert", "--cacertdir", "--cert", "--key", "--tls-ciphers", "--tls-ciphersuites", "--rdb",
	"--functions-rdb", "--pipe-timeout", "--pattern", "--quoted-pattern", "--count", "--intrinsic-latency",
	"--eval", "--memkeys-samples", "--keystats-samples", "--cursor", "--top", "--lru-test", "--replica-rdb"}

func redisClient(args []ir.Word) (DBClient, bool) {
	c := DBClient{Engine: EngineRedis}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a.Unknown || !strings.HasPrefix(a.Value, "-") {
			break
		}
		switch {
		case a.Value == "--help" || a.Value == "--version" || a.Value == "-v":
			return DBClient{}, false
		case a.Value == "--eval" || a.Value == "--cluster" || a.Value == "--pipe" || a.Value == "--rdb":
			return DBClient{}, false // a Lua file, cluster management, a protocol stream, a dump
		case a.Value == "-h" && i+1 < len(args):
			c.Host = &args[i+1]
			i++
		case a.Value == "-u" && i+1 < len(args):
			if host, _, ok := connString(args[i+1]); ok && host != nil {
				c.Host = host
			} else {
				c.Host = &args[i+1]
			}
			i++
		case slices.Contains(redisValued, a.Value):
			i++
		}
	}
	if i < len(args) {
		var parts []string
		for _, w := range args[i:] {
			parts = append(parts, w.Value)
		}
		c.Scripts = []ir.Word{Literal(strings.Join(parts, " "))}
	}
	c.ReadsStdin = len(c.Scripts) == 0
	return c, true
}

// mongoValued are mongosh's and mongo's options that take the next word.
var mongoValued = []string{"--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase",
	"--authenticationMechanism", "--file", "-f", "--apiVersion", "--tlsCAFile", "--tlsCertificateKeyFile",
	"--tlsCertificateKeyFilePassword", "--gssapiServiceName", "--sspiHostnameCanonicalization", "--awsAccessKeyId",
	"--awsSecretAccessKey", "--awsSessionToken", "--keyVaultNamespace", "--kmsURL", "--tlsCRLFile",
	"--sslCAFile", "--sslPEMKeyFile", "--retryWrites"}

func mongoClient(args []ir.Word) (DBClient, bool) {
	c := DBClient{Engine: EngineMongo}
	var ops []ir.Word
	file := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown || !strings.HasPrefix(a.Value, "-") {
			ops = append(ops, a)
			continue
		}
		name, val, eq := strings.Cut(a.Value, "=")
		switch {
		case name == "--help" || name == "-h" || name == "--version":
			return DBClient{}, false
		case name == "--eval":
			if eq {
				c.Scripts = append(c.Scripts, Literal(val))
			} else if i+1 < len(args) {
				i++
				c.Scripts = append(c.Scripts, args[i])
			}
		case name == "--host" && !eq && i+1 < len(args):
			i++
			c.Host = &args[i]
		case name == "--host":
			h := Literal(val)
			c.Host = &h
		case slices.Contains(mongoValued, name):
			file = file || name == "--file" || name == "-f"
			if !eq {
				i++
			}
		}
	}
	for k, w := range ops {
		if k == 0 && !w.Unknown && !strings.HasSuffix(w.Value, ".js") {
			// The address: mongodb://host/db, host/db, host:port/db or db.
			if host, db, ok := connString(w); ok {
				if host != nil {
					c.Host = host
				}
				c.Database = db
			} else if h, d, slash := strings.Cut(w.Value, "/"); slash {
				hw, dw := Literal(hostOnly(h)), Literal(d)
				c.Host, c.Database = &hw, &dw
			} else {
				c.Database = &ops[0]
			}
			continue
		}
		file = true // a script file
	}
	c.ReadsStdin = len(c.Scripts) == 0 && !file
	return c, true
}

var dropdbSpec = Spec{Short: "hpU", Long: []string{"host", "port", "username", "maintenance-db"}}

func dropdbClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(expandLong(args, []string{"host", "port", "username", "maintenance-db", "if-exists", "force",
		"interactive", "echo", "help", "version", "no-password", "password"}), dropdbSpec)
	if p.Has("help", "version", "V", "?") || len(p.Operands) == 0 {
		return DBClient{}, false
	}
	return DBClient{Engine: EnginePostgres, Host: last(p.Values("host", "h")), Drops: p.Operands[:1]}, true
}

func mysqladminClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(expandLong(dropPassword(args), mysqlLongs), mysqlSpec)
	if p.Has("help", "version", "V", "?") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineMySQL, Host: last(p.Values("host", "h"))}
	for k := 0; k+1 < len(p.Operands); k++ {
		if w := p.Operands[k]; !w.Unknown && strings.EqualFold(w.Value, "drop") {
			c.Drops = append(c.Drops, p.Operands[k+1])
		}
	}
	if len(c.Drops) == 0 {
		return DBClient{}, false
	}
	return c, true
}

// LocalHost reports whether a client's host is this machine: none given,
// localhost, a loopback address, or a Unix socket directory.
func LocalHost(h *ir.Word) bool {
	if h == nil {
		return true
	}
	if h.Unknown {
		return false
	}
	v := strings.ToLower(strings.Trim(h.Value, "[]"))
	return v == "localhost" || v == "::1" || strings.HasPrefix(v, "127.") || strings.HasPrefix(v, "/") || v == ""
}

// ---------------------------------------------------------------------------
// What the statements do

// Loss is one statement that loses data in bulk.
type Loss struct {
	// Op is the operation as SQL (or the store) names it: "DROP DATABASE",
	// "DROP SCHEMA", "DROP TABLE", "TRUNCATE", "DELETE without WHERE",
	// "FLUSHALL", "FLUSHDB", "dropDatabase()", "drop()", "deleteMany({})".
	Op string
	// Target is the object named, as written ("" when none is: FLUSHALL,
	// db.dropDatabase()).
	Target string
	// Database: Target names a database (DROP DATABASE, getSiblingDB, or
	// the database a mongosh "use NAME" switched to before dropDatabase()).
	Database bool
	// In is the database a mongosh "use NAME" before the call switched
	// to, for a loss inside one ("" when none did).
	In string
	// Line is the 1-based line of the text where the statement starts
	// (SQLLosses; 0 from the other classifiers).
	Line int
}

// sqlToken is one token of SQL text.
type sqlToken struct {
	text   string // upper-cased for words; the name for quoted identifiers
	word   bool   // a keyword or a name (bare or quoted)
	quoted bool   // a quoted name ("x", `x`, [x]): text as written
	depth  int    // parenthesis depth
	pos    int    // byte offset in the text
}

// SQLLosses returns the statements of SQL text that drop a database,
// schema or table, truncate a table, or delete from a table without a
// WHERE clause. Keywords are matched in any case; comments (--, /* */,
// # at the start of a line) are skipped, MySQL's executable comments
// (/*! ... */) are read as code; strings are skipped; a PostgreSQL DO
// block's body is read as statements. psql's backslash commands are
// skipped to the end of their line. Cost: linear in the text.
func SQLLosses(text string) []Loss {
	var out []Loss
	lines := lineCounter{text: text}
	for _, st := range sqlStatements(text, 0, nil) {
		if l, ok := sqlLoss(st); ok {
			l.Line = lines.at(st[sqlStart(st)].pos)
			out = append(out, l)
		}
	}
	return out
}

// lineCounter numbers the lines of a text for offsets asked mostly in
// increasing order (a DO block's statements come before the statement
// holding them): linear in the text for ordered offsets.
type lineCounter struct {
	text       string
	pos, lines int // the lines before pos
}

// at returns the 1-based line of the byte at off.
func (c *lineCounter) at(off int) int {
	if off < c.pos {
		c.pos, c.lines = 0, 0
	}
	off = min(off, len(c.text))
	c.lines += strings.Count(c.text[c.pos:off], "\n")
	c.pos = off
	return c.lines + 1
}

// SQLInclude is a script file an SQL text runs through a client command
// (psql's \i and \ir, mysql's source and \., sqlite3's and duckdb's
// .read).
type SQLInclude struct {
	// Path is the file as written (quotes removed).
	Path string
	// Line is the 1-based line of the command in the text.
	Line int
	// Relative: the path is relative to the directory of the file whose
	// text holds the command (psql's \ir), not to the client's working
	// directory.
	Relative bool
}

// SQLIncludes returns the script files SQL text runs through client
// commands (SQLInclude), in order. Cost: linear in the text.
func SQLIncludes(text string) []SQLInclude {
	var cmds []sqlClientLine
	sqlStatements(text, 0, &cmds)
	var out []SQLInclude
	lines := lineCounter{text: text}
	for _, cl := range cmds {
		f := strings.Fields(cl.text)
		if len(f) < 2 {
			continue
		}
		inc := SQLInclude{Line: lines.at(cl.pos)}
		rest := strings.TrimSpace(cl.text[len(f[0]):])
		switch strings.ToLower(f[0]) {
		case `\i`, `\include`, `\.`, ".read":
			inc.Path = sqlIncludeArg(rest)
		case `\ir`, `\include_relative`:
			inc.Path, inc.Relative = sqlIncludeArg(rest), true
		case "source":
			// mysql reads the rest of the line as the name.
			inc.Path = unquoteSQLPath(strings.TrimSpace(strings.TrimSuffix(rest, ";")))
		default:
			continue
		}
		if inc.Path != "" {
			out = append(out, inc)
		}
	}
	return out
}

// sqlIncludeArg is the file argument of a psql or sqlite3 command: a
// quoted name whole, else the first word.
func sqlIncludeArg(rest string) string {
	if rest != "" && (rest[0] == '\'' || rest[0] == '"') {
		if end := strings.IndexByte(rest[1:], rest[0]); end >= 0 {
			return rest[1 : 1+end]
		}
	}
	f, _, _ := strings.Cut(rest, " ")
	f, _, _ = strings.Cut(f, "\t")
	return f
}

// unquoteSQLPath removes the quotes around a client command's file name.
func unquoteSQLPath(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// maxSQLNesting bounds how deep DO blocks are read.
const maxSQLNesting = 4

// sqlStatements tokenizes text into statements (split at ; outside
// parentheses, strings and comments).
func sqlStatements(text string, nesting int, cmds *[]sqlClientLine) [][]sqlToken {
	var stmts [][]sqlToken
	var cur []sqlToken
	depth := 0
	lineStart := true
	execComments := 0 // open MySQL executable comments
	flush := func() {
		if len(cur) > 0 {
			stmts = append(stmts, cur)
			cur = nil
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
			continue
		case c == '-' && i+1 < len(text) && text[i+1] == '-',
			c == '#' && lineStart:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		case lineStart && clientLine(text[i:], len(cur) == 0):
			flush()
			end := i + lineLen(text[i:])
			if cmds != nil {
				*cmds = append(*cmds, sqlClientLine{pos: i, text: text[i:end]})
			}
			i = end
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			if body := text[i+2:]; strings.HasPrefix(body, "!") || strings.HasPrefix(body, "M!") {
				// MySQL runs it: /*!50001 DROP TABLE x */. Its text is
				// read as code, its closing */ as a space.
				i += 2 + strings.IndexByte(body, '!') + 1
				for i < len(text) && '0' <= text[i] && text[i] <= '9' {
					i++
				}
				execComments++
				continue
			}
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				end = len(text) - i - 2
			}
			i += 4 + end
			continue
		case c == '*' && execComments > 0 && i+1 < len(text) && text[i+1] == '/':
			execComments--
			i += 2
			continue
		}
		lineStart = false
		start := i
		switch {
		case c == ';':
			if depth == 0 {
				flush()
			}
			i++
		case c == '(':
			cur = append(cur, sqlToken{text: "(", depth: depth, pos: start})
			depth++
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			cur = append(cur, sqlToken{text: ")", depth: depth, pos: start})
			i++
		case c == '\'':
			i = skipQuoted(text, i, '\'')
			cur = append(cur, sqlToken{text: "'", depth: depth, pos: start})
		case c == '"' || c == '`' || c == '[' && i+1 < len(text) && isNameByte(text[i+1]):
			closer := c
			if c == '[' {
				closer = ']'
			}
			j := skipQuoted(text, i, closer)
			name := text[i+1 : max(i+1, j-1)]
			cur = append(cur, sqlToken{text: name, word: true, quoted: true, depth: depth, pos: start})
			i = j
		case c == '$':
			next, from, to, ok := dollarQuoted(text, i)
			if !ok {
				cur = append(cur, sqlToken{text: "$", depth: depth, pos: start})
				i++
				continue
			}
			if n := len(cur); n > 0 && cur[n-1].word && cur[n-1].text == "DO" && nesting < maxSQLNesting {
				stmts = append(stmts, shifted(sqlStatements(text[from:to], nesting+1, nil), from)...)
			}
			cur = append(cur, sqlToken{text: "'", depth: depth, pos: start})
			i = next
		case isNameByte(c):
			j := i
			for j < len(text) && (isNameByte(text[j]) || text[j] == '.' || text[j] == '$') {
				j++
			}
			cur = append(cur, sqlToken{text: strings.ToUpper(text[i:j]), word: true, depth: depth, pos: start})
			i = j
		default:
			cur = append(cur, sqlToken{text: string(c), depth: depth, pos: start})
			i++
		}
	}
	flush()
	return stmts
}

// dollarQuoted reads the dollar-quoted string ($$...$$ or $tag$...$tag$)
// at text[i] == '$': its body text[from:to] and the index after its
// closing tag (an unclosed one runs to the end). ok is false for a $ that
// opens none.
func dollarQuoted(text string, i int) (next, from, to int, ok bool) {
	j := i + 1
	for j < len(text) && isNameByte(text[j]) {
		j++
	}
	if j >= len(text) || text[j] != '$' {
		return 0, 0, 0, false
	}
	tag := text[i : j+1]
	end := strings.Index(text[j+1:], tag)
	if end < 0 {
		end = len(text) - j - 1
	}
	return min(len(text), j+1+end+len(tag)), j + 1, j + 1 + end, true
}

// shifted moves the positions of stmts, read from a part of a text that
// starts at byte off, to that text's.
func shifted(stmts [][]sqlToken, off int) [][]sqlToken {
	for _, st := range stmts {
		for k := range st {
			st[k].pos += off
		}
	}
	return stmts
}

// sqlClientLine is a line a client runs as a command of its own, not as
// SQL: psql's backslash commands (\i FILE), mysql's (source FILE, \.
// FILE), sqlite3's and duckdb's dot commands (.read FILE).
type sqlClientLine struct {
	pos  int
	text string
}

// clientLine reports whether s, at the start of a line, is a client
// command (sqlClientLine): a backslash command anywhere, source and dot
// commands only where a statement starts (stmtStart), so that a name
// continuing a statement on a new line is still SQL.
func clientLine(s string, stmtStart bool) bool {
	switch {
	case s[0] == '\\':
		return true
	case !stmtStart:
		return false
	case s[0] == '.':
		return len(s) > 1 && ('a' <= s[1] && s[1] <= 'z' || 'A' <= s[1] && s[1] <= 'Z')
	}
	return len(s) > 7 && strings.EqualFold(s[:6], "source") && (s[6] == ' ' || s[6] == '\t')
}

// lineLen is the length of the first line of s, without its newline.
func lineLen(s string) int {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return i
	}
	return len(s)
}

// sqlStart is the index of a statement's first token after the block
// keywords before it (BEGIN, DECLARE ...), len(st) when none is left.
func sqlStart(st []sqlToken) int {
	k := 0
	for k < len(st) && st[k].word && slices.Contains(sqlLeading, st[k].text) {
		k++
	}
	return k
}

// isNameByte reports an SQL name byte (ASCII letters, digits, _ and any
// non-ASCII byte).
func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c >= 0x80
}

// skipQuoted returns the index after the quoted text starting at text[i]
// (a doubled closer is an escaped one; a backslash escapes in MySQL
// strings, which is harmless to assume for all).
func skipQuoted(text string, i int, closer byte) int {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			if closer == '\'' {
				j++
			}
		case closer:
			if j+1 < len(text) && text[j+1] == closer {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(text)
}

// sqlLeading are the words a statement may start with before the one
// that says what it does (a PL/pgSQL block's BEGIN, EXECUTE of a literal
// is not followed).
var sqlLeading = []string{"BEGIN", "END", "ELSE", "THEN", "LOOP", "DECLARE"}

// sqlLoss classifies one statement.
func sqlLoss(st []sqlToken) (Loss, bool) {
	k := sqlStart(st)
	if k >= len(st) || !st[k].word {
		return Loss{}, false
	}
	switch st[k].text {
	case "DROP":
		i := k + 1
		for i < len(st) && st[i].word && (st[i].text == "TEMPORARY" || st[i].text == "TEMP") {
			i++
		}
		if i >= len(st) {
			return Loss{}, false
		}
		kind := st[i].text
		if kind != "DATABASE" && kind != "SCHEMA" && kind != "TABLE" && kind != "KEYSPACE" {
			return Loss{}, false
		}
		return Loss{Op: "DROP " + kind, Target: sqlNames(st[i+1:]), Database: kind == "DATABASE" || kind == "KEYSPACE"}, true
	case "ALTER":
		return alterDrop(st[k+1:])
	case "TRUNCATE":
		i := k + 1
		for i < len(st) && st[i].word && (st[i].text == "TABLE" || st[i].text == "ONLY") {
			i++
		}
		return Loss{Op: "TRUNCATE", Target: sqlNames(st[i:])}, true
	}
	// DELETE or UPDATE at the top level (also after WITH ... AS (...))
	// without a WHERE at the top level, or with one that holds for every
	// row (WHERE true, WHERE 1=1: BigQuery demands a WHERE).
	del := -1
	for i := k; i < len(st); i++ {
		t := st[i]
		if t.depth != 0 || !t.word {
			continue
		}
		if (t.text == "DELETE" || t.text == "UPDATE") && del < 0 && (i == k || st[k].text == "WITH" && st[i-1].text == ")") {
			del = i
		}
		if del >= 0 && (t.text == "WHERE" && !sqlAlwaysTrue(st[i+1:]) || t.text == "CURRENT") {
			return Loss{}, false
		}
	}
	if del < 0 {
		return Loss{}, false
	}
	i := del + 1
	for i < len(st) && st[i].word && (st[i].text == "FROM" || st[i].text == "ONLY" || st[i].text == "LOW_PRIORITY" ||
		st[i].text == "QUICK" || st[i].text == "IGNORE") {
		i++
	}
	return Loss{Op: st[del].text + " without WHERE", Target: sqlNames(st[i:])}, true
}

// sqlAlwaysTrue reports a WHERE condition (the tokens after WHERE) that
// holds for every row: TRUE, 1, 1=1, 'a'='a'.
func sqlAlwaysTrue(st []sqlToken) bool {
	var parts []string
	for _, t := range st {
		if t.depth != 0 {
			return false
		}
		parts = append(parts, t.text)
	}
	switch strings.Join(parts, " ") {
	case "TRUE", "1", "1 = 1", "' = '", "0 = 0":
		return true
	}
	return false
}

// alterDrop classifies ALTER TABLE NAME ... DROP [COLUMN] NAME and DROP
// PARTITION (the column's or partition's data goes with it); dropping a
// constraint, an index, a default or a key loses no data.
func alterDrop(st []sqlToken) (Loss, bool) {
	if len(st) < 3 || !st[0].word || st[0].text != "TABLE" {
		return Loss{}, false
	}
	name := sqlNames(st[1:])
	for i := 1; i+1 < len(st); i++ {
		t := st[i]
		if t.depth != 0 || !t.word || t.quoted || t.text != "DROP" {
			continue
		}
		switch what := st[i+1]; {
		case what.quoted:
			return Loss{Op: "ALTER TABLE DROP COLUMN", Target: name}, true
		case what.text == "COLUMN":
			return Loss{Op: "ALTER TABLE DROP COLUMN", Target: name}, true
		case what.text == "PARTITION" || what.text == "DETACHED":
			return Loss{Op: "ALTER TABLE DROP PARTITION", Target: name}, true
		case slices.Contains(sqlAlterKeepsData, what.text):
			continue
		case what.word:
			return Loss{Op: "ALTER TABLE DROP COLUMN", Target: name}, true // MySQL: DROP name
		}
	}
	return Loss{}, false
}

// sqlAlterKeepsData are the words after ALTER TABLE ... DROP that name
// something that holds no rows.
var sqlAlterKeepsData = []string{"CONSTRAINT", "INDEX", "KEY", "PRIMARY", "FOREIGN", "CHECK", "DEFAULT", "NOT",
	"EXPRESSION", "IDENTITY", "TRIGGER", "PROJECTION", "STATISTICS", "SYSTEM", "PERIOD", "ROW", "COMPOUND", "SORTKEY"}

// sqlNameSkip are the words before the names of DROP and TRUNCATE.
var sqlNameSkip = []string{"IF", "EXISTS", "ONLY"}

// sqlNames returns the object names at the start of tokens (after IF
// EXISTS), comma-separated, lower-cased when they were bare.
func sqlNames(st []sqlToken) string {
	var names []string
	for _, t := range st {
		if t.depth != 0 {
			break
		}
		if t.word && !t.quoted && slices.Contains(sqlNameSkip, t.text) {
			continue
		}
		if t.word {
			if len(names) > 0 && !strings.HasSuffix(names[len(names)-1], ",") {
				break
			}
			if n := len(names); n > 0 {
				names[n-1] = strings.TrimSuffix(names[n-1], ",")
			}
			name := t.text
			if !t.quoted {
				name = strings.ToLower(name)
			}
			names = append(names, name)
			continue
		}
		if t.text == "," && len(names) > 0 {
			names[len(names)-1] += ","
			continue
		}
		break
	}
	if n := len(names); n > 0 {
		names[n-1] = strings.TrimSuffix(names[n-1], ",")
	}
	return strings.Join(names, ", ")
}

// RedisLosses returns the FLUSHALL and FLUSHDB commands of redis-cli
// input (one command a line, words separated by spaces; any case).
func RedisLosses(text string) []Loss {
	var out []Loss
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch op := strings.ToUpper(strings.Trim(f[0], `"'`)); op {
		case "FLUSHALL", "FLUSHDB":
			out = append(out, Loss{Op: op})
		}
	}
	return out
}

// MongoLosses returns the calls of mongosh script text that drop a
// database or a collection or delete every document: dropDatabase(),
// COLLECTION.drop(), deleteMany({}) and remove({}) with an empty filter.
// Target is the collection, or the database of getSiblingDB("x").
func MongoLosses(text string) []Loss {
	var out []Loss
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], '.')
		if j < 0 {
			break
		}
		at := i + j
		rest := text[at+1:]
		method := rest
		if k := strings.IndexFunc(rest, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }); k >= 0 {
			method = rest[:k]
		}
		args := strings.TrimLeft(rest[len(method):], " \t")
		i = at + 1
		if !strings.HasPrefix(args, "(") {
			continue
		}
		inner := strings.TrimSpace(args[1:])
		emptyFilter := strings.HasPrefix(inner, ")") || strings.HasPrefix(strings.ReplaceAll(inner, " ", ""), "{})")
		switch method {
		case "dropDatabase":
			target := mongoSiblingDB(text[:at])
			if target == "" {
				target = mongoUse(text[:at])
			}
			out = append(out, Loss{Op: "dropDatabase()", Target: target, Database: true})
		case "drop":
			out = append(out, Loss{Op: "drop()", Target: mongoReceiver(text[:at]), In: mongoUse(text[:at])})
		case "deleteMany", "remove":
			if emptyFilter {
				out = append(out, Loss{Op: method + "({})", Target: mongoReceiver(text[:at]), In: mongoUse(text[:at])})
			}
		}
	}
	return out
}

// maxMongoUse bounds how far back a "use NAME" statement is looked for.
const maxMongoUse = 4096

// mongoUse returns NAME of the last mongosh "use NAME" statement in text
// (at its start or after a ";" or a line break), or "".
func mongoUse(text string) string {
	text = text[max(0, len(text)-maxMongoUse):]
	for end := len(text); end > 0; {
		i := strings.LastIndex(text[:end], "use ")
		if i < 0 {
			return ""
		}
		end = i
		if before := strings.TrimRight(text[:i], " \t"); before != "" && !strings.HasSuffix(before, ";") && !strings.HasSuffix(before, "\n") {
			continue
		}
		rest := strings.TrimLeft(text[i+len("use "):], " \t")
		k := 0
		for k < len(rest) && (isNameByte(rest[k]) || rest[k] == '-') {
			k++
		}
		if k > 0 {
			return rest[:k]
		}
	}
	return ""
}

// maxMongoReceiver bounds how far back a receiver is looked for.
const maxMongoReceiver = 256

// mongoReceiver returns the collection name ending text (db.users,
// db.getCollection("users"), db["users"]).
func mongoReceiver(text string) string {
	text = strings.TrimRight(text, " \t")
	text = text[max(0, len(text)-maxMongoReceiver):]
	if strings.HasSuffix(text, ")") || strings.HasSuffix(text, "]") {
		open := strings.LastIndexAny(text, "([")
		if open < 0 {
			return ""
		}
		return strings.Trim(text[open+1:len(text)-1], `"' `)
	}
	k := len(text)
	for k > 0 && isNameByte(text[k-1]) {
		k--
	}
	return text[k:]
}

// mongoSiblingDB returns x of a getSiblingDB("x") ending text, or "".
func mongoSiblingDB(text string) string {
	text = strings.TrimRight(text, " \t")
	if !strings.HasSuffix(text, ")") {
		return ""
	}
	text = text[max(0, len(text)-maxMongoReceiver):] // bounded: a loss per call must stay cheap
	const call = "getSiblingDB("
	i := strings.LastIndex(text, call)
	if i < 0 || !strings.HasSuffix(text, ")") {
		return ""
	}
	return strings.Trim(text[i+len(call):len(text)-1], `"' `)
}
