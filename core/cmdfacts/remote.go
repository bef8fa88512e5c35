package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/ir"
)

// Remote shells: ssh (and autossh, which passes ssh's options through)
// runs the words after the host as one command line, joined with spaces
// and read by the remote user's shell, or the -o RemoteCommand= option's
// value; with neither it starts the user's login shell, which reads its
// commands from stdin when stdin is no terminal (ssh host <<EOF). mosh
// runs the words after "--", vagrant ssh the value of -c / --command in
// the VM. The command runs on another machine, in the
// remote user's home: a catastrophic command there (rm -rf /, mkfs on its
// disk) is as catastrophic as here, while its paths are not this
// machine's.

// sshValued are ssh's short options that take a value (OpenSSH 9: -B
// bind_interface, -b bind_address, -c cipher_spec, -D port, -E log_file,
// -e escape_char, -F configfile, -I pkcs11, -i identity_file, -J
// destination, -L address, -l login_name, -m mac_spec, -O ctl_cmd, -o
// option, -P tag, -p port, -Q query_option, -R address, -S ctl_path, -W
// host:port, -w local_tun); autossh adds -M port.
const sshValued = "BbcDEeFIiJLlmOoPpQRSWwM"

// sshNoCommand are ssh's flags after which nothing runs on the other
// side as a shell command: -N (no command), -s (a subsystem name), -Q (a
// query), -V (version), -G (print the configuration), -O (a control
// command), -W (stdio forwarding).
const sshNoCommand = "NsQVGOW"

// Remote is what a remote shell client runs on the other machine.
type Remote struct {
	// Command is the command line the remote shell runs ("" for none).
	Command string
	// Login is set when no command is given: the remote login shell runs,
	// reading its commands from the client's stdin when that is no
	// terminal.
	Login bool
	// Container: the command runs in a container, a pod or a local
	// machine's guest (docker exec, kubectl exec, lxc exec, machinectl
	// shell NAME), not on a remote host.
	Container bool
	// PowerShell: Command is PowerShell text (az run-command
	// RunPowerShellScript, aws ssm AWS-RunPowerShellScript), not a POSIX
	// shell's.
	PowerShell bool
}

// RemoteCommand reads a remote shell client's command line (ssh host CMD
// ARGS..., ssh -t host 'CMD', ssh -o RemoteCommand=CMD host, ssh host
// with no command, mosh host -- CMD; the cloud shells, container execs
// and machinectl shell of remote_runners.go, RemoteClients lists them all);
// ok is false when it runs no shell command there (ssh -N, -s, -G ...,
// or not a client). name is the
// client's command name (after wrappers); args its arguments (argv[1:]).
// Each word contributes its Value, whose unknown parts are their source
// text ($X): the remote analysis then sees them as unknown too. Cost:
// linear in the words.
func RemoteCommand(name string, args []ir.Word) (r Remote, ok bool) {
	switch name {
	case "ssh", "autossh":
		return sshCommand(args, false)
	case "mosh":
		for i, a := range args {
			if !a.Unknown && a.Value == "--" {
				return joinRemote(args[i+1:])
			}
		}
		return Remote{Login: true}, true
	case "vagrant":
		if len(args) > 0 && !args[0].Unknown && args[0].Value == "ssh" {
			for i, a := range args[1:] {
				switch {
				case a.Unknown:
				case (a.Value == "-c" || a.Value == "--command") && i+2 < len(args):
					return Remote{Command: args[i+2].Value}, true
				case strings.HasPrefix(a.Value, "--command="):
					return Remote{Command: strings.TrimPrefix(a.Value, "--command=")}, true
				}
			}
		}
	default:
		return moreRemote(name, args)
	}
	return Remote{}, false
}

// sshCommand reads ssh's arguments: options, the destination, options
// again (OpenSSH reads options after the destination too), then the
// command words. host is set when the destination is already given
// (gcloud compute ssh VM -- SSH_ARGS puts SSH_ARGS after it).
func sshCommand(args []ir.Word, host bool) (Remote, bool) {
	var option string // -o RemoteCommand=
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case a.Unknown && !strings.HasPrefix(a.KnownPrefix, "-"):
			if !host {
				host = true
				continue
			}
			return joinRemote(args[i:])
		case v == "--":
			if !host && i+1 < len(args) {
				i++
				host = true
			}
			if i+1 < len(args) {
				return joinRemote(args[i+1:])
			}
			i = len(args)
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				if strings.IndexByte(sshNoCommand, v[k]) >= 0 {
					return Remote{}, false
				}
				if strings.IndexByte(sshValued, v[k]) < 0 {
					continue
				}
				val := v[k+1:]
				if k+1 == len(v) && i+1 < len(args) {
					i++ // the value is the next word
					val = args[i].Value
				}
				if v[k] == 'o' {
					if key, rest, found := strings.Cut(val, "="); found && strings.EqualFold(strings.TrimSpace(key), "RemoteCommand") {
						option = rest
					} else if key, rest, found := strings.Cut(val, " "); found && strings.EqualFold(key, "RemoteCommand") {
						option = rest
					}
				}
				break
			}
		case !host:
			host = true
		default:
			return joinRemote(args[i:])
		}
	}
	if !host {
		return Remote{}, false
	}
	if strings.TrimSpace(option) != "" && !strings.EqualFold(strings.TrimSpace(option), "none") {
		return Remote{Command: option}, true
	}
	return Remote{Login: true}, true
}

// joinRemote joins the command words the way ssh does (with spaces).
func joinRemote(ws []ir.Word) (Remote, bool) {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Value
	}
	text := strings.Join(parts, " ")
	if strings.TrimSpace(text) == "" {
		return Remote{Login: true}, true
	}
	return Remote{Command: text}, true
}
