package protect

import (
	"bytes"
	"encoding/binary"
	"sync"
	"syscall"
)

// direntBufs are getdents buffers, reused across calls.
var direntBufs = sync.Pool{New: func() any { return new([8192]byte) }}

// listDir calls each for every entry of directory dir (not "." and ".."):
// its name, whether it is a symlink, and whether the directory said
// which type it is (known false: the file system did not, Lstat it). ok
// is false when dir cannot be read to its end or holds more than max
// entries; the calls made then tell nothing. Cost: an open, a getdents
// per 8 KiB of entries (about 200 names), a close; no Lstat.
func listDir(dir string, max int, each func(name string, link, known bool)) (ok bool) {
	fd, err := openDir(dir)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	buf := direntBufs.Get().(*[8192]byte)
	defer direntBufs.Put(buf)
	count := 0
	for {
		n, err := syscall.ReadDirent(fd, buf[:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n < 0 {
			return false
		}
		if n == 0 {
			return true
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name.
			if off+19 > n {
				return false
			}
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			if reclen < 19 || off+reclen > n {
				return false
			}
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if count++; count > max {
				return false
			}
			each(string(name), typ == syscall.DT_LNK, typ != syscall.DT_UNKNOWN)
		}
	}
}

func openDir(dir string) (int, error) {
	for {
		fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
