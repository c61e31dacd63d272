" Vim syntax file for hangar policies (.hpol), the language of
" hangar-policy(5). The keywords are the language's reserved words
" (docs/language.md); an e2e case holds the two lists together.
if exists("b:current_syntax")
  finish
endif

" names hold letters, digits, _ and - (deny-risky, agent-no-sudo)
syn iskeyword @,48-57,_,-
syn keyword hpolKeyword policy version include param role rule as when remedy require forbid for in max allow empty provider uid_split default split needs never because and or not true false keep caps no uid canary exists no_new_privs
syn keyword hpolMode auto ask deny-risky governed
syn keyword hpolProvider docker kubernetes e2b cubesandbox
syn keyword hpolRole root hangar agent
syn match hpolComment "#.*$" contains=@Spell
syn region hpolString start=+"+ skip=+\\[\\"nt]+ end=+"+ oneline contains=hpolEscape
syn match hpolEscape contained +\\[\\"nt]+
syn match hpolNumber "\<\(0o[0-7]\+\|0x[0-9a-fA-F]\+\|[1-9][0-9]*\|0\)\>"
syn match hpolCall "\<[a-zA-Z_][a-zA-Z0-9_-]*\ze("

hi def link hpolKeyword Keyword
hi def link hpolMode Constant
hi def link hpolProvider Constant
hi def link hpolRole Identifier
hi def link hpolComment Comment
hi def link hpolString String
hi def link hpolEscape SpecialChar
hi def link hpolNumber Number
hi def link hpolCall Function

let b:current_syntax = "hpol"
