"""The engine's shortcuts end where the plain way ends: a whole zone moved at once (Runtime._move_all), and a
menu's inner collection made once per enumeration when the outer bindings cannot change it
(Statements.enumerate_option), never when it draws a random number."""
from __future__ import annotations

import re

import pytest

from dsl.diagnostics import DiagnosticError
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled
from tiny_game import tiny_game

MENU = """
function everyone() = concat([hand of q for q in players])
procedure play():
    for p in players:
        move top(pile) to hand of p
    choose by players[0] ask "Pick a pair":
        pair(u, d) for u in hand of players[0] + pile, d in everyone() ask "Pair {u} with {d}":
            log "{u} {d}"
        lucky(u, d) for u in hand of players[0] + pile, d in [random(pile + hand of players[1])] + [] ask "Lucky":
            log "{u} {d}"
"""

MOVE_ALL = """
procedure play():
    move pile to hand of players[1]
    choose by players[0] ask "Which?":
        one(c) for c in hand of players[1] ask "{c}":
            log "{c}"
"""


def test_an_invariant_inner_collection_is_made_once_and_a_random_one_each_time(tmp_path):
    game = load_compiled(str(tiny_game(tmp_path, rules=MENU)))
    source = game.python_source()
    play = source[source.index("def p_play"):]
    assert play.count(" is None:") == 1  # everyone() is kept for the second card...
    draw = play.index("_random(")
    assert "is None" not in play[play.rindex("\n", 0, draw):draw]  # ...the random draw is made for each card
    session = Session(game, 2, 1)
    pairs = [label for label in session.pending.labels if label.startswith("pair ")]
    hand, pile = ["coin_1"], ["gem"]  # seat 0's card and the one left in the pile; everyone(): both hands
    assert pairs == [f"pair {u} {d}" for u in hand + pile for d in ["coin_1", "coin_2"]]
    assert len([label for label in session.pending.labels if label.startswith("lucky ")]) == 2


def test_a_whole_zone_moved_at_once_ends_as_one_move_at_a_time(tmp_path):
    game = load_compiled(str(tiny_game(tmp_path, rules=MOVE_ALL)))
    before = Session(game, 2, 0, start=False)
    pile = before.state.game_zones["pile"]
    held, order = pile.items, [e.id for e in pile.items]
    for e in pile.items:
        e.face_down, e.seen_by = True, 0
    stamps = (pile.stamp, before.state.player_zones["hand"][1].stamp)
    told = []  # the move watchers hear of each component, as from single moves
    before.rt.move_watchers.append(lambda e, old, new: told.append((e.id, old.key, new.key)))
    before.call("play")
    hand = before.state.player_zones["hand"][1]
    assert told == [(i, "pile", "hand#1") for i in order]
    assert [e.id for e in hand.items] == order and pile.items == [] and pile.items is held  # emptied in place
    assert all(e.zone is hand and not e.face_down and e.seen_by is None for e in hand.items)
    assert pile.stamp == stamps[0] + len(order) and hand.stamp == stamps[1] + len(order)
    assert before.pending.labels == [f"one {i}" for i in order]


WORTH = """\
- id: coin
  kind: token
  name: Coin
  value: 1
  copies: 2
  source: designed
- id: gem
  kind: token
  name: Gem
  value: 3
  source: designed
  effect: |
    function worth(p: player) = if p == players[1] then 11 else 10
"""

LOWERED = """
procedure play():
    let q = 5
    let g = first(c in pile where c.value == 3)
    let coin = first(c in pile where c.value == 1)
    let worths = [g.worth(q) for q in players]
    let big = [c in pile where c.value > 1]
    let unasked = [coin.worth(q) for q in players where q == none]
    let held = [holder(g), holder(coin)]
    move g to hand of players[1]
    move coin to under of g
    players[0].points = q * 1000 + worths[0] * 100 + worths[1] + len(big) * 10000 + len(unasked) * 100000
    players[1].points = (if held[0] == none and held[1] == none then 1 else 0) + (if holder(g) == players[1] then 10 else 0) + (if holder(coin) == players[1] then 100 else 0)
"""


def test_a_list_made_by_a_let_is_a_loop_that_leaves_the_procedures_locals_alone(tmp_path):
    """`let x = [...]` is written as a loop (Statements.list_loop): its variable does not clobber a local of the
    same name, a card function is looked up once for all elements, and only when some element asks it; `holder`
    read inline agrees with the plain one (in a zone of the game, of a player, and stacked on a component)."""
    game = load_compiled(str(tiny_game(tmp_path, rules=LOWERED, records=WORTH)))
    play = game.python_source()[game.python_source().index("def p_play"):]
    assert "for v_q in" not in play and "['worth']" in play
    session = Session(game, 2, 1)
    assert session.result.scores == [5 * 1000 + 10 * 100 + 11 + 10000, 1 + 10 + 100]


def test_a_card_function_looked_up_for_a_list_fails_as_each_call_would(tmp_path):
    rules = LOWERED.replace("where q == none]", "]")  # the coin has no `worth`: asked of it for each player, it fails
    game = load_compiled(str(tiny_game(tmp_path, rules=rules, records=WORTH)))
    with pytest.raises(DiagnosticError) as failed:
        Session(game, 2, 1)
    assert "does not define 'worth'" in str(failed.value) and "main.rules:8:" in str(failed.value)


HOISTED = """
procedure play():
    choose by players[0] ask "Pick a pair":
        pair(u, d) for u in pile, d in pile if d.value > u.value and any(u in pile where u.value == d.value) ask "{u} {d}":
            log "{u} {d}"
        same(u, d) for u in pile, d in pile if u.value + d.value == 2 ask "{u} {d}":
            log "{u} {d}"
"""


def test_an_outer_bindings_attributes_are_read_once_and_a_comprehension_of_the_same_name_reads_its_own(tmp_path):
    """A menu reads `u.value` of the outer binding once per u, before the loop over d (Expressions.hoist); the
    `u` of a comprehension inside the condition is its own, not the outer one."""
    game = load_compiled(str(tiny_game(tmp_path, rules=HOISTED)))
    play = game.python_source()[game.python_source().index("def p_play"):]
    assert play.count("v_u.attrs.get('value')") == 2  # once before each option's inner loop
    # the `any`, a loop in the condition's statements (codegen.conditions), reads its own `u`, a temporary
    assert re.search(r"for (t_\d+) in \(rt.gz\['pile'\]\).items:\n +t_\d+ = \(\1.attrs.get\('value'\) == v_d.attrs.get\('value'\)\)", play)
    session = Session(game, 2, 1)
    assert session.pending.labels == ["pair coin_1 gem", "pair coin_2 gem", *(f"same {u} {d}" for u in ("coin_1", "coin_2")
                                                                                for d in ("coin_1", "coin_2"))]


JOINED = """
procedure play():
    for p in players:
        move top(pile) to hand of p
    let joined = concat([hand of q for q in players])
    let plain = concat([hand of q for q in players where q != none])
    players[0].points = len(joined) * 10 + len(plain)
    for c in joined + pile:
        players[1].points = players[1].points + c.value
"""


def test_one_zone_of_every_player_joined_and_a_loop_over_a_join_end_as_the_plain_ways(tmp_path):
    """`concat([hand of q for q in players])` is joined without the list of zones (library.concat_zone), counted as
    `concat` counts it; a `for` over `a + b` goes through the joined list without a copy (budgets.loop_made)."""
    from interpreter.codegen import library
    game = load_compiled(str(tiny_game(tmp_path, rules=JOINED)))
    play = game.python_source()[game.python_source().index("def p_play"):]
    assert play.count("_concat_zone(rt, 'hand')") == 1 and "_loop_made(rt, _concat2(" in play
    session = Session(game, 2, 1)
    assert session.result.scores == [22, 1 + 1 + 3]
    rt = session.rt
    rt.steps = 0
    made = library.concat_zone(rt, "hand")
    steps, rt.steps = rt.steps, 0
    assert made == library.concat(rt, rt.pz["hand"]) and steps == rt.steps == 4


STACKED = """
procedure play():
    let g = first(c in pile where c.value == 3)
    let coin = first(c in pile where c.value == 1)
    move g to hand of players[1]
    move coin to under of g
    players[0].points = count(c in under of g where holder(c) == players[1]) * 10 + count(c in pile where holder(c) == none)
    choose by players[0] ask "Which?":
        one(c) for c in under of g if holder(c) == players[1] ask "{c}":
            log "{c}"
        two(c) for c in pile if holder(c) == none ask "{c}":
            log "{c}"
"""


def test_holder_of_what_lies_in_a_zone_read_inline_goes_through_a_stacked_component(tmp_path):
    """`holder(c)` of a comprehension's or a menu's element of a zone is read in short (Expressions.components), also
    none for one in a zone of the game; a component lying on a component still answers through `_holder`."""
    game = load_compiled(str(tiny_game(tmp_path, rules=STACKED)))
    play = game.python_source()[game.python_source().index("def p_play"):]
    assert play.count("is None) else _holder(") == 4 and "_type(v_c) is _Entity" not in play
    session = Session(game, 2, 1)
    assert session.state.player_vars[0]["points"] == 10 + 1
    assert session.pending.labels == ["one coin_1", "two coin_2"]


def test_player_helpers_take_a_seat_in_range_as_it_is_and_refuse_anything_else():
    """players_from, distance, neighbors and ask read a seat in range inline (seat()'s common case): the same
    values, and the same refusal for a value that is no player of the game."""
    from types import SimpleNamespace

    from interpreter.codegen import library
    for n in (2, 3, 4, 6):
        rt = SimpleNamespace(state=SimpleNamespace(players=n), steps=0, calls=0)
        for p in range(n):
            assert library.players_from(rt, p) == [(p + i) % n for i in range(n)]
            assert library.neighbors(rt, p) == ([(p - 1) % n, (p + 1) % n] if n >= 3 else [(p + 1) % n])
            assert [library.distance(rt, p, q) for q in range(n)] == [(q - p) % n for q in range(n)]
            assert library.ask(rt, p, "q", [1, 2]).player == p
        for bad in (-1, n, True, None, "P1", 1.5):
            for call in (lambda: library.players_from(rt, bad), lambda: library.neighbors(rt, bad),
                         lambda: library.distance(rt, bad, 0), lambda: library.distance(rt, 0, bad),
                         lambda: library.ask(rt, bad, "q", [1])):
                with pytest.raises(RuntimeError):
                    call()


def test_you_of_a_component_is_its_holder_wherever_it_lies():
    """you_of reads holder's common case inline: in a zone of the game, of a player, on a component, nowhere."""
    from interpreter.codegen import library
    from interpreter.core.state import Entity, Zone, holder
    carrier, card, loose = (Entity(i, i, {"kind": "token"}, {}) for i in ("carrier", "card", "loose"))
    hand, pile, under = Zone("hand", 2, ("all", "none")), Zone("pile", None, ("all", "all")), Zone("under", carrier, ("all", "all"))
    for zone, e in ((hand, carrier), (under, card)):
        zone.items.append(e)
        e.zone = zone
    assert [library.you_of(e) for e in (carrier, card, loose)] == [holder(e) for e in (carrier, card, loose)] == [2, 2, None]
    carrier.zone, hand.items, pile.items = pile, [], [carrier]
    assert library.you_of(carrier) is None and library.you_of(card) is None
    with pytest.raises(RuntimeError):
        library.you_of(None)
