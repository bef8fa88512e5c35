#!/bin/sh
# Installs zcode-fence as the Cline CLI's PreToolUse hook:
#
#   sh <unpacked release>/bundle/zcode-fence/cline/install.sh
#
# writes ${CLINE_DIR:-~/.cline}/hooks/PreToolUse, a script that execs the
# PreToolUse hook beside this file by its absolute path (Cline runs no
# linked hook file). Keep the unpacked release where it is; to uninstall,
# delete that file. An existing PreToolUse hook that is not zcode-fence's
# is left alone: the script stops and says how to keep both.
set -eu
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P)
hook=$here/PreToolUse
case $hook in
*"'"*)
	echo "zcode-fence: the release path $here contains a single quote; move the release elsewhere" >&2
	exit 1 ;;
esac
dir=${CLINE_DIR:-$HOME/.cline}/hooks
target=$dir/PreToolUse
if [ -e "$target" ] && ! grep -q zcode-fence "$target"; then
	echo "zcode-fence: $target exists and is not zcode-fence's hook; rename it PreToolUse.sh (Cline runs both), then run this again" >&2
	exit 1
fi
mkdir -p "$dir"
tmp=$target.tmp.$$
printf "#!/bin/sh\n# zcode-fence's Cline hook (written by %s)\nexec '%s'\n" "$here/install.sh" "$hook" >"$tmp"
chmod 755 "$tmp"
mv -f "$tmp" "$target"
echo "zcode-fence: installed $target (runs $hook)"
