package cmdfacts_test

import (
	"testing"

	"github.com/zcode-fence/zcode-fence/core/cmdfacts"
)

type remoteCase struct {
	Command string `json:"command"`
	Want    string `json:"want"`
	Why     string `json:"why"`
}

// TestRemoteCommand runs testdata/remote.json: the command line ssh,
// autossh and mosh run on the other machine ("" for none).
func TestRemoteCommand(t *testing.T) {
	for _, tc := range load[remoteCase](t, "remote.json") {
		t.Run(tc.Command, func(t *testing.T) {
			c := command(t, tc.Command)
			got, ok := cmdfacts.RemoteCommand(c.Name, c.Args[1:])
			if ok != (tc.Want != "") || got != tc.Want {
				t.Errorf("got %q, %v; want %q (%s)", got, ok, tc.Want, tc.Why)
			}
		})
	}
}
