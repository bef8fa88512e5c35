package cmdfacts

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// More remote runners, read by RemoteCommand besides ssh, mosh and
// vagrant ssh:
//
//   - cloud shells: gcloud [alpha|beta] compute ssh VM --command CMD (or
//     -- SSH_ARGS, handed to ssh after the host: its positionals are the
//     command), gcloud cloud-shell ssh --command CMD, gcloud compute tpus
//     tpu-vm ssh --command CMD; az vm|vmss run-command invoke|create
//     --scripts LINE... / --script TEXT (--command-id RunPowerShellScript:
//     PowerShell); aws ssm send-command --parameters commands=[...] or the
//     same as JSON (--document-name AWS-RunPowerShellScript: PowerShell);
//     fly ssh console -C CMD on a Fly.io machine.
//   - containers and pods: docker, podman, nerdctl exec (also container
//     exec, compose exec, docker-compose exec), kubectl and oc exec POD --
//     CMD (ContainerExec reads them), aws ecs execute-command --command
//     CMD, lxc and incus exec INSTANCE [--] CMD,
//     machinectl shell [USER@]NAME PATH ARGS for a machine other than the
//     host itself (.host: a plain wrapper, see MachineShell).
//
// The command runs on another machine or in a container, whose file
// system is not this one: the danger layer judges it as a remote command
// (rules_remote_shell.go). Exec forms run argv without a shell: the words
// are quoted back into one command line. Job launchers that run the
// command here or on cluster nodes sharing this file system (srun,
// salloc, mpirun) are wrappers, not remote runners (the shell analysis's
// wrapper table).

// remoteClients are the command names RemoteCommand reads.
var remoteClients = []string{"ssh", "autossh", "mosh", "vagrant", "gcloud", "az", "aws", "fly", "flyctl",
	"kubectl", "oc", "docker", "podman", "nerdctl", "docker-compose", "podman-compose",
	"lxc", "incus", "machinectl"}

// RemoteClients returns the command names RemoteCommand reads (a copy).
func RemoteClients() []string { return slices.Clone(remoteClients) }

// moreRemote reads the runners other than ssh, mosh and vagrant.
func moreRemote(name string, args []ir.Word) (Remote, bool) {
	switch name {
	case "gcloud":
		return gcloudSSH(args)
	case "az":
		return azRunCommand(args)
	case "aws":
		if r, ok := awsSendCommand(args); ok {
			return r, true
		}
		return awsECSExec(args)
	case "fly", "flyctl":
		return flySSH(args)
	case "lxc", "incus":
		if argv, ok := instanceExec(args); ok {
			return execRemote(argv)
		}
	case "machinectl":
		m, ok := MachineShell(args)
		if !ok || m.Host {
			return Remote{}, false // the host itself: the analysis unwraps it
		}
		if m.Cmd == len(args) {
			return Remote{Login: true, Container: true}, true
		}
		return execRemote(args[m.Cmd:])
	default:
		if argv, ok := ContainerExec(name, args); ok {
			return execRemote(argv)
		}
	}
	return Remote{}, false
}

// execRemote is a command run as argv in a container: its words quoted
// back into a command line (unknown words stay as written, $X).
func execRemote(argv []ir.Word) (Remote, bool) {
	if len(argv) == 0 {
		return Remote{}, false
	}
	parts := make([]string, len(argv))
	for i, w := range argv {
		if w.Unknown {
			parts[i] = w.Value
			continue
		}
		parts[i] = quoteWord(w.Value)
	}
	return Remote{Command: strings.Join(parts, " "), Container: true}, true
}

// quoteWord quotes s for a POSIX shell when it holds anything but plain
// word characters.
func quoteWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%^") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// dashAt returns the index of the first "--" in args, or len(args).
func dashAt(args []ir.Word) int {
	for i, a := range args {
		if !a.Unknown && a.Value == "--" {
			return i
		}
	}
	return len(args)
}

// gcloudSSHValued are gcloud's global options (gcloudValued) and those
// of its ssh commands that take the next word.
var gcloudSSHValued = append(slices.Clip(gcloudValued), "--command", "--ssh-flag", "--ssh-key-file",
	"--container", "--strict-host-key-checking", "--ssh-key-expiration", "--ssh-key-expire-after",
	"--worker", "--network")

// gcloudSSH reads gcloud [alpha|beta] compute ssh, compute tpus tpu-vm
// ssh and cloud-shell ssh: --command CMD runs CMD; the words after "--"
// go to ssh after the host, where its positionals are the command.
// --dry-run prints the ssh command line and runs nothing.
func gcloudSSH(args []ir.Word) (Remote, bool) {
	dash := dashAt(args)
	path, _, rest, ok := cloudPath(args[:dash], gcloudSSHValued)
	if !ok {
		return Remote{}, false
	}
	if len(path) > 0 && (path[0] == "alpha" || path[0] == "beta" || path[0] == "preview") {
		path = path[1:]
	}
	if !hasPathPrefix(path, []string{"compute", "ssh"}) && !hasPathPrefix(path, []string{"cloud-shell", "ssh"}) &&
		!hasPathPrefix(path, []string{"compute", "tpus", "tpu-vm", "ssh"}) {
		return Remote{}, false
	}
	if HasLong(rest, "--dry-run", "--help") {
		return Remote{}, false
	}
	if c := Value(rest, "--command"); c != nil {
		return Remote{Command: c.Value}, true
	}
	if dash < len(args) {
		return sshCommand(args[dash+1:], true)
	}
	return Remote{Login: true}, true
}

// azRunCommand reads az vm|vmss run-command invoke|create|update: the
// lines of --scripts (one or more words) or the text of --script run on
// the VM, in PowerShell when --command-id is RunPowerShellScript. A
// value @FILE is the file's text, which this reading does not have.
func azRunCommand(args []ir.Word) (Remote, bool) {
	path, _, _, ok := cloudPath(args, azValued)
	if !ok || len(path) < 3 || path[0] != "vm" && path[0] != "vmss" || path[1] != "run-command" ||
		!slices.Contains([]string{"invoke", "create", "update"}, path[2]) {
		return Remote{}, false
	}
	var r Remote
	var lines []string
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if args[i].Unknown || !strings.HasPrefix(v, "--") {
			continue
		}
		name, val, eq := strings.Cut(v, "=")
		switch name {
		case "--scripts", "--script":
			if eq {
				lines = append(lines, val)
			}
			// --scripts takes every word up to the next option.
			for i+1 < len(args) && !IsOption(args[i+1]) && !(eq && name == "--script") {
				i++
				lines = append(lines, args[i].Value)
				if name == "--script" {
					break
				}
			}
		case "--command-id":
			if !eq && i+1 < len(args) {
				i++
				val = args[i].Value
			}
			r.PowerShell = strings.Contains(strings.ToLower(val), "powershell")
		}
	}
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, "@") })
	if len(lines) == 0 {
		return Remote{}, false
	}
	r.Command = strings.Join(lines, "\n")
	return r, true
}

// awsSSMValued are the aws global options (awsGlobalValued) and ssm
// send-command's that take a value.
var awsSSMValued = append(slices.Clip(awsGlobalValued), "--instance-ids", "--targets", "--document-name",
	"--document-version", "--document-hash", "--document-hash-type", "--timeout-seconds", "--comment",
	"--parameters", "--output-s3-region", "--output-s3-bucket-name", "--output-s3-key-prefix",
	"--max-concurrency", "--max-errors", "--service-role-arn", "--notification-config",
	"--cloud-watch-output-config", "--alarm-configuration", "--cli-input-json", "--cli-input-yaml")

// awsSendCommand reads aws ssm send-command: the commands parameter of
// --parameters, in shorthand (commands=["a","b"], commands="a") or JSON
// ({"commands":["a"]}), run on the managed nodes, in PowerShell when the
// document is AWS-RunPowerShellScript. The options may be abbreviated
// (--param, argparse). file:// parameters are not read.
func awsSendCommand(args []ir.Word) (Remote, bool) {
	path, _, _, ok := cloudPath(args, awsSSMValued)
	if !ok || !hasPathPrefix(path, []string{"ssm", "send-command"}) {
		return Remote{}, false
	}
	var r Remote
	var cmds []string
	docs := []string{"--document-version", "--document-hash", "--document-hash-type"}
	for i := 0; i < len(args); i++ {
		w := args[i]
		isParams := awsOption(w, "--parameters")
		isDoc := awsOption(w, "--document-name", docs...)
		if !isParams && !isDoc {
			continue
		}
		_, val, eq := strings.Cut(w.Value, "=")
		if !eq {
			if i+1 >= len(args) {
				break
			}
			i++
			val = args[i].Value
		}
		if isDoc {
			r.PowerShell = strings.Contains(strings.ToLower(val), "powershell")
			continue
		}
		cmds = append(cmds, SSMCommands(val)...)
	}
	if len(cmds) == 0 {
		return Remote{}, false
	}
	r.Command = strings.Join(cmds, "\n")
	return r, true
}

// awsECSValued are the aws global options and ecs execute-command's that
// take a value.
var awsECSValued = append(slices.Clip(awsGlobalValued), "--cluster", "--container", "--command", "--task",
	"--cli-input-json", "--cli-input-yaml")

// awsECSExec reads aws ecs execute-command --command CMD: CMD runs in a
// container of the task (ECS Exec, through an SSM session).
func awsECSExec(args []ir.Word) (Remote, bool) {
	path, _, _, ok := cloudPath(args, awsECSValued)
	if !ok || !hasPathPrefix(path, []string{"ecs", "execute-command"}) {
		return Remote{}, false
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !awsOption(w, "--command", "--cluster", "--container", "--color", "--cli-input-json", "--cli-input-yaml",
			"--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format", "--ca-bundle") {
			continue
		}
		_, val, eq := strings.Cut(w.Value, "=")
		if !eq {
			if i+1 >= len(args) {
				break
			}
			val = args[i+1].Value
		}
		if strings.TrimSpace(val) == "" {
			break
		}
		return Remote{Command: val, Container: true}, true
	}
	return Remote{}, false
}

// flyValued are fly ssh console's options (and fly's global -t) that take
// a value.
var flyValued = []string{"-A", "--address", "-a", "--app", "-C", "--command", "-c", "--config", "--machine",
	"--container", "-o", "--org", "-g", "--process-group", "-r", "--region", "-u", "--user", "-t",
	"--access-token"}

// flySSH reads fly ssh console -C CMD (also flyctl): CMD runs on a
// machine of the app; without -C an interactive shell starts.
func flySSH(args []ir.Word) (Remote, bool) {
	path, _, rest, ok := cloudPath(args, flyValued)
	if !ok || !hasPathPrefix(path, []string{"ssh", "console"}) {
		return Remote{}, false
	}
	if c := Value(rest, "-C", "--command"); c != nil {
		return Remote{Command: c.Value}, true
	}
	return Remote{Login: true}, true
}

// SSMCommands returns the "commands" parameter of an aws ssm
// --parameters value: JSON ({"commands":["a","b"]} or a single string)
// or shorthand (commands=["a","b"], commands=[a,b], commands="a",
// commands=a, among other Key=Value pairs separated by commas). The key
// is matched without regard to case. nil when there is none.
func SSMCommands(param string) []string {
	param = strings.TrimSpace(param)
	if strings.HasPrefix(param, "{") {
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(param), &m) != nil {
			return nil
		}
		for k, raw := range m {
			if !strings.EqualFold(k, "commands") {
				continue
			}
			var list []string
			if json.Unmarshal(raw, &list) == nil {
				return list
			}
			var one string
			if json.Unmarshal(raw, &one) == nil {
				return []string{one}
			}
		}
		return nil
	}
	var out []string
	for s := param; s != ""; {
		key, rest, ok := strings.Cut(s, "=")
		if !ok {
			return out
		}
		values, tail := shorthandValue(rest)
		if strings.EqualFold(strings.TrimSpace(key), "commands") {
			out = append(out, values...)
		}
		s = strings.TrimPrefix(tail, ",")
	}
	return out
}

// shorthandValue reads one AWS shorthand value at the start of s: a list
// [a,"b",...] or a scalar (quoted, or bare up to the next comma), and
// returns its items and the text after it.
func shorthandValue(s string) (items []string, rest string) {
	if !strings.HasPrefix(s, "[") {
		return shorthandScalar(s, ",")
	}
	s = s[1:]
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return items, ""
		}
		if s[0] == ']' {
			return items, s[1:]
		}
		var it []string
		it, s = shorthandScalar(s, ",]")
		items = append(items, it...)
		s = strings.TrimPrefix(s, ",")
	}
}

// shorthandScalar reads a quoted ("..." or '...', with backslash escapes
// in "...") or bare scalar at the start of s, a bare one ending at any
// byte of stops.
func shorthandScalar(s, stops string) ([]string, string) {
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		q := s[0]
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch {
			case s[i] == '\\' && q == '"' && i+1 < len(s):
				i++
				b.WriteByte(s[i])
			case s[i] == q:
				return []string{b.String()}, s[i+1:]
			default:
				b.WriteByte(s[i])
			}
		}
		return []string{b.String()}, ""
	}
	end := strings.IndexAny(s, stops)
	if end < 0 {
		end = len(s)
	}
	return []string{s[:end]}, s[end:]
}

// lxcValued are the lxc / incus exec options (and global ones) that take
// a value.
var lxcValued = []string{"cwd", "env", "group", "mode", "user", "project"}

// instanceExec reads lxc / incus exec [REMOTE:]INSTANCE [flags] [--]
// COMMAND: the command after "--", or the words after the instance (the
// flags may come anywhere before "--").
func instanceExec(args []ir.Word) ([]ir.Word, bool) {
	dash := dashAt(args)
	var pos []int
	for i := 0; i < dash; i++ {
		v := args[i].Value
		switch {
		case IsOption(args[i]):
			if n, _, eq := strings.Cut(strings.TrimLeft(v, "-"), "="); !eq && slices.Contains(lxcValued, n) {
				i++
			}
		default:
			pos = append(pos, i)
		}
	}
	if len(pos) == 0 || args[pos[0]].Unknown || args[pos[0]].Value != "exec" || len(pos) < 2 {
		return nil, false
	}
	if dash < len(args) {
		if dash+1 < len(args) {
			return args[dash+1:], true
		}
		return nil, false
	}
	if len(pos) < 3 {
		return nil, false
	}
	return args[pos[2]:], true
}

// Machine is a machinectl shell command line.
type Machine struct {
	// Host: the machine is the host itself (.host, or no name): the
	// command runs here.
	Host bool
	// Cmd is the index in args of the program path (len(args) when none
	// is given: the user's login shell runs).
	Cmd int
}

// machinectlValued are machinectl's options that take a value.
var machinectlValued = Spec{Short: "pPsHMnoE", Long: []string{"property", "signal", "kill-whom", "host", "machine",
	"lines", "output", "setenv", "uid", "max-addresses", "format", "verify", "runner"}}

// MachineShell reads machinectl [OPTIONS] shell [[USER@]NAME [PATH
// [ARGUMENTS]]]: the words after the path are the program's, not
// machinectl's. ok is false for any other verb. Cost: linear in args.
func MachineShell(args []ir.Word) (Machine, bool) {
	verb := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Unknown {
			if verb < 0 {
				return Machine{}, false
			}
			return Machine{Cmd: i + 1}, true // a machine named by a variable
		}
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if n := strings.TrimLeft(v, "-"); !strings.Contains(n, "=") &&
				(strings.HasPrefix(v, "--") && slices.Contains(machinectlValued.Long, n) ||
					!strings.HasPrefix(v, "--") && strings.Contains(machinectlValued.Short, n[len(n)-1:])) {
				i++
			}
			continue
		}
		if verb < 0 {
			if v != "shell" {
				return Machine{}, false
			}
			verb = i
			continue
		}
		// The machine name: [USER@]NAME; an empty NAME is the host.
		name := v
		if at := strings.LastIndexByte(v, '@'); at >= 0 {
			name = v[at+1:]
		}
		return Machine{Host: name == "" || name == ".host", Cmd: i + 1}, true
	}
	if verb < 0 {
		return Machine{}, false
	}
	return Machine{Host: true, Cmd: len(args)}, true
}

// serviceDataDirs are the directories where servers and containers keep
// their state: the data stores' default data directories, the container
// and cluster runtimes' state, and the conventional data volumes (/data:
// the redis and mongo images' volume; /bitnami: Bitnami images').
// Deleting one, or anything in or below one, loses the service's data.
var serviceDataDirs = [][]string{
	{"var", "lib", "mysql"}, {"var", "lib", "mariadb"}, {"var", "lib", "postgresql"}, {"var", "lib", "pgsql"},
	{"var", "lib", "postgres"}, {"var", "lib", "mongodb"}, {"var", "lib", "mongo"}, {"var", "lib", "redis"},
	{"var", "lib", "valkey"}, {"var", "lib", "elasticsearch"}, {"var", "lib", "opensearch"},
	{"var", "lib", "cassandra"}, {"var", "lib", "clickhouse"}, {"var", "lib", "influxdb"},
	{"var", "lib", "etcd"}, {"var", "lib", "rabbitmq"}, {"var", "lib", "kafka"}, {"var", "lib", "zookeeper"},
	{"var", "lib", "neo4j"}, {"var", "lib", "couchdb"}, {"var", "lib", "minio"}, {"var", "lib", "docker"},
	{"var", "lib", "containerd"}, {"var", "lib", "kubelet"}, {"var", "lib", "containers"},
	{"var", "opt", "mssql"}, {"data"}, {"bitnami"},
}

// ServiceDataDir reports whether an absolute Unix path, given as its
// segments (/var/lib/mysql: var, lib, mysql), is a service's data
// directory or lies below one (serviceDataDirs).
func ServiceDataDir(segs []string) bool {
	for _, d := range serviceDataDirs {
		if len(segs) >= len(d) && slices.Equal(segs[:len(d)], d) {
			return true
		}
	}
	return false
}
