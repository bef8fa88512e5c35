// Command protect-branch is a zcode-fence layer that asks before a git
// command pushes to, deletes, renames or rewinds a protected branch.
//
// It is an example of a third-party layer: a separate executable built only
// on the public SDK (core, core/ir, core/layerproto and its sdk helper
// package). Build it, add its absolute path to external_layers, and the
// zcode-fence host starts it for every tool call. See README.md and
// docs/layers.md.
//
// Started by hand (without the host's magic cookie) it prints a short
// notice and exits with status 1.
package main

import "github.com/zcode-fence/zcode-fence/core/layerproto"

// version is the layer's own version, reported to the host in Describe.
const version = "1.0.0"

func main() {
	layerproto.Serve(newLayer(),
		layerproto.WithVersion(version),
		layerproto.WithDescription("asks before git pushes, deletes or rewinds a protected branch"))
}
