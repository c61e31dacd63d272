#!/bin/sh
# live-check.sh [N]: the live check against its floor, in one run. In the
# live tests' private-namespace sandbox (tests/e2e/lib/sandbox.sh: a hangar
# and an agent user, everything in order), four commands run in turn,
# A B C D A B C D ..., N rounds each (default 30, at least 20) after a round
# to warm the caches (tests/bench/alternate.c):
#   check   hangar-policy check --provider docker: the built-in policy, live
#   script  tests/bench/uid-split-check.sh: the same checks as a POSIX sh
#           setup script does them (getent, setpriv, sudo, find, stat)
#   sudo    `sudo -n -k true` alone as the agent: the one exec the check
#           cannot avoid
#   walk    only the system calls the check's setuid scans make (the same
#           directories: getdents64 and one statx per entry), in as many
#           processes as the check scans in (one: its root child); when
#           the check's recording shows an image-wide scan (setuid_image),
#           the same trees: every mount without nosuid but the kernel's
#           own filesystems, walked whole without leaving the mount, and
#           the script is told to scan them too (SETUID_MOUNTS)
# and it prints each one's median wall time with its spread (10th to 90th
# percentile, min, max) and median CPU time, then both ratios: how many
# times faster the check is than the script, and the check against the
# floor, the larger of sudo alone and the walk. Needs root. Run from the
# top of the tree after `make`:
#   sh tests/bench/live-check.sh [N]
set -eu
N=${1:-30}
if [ "$N" -lt 20 ]; then
	echo "live-check.sh: at least 20 rounds" >&2
	exit 2
fi
SRC=$(pwd)
HP=$SRC/build/hangar-policy
T=$(mktemp -d)
export SRC HP T N
trap 'rm -rf "$T"' EXIT
cc -O2 -o "$T/alternate" tests/bench/alternate.c
. tests/e2e/lib/sandbox.sh
sandbox_require_root
sandbox_run '
sandbox_setup
"$HP" check --provider docker --record "$T/facts.yaml" >/dev/null || true
if grep -q "setuid_image" "$T/facts.yaml"; then
	# the check scans the whole image: every mount without nosuid but
	# the filesystems of the kernel itself (proc, sysfs...)
	scope=image
	walk=@tree
	dirs=$(awk "{ opt = \$6; for (i = 7; \$i != \"-\"; i++) ; fs = \$(i + 1)
		if (opt ~ /(^|,)nosuid(,|\$)/) next
		if (fs ~ /^(proc|sysfs|cgroup|cgroup2|devpts|mqueue|securityfs|debugfs|tracefs|bpf|pstore|configfs|fusectl|binfmt_misc|efivarfs|autofs|rpc_pipefs|nsfs|selinuxfs|hugetlbfs)\$/) next
		top[\$5] = 1 } END { for (m in top) print m }" /proc/self/mountinfo | LC_ALL=C sort | tr "\n" " ")
	SETUID_MOUNTS=$dirs
	export SETUID_MOUNTS
else
	# the directories the check scans: the PATH entries, each directory
	# once (by device and inode: /bin and /usr/bin are one on a merged /usr)
	scope=path
	walk=@walk
	dirs=""
	seen=""
	IFS=:
	for d in $SANDBOX_PATH; do
		unset IFS
		[ -d "$d" ] || { IFS=:; continue; }
		id=$(stat -L -c %d:%i "$d")
		case " $seen " in *" $id "*) IFS=:; continue ;; esac
		seen="$seen $id"
		dirs="$dirs $d"
		IFS=:
	done
	unset IFS
fi
"$HP" check --provider docker >"$T/check.out" || { cat "$T/check.out"; exit 1; }
sh "$SRC/tests/bench/uid-split-check.sh" >"$T/script.out" || { cat "$T/script.out"; exit 1; }
probes=$(grep -c "probe:" "$T/facts.yaml")
if [ "$scope" = image ]; then
	entries=$(for d in $dirs; do find "$d" -xdev 2>/dev/null; done | wc -l)
else
	entries=$(for d in $dirs; do ls -A "$d"; done | wc -l)
fi
echo "processor: $(sed -n "s/^model name[[:space:]]*: //p" /proc/cpuinfo | head -1)," \
	"$(nproc) CPUs; load average before: $(cut -d" " -f1-3 /proc/loadavg)"
echo "setuid scan: $scope; trees or directories scanned: $dirs ($entries entries); probes the check makes: $probes"
echo "$N rounds, alternating; milliseconds per run"
"$T/alternate" "$N" check "$HP" check --provider docker \
	-- script sh "$SRC/tests/bench/uid-split-check.sh" \
	-- sudo @sudo "$SANDBOX_AGENT_UID" "$SANDBOX_AGENT_UID" \
	-- walk $walk 1 $dirs >"$T/fig"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
awk "
BEGIN { printf \"%-8s %8s %8s %8s %8s %8s %8s\n\", \"\", \"median\", \"p10\", \"p90\", \"min\", \"max\", \"cpu\" }
{ printf \"%-8s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n\", \$1, \$2, \$3, \$4, \$5, \$6, \$7
  m[\$1] = \$2; if (\$8 > 0) bad = bad \" \" \$1 }
END {
	floor = m[\"sudo\"] > m[\"walk\"] ? m[\"sudo\"] : m[\"walk\"]
	printf \"floor = max(sudo, walk) = %.2f ms\n\", floor
	printf \"check vs script: %.1fx faster (target: at least 20x)\n\", m[\"script\"] / m[\"check\"]
	printf \"check vs floor:  %.2fx the floor (target: at most 1.5x)\n\", m[\"check\"] / floor
	if (bad != \"\") { printf \"commands that failed to start:%s\n\", bad; exit 1 }
}" "$T/fig"
'
