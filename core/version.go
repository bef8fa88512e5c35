package core

// Version is zcode-fence's release version: the version of the plugin
// manifests and marketplaces on this branch (e2e/manifest_test.go keeps them
// equal), and the one a release tag must name (`go run ./tools/bundle
// -check-tag vX.Y.Z`, the release workflow's first step).
//
// Builds stamp it from the release being built, with
// -ldflags "-X github.com/zcode-fence/zcode-fence/core.Version=V"
// (.goreleaser.yaml: the tag's version, or a snapshot version; tools/bundle:
// its -version flag), so `zcode-fence version` names the build and the
// published plugin tree's manifests carry the same string. It is a variable
// only so the linker can set it; nothing assigns it at run time.
var Version = "0.1.0"
