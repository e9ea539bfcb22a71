" A .rules file inside a game (a game.yaml in its folder or above) is rule text, not Snort's or udev's rules.
" Vimscript, so that Neovim 0.7 (Debian's) and 0.10+ read it alike; `set filetype` (not `setfiletype`)
" overrides the guess the editor made before this runs.
autocmd BufNewFile,BufRead *.rules
      \ if findfile('game.yaml', fnameescape(expand('<afile>:p:h')) . ';') !=# '' | set filetype=rules | endif
