// Package archivelist reads the member names of an archive on disk,
// bounded, so that a layer can tell what an extraction creates before it
// runs (tar -xf evil.tar at the project root can create .claude/ or
// .git/hooks/). Formats: tar (plain, gzip, bzip2) and zip; anything else
// (xz, zstd, 7z, rar, a damaged file, more than the caps) is reported as
// unknown, and the caller judges the extraction as one whose members it
// cannot see.
package archivelist

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"os"
)

// Limits bound one listing.
type Limits struct {
	// Bytes is the most read from a tar stream (after decompression) or
	// the largest zip file opened.
	Bytes int64
	// Entries is the most member names returned.
	Entries int
}

// DefaultLimits: 64 MiB of tar stream, 200 MiB of zip (whose directory is
// at its end and is read without the data), 20000 members.
var DefaultLimits = Limits{Bytes: 64 << 20, Entries: 20000}

// Members returns the member names of the archive at path, as stored
// (slash-separated, possibly with "./" or a leading "/"), and whether the
// listing is complete. Cost: the archive's headers for zip; for tar, the
// stream up to l.Bytes, decompressed.
func Members(path string, l Limits) ([]string, bool) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	head := make([]byte, 6)
	n, _ := io.ReadFull(fh, head)
	head = head[:n]
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return nil, false
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK")):
		if fi.Size() > 4*l.Bytes {
			return nil, false
		}
		return zipMembers(fh, fi.Size(), l)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bufio.NewReader(fh))
		if err != nil {
			return nil, false
		}
		return tarMembers(zr, l)
	case bytes.HasPrefix(head, []byte("BZh")):
		return tarMembers(bzip2.NewReader(bufio.NewReader(fh)), l)
	}
	return tarMembers(fh, l)
}

func zipMembers(r io.ReaderAt, size int64, l Limits) ([]string, bool) {
	zr, err := zip.NewReader(r, size)
	if err != nil || len(zr.File) > l.Entries {
		return nil, false
	}
	out := make([]string, 0, len(zr.File))
	for _, f := range zr.File {
		out = append(out, f.Name)
	}
	return out, true
}

// tarMembers lists a tar stream's headers, reading at most l.Bytes.
func tarMembers(r io.Reader, l Limits) ([]string, bool) {
	lr := &io.LimitedReader{R: r, N: l.Bytes}
	tr := tar.NewReader(lr)
	var out []string
	for {
		h, err := tr.Next()
		if err == io.EOF && lr.N > 0 {
			return out, len(out) > 0
		}
		if err != nil || lr.N <= 0 {
			return nil, false
		}
		if len(out) >= l.Entries {
			return nil, false
		}
		out = append(out, h.Name)
	}
}
