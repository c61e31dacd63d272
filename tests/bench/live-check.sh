#!/bin/sh
# live-check.sh [N]: measures a live check of the built-in policy against
#   - tests/bench/uid-split-check.sh, the same checks as a sh setup script
#     (coreutils, getent, sudo, setpriv), and
#   - tests/bench/raw_probes.c, only the raw system calls those checks need,
# each run N times (default 20) in the same private-namespace sandbox as the
# live tests (tests/e2e/lib/sandbox.sh): a hangar user, an agent user,
# everything in order. Prints milliseconds per run, the ratios, and probes
# per second (the probes a check makes, from its --record). Needs root.
# Run from the top of the tree after `make`.
set -eu
N=${1:-20}
SRC=$(pwd)
HP=$SRC/build/hangar-policy
T=$(mktemp -d)
export SRC HP T N
trap 'rm -rf "$T"' EXIT
cc -O2 -o "$T/raw_probes" tests/bench/raw_probes.c
. tests/e2e/lib/sandbox.sh
sandbox_require_root
sandbox_run '
sandbox_setup
ms() { # command...: mean wall milliseconds over N runs
	s=$(date +%s%N)
	i=0
	while [ $i -lt "$N" ]; do "$@" >/dev/null 2>&1 || true; i=$((i + 1)); done
	e=$(date +%s%N)
	awk -v s="$s" -v e="$e" -v n="$N" "BEGIN { printf \"%.2f\", (e - s) / 1e6 / n }"
}
"$HP" check --provider docker --record "$T/facts.yaml" >/dev/null
probes=$(grep -c "probe:" "$T/facts.yaml")
check=$(ms "$HP" check --provider docker)
script=$(ms sh "$SRC/tests/bench/uid-split-check.sh")
raw=$("$T/raw_probes" "$N" 1000 999 "$SANDBOX_PATH")
echo "hangar-policy check (built-in policy): $check ms"
echo "sh setup script:                       $script ms"
echo "raw system calls only:                 $raw ms"
echo "probes made by the check:              $probes"
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
echo "check vs script:  $(calc %.1f "$script / $check")x faster"
echo "check vs raw:     $(calc %.2f "$check / $raw")x the raw time"
echo "probes per second: check $(calc %d "$probes * 1000 / $check"), raw $(calc %d "$probes * 1000 / $raw")"
'
