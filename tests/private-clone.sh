#!/bin/sh
# tests/private-clone.sh: clone the repository's HEAD into a directory only
# its owner can enter (as a checkout under root's 0700 home is), then
# configure, build and run the whole make check there. The suite must pass
# in any checkout a user can make: what the cases run as other users is
# copied where those users can reach it, never assumed reachable.
# `make check-private-clone` runs it; .ci/run calls that.
set -eu
top=$(pwd)
d=$(mktemp -d /tmp/hangar-policy-private.XXXXXX)
trap 'rm -rf "$d"' EXIT
chmod 0700 "$d"
git clone -q --no-hardlinks "$top" "$d/hangar-policy"
git -C "$d/hangar-policy" checkout -q --detach "$(git rev-parse HEAD)"
cd "$d/hangar-policy"
echo "private-clone: $(stat -c %a "$d") $d/hangar-policy at $(git rev-parse --short HEAD)"
./configure >/dev/null
make -j"${JOBS:-2}" >/dev/null
make -j"${JOBS:-2}" check
