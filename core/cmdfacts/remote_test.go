package cmdfacts_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type remoteCase struct {
	Command string `json:"command"`
	Want    string `json:"want"`
	Login   bool   `json:"login"`
	None    bool   `json:"none"`
	Why     string `json:"why"`
}

// TestRemoteCommand runs testdata/remote.json: the command line ssh,
// autossh and mosh run on the other machine, a login shell, or nothing.
func TestRemoteCommand(t *testing.T) {
	for _, tc := range load[remoteCase](t, "remote.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			got, ok := cmdfacts.RemoteCommand(c.Name, c.Args[1:])
			if ok == tc.None || got.Command != tc.Want || got.Login != tc.Login {
				t.Errorf("got %+v, %v; want %q, login %v, none %v (%s)", got, ok, tc.Want, tc.Login, tc.None, tc.Why)
			}
		})
	}
}
