package cmdfacts

import (
	"strings"

	"github.com/zcode-fence/zcode-fence/core/shell"
)

// Remote shells: ssh (and autossh, which passes ssh's options through)
// runs the words after the host as one command line, joined with spaces
// and read by the remote user's shell; mosh runs the words after "--".
// The command runs on another machine, in the remote user's home: a
// catastrophic command there (rm -rf /, mkfs on its disk) is as
// catastrophic as here, while its paths are not this machine's.

// sshValued are ssh's short options that take a value (OpenSSH 9: -B
// bind_interface, -b bind_address, -c cipher_spec, -D port, -E log_file,
// -e escape_char, -F configfile, -I pkcs11, -i identity_file, -J
// destination, -L address, -l login_name, -m mac_spec, -O ctl_cmd, -o
// option, -P tag, -p port, -Q query_option, -R address, -S ctl_path, -W
// host:port, -w local_tun); autossh adds -M port.
const sshValued = "BbcDEeFIiJLlmOoPpQRSWwM"

// sshNoCommand are ssh's flags after which the words that follow are not
// a command line: -N (no command), -s (a subsystem name), -Q (a query),
// -V (version), -G (print the configuration), -O (a control command).
const sshNoCommand = "NsQVGO"

// RemoteCommand returns the command line a remote shell client runs on
// the other machine (ssh host CMD ARGS..., ssh -t host 'CMD',
// mosh host -- CMD), and whether there is one. name is the client's
// command name (after wrappers); args its arguments (argv[1:]). Each word
// contributes its Value, whose unknown parts are their source text ($X):
// the remote analysis then sees them as unknown too.
// Cost: linear in the words.
func RemoteCommand(name string, args []shell.Word) (string, bool) {
	switch name {
	case "ssh", "autossh":
		return sshCommand(args)
	case "mosh":
		for i, a := range args {
			if !a.Unknown && a.Value == "--" {
				return joinRemote(args[i+1:])
			}
		}
	}
	return "", false
}

// sshCommand reads ssh's arguments: options, the destination, options
// again (OpenSSH reads options after the destination too), then the
// command words.
func sshCommand(args []shell.Word) (string, bool) {
	host := false
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
			if host {
				return joinRemote(args[i+1:])
			}
			if i+1 >= len(args) {
				return "", false
			}
			i++
			host = true
			if i+1 < len(args) {
				return joinRemote(args[i+1:])
			}
			return "", false
		case len(v) > 1 && v[0] == '-':
			for k := 1; k < len(v); k++ {
				if strings.IndexByte(sshNoCommand, v[k]) >= 0 {
					return "", false
				}
				if strings.IndexByte(sshValued, v[k]) >= 0 {
					if k+1 == len(v) {
						i++ // the value is the next word
					}
					break
				}
			}
		case !host:
			host = true
		default:
			return joinRemote(args[i:])
		}
	}
	return "", false
}

// joinRemote joins the command words the way ssh does (with spaces).
func joinRemote(ws []shell.Word) (string, bool) {
	if len(ws) == 0 {
		return "", false
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Value
	}
	text := strings.Join(parts, " ")
	return text, strings.TrimSpace(text) != ""
}
