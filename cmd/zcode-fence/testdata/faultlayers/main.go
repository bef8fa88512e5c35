// Command faultlayers is a test-only third-party layer that fails in the
// way its executable's file name says (the hardening tests copy it under
// each name; an extension is ignored):
//
//	panic-decide    serves, then panics inside Decide
//	hang-decide     starts a sleeping grandchild, serves, and never answers
//	                Decide (it ignores the call's deadline)
//	exit-decide     serves, then exits with status 3 inside Decide
//	exit-at-start   exits with status 4 before the handshake
//	hang-handshake  starts a sleeping grandchild and never handshakes
//	slow-ask        serves, sleeps 300 ms in Decide, then asks (rule
//	                FAULT-SLOW-ASK): a healthy but slow layer
//
// Any other name exits with status 5. With FAULTLAYER_ROLE=sleeper in its
// environment it is the grandchild and sleeps for ten minutes: the tests
// check that the host kills the whole process group.
package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

const roleEnv = "FAULTLAYER_ROLE"

func main() {
	if os.Getenv(roleEnv) == "sleeper" {
		time.Sleep(10 * time.Minute)
		return
	}
	base := filepath.Base(os.Args[0])
	mode := strings.TrimSuffix(base, filepath.Ext(base))
	switch mode {
	case "panic-decide", "exit-decide", "slow-ask":
		layerproto.Serve(fault{mode})
	case "hang-decide":
		startSleeper()
		layerproto.Serve(fault{mode})
	case "exit-at-start":
		os.Exit(4)
	case "hang-handshake":
		startSleeper()
		select {}
	default:
		os.Exit(5)
	}
}

// startSleeper starts a grandchild that inherits the environment.
func startSleeper() {
	self, err := os.Executable()
	if err != nil {
		os.Exit(6)
	}
	child := exec.Command(self)
	child.Env = append(os.Environ(), roleEnv+"=sleeper")
	if err := child.Start(); err != nil {
		os.Exit(6)
	}
}

// fault is the layer served by the modes that get past the handshake.
type fault struct{ mode string }

func (f fault) Name() string { return f.mode }

func (f fault) Decide(_ context.Context, call *core.Call) (core.Verdict, error) {
	switch f.mode {
	case "panic-decide":
		panic("faultlayers: panic while judging " + call.Command)
	case "exit-decide":
		os.Exit(3)
	case "hang-decide":
		select {}
	case "slow-ask":
		time.Sleep(300 * time.Millisecond)
		return core.AskVerdict(core.Reason{Rule: "FAULT-SLOW-ASK", Message: "slow layer asks about: " + call.Command}), nil
	}
	return core.SilentVerdict, nil
}
