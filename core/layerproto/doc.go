// Package layerproto is the layer protocol: how the zcode-fence host runs a
// layer in a separate process and asks it about a tool call. It is
// hashicorp/go-plugin (gRPC only) carrying the service in layer.proto
// (package zcodefence.layer.v1, generated code in layerpb).
//
// For a layer author (and for `zcode-fence layer serve NAME`):
//
//	func main() { layerproto.Serve(mylayer.New()) }
//
// For the host:
//
//	c, err := layerproto.Launch(ctx, layerproto.LaunchConfig{Name: "x", Path: exe})
//	defer c.Close() // safe even when err != nil (c is then nil)
//	v, err := c.Decide(ctx, call)
//
// A *Client is a core.Layer, so the chain cannot tell a process layer from
// an in-process one. Every failure (start, handshake, timeout, crash, panic
// in the layer) is an *Error naming the layer and the step; the host counts
// it as silent.
//
// Costs, measured on a 2-vCPU VM: Launch 10-12 ms, one Decide 0.2 ms on a
// running layer, Close 2-3 ms (mostly the kernel tearing the process down).
// See bench_test.go.
package layerproto
