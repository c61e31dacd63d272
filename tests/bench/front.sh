#!/bin/sh
# front.sh [LINES]: the front end benchmark. Generates a policy of LINES
# lines (default 1,000,000) in the sketch's shape and lints it, reporting
# lines a second and peak memory against the file's size; then the same
# for a tenth of LINES, and how many times longer the whole file took (the
# front end is linear when that is close to 10). Wall times are the best
# of three runs, each timed to the microsecond from outside
# (tests/bench/timed.c); CPU time and peak memory come from one more run
# under /usr/bin/time. Not a test: run it by hand on a quiet machine
# (docs/performance.md, "Front end").
#   sh tests/bench/front.sh [LINES]
set -eu
LINES=${1:-1000000}
HP=${HP:-build/hangar-policy}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cc -O2 -o "$dir/timed" tests/bench/timed.c

# measure N: lint a policy of N lines; sets lines, bytes, best (s), cpu (s), kb
measure() {
	awk -v LINES="$1" -f tests/bench/front_gen.awk > "$dir/big.hpol"
	lines=$(wc -l < "$dir/big.hpol")
	bytes=$(wc -c < "$dir/big.hpol")
	"$HP" lint "$dir/big.hpol" >/dev/null 2>&1 || true # warm the page cache
	best=""
	for run in 1 2 3; do
		"$dir/timed" "$HP" lint "$dir/big.hpol" >/dev/null 2>"$dir/err" 3>"$dir/ms" || {
			head -5 "$dir/err"; echo "lint failed" >&2; exit 1; }
		s=$(awk '{ print $1 / 1000 }' "$dir/ms")
		if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$s
		fi
	done
	/usr/bin/time -f "%U %S %M" -o "$dir/time" "$HP" lint "$dir/big.hpol" >/dev/null 2>&1 || true
	set -- $(cat "$dir/time")
	cpu=$(awk -v u="$1" -v s="$2" 'BEGIN { print u + s }')
	kb=$3
}

report() {
	awk -v l="$lines" -v b="$bytes" -v s="$best" -v c="$cpu" -v kb="$kb" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
		if (c < 0.001) c = 0.001
		printf "lines %d, bytes %d (load average %s)\n", l, b, load
		printf "best of 3: %.4f s wall, %.0f lines/s, %.1f MB/s\n", s, l / s, b / s / 1e6
		printf "one more run used %.2f s of CPU (user + system, at the 10 ms grain of /usr/bin/time)\n", c
		printf "peak RSS %.1f MiB = %.2f x the file size\n", kb / 1024, kb * 1024 / b
	}'
}

measure "$LINES"
report
big=$best
small_lines=$((LINES / 10))
if [ "$small_lines" -ge 1000 ]; then
	measure "$small_lines"
	report
	awk -v a="$big" -v b="$best" -v n="$LINES" -v m="$small_lines" 'BEGIN {
		printf "linear: %d lines took %.2fx the time of %d (target: at most 11x)\n", n, a / b, m
	}'
fi
