package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// The other SQL and CQL clients ParseDBClient reads: duckdb (a database
// file, as sqlite3), clickhouse-client (and "clickhouse client"), cqlsh,
// bq query, sqlcmd, snowsql, trino and presto. Each gives its statements
// to SQLLosses, the one classifier every SQL client shares; BigQuery and
// Snowflake are services, so their host is never this machine.

func init() {
	for name, read := range map[string]func([]ir.Word) (DBClient, bool){
		"duckdb": duckdbClient, "clickhouse-client": clickhouseClient, "clickhouse": clickhouseTool,
		"cqlsh": cqlshClient, "bq": bqClient, "sqlcmd": sqlcmdClient, "snowsql": snowsqlClient,
		"trino": trinoClient, "presto": trinoClient,
	} {
		dbClients[name] = read
	}
}

// remoteService stands for the host of a client whose server is a cloud
// service (BigQuery, Snowflake): never this machine.
func remoteService(name string) *ir.Word {
	w := Literal(name)
	return &w
}

// duckdbValued are duckdb's single-dash options that take the next word
// (-c and -f are read separately).
var duckdbValued = []string{"separator", "newline", "nullvalue", "s"}

// duckdbClient: duckdb [OPTIONS] [FILE [SQL]]; -c SQL runs it and exits,
// -cmd SQL runs it first, -f FILE runs a script.
func duckdbClient(args []ir.Word) (DBClient, bool) {
	return fileSQLClient(args, fileSQLSpec{valued: duckdbValued, first: []string{"cmd"}, exits: []string{"c"},
		init: []string{"init"}, file: []string{"f"}})
}

var clickhouseSpec = Spec{Short: "qhdupC", Long: []string{"query", "host", "database", "user", "password", "port",
	"queries-file", "config-file", "format", "param", "max_threads", "connection", "history_file", "log-level"}}

func clickhouseClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(args, clickhouseSpec)
	if p.Has("help", "version", "V") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineSQL, Scripts: p.Values("query", "q"),
		Host: last(p.Values("host", "h")), Database: last(p.Values("database", "d"))}
	c = c.withScripts(args, clickhouseSpec, scriptOpts{short: "q", long: []string{"query"},
		fileLong: []string{"queries-file"}, operands: -1})
	c.ReadsStdin = len(c.Scripts) == 0 && !p.Has("queries-file")
	return c, true
}

// clickhouseTool: the clickhouse binary's client mode (clickhouse client
// ...); its other modes (local, server) are not a client's.
func clickhouseTool(args []ir.Word) (DBClient, bool) {
	if len(args) == 0 || args[0].Unknown || args[0].Value != "client" {
		return DBClient{}, false
	}
	return clickhouseClient(args[1:])
}

var cqlshSpec = Spec{Short: "efkupt", Long: []string{"execute", "file", "keyspace", "username", "password",
	"cqlshrc", "cqlversion", "protocol-version", "connect-timeout", "request-timeout", "encoding", "secure-connect-bundle"}}

// cqlshClient: cqlsh [OPTIONS] [HOST [PORT]].
func cqlshClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(args, cqlshSpec)
	if p.Has("help", "version") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineCassandra, Scripts: p.Values("execute", "e"), Database: last(p.Values("keyspace", "k"))}
	if len(p.Operands) > 0 {
		c.Host = &p.Operands[0]
	}
	c = c.withScripts(args, cqlshSpec, scriptOpts{short: "e", long: []string{"execute"}, fileShort: "f",
		fileLong: []string{"file"}, operands: -1})
	c.ReadsStdin = len(c.Scripts) == 0 && !p.Has("file", "f")
	return c, true
}

// bqSpec: the bq options that take the next word (most are given with =).
var bqSpec = Spec{Long: []string{"project_id", "location", "dataset_id", "format", "destination_table", "parameter",
	"max_rows", "job_id", "api", "apilog", "bigqueryrc", "credential_file", "flagfile"}, Short: "n"}

// bqClient: bq [GLOBAL FLAGS] query [FLAGS] SQL; the other commands (bq
// rm) are services' (serviceCLIs).
func bqClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(args, bqSpec)
	if p.Has("help") || len(p.Operands) < 1 || p.Operands[0].Unknown || p.Operands[0].Value != "query" || p.Has("dry_run") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineSQL, Scripts: p.Operands[1:], Host: remoteService("bigquery"), ReadsStdin: len(p.Operands) == 1}
	return c.withScripts(args, bqSpec, scriptOpts{operands: 1}), true
}

var sqlcmdSpec = Spec{Short: "SdQqiUPHolsWwtchaefkrLvxXyYzZ", Long: []string{"server", "database-name", "query",
	"initial-query", "input-file", "user-name", "password", "output-file"}}

// sqlcmdClient: sqlcmd -Q runs a query and exits, -q runs it first, -i
// runs a file.
func sqlcmdClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(args, sqlcmdSpec)
	if p.Has("?", "help", "version") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineSQL, Scripts: p.Values("Q", "q", "query", "initial-query"),
		Host: last(p.Values("S", "server")), Database: last(p.Values("d", "database-name"))}
	if c.Host != nil && !c.Host.Unknown {
		// tcp:host,port, host\instance, (local) and . are this machine's
		// forms too.
		h := strings.TrimPrefix(strings.ToLower(c.Host.Value), "tcp:")
		h, _, _ = strings.Cut(h, ",")
		h, _, _ = strings.Cut(h, `\`)
		if h == "." || h == "(local)" || h == "localhost" {
			c.Host = nil
		} else {
			w := Literal(h)
			c.Host = &w
		}
	}
	c = c.withScripts(args, sqlcmdSpec, scriptOpts{short: "Qq", long: []string{"query", "initial-query"}, fileShort: "i",
		fileLong: []string{"input-file"}, operands: -1})
	c.ReadsStdin = len(c.Scripts) == 0 && !p.Has("i", "input-file")
	return c, true
}

var snowsqlSpec = Spec{Short: "audsrwqfcoh", Long: []string{"accountname", "username", "dbname", "schemaname",
	"rolename", "warehouse", "query", "filename", "connection", "config", "option", "variable", "host", "port",
	"region", "authenticator", "private-key-path", "mfa-passcode", "token"}}

func snowsqlClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(args, snowsqlSpec)
	if p.Has("help", "version", "?") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineSQL, Scripts: p.Values("q", "query"), Host: remoteService("snowflake"),
		Database: last(p.Values("d", "dbname"))}
	c = c.withScripts(args, snowsqlSpec, scriptOpts{short: "q", long: []string{"query"}, fileShort: "f",
		fileLong: []string{"filename"}, operands: -1})
	c.ReadsStdin = len(c.Scripts) == 0 && !p.Has("f", "filename")
	return c, true
}

var trinoSpec = Spec{Short: "f", Long: []string{"server", "execute", "catalog", "schema", "file", "user", "password",
	"output-format", "session", "source", "client-tags", "access-token", "truststore-path", "keystore-path", "timezone"}}

// trinoClient: trino (presto) --server URL --execute SQL.
func trinoClient(args []ir.Word) (DBClient, bool) {
	p := ParseArgs(args, trinoSpec)
	if p.Has("help", "version") {
		return DBClient{}, false
	}
	c := DBClient{Engine: EngineSQL, Scripts: p.Values("execute"), Database: last(p.Values("catalog"))}
	if s := last(p.Values("server")); s != nil {
		if s.Unknown {
			c.Host = s
		} else if host, _, ok := connString(*s); ok && host != nil {
			c.Host = host
		} else {
			h := Literal(hostOnly(s.Value))
			c.Host = &h
		}
	}
	c = c.withScripts(args, trinoSpec, scriptOpts{long: []string{"execute"}, fileShort: "f", fileLong: []string{"file"}, operands: -1})
	c.ReadsStdin = len(c.Scripts) == 0 && !p.Has("f", "file")
	return c, true
}

// RedisKeyListing reports whether a redis-cli command line (name: a
// Redis client, args: its words) lists every
// key of a database: KEYS with a pattern of wildcards alone, or --scan
// without a --pattern narrowing it. Its output fed to a DEL or UNLINK
// (redis-cli KEYS '*' | xargs redis-cli DEL) deletes the database's keys
// one by one, as FLUSHDB does at once.
func RedisKeyListing(name string, args []ir.Word) bool {
	if c, ok := ParseDBClient(name, nil); !ok || c.Engine != EngineRedis {
		return false
	}
	all := func(w ir.Word) bool { return !w.Unknown && strings.Trim(w.Value, "*") == "" && w.Value != "" }
	scan, pattern := false, (*ir.Word)(nil)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown {
			return false
		}
		switch {
		case a.Value == "--scan":
			scan = true
		case a.Value == "--pattern" && i+1 < len(args):
			i++
			pattern = &args[i]
		case strings.HasPrefix(a.Value, "-"):
			if slices.Contains(redisValued, a.Value) {
				i++
			}
		default:
			return strings.EqualFold(a.Value, "KEYS") && i+1 < len(args) && all(args[i+1])
		}
	}
	return scan && (pattern == nil || all(*pattern))
}

// RedisKeyDelete reports whether redis-cli input is a DEL or UNLINK (of
// keys given or appended by xargs).
func RedisKeyDelete(text string) bool {
	f := strings.Fields(text)
	return len(f) > 0 && (strings.EqualFold(f[0], "DEL") || strings.EqualFold(f[0], "UNLINK"))
}

// scriptOpts names a client's options that give it statements (short
// letters and long names: psql -c, mysql -e) and script files (psql -f,
// sqlcmd -i); a script file is judged as the client run on the file's
// text from its input, with its other options (scriptArgs).
type scriptOpts struct {
	short, fileShort string
	long, fileLong   []string
	// operands is how many operands the client keeps (-1: all): bq's
	// SQL operands after "query" are statements.
	operands int
	// flag reports a word that is an option taking no next word whatever
	// its letters (mysql's -pSECRET).
	flag func(ir.Word) bool
}

// scriptArgs reads args (parsed with spec) for the options of o: the
// script files given, and the indices of the words the client keeps when
// it runs one script's text from its input. Linear in args.
func scriptArgs(args []ir.Word, spec Spec, o scriptOpts) (files []ir.Word, keep []int) {
	drops := func(short byte, long string) (drop, file bool) {
		if long != "" {
			file = slices.Contains(o.fileLong, long)
			return file || slices.Contains(o.long, long), file
		}
		file = strings.IndexByte(o.fileShort, short) >= 0
		return file || strings.IndexByte(o.short, short) >= 0, file
	}
	operands := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case w.Unknown || !IsOption(w) || o.flag != nil && o.flag(w):
			if IsOption(w) || o.operands < 0 || operands < o.operands {
				keep = append(keep, i)
			}
			if !IsOption(w) {
				operands++
			}
			continue
		case v == "--":
			keep = append(keep, i)
			continue
		case strings.HasPrefix(v, "--"):
			name, _, eq := strings.Cut(v[2:], "=")
			drop, file := drops(0, name)
			valued := !eq && slices.Contains(spec.Long, name) && i+1 < len(args)
			if file && eq {
				files = append(files, SubWord(w, 2+len(name)+1))
			} else if file && valued {
				files = append(files, args[i+1])
			}
			if !drop {
				keep = append(keep, i)
			}
			if valued {
				i++
				if !drop {
					keep = append(keep, i)
				}
			}
			continue
		}
		keep = append(keep, i) // a cluster without a value letter
		for k := 1; k < len(v); k++ {
			if strings.IndexByte(spec.Short, v[k]) < 0 {
				continue
			}
			drop, file := drops(v[k], "")
			next := k+1 == len(v) && i+1 < len(args)
			if drop {
				keep = keep[:len(keep)-1]
			}
			switch {
			case file && next:
				files = append(files, args[i+1])
			case file:
				files = append(files, SubWord(w, k+1))
			}
			if next {
				i++
				if !drop {
					keep = append(keep, i)
				}
			}
			break
		}
	}
	return files, keep
}
