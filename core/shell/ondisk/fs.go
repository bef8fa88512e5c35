package ondisk

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// Info is what a Stat reports about a path.
type Info struct {
	Size int64
	Mode fs.FileMode
}

// FS is the file system files are read from. Paths are absolute and
// clean, with forward slashes.
type FS interface {
	// ReadFile reads the regular file name, at most limit bytes: a file
	// larger than limit gives ErrOverCap (and the data read so far is not
	// returned), a file that is not regular gives ErrNotRegular without
	// reading it (a FIFO is not even opened for reading in a way that could
	// block), a missing one an error for which errors.Is(err,
	// fs.ErrNotExist) holds.
	ReadFile(name string, limit int64) ([]byte, error)
	// Stat describes name, following symbolic links.
	Stat(name string) (Info, error)
	// Readlink returns the target of the symbolic link name, as stored
	// (relative targets are relative to the link's directory); an error
	// when name is not a symbolic link or does not exist.
	Readlink(name string) (string, error)
}

var (
	// ErrNotRegular: the path is not a regular file (a FIFO, a device, a
	// socket, a directory, a file under /proc, /sys or /dev).
	ErrNotRegular = errors.New("not a regular file")
	// ErrOverCap: the file is larger than the cap.
	ErrOverCap = errors.New("larger than the cap")
)

// virtualDirs are trees whose entries are never read: their "regular"
// files (/proc/self/environ, /sys/...) are kernel views, not scripts, and
// /proc/self/fd/N names whatever descriptor N is.
var virtualDirs = []string{"/proc", "/sys", "/dev"}

// Virtual reports whether name lies under /proc, /sys or /dev.
func Virtual(name string) bool {
	for _, d := range virtualDirs {
		if name == d || strings.HasPrefix(name, d+"/") {
			return true
		}
	}
	return false
}

// OS is the machine's file system.
func OS() FS { return osFS{} }

type osFS struct{}

func (osFS) Stat(name string) (Info, error) {
	if Virtual(name) {
		return Info{}, ErrNotRegular
	}
	fi, err := os.Stat(name)
	if err != nil {
		return Info{}, err
	}
	return Info{Size: fi.Size(), Mode: fi.Mode()}, nil
}

func (osFS) Readlink(name string) (string, error) {
	if Virtual(name) {
		return "", ErrNotRegular
	}
	return os.Readlink(name)
}

func (osFS) ReadFile(name string, limit int64) ([]byte, error) {
	if Virtual(name) {
		return nil, ErrNotRegular
	}
	// Stat first: a FIFO opened for reading blocks until a writer comes.
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	if fi.Size() > limit {
		return nil, ErrOverCap
	}
	// Non-blocking, and checked again on the descriptor: the path may have
	// been replaced by a FIFO since the stat.
	f, err := os.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, ErrOverCap
	}
	return data, nil
}

// MapFS is an in-memory file system for tests: keys are absolute paths,
// values their files (fstest-style: Data, Mode). A key ending in "/" is a
// directory; the parents of every file exist as directories. A file whose
// Mode has fs.ModeSymlink is a symbolic link to Data (relative to the
// link's directory); Stat and ReadFile follow links in every component.
type MapFS map[string]*MapFile

// MapFile is one file of a MapFS.
type MapFile struct {
	Data string
	Mode fs.FileMode // 0 means a regular file, mode 0644
}

// maxLinks bounds the symbolic links one MapFS lookup follows (the
// kernel's ELOOP bound).
const maxLinks = 40

func (m MapFS) lookup(name string) (*MapFile, bool) {
	name, ok := m.resolve(path.Clean(name))
	if !ok {
		return nil, false
	}
	return m.entry(name)
}

// entry is the file at name, no link followed.
func (m MapFS) entry(name string) (*MapFile, bool) {
	if f, ok := m[name]; ok {
		return f, true
	}
	if _, ok := m[name+"/"]; ok {
		return &MapFile{Mode: fs.ModeDir | 0o755}, true
	}
	for k := range m {
		if strings.HasPrefix(k, name+"/") {
			return &MapFile{Mode: fs.ModeDir | 0o755}, true
		}
	}
	return nil, false
}

// resolve follows the symbolic links of every component of the clean
// absolute name; ok is false past maxLinks.
func (m MapFS) resolve(name string) (string, bool) {
	hops := 0
	done := "/"
	rest := strings.TrimPrefix(name, "/")
	for rest != "" {
		comp, tail, _ := strings.Cut(rest, "/")
		cur := path.Join(done, comp)
		if f, ok := m[cur]; ok && f.Mode&fs.ModeSymlink != 0 {
			if hops++; hops > maxLinks {
				return "", false
			}
			to := f.Data
			if !path.IsAbs(to) {
				to = path.Join(done, to)
			}
			done, rest = "/", strings.TrimPrefix(path.Join(to, tail), "/")
			continue
		}
		done, rest = cur, tail
	}
	return done, true
}

// Readlink implements FS.
func (m MapFS) Readlink(name string) (string, error) {
	name = path.Clean(name)
	dir, ok := m.resolve(path.Dir(name))
	if !ok {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrNotExist}
	}
	f, ok := m.entry(path.Join(dir, path.Base(name)))
	if !ok || f.Mode&fs.ModeSymlink == 0 {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return f.Data, nil
}

// Stat implements FS.
func (m MapFS) Stat(name string) (Info, error) {
	f, ok := m.lookup(name)
	if !ok {
		return Info{}, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	mode := f.Mode
	if mode == 0 {
		mode = 0o644
	}
	return Info{Size: int64(len(f.Data)), Mode: mode}, nil
}

// ReadFile implements FS.
func (m MapFS) ReadFile(name string, limit int64) ([]byte, error) {
	if Virtual(name) {
		return nil, ErrNotRegular
	}
	f, ok := m.lookup(name)
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if f.Mode&fs.ModeType != 0 {
		return nil, ErrNotRegular
	}
	if int64(len(f.Data)) > limit {
		return nil, ErrOverCap
	}
	return []byte(f.Data), nil
}
