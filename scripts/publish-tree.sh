#!/bin/sh
# publish-tree.sh — commit an installable plugin tree (the output of
# `go run ./tools/bundle -tree TREE -dist dist`) as the new head of branch REF
# and push it, with the tag zcode-fence--v<VERSION>, to REMOTE.
#
#   scripts/publish-tree.sh TREE REF VERSION [REMOTE]
#
# Run it inside a clone of the repository (the release workflow's checkout;
# e2e/release_test.go runs it against a local bare repository). The new commit
# holds exactly the files of TREE and has REF's current head on REMOTE as its
# parent (none on the first release), so REF is a linear history of releases
# that clients fetch fast-forward. The tag form <plugin>--v<version> is the one
# Claude Code looks for when a plugin is pinned to a version. The clone's own
# working tree, index and branches are not touched: the commit is built with a
# separate index file and pushed by hash.
set -eu

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: $0 TREE REF VERSION [REMOTE]" >&2
	exit 2
fi
tree=$1 ref=$2 version=$3 remote=${4:-origin}
if [ ! -f "$tree/.claude-plugin/marketplace.json" ] || [ ! -f "$tree/marketplace.json" ]; then
	echo "publish-tree: $tree is not a plugin tree (no marketplace.json and .claude-plugin/marketplace.json)" >&2
	exit 1
fi
tree=$(cd "$tree" && pwd -P)
gitdir=$(git rev-parse --absolute-git-dir)
source=$(git rev-parse HEAD)
tag=zcode-fence--v$version

index=$(mktemp)
trap 'rm -f "$index"' EXIT
rm -f "$index" # git starts a missing index afresh; an empty file is corrupt
GIT_INDEX_FILE=$index git --git-dir="$gitdir" --work-tree="$tree" -C "$tree" add --all --force .
tree_id=$(GIT_INDEX_FILE=$index git --git-dir="$gitdir" write-tree)

parent=
if git ls-remote --exit-code --heads "$remote" "refs/heads/$ref" >/dev/null; then
	git fetch --quiet --no-tags "$remote" "refs/heads/$ref"
	parent=$(git rev-parse FETCH_HEAD)
else
	status=$?
	if [ "$status" -ne 2 ]; then # 2: no such branch yet (the first release)
		echo "publish-tree: cannot list $ref on $remote (git ls-remote exit $status)" >&2
		exit 1
	fi
fi

: "${GIT_AUTHOR_NAME:=zcode-fence release}" "${GIT_AUTHOR_EMAIL:=release@zcode-fence.invalid}"
: "${GIT_COMMITTER_NAME:=$GIT_AUTHOR_NAME}" "${GIT_COMMITTER_EMAIL:=$GIT_AUTHOR_EMAIL}"
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
message="zcode-fence $version: the installable plugin tree

Built from $source by the release workflow; see README.md."
if [ -n "$parent" ]; then
	commit=$(printf '%s\n' "$message" | git commit-tree "$tree_id" -p "$parent")
else
	commit=$(printf '%s\n' "$message" | git commit-tree "$tree_id")
fi
git push --quiet --atomic "$remote" "$commit:refs/heads/$ref" "$commit:refs/tags/$tag"
printf 'publish-tree: %s is %s (tree %s, tag %s) on %s\n' "$ref" "$commit" "$tree_id" "$tag" "$remote" >&2
printf '%s\n' "$commit"
