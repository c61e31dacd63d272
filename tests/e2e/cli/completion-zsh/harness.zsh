# harness.zsh FPATH-DIR: each line of standard input is a command line; it is
# typed into an interactive zsh (a pseudo-terminal, zsh/zpty) whose
# completion system is compinit with FPATH-DIR first in fpath, TAB is
# pressed, and the line is printed with what completion offered: the words
# each compadd call adds after matching, sorted. compadd is wrapped only to
# print them; it still adds them, so _arguments and _files work as usual.
zmodload zsh/zpty || { print -u2 "zsh has no zsh/zpty module"; exit 77 }
zpty -b z zsh -f -i
zpty -w z "PS1=''; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'compadd() {
	if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return; fi
	local -a hits; builtin compadd -O hits "$@"
	local h; for h in $hits; do print -r -- "<hit>$h</hit>"; done
	builtin compadd "$@"
}'
# the markers are typed split in two, so only their output matches
zpty -w z "zstyle ':completion:*' menu no; bindkey '^I' complete-word; print -r -- '<rea''dy>'"
zpty -r z out '*<ready>*' || { print "zsh did not start"; exit 1 }
while IFS= read -r want; do
	zpty -w -n z "$want"$'\t'
	zpty -w -n z $'\C-u'"print -r -- '<do''ne>'"$'\n'
	zpty -r z out '*<done>*' || { print "no answer for: $want"; exit 1 }
	hits=(${(f)"$(print -r -- $out | grep -o '<hit>[^<]*</hit>' | sed 's|<hit>\(.*\)</hit>|\1|')"})
	print -r -- "$want -> ${(j: :)${(@ou)hits}}"
done
zpty -d z
