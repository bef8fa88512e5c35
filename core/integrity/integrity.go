// Package integrity checks that the running zcode-fence binary is the one
// its release published: the SHA-256 of the executable against the line for
// its file name in the SHA256SUMS file beside it (libexec/ of an installed
// plugin, where the release workflow and tools/bundle put both).
//
// The check hashes the binary (about 17 MB, a few tens of milliseconds) once
// per installed version, not on every call: the result is recorded in the
// data dir (integrity-<version>.json) together with the size and
// modification time of the binary and of SHA256SUMS, and later calls only
// stat the two files and read that record (well under a millisecond). A
// reinstall or update changes those stats, so the next call hashes again.
//
// A binary with no SHA256SUMS beside it (go run, go build, go install) is a
// development build and is not checked. A binary that does not match, that
// SHA256SUMS does not list, or that cannot be hashed asks on every guarded
// call, with the fix in the reason: a guard whose bytes are not the
// published ones (a truncated copy, a line-ending conversion, an edit) must
// not answer silently.
//
// The SHA256SUMS format is defined here once (ParseSums, FormatSums) and
// used by tools/bundle, which writes it.
package integrity

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// SumsFile is the checksum manifest next to the binaries: one
// "<sha256 hex>  <file name>" line per file, sorted by name, the format
// `sha256sum -c` reads and GoReleaser's checksum step writes.
const SumsFile = "SHA256SUMS"

// maxSums bounds the SHA256SUMS read (six lines of about 100 bytes; a
// release will never come near this), maxRecord the record read.
const (
	maxSums   = 64 << 10
	maxRecord = 64 << 10
)

// Sum is one line of SHA256SUMS.
type Sum struct {
	File   string
	SHA256 string // 64 lowercase hex digits
}

// ParseSums reads SHA256SUMS. Every non-empty line must be
// "<64 hex digits><space><space or *><file name>" (the text and binary
// forms sha256sum writes), with a bare file name (no directory) listed once.
func ParseSums(data []byte) ([]Sum, error) {
	var out []Sum
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		if len(line) < 67 || line[64] != ' ' || (line[65] != ' ' && line[65] != '*') {
			return nil, fmt.Errorf("integrity: %s line %d is not \"<sha256>  <file>\"", SumsFile, i+1)
		}
		sum, name := strings.ToLower(line[:64]), line[66:]
		if _, err := hex.DecodeString(sum); err != nil {
			return nil, fmt.Errorf("integrity: %s line %d: %q is not a hex SHA-256", SumsFile, i+1, line[:64])
		}
		if name != filepath.Base(name) || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
			return nil, fmt.Errorf("integrity: %s line %d: %q is not a bare file name", SumsFile, i+1, name)
		}
		if seen[name] {
			return nil, fmt.Errorf("integrity: %s lists %s twice", SumsFile, name)
		}
		seen[name] = true
		out = append(out, Sum{File: name, SHA256: sum})
	}
	return out, nil
}

// FormatSums writes sums in SHA256SUMS form, sorted by file name.
func FormatSums(sums []Sum) []byte {
	sorted := slices.Clone(sums)
	slices.SortFunc(sorted, func(a, b Sum) int { return strings.Compare(a.File, b.File) })
	var b bytes.Buffer
	for _, s := range sorted {
		fmt.Fprintf(&b, "%s  %s\n", s.SHA256, s.File)
	}
	return b.Bytes()
}

// HashFile returns the SHA-256 (lowercase hex) and size of the file at path.
func HashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// Status is the outcome of a check.
type Status string

const (
	// Verified: the binary's SHA-256 is the one SHA256SUMS lists for it.
	Verified Status = "verified"
	// Mismatch: SHA256SUMS lists another SHA-256 for the binary.
	Mismatch Status = "mismatch"
	// Unlisted: SHA256SUMS does not name the binary.
	Unlisted Status = "unlisted"
	// Unreadable: SHA256SUMS or the binary could not be read or parsed.
	Unreadable Status = "unreadable"
	// Unchecked: no SHA256SUMS beside the binary (a development build).
	Unchecked Status = "unchecked"
)

// Result is what Check found.
type Result struct {
	Status Status
	// Binary is the executable's file name (zcode-fence-linux-amd64).
	Binary string
	// Want is the SHA-256 SHA256SUMS lists, Got the binary's.
	Want, Got string
	// Detail says what could not be read (Unreadable).
	Detail string
	// Hashed is true when this call hashed the binary; false when the
	// answer came from the record of an earlier call.
	Hashed bool
	// Elapsed is the time the check took.
	Elapsed time.Duration
	// RecordErr is why the result could not be recorded (the next call
	// hashes again); nil when it was recorded or nothing needed recording.
	RecordErr error
}

// Asks reports whether the result must turn the call into an ask.
func (r Result) Asks() bool {
	return r.Status == Mismatch || r.Status == Unlisted || r.Status == Unreadable
}

// Note is a one-line summary for the decision log.
func (r Result) Note() string {
	how := "from the record"
	if r.Hashed {
		how = fmt.Sprintf("hashed in %.1f ms", float64(r.Elapsed.Microseconds())/1000)
	}
	s := fmt.Sprintf("integrity: %s %s against %s (%s)", r.Binary, r.Status, SumsFile, how)
	switch r.Status {
	case Mismatch:
		s += fmt.Sprintf(": listed %s, is %s", r.Want, r.Got)
	case Unreadable:
		s += ": " + r.Detail
	}
	if r.RecordErr != nil {
		s += "; not recorded: " + r.RecordErr.Error()
	}
	return s
}

// Reason is the ask reason for a result that Asks, in lang ("zh" or "en"):
// what is wrong and how to fix it.
func (r Result) Reason(lang string) string {
	var what string
	switch r.Status {
	case Mismatch:
		what = fmt.Sprintf("does not match the SHA-256 that %s lists for it", SumsFile)
		if lang != "en" {
			what = fmt.Sprintf("与 %s 中登记的 SHA-256 不符", SumsFile)
		}
	case Unlisted:
		what = fmt.Sprintf("is not listed in %s", SumsFile)
		if lang != "en" {
			what = fmt.Sprintf("未登记在 %s 中", SumsFile)
		}
	default:
		what = fmt.Sprintf("could not be checked against %s (%s)", SumsFile, r.Detail)
		if lang != "en" {
			what = fmt.Sprintf("无法与 %s 核对（%s）", SumsFile, r.Detail)
		}
	}
	if lang == "en" {
		return fmt.Sprintf("[zcode-fence: integrity] The zcode-fence binary %s %s, so no trusted guard judged this call. "+
			"Reinstall the plugin (Claude Code: claude plugin uninstall zcode-fence@zcode-fence, then claude plugin install zcode-fence@zcode-fence; "+
			"ZCode: reinstall it from the marketplace) or rebuild a checkout with go run ./tools/bundle.", r.Binary, what)
	}
	return fmt.Sprintf("[zcode-fence: 完整性] zcode-fence 程序 %s %s，本次调用未经可信的守卫判定。"+
		"请重新安装插件（Claude Code：claude plugin uninstall zcode-fence@zcode-fence，再 claude plugin install zcode-fence@zcode-fence；"+
		"ZCode：在插件市场卸载后重新安装），或在源码目录运行 go run ./tools/bundle 重新构建。", r.Binary, what)
}

// record is the data-dir file that spares later calls the hash.
type record struct {
	Version     string `json:"version"`
	Binary      string `json:"binary"` // absolute path
	Size        int64  `json:"size"`
	ModNs       int64  `json:"mtime_ns"`
	SumsSize    int64  `json:"sums_size"`
	SumsModNs   int64  `json:"sums_mtime_ns"`
	Status      Status `json:"status"`
	Want        string `json:"want,omitempty"`
	Got         string `json:"got,omitempty"`
	Detail      string `json:"detail,omitempty"`
	CheckedTime string `json:"checked"`
}

// RecordPath is where Check records the result for version in dataDir.
func RecordPath(dataDir, version string) string {
	safe := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, version)
	return filepath.Join(dataDir, "integrity-"+safe+".json")
}

// Check verifies the executable exe (an absolute path) against SHA256SUMS
// in its directory. version names the installed release (core.Version);
// the result is recorded in dataDir ("" records nothing) and reused while
// neither file changes. Cost: two stats and one small read when recorded;
// otherwise one read of the binary.
func Check(exe, dataDir, version string) Result {
	start := time.Now()
	res := Result{Binary: filepath.Base(exe)}
	done := func(r Result) Result { r.Elapsed = time.Since(start); return r }

	sumsPath := filepath.Join(filepath.Dir(exe), SumsFile)
	sumsSt, err := os.Stat(sumsPath)
	if errors.Is(err, os.ErrNotExist) {
		res.Status = Unchecked
		return done(res)
	}
	exeSt, exeErr := os.Stat(exe)
	if err != nil || exeErr != nil || !sumsSt.Mode().IsRegular() || !exeSt.Mode().IsRegular() {
		// Not recorded: nothing stable to key it on.
		res.Status, res.Detail = Unreadable, statDetail(sumsPath, sumsSt, err, exe, exeSt, exeErr)
		return done(res)
	}
	key := record{
		Version: version, Binary: exe,
		Size: exeSt.Size(), ModNs: exeSt.ModTime().UnixNano(),
		SumsSize: sumsSt.Size(), SumsModNs: sumsSt.ModTime().UnixNano(),
	}
	recPath := ""
	if dataDir != "" {
		recPath = RecordPath(dataDir, version)
		if rec, ok := readRecord(recPath); ok && sameInstall(rec, key) {
			res.Status, res.Want, res.Got, res.Detail = rec.Status, rec.Want, rec.Got, rec.Detail
			return done(res)
		}
	}

	res.Hashed = true
	res.Status, res.Want, res.Got, res.Detail = compare(exe, sumsPath, res.Binary)
	// Unreadable is not recorded: a passing read error must not ask forever.
	if recPath != "" && res.Status != Unreadable {
		key.Status, key.Want, key.Got, key.Detail = res.Status, res.Want, res.Got, res.Detail
		key.CheckedTime = time.Now().UTC().Format(time.RFC3339)
		res.RecordErr = writeRecord(recPath, key)
	}
	return done(res)
}

func statDetail(sumsPath string, sumsSt os.FileInfo, sumsErr error, exe string, exeSt os.FileInfo, exeErr error) string {
	switch {
	case sumsErr != nil:
		return sumsErr.Error()
	case exeErr != nil:
		return exeErr.Error()
	case !sumsSt.Mode().IsRegular():
		return sumsPath + " is not a regular file"
	default:
		return exe + " is not a regular file"
	}
}

// compare hashes the binary and looks it up in SHA256SUMS.
func compare(exe, sumsPath, name string) (status Status, want, got, detail string) {
	f, err := os.Open(sumsPath)
	if err != nil {
		return Unreadable, "", "", err.Error()
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSums+1))
	f.Close()
	if err != nil {
		return Unreadable, "", "", err.Error()
	}
	if len(data) > maxSums {
		return Unreadable, "", "", fmt.Sprintf("%s is larger than %d bytes", SumsFile, maxSums)
	}
	sums, err := ParseSums(data)
	if err != nil {
		return Unreadable, "", "", err.Error()
	}
	i := slices.IndexFunc(sums, func(s Sum) bool { return s.File == name })
	if i < 0 {
		return Unlisted, "", "", ""
	}
	want = sums[i].SHA256
	got, _, err = HashFile(exe)
	if err != nil {
		return Unreadable, want, "", err.Error()
	}
	if got != want {
		return Mismatch, want, got, ""
	}
	return Verified, want, got, ""
}

func sameInstall(rec, key record) bool {
	return rec.Version == key.Version && rec.Binary == key.Binary &&
		rec.Size == key.Size && rec.ModNs == key.ModNs &&
		rec.SumsSize == key.SumsSize && rec.SumsModNs == key.SumsModNs &&
		(rec.Status == Verified || rec.Status == Mismatch || rec.Status == Unlisted)
}

// readRecord loads a record; anything odd (missing, a device or pipe, too
// large, not JSON) is no record.
func readRecord(path string) (record, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxRecord {
		return record{}, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return record{}, false
	}
	var rec record
	if json.Unmarshal(data, &rec) != nil {
		return record{}, false
	}
	return rec, true
}

// writeRecord replaces the record atomically (a temporary file renamed into
// place), so concurrent first calls never read half a record.
func writeRecord(path string, rec record) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	tmp, err := os.CreateTemp(dir, ".integrity-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
