package main

import (
	"context"
	"os"
	"sync"

	"github.com/zcode-fence/zcode-fence/core/host"
	"github.com/zcode-fence/zcode-fence/core/layerproto"
)

// remoteLayer adapts a layer process to host.Remote.
type remoteLayer struct{ *layerproto.Client }

func (r remoteLayer) Close() { _ = r.Client.Close() }

// launchLayer starts a layer process for the host. Its socket directory
// is made inside this process's private temp dir (runTempDir).
func launchLayer(ctx context.Context, spec host.LaunchSpec) (host.Remote, error) {
	c, err := layerproto.Launch(ctx, layerproto.LaunchConfig{
		Name:    spec.Name,
		Path:    spec.Path,
		Args:    spec.Args,
		SHA256:  spec.Checksum,
		DropEnv: spec.ScrubEnv,
		TempDir: runTempDir(),
	})
	if err != nil {
		return nil, err
	}
	return remoteLayer{c}, nil
}

var (
	runTemp     string
	runTempOnce sync.Once
)

// runTempDir is a directory of this process's own in the system temp
// dir, made on first use ("" — the temp dir itself — if it cannot be
// made), that holds the socket directories of the layer processes it
// launches. removeRunTemp removes it when the process ends, so that a
// hook which must exit before its layer processes are closed (exitBy, a
// loaded machine) leaves nothing behind: each layer's own directory is
// removed when it is closed, this one whatever happened. The name is
// short ("zf" and digits): a unix socket path must stay under about 100
// bytes and go-plugin adds two levels below it.
func runTempDir() string {
	runTempOnce.Do(func() {
		if d, err := os.MkdirTemp("", "zf"); err == nil {
			runTemp = d
		}
	})
	return runTemp
}

// removeRunTemp removes runTempDir and everything in it, if it was made.
func removeRunTemp() {
	runTempOnce.Do(func() {}) // no directory is made after this
	if runTemp != "" {
		_ = os.RemoveAll(runTemp)
	}
}
