// Package reproduce holds one end-to-end test, TestReproducibleBuild: the
// release binary for this machine built by GoReleaser (.goreleaser.yaml) in
// a snapshot copy of the checkout with an empty build cache, everything
// compiled afresh, is the same bytes as the one tools/bundle, the
// contributors' build, makes in the checkout with the default cache. The
// release workflow's reproduce job compares all six targets.
//
// It is a package of its own, apart from e2e, because go test gives each
// test binary its own time limit (10 minutes by default): compiling the
// standard library and every dependency afresh takes minutes on a loaded
// 2-core machine, and e2e's host tests take minutes of their own. It has
// no non-test code.
//
// Knobs (as in e2e): ZCODE_FENCE_GORELEASER (use this goreleaser; without
// it the one scripts/install-go-tool.sh built, else a skip unless
// ZCODE_FENCE_E2E_REQUIRE=1, which builds it); -short skips the test.
package reproduce
