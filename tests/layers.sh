#!/bin/sh
# tests/layers.sh [TOP]: checks every `#include "..."` of runtime/, compiler/
# and grammar/ against the layers of the source tree (docs/HACKING.md, "The
# map"). Prints one line per include the layers forbid and per cycle between
# folders, then "layers: ok" or "layers: N problems"; exits 1 on any problem.
#
# The parts, lowest first; a part may include its own folder and the parts
# below it, nothing above or beside it:
#
#   lib < model < vm < os < etc < probe < check < compiler
#
# etc/sudoers is a folder of the part etc: it has etc's rank, so etc/ and
# etc/sudoers/ may include each other as far as rank goes, and the cycle check
# keeps it one way (the sudoers readers use etc/'s readers, never the
# reverse). A runtime file names the folder of what it includes
# ("os/safe_path.h"), so its place in the layers is visible where it is used;
# a bare name, a "../", or a file that does not exist is a problem too.
# compiler/ and grammar/ (the compiler's lexer and parser) sit above the whole
# runtime: they may include any of it, their own headers and the parser
# header bison generates; the runtime may include none of them (it links no
# compiler code). tests/ may include anything and is not read.
set -u
top=${1:-.}
cd "$top" || exit 2
for d in runtime compiler grammar; do
	[ -d "$d" ] || { echo "layers: no $d/ under $top" >&2; exit 2; }
done

# The folders that hold files, with the part each belongs to.
folders=$(find runtime compiler grammar -type f \( -name '*.[ch]' -o -name '*.def' -o -name '*.re' \
	-o -name '*.y' \) | sed 's|/[^/]*$||' | LC_ALL=C sort -u)
files=$(find runtime compiler grammar -type f \( -name '*.[ch]' -o -name '*.def' -o -name '*.re' \
	-o -name '*.y' \) | LC_ALL=C sort)
existing=$(find runtime compiler grammar -type f | LC_ALL=C sort)

# shellcheck disable=SC2086
LC_ALL=C awk -v folders="$folders" -v existing="$existing" '
BEGIN {
	n = split("lib model vm os etc probe check compiler", order, " ")
	for (i = 1; i <= n; i++) rank[order[i]] = i
	nf = split(folders, fl, "\n")
	for (i = 1; i <= nf; i++) {
		f = fl[i]
		if (f == "runtime") {
			printf "runtime/: files at its top; each belongs in the folder of its part\n"
			problems++
			continue
		}
		if (f ~ /^runtime\//) {
			d = substr(f, 9)
			p = d; sub(/\/.*/, "", p)
		} else {
			d = f; p = "compiler"
		}
		if (!(p in rank)) {
			printf "%s/: a folder of no part (the parts: lib model vm os etc probe check)\n", f
			problems++
			continue
		}
		part[d] = p
	}
	ne = split(existing, el, "\n")
	for (i = 1; i <= ne; i++) exists[el[i]] = 1
	# what each part may include, for the messages
	for (i = 1; i <= n; i++) {
		s = order[1]
		for (j = 2; j <= i; j++) s = s ", " order[j]
		allowed[order[i]] = s
	}
	generated["parser.h"] = 1
}
FNR == 1 {
	file = FILENAME
	if (file ~ /^runtime\//) {
		fdir = substr(file, 9); sub(/\/[^\/]*$/, "", fdir)
	} else {
		fdir = file; sub(/\/[^\/]*$/, "", fdir)
	}
	fpart = (fdir in part) ? part[fdir] : ""
}
# <...> is for the headers of the system: one of ours there would escape the
# rules below, so it is a problem of its own
/^[ \t]*#[ \t]*include[ \t]*</ {
	if (fpart == "") next
	inc = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*</, "", inc)
	sub(/>.*/, "", inc)
	if ((("runtime/" inc) in exists) || (("compiler/" inc) in exists) || (inc in exists)) {
		printf "%s:%d: #include <%s>: a header of this tree; write \"%s\"\n", file, FNR, inc, inc
		problems++
	}
	next
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	if (fpart == "") next
	inc = $0
	sub(/^[ \t]*#[ \t]*include[ \t]*"/, "", inc)
	sub(/".*/, "", inc)
	where = file ":" FNR ": #include \"" inc "\""
	if (inc ~ /(^|\/)\.\.?\//) {
		printf "%s: a relative path; name the folder from runtime/ instead\n", where
		problems++
		next
	}
	if (inc ~ /^runtime\//) {
		rest = inc; sub(/^runtime\//, "", rest)
		printf "%s: names runtime/; write \"%s\"\n", where, rest
		problems++
		next
	}
	tdir = inc; sub(/\/?[^\/]*$/, "", tdir)
	if (tdir != "" && (tdir in part) && ("runtime/" inc) in exists) {
		tpart = part[tdir]
	} else if (fpart == "compiler" && (tdir == "" || tdir ~ /^(compiler|grammar)(\/|$)/)) {
		# the compiler: its own files by name, or the parser header bison writes
		if ((fdir "/" inc) in exists) {
			tdir = fdir
		} else if (inc in exists) {
			# a path from the top (-I.)
		} else if (("compiler/" inc) in exists) {
			tdir = "compiler"
		} else if (inc in generated) {
			tdir = fdir
		} else {
			tdir = "?"
		}
		if (tdir != "?") {
			tpart = "compiler"
		} else {
			printf "%s: no such file in %s/\n", where, fdir
			problems++
			next
		}
	} else if (tdir == "" && fpart != "compiler") {
		printf "%s: names no folder; write the part it lives in (\"PART/%s\")\n", where, inc
		problems++
		next
	} else if (fpart != "compiler" && (tdir ~ /^(compiler|grammar)(\/|$)/ || \
	    ("compiler/" inc) in exists)) {
		printf "%s: the runtime includes the compiler (it links no compiler code)\n", where
		problems++
		next
	} else {
		printf "%s: no such file under runtime/\n", where
		problems++
		next
	}
	if (rank[tpart] > rank[fpart]) {
		printf "%s reaches up: %s may include %s\n", where, fdir, allowed[fpart]
		problems++
		next
	}
	if (tdir != fdir && tdir != "") {
		if (!((fdir, tdir) in edge)) {
			edge[fdir, tdir] = where
			succ[fdir] = succ[fdir] " " tdir
		}
	}
}
# A cycle between folders: depth-first search over the folder graph, in a
# fixed order so the message is the same every time.
function visit(d,    k, m, s, t) {
	color[d] = 1
	stack[++depth] = d
	m = split(succ[d], s, " ")
	for (k = 1; k <= m; k++) {
		t = s[k]
		if (color[t] == 1) {
			report_cycle(t)
		} else if (color[t] == 0) {
			visit(t)
		}
	}
	depth--
	color[d] = 2
}
function report_cycle(t,    k, from, path, first) {
	for (from = depth; from > 0 && stack[from] != t; from--) ;
	path = ""
	for (k = from; k <= depth; k++) path = path stack[k] " -> "
	path = path t
	printf "a cycle between folders: %s\n", path
	for (k = from; k <= depth; k++) {
		first = (k < depth) ? stack[k + 1] : t
		printf "  %s\n", edge[stack[k], first]
	}
	problems++
}
END {
	nd = 0
	for (d in part) dl[++nd] = d
	# insertion sort: a handful of folders
	for (i = 2; i <= nd; i++) {
		v = dl[i]
		for (j = i - 1; j > 0 && dl[j] > v; j--) dl[j + 1] = dl[j]
		dl[j + 1] = v
	}
	for (i = 1; i <= nd; i++) if (color[dl[i]] == 0) visit(dl[i])
	if (problems) {
		printf "layers: %d problem%s\n", problems, problems == 1 ? "" : "s"
		exit 1
	}
	print "layers: ok"
}
' $files
