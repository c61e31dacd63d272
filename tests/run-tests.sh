#!/bin/sh
# run-tests.sh BUILD UNIT_TEST...: runs every cmocka unit test and every
# end-to-end case, then prints one line "N passed, N failed, N skipped".
# Exit status 1 when anything failed. TESTS=glob limits which run.
set -u
B=$1
shift
pass=0 fail=0 skip=0
failed_names=""
pattern=${TESTS:-*}

for t in "$@"; do
	name=$(basename "$t")
	case $name in $pattern) ;; *) continue ;; esac
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$t" 2>&1)
	rc=$?
	p=$(printf '%s\n' "$out" | grep -c '^ok .*' )
	s=$(printf '%s\n' "$out" | grep -c '^ok .*# SKIP' )
	f=$(printf '%s\n' "$out" | grep -c '^not ok ')
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# crashed or exited early: the whole binary counts as one failure
		f=1
	fi
	if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then
		printf '%s\n' "$out" | sed "s|^|  $name: |" | grep -v ': ok ' >&2
		failed_names="$failed_names $name"
	fi
	printf '%-40s %3d passed, %d failed, %d skipped\n' "unit/$name" "$p" "$f" "$s"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
done

# Every fuzz harness replays its seed corpus: one test per harness.
for t in "$B"/fuzz-replay/fuzz_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	case $name in $pattern) ;; *) continue ;; esac
	corpus=tests/fuzz/corpus/${name#fuzz_}
	if [ ! -d "$corpus" ]; then
		echo "fuzz/$name: no seed corpus at $corpus" >&2
		fail=$((fail + 1)) failed_names="$failed_names $name"
		continue
	fi
	if out=$("$t" "$corpus" 2>&1); then
		printf '%-40s %s\n' "fuzz/$name" "$(printf '%s\n' "$out" | tail -n 1)"
		pass=$((pass + 1))
	else
		printf '%s\n' "$out" | tail -n 30 >&2
		fail=$((fail + 1)) failed_names="$failed_names $name"
	fi
done

# The e2e lines go out as each case finishes; the last one carries the counts.
counts_file=$(mktemp)
sh tests/e2e/run.sh "$B" | while IFS= read -r line; do
	case $line in
	"E2E_COUNTS "*) printf '%s\n' "$line" >"$counts_file" ;;
	*) printf '%s\n' "$line" ;;
	esac
done
counts=$(cat "$counts_file")
rm -f "$counts_file"
if [ -z "$counts" ]; then
	echo "e2e runner did not finish" >&2
	fail=$((fail + 1))
else
	set -- $counts
	pass=$((pass + $2)) fail=$((fail + $3)) skip=$((skip + $4))
fi

[ -n "$failed_names" ] && echo "failed unit tests:$failed_names" >&2
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
