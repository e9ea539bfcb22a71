"""The engine's own words, in every language it speaks: how values, zones and questions read,
what `rules play`, `rules replay` and `rules explain` say around a game, and the web pages'
own words. A game's words come from its content
(dsl.translations); these are the words no game owns.

Each phrase is a `str.format` template per language. A language missing here reads in English.
"""
from __future__ import annotations

import re

from dsl.plurals import plural

LANGUAGES = ("en", "ru")

PHRASES: dict[str, dict[str, str]] = {
    # players
    "player": {"en": "P{n}", "ru": "Игрок {n}"},
    "you": {"en": "{player} (you)", "ru": "{player} (вы)"},
    "nobody": {"en": "nobody", "ru": "никто"},
    # plain values
    "yes": {"en": "yes", "ru": "да"},
    "no": {"en": "no", "ru": "нет"},
    "none": {"en": "none", "ru": "нет"},
    "nothing": {"en": "nothing", "ru": "ничего"},
    "empty": {"en": "empty", "ru": "пусто"},
    "attribute": {"en": "{name} {value}", "ru": "{name} {value}"},
    "copy": {"en": "{name} #{n}", "ru": "{name} №{n}"},
    # what caused a line or a question: a component's ability
    "caused": {"en": "{cause}: {text}", "ru": "{cause}: {text}"},
    "cause of": {"en": "{what} ({player})", "ru": "{what} ({player})"},
    "face down": {"en": "face down", "ru": "рубашкой вверх"},
    # zones
    "zone of": {"en": "{zone} of {owner}", "ru": "{zone} ({owner})"},
    "your zone": {"en": "your {zone}", "ru": "{zone} (у вас)"},
    "shared, yours": {"en": "your {zone} with {other} (on your {side})", "ru": "{zone} (вы и {other}, {side})"},
    "shared": {"en": "{zone} of {owner} and {other}", "ru": "{zone} ({owner} и {other})"},
    "left": {"en": "left", "ru": "слева"},
    "right": {"en": "right", "ru": "справа"},
    # what a viewer cannot see
    "out of play": {"en": "a component out of play", "ru": "компонент вне игры"},
    "face-down": {"en": "face-down {back}", "ru": "{back} рубашкой вверх"},
    "hidden": {"en": "hidden component", "ru": "скрытый компонент"},
    "n of": {"en": "{what} {i} of {n}", "ru": "{what} {i} из {n}"},
    "in": {"en": "{what} in {place}", "ru": "{what} — {place}"},
    "count face-down": {"en": "face-down {back} ×{n}", "ru": "{back} рубашкой вверх: {n}"},
    "count hidden": {"en": "{n} hidden", "ru": "скрытых: {n}"},
    # questions without an `ask`
    "choose one": {"en": "Choose one", "ru": "Выберите один вариант"},
    "choose what": {"en": "Choose what to do", "ru": "Выберите, что делать"},
    "choose number": {"en": "Choose a number from {low} to {high}", "ru": "Выберите число от {low} до {high}"},
    "type a number": {"en": "(type a number from {low} to {high})", "ru": "(введите число от {low} до {high})"},
    "choose first": {"en": "Choose which comes first", "ru": "Выберите, что будет первым"},
    "which ability": {"en": "Which ability resolves first?", "ru": "Какое свойство срабатывает первым?"},
    "pick exactly": {"en": "Choose exactly {n}, one at a time", "ru": "Выберите ровно {n}, по одному"},
    "pick up to": {"en": "Choose up to {n}, one at a time (done to stop)",
                   "ru": "Выберите не больше {n}, по одному (готово — закончить)"},
    "pick at least": {"en": "Choose at least {n}, one at a time (done when you have enough)",
                      "ru": "Выберите не меньше {n}, по одному (готово — когда хватит)"},
    "pick several": {"en": "Choose several, one at a time", "ru": "Выберите несколько, по одному"},
    "done": {"en": "done: choose no more", "ru": "готово: больше не выбирать"},
    # the table
    "game": {"en": "game", "ru": "игра"},
    # around a game (cli and the terminal player)
    # the name on a line of its own in Russian: a name kept in Latin letters (a brand) mixes with no words
    "header": {"en": "{name}: {players} players, seed {seed}", "ru": "{name}\nИгроков: {players}, зерно {seed}"},
    "header variants": {"en": ", variants {variants}", "ru": ", варианты: {variants}"},
    "final scores": {"en": "Final scores: {scores}", "ru": "Итоговые очки: {scores}"},
    "score": {"en": "{player} {score}", "ru": "{player}: {score}"},
    "winner": {"en": "Winner: {winners}", "ru": "Победитель: {winners}"},
    "decisions": {"en": "{n|# decision|# decisions}", "ru": "Решений: {n}"},
    "to player": {"en": "(to {player})", "ru": "({player})"},
    "to you": {"en": "(to you)", "ru": "(вам)"},
    "you chose": {"en": "(you) {prompt}: {option}", "ru": "(вы) {prompt}: {option}"},
    "decision n": {"en": "decision {n} ({player})", "ru": "решение {n} ({player})"},
    "decision n mine": {"en": "decision {n}:", "ru": "решение {n}:"},
    "you chose secretly": {"en": "(you, secretly) {prompt}: {option}", "ru": "(вы, тайно) {prompt}: {option}"},
    # the terminal's screen (interpreter.present.terminal)
    "count in zone": {"en": "{zone} {n}", "ru": "{zone}: {n}"},
    "top of zone": {"en": "{zone}: {top} on top ({n} in all)", "ru": "{zone}: сверху {top} (всего {n})"},
    "score is": {"en": "score {n}", "ru": "очки {n}"},
    "areas held": {"en": "{n|# area|# areas}", "ru": "{n|# область|# области|# областей}"},
    "adjacent": {"en": "next to", "ru": "соседние"},
    "since your last decision": {"en": "Since your last decision:", "ru": "С вашего прошлого решения:"},
    "more table": {"en": "  … (? shows the whole table)", "ru": "  … (? покажет весь стол)"},
    "more options": {"en": "page {page} of {pages}: > next, < previous", "ru": "страница {page} из {pages}: > дальше, < назад"},
    "screen keys": {"en": "(a number answers; ? the whole table, ?NAME a card's text, ?N option N's cards, log, undo, help)",
                    "ru": "(номер — ответ; ? весь стол, ?ИМЯ текст карты, ?N карты варианта N, журнал, отменить, помощь)"},
    "screen keys by value": {"en": "(type the number itself, not its place; ? the whole table, ?NAME a card's text, log, undo, help)",
                             "ru": "(введите само число, а не его место в списке; ? весь стол, ?ИМЯ текст карты, журнал, отменить, помощь)"},
    "no such card": {"en": "no card on the table is called that", "ru": "на столе нет карты с таким названием"},
    "your decision": {"en": "--- {player}, your decision ---", "ru": "--- {player}, ваше решение ---"},
    "secretly": {"en": " (secretly)", "ru": " (тайно)"},
    "no card in option": {"en": "(this option names no card)", "ru": "(в этом варианте нет карт)"},
    "no card on table": {"en": "(no card with a text is on the table)", "ru": "(на столе нет карт с текстом)"},
    "deciding": {"en": "{player} is deciding", "ru": "Решает {player}"},
    "step back": {"en": "(- goes back to the first step)", "ru": "(- — назад к первому шагу)"},
    "not legal": {"en": "not a legal option; type its number", "ru": "такого варианта нет; введите его номер"},
    # undo, interruption and resume (issue 22 §1)
    "undone": {"en": "(undone: back to your previous decision)", "ru": "(отменено: снова ваше прошлое решение)"},
    "nothing to undo": {"en": "nothing to undo: this is your first decision", "ru": "отменять нечего: это ваше первое решение"},
    "game saved": {"en": "The game so far is saved in {path}\nGo on with: rules play --resume {path}",
                   "ru": "Партия сохранена в {path}\nПродолжить: rules play --resume {path}"},
    "game not saved": {"en": "The game could not be saved: {why}", "ru": "Партию не удалось сохранить: {why}"},
    "resumed": {"en": "Resumed after decision {n}", "ru": "Продолжение после решения {n}"},
    "interrupted": {"en": "Interrupted after decision {n}", "ru": "Прервано после решения {n}"},
    # `rules explain`: the resolver's trace in words (interpreter.present.explain)
    "explain trigger": {"en": "trigger", "ru": "срабатывание"},
    "explain replacement": {"en": "replacement", "ru": "замена"},
    "explain modifier": {"en": "modifier", "ru": "модификатор"},
    "explain entry": {"en": "{kind} on {call}, {where}{note}:", "ru": "{kind}: {call}, {where}{note}:"},
    "explain after decision": {"en": "after decision {n}", "ru": "после решения {n}"},
    "explain before the first": {"en": "before the first decision", "ru": "до первого решения"},
    "explain becomes": {"en": ": {before} becomes {after}", "ru": ": {before} → {after}"},
    "explain last has the word": {"en": " (applied last to first: the first listed has the final word)",
                                  "ru": " (применяются с последнего: решающее слово за первым в списке)"},
    "explain waiting": {"en": " ({n} more waiting)", "ru": " (ждут ещё: {n})"},
    "explain times": {"en": " ({n|once|# times})", "ru": " ({n|# раз|# раза|# раз})"},
    "explain item": {"en": "  {mark}: {source} (controller {who}; {key}) at {at}{result}",
                     "ru": "  {mark}: {source} (контролирует {who}; {key}) — {at}{result}"},
    "explain runs": {"en": "runs", "ru": "срабатывает"},
    "explain waits": {"en": "waits", "ru": "ждёт"},
    "explain rules": {"en": "the rules", "ru": "правила"},
    "explain card": {"en": "card", "ru": "карта"},
    "explain timing": {"en": "timing", "ru": "время"},
    "explain source": {"en": "source", "ru": "источник"},
    "explain kind": {"en": "kind", "ru": "вид"},
    "explain player order": {"en": "player order", "ru": "порядок игроков"},
    "explain idle": {"en": "  ({n} more whose condition does not hold)", "ru": "  (ещё {n}: условие не выполнено)"},
    "explain nothing in game": {"en": "no trigger, replacement or modifier fired in this game",
                                "ru": "в этой игре не сработало ни одно свойство, замена или модификатор"},
    "explain chance": {"en": "chance, {where}: {what}{by}", "ru": "случай, {where}: {what}{by}"},
    "explain shuffled": {"en": "{zone} shuffled ({n}), on top: {top}", "ru": "{zone}: перетасовано ({n}), сверху: {top}"},
    "explain picked": {"en": "drawn at random from {n}: {drawn}", "ru": "случайно из {n}: {drawn}"},
    "explain rolled": {"en": "{n|a die|# dice} of {sides} rolled: {faces}", "ru": "{n|брошена # кость|брошены # кости|брошено # костей} d{sides}: {faces}"},
    "explain by given": {"en": " (given)", "ru": " (задано)"},
    "explain by seat": {"en": " (the chance seat)", "ru": " (место случая)"},
    "explain nothing there": {"en": "nothing fired there", "ru": "там ничего не сработало"},
    # `rules explain --why`: an expression taken apart (interpreter.present.why)
    "why before": {"en": "before modifiers", "ru": "до модификаторов"},
    "why modifier": {"en": "modifier of {source}", "ru": "модификатор: {source}"},
    "why rules": {"en": "the rules", "ru": "правила"},
    "why controlled": {"en": "{card}, {player}", "ru": "{card}, {player}"},
    "why more": {"en": "and {n} more", "ru": "и ещё {n}"},
    "why counted": {"en": "counted: {items}", "ru": "посчитаны: {items}"},
    "why since": {"en": "as {cond} is {value}", "ru": "так как {cond}: {value}"},
    "why cannot": {"en": "cannot be computed here: {why}", "ru": "здесь не вычисляется: {why}"},
    "why of": {"en": "{name} of {obj}", "ru": "{name}: {obj}"},
    # the web pages' buttons, headings and notices (interpreter.web)
    "web lobby": {"en": "Games", "ru": "Игры"},
    "web lobby intro": {"en": "Choose a game, its players and who sits at each seat: a person or a bot.",
                        "ru": "Выберите игру, число игроков и кто сидит на каждом месте: человек или бот."},
    "web players": {"en": "Players", "ru": "Игроки"},
    "web language": {"en": "Language", "ru": "Язык"},
    "web variants": {"en": "Variants", "ru": "Варианты"},
    "web seat": {"en": "Seat {n}", "ru": "Место {n}"},
    "web person": {"en": "a person", "ru": "человек"},
    "web random": {"en": "random bot", "ru": "случайный бот"},
    "web ismcts": {"en": "ISMCTS bot", "ru": "бот ISMCTS"},
    "web hotseat": {"en": "all persons play on this device (hot-seat)", "ru": "все люди играют на этом устройстве"},
    "web seed": {"en": "Seed (blank: random)", "ru": "Зерно (пусто: случайное)"},
    "web start": {"en": "Start the game", "ru": "Начать игру"},
    "web games running": {"en": "Games on this server", "ru": "Игры на этом сервере"},
    "web playing": {"en": "in play", "ru": "идёт"},
    "web finished": {"en": "over", "ru": "окончена"},
    "web error": {"en": "stopped on an error", "ru": "остановлена ошибкой"},
    "web watch": {"en": "watch", "ru": "смотреть"},
    "web links": {"en": "Seat links", "ru": "Ссылки на места"},
    "web links intro": {"en": "Give each person their seat's link; it holds the seat's secret. Anyone with the "
                        "spectator link sees only what is public.",
                        "ru": "Дайте каждому игроку ссылку его места: в ней секрет этого места. По ссылке зрителя "
                        "видно только открытое."},
    "web seat link": {"en": "{player}: {kind}", "ru": "{player}: {kind}"},
    "web hot link": {"en": "Play every person's seat on this device", "ru": "Играть за всех людей на этом устройстве"},
    "web spectator": {"en": "Spectator", "ru": "Зритель"},
    "web you are": {"en": "You play {player}", "ru": "Вы играете: {player}"},
    "web watching": {"en": "You are watching: only what is public shows", "ru": "Вы зритель: видно только открытое"},
    "web waiting for": {"en": "Waiting for {player}", "ru": "Ждём: {player}"},
    "web your turn": {"en": "Your decision", "ru": "Ваше решение"},
    "web secretly": {"en": "(secret: the others learn it later)", "ru": "(тайно: остальные узнают позже)"},
    "web game over": {"en": "The game is over. Winners: {winners}", "ru": "Игра окончена. Победители: {winners}"},
    "web scores": {"en": "Scores: {scores}", "ru": "Очки: {scores}"},
    "web game error": {"en": "The game stopped on an error in its rules: {message}",
                       "ru": "Игра остановлена ошибкой в правилах: {message}"},
    "web log": {"en": "What happened (newest first)", "ru": "Что произошло (новое сверху)"},
    "web new": {"en": "since your last decision", "ru": "после вашего решения"},
    "web table": {"en": "The table", "ru": "Стол"},
    "web board": {"en": "The board", "ru": "Поле"},
    "web undo": {"en": "Undo my last decision", "ru": "Отменить моё последнее решение"},
    "web download": {"en": "Download the game log", "ru": "Скачать журнал игры"},
    "web to bot": {"en": "Let a bot play my seat", "ru": "Отдать моё место боту"},
    "web to person": {"en": "Take my seat back", "ru": "Вернуть себе место"},
    "web bot plays": {"en": "A bot plays this seat now.", "ru": "Сейчас за это место играет бот."},
    "web pass to": {"en": "Pass the device to {player}", "ru": "Передайте устройство: {player}"},
    "web ready": {"en": "I am {player}: show my seat", "ru": "Я — {player}: показать моё место"},
    "web options here": {"en": "Options for {area}:", "ru": "Варианты для «{area}»:"},
    "web all options": {"en": "show every option", "ru": "показать все варианты"},
    "web answer number": {"en": "Answer", "ru": "Ответить"},
    "web invalid game": {"en": "This game does not validate: fix these errors (rules validate prints the same), then restart the server.",
                         "ru": "Эта игра не проходит проверку: исправьте ошибки (rules validate выводит те же) и перезапустите сервер."},
    "web click map": {"en": "Highlighted areas of the board can be clicked.", "ru": "Выделенные области поля можно нажать."},
    "web area controlled": {"en": "{area}: {player}", "ru": "{area}: {player}"},
    "web game key": {"en": "game", "ru": "игра"},
    "web unknown link": {"en": "This link holds no seat of this game: you see what a spectator sees.",
                         "ru": "Эта ссылка не даёт места в этой игре: вы видите то же, что зритель."},
    "web refused": {"en": "Not accepted: {reason}", "ru": "Не принято: {reason}"},
    "web connecting": {"en": "Connecting…", "ru": "Соединение…"},
    "web failed games": {"en": "Games that could not be resumed", "ru": "Игры, которые не удалось продолжить"},
    "web no log yet": {"en": "The log of an unfinished game is for a game of one person (or hot-seat); it is "
                       "everyone's when the game ends.",
                       "ru": "Журнал неоконченной игры доступен в игре одного человека (или за одним устройством); "
                       "после конца игры — всем."},
}


def say(lang: str, key: str, /, **values) -> str:
    forms = PHRASES[key]
    template = forms.get(lang, forms["en"])
    if "|" in template:  # `{n|# area|# areas}`: a number in its plural forms (dsl.plurals), said before the rest
        template = _PLURAL.sub(lambda m: plural(lang if lang in forms else "en", values[m.group(1)],
                                                m.group(2).split("|")).replace("{", "{{").replace("}", "}}"), template)
    return template.format(**values)


_PLURAL = re.compile(r"\{(\w+)\|([^{}]*)\}")
