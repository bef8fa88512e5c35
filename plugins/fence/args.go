package fence

import "strings"

// isRemote reports whether an rsync/scp/rclone/docker-cp operand names a
// remote or container location (host:path, user@host:path, host::module,
// rsync://...) rather than a local path. A one-letter prefix (C:) is a
// Windows drive, so local.
func isRemote(v string) bool {
	if strings.Contains(v, "://") {
		return true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 {
		return false
	}
	if i == 1 && isASCIILetter(v[0]) {
		return false
	}
	return !strings.ContainsAny(v[:i], `/\`)
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }
