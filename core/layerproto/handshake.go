package layerproto

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/zcode-fence/zcode-fence/core/layerproto/layerpb"
)

// Handshake is the go-plugin handshake every layer and the host share.
//
// It must NEVER change. Every layer ever built, in any language, checks
// this cookie and protocol version; changing a value makes all of them
// refuse to start. A breaking protocol change is a new ProtocolVersion
// negotiated through go-plugin's VersionedPlugins, never an edit here.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "ZCODE_FENCE_LAYER",
	MagicCookieValue: "3b3eb67e19689dff24c1c32b9469e2be",
}

// ProtocolVersion is the layer protocol version this package implements
// (package zcodefence.layer.v1, Handshake.ProtocolVersion).
const ProtocolVersion = 1

// PluginName is the name of the one plugin in the go-plugin plugin set.
const PluginName = "layer"

// layerPlugin is the go-plugin glue on both sides: the server registers
// the Layer service, the client hands out the generated stub. net/rpc is
// not supported.
type layerPlugin struct {
	plugin.NetRPCUnsupportedPlugin
	server *server // nil on the client side
}

var _ plugin.GRPCPlugin = (*layerPlugin)(nil)

func (p *layerPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	layerpb.RegisterLayerServer(s, p.server)
	return nil
}

func (p *layerPlugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (interface{}, error) {
	return layerpb.NewLayerClient(conn), nil
}
