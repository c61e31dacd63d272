#!/bin/sh
# tests/e2e/run.sh BUILD: runs every end-to-end case and compares what it
# prints with its golden files.
#
# A case is a directory under tests/e2e/ holding a file named `cmd`, a sh
# script run from the case directory with:
#   HP   the built hangar-policy       HPR  the built hangar-policy-runtime
#   SRC  the repository's top          B    the build directory
#   T    a fresh empty directory, removed afterwards
#   TOOLS  the test programs built from tests/tools/ (deny-syscalls...)
# Its stdout is compared with `expected.out`, its stderr with `expected.err`
# and its exit status with `expected.status` (a missing file means: empty
# output, exit status 0). A case that exits 77 is skipped; its first line of
# stderr says why (for example "needs root"). UPDATE_GOLDEN=1 rewrites the
# golden files from what the cases print. TESTS=glob limits which cases run.
# A case gets 600 s, or the seconds its file `time-limit` holds.
#
# Each case prints one line as it finishes (ok, skipped with the reason, or
# FAIL after its differences). Cases run the programs as other users (the
# agent, hangar, nobody); when the build directory is not reachable by them
# (a checkout under a 0700 home directory), the programs are copied into a
# directory they can reach and HP, HPR and TOOLS point there.
set -u
B=$(cd "$1" && pwd)
SRC=$(pwd)
pattern=${TESTS:-*}
pass=0 fail=0 skip=0

# reachable DIR: every directory from / to DIR can be searched by others
reachable() {
	d=$1
	while [ -n "$d" ] && [ "$d" != / ]; do
		case $(stat -L -c %A "$d" 2>/dev/null) in
		?????????[xt]) ;;
		*) return 1 ;;
		esac
		d=$(dirname "$d")
	done
}
# The report names where the built-in policy's source is installed, which
# depends on configure's --prefix: outputs say $POLICYDIR instead.
POLICYDIR=$(sed -n 's/^const char hp_default_policy_source\[\] = "\(.*\)\/default\.hpol";$/\1/p' \
	"$B/gen/default_policy.c" 2>/dev/null)
# The checkout's own path (the report names the policy file) is $SRC.
normalise() { # file
	if [ -n "$POLICYDIR" ]; then
		sed "s|$POLICYDIR|\$POLICYDIR|g; s|$SRC/|\$SRC/|g" "$1" >"$1.n"
	else
		sed "s|$SRC/|\$SRC/|g" "$1" >"$1.n"
	fi
	mv "$1.n" "$1"
}
BIN=$B
stage=""
if ! reachable "$B"; then
	stage=$(mktemp -d /tmp/hangar-policy-e2e.XXXXXX)
	trap 'rm -rf "$stage"' EXIT
	trap 'exit 130' INT TERM
	chmod 0755 "$stage"
	cp -p "$B/hangar-policy" "$B/hangar-policy-runtime" "$stage/"
	[ -d "$B/tools" ] && cp -Rp "$B/tools" "$stage/tools"
	chmod -R go+rX "$stage"
	BIN=$stage
	echo "e2e: $B cannot be reached by other users; the cases run the programs from $stage"
fi

# A case must not write into the source tree: its scratch space is $T.
tree_state() { git status --porcelain --untracked-files=all -- tests 2>/dev/null; }
tree_before=$(tree_state)

cases=$(find tests/e2e -name cmd -type f | sed 's|/cmd$||' | LC_ALL=C sort)
for dir in $cases; do
	name=${dir#tests/e2e/}
	case $name in $pattern) ;; *) continue ;; esac
	T=$(mktemp -d)
	# a case that runs others (a file named time-limit: its seconds) may
	# take longer than the 600 s one case gets
	limit=600
	[ -f "$dir/time-limit" ] && limit=$(cat "$dir/time-limit")
	(
		cd "$dir" &&
			HP=$BIN/hangar-policy HPR=$BIN/hangar-policy-runtime SRC=$SRC B=$B T=$T TOOLS=$BIN/tools POLICYDIR=$POLICYDIR NO_COLOR=1 LC_ALL=C \
				timeout "$limit" sh ./cmd >"$T.out" 2>"$T.err" </dev/null
	)
	rc=$?
	normalise "$T.out"
	normalise "$T.err"
	if [ "$rc" -eq 77 ]; then
		printf 'e2e/%-36s skipped: %s\n' "$name" "$(head -n 1 "$T.err")"
		skip=$((skip + 1))
		rm -rf "$T" "$T.out" "$T.err"
		continue
	fi
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		if [ -s "$T.out" ]; then cp "$T.out" "$dir/expected.out"; else rm -f "$dir/expected.out"; fi
		if [ -s "$T.err" ]; then cp "$T.err" "$dir/expected.err"; else rm -f "$dir/expected.err"; fi
		if [ "$rc" -ne 0 ]; then echo "$rc" >"$dir/expected.status"; else rm -f "$dir/expected.status"; fi
	fi
	ok=1
	want_status=0
	[ -f "$dir/expected.status" ] && want_status=$(cat "$dir/expected.status")
	for stream in out err; do
		if [ -f "$dir/expected.$stream" ]; then
			exp=$dir/expected.$stream
		else
			exp=/dev/null
		fi
		if ! cmp -s "$exp" "$T.$stream"; then
			ok=0
			echo "--- e2e/$name: std$stream differs (expected vs actual):"
			diff -u "$exp" "$T.$stream" | head -n 60
		fi
	done
	if [ "$rc" -ne "$want_status" ]; then
		ok=0
		echo "--- e2e/$name: exit status $rc, expected $want_status"
	fi
	if [ $ok -eq 1 ]; then
		pass=$((pass + 1))
		printf 'e2e/%-36s ok\n' "$name"
	else
		fail=$((fail + 1))
		echo "FAIL e2e/$name"
	fi
	rm -rf "$T" "$T.out" "$T.err"
done
if [ "${UPDATE_GOLDEN:-}" != 1 ] && [ "$(tree_state)" != "$tree_before" ]; then
	echo "--- e2e: the cases changed files under tests/ (they must write only to \$T):"
	tree_state
	fail=$((fail + 1))
fi
echo "e2e: $pass passed, $fail failed, $skip skipped"
echo "E2E_COUNTS $pass $fail $skip"
