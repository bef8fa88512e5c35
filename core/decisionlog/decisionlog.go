// Package decisionlog writes the decision log: decisions.log in the data
// dir, JSON Lines, one record per call. It answers "why did that ask?" and
// "why did that not ask?" after the fact.
//
// Every string that reaches the file goes through redact.String first, so
// the log never holds a secret the redactor knows. Appends from concurrent
// hook processes are serialised with a file lock, and the file is rotated to
// decisions.log.1 once it passes MaxSize, so a record is never split, lost
// or duplicated by a rotation. Writing a record costs one lock, one stat and
// one append; any failure is returned and the caller ignores it (logging
// must never change a verdict).
package decisionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/internal/filelock"
	"github.com/zcode-fence/zcode-fence/core/internal/lines"
	"github.com/zcode-fence/zcode-fence/redact"
)

// FileName is the log's name inside the data dir.
const FileName = "decisions.log"

// MaxSize is the size past which the log is rotated (5 MiB).
const MaxSize = 5 << 20

// DetailUnits caps the logged command or path, in UTF-16 code units.
const DetailUnits = 300

// lockWait bounds the wait for the log's lock: the hook has already
// answered, but its process must still exit well inside the host's timeout.
const lockWait = 300 * time.Millisecond

// LayerRecord is one layer's part in a decision.
type LayerRecord struct {
	Name string `json:"name"`
	// Mode is "inprocess", "process" or "external".
	Mode string `json:"mode"`
	// Verdict is "ask", "silent", "error" or "skipped".
	Verdict     string            `json:"verdict"`
	Rules       []string          `json:"rules,omitempty"`
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
	Stdin string  `json:"stdin,omitempty"`
	Ms    float64 `json:"ms"`
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

// Append redacts r, fills TS and PID when unset, and appends it to the log in
// dir (created if needed).
func Append(dir string, r Record) error {
	if r.TS == "" {
		r.TS = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if r.PID == 0 {
		r.PID = os.Getpid()
	}
	line, err := Marshal(r.Redacted())
	if err != nil {
		return fmt.Errorf("decisionlog: encode: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("decisionlog: %w", err)
	}
	lock, err := filelock.Acquire(filepath.Join(dir, FileName+".lock"), lockWait)
	if err != nil {
		return fmt.Errorf("decisionlog: %w", err)
	}
	defer lock.Unlock()
	path := filepath.Join(dir, FileName)
	st, err := os.Stat(path)
	if err == nil && !st.Mode().IsRegular() {
		// A device or a pipe: opening it could block, writing could lie.
		return fmt.Errorf("decisionlog: %s is not a regular file", path)
	}
	if err == nil && st.Size()+int64(len(line)) > MaxSize {
		if err := os.Rename(path, path+".1"); err != nil {
			return fmt.Errorf("decisionlog: rotate: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("decisionlog: %w", err)
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

// Read returns the records of the log in dir, oldest first: the rotated
// generation, then the current file. Lines that do not decode are counted
// in bad and skipped.
func Read(dir string) (records []Record, bad int, err error) {
	for _, name := range []string{FileName + ".1", FileName} {
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
		n, rerr := readLines(io.LimitReader(f, 4*MaxSize), &records)
		f.Close()
		bad += n
		if rerr != nil {
			return records, bad, fmt.Errorf("decisionlog: read %s: %w", name, rerr)
		}
	}
	return records, bad, nil
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
