#!/bin/sh
# fleet.sh [TOTAL] [AT_ONCE]: a fleet of live checks on one machine. TOTAL
# checks (default 1000), AT_ONCE at a time (default 100), each in a sandbox
# of its own: a private mount and pid namespace set up as the live tests'
# (tests/e2e/lib/sandbox.sh), with private /tmp, /var/tmp, /dev/shm and
# /run. Even-numbered sandboxes are in order; each odd-numbered one has one
# violation, taken in turn from the list below. For every check it verifies
#   - the decision: the exit status for ask turns and exactly the rules
#     expected to fail (none in order);
#   - nothing left running: no process in the sandbox's pid namespace but
#     the sandbox's own shell once the check has returned;
#   - no file left behind: the sandbox's writable trees (/etc's copy,
#     /var/lib, /home, /usr/local, /tmp, /var/tmp, /dev/shm, /run) list the
#     same entries, with the same modes, owners and sizes, after the check
#     as before it, /run/sudo included: the check runs sudo with -k, which
#     neither reads nor writes sudo's timestamp records (what sudo writes
#     there, /run/sudo/ts/agent, is counted and reported apart as well,
#     and makes the check's verdict wrong);
# and prints the throughput (checks a second over the whole run), the
# 50th and 99th percentiles of a check's wall time and of a whole sandbox's
# (setup, check, verification), and every failure. Needs root. Run from the
# top of the tree after `make` (it is heavy: every sandbox copies /etc):
#   sh tests/bench/fleet.sh [TOTAL] [AT_ONCE]
set -eu
TOTAL=${1:-1000}
AT_ONCE=${2:-100}
SRC=$(pwd)
HP=$SRC/build/hangar-policy
JP=$SRC/build/tools/json-paths
if [ ! -x "$HP" ] || [ ! -x "$JP" ]; then
	echo "fleet.sh: run make (and make check's tools) first" >&2
	exit 2
fi
[ "$(id -u)" = 0 ] || { echo "fleet.sh: needs root" >&2; exit 2; }
D=$(mktemp -d "$SRC/build/fleet.XXXXXX") # not under /tmp: each sandbox mounts its own
trap 'rm -rf "$D"' EXIT
cc -O2 -o "$D/timed" tests/bench/timed.c
export SRC HP JP D

# One violation per line: the rules expected to fail (sorted, space
# separated), a tab, the commands that make it. A PATH directory the agent
# can write holds the harness's own executable too (claude in
# /usr/local/bin), so harness-settings fails with it; an agent-owned file
# in /etc fails system-files, which holds all of /etc to root, too.
cat >"$D/violations" <<'EOF'
agent-no-sudo	echo "agent ALL=(ALL) NOPASSWD: ALL" >/etc/sudoers.d/agent; chmod 440 /etc/sudoers.d/agent
harness-settings path-not-agent-writable	chmod 0777 /usr/local/bin
agent-no-setuid	cp /bin/true /usr/local/bin/helper; chmod 04755 /usr/local/bin/helper
hangar-dirs	chmod 0755 /var/lib/hangar-ctl
harness-settings system-files	chown 1000:1000 /etc/claude-code/managed-settings.json
agent-no-privileged-group agent-no-sudo	sed -i "s/^sudo:x:27:.*/sudo:x:27:agent/" /etc/group
EOF
NVIOL=$(wc -l <"$D/violations")
export NVIOL

# one sandbox: prints "I KIND check_ms sandbox_ms VERDICT [what went wrong]"
cat >"$D/one.sh" <<'EOF'
i=$1
start=$(date +%s%N)
T=$D/s$i
mkdir "$T"
export T
if [ $((i % 2)) -eq 0 ]; then
	kind=ok want="" setup=":"
else
	line=$(sed -n "$(( (i / 2) % NVIOL + 1 ))p" "$D/violations")
	want=${line%%	*} setup=${line#*	}
	kind=violation
fi
SANDBOX_SETUP_EXTRA=$setup unshare -m -p -f --mount-proc --propagation private sh -c '
	. "$SRC/tests/e2e/lib/sandbox.sh"
	sandbox_setup >/dev/null 2>&1 || { echo "sandbox setup failed"; exit 0; }
	# /run as an image has it, root'"'"'s 0755 (a 1777 /run lets the agent
	# answer for nscd'"'"'s socket: system-files fails there, rightly)
	for m in /tmp /var/tmp /dev/shm; do mount -t tmpfs -o mode=1777 fleet "$m"; done
	mount -t tmpfs -o mode=0755 fleet /run
	install -d -m 1777 /run/lock
	eval "$SANDBOX_SETUP_EXTRA"
	snap() { find /etc /var/lib /home /usr/local /tmp /var/tmp /dev/shm /run -xdev \
		-printf "%p %m %u %g %s %y\n" 2>/dev/null | LC_ALL=C sort; }
	snap >"$T/before"
	out=$("$D/timed" "$HP" check --provider docker --format json 3>"$T/ms")
	status=$?
	procs=$(ps -e -o pid=,comm=)
	snap >"$T/after"
	left=$(printf "%s\n" "$procs" | awk "\$1 != 1 && \$2 != \"ps\"" | wc -l)
	failing=$(printf "%s\n" "$out" >"$T/r.json"; "$JP" values "$T/r.json" |
		awk "\$1 == \".rules[].id\" { id = \$2 }
			\$1 == \".rules[].result\" && \$2 != \"pass\" { print id \"(\" \$2 \")\" }" |
		LC_ALL=C sort | paste -sd" " -)
	diff "$T/before" "$T/after" | grep "^[<>]" | grep -v "^[<>] /run [0-9]" >"$T/changed"
	files=$(grep -vc "^> /run/sudo[ /]" "$T/changed" || true)
	sudo_ts=$(grep -c "^> /run/sudo[ /]" "$T/changed" || true)
	[ -n "${FLEET_DEBUG:-}" ] && cat "$T/changed" >&2
	echo "status=$status failing=[$failing] left=$left files=$files sudo_ts=$sudo_ts"
' >"$T/r" 2>&1 || true
end=$(date +%s%N)
r=$(cat "$T/r")
ms=$(cat "$T/ms" 2>/dev/null || echo 0)
exp_failing=$(for id in $want; do printf "%s(fail) " "$id"; done | sed 's/ $//')
exp_status=0
[ "$kind" = violation ] && exp_status=1
# the check's sudo runs (-k) leave no timestamp record in /run/sudo/ts
expect="status=$exp_status failing=[$exp_failing] left=0 files=0 sudo_ts=0"
verdict=right
[ "$r" = "$expect" ] || verdict="WRONG: got '$r', expected '$expect'"
ts=${r##*sudo_ts=}
case $ts in *[!0-9]* | "") ts=0 ;; esac
echo "$i $kind $ms $(( (end - start) / 1000000 )) $ts $verdict"
rm -rf "$T"
EOF

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
echo "processor: $cpu, $(nproc) CPUs;" \
	"load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$TOTAL checks, $AT_ONCE at a time, half of them with one violation each"
t0=$(date +%s%N)
seq 0 $((TOTAL - 1)) | xargs -P "$AT_ONCE" -n 1 sh "$D/one.sh" >"$D/results"
t1=$(date +%s%N)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
left_after=$(ls "$D" | grep -c '^s[0-9]' || true)
awk -v total="$TOTAL" -v secs="$(( (t1 - t0) / 1000000 ))" -v stray="$left_after" '
{
	n++; c[n] = $3; s[n] = $4; ts += ($5 > 0)
	if ($6 != "right") { bad++; print "  " $0 } else right++
}
function isort(a, k,   i, j, v) {
	for (i = 2; i <= k; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]
		a[j + 1] = v
	}
}
function pct(a, k, q,   i) { i = int(q * (k - 1) + 0.5) + 1; return a[i] }
END {
	isort(c, n)
	isort(s, n)
	printf "%d of %d checks reported; %d decisions right, %d wrong; %d sandbox directories left\n",
		n, total, right, bad, stray
	printf "sandboxes where sudo recorded the agent in /run/sudo/ts: %d\n", ts
	printf "whole run %.1f s: %.1f checks a second\n", secs / 1000, n / (secs / 1000)
	printf "check wall time:   p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		pct(c, n, 0.5), pct(c, n, 0.99), c[n]
	printf "sandbox wall time: p50 %.0f ms, p99 %.0f ms (setup, check, verification)\n",
		pct(s, n, 0.5), pct(s, n, 0.99)
	exit (n != total || bad > 0 || stray > 0)
}' "$D/results"
