// Package sdk is a small toolbox for writing zcode-fence layers: finding
// commands and git invocations in a call's shell analysis, reading the
// layer's options, writing messages in the user's language, and building
// calls for a layer's own tests the way the host builds them.
//
// A layer needs none of it: implement core.Layer and call layerproto.Serve
// from main. The helpers only save the parsing every rule-writer would
// otherwise repeat.
//
//	type layer struct{}
//
//	func (layer) Name() string { return "no-force-push" }
//
//	func (layer) Decide(ctx context.Context, call *core.Call) (core.Verdict, error) {
//		for _, g := range sdk.GitCommands(call.Script, "push") {
//			if sdk.HasFlag(g.Args, "--force", 'f') {
//				return core.AskVerdict(core.Reason{Rule: "NFP-FORCE",
//					Message: sdk.Message(call, "no-force-push", "force push: ask the user first", "强制推送：请先征得用户确认")}), nil
//			}
//		}
//		return core.SilentVerdict, nil
//	}
//
//	func main() { layerproto.Serve(layer{}) }
//
// Everything here is pure and cheap (no I/O, no allocation beyond the
// results), safe for concurrent use, and never panics on a nil or partial
// Script.
package sdk
