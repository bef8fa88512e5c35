package agenthost

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// HeadlessEnv forces headless detection: "1" headless, "0" interactive.
const HeadlessEnv = "ZCODE_FENCE_HEADLESS"

// maxAncestors bounds the walk up the process tree.
const maxAncestors = 8

// hostProcess describes how to recognise a host's own process among the
// hook's ancestors and its headless flags.
type hostProcess struct {
	// match reports whether a command line is the host's process.
	match func(args []string) bool
	// headlessFlags are arguments that run the host without its UI.
	headlessFlags []string
	// interactiveFlags keep the UI even with a prompt given.
	interactiveFlags []string
	// decide, when set, says from the matching process's command line
	// alone whether it runs without a UI (the flags and the terminal
	// check are then not used).
	decide func(args []string) bool
}

// headless reports whether the host process that ran this hook has no
// one to ask: HeadlessEnv when set; else, on Linux, the nearest ancestor
// process that matches h: headless when it was given one of headlessFlags
// (and none of interactiveFlags), or when its standard input is not a
// terminal (these hosts need one for their UI). When no such ancestor is
// found (another OS, or /proc unreadable), the hook's own session is
// checked: no controlling terminal means no one to ask.
func (h hostProcess) headless(env Lookup) bool {
	switch lookupEnv(env, HeadlessEnv) {
	case "1", "true":
		return true
	case "0", "false":
		return false
	}
	if runtime.GOOS != "linux" {
		return !hasTerminal()
	}
	pid := os.Getppid()
	for i := 0; i < maxAncestors && pid > 1; i++ {
		args := cmdline(pid)
		if h.match(args) {
			if h.decide != nil {
				return h.decide(args)
			}
			for _, a := range args[1:] {
				for _, f := range h.interactiveFlags {
					if a == f || strings.HasPrefix(a, f+"=") {
						return false
					}
				}
			}
			for _, a := range args[1:] {
				for _, f := range h.headlessFlags {
					if a == f || strings.HasPrefix(a, f+"=") {
						return true
					}
				}
			}
			return !isTerminal(filepath.Join("/proc", strconv.Itoa(pid), "fd", "0"))
		}
		pid = parentOf(pid)
	}
	return !hasTerminal()
}

// cmdline is a Linux process's argument list.
func cmdline(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
}

// parentOf is a Linux process's parent pid (0 when unknown).
func parentOf(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// isTerminal reports whether a /proc fd link points at a terminal.
func isTerminal(fdLink string) bool {
	t, err := os.Readlink(fdLink)
	return err == nil && (strings.HasPrefix(t, "/dev/pts/") || strings.HasPrefix(t, "/dev/tty"))
}

// hasTerminal reports whether this process has a controlling terminal.
func hasTerminal() bool {
	f, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// argsMention reports whether any of the first two arguments (the
// executable, or the script node runs) has one of the names as its base
// name or contains it as a package directory.
func argsMention(args []string, names ...string) bool {
	for i, a := range args {
		if i > 1 {
			break
		}
		base := filepath.Base(a)
		for _, n := range names {
			if base == n || strings.HasPrefix(base, n+".") || strings.Contains(a, "/"+n+"/") {
				return true
			}
		}
	}
	return false
}
