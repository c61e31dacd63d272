" hangar policies (hangar-policy(5))
au BufRead,BufNewFile *.hpol setfiletype hpol
