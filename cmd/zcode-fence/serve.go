package main

import (
	"fmt"
	"io"

	"github.com/zcode-fence/zcode-fence/core/layerproto"
	"github.com/zcode-fence/zcode-fence/plugins"
)

// serveMode serves one built-in layer over the plugin protocol; the host
// starts it as `zcode-fence layer serve NAME` under layer_isolation=process.
func serveMode(name string, stderr io.Writer) int {
	b, ok := plugins.Builtin(name)
	if !ok {
		fmt.Fprintf(stderr, "zcode-fence: no built-in layer %q (have danger, fence, decisionmodel)\n", name)
		return 2
	}
	layerproto.Serve(b.New())
	return 0
}
