#!/bin/sh
# install-claude-code.sh — put the real Claude Code CLI in a cache folder for
# the end-to-end test (e2e/), and print the path of its executable.
#
#   scripts/install-claude-code.sh          install (or reuse) and print the path
#   CLAUDE_CODE_VERSION=2.1.332 scripts/install-claude-code.sh
#
# Kept for its callers; scripts/install-agent-cli.sh does the work for every
# agent host (cache folder, pinned version, exit status: see there).
exec sh "$(dirname "$0")/install-agent-cli.sh" claude
