package layerproto

import (
	"os"
	"strconv"
	"strings"
)

// processStopped reports whether pid is stopped (SIGSTOP, SIGTSTP, a
// debugger's stop): it answers no call until it is continued. It reads the
// state field of /proc/PID/stat (the one after the parenthesised command
// name): T stopped, t stopped by tracing. Cost: one small read.
func processStopped(pid int) bool {
	if pid <= 0 {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return false
	}
	return s[i+2] == 'T' || s[i+2] == 't'
}
