# md2man.awk: docs/language.md to the man page hangar-policy(5), at build
# time, so the page is the reference itself and cannot drift from it.
# Handles what the reference uses: # ## ### headings, paragraphs, fenced
# code, "- " lists, pipe tables, `code`, **bold**, *italic*, [text](link).
# Variables: name, section, title, version, date, datadir.

function esc(s) {
	gsub(/\\/, "\\e", s)
	return s
}

# inline markup of one line of running text
function inline(s,    out, i, c, rest, j, code) {
	s = esc(s)
	out = ""
	while ((i = index(s, "`")) > 0) {
		rest = substr(s, i + 1)
		j = index(rest, "`")
		if (j == 0)
			break
		out = out emph(substr(s, 1, i - 1))
		code = substr(rest, 1, j - 1)
		gsub(/-/, "\\-", code)
		out = out "\\fB" code "\\fR"
		s = substr(rest, j + 1)
	}
	out = out emph(s)
	return out
}

function emph(s) {
	while (match(s, /\*\*[^*]+\*\*/))
		s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 2, RLENGTH - 4) "\\fR" substr(s, RSTART + RLENGTH)
	while (match(s, /\*[^* ][^*]*\*/))
		s = substr(s, 1, RSTART - 1) "\\fI" substr(s, RSTART + 1, RLENGTH - 2) "\\fR" substr(s, RSTART + RLENGTH)
	while (match(s, /\[[^]]+\]\([^)]+\)/)) {
		t = substr(s, RSTART + 1, RLENGTH - 2)
		k = index(t, "](")
		s = substr(s, 1, RSTART - 1) substr(t, 1, k - 1) " (" substr(t, k + 2) ")" substr(s, RSTART + RLENGTH)
	}
	return s
}

# a line of text as troff reads it: a leading . or ' is not a request
function text(s) {
	if (s ~ /^[.']/)
		s = "\\&" s
	return s
}

function cell(s) {
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	return inline(s)
}

# the paragraph or list item gathered so far, written as one line
function flush() {
	if (buf == "")
		return
	if (kind == "item")
		print ".IP \\(bu 2"
	else if (!fresh)
		print ".PP"
	print text(inline(buf))
	buf = ""
	fresh = 0
}

function gather(k, s) {
	sub(/^ +/, "", s)
	if (buf != "" && k != "more")
		flush()
	if (k != "more")
		kind = k
	buf = buf (buf == "" ? "" : " ") s
}

BEGIN {
	printf ".TH %s %s \"%s\" \"%s\" \"File Formats\"\n", name, section, date, version
	print ".SH NAME"
	printf "hangar-policy \\- %s\n", title
	print ".SH DESCRIPTION"
	fresh = 1
	fence = 0
	intable = 0
	buf = ""
}

fence {
	if ($0 ~ /^```/) {
		print ".EE"
		print ".RE"
		fence = 0
		next
	}
	print text(esc($0))
	next
}

/^```/ {
	flush()
	if (!fresh)
		print ".PP"
	print ".RS"
	print ".EX"
	fence = 1
	fresh = 0
	next
}

/^# / { next }

/^## / {
	flush()
	print ".SH " toupper(substr($0, 4))
	fresh = 1
	next
}

/^### / {
	flush()
	print ".SS " substr($0, 5)
	fresh = 1
	next
}

/^\|/ {
	flush()
	n = split($0, cells, "|")
	if ($0 ~ /^\| *:?-+/) {
		intable = 2
		next
	}
	if (!intable) {
		# the header row names the columns
		intable = 1
		if (!fresh)
			print ".PP"
		out = ""
		for (i = 2; i < n; i++)
			out = out (out == "" ? "" : " / ") cell(cells[i])
		print text("\\fI" out "\\fR")
		fresh = 0
		next
	}
	print ".TP"
	print text(cell(cells[2]))
	out = ""
	for (i = 3; i < n; i++)
		out = out (out == "" ? "" : "; ") cell(cells[i])
	print text(out)
	next
}

/^- / { intable = 0; gather("item", substr($0, 3)); next }
/^$/ { intable = 0; flush(); kind = ""; next }
/^  / && kind == "item" { gather("more", $0); next }
{ intable = 0; gather(buf == "" ? "para" : "more", $0) }

END {
	flush()
	print ".SH FILES"
	print ".TP"
	printf ".I %s/hangar-policy/policies/\n", datadir
	print "The policies hangar ships, written in this language."
	print ".SH SEE ALSO"
	print ".BR hangar-policy (1),"
	print ".BR hangar-policy-runtime (1)"
}
