// Package testarchive writes small archives for tests that judge what an
// extraction creates (core/archivelist, the places cases of the binary):
// tar, gzipped tar and zip files holding named members of a few bytes.
package testarchive

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"io"
	"os"
)

// Tar writes a tar (gzipped when gz) at file holding the named members.
func Tar(file string, gz bool, names ...string) error {
	fh, err := os.Create(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	var w io.Writer = fh
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(fh)
		w = zw
	}
	tw := tar.NewWriter(w)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: 3, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write([]byte("{}\n")); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

// Zip writes a zip at file holding the named members.
func Zip(file string, names ...string) error {
	fh, err := os.Create(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	zw := zip.NewWriter(fh)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			return err
		}
		if _, err := w.Write([]byte("x\n")); err != nil {
			return err
		}
	}
	return zw.Close()
}
