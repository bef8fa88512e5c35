// Command misbehave is a test-only layer that breaks the layer protocol in
// the way its executable's file name says (the tests copy or link it under
// each name; a name may carry an extension, which is ignored):
//
//	crash-decide    serves, and exits with status 3 inside Decide
//	                (exit-decide is the same)
//	exit-at-start   exits with status 4 before the handshake
//	hang-decide     starts a sleeping grandchild, serves, and never answers
//	                Decide (it ignores the call's deadline)
//	hang-handshake  starts a sleeping grandchild and never prints the
//	                handshake line
//	garbage         prints lines that are not a handshake, then sleeps
//	wrong-version   prints a handshake for layer protocol 9, then sleeps
//	wrong-magic     expects another magic cookie, so refuses to start
//	panic-decide    serves, and panics inside Decide
//	error-decide    serves, and returns an error from Decide
//	chatty          serves, writes junk to stdout and stderr inside Decide,
//	                then asks (rule CHATTY-ASK)
//	slow-ask        serves, sleeps 300 ms in Decide, then asks (rule
//	                FAULT-SLOW-ASK): a healthy but slow layer
//
// Any other name exits with status 5. With MISBEHAVE_ROLE=sleeper in its
// environment it is the grandchild: it sleeps for ten minutes.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-plugin"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

const roleEnv = "MISBEHAVE_ROLE"

func main() {
	if os.Getenv(roleEnv) == "sleeper" {
		time.Sleep(10 * time.Minute)
		return
	}
	base := filepath.Base(os.Args[0])
	mode := strings.TrimSuffix(base, filepath.Ext(base))
	if mode == "exit-decide" {
		mode = "crash-decide"
	}
	switch mode {
	case "crash-decide", "panic-decide", "error-decide", "chatty", "slow-ask":
		layerproto.Serve(broken{mode: mode})
	case "exit-at-start":
		os.Exit(4)
	case "hang-decide":
		startSleeper()
		layerproto.Serve(broken{mode: mode})
	case "hang-handshake":
		startSleeper()
		select {}
	case "garbage":
		fmt.Println("Hello! I am not a go-plugin handshake line.")
		fmt.Println("\x00\x01\x02 binary noise |||| 7|x|y")
		select {}
	case "wrong-version":
		fmt.Println("1|9|unix|/nonexistent/zcode-fence-test.sock|grpc")
		select {}
	case "wrong-magic":
		plugin.Serve(&plugin.ServeConfig{
			HandshakeConfig: plugin.HandshakeConfig{
				ProtocolVersion:  1,
				MagicCookieKey:   "ZCODE_FENCE_LAYER_SOMETHING_ELSE",
				MagicCookieValue: "not-the-zcode-fence-cookie",
			},
		})
	default:
		os.Exit(5)
	}
}

// startSleeper starts a grandchild that shares nothing but the process
// group, so the tests can check that the host kills the whole group.
func startSleeper() {
	self, err := os.Executable()
	if err != nil {
		os.Exit(4)
	}
	child := exec.Command(self)
	child.Env = append(os.Environ(), roleEnv+"=sleeper")
	if err := child.Start(); err != nil {
		os.Exit(4)
	}
}

// broken is the layer served by the modes that get past the handshake.
type broken struct{ mode string }

func (b broken) Name() string { return b.mode }

func (b broken) Decide(_ context.Context, call *core.Call) (core.Verdict, error) {
	switch b.mode {
	case "crash-decide":
		os.Exit(3)
	case "panic-decide":
		panic("misbehave: panic while judging " + call.Command)
	case "hang-decide":
		select {}
	case "error-decide":
		return core.Verdict{}, errors.New("misbehave: cannot judge " + call.Command)
	case "chatty":
		fmt.Println("junk on stdout after the handshake")
		fmt.Fprintln(os.Stderr, "junk on stderr")
	case "slow-ask":
		time.Sleep(300 * time.Millisecond)
		return core.AskVerdict(core.Reason{Rule: "FAULT-SLOW-ASK", Message: "slow layer asks about: " + call.Command}), nil
	}
	return core.AskVerdict(core.Reason{Rule: "CHATTY-ASK", Message: "chatty layer asks about: " + call.Command}), nil
}
