// Package atomicfile writes a file so that readers see either the old
// content or the new, never a part: the data goes to a temporary file
// beside the target, which is then renamed over it.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write writes data to path with mode through a temporary file in the same
// directory (".tmp-*", removed on any failure) and a rename. The rename is
// atomic on one file system; a crash can leave a stray ".tmp-*" file but
// never a half-written path.
func Write(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), mode)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
	}
	return werr
}
