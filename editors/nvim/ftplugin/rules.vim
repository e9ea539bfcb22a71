" The layout `rules fmt` writes: four spaces a block. (A whole file is formatted by the language server's
" formatting, or `:%!rules fmt -`; not `gq`, whose lines are part of a block.)
if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal expandtab shiftwidth=4 softtabstop=4 tabstop=4
setlocal commentstring=#\ %s comments=:#
let b:undo_ftplugin = 'setlocal expandtab< shiftwidth< softtabstop< tabstop< commentstring< comments<'
