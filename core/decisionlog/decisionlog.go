// Package decisionlog writes the decision log: decisions.log in the data
// dir, JSON Lines, one record per call. It answers "why did that ask?" and
// "why did that not ask?" after the fact.
//
// Every string that reaches the file goes through redact.String first, so
// the log never holds a secret the redactor knows; every value is then cut
// so that one record is at most MaxRecord bytes (a cut value ends in a
// "…[cut N bytes]" marker, and so do the lists cut short).
//
// # Appending without losing records
//
// Many hook processes append at once (an agent runs tool calls in
// parallel). A record is appended without any lock: one write(2) of the
// whole line to a descriptor opened with O_APPEND. On a local file system
// such a write is atomic with respect to other appends — the kernel takes
// the file's lock for the whole write and moves the end of file and copies
// the bytes under it (Linux's i_rwsem in generic_file_write_iter, the vnode
// lock on macOS; on Windows FILE_APPEND_DATA writes are serialised by the
// file system) — and a write of at most MaxRecord bytes to a regular file
// is never short. So two records never interleave, and no lock wait can
// drop one. (Network file systems give no such promise: the data dir is
// local.)
//
// Rotation renames the file away once it passes MaxSize; it happens under
// a lock file, so that one process rotates at a time, and it only renames:
// decisions.log → .1 → .2 … → .Keep, the oldest removed. An appender that
// opened the file before the rename still appends to the same file, now
// decisions.log.1, so its record is kept; an appender that finds the file
// full takes the lock, checks that the path still names the file it
// opened (os.SameFile) — if not, another process rotated and it reopens —
// and rotates. If the lock wait runs out it appends anyway: the file grows
// a little past MaxSize and the next appender rotates it. A record could
// only be lost if its file were removed between open and write, which
// takes Keep rotations (Keep × MaxSize bytes appended by others) in that
// instant.
//
// Keep is sized so that a flood of maximum-size records cannot push out
// the last day's asks: the log keeps at least Keep × MaxSize bytes (20
// MiB), 2,560 records of MaxRecord bytes, and 1,000 of them fill less than
// two files.
//
// # Two files: hook records and the rest
//
// Hook records (Source "hook") go to decisions.log; every other record
// (--eval, anything run by hand) to decisions-eval.log, which rotates on
// its own (EvalKeep generations). A loop of `zcode-fence --eval` therefore
// rotates only eval records: the hook's asks are pushed out by nothing but
// later hook calls. Read returns both, merged by time.
//
// # Failures are remembered
//
// Cost of one append: an open, an fstat and a write; a rotation adds a
// lock and Keep renames. Any failure is returned; the caller answers as
// if nothing happened (logging must never change a verdict) and passes
// the error to NoteFailure, which leaves a note (decisions.failed in the
// data dir, or, when that cannot be written either, in a fallback place:
// FailurePlaces) that doctor and `zcode-fence log` report until it is
// removed. A note costs nothing while the log is healthy.
package decisionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/internal/filelock"
	"github.com/zcode-fence/zcode-fence/core/internal/lines"
	"github.com/zcode-fence/zcode-fence/redact"
)

// FileName is the name of the hook records' log inside the data dir.
const FileName = "decisions.log"

// EvalFileName is the name of the log of every other record (--eval and
// the like) inside the data dir: it rotates on its own, so no number of
// eval records can push a hook record out.
const EvalFileName = "decisions-eval.log"

// EvalKeep is how many rotated eval logs are kept.
const EvalKeep = 1

// MaxSize is the size past which the log is rotated (5 MiB). Appends that
// race with a rotation may take the file a few records past it.
const MaxSize = 5 << 20

// Keep is how many rotated files are kept: decisions.log.1 (the newest)
// to decisions.log.Keep.
const Keep = 4

// MaxRecord caps one record's line, newline included (8 KiB).
const MaxRecord = 8 << 10

// DetailUnits caps the logged command or path, in UTF-16 code units.
const DetailUnits = 300

// lockWait bounds the wait for the rotation lock: the hook has already
// answered, but its process must still exit well inside the host's timeout.
// When it runs out the record is appended anyway.
const lockWait = 300 * time.Millisecond

// LayerRecord is one layer's part in a decision.
type LayerRecord struct {
	Name string `json:"name"`
	// Mode is "inprocess", "process" or "external".
	Mode string `json:"mode"`
	// Verdict is "ask", "silent", "error" or "skipped".
	Verdict string   `json:"verdict"`
	Rules   []string `json:"rules,omitempty"`
	// Disabled are the rules whose asks disabled_rules switched off.
	Disabled    []string          `json:"disabled,omitempty"`
	Ms          float64           `json:"ms"`
	Error       string            `json:"error,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Record is one line of the log.
type Record struct {
	TS       string `json:"ts"`
	PID      int    `json:"pid"`
	Platform string `json:"platform"`
	// Source is "hook" or "eval".
	Source string `json:"source"`
	// Host is the agent host whose adapter read the payload (agenthost).
	Host string `json:"host,omitempty"`
	// Level is "info" or "error".
	Level string `json:"level"`
	// Verdict is "ask", "silent" or "error" (the input could not be judged).
	Verdict    string        `json:"verdict"`
	Tool       string        `json:"tool,omitempty"`
	Session    string        `json:"session,omitempty"`
	Detail     string        `json:"detail,omitempty"`
	ProjectDir string        `json:"project_dir,omitempty"`
	Cwd        string        `json:"cwd,omitempty"`
	Isolation  string        `json:"isolation,omitempty"`
	Rules      []string      `json:"rules,omitempty"`
	Reasons    []string      `json:"reasons,omitempty"`
	Layers     []LayerRecord `json:"layers,omitempty"`
	Errors     []string      `json:"errors,omitempty"`
	Notes      []string      `json:"config_notes,omitempty"`
	// Stdin is a snippet of input that could not be decoded.
	Stdin string `json:"stdin,omitempty"`
	// AnalysisSteps is what the shell analysis cost, in steps (the layers'
	// own steps are in their annotations, core/steps.Annotation).
	AnalysisSteps int `json:"analysis_steps,omitempty"`
	// Files are the files on disk the command runs that were read, or
	// could not be (core/shell/ondisk.Record): path, status ("read",
	// "missing", "not-regular", "over-cap", "unreadable"), size and the
	// sha256 of the text judged.
	Files []FileRecord `json:"files,omitempty"`
	Ms    float64      `json:"ms"`
	// StdinMs is how long, from the hook's start, its payload took to
	// arrive (hook calls; the wait's length when it did not in time).
	StdinMs float64 `json:"stdin_ms,omitempty"`
}

// FileRecord is one file a call ran from disk (Record.Files).
type FileRecord struct {
	Path   string `json:"path"`
	Status string `json:"status"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// Redacted returns a copy of r with every free-text field passed through
// redact.String and Detail/Stdin cut to DetailUnits.
func (r Record) Redacted() Record {
	r.Detail = core.CapUTF16(redact.String(r.Detail), DetailUnits)
	r.Stdin = core.CapUTF16(redact.String(r.Stdin), DetailUnits)
	r.ProjectDir = redact.String(r.ProjectDir)
	r.Cwd = redact.String(r.Cwd)
	r.Session = redact.String(r.Session)
	r.Tool = redact.String(r.Tool)
	r.Reasons = redactAll(r.Reasons)
	r.Errors = redactAll(r.Errors)
	r.Notes = redactAll(r.Notes)
	if r.Files != nil {
		files := make([]FileRecord, len(r.Files))
		for i, f := range r.Files {
			f.Path = redact.String(f.Path)
			files[i] = f
		}
		r.Files = files
	}
	if r.Layers != nil {
		layers := make([]LayerRecord, len(r.Layers))
		for i, l := range r.Layers {
			l.Error = redact.String(l.Error)
			if l.Annotations != nil {
				a := make(map[string]string, len(l.Annotations))
				for k, v := range l.Annotations {
					a[k] = redact.String(v)
				}
				l.Annotations = a
			}
			layers[i] = l
		}
		r.Layers = layers
	}
	return r
}

// Capped returns a copy of r whose every value is cut to fit a line of
// MaxRecord bytes: strings to a few hundred bytes (reasons, errors and
// notes to about a KiB), lists to a few entries, each cut marked; when
// that is still too long, harder, then to the record's identity and
// verdict alone. Apply it after Redacted (cutting first could split a
// secret the redactor then no longer recognises).
func (r Record) Capped() Record {
	for _, lim := range capLimits {
		c := r.cut(lim)
		if line, err := Marshal(c); err == nil && len(line) <= MaxRecord {
			return c
		}
	}
	return Record{TS: r.TS, PID: r.PID, Platform: r.Platform, Source: r.Source, Level: r.Level, Verdict: r.Verdict,
		Tool: core.CutMarked(r.Tool, 64), Rules: cutList(r.Rules, 8, 64), Errors: []string{"record cut: too large to log"}, Ms: r.Ms}
}

// capLimit is one pass of Capped: bytes per short field, per long field
// (reasons, errors, notes, stdin), and entries per list.
type capLimit struct{ short, long, items int }

var capLimits = []capLimit{{256, 1024, 16}, {96, 256, 6}, {32, 64, 3}}

func (r Record) cut(l capLimit) Record {
	r.Session = core.CutMarked(r.Session, l.short)
	r.Tool = core.CutMarked(r.Tool, l.short)
	r.ProjectDir = core.CutMarked(r.ProjectDir, l.short)
	r.Cwd = core.CutMarked(r.Cwd, l.short)
	r.Isolation = core.CutMarked(r.Isolation, l.short)
	r.Platform = core.CutMarked(r.Platform, l.short)
	r.Source = core.CutMarked(r.Source, l.short)
	r.Detail = core.CutMarked(r.Detail, l.long)
	r.Stdin = core.CutMarked(r.Stdin, l.long)
	r.Rules = cutList(r.Rules, 4*l.items, l.short)
	r.Reasons = cutList(r.Reasons, l.items, l.long)
	r.Errors = cutList(r.Errors, l.items, l.long)
	r.Notes = cutList(r.Notes, l.items, l.long)
	if r.Files != nil {
		n := min(len(r.Files), 2*l.items)
		files := make([]FileRecord, n)
		for i, f := range r.Files[:n] {
			f.Path = core.CutMarked(f.Path, l.short)
			files[i] = f
		}
		if len(r.Files) > n {
			r.Errors = append(r.Errors, "…["+strconv.Itoa(len(r.Files)-n)+" more files cut]")
		}
		r.Files = files
	}
	if r.Layers != nil {
		n := min(len(r.Layers), l.items)
		layers := make([]LayerRecord, n)
		for i, lr := range r.Layers[:n] {
			lr.Name = core.CutMarked(lr.Name, l.short)
			lr.Mode = core.CutMarked(lr.Mode, l.short)
			lr.Verdict = core.CutMarked(lr.Verdict, l.short)
			lr.Error = core.CutMarked(lr.Error, l.long)
			lr.Rules = cutList(lr.Rules, 4*l.items, l.short)
			if lr.Annotations != nil {
				a := make(map[string]string, min(len(lr.Annotations), l.items))
				for k, v := range lr.Annotations {
					if len(a) == l.items {
						break
					}
					a[core.CutMarked(k, l.short)] = core.CutMarked(v, l.short)
				}
				lr.Annotations = a
			}
			layers[i] = lr
		}
		if len(r.Layers) > n {
			r.Errors = append(r.Errors, "…["+strconv.Itoa(len(r.Layers)-n)+" more layers cut]")
		}
		r.Layers = layers
	}
	return r
}

// cutList keeps the first n entries of in, each cut to limit bytes, and
// says how many it dropped.
func cutList(in []string, n, limit int) []string {
	if in == nil {
		return nil
	}
	out := make([]string, 0, min(len(in), n)+1)
	for i, s := range in {
		if i == n {
			out = append(out, "…["+strconv.Itoa(len(in)-n)+" more cut]")
			break
		}
		out = append(out, core.CutMarked(s, limit))
	}
	return out
}

func redactAll(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = redact.String(s)
	}
	return out
}

// Marshal encodes r (already redacted) as one compact JSON line, HTML
// characters unescaped, with the trailing newline.
func Marshal(r Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Append redacts r, fills TS and PID when unset, caps it (Capped) and
// appends it to the log in dir (created if needed), rotating first when
// the log is full. See the package doc for why no record is lost.
func Append(dir string, r Record) error {
	if r.TS == "" {
		r.TS = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if r.PID == 0 {
		r.PID = os.Getpid()
	}
	line, err := Marshal(r.Redacted().Capped())
	if err != nil {
		return fmt.Errorf("decisionlog: encode: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("decisionlog: %w", err)
	}
	name, keep := fileOf(r.Source)
	path := filepath.Join(dir, name)
	f, size, err := openLog(path)
	if err != nil {
		return err
	}
	if size+int64(len(line)) > MaxSize && size > 0 {
		// Full: rotate (or find that another process just did) and
		// append to the new file. f is the file to write to either way.
		f = rotate(dir, path, keep, f)
	}
	_, werr := f.Write(line)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("decisionlog: write: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("decisionlog: close: %w", cerr)
	}
	return nil
}

// openLog opens the log for appending and returns its size. It refuses
// anything but a regular file (a device or a pipe could block or lie).
func openLog(path string) (*os.File, int64, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("decisionlog: %s is not a regular file", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("decisionlog: %w", err)
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("decisionlog: %s is not a regular file (%v)", path, err)
	}
	return f, st.Size(), nil
}

// fileOf names the log a record of source goes to and how many rotated
// generations of it are kept: only hook records go to FileName.
func fileOf(source string) (name string, keep int) {
	if source == "hook" {
		return FileName, Keep
	}
	return EvalFileName, EvalKeep
}

// rotate renames a full log (path, keep generations) away under the lock
// and returns the file to append to: the new log, or f itself when the
// lock is not to be had or anything fails (the record then lands in the
// full file; nothing is lost). f is closed when another is returned.
func rotate(dir, path string, keep int, f *os.File) *os.File {
	lock, err := filelock.Acquire(path+".lock", lockWait)
	if err != nil {
		return f
	}
	defer lock.Unlock()
	mine, err := f.Stat()
	if err != nil {
		return f
	}
	cur, err := os.Lstat(path)
	if err == nil && os.SameFile(mine, cur) && mine.Size() > 0 {
		// Still the full file: shift the generations, oldest out.
		_ = os.Remove(path + "." + strconv.Itoa(keep))
		for k := keep - 1; k >= 1; k-- {
			if err := os.Rename(path+"."+strconv.Itoa(k), path+"."+strconv.Itoa(k+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return f
			}
		}
		if err := os.Rename(path, path+".1"); err != nil {
			return f
		}
	}
	// Rotated, by us or by another process: append to the new file.
	g, _, err := openLog(path)
	if err != nil {
		return f
	}
	f.Close()
	return g
}

// Read returns the records of both logs in dir (hook and eval), oldest
// first: each log's rotated generations, then its current file, the two
// merged by time stamp (SortByTime). Lines that do not decode are counted
// in bad and skipped.
func Read(dir string) (records []Record, bad int, err error) {
	var hooks, evals int
	for _, name := range Files() {
		if st, serr := os.Stat(filepath.Join(dir, name)); serr == nil && !st.Mode().IsRegular() {
			return records, bad, fmt.Errorf("decisionlog: %s is not a regular file", name)
		}
		f, oerr := os.Open(filepath.Join(dir, name))
		if errors.Is(oerr, os.ErrNotExist) {
			continue
		}
		if oerr != nil {
			return records, bad, fmt.Errorf("decisionlog: %w", oerr)
		}
		before := len(records)
		n, rerr := readLines(io.LimitReader(f, 4*MaxSize), &records)
		f.Close()
		bad += n
		if strings.HasPrefix(name, EvalFileName) {
			evals += len(records) - before
		} else {
			hooks += len(records) - before
		}
		if rerr != nil {
			return records, bad, fmt.Errorf("decisionlog: read %s: %w", name, rerr)
		}
	}
	if hooks > 0 && evals > 0 {
		SortByTime(records)
	}
	return records, bad, nil
}

// Files lists the logs' file names in the data dir, each log oldest
// first: the eval log's generations decisions-eval.log.EvalKeep to .1 and
// decisions-eval.log, then the hook log's decisions.log.Keep to .1 and
// decisions.log.
func Files() []string {
	out := make([]string, 0, EvalKeep+Keep+2)
	for _, l := range []struct {
		name string
		keep int
	}{{EvalFileName, EvalKeep}, {FileName, Keep}} {
		for k := l.keep; k >= 1; k-- {
			out = append(out, l.name+"."+strconv.Itoa(k))
		}
		out = append(out, l.name)
	}
	return out
}

// SortByTime orders records by their time stamps, stably (records whose
// stamp does not parse first, in their order).
func SortByTime(recs []Record) {
	at := func(r Record) time.Time {
		t, _ := time.Parse(time.RFC3339Nano, r.TS)
		return t
	}
	sort.SliceStable(recs, func(a, b int) bool { return at(recs[a]).Before(at(recs[b])) })
}

func readLines(r io.Reader, out *[]Record) (bad int, err error) {
	long, err := lines.Each(r, 4<<20, func(line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return
		}
		var rec Record
		if json.Unmarshal(line, &rec) != nil {
			bad++
			return
		}
		*out = append(*out, rec)
	})
	return bad + long, err
}
