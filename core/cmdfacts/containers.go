package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Container runs: docker, podman and nerdctl run (and container run) a
// command in a container whose file system is its own, except for the
// host directories bind-mounted into it. ParseContainerRun reads the
// command line; the shell analysis reports the container's command with
// mounted paths mapped back to the host and the other paths made harmless.

// ContainerMount is one bind mount: a host directory seen at Target.
type ContainerMount struct {
	Host, Target ir.Word
	ReadOnly     bool
}

// ContainerRun is a container run command line.
type ContainerRun struct {
	// Cmd is the command the container runs: --entrypoint's value and the
	// words after the image; empty when the image's own command runs.
	Cmd []ir.Word
	// Mounts are the bind mounts (-v/--volume HOST:TARGET[:OPTS], --mount
	// type=bind,source=,target=), read-only ones included.
	Mounts []ContainerMount
	// Workdir is -w/--workdir, nil when not given.
	Workdir *ir.Word
	// HostDevices: --privileged or --device gives the container the host's
	// device nodes.
	HostDevices bool
}

// containerValued are the options of docker/podman/nerdctl run that take a
// value (long names; the short ones are in containerShort).
var containerValued = map[string]bool{
	"attach": true, "add-host": true, "annotation": true, "blkio-weight": true, "blkio-weight-device": true,
	"cap-add": true, "cap-drop": true, "cgroup-parent": true, "cgroupns": true, "cidfile": true,
	"cpu-period": true, "cpu-quota": true, "cpu-rt-period": true, "cpu-rt-runtime": true, "cpu-shares": true,
	"cpus": true, "cpuset-cpus": true, "cpuset-mems": true, "device": true, "device-cgroup-rule": true,
	"device-read-bps": true, "device-read-iops": true, "device-write-bps": true, "device-write-iops": true,
	"dns": true, "dns-option": true, "dns-search": true, "domainname": true, "entrypoint": true, "env": true,
	"env-file": true, "expose": true, "gpus": true, "group-add": true, "health-cmd": true,
	"health-interval": true, "health-retries": true, "health-start-period": true, "health-timeout": true,
	"hostname": true, "ip": true, "ip6": true, "ipc": true, "isolation": true, "kernel-memory": true,
	"label": true, "label-file": true, "link": true, "link-local-ip": true, "log-driver": true,
	"log-opt": true, "mac-address": true, "memory": true, "memory-reservation": true, "memory-swap": true,
	"memory-swappiness": true, "mount": true, "name": true, "network": true, "net": true,
	"network-alias": true, "oom-score-adj": true, "pid": true, "pids-limit": true, "platform": true,
	"publish": true, "pull": true, "restart": true, "runtime": true, "security-opt": true, "shm-size": true,
	"stop-signal": true, "stop-timeout": true, "storage-opt": true, "sysctl": true, "tmpfs": true,
	"ulimit": true, "user": true, "userns": true, "uts": true, "volume": true, "volume-driver": true,
	"volumes-from": true, "workdir": true, "arch": true, "os": true, "variant": true, "pod": true,
	"secret": true, "init-path": true, "hooks-dir": true, "log-level": true, "namespace": true,
}

// containerShort are the short options that take a value.
const containerShort = "acehlmpuvwe"

// ParseContainerRun reads the arguments of `docker run` (after "run"; the
// same for podman and nerdctl). ok is false when no image is given.
// Cost: linear in the words.
func ParseContainerRun(args []ir.Word) (ContainerRun, bool) {
	var r ContainerRun
	var entrypoint *ir.Word
	set := func(name string, val *ir.Word) {
		switch name {
		case "v", "volume":
			if val != nil {
				if m, ok := parseVolume(*val); ok {
					r.Mounts = append(r.Mounts, m)
				}
			}
		case "mount":
			if val != nil {
				if m, ok := parseMount(*val); ok {
					r.Mounts = append(r.Mounts, m)
				}
			}
		case "w", "workdir":
			r.Workdir = val
		case "entrypoint":
			entrypoint = val
		case "privileged", "device":
			r.HostDevices = true
		}
	}
	i := walkOptions(args, func(n string) bool { return containerValued[n] || len(n) == 1 && strings.Contains(containerShort, n) },
		func(string) bool { return false }, set)
	if i >= len(args) {
		return r, false
	}
	if entrypoint != nil {
		r.Cmd = append(r.Cmd, *entrypoint)
	}
	r.Cmd = append(r.Cmd, args[i+1:]...)
	return r, true
}

// parseVolume reads HOST:TARGET[:OPTS]; a named volume (no path) is not
// a bind mount. A Windows drive (C:\x:/app) keeps its colon.
func parseVolume(w ir.Word) (ContainerMount, bool) {
	s := w.Value
	drive := ""
	if len(s) > 2 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') && s[1] == ':' && (s[2] == '\\' || s[2] == '/') {
		drive, s = s[:2], s[2:]
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 {
		return ContainerMount{}, false
	}
	host := drive + parts[0]
	if drive == "" && !strings.HasPrefix(host, "/") && !strings.HasPrefix(host, "~") && !strings.HasPrefix(host, ".") &&
		!(w.Unknown && strings.HasPrefix(w.Raw, "$")) {
		return ContainerMount{}, false // a named volume
	}
	m := ContainerMount{Host: Piece(w, 0, len(drive)+len(parts[0]), host), Target: Literal(parts[1])}
	if len(parts) > 2 {
		for _, o := range strings.Split(parts[2], ",") {
			m.ReadOnly = m.ReadOnly || o == "ro" || o == "readonly"
		}
	}
	return m, true
}

// parseMount reads --mount type=bind,source=S,target=T[,readonly].
func parseMount(w ir.Word) (ContainerMount, bool) {
	var m ContainerMount
	bind := false
	for _, f := range strings.Split(w.Value, ",") {
		k, val, _ := strings.Cut(f, "=")
		switch strings.ToLower(k) {
		case "type":
			bind = val == "bind"
		case "source", "src":
			m.Host = Literal(val)
		case "target", "destination", "dst":
			m.Target = Literal(val)
		case "readonly", "ro":
			m.ReadOnly = val == "" || val == "true" || val == "1"
		}
	}
	return m, bind && m.Host.Value != "" && m.Target.Value != ""
}

// containerGlobals are the global options of docker, podman and nerdctl
// that take a value (before the subcommand).
var containerGlobals = map[string]bool{"--context": true, "-c": true, "--host": true, "-H": true,
	"--config": true, "--log-level": true, "-l": true, "--tlscacert": true, "--tlscert": true, "--tlskey": true,
	"--connection": true, "--url": true, "--identity": true, "--root": true, "--runroot": true,
	"--storage-driver": true, "--namespace": true, "-n": true, "--address": true, "-a": true}

// ContainerSub returns the index in args (after the program name) of the
// word after "run" when args are a run of a container (run, container
// run, after global options), or -1.
func ContainerSub(args []ir.Word) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Unknown:
			return -1
		case a.Value == "run":
			return i + 1
		case a.Value == "container":
		case strings.HasPrefix(a.Value, "-"):
			if containerGlobals[a.Value] {
				i++
			}
		default:
			return -1
		}
	}
	return -1
}
