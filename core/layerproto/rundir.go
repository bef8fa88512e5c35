package layerproto

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zcode-fence/zcode-fence/core/integrity"
	"github.com/zcode-fence/zcode-fence/core/internal/atomicfile"
)

// The run directory holds everything a layer process leaves while it runs:
//
//	run/                      0700, owned by the user
//	  c<PID>/                 socket dirs of hook PID's per-call processes
//	  s<PID>/                 the socket of warm server PID
//	  <layer>-<key>.json      how to reach a warm server (0600)
//	  <layer>-<key>.lock      taken while one hook starts that server
//	  exe.sha256              the sha256 of the host's binary, by file identity
//
// Every name that can be left behind by a killed process carries the pid
// of its owner, so Sweep can tell what is stale: a c or s dir, or a record,
// whose process is gone is removed by the next call.

// RunDirName is the run directory's name inside the data dir.
const RunDirName = "run"

// maxSocketDir bounds the length of a directory that will hold sockets: a
// unix socket path must fit in about 104 bytes (darwin) and the socket's
// own name inside it takes about 25 ("/s4194304/plugin1234567890").
const maxSocketDir = 104 - 26

// RunDir returns the private run directory for dataDir, creating it: 0700,
// owned by this user, neither group- nor world-accessible (a directory
// that is not is refused, never repaired: someone else may be using it).
// It is dataDir/run, or, when that path is too long to hold unix sockets,
// a directory named after dataDir in the system temp dir
// (zcode-fence-UID/HASH). Cost: a Mkdir and an Lstat.
func RunDir(dataDir string) (string, error) {
	if dataDir == "" {
		return "", errors.New("run dir: no data dir")
	}
	dir := filepath.Join(dataDir, RunDirName)
	if len(dir) > maxSocketDir {
		sum := sha256.Sum256([]byte(dataDir))
		dir = filepath.Join(os.TempDir(), "zcode-fence-"+strconv.Itoa(os.Getuid()), hex.EncodeToString(sum[:6]))
		if len(dir) > maxSocketDir {
			return "", fmt.Errorf("run dir: %s is too long to hold sockets", dir)
		}
		if err := privateDir(filepath.Dir(dir), true); err != nil {
			return "", err
		}
	} else if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("run dir: %w", err)
	}
	if err := privateDir(dir, true); err != nil {
		return "", err
	}
	return dir, nil
}

// privateDir makes dir (one level) with mode 0700 when it is missing and
// checks that it is a real directory of this user that nobody else can
// use.
func privateDir(dir string, create bool) error {
	if create {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("run dir: %w", err)
		}
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("run dir: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("run dir: %s is not a directory", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("run dir: %s is accessible to others (mode %v)", dir, fi.Mode().Perm())
	}
	if uid, ok := fileOwner(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("run dir: %s belongs to uid %d", dir, uid)
	}
	return nil
}

// callDirs are this process's per-call socket dirs, by run dir.
var callDirs struct {
	sync.Mutex
	m map[string]string
}

// CallDir returns runDir/c<this pid>, creating it (0700) on first use: the
// directory in which this process's per-call layer launches make their
// socket dirs. RemoveCallDirs removes it; if this process is killed first,
// Sweep in a later call removes it.
func CallDir(runDir string) (string, error) {
	callDirs.Lock()
	defer callDirs.Unlock()
	if d, ok := callDirs.m[runDir]; ok {
		return d, nil
	}
	d := filepath.Join(runDir, "c"+strconv.Itoa(os.Getpid()))
	if err := privateDir(d, true); err != nil {
		return "", err
	}
	if callDirs.m == nil {
		callDirs.m = map[string]string{}
	}
	callDirs.m[runDir] = d
	return d, nil
}

// RemoveCallDirs removes every directory CallDir made in this process, with
// whatever is still in it, and returns the run dirs they were in. Call it
// once the layer processes are closed (and from a signal handler, after
// killing them).
func RemoveCallDirs() []string {
	callDirs.Lock()
	defer callDirs.Unlock()
	var runDirs []string
	for k, d := range callDirs.m {
		_ = os.RemoveAll(d)
		delete(callDirs.m, k)
		runDirs = append(runDirs, k)
	}
	return runDirs
}

// Sweep removes what dead processes left in runDir: c<PID> and s<PID>
// directories and warm-server records whose process is gone (or belongs
// to someone else). It returns how many entries it removed. Cost: one
// ReadDir, a kill(pid, 0) per pid-named entry, a small read per record.
func Sweep(runDir string) int {
	entries, err := os.ReadDir(runDir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		full := filepath.Join(runDir, name)
		switch {
		case e.IsDir() && (strings.HasPrefix(name, "c") || strings.HasPrefix(name, "s")):
			pid, err := strconv.Atoi(name[1:])
			if err != nil || pid <= 0 || pid == os.Getpid() || processAlive(pid) {
				continue
			}
			if os.RemoveAll(full) == nil {
				n++
			}
		case strings.HasPrefix(name, ".tmp-"):
			// A write cut short by a kill; a live writer renames its
			// file within milliseconds.
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > time.Minute && os.Remove(full) == nil {
				n++
			}
		case strings.HasSuffix(name, recordSuffix):
			rec, err := readRecord(full)
			if err == nil && processAlive(rec.Pid) {
				continue
			}
			if removeRecordIf(full, func(r *record) bool { return err != nil || r.Pid == rec.Pid }) {
				n++
			}
		}
	}
	return n
}

// fileIdentity is a file's identity: size and modification time, plus
// device, inode and change time where the system has them. A file that is
// replaced or rewritten gets a new one.
func fileIdentity(fi os.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + ":" + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + statIdentity(fi)
}

// selfHashes caches the sha256 of executables by identity for this process.
var selfHashes sync.Map // path + "\x00" + identity -> hex sha256

// hashing serialises executableHash's slow path (cache file, hashing).
var hashing sync.Mutex

// exeHashName is the cache of the host binary's sha256 in the run dir.
const exeHashName = "exe.sha256"

// executableHash returns the hex sha256 of the executable at path and its
// identity. The hash is cached in runDir by path and identity, so only the
// first call after the file changed reads it (about 14 ms for 19 MB).
func executableHash(runDir, path string) (sum, id string, err error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", "", err
	}
	id = fileIdentity(fi)
	key := path + "\x00" + id
	if v, ok := selfHashes.Load(key); ok {
		return v.(string), id, nil
	}
	// One hashing at a time: the layers of one call start their servers
	// concurrently, and the second then finds the first's result.
	hashing.Lock()
	defer hashing.Unlock()
	if v, ok := selfHashes.Load(key); ok {
		return v.(string), id, nil
	}
	cache := filepath.Join(runDir, exeHashName)
	if b, err := os.ReadFile(cache); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Split(line, "\t")
			if len(f) == 3 && f[0] == path && f[1] == id && len(f[2]) == 64 {
				selfHashes.Store(key, f[2])
				return f[2], id, nil
			}
		}
	}
	sum, _, err = integrity.HashFile(path)
	if err != nil {
		return "", "", err
	}
	selfHashes.Store(key, sum)
	_ = atomicfile.Write(cache, []byte(path+"\t"+id+"\t"+sum+"\n"), 0o600)
	return sum, id, nil
}
