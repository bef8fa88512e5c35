// Package ondisktest builds the in-memory file systems the tests of files
// read from disk use (core/shell/ondisk.MapFS) from a JSON fixture.
package ondisktest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"strconv"

	"github.com/zcode-fence/zcode-fence/core/shell/ondisk"
)

// Spec maps paths (absolute, or relative to a base directory) to files: a
// JSON string is a regular file's text (mode 0644); an object
// {"data": TEXT, "mode": "0755"} sets the mode, "mode": "fifo", "device"
// or "dir" makes a FIFO, a device or a directory, and "mode": "symlink" a
// symbolic link to the path in "data" (as written: relative to the link's
// directory unless absolute).
type Spec map[string]File

// File is one entry of a Spec.
type File struct {
	Data string
	Mode fs.FileMode
}

// UnmarshalJSON reads a string or an object.
func (f *File) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = File{Data: s}
		return nil
	}
	var o struct {
		Data string `json:"data"`
		Mode string `json:"mode"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return fmt.Errorf("ondisktest: a file is a string or {data, mode}: %w", err)
	}
	f.Data = o.Data
	switch o.Mode {
	case "", "0644":
	case "fifo":
		f.Mode = fs.ModeNamedPipe | 0o644
	case "device":
		f.Mode = fs.ModeDevice | 0o644
	case "dir":
		f.Mode = fs.ModeDir | 0o755
	case "symlink":
		f.Mode = fs.ModeSymlink | 0o777
	default:
		m, err := strconv.ParseUint(o.Mode, 8, 32)
		if err != nil {
			return fmt.Errorf("ondisktest: mode %q", o.Mode)
		}
		f.Mode = fs.FileMode(m)
	}
	return nil
}

// FS builds the file system, relative paths below base.
func (s Spec) FS(base string) ondisk.MapFS {
	m := ondisk.MapFS{}
	for p, f := range s {
		if !path.IsAbs(p) {
			p = path.Join(base, p)
		}
		m[path.Clean(p)] = &ondisk.MapFile{Data: f.Data, Mode: f.Mode}
	}
	return m
}

// Reader is a reader over s's files below base with the default limits;
// nil when s is empty (nothing is read, as without a file system).
func (s Spec) Reader(base string) *ondisk.Reader {
	if len(s) == 0 {
		return nil
	}
	return ondisk.NewReader(s.FS(base), ondisk.DefaultLimits)
}
