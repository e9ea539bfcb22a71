"""Issue 10, section 5: English and Russian. A game declares its languages; YAML texts carry every
language, rule text and identifiers are translated in catalogues; `rules validate` names each
missing translation with its place; `--lang` picks what players read; no line mixes languages."""
from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import pytest

from interpreter.runtime.games import load_compiled
from interpreter.present.table import table_model
from interpreter.present.terminal import whole_table
from interpreter.present.words import Presenter, shown_to
from interpreter.runtime import Session
from interpreter.present.words import telling
from tests.cli_run import run

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.name for p in (ROOT / "content").iterdir() if (p / "game.yaml").is_file())

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")
ROMAN = re.compile(r"^[IVXLC]+$")  # deck II reads the same in both languages


def latin_words(line: str) -> list[str]:
    return [w for w in LATIN_WORD.findall(line) if not ROMAN.match(w)]


def wrong_language(line: str, lang: str) -> bool:
    """An English line with Russian in it, or a Russian one with an English word."""
    return bool(CYRILLIC.search(line)) if lang == "en" else bool(latin_words(line))


MANIFEST = """\
id: duo
name: {en: Duo, ru: Дуэт}
languages: [en, ru]
source: designed for tests
players: {min: 2, max: 2, default: 2}
variants:
  short: {en: One round only, ru: Только один раунд}
start: play
score: points
files:
  components: [cards.yaml]
  rules: [main.rules]
  translations: [lang/ru.yaml]
vocabulary:
  attributes: {value: number}
  kinds:
    coin: {starts_in: pile, required: [value]}
  zones:
    pile: {scope: game, visibility: public}
    hand: {scope: player, visibility: owner}
  variables:
    points: {scope: player, type: number, initial: 0}
"""

CARDS = """\
- id: gold
  kind: coin
  name: {en: Gold coin, ru: Золотая монета}
  text: {en: Worth three., ru: Стоит три.}
  value: 3
  copies: 2
  source: designed
- id: copper
  kind: coin
  name: {en: Copper coin, ru: Медная монета}
  text: {en: Worth one., ru: Стоит одну.}
  value: 1
  source: designed
"""

RULES = """\
procedure play():
    for p in players:
        choose c in pile by p ask "{p}, which coin do you take?"
        move c to hand of p
        log to p "You take {c}"
        log "{p} takes {c}"
    for p in players:
        choose by p ask "Show your coin or keep it?":
            show_coin(c) for c in hand of p ask "Show {c}":
                move c to pile
                log "{p} shows {c}, worth {c.value}"
                p.points = p.points + c.value
            keep:
                log "{p} keeps their coin"
"""

CATALOGUE = """\
language: ru
words:
  pile: кучка
  hand: рука
  points: очки
  coin: монета
  value: стоимость
  keep: оставить себе
  short: короткая игра
messages:
  "{p}, which coin do you take?": "{p}, какую монету вы берёте?"
  "You take {c}": "Вы берёте: {c}"
  "{p} takes {c}": "{p} берёт: {c}"
  "Show your coin or keep it?": "Показать монету или оставить себе?"
  "Show {c}": "Показать: {c}"
  "{p} shows {c}, worth {c.value}": "{p} показывает: {c} (стоимость {c.value})"
  "{p} keeps their coin": "{p} оставляет монету себе"
"""


def duo(tmp_path: Path, manifest: str = MANIFEST, cards: str = CARDS, rules: str = RULES, catalogue: str = CATALOGUE) -> Path:
    root = tmp_path / "duo"
    (root / "lang").mkdir(parents=True, exist_ok=True)
    for name, text in (("game.yaml", manifest), ("cards.yaml", cards), ("main.rules", rules), ("lang/ru.yaml", catalogue)):
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def play_lines(game, lang: str, seed: int = 0, players: int = 2, variants=(), reader=None) -> list[str]:
    """A random game as its people read it: every line told, and for each decision the decider's
    question, options and table."""
    lines: list[str] = []
    session = Session(game, players, seed, variants, account=telling(lambda to, text: lines.append(text)), start=False,
                      lang=lang, reader=reader)
    session.call(game.content.manifest["start"])
    rng = random.Random(seed)
    while session.pending is not None:
        d = session.pending
        shown = shown_to(d, session.state)
        lines += [shown.prompt, *shown.options, *whole_table(table_model(session, d.player), Presenter(session.state, d.player))]
        lines += [f"{name}: {text}" for option in shown.keys for name, text in option]
        session.answer(rng.randrange(len(d.values)))
    return lines


# ---------------------------------------------------------------- the mechanism, on a small game
def test_a_bilingual_game_reads_wholly_in_the_language_chosen(tmp_path):
    game = load_compiled(str(duo(tmp_path)))
    assert game.content.report.ok, [d.render() for d in game.content.report.diagnostics]
    english = play_lines(game, "en")
    russian = play_lines(game, "ru")
    # the question is read by its decider: they are "you"
    assert "P1 (you), which coin do you take?" in english and "Игрок 1 (вы), какую монету вы берёте?" in russian
    assert any(re.fullmatch(r"Игрок \d показывает: (Золотая|Медная) монета( №\d)?, \(стоимость \d\)".replace(", \\(", " \\("), x)
               for x in russian), russian
    assert "Show your coin or keep it?" in english and "оставить себе" in russian
    # a value named in a line told to everyone reads as the spectator sees it: the coin taken into a hand is hidden
    assert any(re.fullmatch(r"P\d takes hidden component in hand of P\d", x) for x in english), english
    assert any(re.fullmatch(r"Игрок \d берёт: скрытый компонент — рука \(Игрок \d\)", x) for x in russian), russian
    assert not [x for x in english if wrong_language(x, "en")]
    assert not [x for x in russian if wrong_language(x, "ru")]


def test_copies_of_one_card_are_told_apart_in_log_lines(tmp_path):
    game = load_compiled(str(duo(tmp_path)))
    told = set()
    for seed in range(12):
        for lang in ("en", "ru"):
            told |= {x for x in play_lines(game, lang, seed) if "show" in x or "показывает" in x}
    assert any("Gold coin #1" in x for x in told) and any("Gold coin #2" in x for x in told), told
    assert any("Золотая монета №2" in x for x in told), told
    assert not any("Copper coin #" in x for x in told)  # a card without twins has no number


def test_lines_told_to_one_player_read_through_their_view(tmp_path):
    game = load_compiled(str(duo(tmp_path)))
    lines: list = []
    session = Session(game, 2, 0, account=telling(lambda to, text: lines.append((to, text))), lang="en")
    session.answer(0)
    assert lines[0][0] == 0 and re.fullmatch(r"You take (Gold|Copper) coin( #\d)?", lines[0][1]), lines
    assert lines[1] == (None, "P1 takes hidden component in hand of P1")
    # the same line read by P1 (`rules replay --as P1`, a human at the terminal) names their own coin
    lines.clear()
    session = Session(game, 2, 0, account=telling(lambda to, text: lines.append((to, text))), lang="en", reader=0)
    session.answer(0)
    assert lines[1][1].startswith("P1 (you) takes ") and "hidden" not in lines[1][1], lines


def test_cli_play_and_replay_in_russian(tmp_path, capsys):
    root = duo(tmp_path)
    log = tmp_path / "duo.log"
    code, out, _ = run(capsys, "play", root, "--lang", "ru", "--log", log)
    assert code == 0
    lines = [x.strip() for x in out.splitlines() if x.strip() and not x.startswith("log written")]
    assert lines[0] == "Дуэт" and lines[1] == "Игроков: 2, зерно 1", lines
    assert any(x.startswith("Итоговые очки: Игрок 1: ") for x in lines) and any(x.startswith("Победитель: ") for x in lines)
    assert not [x for x in lines if wrong_language(x, "ru")], lines
    code, out, _ = run(capsys, "play", root, "--lang", "en")
    assert code == 0 and out.startswith("Duo: 2 players, seed 1") and not CYRILLIC.search(out)
    code, out, _ = run(capsys, "replay", log, "--as", "P2", "--lang", "ru")
    assert code == 0
    body = [x.strip() for x in out.splitlines()[:-1]]
    assert any(x.startswith("(вам) Вы берёте: ") for x in body), body
    # each of their decisions numbered as `rules replay` and `rules explain` number them
    assert any(x.startswith("решение ") and x.split(": ", 1)[1].startswith("(вы) Игрок 2 (вы), какую монету вы берёте?: ")
               for x in body), body
    assert not [x for x in body if wrong_language(x, "ru")], body


def test_the_language_comes_from_the_locale_unless_asked(tmp_path, capsys, monkeypatch):
    root = duo(tmp_path)
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    code, out, _ = run(capsys, "play", root, "--quiet")
    assert code == 0 and out.startswith("Дуэт")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # a language the game does not have: its rule text's
    code, out, _ = run(capsys, "play", root, "--quiet")
    assert out.startswith("Duo:")
    monkeypatch.setenv("LC_ALL", "C")
    code, out, _ = run(capsys, "play", root, "--quiet")
    assert out.startswith("Duo:")
    code, _, err = run(capsys, "play", root, "--lang", "de")
    assert code == 2 and "--lang de: duo is played in en, ru" in err


# ---------------------------------------------------------------- what validate reports
def diagnostics(tmp_path, capsys, **parts) -> tuple[int, str]:
    code, out, err = run(capsys, "validate", duo(tmp_path, **parts))
    return code, out + err


def test_a_missing_message_is_reported_where_the_rule_text_writes_it(tmp_path, capsys):
    code, err = diagnostics(tmp_path, capsys, catalogue=CATALOGUE.replace('  "{p} keeps their coin": "{p} оставляет монету себе"\n', ""))
    assert code == 1
    assert 'main.rules:14:21: error[I18N-MISSING]: no Russian (ru) translation of "{p} keeps their coin"' in err, err
    assert '14 |                 log "{p} keeps their coin"' in err and "add it under `messages:` in" in err


def test_a_missing_word_is_reported_at_its_declaration(tmp_path, capsys):
    code, err = diagnostics(tmp_path, capsys, catalogue=CATALOGUE.replace("  keep: оставить себе\n", "  kep: оставить себе\n"))
    assert code == 1
    assert "main.rules:13:13: error[I18N-MISSING]: no Russian (ru) word for 'keep'" in err, err
    assert "warning[I18N-UNUSED]: 'kep' is translated but nothing shows it" in err and "did you mean 'keep'?" in err
    code, err = diagnostics(tmp_path, capsys, catalogue=CATALOGUE.replace("  hand: рука\n", ""))
    assert "game.yaml:20:11: error[I18N-MISSING]: no Russian (ru) word for 'hand'" in err, err


def test_placeholders_must_match_the_rule_text(tmp_path, capsys):
    code, err = diagnostics(tmp_path, capsys, catalogue=CATALOGUE.replace('"Вы берёте: {c}"', '"Вы берёте: {card}"'))
    assert code == 1
    assert re.search(r"ru\.yaml:\d+:\d+: error\[I18N-PLACEHOLDER\]: the Russian \(ru\) text of \"You take \{c\}\": "
                     r"\{card\} is not in the rule text", err), err


def test_yaml_texts_need_every_language(tmp_path, capsys):
    code, err = diagnostics(tmp_path, capsys, cards=CARDS.replace("name: {en: Copper coin, ru: Медная монета}", "name: {en: Copper coin}"))
    assert code == 1 and "cards.yaml:11:" in err and "'ru' is a required property" in err.replace("\u2019", "'") or "ru" in err, err
    code, err = diagnostics(tmp_path, capsys, manifest=MANIFEST.replace("short: {en: One round only, ru: Только один раунд}",
                                                                          "short: One round only"))
    assert code == 1 and "game.yaml:7:10: error[I18N-MISSING]: the description of variant 'short' must be given in every language" in err, err
    code, err = diagnostics(tmp_path, capsys, manifest=MANIFEST.replace("  translations: [lang/ru.yaml]\n", ""))
    assert code == 1 and "error[I18N-MISSING]: the game is played in Russian (ru) but no catalogue is for it" in err, err


# ---------------------------------------------------------------- the three games
@pytest.mark.parametrize("name", GAMES)
def test_every_game_is_written_in_english_and_russian(name):
    game = load_compiled(name)
    assert game.content.vocabulary.languages == ("en", "ru")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_full_game_has_no_line_in_the_other_language(name, lang):
    """Every line told, and every question, option, table line and card text shown to the decider."""
    game = load_compiled(name)
    spec = game.content.manifest["players"]
    variants = tuple(game.content.vocabulary.variants)[:1]
    lines = play_lines(game, lang, seed=3, players=spec.get("default") or spec["min"], variants=variants)
    wrong = sorted({x for x in lines if wrong_language(x, lang)})
    assert not wrong, f"{len(wrong)} lines, e.g. {wrong[:8]}"


def test_a_text_written_outside_log_and_ask_is_flagged(tmp_path, capsys):
    rules = RULES + 'function mood(p: player) = if p.points > 0 then "doing well" else "poor thing"\n'
    rules = rules.replace('log "{p} keeps their coin"', 'log "{p} keeps their coin: {mood(p)}"')
    catalogue = CATALOGUE.replace('"{p} keeps their coin": "{p} оставляет монету себе"',
                                  '"{p} keeps their coin: {mood(p)}": "{p} оставляет монету себе: {mood(p)}"')
    code, err = diagnostics(tmp_path, capsys, rules=rules, catalogue=catalogue)
    assert code == 0 and 'main.rules:15:49: warning[I18N-TEXT]: "doing well" is not translated' in err, err
