"""The engine's shortcuts end where the plain way ends: a whole zone moved at once (Runtime._move_all), and a
menu's inner collection made once per enumeration when the outer bindings cannot change it
(Statements.enumerate_option), never when it draws a random number."""
from __future__ import annotations

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
    before.call("play")
    hand = before.state.player_zones["hand"][1]
    assert [e.id for e in hand.items] == order and pile.items == [] and pile.items is held  # emptied in place
    assert all(e.zone is hand and not e.face_down and e.seen_by is None for e in hand.items)
    assert pile.stamp == stamps[0] + len(order) and hand.stamp == stamps[1] + len(order)
    assert before.pending.labels == [f"one {i}" for i in order]
