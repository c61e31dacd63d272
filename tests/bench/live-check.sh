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
#   walk    only the system calls the check's scans make (getdents64
#           and one statx per entry, nothing else), on the same trees and
#           directories, in as many processes as the check scans in: its
#           root child the setuid scan (the PATH entries; when the check's
#           recording shows an image-wide scan, setuid_image, every mount
#           without nosuid but the kernel's own filesystems, walked whole
#           without leaving the mount, and the script is told to scan them
#           too: SETUID_MOUNTS), its agent child at the same time each
#           directory writable_entries lists (each once, by device and
#           inode) and each tree tree_writable walks (a tree reached by a
#           second path once, when no link in it leads by path: the
#           check keeps that tree's answer), and root's child
#           also each tree tree_writable_by walks, all read from the
#           recording; and, as the check walks them, the directories a
#           link of a walked tree leads to outside it, each a tree of its
#           own (an /etc/alternatives link to a compiler's library tree),
#           and those of their links again, 8 deep (docs/runtime.md,
#           "Whole trees")
# and it prints each one's median wall time with its spread (10th to 90th
# percentile, min, max) and median CPU time, then both ratios: how many
# times faster the check is than the script, and the check against the
# floor, the larger of sudo alone and the walk; and the bound no check can
# beat on this machine: the CPU time of the two sudo runs a check makes and
# of the walk, spread over every CPU (never below the floor). Needs root.
# Run from the
# top of the tree after `make`:
#   sh tests/bench/live-check.sh [N]
# HP=BINARY measures another build of the check (a static one, from
# ./configure --enable-static, say) against the same script and floor.
# HP_B=BINARY adds a fifth command, check-b, that build's check taken in
# the same alternation, and prints how it compares with the first: two
# builds compared in one run, not in two runs minutes apart.
set -eu
N=${1:-30}
if [ "$N" -lt 20 ]; then
	echo "live-check.sh: at least 20 rounds" >&2
	exit 2
fi
SRC=$(pwd)
HP=${HP:-$SRC/build/hangar-policy}
HP_B=${HP_B:-}
T=$(mktemp -d)
export SRC HP HP_B T N
trap 'rm -rf "$T"' EXIT
cc -O2 -o "$T/alternate" tests/bench/alternate.c
. tests/e2e/lib/sandbox.sh
sandbox_require_root
sandbox_run '
sandbox_setup
"$HP" check --provider docker --record "$T/facts.yaml" >/dev/null || true
# the paths an agent probe was asked about, one a line
asked() {
	awk -v p="$1" "\$0 ~ \"probe: \" p \"\$\" { want = 1; next }
		want && /arg: / { sub(/^ *arg: \"/, \"\"); sub(/\"\$/, \"\"); print; want = 0; next }
		{ want = 0 }" "$T/facts.yaml"
}
if grep -q "setuid_image" "$T/facts.yaml"; then
	# the check scans the whole image: every mount without nosuid but
	# the filesystems of the kernel itself (proc, sysfs...)
	scope=image
	dirs=$(awk "{ opt = \$6; for (i = 7; \$i != \"-\"; i++) ; fs = \$(i + 1)
		if (opt ~ /(^|,)nosuid(,|\$)/) next
		if (fs ~ /^(proc|sysfs|cgroup|cgroup2|devpts|mqueue|securityfs|debugfs|tracefs|bpf|pstore|configfs|fusectl|binfmt_misc|efivarfs|autofs|rpc_pipefs|nsfs|selinuxfs|hugetlbfs)\$/) next
		top[\$5] = 1 } END { for (m in top) print m }" /proc/self/mountinfo | LC_ALL=C sort | tr "\n" " ")
	SETUID_MOUNTS=$dirs
	export SETUID_MOUNTS
	rootjob=$(for d in $dirs; do printf "tree:%s," "$d"; done)
else
	# the directories the check scans: the PATH entries, each directory
	# once (by device and inode: /bin and /usr/bin are one on a merged /usr)
	scope=path
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
	rootjob=$(for d in $dirs; do printf "dir:%s," "$d"; done)
fi
# what the agent child lists and walks, as the check does: each directory
# once, and only what exists
listed=""
seen=""
for d in $(asked writable_entries); do
	[ -d "$d" ] || continue
	id=$(stat -L -c %d:%i "$d")
	case " $seen " in *" $id "*) continue ;; esac
	seen="$seen $id"
	listed="$listed $d"
done
# and each tree it walks, a directory reached again by another path once
# when it holds no link that leads by path (absolute, or with ".."), as
# the check keeps the answer of such a tree
trees=""
seen=""
for d in $(asked tree_writable); do
	[ -e "$d" ] || continue
	if [ -d "$d" ] && ! find "$d" -type l -printf "%l\n" 2>/dev/null | grep -q -e "^/" -e "\.\."; then
		id=$(stat -L -c %d:%i "$d")
		case " $seen " in *" $id "*) continue ;; esac
		seen="$seen $id"
	fi
	trees="$trees $d"
done
# the directories links of the trees in $1 lead to, outside the tree
# the link is in, and theirs again, as deep as the check follows them:
# the check walks each as a tree of its own; here each once (by device
# and inode), and none that is a tree of $1 already
outside() {
	found="" seen_out="" level=$1 depth=0
	for t in $level; do
		[ -e "$t" ] && seen_out="$seen_out $(stat -L -c %d:%i "$t")"
	done
	while [ -n "$level" ] && [ "$depth" -lt 8 ]; do
		next=""
		for t in $level; do
			[ -d "$t" ] || continue
			top=$(readlink -f "$t")
			for l in $(find "$t" -type l -xtype d 2>/dev/null); do
				o=$(readlink -f "$l") || continue
				case "$o/" in "${top%/}/"*) continue ;; esac
				id=$(stat -L -c %d:%i "$o")
				case " $seen_out " in *" $id "*) continue ;; esac
				seen_out="$seen_out $id"
				next="$next $o"
			done
		done
		found="$found$next"
		level=$next
		depth=$((depth + 1))
	done
	printf "%s" "$found"
}
out_agent=$(outside "$trees")
trees="$trees$out_agent"
agentjob=$(for d in $listed; do printf "dir:%s," "$d"; done; for d in $trees; do printf "tree:%s," "$d"; done)
# and what root walks for another user (tree_writable_by USER:PATH)
by=""
for d in $(asked tree_writable_by | sed "s/^[^:]*://"); do
	[ -e "$d" ] && by="$by $d"
done
out_root=$(outside "$by")
for d in $by $out_root; do
	rootjob="${rootjob}tree:$d," && trees="$trees $d"
done
"$HP" check --provider docker >"$T/check.out" || { cat "$T/check.out"; exit 1; }
sh "$SRC/tests/bench/uid-split-check.sh" >"$T/script.out" || { cat "$T/script.out"; exit 1; }
probes=$(grep -c "probe:" "$T/facts.yaml")
if [ "$scope" = image ]; then
	entries=$(for d in $dirs; do find "$d" -xdev 2>/dev/null; done | wc -l)
else
	entries=$(for d in $dirs; do ls -A "$d"; done | wc -l)
fi
listed_entries=$( { for d in $listed; do ls -A "$d"; done; for d in $trees; do find "$d" 2>/dev/null; done; } | wc -l)
echo "processor: $(sed -n "s/^model name[[:space:]]*: //p" /proc/cpuinfo | head -1)," \
	"$(nproc) CPUs; load average before: $(cut -d" " -f1-3 /proc/loadavg)"
echo "setuid scan: $scope; trees or directories scanned: $dirs ($entries entries); probes the check makes: $probes"
echo "agent scans: directories listed:$listed; trees walked:$trees ($listed_entries entries)"
echo "of them, reached by links out of a walked tree:${out_agent:- none} (for root: ${out_root:- none})"
echo "$N rounds, alternating; milliseconds per run"
"$T/alternate" "$N" check "$HP" check --provider docker \
	-- script sh "$SRC/tests/bench/uid-split-check.sh" \
	-- sudo @sudo "$SANDBOX_AGENT_UID" "$SANDBOX_AGENT_UID" \
	-- walk @scan "${rootjob%,}" "${agentjob%,}" \
	${HP_B:+-- check-b "$HP_B" check --provider docker} >"$T/fig"
echo "load average after: $(cut -d" " -f1-3 /proc/loadavg)"
awk -v ncpu="$(nproc)" "
BEGIN { printf \"%-8s %8s %8s %8s %8s %8s %8s\n\", \"\", \"median\", \"p10\", \"p90\", \"min\", \"max\", \"cpu\" }
{ printf \"%-8s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n\", \$1, \$2, \$3, \$4, \$5, \$6, \$7
  m[\$1] = \$2; c[\$1] = \$7; if (\$8 > 0) bad = bad \" \" \$1 }
END {
	floor = m[\"sudo\"] > m[\"walk\"] ? m[\"sudo\"] : m[\"walk\"]
	printf \"floor = max(sudo, walk) = %.2f ms\n\", floor
	printf \"check vs script: %.1fx faster (target: at least 20x)\n\", m[\"script\"] / m[\"check\"]
	printf \"check vs floor:  %.2fx the floor (target: at most 1.5x)\n\", m[\"check\"] / floor
	# what no check can go below here: the two sudo runs it makes and the
	# walk its scans need, their CPU time spread over every CPU at once
	bound = (2 * c[\"sudo\"] + c[\"walk\"]) / ncpu
	if (bound < floor) bound = floor
	printf \"bound = max(floor, (2 x sudo cpu + walk cpu) / %d CPUs) = %.2f ms, %.2fx the floor\n\", ncpu, bound, bound / floor
	if (\"check-b\" in m)
		printf \"check-b vs check: %+.2f ms wall (%.3fx), %+.2f ms CPU\n\", m[\"check-b\"] - m[\"check\"], m[\"check-b\"] / m[\"check\"], c[\"check-b\"] - c[\"check\"]
	if (bad != \"\") { printf \"commands that failed to start:%s\n\", bad; exit 1 }
}" "$T/fig"
'
