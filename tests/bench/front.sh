#!/bin/sh
# front.sh [LINES]: the front end benchmark. Generates a policy of LINES
# lines (default 1,000,000) in the sketch's shape and lints it, reporting
# lines a second and peak memory against the file's size. Not a test: run
# it by hand on a quiet machine (docs/performance.md, "Front end").
#   sh tests/bench/front.sh [LINES]
set -eu
LINES=${1:-1000000}
HP=${HP:-build/hangar-policy}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
awk -v LINES="$LINES" -f tests/bench/front_gen.awk > "$dir/big.hpol"
lines=$(wc -l < "$dir/big.hpol")
bytes=$(wc -c < "$dir/big.hpol")
"$HP" lint "$dir/big.hpol" >/dev/null 2>&1 || true # warm the page cache
best=""
for run in 1 2 3; do
	/usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$HP" lint "$dir/big.hpol" 2>"$dir/err" || {
		head -5 "$dir/err"; echo "lint failed" >&2; exit 1; }
	set -- $(cat "$dir/time")
	if [ -z "$best" ] || awk -v a="$1" -v b="$best" 'BEGIN { exit !(a < b) }'; then
		best=$1 cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { print u + s }') kb=$4
	fi
done
awk -v l="$lines" -v b="$bytes" -v s="$best" -v c="$cpu" -v kb="$kb" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
	if (s < 0.001) s = 0.001
	if (c < 0.001) c = 0.001
	printf "lines %d, bytes %d (load average %s)\n", l, b, load
	printf "best of 3: %.3f s wall, %.0f lines/s, %.1f MB/s\n", s, l / s, b / s / 1e6
	printf "that run used %.3f s of CPU (user + system): %.0f lines per CPU second\n", c, l / c
	printf "peak RSS %.1f MiB = %.2f x the file size\n", kb / 1024, kb * 1024 / b
}'
