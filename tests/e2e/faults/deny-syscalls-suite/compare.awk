# compare.awk EXPECTED ACTUAL: whether a case's output under fault
# injection is the same as its golden output, or differs only by rule
# results that became errors (unknown is allowed, a different verdict is
# not). Prints "same", "unknown: RULE..." or "wrong" with the lines that
# differ. A rule line is "  RESULT ID: title"; its evidence line, the pass
# count and the decision may change only along with a rule that became an
# error.
function rule(line) {
	return line ~ /^  (pass|fail|error|skipped) +[a-z0-9-]+: /
}
FNR == 1 { file++ }
{
	if (rule($0)) {
		split($0, w, " ")
		id = w[2]
		sub(/:$/, "", id)
		res[file, id] = w[1]
		ids[id] = 1
		last_rule = 1
		next
	}
	if (last_rule && $0 ~ /^ +evidence: /) {
		last_rule = 0
		next
	}
	last_rule = 0
	if ($0 ~ /^[0-9]+ of [0-9]+ rules passed\.$/ || $0 ~ /^decision for /) {
		soft[file] = soft[file] "\n" $0
		next
	}
	n[file]++
	text[file, n[file]] = $0
}
END {
	wrong = 0
	unk = ""
	for (id in ids) {
		a = ((1, id) in res) ? res[1, id] : "pass"
		b = ((2, id) in res) ? res[2, id] : "pass"
		if (a == b)
			continue
		if (b == "error")
			unk = unk " " id
		else {
			wrong = 1
			print "rule " id ": " a " became " b
		}
	}
	if (n[1] != n[2])
		wrong = 1
	for (i = 1; i <= n[1]; i++)
		if (text[1, i] != text[2, i]) {
			wrong = 1
			print "line " i ": \"" text[1, i] "\" became \"" text[2, i] "\""
		}
	if (unk == "" && soft[1] != soft[2])
		wrong = 1
	if (wrong)
		print "wrong"
	else if (unk != "")
		print "unknown:" unk
	else
		print "same"
}
