"""The silent mistakes of issue 21 §1: content that validated and played without a word, or whose message
did not say what to fix. Each now gets a diagnostic with a stable code at its file:line:col; the warnings
stay quiet on the three games."""
from __future__ import annotations

import shutil

import pytest

from dsl.diagnostics import DiagnosticError
from dsl.loader import load_game
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from tests.test_bad_input import ROOT, assert_clean, broken_kb, line_of
from tests.tiny_game import tiny_game

# A deck-builder's corner: cards of kind `card` work from the hand; `play_card` is the event of playing one.
DECK = dict(attributes="cost: number", kinds="card: {starts_in: pile, active_in: [hand]}")
EVENT = """\
event play_card(p: player, c: entity)
procedure play():
    for p in players:
        move top(pile) to hand of p
"""
CARDS = """\
- id: smithy
  kind: card
  name: Smithy
  cost: 4
  source: designed
  effect: |
    when play_card(_, this):
        you.points += this.cost
- id: village
  kind: card
  name: Village
  cost: 3
  source: designed
  effect: |
    when play_card(_, c):
        you.points += 2
- id: market
  kind: card
  name: Market
  source: designed
  effect: |
    when play_card(p, _):
        p.points += this.cost
"""


def found(root, code: str) -> list:
    return [d for d in load_game(root).report.diagnostics if d.code == code]


def at(diag, rel: str, line: int, col: int, severity: str = "warning") -> str:
    """The diagnostic's code, severity, file:line:col, and its caret under that column of the quoted line."""
    rendered = diag.render()
    first, quoted, caret = rendered.splitlines()[:3]
    assert diag.severity == severity, rendered
    assert diag.span.path.endswith(rel) and (diag.span.line, diag.span.col) == (line, col), rendered
    assert first.endswith(f"{severity}[{diag.code}]: {diag.message}"), rendered
    assert caret.index("^") == quoted.index("|") + 1 + col, rendered
    return rendered


def test_pattern_name_bound_and_never_used(tmp_path):
    root = tiny_game(tmp_path, rules=EVENT, records=CARDS, **DECK)
    [d] = found(root, "DSL-UNUSED")
    line = line_of(root, "cards.yaml", "when play_card(_, c):")
    at(d, "cards.yaml", line, len("    when play_card(_, ") + 1)
    assert "'c'" in d.message
    assert "when play_card(_, this)" in d.hint  # says what was meant
    assert load_game(root).report.ok  # a warning: the game still validates


def test_card_ability_that_cannot_tell_its_own_card(tmp_path):
    root = tiny_game(tmp_path, rules=EVENT, records=CARDS, **DECK)
    [d] = found(root, "DSL-SELF")
    line = line_of(root, "cards.yaml", "when play_card(p, _):")
    at(d, "cards.yaml", line, len("    when play_card(p, ") + 1)
    assert "when play_card(p, this)" in d.hint
    fixed = tiny_game(tmp_path, rules=EVENT, records=CARDS.replace("play_card(p, _)", "play_card(p, this)"), name="fixed", **DECK)
    assert not found(fixed, "DSL-SELF")


def test_attribute_the_record_lacks_is_told_at_validation(tmp_path):
    root = tiny_game(tmp_path, rules=EVENT, records=CARDS, **DECK)
    [d] = found(root, "ATTR-MISSING")
    line = line_of(root, "cards.yaml", "p.points += this.cost")
    at(d, "cards.yaml", line, len("        p.points += ") + 1)
    assert "'market' has no attribute 'cost'" in d.message and "default" in d.hint
    with_default = tiny_game(tmp_path, rules=EVENT, records=CARDS, name="defaulted", kinds=DECK["kinds"],
                             attributes="cost: {type: number, default: 0}")
    assert not found(with_default, "ATTR-MISSING")


def test_attribute_some_records_lack_names_operand_and_record_at_run_time(tmp_path):
    rules = EVENT.replace("procedure play():\n", "procedure play():\n    let total = 0\n    for c in pile:\n"
                          "        total = total + c.cost\n")
    root = tiny_game(tmp_path, rules=rules, records=CARDS, **DECK)
    with pytest.raises(DiagnosticError) as err:
        Session(load_compiled(str(root)), 2, seed=0)
    [d] = err.value.diagnostics
    assert d.code == "RUN-ERROR" and d.span.line == 5  # the statement: `total = total + c.cost`
    assert d.message == "c.cost is none: market (record 'market') has no 'cost', and 'cost' has no default"


def test_unclosed_brace_in_a_text(tmp_path):
    root = tiny_game(tmp_path, rules='procedure play():\n    log "{player_count} players, {players"\n')
    [d] = load_game(root).report.diagnostics
    assert_clean(d, "DSL-SYNTAX", "main.rules", 2, 'log "{player_count}')
    assert d.span.col == len('    log "{player_count} players, ') + 1 and "never closed" in d.message


def test_zone_read_as_a_member_says_how_to_write_it(tmp_path):
    root = tiny_game(tmp_path, rules="procedure play():\n    let p = players[0]\n    move top(pile) to p.hand\n")
    [d] = load_game(root).report.diagnostics
    assert_clean(d, "REF-UNDEF", "main.rules", 3, "p.hand")
    assert d.hint == "'hand' is a zone: write 'hand of p'"


def test_duplicate_id_of_a_record_with_copies_is_one_error(tmp_path):
    records = "- id: coin\n  kind: token\n  value: 1\n  copies: 10\n  source: x\n" * 2
    root = tiny_game(tmp_path, records=records)
    dups = found(root, "REF-DUP")
    assert len(dups) == 1, [d.render() for d in dups]
    assert_clean(dups[0], "REF-DUP", "cards.yaml", 6, "id: coin")


def test_schema_messages_name_records_by_id(tmp_path):
    root = broken_kb(tmp_path, "cards/dwarves.yaml", "  strength: 2", "  strength: two")
    [d] = [d for d in load_game(root).report.diagnostics if d.code == "SCHEMA-TYPE"]
    assert d.message == "dwarves_archer.strength must be of type integer, not str"
    records = "- id: coin\n  kind: token\n  source: x\n"  # the kind requires `value`
    [d] = found(tiny_game(tmp_path, records=records), "SCHEMA-REQUIRED")
    assert d.message == "missing required field 'value' in record 'coin'"


@pytest.mark.parametrize("rules, code, line, col, says", [
    ("procedure play():\n    for p in players:\n    pass\n", "DSL-INDENT", 3, 5, "is not indented, but the line above ends with"),
    ("procedure play():\n    if player_count = 2:\n        pass\n", "DSL-SYNTAX", 2, 21, "to compare, write '=='"),
    ("procedure play():\n    choose len(pile) - 1 cs in pile by players[0]\n", "DSL-SYNTAX", 2, 15, "choose exactly EXPR NAME in"),
])
def test_syntax_errors_say_what_was_meant(tmp_path, rules, code, line, col, says):
    [d] = load_game(tiny_game(tmp_path, rules=rules)).report.diagnostics
    assert_clean(d, code, "main.rules", line, rules.splitlines()[line - 1].strip()[:12])
    assert d.span.col == col and says in d.message, d.render()


@pytest.mark.parametrize("game", ["kings_bounty", "btwixt", "agot"])
def test_no_warning_on_the_three_games(tmp_path, game):
    root = tmp_path / game
    shutil.copytree(ROOT / "content" / game, root)
    assert [d.render() for d in load_game(root).report.diagnostics] == []
