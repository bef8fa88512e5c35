package ondisk

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
)

// Limits bound what one call reads.
type Limits struct {
	// File is the largest file read, in bytes; a larger one is not read.
	File int64
	// Call is the most bytes read for one call, over all its files; a
	// file that would pass it is not read.
	Call int64
	// Files is the most distinct files read for one call.
	Files int
}

// DefaultLimits are the caps the hook uses. The per-file cap takes the
// largest hand-written build files and scripts of real projects with room
// to spare (the largest measured: 160 KB) and generated configure scripts
// of middle size; the biggest configure scripts (cpython's, about 900 KB)
// are over it and judged by their command line alone. Reading and judging
// a file at the cap stays far inside the hook's time budget (see
// docs/scripts-on-disk.md for the measurements).
var DefaultLimits = Limits{File: 512 << 10, Call: 2 << 20, Files: 64}

// Status is what became of one attempt to read a file.
type Status string

const (
	// Read: the file was read and its text analysed.
	Read Status = "read"
	// Missing: no such file; the command is judged by its command line.
	Missing Status = "missing"
	// NotRegular: a FIFO, a device, a socket, a directory or a file under
	// /proc, /sys or /dev; never read, and the call asks.
	NotRegular Status = "not-regular"
	// OverCap: larger than Limits.File, or past Limits.Call or
	// Limits.Files; not read, judged by its command line alone.
	OverCap Status = "over-cap"
	// Unreadable: any other error (permissions ...); judged by the command
	// line alone.
	Unreadable Status = "unreadable"
)

// Inspected reports whether a file with this status was read.
func (s Status) Inspected() bool { return s == Read }

// Record is one file a call tried to read.
type Record struct {
	Path   string `json:"path"`
	Status Status `json:"status"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// Reader reads files for one call: each path once, within the limits,
// recording every attempt. Not safe for concurrent use.
type Reader struct {
	fs    FS
	lim   Limits
	used  int64
	files int
	cache map[string]*entry
	recs  []Record
}

type entry struct {
	text string
	rec  int // index in recs
}

// NewReader returns a Reader over fsys with lim (zero fields take
// DefaultLimits').
func NewReader(fsys FS, lim Limits) *Reader {
	if lim.File <= 0 {
		lim.File = DefaultLimits.File
	}
	if lim.Call <= 0 {
		lim.Call = DefaultLimits.Call
	}
	if lim.Files <= 0 {
		lim.Files = DefaultLimits.Files
	}
	return &Reader{fs: fsys, lim: lim, cache: map[string]*entry{}}
}

// Read returns the text of the file at the absolute clean path name and
// its status: the text only when the status is Read. A second Read of the
// same path returns what the first got, without touching the disk again.
func (r *Reader) Read(name string) (string, Status) {
	if e, ok := r.cache[name]; ok {
		return e.text, r.recs[e.rec].Status
	}
	rec := Record{Path: name}
	var text string
	switch {
	case Virtual(name):
		rec.Status = NotRegular
	case r.files >= r.lim.Files:
		rec.Status = OverCap
	default:
		limit := min(r.lim.File, r.lim.Call-r.used)
		data, err := r.fs.ReadFile(name, limit)
		switch {
		case err == nil:
			r.files++
			r.used += int64(len(data))
			sum := sha256.Sum256(data)
			rec.Status, rec.Size, rec.SHA256 = Read, int64(len(data)), hex.EncodeToString(sum[:])
			text = string(data)
		case errors.Is(err, ErrOverCap):
			rec.Status = OverCap
			if info, err := r.fs.Stat(name); err == nil {
				rec.Size = info.Size
			}
		case errors.Is(err, ErrNotRegular):
			rec.Status = NotRegular
		case errors.Is(err, fs.ErrNotExist):
			rec.Status = Missing
		default:
			rec.Status = Unreadable
		}
	}
	r.recs = append(r.recs, rec)
	r.cache[name] = &entry{text: text, rec: len(r.recs) - 1}
	return text, rec.Status
}

// Stat describes name (nil error only when it exists).
func (r *Reader) Stat(name string) (Info, error) {
	if Virtual(name) {
		return Info{}, ErrNotRegular
	}
	return r.fs.Stat(name)
}

// Readlink returns the target of the symbolic link name as stored; an
// error when name is not a link (or is under /proc, /sys, /dev). Not
// recorded: nothing is read from the file.
func (r *Reader) Readlink(name string) (string, error) {
	if Virtual(name) {
		return "", ErrNotRegular
	}
	return r.fs.Readlink(name)
}

// Records lists every file the Reader was asked for, in the order first
// asked.
func (r *Reader) Records() []Record { return r.recs }

// Bytes is how many bytes were read.
func (r *Reader) Bytes() int64 { return r.used }

// SetStatus changes the recorded status of a file already read, when its
// reader decided not to judge it after all (an interpreter file longer
// than the code scanner reads is OverCap).
func (r *Reader) SetStatus(name string, s Status) {
	if e, ok := r.cache[name]; ok {
		r.recs[e.rec].Status = s
		e.text = ""
	}
}
