#!/bin/sh
# tests/keywords.sh [TOP]: the keywords of the language are the same in the
# three places that list them: the grammar's tokens (grammar/parser.y,
# `%token NAME "word"` for the tokens without a value), the lexer's rules
# (grammar/lexer.re, `"word" { TOKEN(TK_NAME); }`, the same token for the
# same word) and the fuzz dictionary (tests/fuzz/fuzz_front.dict, which
# holds other words too). Prints each disagreement, then "keywords: ok" or
# "keywords: they disagree"; exits 1 when they do.
set -u
top=${1:-.}
cd "$top" || exit 2
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
sed -n 's/^%token \([A-Z].*\)$/\1/p' grammar/parser.y | tr ' ' '\n' |
	awk 'prev ~ /^[A-Z_]+$/ && $0 ~ /^"[a-z_]+"$/ { gsub(/"/, ""); print prev, $0 } { prev = $0 }' |
	LC_ALL=C sort >"$t/parser"
sed -n 's/^[[:space:]]*"\([a-z_]*\)" { TOKEN(TK_\([A-Z_]*\)); }$/\2 \1/p' grammar/lexer.re |
	LC_ALL=C sort >"$t/lexer"
sed -n 's/^"\([a-z_]*\)"$/\1/p' tests/fuzz/fuzz_front.dict | LC_ALL=C sort -u >"$t/dict"
bad=0
for f in parser lexer; do
	n=$(wc -l <"$t/$f")
	if [ "$n" -lt 20 ]; then
		echo "only $n keywords read from the $f: has its form changed?"
		bad=1
	fi
done
LC_ALL=C comm -23 "$t/parser" "$t/lexer" | sed 's/^/in grammar\/parser.y, not in grammar\/lexer.re: /'
LC_ALL=C comm -13 "$t/parser" "$t/lexer" | sed 's/^/in grammar\/lexer.re, not in grammar\/parser.y: /'
cmp -s "$t/parser" "$t/lexer" || bad=1
awk '{ print $2 }' "$t/parser" "$t/lexer" | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$t/dict" >"$t/undict"
sed 's/^/a keyword not in tests\/fuzz\/fuzz_front.dict: /' "$t/undict"
[ -s "$t/undict" ] && bad=1
if [ "$bad" = 1 ]; then
	echo "keywords: they disagree"
	exit 1
fi
echo "keywords: ok"
