package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/internal/atomicfile"
	"github.com/zcode-fence/zcode-fence/core/paths"
	"github.com/zcode-fence/zcode-fence/core/rules"
)

// Third-party layers are programs the host runs on every call, so the
// agent must not be able to change what runs:
//
//   - a layer whose path lies inside a writable root of the call (the
//     project, a temp dir, an extra root), or which is writable by group or
//     others (or sits in such a directory without the sticky bit), is
//     refused with a note;
//   - a pinned layer (#sha256=) is read once, hashed, and the bytes that
//     matched are written to a private content-addressed copy in the data
//     dir (layers/<sha256>/<name>, directory 0700), which is what runs: a
//     file swapped after the hash cannot run. Later calls re-hash only
//     when the file's identity (size, times, inode) changed;
//   - a pinned layer that is missing, unreadable or does not match its pin
//     is tampering, not trouble: the call asks (HK-LAYER-INTEGRITY), and so
//     does every guarded call until the file or the pin is fixed.

// LayersDirName is the directory of verified layer copies in the data dir.
const LayersDirName = "layers"

// maxLayerBytes bounds a pinned layer read into memory to be verified.
const maxLayerBytes = 256 << 20

// vetted is what vetExternal decided for one call.
type vetted struct {
	slots   []slot
	notes   []string
	reasons []core.Reason // integrity failures: the call asks
}

// vetExternal checks the external slots against call (its writable roots
// and data dir) and the file system, and points pinned ones at their
// verified copies. Built-in slots pass unchanged. Cost per external layer:
// a few stats and a small record read; a hash and a copy when the layer
// changed.
func vetExternal(slots []slot, call *core.Call, lang string) vetted {
	var v vetted
	plat := paths.Native()
	for _, s := range slots {
		if s.mode != ModeExternal {
			v.slots = append(v.slots, s)
			continue
		}
		if why := unsafePlace(plat, s.spec.Path, call.WritableRoots); why != "" {
			v.notes = append(v.notes, fmt.Sprintf("external layer %s: %s: layer refused", s.name, why))
			continue
		}
		if s.spec.Checksum == "" {
			v.slots = append(v.slots, s)
			continue
		}
		copyPath, integrity, err := verifiedCopy(s.spec.Path, s.spec.Checksum, call.DataDir)
		switch {
		case integrity != nil:
			v.notes = append(v.notes, fmt.Sprintf("external layer %s: integrity check failed: %v", s.name, integrity))
			v.reasons = append(v.reasons, integrityReason(s.name, s.spec.Path, integrity.Error(), lang))
		case err != nil:
			v.notes = append(v.notes, fmt.Sprintf("external layer %s: cannot make its verified copy: %v; layer skipped", s.name, err))
		default:
			s.spec.Path, s.spec.Verified, s.spec.Checksum = copyPath, s.spec.Checksum, ""
			v.slots = append(v.slots, s)
		}
	}
	return v
}

// integrityReason is the ask of a layer that failed its pin.
func integrityReason(name, path, why, lang string) core.Reason {
	l, _ := core.ParseLanguage(lang)
	msg := rules.Fill(rules.HostLayerIntegrity.Template(l), "layer", name, "path", path, "why", why)
	return core.Reason{Layer: "host", Rule: rules.HostLayerIntegrity.ID, Message: msg}
}

// unsafePlace says why a layer at path could be changed by the agent or
// another user, or "" when it could not: it lies inside a writable root
// (as written or after symlinks), or the file or a directory above it is
// writable by group or others (a directory with the sticky bit is fine).
// A path that does not exist is not judged here (the launch fails).
func unsafePlace(plat paths.Platform, path string, roots []string) string {
	x := plat.Clean(path)
	real := plat.RealPath(x)
	for _, r := range roots {
		root := plat.Clean(r)
		if plat.Contains(root, x) || plat.Contains(root, real) {
			return fmt.Sprintf("%s is inside the writable root %s, where the agent may rewrite it", path, r)
		}
	}
	if runtime.GOOS == "windows" {
		return ""
	}
	p := real.Norm
	fi, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("%s is writable by group or others (mode %v)", path, fi.Mode().Perm())
	}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err == nil && st.Mode().Perm()&0o022 != 0 && st.Mode()&os.ModeSticky == 0 {
			return fmt.Sprintf("its directory %s is writable by group or others (mode %v)", d, st.Mode().Perm())
		}
		if parent := filepath.Dir(d); parent == d {
			return ""
		}
	}
}

// errIntegrity marks a pinned layer that is missing, unreadable or does
// not match its pin.
var errIntegrity = errors.New("integrity")

// verifiedCopy returns the private copy of the layer at src whose bytes
// hash to pin, making it when needed. integrity reports a layer that
// failed its pin; err a data-dir problem (no copy could be made).
func verifiedCopy(src, pin, dataDir string) (copyPath string, integrity, err error) {
	pin = strings.ToLower(strings.TrimSpace(pin))
	f, oerr := os.Open(src)
	if oerr != nil {
		return "", fmt.Errorf("%w: %s is missing or unreadable: %v", errIntegrity, src, unwrapPath(oerr)), nil
	}
	defer f.Close()
	fi, serr := f.Stat()
	if serr != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%w: %s is not a regular file", errIntegrity, src), nil
	}
	if dataDir == "" {
		return "", nil, errors.New("no data dir")
	}
	dir := filepath.Join(dataDir, LayersDirName, pin)
	dst := filepath.Join(dir, filepath.Base(src))
	record := dst + ".verified"
	srcID := fileID(fi)
	if want, rerr := os.ReadFile(record); rerr == nil {
		if dfi, derr := os.Lstat(dst); derr == nil && dfi.Mode().IsRegular() &&
			bytes.Equal(bytes.TrimSpace(want), []byte(src+"\t"+srcID+"\t"+fileID(dfi))) {
			return dst, nil, nil // neither side changed since both were verified
		}
	}
	data, rerr := io.ReadAll(io.LimitReader(f, maxLayerBytes+1))
	if rerr != nil {
		return "", fmt.Errorf("%w: reading %s: %v", errIntegrity, src, rerr), nil
	}
	if len(data) > maxLayerBytes {
		return "", fmt.Errorf("%w: %s is larger than %d MiB", errIntegrity, src, maxLayerBytes>>20), nil
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != pin {
		return "", fmt.Errorf("%w: sha256 of %s is %s, pinned %s", errIntegrity, src, got[:16]+"…", pin[:16]+"…"), nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, err
	}
	for _, d := range []string{filepath.Join(dataDir, LayersDirName), dir} {
		if err := os.Chmod(d, 0o700); err != nil {
			return "", nil, err
		}
	}
	if err := atomicfile.Write(dst, data, 0o700); err != nil {
		return "", nil, err
	}
	dfi, err := os.Lstat(dst)
	if err != nil {
		return "", nil, err
	}
	if err := atomicfile.Write(record, []byte(src+"\t"+srcID+"\t"+fileID(dfi)+"\n"), 0o600); err != nil {
		return "", nil, err
	}
	return dst, nil, nil
}

// fileID is a file's identity for the verified record: size and
// modification time everywhere, plus inode, device and change time where
// the system has them (statID). A replaced or rewritten file changes it.
func fileID(fi os.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + ":" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + statID(fi)
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
