# decide.sh: sourced inside a sandbox by the live decision test: prints one
# line about the sandbox as it is now.
decide() { # LABEL
	(unset HANGAR_UID_SPLIT; exec "$HP" check --provider docker --format json) >"$T/r.json"
	ask=$?
	"$TOOLS/json-paths" values "$T/r.json" >"$T/v"
	modes=$(grep '^\.modes\.' "$T/v" | sed 's/^\.modes\.//' | paste -sd, - | sed 's/,/, /g')
	grep '^\.rules\[\]\.id ' "$T/v" | cut -d' ' -f2 >"$T/ids"
	grep '^\.rules\[\]\.result ' "$T/v" | cut -d' ' -f2 >"$T/res"
	failing=$(paste -d' ' "$T/ids" "$T/res" | awk '$2 != "pass" { printf "%s%s(%s)", sep, $1, $2; sep = " " }')
	HANGAR_UID_SPLIT=required "$HP" check --provider docker >/dev/null
	req=$?
	echo "$1: ${failing:-every rule passes}; ask exits $ask, required exits $req; $modes"
}
