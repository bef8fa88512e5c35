// Command floor is benchhook's go-plugin floor: the least a hook that the
// design allows can be — a program that links hashicorp/go-plugin and
// gRPC (as every such hook must, to reach its layers) and, when run, only
// reads its payload from stdin and decodes it. Whatever zcode-fence costs
// beyond this program is its own work and its own size.
//
// The plugin client and the gRPC server are linked (a branch the
// benchmark never takes refers to them), so the binary carries their
// code and runs their packages' initialisation, as a real hook does.
package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
)

func main() {
	b, _ := io.ReadAll(os.Stdin)
	var v map[string]any
	_ = json.Unmarshal(b, &v)
	if os.Getenv("BENCHHOOK_FLOOR_SERVE") == "never-set" {
		// Never taken: keeps go-plugin's client and gRPC's server linked.
		c := plugin.NewClient(&plugin.ClientConfig{AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC}})
		defer c.Kill()
		_ = grpc.NewServer()
	}
}
