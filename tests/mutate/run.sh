#!/bin/sh
# tests/mutate/run.sh: mutation testing of the decision path.
#
#   sh tests/mutate/run.sh [ID-GLOB]   apply each mutation listed in
#                                      tests/mutate/*.mut, build it, run the
#                                      unit tests it names, print the score
#   sh tests/mutate/run.sh --check     only check that the list applies
#
# Each mutation is one line of one file changed: the line whose text,
# without its leading and trailing blanks, is `before` (found exactly once
# in the file) becomes `after`, indented as it was. A mutant is killed when
# a unit test it names fails (exit status not 0, a crash, or 120 s without
# finishing); it survives when they all pass. An entry with `equivalent:`
# is a mutant no test can tell from the original, with the reason; it is
# not built, and not counted in the score.
#
# The mutants are built in build-mutate/ (a copy of the tree with its own
# build/), so build/ is never touched; only the mutated file's object, the
# libraries and the named tests are rebuilt for each one. Run from the top of
# the tree (make mutate does). Exit status 0 when every mutation that is not
# equivalent was killed, 1 otherwise, 2 when the list does not apply.
set -u
LC_ALL=C
export LC_ALL
top=$(pwd)
list_dir=tests/mutate
sep=$(printf '\037')

# The list as one record a line: id, file, before, after, tests, why,
# equivalent; fields separated by \037. The line number of each entry's id
# goes first, for messages.
records() {
	awk -v sep="$sep" '
	function flush() {
		if (id != "" || file != "" || before != "" || after != "")
			print line sep id sep file sep before sep after sep tests sep why sep equiv
		id = file = before = after = tests = why = equiv = ""; line = ""
	}
	function val(s) { sub(/^[a-z]+:[ \t]*/, "", s); sub(/[ \t]+$/, "", s); return s }
	FNR == 1 { flush() }
	/^#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		if (line == "") line = FILENAME ":" FNR
		if (/^id:/) id = val($0)
		else if (/^file:/) file = val($0)
		else if (/^before:/) before = val($0)
		else if (/^after:/) after = val($0)
		else if (/^tests:/) tests = val($0)
		else if (/^why:/) why = val($0)
		else if (/^equivalent:/) equiv = val($0)
		else if (/^  /) { s = $0; sub(/^[ \t]+/, "", s); if (equiv != "") equiv = equiv " " s; else why = why " " s }
		else { print "BAD" sep FILENAME ":" FNR sep $0; }
	}
	END { flush() }' "$list_dir"/*.mut
}

# count FILE: how many lines of FILE are $BEFORE, blanks around ignored
count() {
	awk 'function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	     trim($0) == ENVIRON["BEFORE"] { n++ } END { print n + 0 }' "$1"
}

# mutate FILE: FILE with the line $BEFORE replaced by $AFTER
mutate() {
	awk 'function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
	     trim($0) == ENVIRON["BEFORE"] { match($0, /^[ \t]*/); print substr($0, 1, RLENGTH) ENVIRON["AFTER"]; next }
	     { print }' "$1"
}

# Check every entry: complete, unique, its file there, its line there once,
# its tests unit tests that exist. Prints one line per problem.
check_list() {
	records | awk -F "$sep" '$1 == "BAD" { printf "%s: not a key of an entry: %s\n", $2, $3; bad = 1 }
		$1 != "BAD" && seen[$2]++ { printf "%s: id %s is listed twice\n", $1, $2; bad = 1 }
		END { exit bad }' || status=2
	records | grep -v "^BAD$sep" | while IFS=$sep read -r line id file before after tests why equiv; do
		where="$line ($id)"
		for k in id file before after tests; do
			eval "v=\$$k"
			[ -n "$v" ] || echo "$where: no $k"
		done
		[ -n "$why$equiv" ] || echo "$where: no why"
		[ "$before" != "$after" ] || echo "$where: after is the same as before"
		if [ ! -f "$file" ]; then
			echo "$where: no file $file"
			continue
		fi
		n=$(BEFORE=$before count "$file")
		[ "$n" = 1 ] || echo "$where: the line before is found $n times in $file, not once"
		for t in $tests; do
			[ -f "tests/unit/$t.c" ] || echo "$where: no unit test tests/unit/$t.c"
		done
	done
}

status=0
problems=$(check_list)
if [ -n "$problems" ]; then
	printf '%s\n' "$problems" >&2
	echo "the mutation list does not apply" >&2
	exit 2
fi
if [ "${1:-}" = --check ]; then
	echo "every mutation in $list_dir applies"
	exit 0
fi
pattern=${1:-*}

# --- the run ---------------------------------------------------------------
M=$top/build-mutate
mkdir -p "$M/src"
# the tree as it is, times kept, so make rebuilds only what changed since the last run
for d in runtime compiler grammar tests policies; do
	rm -rf "$M/src/$d.new"
	cp -a "$d" "$M/src/$d.new"
	rm -rf "$M/src/$d"
	mv "$M/src/$d.new" "$M/src/$d"
done
cp -p Makefile config.mk configure "$M/src/"
# A mutant may leave a variable or a function unused: warnings are not
# errors here. -Wno-error goes last in EXTRA_CFLAGS, after the Makefile's
# -Werror, with the flags configure put there kept.
noerror="EXTRA_CFLAGS=$(sed -n 's/^EXTRA_CFLAGS *= *//p' "$M/src/config.mk") -Wno-error"
log=$M/log
: >"$log"

all_tests=$(records | grep -v "^BAD$sep" | awk -F "$sep" '$8 == "" { print $6 }' | tr ' ' '\n' | sort -u)
bins=$(for t in $all_tests; do printf 'build/tests/%s ' "$t"; done)
echo "building the unmutated tree in $M/src"
if ! make -C "$M/src" -j2 "$noerror" $bins >>"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "the unmutated tree does not build" >&2
	exit 2
fi
for t in $all_tests; do
	if ! (cd "$M/src" && timeout 300 "build/tests/$t" >>"$log" 2>&1); then
		echo "unit test $t fails on the unmutated tree: fix it first (see $log)" >&2
		exit 2
	fi
done

killed=0 total=0 equivalent=0 survivors=""
records | grep -v "^BAD$sep" >"$M/records"
while IFS=$sep read -r line id file before after tests why equiv; do
	case $id in $pattern) ;; *) continue ;; esac
	if [ -n "$equiv" ]; then
		equivalent=$((equivalent + 1))
		printf '%-36s equivalent: %s\n' "$id" "$equiv"
		continue
	fi
	total=$((total + 1))
	src=$M/src/$file
	cp -p "$src" "$M/orig"
	BEFORE=$before AFTER=$after mutate "$M/orig" >"$src"
	by=""
	bins=$(for t in $tests; do printf 'build/tests/%s ' "$t"; done)
	echo "=== $id: $file: $after" >>"$log"
	if ! make -C "$M/src" -j2 "$noerror" $bins >>"$log" 2>&1; then
		by="(does not build)"
	else
		for t in $tests; do
			if ! (cd "$M/src" && timeout 120 "build/tests/$t" >>"$log" 2>&1); then
				by=$t
				break
			fi
		done
	fi
	# the original back, newer than the mutant's object, so it is rebuilt
	cp "$M/orig" "$src"
	touch "$src"
	case $by in
	"")
		printf '%-36s SURVIVED (%s)\n' "$id" "$tests"
		survivors="$survivors $id"
		;;
	"(does not build)")
		printf '%-36s DOES NOT BUILD: fix its after line\n' "$id"
		survivors="$survivors $id"
		;;
	*)
		printf '%-36s killed by %s\n' "$id" "$by"
		killed=$((killed + 1))
		;;
	esac
done <"$M/records"
# leave the copy's objects as the unmutated tree's
make -C "$M/src" -j2 "$noerror" $(for t in $all_tests; do printf 'build/tests/%s ' "$t"; done) >>"$log" 2>&1

score=100
[ "$total" -gt 0 ] && score=$((killed * 100 / total))
echo "mutate: $killed of $total mutants killed ($score%), $equivalent equivalent not counted;" \
	"survivors:${survivors:- none}"
[ -z "$survivors" ]
