"""Plural forms from one source in both languages (issue 33 item 8): `{n|# card|# cards}` in rule text and
catalogues, the engine's own phrases, no "(s)" in generated text, "your" for the reader's possessive, and no
colon after a question mark."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_run import run
from dsl.plurals import category, forms_of, plural
from interpreter.present.phrases import PHRASES, say
from interpreter.present.terminal import asked_line
from interpreter.present.words import telling
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session
from test_i18n import CATALOGUE, RULES, duo

ROOT = Path(__file__).resolve().parent.parent


def test_the_table_is_cldr_s():
    babel = pytest.importorskip("babel")
    for lang in ("en", "ru"):
        rule = babel.Locale.parse(lang).plural_form
        assert [category(lang, n) for n in range(0, 1000)] == [rule(n) for n in range(0, 1000)]
        assert set(forms_of(lang)) == set(rule.tags) - ({"other"} if lang == "ru" else set()) | ({"other"} if lang == "en" else set())


@pytest.mark.parametrize("lang, n, said", [
    ("en", 1, "1 card"), ("en", 0, "0 cards"), ("en", 2, "2 cards"),
    ("ru", 1, "1 карту"), ("ru", 3, "3 карты"), ("ru", 5, "5 карт"), ("ru", 11, "11 карт"), ("ru", 22, "22 карты"),
])
def test_a_number_takes_its_form(lang, n, said):
    forms = {"en": ("# card", "# cards"), "ru": ("# карту", "# карты", "# карт")}[lang]
    assert plural(lang, n, forms) == said


PLURAL_RULES = RULES.replace('''            keep:
                log "{p} keeps their coin"''', '''            keep:
                log "{p} keeps their coin"
    log "{players[0]}'s turn is over: {len(pile)|# coin lies|# coins lie} in the pile"''')
PLURAL_CATALOGUE = CATALOGUE + '''  "{players[0]}'s turn is over: {len(pile)|# coin lies|# coins lie} in the pile": "{players[0]} закончил ход: в кучке {len(pile)|# монета|# монеты|# монет}"\n'''


def _lines(root, lang, reader):
    game = load_compiled(str(root))
    told = []
    s = Session(game, 2, 0, account=telling(lambda to, text: told.append(text)), lang=lang, reader=reader)
    while s.pending is not None:
        s.answer(len(s.pending.values) - 1)  # keep, every time: three coins stay in the pile
    return told


def test_rule_text_says_a_number_in_each_language_s_forms(tmp_path):
    root = duo(tmp_path, rules=PLURAL_RULES, catalogue=PLURAL_CATALOGUE)
    assert _lines(root, "en", None)[-1] == "P1's turn is over: 1 coin lies in the pile"
    assert _lines(root, "ru", None)[-1] == "Игрок 1 закончил ход: в кучке 1 монета"
    # the reader's own possessive is worded: "your turn", never "P1 (you)'s turn"
    assert _lines(root, "en", 0)[-1] == "Your turn is over: 1 coin lies in the pile"


def test_plural_forms_are_checked_per_language(tmp_path, capsys):
    bad = PLURAL_CATALOGUE.replace("{len(pile)|# монета|# монеты|# монет}", "{len(pile)|# монета|# монеты}")
    code, out, err = run(capsys, "validate", duo(tmp_path, rules=PLURAL_RULES, catalogue=bad))
    assert code == 1 and "error[I18N-PLURAL]" in out and "has 2 plural forms; Russian (ru) has 3 (one, few, many)" in out
    wrong = PLURAL_RULES.replace("{len(pile)|# coin lies|# coins lie}", "{players[1]|# coin lies|# coins lie}")
    code, out, err = run(capsys, "validate", duo(tmp_path, rules=wrong, catalogue=PLURAL_CATALOGUE.replace("len(pile)", "players[1]")))
    assert code == 1 and "error[TYPE-MISMATCH]: a placeholder with plural forms says a number, not a player" in out


def test_the_engine_s_phrases_take_their_forms():
    assert say("en", "decisions", n=1) == "1 decision" and say("en", "decisions", n=2) == "2 decisions"
    assert [say("ru", "areas held", n=n) for n in (1, 3, 5)] == ["1 область", "3 области", "5 областей"]
    assert say("en", "explain rolled", n=1, sides=6, faces="4") == "a die of 6 rolled: 4"


def test_no_word_is_written_with_s_in_brackets():
    found = [f"phrases: {key}" for key, forms in PHRASES.items() for text in forms.values() if re.search(r"\((s|es|ies)\)", text)]
    for game in ("kings_bounty", "btwixt", "agot"):
        for path in [*(ROOT / "content" / game).rglob("*.rules"), *(ROOT / "content" / game / "lang").glob("*.yaml")]:
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                texts = re.findall(r'"[^"]*"', line)  # what players read: the texts, not calls such as f(s)
                if any(re.search(r"\w\((s|es|ies)\)", t) for t in texts) and not line.lstrip().startswith("#"):
                    found.append(f"{path.relative_to(ROOT)}:{n}")
    assert not found, found


def test_no_colon_after_a_question_mark():
    assert asked_line("Which coin do you take?") == "Which coin do you take?"
    assert asked_line("Choose one") == "Choose one:"


def test_the_checker_says_how_many_arguments_in_words(tmp_path, capsys):
    from tiny_game import tiny_game
    root = tiny_game(tmp_path, rules="procedure play():\n    move top(pile, 1, 2) to hand of players[0]\n    win players[0]\n")
    code, out, err = run(capsys, "validate", root)
    assert code == 1 and "'top' takes 1 to 2 arguments, 3 given" in out and "(s)" not in out
