package analysis

import (
	"path"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// Script files of SQL clients: psql -f FILE, sqlite3 -init FILE, cqlsh -f,
// sqlcmd -i, snowsql -f, clickhouse-client --queries-file, duckdb -f,
// trino -f (cmdfacts.DBClient.ScriptFiles), a file fed to a client's
// input (psql < FILE, mysql < FILE, bq query < FILE), and the files SQL
// text includes (psql's \i and \ir, mysql's source, sqlite3's .read:
// cmdfacts.SQLIncludes) in the statements the command line gives, in its
// heredoc and in each file read. Each file's text (written earlier in the
// line, else read from disk with the same bounds as a script) is judged
// as the client run with that text on its input (cmdfacts
// DBClient.InputArgs), one level deeper: a command whose Origin is the
// file and whose last Via, "NAME < FILE", is an ir.ViaScriptInput, so a
// layer can name the file's line of what it finds.

// sqlFileEngine reports the engines whose script files are read: the SQL
// and CQL ones (a Redis or Mongo client's input is not SQL).
func sqlFileEngine(e cmdfacts.DBEngine) bool {
	switch e {
	case cmdfacts.EngineRedis, cmdfacts.EngineMongo, 0:
		return false
	}
	return true
}

// sqlScriptFiles judges the script files database client ex runs (see
// above). c is the client's context (its stdin is what it reads).
func (a *analyzer) sqlScriptFiles(c ctx, st *state, ex exec) {
	if c.dialect != ir.Bash || c.container != nil || len(ex.words) == 0 || !cmdfacts.IsDBClient(ex.name) {
		return
	}
	args := irWords(ex.words[1:])
	client, ok := cmdfacts.ParseDBClient(ex.name, args)
	if !ok || !sqlFileEngine(client.Engine) {
		return
	}
	words := []xword{ex.words[0]}
	for _, k := range client.InputArgs {
		words = append(words, ex.words[1+k])
	}
	for _, f := range client.ScriptFiles {
		a.sqlFile(c, st, ex, words, wordToX(f))
	}
	if client.ReadsStdin {
		for _, r := range ex.redirs {
			if r.Op == "<" && (r.Fd == "" || r.Fd == "0") {
				a.sqlFile(c, st, ex, words, wordToX(r.Target))
			}
		}
	}
	// The includes of the text the client runs itself: its statements,
	// its input (a heredoc, a file's text when this is the judged
	// client of a file).
	dir := ""
	if c.file != nil {
		dir = c.file.sqlDir
	}
	texts := client.Scripts
	if client.ReadsStdin && c.stdin != nil {
		texts = append(texts[:len(texts):len(texts)], c.stdin.word())
	}
	for _, t := range texts {
		for _, inc := range cmdfacts.SQLIncludes(t.Value) {
			p := inc.Path
			if inc.Relative && dir != "" && !strings.HasPrefix(p, "/") {
				p = path.Join(dir, p)
			}
			a.sqlFile(c, st, ex, words, knownWord(p, p))
		}
	}
}

// sqlFile judges the script file named by w as the client words run
// with its text on their input.
func (a *analyzer) sqlFile(c ctx, st *state, ex exec, words []xword, w xword) {
	if a.full() {
		return
	}
	shown, abs, text := "", "", ""
	if t, ok := writtenText(st, w); ok {
		v, _ := w.lit()
		shown, text = v, t.value()
		abs, _ = a.absPath(st, v)
		for _, p := range a.onDisk {
			if p == abs {
				return // a file that includes itself
			}
		}
	} else {
		d, ok := a.readDisk(c, st, w)
		if !ok || !a.readWhole(ex, d) || ondisk.Binary(d.text) {
			return
		}
		shown, abs, text = d.shown, d.abs, d.text
	}
	if strings.TrimSpace(text) == "" {
		return
	}
	if c.depth+1 > ir.MaxDepth {
		a.out.Truncated = true
		return
	}
	name, _ := words[0].lit()
	f := &fileOrigin{shown: shown, noLine: true}
	if abs != "" {
		f.sqlDir = path.Dir(abs)
	}
	n := ctx{depth: c.depth + 1, via: appendVia(c.via, ir.CommandName(name)+" < "+shown), parent: ex.idx,
		dialect: c.dialect, src: c.src, bg: c.bg, file: f}
	t := knownWord(text, "")
	n.stdin, n.stdinOp = &t, "<"
	// The client's prefix assignments (PGHOST=db psql -f x.sql) say
	// where the file's statements run.
	sc := &simple{words: words, assigns: a.out.Commands[ex.idx].Assigns, env: ex.env}
	run := func() { a.run(n, st, sc) }
	if abs != "" {
		a.withFile(abs, run)
	} else {
		run()
	}
}
