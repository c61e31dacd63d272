#!/bin/sh
# tests/e2e/before.sh REV CASE...: run end-to-end cases of this tree against
# the programs built from an older commit REV, to show that each case tests
# something REV did not do (a case that passes there tests nothing new).
#
# REV is cloned from this repository into a temporary directory, configured
# and built as it was (its own tests/tools too); then its tests/e2e is
# replaced by this tree's (the runner, the cases and their fixtures) and each
# CASE (a name as TESTS takes it, e.g. cli/color) runs alone. A case that
# drives the tree itself (make install, ./configure, the completion and Vim
# files) runs against REV's tree, as it would have there.
#
# Each case prints one line: "fails" with the first lines of what differs,
# which must be read (a case can also fail on REV for a reason of its own,
# such as a fixture or a test tool REV lacks), or "PASSES", which is the
# finding. Exit status 1 when any case passes on REV, 2 when REV does not
# build. KEEP=1 leaves the clone (its path is printed).
set -u
[ $# -ge 2 ] || { echo "usage: tests/e2e/before.sh REV CASE..." >&2; exit 2; }
rev=$1
shift
top=$(pwd)
[ -f tests/e2e/run.sh ] || { echo "before.sh: run it from the top of the tree" >&2; exit 2; }
d=$(mktemp -d /tmp/hangar-policy-before.XXXXXX)
chmod 0755 "$d"
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$d"' EXIT
git clone -q --no-hardlinks "$top" "$d/old" &&
	git -C "$d/old" checkout -q --detach "$rev" || exit 2
short=$(git -C "$d/old" rev-parse --short HEAD)
echo "before: building $short in $d/old"
(cd "$d/old" && ./configure >"$d/build.log" 2>&1 && make -j"${JOBS:-2}" >>"$d/build.log" 2>&1) ||
	{ tail -n 20 "$d/build.log"; echo "before: $short does not build" >&2; exit 2; }
rm -rf "$d/old/tests/e2e"
cp -R "$top/tests/e2e" "$d/old/tests/e2e"
passed=0
for c in "$@"; do
	[ -f "$top/tests/e2e/$c/cmd" ] || { echo "$c: no such case"; passed=1; continue; }
	out=$(cd "$d/old" && TESTS=$c sh tests/e2e/run.sh build 2>&1)
	case $out in
	*"E2E_COUNTS 0 1 0"*)
		echo "$c: fails on $short"
		printf '%s\n' "$out" | grep '^[-+]' | grep -v '^--- \|^+++ ' |
			head -n "${LINES_SHOWN:-6}" | sed 's/^/    /'
		;;
	*"E2E_COUNTS 1 0 0"*)
		echo "$c: PASSES on $short: it tests nothing $short lacked"
		passed=1
		;;
	*)
		echo "$c: skipped on $short: $(printf '%s\n' "$out" | grep skipped | sed 's/.*skipped: //')"
		;;
	esac
done
[ "${KEEP:-}" = 1 ] && echo "before: kept $d"
exit $passed
