"""Card functions kept until a zone changes (interpreter/codegen/zone_pure.py): which qualify, and that a
kept value is never stale: at every decision of random games, and across copies of a game."""
from __future__ import annotations

import ast as pyast
import random

import pytest

from dsl.diagnostics import DiagnosticError
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled
from tiny_game import tiny_game


def _forget(session) -> int:
    """Drop every value kept on the zones (Zone.memo); how many zones kept some."""
    zones = [z for z in session.state.all_zones() if z.memo]
    for z in zones:
        z.memo = None
    return len(zones)


def _scores(session) -> list:
    rt = session.rt
    titles = [e for e in rt.state.entities.values() if e.kind == "title"]
    return [(t.id, q, rt.cfs[t.record_id]["score"](rt, t, q)) for t in titles for q in rt.seats]


def test_kept_title_scores_equal_scores_made_afresh_at_every_decision():
    game = load_compiled("kings_bounty")
    kept_some = 0
    for seed in range(3):
        session = Session(game, 4, seed, keep_labels=False)
        rng = random.Random(seed)
        while session.pending is not None:
            kept = _scores(session)
            kept_some += _forget(session)
            assert kept == _scores(session)
            session.answer(rng.randrange(len(session.pending.values)))
    assert kept_some > 0  # the scores were kept, not only computed


def test_a_copy_keeps_its_own_values():
    game = load_compiled("kings_bounty")
    session = Session(game, 3, 5, keep_labels=False)
    rng = random.Random(1)
    for _ in range(20):
        session.answer(rng.randrange(len(session.pending.values)))
    _scores(session)
    copy = session.copy()
    for s, r in ((session, random.Random(2)), (copy, random.Random(3))):
        for _ in range(15):
            if s.pending is not None:
                s.answer(r.randrange(len(s.pending.values)))
    for s in (session, copy):
        kept = _scores(s)
        _forget(s)
        assert kept == _scores(s)


def test_which_functions_qualify():
    """The title scores that count domains and garrisons are kept; those reading a variable of the game
    (the last monster's player) or going through a counted helper (`distinct`) are not."""
    game = load_compiled("kings_bounty")
    tree = pyast.parse(game.python_source())
    kept, plain = [], []
    for fn in tree.body:
        if isinstance(fn, pyast.FunctionDef) and fn.name.startswith("cf_"):
            text = pyast.unparse(fn)
            (kept if ".memo" in text else plain).append(text)
    assert len(kept) >= 15
    for text in kept:
        assert "rt.gv" not in text and "rt.pv" not in text and ".vars[" not in text and "_distinct" not in text
    assert any("rt.gv" in text for text in plain) and any("_distinct" in text for text in plain)


RECORDS = """\
- id: coin
  kind: token
  name: Coin
  value: 1
  copies: 2
  source: designed
  effect: |
    function alike(p: player, k: number) = count(c in hand of p where c.value == k) * 10 + (if this.id == "coin_1" then 1 else 2)
    function held(p: player) = count(c in hand of p)
    function stacked(p: player) = count(c in hand of p where any(c in under of c where c.value > 1))
- id: gem
  kind: token
  name: Gem
  value: 3
  source: designed
  effect: |
    function alike(p: player, k: number) = count(c in hand of p where c.value == k) * 10 + this.value
    function held(p: player) = count(c in hand of p) + 100
"""


def test_a_kept_value_is_told_apart_by_the_function_the_component_and_the_other_arguments(tmp_path):
    """Kept on the zone under the function and what else it reads (`this` and `k` here; `held` reads no `this`,
    so both coins share one entry), each value is the one made afresh, before and after the zone changes."""
    game = load_compiled(str(tiny_game(tmp_path, records=RECORDS, rules="procedure play():\n    pass\n")))
    session = Session(game, 2, 0)
    rt, state = session.rt, session.state
    coins = [e for e in state.entities.values() if e.record_id == "coin"]
    gem = state.entities["gem"]
    hand = state.player_zones["hand"][0]

    def values():
        return [rt.cfs[e.record_id][f](rt, e, 0, *a) for e in (*coins, gem) for f, a in (("alike", (1,)), ("alike", (3,)), ("held", ()))]

    for move in ([coins[0]], [gem], [coins[1]]):
        first = values()
        assert values() == first and hand.memo  # kept, and kept the same
        hand.memo = None
        assert values() == first
        rt.move(move, hand, False, None)
        assert hand.memo is None  # dropped as the stamp moved (a value found there needs no stamp compared)
        assert values() != first  # the hand changed: nothing stale is read
        hand.memo = None
    values()
    assert len(hand.memo) == 8  # `alike` for each component and k (6), `held` once for each record (2)


def test_a_count_kept_on_a_zone_is_made_by_loops_that_stop_at_the_first_match(tmp_path):
    """The kept count is written as loops (statements.count_loop), its `any` as an inner loop with `break`; the
    inner `c` is the inner loop's own (it shadows the outer one, as the comprehension's would)."""
    game = load_compiled(str(tiny_game(tmp_path, records=RECORDS, rules="procedure play():\n    pass\n")))
    source = game.python_source()
    session = Session(game, 2, 0)
    rt, ents = session.rt, session.state.entities
    coin_1, coin_2, gem = ents["coin_1"], ents["coin_2"], ents["gem"]
    hand = session.state.player_zones["hand"][0]
    fn = rt.cfs["coin"]["stacked"]
    rt.move([coin_1, coin_2], hand, False, None)
    assert fn(rt, coin_1, 0) == 0
    rt.move(gem, coin_1.zones["under"], False, None)  # the hand's stamp moves on: the gem lies on what lies there
    assert hand.memo is None  # and what it kept goes with it
    assert fn(rt, coin_1, 0) == 1 and fn(rt, coin_2, 0) == 1
    rt.move(coin_2, coin_1.zones["under"], False, None)  # worth 1: no match, and no longer in the hand
    assert fn(rt, coin_1, 0) == 1
    hand.memo = None
    assert fn(rt, coin_1, 0) == 1
    text = source[source.index(f"def {fn.__name__}("):]
    text = text[:text.index("\ndef ")]
    assert "break" in text and ".memo" in text  # kept, and made by loops


def test_a_card_function_of_one_player_for_every_seat_gives_what_each_call_gives():
    """`[t.score(q) for q in players]` is one call of the score's twin for every seat (declarations.for_seats):
    at every decision of random games, with kept values and with none, it gives each seat's own call's value."""
    game = load_compiled("kings_bounty")
    assert "v_scores = rt.cfs.seats[v_t.record_id]['score'](rt, v_t)" in game.python_source()
    for players, seed in ((2, 0), (4, 1)):
        session = Session(game, players, seed, keep_labels=False)
        rt = session.rt
        titles = [e for e in rt.state.entities.values() if e.kind == "title"]
        rng = random.Random(seed)
        while session.pending is not None:
            for t in titles:
                together = rt.cfs.seats[t.record_id]["score"](rt, t)
                assert together == [rt.cfs[t.record_id]["score"](rt, t, q) for q in rt.seats]
                _forget(session)
                assert together == rt.cfs.seats[t.record_id]["score"](rt, t)
            session.answer(rng.randrange(len(session.pending.values)))


def test_a_card_function_for_every_seat_fails_and_counts_as_each_call_would(tmp_path):
    rules = """procedure play():
    let c = first(pile)
    let mine = [c.held(q) for q in players]
    players[0].points = sum(x for x in mine)
    let g = bottom(pile)
    let theirs = [g.held(q) for q in players]
    players[1].points = sum(x for x in theirs)
"""
    records = RECORDS.replace("function held(p: player) = count(c in hand of p) + 100",
                              "function held(p: player) = count(c in hand of p) + bonus(count(c in hand of p))\n"
                              "    function far(p: player) = 1")
    game = load_compiled(str(tiny_game(tmp_path, records=records, rules=rules + "function bonus(n: number) = 100\n")))
    assert "rt.cfs.seats[v_c.record_id]['held'](rt, v_c)" in game.python_source()
    session = Session(game, 2, 0)
    assert [pv["points"] for pv in session.state.player_vars] == [0, 200]
    assert session.rt.calls == 1 + 2  # the procedure, and the gem's `held` (which calls `bonus`) once per seat
    missing = load_compiled(str(tiny_game(tmp_path, records=records, name="missing", rules=rules.replace("c.held(q)", "c.far(q)")
                                          + "function bonus(n: number) = 100\n")))
    with pytest.raises(DiagnosticError, match="coin does not define 'far'"):
        Session(missing, 2, 0)


NONE_RECORDS = """\
- id: coin
  kind: token
  name: Coin
  value: 1
  source: designed
  effect: |
    function big(p: player) = first(c in hand of p where c.value > 5)
- id: ruby
  kind: token
  name: Ruby
  value: 9
  source: designed
"""


def test_a_kept_value_of_none_is_kept_too(tmp_path):
    """A card function whose value is none (no component found) is kept like any other: the next call reads it
    from the zone instead of working it out again (the memo itself marks what is not kept)."""
    game = load_compiled(str(tiny_game(tmp_path, records=NONE_RECORDS, rules="procedure play():\n    pass\n")))
    session = Session(game, 2, 0)
    rt, ents = session.rt, session.state.entities
    hand = session.state.player_zones["hand"][0]
    rt.move(ents["coin"], hand, False, None)
    big = rt.cfs["coin"]["big"]
    assert big(rt, ents["coin"], 0) is None
    assert ".memo" in game.python_source()[game.python_source().index(f"def {big.__name__}("):][:2000]
    assert None in hand.memo.values()
    hand.items.append(ents["ruby"])  # behind the stamp's back: only a value worked out again would find it
    assert big(rt, ents["coin"], 0) is None
    hand.items.remove(ents["ruby"])
    rt.move(ents["ruby"], hand, False, None)
    assert big(rt, ents["coin"], 0) is ents["ruby"]  # the hand changed: worked out again
