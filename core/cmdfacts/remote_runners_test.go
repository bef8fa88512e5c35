package cmdfacts_test

import (
	"strings"
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
	"github.com/zcode-fence/zcode-fence/core/ir"
)

// asWords returns the name and arguments of a command line as written,
// before the analysis strips wrappers (nix run, machinectl shell .host):
// the line is analysed as the arguments of true.
func asWords(t *testing.T, text string) (string, []ir.Word) {
	t.Helper()
	c := command(t, "true "+text)
	if len(c.Args) < 2 {
		t.Fatalf("%q: no words", text)
	}
	return c.Args[1].Value, c.Args[2:]
}

type remoteRunnerCase struct {
	remoteCase
	Container  bool `json:"container"`
	PowerShell bool `json:"powershell"`
}

// TestRemoteRunners runs testdata/remote_runners.json: what gcloud, az,
// aws, the container execs and machinectl shell run elsewhere, and
// whether it is a container's or PowerShell text.
func TestRemoteRunners(t *testing.T) {
	for _, tc := range load[remoteRunnerCase](t, "remote_runners.json") {
		t.Run(tc.Command, func(t *testing.T) {
			name, args := asWords(t, tc.Command)
			got, ok := cmdfacts.RemoteCommand(name, args)
			if ok == tc.None || got.Command != tc.Want || got.Login != tc.Login ||
				(ok && (got.Container != tc.Container || got.PowerShell != tc.PowerShell)) {
				t.Errorf("got %+v, %v; want %q, login %v, container %v, powershell %v, none %v (%s)",
					got, ok, tc.Want, tc.Login, tc.Container, tc.PowerShell, tc.None, tc.Why)
			}
		})
	}
}

// TestRemoteClients: every client RemoteCommand reads is listed, once.
func TestRemoteClients(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range cmdfacts.RemoteClients() {
		if seen[n] {
			t.Errorf("%s listed twice", n)
		}
		seen[n] = true
	}
	for _, tc := range load[remoteRunnerCase](t, "remote_runners.json") {
		if name, _ := asWords(t, tc.Command); !tc.None && !seen[name] {
			t.Errorf("%s reads a command but is not in RemoteClients", name)
		}
	}
}

// TestLaunchers runs testdata/launchers.json: the command line mpirun /
// mpiexec (MPIProgram) and nix develop / shell / run (ParseNixCommand)
// run here, its words joined with spaces.
func TestLaunchers(t *testing.T) {
	for _, tc := range load[remoteCase](t, "launchers.json") {
		t.Run(tc.Command, func(t *testing.T) {
			name, args := asWords(t, tc.Command)
			var words []string
			ok := false
			switch name {
			case "mpirun", "mpiexec":
				var i int
				if i, ok = cmdfacts.MPIProgram(args); ok {
					words = values(args[i:])
				}
			case "nix":
				var n cmdfacts.NixCommand
				if n, ok = cmdfacts.ParseNixCommand(args); ok {
					if n.Program != "" {
						words = append(words, n.Program)
					}
					words = append(words, values(args[n.From:])...)
				}
			default:
				t.Fatalf("no launcher %s", name)
			}
			if got := strings.Join(words, " "); ok == tc.None || got != tc.Want {
				t.Errorf("got %q, %v; want %q, none %v (%s)", got, ok, tc.Want, tc.None, tc.Why)
			}
		})
	}
}

func values(ws []ir.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Value
	}
	return out
}
