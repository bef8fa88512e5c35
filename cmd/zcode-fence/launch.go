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

// selfExe is this executable, the built-in layers' server.
var selfExe = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return exe
})

// launchLayer starts a layer process for the host, or reattaches to its
// warm server. Per-call processes make their socket dirs in the run dir's
// c<PID> dir (removed by finishLaunches, or by a later call's sweep if
// this process is killed first). A warm server is asked for when
// spec.Idle > 0 and the layer's bytes are known: the built-ins (this
// binary, hashed once per version) and pinned external layers (their pin;
// after vetting, their verified copy, whose server start checks the pin
// once and whose record must hold it to be reattached). A warm launch
// makes its c<PID> dir only when it starts a process (layerproto does), so
// a call that only reattaches writes nothing in the run dir.
// Without a usable run dir, everything is per call in TMPDIR, as before.
func launchLayer(ctx context.Context, spec host.LaunchSpec) (host.Remote, error) {
	c, err := layerproto.Launch(ctx, launchConfig(spec))
	if err != nil {
		return nil, err
	}
	return remoteLayer{c}, nil
}

// prefetchLayer begins reattaching to spec's warm server in the
// background (layerproto.Prefetch); launchLayer for the same spec takes
// the connection over. finishLaunches closes what no launch took.
func prefetchLayer(ctx context.Context, spec host.LaunchSpec) {
	layerproto.Prefetch(ctx, launchConfig(spec))
}

// launchConfig is how launchLayer and prefetchLayer reach spec's layer.
func launchConfig(spec host.LaunchSpec) layerproto.LaunchConfig {
	cfg := layerproto.LaunchConfig{
		Name:    spec.Name,
		Path:    spec.Path,
		Args:    spec.Args,
		SHA256:  spec.Checksum,
		DropEnv: spec.ScrubEnv,
	}
	if runDir, err := layerproto.RunDir(spec.DataDir); err == nil {
		if spec.Idle > 0 && (spec.Checksum != "" || spec.Verified != "" || (spec.Path != "" && spec.Path == selfExe())) {
			cfg.Warm = &layerproto.Warm{RunDir: runDir, Idle: spec.Idle}
			if cfg.SHA256 == "" {
				cfg.SHA256 = spec.Verified
			}
		} else if d, err := layerproto.CallDir(runDir); err == nil {
			cfg.TempDir = d
		}
	}
	return cfg
}

// finishLaunches closes the prefetched warm-server connections no launch
// took, removes this process's per-call socket dirs and sweeps
// what dead processes left in the run dirs where it made them (a call that
// only reattached to warm servers reads nothing more: a stale record is
// found by the next reattach, and what killed processes left by the next
// call that launches one). Call it after the layer processes are closed.
func finishLaunches() {
	layerproto.DropPrefetched()
	for _, runDir := range layerproto.RemoveCallDirs() {
		layerproto.Sweep(runDir)
	}
}
