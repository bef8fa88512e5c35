package main

import (
	"context"

	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

// remoteLayer adapts a layer process to host.Remote.
type remoteLayer struct{ *layerproto.Client }

func (r remoteLayer) Close() { _ = r.Client.Close() }

// launchLayer starts a layer process for the host.
func launchLayer(ctx context.Context, spec host.LaunchSpec) (host.Remote, error) {
	c, err := layerproto.Launch(ctx, layerproto.LaunchConfig{
		Name:    spec.Name,
		Path:    spec.Path,
		Args:    spec.Args,
		SHA256:  spec.Checksum,
		DropEnv: spec.ScrubEnv,
	})
	if err != nil {
		return nil, err
	}
	return remoteLayer{c}, nil
}
