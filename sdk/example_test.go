package sdk_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/zcode-fence/zcode-fence/core"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
	"github.com/zcode-fence/zcode-fence/sdk"
)

// noForcePush is a complete layer: it asks before any forced git push.
type noForcePush struct{}

func (noForcePush) Name() string { return "no-force-push" }

func (noForcePush) Decide(_ context.Context, call *core.Call) (core.Verdict, error) {
	for _, g := range sdk.GitCommands(call.Script, "push") {
		if sdk.HasFlag(g.Args, "--force", 'f') {
			text := sdk.CommandText(g.Command, 80)
			return core.AskVerdict(core.Reason{
				Rule: "NFP-FORCE",
				Message: sdk.Message(call, "no-force-push",
					"`"+text+"` force-pushes; ask the user before running it",
					"`"+text+"` 会强制推送；请先征得用户确认"),
			}), nil
		}
	}
	return core.SilentVerdict, nil
}

// A layer's main is one line:
//
//	func main() { layerproto.Serve(noForcePush{}) }
//
// Here TestMain plays that main whenever the host starts this test binary
// as a layer (the host sets the magic cookie; a person running the program
// by hand does not).
func TestMain(m *testing.M) {
	if os.Getenv(layerproto.Handshake.MagicCookieKey) == layerproto.Handshake.MagicCookieValue {
		layerproto.Serve(noForcePush{}, layerproto.WithVersion("1.0.0"),
			layerproto.WithDescription("asks before a forced git push"))
		return
	}
	os.Exit(m.Run())
}

// The layer runs in its own process and answers over the plugin protocol,
// exactly as under zcode-fence. The host's side is shown only to make the
// example run: a layer author writes noForcePush and main, nothing else.
func Example() {
	self, err := os.Executable()
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	layer, err := layerproto.Launch(ctx, layerproto.LaunchConfig{
		Path:         self,
		StartTimeout: 10 * time.Second, // generous: a -race test binary starts slowly
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer layer.Close()
	fmt.Println("layer:", layer.Name(), layer.Info().Version)

	for _, command := range []string{
		"git push origin feature/x",
		`cd repo && sudo -u ci bash -c "git -C . push -f origin main"`,
	} {
		call := sdk.ShellCall{Command: command, Cwd: "/project",
			Options: map[string]string{"language": "en"}}.Call()
		v, err := layer.Decide(ctx, call)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(v.Decision)
		for _, r := range v.Reasons {
			fmt.Println(" ", r.Layer, r.Rule, r.Message)
		}
	}
	// Output:
	// layer: no-force-push 1.0.0
	// silent
	// ask
	//   no-force-push NFP-FORCE [zcode-fence: no-force-push] `git -C . push -f origin main` force-pushes; ask the user before running it
}

// GitCommands finds git's subcommand after its global options, wherever
// the command sits.
func ExampleGitCommands() {
	call := sdk.ShellCall{Command: `git -C ../lib -c alias.pf='push --force' pf origin main && echo $(git rev-parse HEAD)`}.Call()
	for _, g := range sdk.GitCommands(call.Script) {
		var args []string
		for _, w := range g.Args {
			args = append(args, w.Value)
		}
		fmt.Printf("#%d %s %q alias=%q depth=%d\n", g.Index, g.Sub, args, g.Alias, g.Command.Depth)
	}
	// Output:
	// #0 push ["--force" "origin" "main"] alias="pf" depth=0
	// #2 rev-parse ["HEAD"] alias="" depth=1
}

// Options arrive as strings; lists are ";"-separated.
func ExampleListOption() {
	call := &core.Call{Options: map[string]string{"branches": " main ; release/* ;", "strict": "yes"}}
	strict, ok := sdk.BoolOption(call, "strict", false)
	fmt.Println(sdk.ListOption(call, "branches", "main;master"), sdk.ListOption(call, "other", "a;b"), strict, ok)
	// Output:
	// [main release/*] [a b] true true
}
