"""The engine's own words, in every language it speaks: how values, zones and questions read,
and what `rules play` and `rules replay` say around a game. A game's words come from its content
(dsl.translations); these are the words no game owns.

Each phrase is a `str.format` template per language. A language missing here reads in English.
"""
from __future__ import annotations

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
    "count face-down": {"en": "{n} face-down {back}", "ru": "{back} рубашкой вверх: {n}"},
    "count hidden": {"en": "{n} hidden", "ru": "скрытых: {n}"},
    # questions without an `ask`
    "choose one": {"en": "Choose one", "ru": "Выберите один вариант"},
    "choose what": {"en": "Choose what to do", "ru": "Выберите, что делать"},
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
    "decisions": {"en": "{n} decisions", "ru": "Решений: {n}"},
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
    "areas held": {"en": "{n} areas", "ru": "областей: {n}"},
    "adjacent": {"en": "next to", "ru": "соседние"},
    "since your last decision": {"en": "Since your last decision:", "ru": "С вашего прошлого решения:"},
    "more table": {"en": "  … (? shows the whole table)", "ru": "  … (? покажет весь стол)"},
    "more options": {"en": "page {page} of {pages}: > next, < previous", "ru": "страница {page} из {pages}: > дальше, < назад"},
    "screen keys": {"en": "(a number answers; ? the whole table, ?NAME a card's text, ?N option N's cards, log, undo, help)",
                    "ru": "(номер — ответ; ? весь стол, ?ИМЯ текст карты, ?N карты варианта N, журнал, отменить, помощь)"},
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
}


def say(lang: str, key: str, **values) -> str:
    forms = PHRASES[key]
    return forms.get(lang, forms["en"]).format(**values)
