package decisionlog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/redact"
)

// FailureFileName is the name of the failure notes inside the data dir.
const FailureFileName = "decisions.failed"

// maxFailureFile caps a notes file (64 KiB, a few hundred notes): past
// it a failure only moves the file's modification time, so the count
// reads "at least".
const maxFailureFile = 64 << 10

// failureNote is one line of a notes file.
type failureNote struct {
	TS     string `json:"ts"`
	Source string `json:"source,omitempty"`
	Error  string `json:"error"`
}

// FailurePlaces lists where the failure notes of the log in dir are
// kept, in the order NoteFailure tries them: decisions.failed in dir,
// then a file named after dir in the user's cache dir, then one in a
// private directory of the temporary dir (a data dir that cannot be
// written, or a disk that is full, may leave one of the others).
func FailurePlaces(dir string) []string {
	sum := sha256.Sum256([]byte(filepath.Clean(dir)))
	name := hex.EncodeToString(sum[:8]) + ".failed"
	out := []string{filepath.Join(dir, FailureFileName)}
	if cache, err := os.UserCacheDir(); err == nil && cache != "" {
		out = append(out, filepath.Join(cache, "zcode-fence", "log-failures", name))
	}
	return append(out, filepath.Join(os.TempDir(), "zcode-fence-"+strconv.Itoa(os.Getuid()), "log-failures", name))
}

// NoteFailure records that a record of source could not be appended to
// the log in dir (err is Append's error): one line in the first of
// FailurePlaces that takes it. It never fails loudly: when no place can
// be written, nothing more can be done. Cost: a few opens and one small
// write, only when the log has failed.
func NoteFailure(dir, source string, err error) {
	line, merr := json.Marshal(failureNote{TS: time.Now().UTC().Format(time.RFC3339Nano), Source: core.CutMarked(source, 32),
		Error: core.CutMarked(redact.String(fmt.Sprint(err)), 400)})
	if merr != nil {
		return
	}
	line = append(line, '\n')
	for i, path := range FailurePlaces(dir) {
		if i > 0 && !privateDir(filepath.Dir(path)) {
			continue
		}
		if appendNote(path, line) == nil {
			return
		}
	}
}

// privateDir creates dir (mode 0700) when it is missing and reports
// whether it is a real directory, not a link, open to no one else.
func privateDir(dir string) bool {
	if os.MkdirAll(dir, 0o700) != nil {
		return false
	}
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode().Perm()&0o077 == 0
}

// appendNote appends line to the notes file at path, or, when the file
// is already at its cap, only moves its modification time.
func appendNote(path string, line []byte) error {
	st, err := os.Lstat(path)
	created := errors.Is(err, os.ErrNotExist)
	if err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("decisionlog: %s is not a regular file", path)
		}
		if st.Size() >= maxFailureFile {
			now := time.Now()
			return os.Chtimes(path, now, now)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(line)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil && created {
		// Leave no empty file behind to be counted as a second failure
		// next to the note the next place takes.
		os.Remove(path)
	}
	// A file that held notes before and now ends in a cut line is still
	// read for its whole notes.
	return werr
}

// Failures is what the failure notes of one data dir's log say.
type Failures struct {
	// Count is how many notes were read (at least that many records were
	// lost; more when a notes file reached its cap, AtLeast).
	Count   int
	AtLeast bool
	// First and Last are the times of the first and the latest failure.
	First, Last time.Time
	// LastError is the latest note's error.
	LastError string
	// Paths are the notes files found: remove them once the cause is
	// fixed.
	Paths []string
}

// ReadFailures reads the failure notes of the log in dir from every one
// of FailurePlaces. A notes file that exists but holds no readable note
// (a write cut short by a full disk) counts as one failure at its
// modification time.
func ReadFailures(dir string) Failures {
	var out Failures
	see := func(at time.Time, msg string) {
		out.Count++
		if out.First.IsZero() || at.Before(out.First) {
			out.First = at
		}
		if !at.Before(out.Last) {
			out.Last, out.LastError = at, msg
		}
	}
	for _, path := range FailurePlaces(dir) {
		st, err := os.Lstat(path)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		out.Paths = append(out.Paths, path)
		out.AtLeast = out.AtLeast || st.Size() >= maxFailureFile
		n := 0
		for _, line := range bytes.Split(data, []byte("\n")) {
			var note failureNote
			if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &note) != nil {
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, note.TS)
			if err != nil {
				at = st.ModTime()
			}
			see(at, note.Error)
			n++
		}
		if n == 0 {
			see(st.ModTime(), "(a note could not be written in full: "+path+")")
		}
		if out.AtLeast && st.ModTime().After(out.Last) {
			out.Last = st.ModTime()
		}
	}
	return out
}

// String says what the notes mean in one sentence.
func (f Failures) String() string {
	if f.Count == 0 {
		return ""
	}
	count := strconv.Itoa(f.Count)
	if f.AtLeast {
		count = "at least " + count
	}
	return fmt.Sprintf("%s decision-log records could not be written between %s and %s (latest: %s)",
		count, f.First.UTC().Format(time.RFC3339), f.Last.UTC().Format(time.RFC3339), f.LastError)
}
