"""Fields kept out of names (`shown: false`) and `combinations(C, K)` built in (issue 33 item 4)."""
from __future__ import annotations

import pytest

from dsl.loader import load_game
from interpreter.codegen import compile_game
from interpreter.present.words import Presenter, shown_to
from interpreter.runtime.session import Session
from tiny_game import compiled, tiny_game

RULES = """\
procedure play():
    let hand = [c in pile where c.kind == token]
    choose by players[0] ask "Trade a set?":
        trade(s) for s in combinations(hand, 2) if sum(c.value for c in s) >= 4:
            move s to hand of players[0]
    log to players[0] "You hold {[c in hand of players[0]]}"
"""
RECORDS = """\
- {id: coin, kind: token, name: Coin, value: 1, card_no: 11, copies: 2, source: designed}
- {id: gem, kind: token, name: Gem, value: 3, card_no: 12, source: designed}
- {id: ruby, kind: token, name: Ruby, value: 4, card_no: 13, source: designed}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return compiled(tiny_game(tmp_path_factory.mktemp("sets"), rules=RULES, records=RECORDS,
                              attributes="card_no: {type: number, shown: false}"))


def test_each_set_is_offered_once_in_the_collection_s_order(game):
    s = Session(game, 2, seed=0)
    d = s.pending
    # pairs of [coin_1, coin_2, gem, ruby] worth 4 or more, each once, in the pile's order
    assert d.labels == ["trade coin_1 gem", "trade coin_1 ruby", "trade coin_2 gem", "trade coin_2 ruby", "trade gem ruby"]


def test_a_field_kept_out_of_names_never_shows(game):
    told = []
    from interpreter.present.words import telling
    s = Session(game, 2, seed=0, account=telling(lambda to, text: told.append(text)))
    shown = shown_to(s.pending, s.state)
    assert shown.options[0] == "trade: Coin (value 1), Gem (value 3) #1", shown.options
    assert not any("card" in o or "11" in o for o in shown.options)
    s.answer("trade gem ruby")
    assert told == ["You hold Gem, Ruby"]
    gem = s.state.entities["gem"]
    assert Presenter(s.state, 0).describe(gem) == "Gem (value 3)" and gem.attrs["card_no"] == 12  # rules still read it


def test_combinations_is_checked_and_bounded(tmp_path):
    bad = tiny_game(tmp_path, rules="""\
    procedure play():
        let a = combinations(3, 2)
        let b = combinations(pile, "two")
        let c: list[entity] = combinations(pile, 2)
    """, name="bad")
    codes = [(d.code, d.span.line) for d in load_game(bad).report.diagnostics]
    assert codes == [("TYPE-MISMATCH", 2), ("TYPE-MISMATCH", 3), ("TYPE-MISMATCH", 4)], codes
    big = tiny_game(tmp_path, rules="""\
    procedure play():
        let n = len(combinations(1..60, 6))
    """, name="big")
    from dsl.diagnostics import DiagnosticError
    with pytest.raises(DiagnosticError, match="RUN-LIMIT"):
        Session(compile_game(load_game(big)), 2)
