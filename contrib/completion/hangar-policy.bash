# bash completion for hangar-policy and hangar-policy-runtime: commands,
# options and their values, read from the program itself (help --commands,
# help --options COMMAND, explain --rules POLICY), so they never drift
# from what it accepts.

_hangar_policy_values() { # program, values spec, word being completed, words
	local prog=$1 spec=$2 cur=$3
	shift 3
	case $spec in
	@file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
	@dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
	@rule)
		# the rule ids of the first policy on the line that is a file; a
		# value may list several, separated by commas
		local w rules= done=
		for w in "$@"; do
			[[ $w == *.hpol || $w == *.hpb ]] && [[ -f $w ]] || continue
			rules=$("$prog" explain --rules "$w" 2>/dev/null)
			break
		done
		[[ $cur == *,* ]] && done=${cur%,*},
		COMPREPLY=($(compgen -P "$done" -W "$rules" -- "${cur##*,}"))
		;;
	*) COMPREPLY=($(compgen -W "$spec" -- "$cur")) ;;
	esac
}

_hangar_policy() {
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD
	local prev= prev2= cmd= i
	((cword > 0)) && prev=${COMP_WORDS[cword - 1]}
	((cword > 1)) && prev2=${COMP_WORDS[cword - 2]}
	COMPREPLY=()
	for ((i = 1; i < cword; i++)); do
		case ${COMP_WORDS[i]} in
		-* | =) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W "$("$prog" help --commands 2>/dev/null) --help --version" -- "$cur"))
		return
	fi
	local opts
	opts=$("$prog" help --options "$cmd" 2>/dev/null)
	# a value: --opt=VALUE (bash splits at '='), --opt VALUE or -o VALUE
	local opt=
	if [[ $cur == = ]]; then
		opt=$prev cur=
	elif [[ $prev == = ]]; then
		opt=$prev2
	elif [[ $prev == -* ]]; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		local line spec= found=
		while IFS= read -r line; do
			if [[ ${line%%$'\t'*} == "$opt=" ]]; then
				spec=${line#*$'\t'} found=1
				break
			fi
		done <<<"$opts"
		if [[ -n $found ]]; then
			_hangar_policy_values "$prog" "$spec" "$cur" "${COMP_WORDS[@]}"
			return
		fi
	fi
	if [[ $cur == -* ]]; then
		local names
		names=$(printf '%s\n' "$opts" | cut -f 1)
		COMPREPLY=($(compgen -W "$names" -- "$cur"))
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	case $cmd in
	help) COMPREPLY=($(compgen -W "$("$prog" help --commands 2>/dev/null)" -- "$cur")) ;;
	*) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
}
complete -F _hangar_policy hangar-policy hangar-policy-runtime
