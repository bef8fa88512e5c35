#!/bin/sh
# install-go-tool.sh — put a pinned Go program the release pipeline uses into
# a cache folder, and print the path of its executable.
#
#   scripts/install-go-tool.sh goreleaser   # GoReleaser (builds and publishes releases)
#   scripts/install-go-tool.sh actionlint   # actionlint (checks .github/workflows in .ci/run)
#   scripts/install-go-tool.sh goreleaser --cached-only   # the path if built before, else exit 1
#
# The versions are pinned here, and only here (.ci/run and the release
# workflow call this script). The tools are built with `go install PKG@VERSION`
# from the Go module proxy, checked against the checksum database, into
# $CACHE/<tool>-<version>/; they are not added to go.mod: GoReleaser alone
# would pull several hundred modules into the project's module graph (and into
# go mod tidy, go mod download and every vulnerability scan) for a program that
# only a release runs. (The npm package @goreleaser/goreleaser is no way round
# that: its install step downloads the binary from GitHub, which CI and offline
# machines cannot reach.) A cached build is reused without network access; the
# first build of GoReleaser takes minutes (10 min on a 2-core machine),
# actionlint's seconds.
#
# Cache folder: $ZCODE_FENCE_TOOLS_CACHE, else
# ${XDG_CACHE_HOME:-~/.cache}/zcode-fence-tools. Progress goes to stderr, the
# path alone to stdout: GORELEASER=$(scripts/install-go-tool.sh goreleaser).
# Exit status: 0 on success, 1 when the tool cannot be installed, 2 on usage.
set -eu

case ${1-} in
goreleaser)
	pkg=github.com/goreleaser/goreleaser/v2
	version=v2.17.0
	;;
actionlint)
	pkg=github.com/rhysd/actionlint/cmd/actionlint
	version=v1.7.12
	;;
*)
	echo "usage: $0 goreleaser|actionlint [--cached-only]" >&2
	exit 2
	;;
esac
tool=$1
cached_only=false
case ${2-} in
"") ;;
--cached-only) cached_only=true ;;
*)
	echo "usage: $0 goreleaser|actionlint [--cached-only]" >&2
	exit 2
	;;
esac
cache=${ZCODE_FENCE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zcode-fence-tools}
dir=$cache/$tool-$version
exe=$dir/$tool

say() { printf 'install-go-tool: %s\n' "$*" >&2; }

# works: true when the cached executable runs and reports the pinned version.
works() {
	[ -x "$exe" ] || return 1
	case $tool in
	goreleaser) out=$("$exe" --version 2>/dev/null) || return 1 ;;
	actionlint) out=$("$exe" -version 2>/dev/null) || return 1 ;;
	esac
	case $out in
	*"$version"*) return 0 ;;
	esac
	return 1
}

if works; then
	printf '%s\n' "$exe"
	exit 0
fi

if $cached_only; then
	say "$tool $version is not built in $dir (run: $0 $tool)"
	exit 1
fi
if ! command -v go >/dev/null 2>&1; then
	say "go is not on PATH; cannot build $pkg@$version"
	exit 1
fi
mkdir -p "$dir"
say "building $pkg@$version into $dir (first run only)"
start=$(date +%s)
# GOFLAGS from the caller (say -mod=vendor) must not reach a build outside
# this module.
if ! (cd "$dir" && GOFLAGS='' GOBIN="$dir" CGO_ENABLED=0 go install "$pkg@$version") >&2; then
	say "go install $pkg@$version failed"
	exit 1
fi
say "built in $(($(date +%s) - start)) s"
if ! works; then
	say "built, but $exe does not report $version"
	exit 1
fi
printf '%s\n' "$exe"
