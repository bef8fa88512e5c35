package cmdfacts

import (
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// rclone [global flags] COMMAND [flags] ARGS: the commands that delete
// what a remote holds (remote:path, :backend:path, remote,opt=x:path).
// purge removes the path and everything in it, filters or not; delete
// removes the files in the path (with --rmdirs the emptied directories
// too) as far as the filters let it. rmdir and rmdirs only remove empty
// directories, deletefile one file; -n/--dry-run and -i/--interactive
// delete nothing unasked. Local paths (no remote) are left to the file
// rules.

// rcloneValued are rclone's global and filter flags that take the next
// word as their value (the others are switches or take VALUE with "=").
var rcloneValued = []string{"--config", "--log-file", "--log-level", "--transfers", "--checkers", "--bwlimit",
	"--include", "--exclude", "--filter", "--include-from", "--exclude-from", "--filter-from", "--files-from",
	"--files-from-raw", "--min-size", "--max-size", "--min-age", "--max-age", "--max-depth", "--backup-dir",
	"--suffix", "--user-agent", "--retries", "--timeout", "--contimeout", "--stats", "--password-command",
	"--exclude-if-present", "--cache-dir", "--temp-dir", "--rc-addr", "--header", "--dump", "--tpslimit",
	"--order-by", "--compare-dest", "--copy-dest", "--metadata-set", "--multi-thread-streams", "--low-level-retries"}

// rcloneFilters are the flags that narrow what delete removes.
var rcloneFilters = []string{"--include", "--exclude", "--filter", "--include-from", "--exclude-from",
	"--filter-from", "--files-from", "--files-from-raw", "--min-size", "--max-size", "--min-age", "--max-age",
	"--max-depth", "--exclude-if-present"}

// RcloneDelete is an rclone command that deletes what a remote holds.
type RcloneDelete struct {
	// Verb is the command as written after the flags ("purge", "delete").
	Verb string
	// Targets are its remote paths.
	Targets []ir.Word
}

// ParseRcloneDelete reads rclone's arguments (after "rclone"); ok is set
// for purge of a remote path, and for delete of one with no filter (the
// rmdirs of --rmdirs then goes too), unless -n/--dry-run,
// -i/--interactive or help is given.
func ParseRcloneDelete(args []ir.Word) (RcloneDelete, bool) {
	var ops []ir.Word
	filtered := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Unknown || !strings.HasPrefix(a.Value, "-") || a.Value == "-" {
			ops = append(ops, a)
			continue
		}
		if a.Value == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		name, _, eq := strings.Cut(a.Value, "=")
		switch {
		case name == "-n" || name == "--dry-run" || name == "-i" || name == "--interactive" ||
			name == "-h" || name == "--help":
			return RcloneDelete{}, false
		case !strings.HasPrefix(name, "--") && strings.ContainsAny(name[1:], "ni"):
			return RcloneDelete{}, false // a cluster holding -n or -i (-vn)
		}
		filtered = filtered || slices.Contains(rcloneFilters, name)
		if !eq && slices.Contains(rcloneValued, name) {
			i++
		}
	}
	if len(ops) < 2 || ops[0].Unknown {
		return RcloneDelete{}, false
	}
	verb := ops[0].Value
	switch {
	case verb == "purge":
	case verb == "delete" && !filtered:
	default:
		return RcloneDelete{}, false
	}
	var targets []ir.Word
	for _, w := range ops[1:] {
		if w.Unknown || RemotePath(w.Value) {
			targets = append(targets, w)
		}
	}
	if len(targets) == 0 {
		return RcloneDelete{}, false
	}
	return RcloneDelete{Verb: verb, Targets: targets}, true
}

// RemotePath reports an rclone remote path: NAME:path with a name of
// letters, digits, _ - . space or +, and not a one-letter drive (C:\x);
// a connection string :backend:path or NAME,option=value:path.
func RemotePath(s string) bool {
	if strings.HasPrefix(s, ":") {
		return len(s) > 1
	}
	name, _, ok := strings.Cut(s, ":")
	if !ok || len(name) < 2 {
		return false
	}
	if i := strings.IndexByte(name, ','); i > 0 {
		name = name[:i]
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isNameByte(c) && !strings.ContainsRune("-. +@", rune(c)) {
			return false
		}
	}
	return true
}
