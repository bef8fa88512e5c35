// Package e2e holds zcode-fence's end-to-end tests of the installable plugin
// bundle (bundle/zcode-fence) and of the two marketplaces at the repository
// root. It has no non-test code of its own; fakeapi, beside it, is the fake
// Anthropic Messages API the Claude Code test drives the real CLI against,
// and internal/kit holds the helpers it shares with e2e/reproduce.
//
// The tests, all against real files and processes:
//
//   - manifest_test.go: versions agree with core.Version; the shapes of
//     marketplace.json, .claude-plugin/marketplace.json, both plugin.json
//     files (userConfig == plugins.Schema.UserConfig(), the settings
//     declarations) and hooks/hooks.json (the one form both hosts accept).
//   - launcher_test.go: the sh launcher under a fake uname for every
//     platform; the cmd.exe launcher's text (run for real on Windows).
//   - zcode_test.go: ZCode's payload (camelCase, and camelCase with the
//     snake_case aliases; shapes in testdata/zcode-payloads.json) through
//     the hooks.json command and a freshly built binary, options read from
//     a fake home's ~/.zcode/cli/config.json (testdata/zcode-cases.json);
//     the output shape ZCode parses.
//   - claude_test.go: the real Claude Code CLI (pinned version, installed by
//     scripts/install-claude-code.sh into a cache folder) installs the plugin
//     from the installable tree (go run ./tools/bundle -tree, what a release
//     publishes) as a local marketplace and runs scripted agent
//     turns against fakeapi (testdata/claude-runs.json), each scenario in a
//     fresh fake home: catastrophic and out-of-project steps must not run
//     and the model must be told why; no process of a run may survive it.
//   - hosts_test.go: the real Codex, Gemini CLI, Qwen Code and Copilot CLI
//     (pinned, installed by scripts/install-agent-cli.sh) against fakeapi's
//     Responses, Gemini and chat-completions formats, headless: a control
//     run without the guard wipes the fake home with find ~ -delete; with
//     the guard installed from the tree as a user installs it, the same call
//     is stopped with zcode-fence's reason and an in-project touch runs.
//   - interactive_test.go (tmux_test.go drives a terminal): Gemini CLI,
//     Qwen Code and Copilot CLI in tmux: the host's confirmation shows
//     zcode-fence's whole reason on screen, the test answers no as a person
//     would, and the fake home survives.
//   - release_test.go: a GoReleaser snapshot of the checkout
//     (.goreleaser.yaml, this machine's target; that it is the same bytes
//     as tools/bundle's build, with an empty build cache, is checked by
//     e2e/reproduce, a package of its own for its own time limit); the
//     tree tools/bundle assembles from its dist/, published by
//     scripts/publish-tree.sh at the release ref of a local bare repository
//     that git's url.insteadOf puts in GitHub's place, added and installed by
//     the real Claude Code CLI exactly as README.md says, with no Go on PATH
//     (testdata/release-runs.json): the hook asks where it must, the binary
//     verified itself against SHA256SUMS once, and a changed binary asks on
//     an everyday call.
//
// Knobs: ZCODE_FENCE_E2E_CACHE (cache folder, default ~/.cache/zcode-fence-e2e,
// or another place outside every temp dir, see internal/testdirs; the
// fake homes live there too, because a fake home under /tmp would sit
// inside the fence's writable temp roots), ZCODE_FENCE_CLAUDE (use this claude
// executable instead of installing one; ZCODE_FENCE_CODEX, _GEMINI, _QWEN,
// _COPILOT likewise), ZCODE_FENCE_E2E_REQUIRE=1 (fail, rather than skip,
// when the Claude CLI cannot be installed; set it in CI;
// ZCODE_FENCE_E2E_REQUIRE_<HOST>=1 for the other CLIs, _TMUX for tmux),
// ZCODE_FENCE_E2E_BINARY (put this zcode-fence binary, with a SHA256SUMS for
// it, into the tree the fixtures install), ZCODE_FENCE_GORELEASER (use this
// goreleaser instead of the one scripts/install-go-tool.sh built; without
// either, the release tests skip unless ZCODE_FENCE_E2E_REQUIRE=1, which
// builds it).
package e2e
