#!/bin/sh
# install-claude-code.sh — put the real Claude Code CLI in a cache folder for
# the end-to-end test (e2e/), and print the path of its executable.
#
#   scripts/install-claude-code.sh          install (or reuse) and print the path
#   CLAUDE_CODE_VERSION=2.1.332 scripts/install-claude-code.sh
#
# Cache folder: $ZCODE_FENCE_E2E_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/zcode-fence-e2e.
# The version is pinned (default 2.1.332, the one the hook protocol notes were
# measured against); a cached install of that version is reused without any
# network access. Needs npm only for the first install. The executable is
# linked as $CACHE/claude-<version>; progress goes to stderr, the path alone
# to stdout, so callers can do CLAUDE=$(scripts/install-claude-code.sh).
# Exit status: 0 on success, 1 when the CLI cannot be installed.
set -eu

version=${CLAUDE_CODE_VERSION:-2.1.332}
cache=${ZCODE_FENCE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zcode-fence-e2e}
prefix=$cache/claude-code-$version
link=$cache/claude-$version

say() { printf 'install-claude-code: %s\n' "$*" >&2; }

# works PATH: true when PATH runs and reports the pinned version.
works() {
	[ -x "$1" ] || return 1
	out=$("$1" --version 2>/dev/null) || return 1
	case $out in
	"$version"*) return 0 ;;
	esac
	return 1
}

if works "$link"; then
	printf '%s\n' "$link"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	say "npm is not on PATH; cannot install @anthropic-ai/claude-code@$version"
	exit 1
fi

mkdir -p "$prefix"
if [ ! -f "$prefix/package.json" ]; then
	printf '{"name":"zcode-fence-e2e-claude-code","private":true}\n' >"$prefix/package.json"
fi
say "installing @anthropic-ai/claude-code@$version into $prefix (first run only)"
start=$(date +%s)
if ! npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
	"@anthropic-ai/claude-code@$version" >&2; then
	say "npm install failed"
	exit 1
fi
say "npm install took $(($(date +%s) - start)) s"

# The package ships the native executable as bin/claude.exe on every platform
# (a copy of the per-platform optional package's binary); older layouts used
# cli.js behind node_modules/.bin/claude.
pkg=$prefix/node_modules/@anthropic-ai/claude-code
target=
for candidate in "$pkg/bin/claude.exe" "$pkg/bin/claude" "$prefix/node_modules/.bin/claude"; do
	if works "$candidate"; then
		target=$candidate
		break
	fi
done
if [ -z "$target" ]; then
	# The native binary may still sit only in the platform package when the
	# postinstall step that copies it did not run.
	for candidate in "$prefix"/node_modules/@anthropic-ai/claude-code-*/claude; do
		if works "$candidate"; then
			target=$candidate
			break
		fi
	done
fi
if [ -z "$target" ]; then
	say "installed, but no claude executable under $prefix reports version $version"
	exit 1
fi

ln -sf "$target" "$link"
say "claude $version ready: $link -> $target"
printf '%s\n' "$link"
