" Syntax of the rules language (.rules files). Keywords as in dsl/grammar.lark, built-ins as in dsl/types.py
" (tests/test_editors.py checks both lists).
if exists('b:current_syntax')
  finish
endif

syntax keyword rulesDeclare procedure function event nextgroup=rulesDefined skipwhite
syntax match rulesDefined '\h\w*' contained
syntax keyword rulesAbility when whenever instead modify until nextgroup=rulesEventName skipwhite
syntax match rulesEventName '\h\w*\ze\s*[(:]' contained
syntax keyword rulesKeyword if elif else then while for in repeat return pass break continue choose otherwise
syntax keyword rulesKeyword secretly of by ask as where exactly to suppose let move shuffle log reveal show win
syntax keyword rulesKeyword ascending descending
" words that are keywords only next to another (elsewhere they may name things: a kind `order`)
syntax match rulesKeyword '\%(\<choose\s\+\)\@<=order\>\|\<up\ze\s\+to\>\|\<at\ze\s\+\%(least\|top\|bottom\)\>\|\<\%(at\s\+\)\@<=\%(least\|top\|bottom\)\>'
syntax match rulesKeyword '\<face\ze\s\+\%(up\|down\)\>\|\<\%(face\s\+\)\@<=\%(up\|down\)\>'

syntax keyword rulesOperator and or not
syntax keyword rulesConstant true false none
syntax keyword rulesSelf this you
syntax match rulesBuiltin '\<\%(abs\|all\|any\|bottom\|combinations\|concat\|count\|distance\|distinct\|face_down\|first\|group\|holder\|is_in\|keys\|len\|max\|min\|neighbors\|next\|place_of\|players_from\|prev\|random\|rank\|reach\|roll\|seat\|snapshot\|sum\|top\|variant\|zone_of\)\ze\s*('
syntax match rulesNumber '\<\d\+\>'
syntax match rulesRecord '@\h\w*'
syntax match rulesMember '\.\zs\h\w*'
syntax match rulesType ':\s*\zs\%(number\|bool\|text\|player\|entity\|zone\|any\|map\|list\)\>'
syntax match rulesSymbol '==\|!=\|<=\|>=\|+=\|-=\|\.\.\|[-+*/%<>=]'
syntax match rulesComment '#.*$' contains=@Spell
syntax region rulesString start='"' skip='\\.' end='"\|$' contains=rulesEscape,rulesInterpolation,@Spell
syntax match rulesEscape '\\.' contained
syntax region rulesInterpolation matchgroup=rulesInterpolationBrace start='{' end='}' contained
      \ contains=rulesKeyword,rulesOperator,rulesConstant,rulesSelf,rulesBuiltin,rulesNumber,rulesRecord,rulesMember,rulesSymbol

highlight default link rulesDeclare Keyword
highlight default link rulesDefined Function
highlight default link rulesAbility Keyword
highlight default link rulesEventName Function
highlight default link rulesKeyword Keyword
highlight default link rulesOperator Operator
highlight default link rulesConstant Constant
highlight default link rulesSelf Special
highlight default link rulesBuiltin Function
highlight default link rulesNumber Number
highlight default link rulesRecord Constant
highlight default link rulesMember Identifier
highlight default link rulesType Type
highlight default link rulesSymbol Operator
highlight default link rulesComment Comment
highlight default link rulesString String
highlight default link rulesEscape SpecialChar
highlight default link rulesInterpolationBrace Delimiter

let b:current_syntax = 'rules'
