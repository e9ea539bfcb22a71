"""Shortcuts of the compiler and the runtime end as the plain way ends: a scan of a short list local in place,
a log line's values evaluated with nobody listening, a `while` loop's budgets counted inline, `top`/`bottom`,
`next`/`prev` and `holder` without a helper call in the common case, and still failing in the language's words
where the plain way fails."""
from __future__ import annotations

import pytest

from dsl.diagnostics import DiagnosticError
from interpreter.runtime import Session
from interpreter.runtime.games import load_compiled
from interpreter.present.words import telling
from tiny_game import tiny_game


def compiled(tmp_path, rules: str, name: str = "tiny"):
    return load_compiled(str(tiny_game(tmp_path, rules=rules, name=name)))


def failure(game, account=None) -> str:
    with pytest.raises(DiagnosticError) as caught:
        Session(game, 2, 0, account=account)
    d = caught.value.diagnostics[0]
    return f"{d.code}: {d.message}"


SCAN = """
procedure play():
    let few = [i for i in 1..{n}]
    players[0].points = count(c in pile where c.value in few) * 10 + count(c in pile where c.value not in few)
"""


@pytest.mark.parametrize("n", [16, 17])
def test_a_short_list_local_is_scanned_in_place_and_a_longer_one_counted(tmp_path, n):
    """`x in xs` of a list local of at most SMALL_SCAN elements is Python's `in`, counted with the comprehension
    that runs it; a longer list goes through `_in`, which counts every element it looks through."""
    game = compiled(tmp_path, SCAN.replace("{n}", str(n)))
    assert "in v_few if _type(v_few) is _list and _len(v_few) <= 16 else _in(rt, " in game.python_source()
    session = Session(game, 2, 0)
    assert session.state.player_vars[0]["points"] == 3 * 10 + 0  # coin, coin and gem: values 1, 1 and 3
    # the range and the list made count n each, the two comprehensions 3 each; the longer scans 3 * n more each
    assert session.rt.steps == 2 * n + 6 + (2 * 3 * n if n > 16 else 0)


def test_a_log_line_is_evaluated_with_nobody_listening(tmp_path):
    """A log line's values are computed even when no listener takes the line (so its errors show in simulations);
    a listener gets it as before."""
    game = compiled(tmp_path, """
        procedure play():
            let zero = count(c in pile where c.value > 5)
            log "{count(c in pile)} in the pile"
            log "{10 / zero}"
        """)
    assert failure(game) == "RUN-ERROR: division by zero"
    lines: list = []
    assert failure(game, telling(lambda to, text: lines.append(text))) == "RUN-ERROR: division by zero"
    assert lines == ["3 in the pile"]


def test_a_while_loop_counts_its_steps_and_stops_at_its_bound(tmp_path):
    game = compiled(tmp_path, """
        procedure play():
            let n = 0
            while n < 5:
                n = n + 1
            players[0].points = n
        """)
    session = Session(game, 2, 0)
    assert session.state.player_vars[0]["points"] == 5 and session.rt.steps == 5
    endless = compiled(tmp_path, "procedure play():\n    while true:\n        pass\n", name="endless")
    assert failure(endless) == "RUN-LIMIT: this loop ran 100,000 times without ending"


def test_top_and_bottom_take_a_count_of_zero_or_more_and_give_a_new_list(tmp_path):
    game = compiled(tmp_path, """
        procedure play():
            let t = top(pile, 2)
            let b = bottom(pile, 2)
            move t to hand of players[0]
            players[0].points = len(t) * 100 + len(b) * 10 + len(top(pile, 0)) + len(bottom(pile, 0))
            players[1].points = count(c in b where c.value == 3)
        """)
    session = Session(game, 2, 0)
    state = session.state
    assert state.player_vars[0]["points"] == 220 and state.player_vars[1]["points"] == 1
    assert [e.id for e in state.player_zones["hand"][0].items] == ["coin_1", "coin_2"]
    assert [e.id for e in state.game_zones["pile"].items] == ["gem"]
    for bad, shown in (("-1", "the number -1"), ("true", "yes")):
        for which in ("top", "bottom"):
            broken = compiled(tmp_path, f"procedure play():\n    let t = {which}(pile, {bad})\n", name=f"{which}{bad}")
            assert failure(broken) == f"RUN-ERROR: '{which}' needs a number of at least 0, not {shown}"


def test_next_and_prev_of_a_seat_and_of_what_is_not_one(tmp_path):
    game = compiled(tmp_path, """
        procedure play():
            players[0].points = (if next(players[1]) == players[0] then 10 else 0) + (if prev(players[0]) == players[1] then 1 else 0)
        """)
    assert Session(game, 2, 0).state.player_vars[0]["points"] == 11
    for which in ("next", "prev"):  # `who` is none: no player was ever set
        rules = f"procedure play():\n    players[0].points = if {which}(who) == players[0] then 1 else 0\n"
        broken = load_compiled(str(tiny_game(tmp_path, rules=rules, variables="who: {scope: game, type: player}",
                                             name=which)))
        assert failure(broken) == "RUN-ERROR: none is not a player of this game"


FACTS = """
procedure play():
    for p in players:
        move top(pile) to hand of p
    let scores = [count(c in hand of q) + 1 for q in players]
    let held = [q in players where count(c in hand of q) >= 1]
    let big = [i for i in 1..20]
    let grown = [q for q in players]
    grown = grown + [players[0]]
    let best = max(scores)
    let most = max(big)
    players[0].points = best * 100 + most + len(grown) * 1000
    for q in players:
        players[1].points = players[1].points + scores[q] * 10 + (if held[q] == none then 1 else 0)
    for q in [players[1]]:
        players[1].points = players[1].points + scores[q] * 1000
    let mixed = [q for q in players]
    for mixed in players:
        mixed.points = mixed.points + scores[mixed] * 0
    award(players[0], scores)
procedure award(who: player, scores: list[number]):
    who.points = who.points + scores[who] * 10000
    for who in players:
        who.points = who.points + 0
"""


def test_locals_bound_only_by_going_through_the_players_are_read_in_short(tmp_path):
    """codegen.facts: a list of one element per player indexed by a seat is read in place; a shorter list (with a
    condition) indexed by a seat, by its length; a name also bound otherwise, assigned, or a parameter, as before;
    `max` of a list of a few elements is taken in place, of a longer one counted."""
    game = compiled(tmp_path, FACTS)
    source = game.python_source()
    play, award = source[source.index("def p_play"):source.index("def p_award")], source[source.index("def p_award"):]
    assert "v_best = _max_of(v_scores) if v_scores else None" in play
    assert "rt.steps += _len(v_big)" in play and "v_most = _max_of(v_big) if v_big else None" in play
    assert "(v_held[v_q] if v_q < _len(v_held) else _at(v_held, v_q, 'held'))" not in play  # `q` is bound twice...
    assert "v_scores[v_q] if v_q is not None and -1 < v_q" in play  # ...so it is read the general way
    assert "_len(v_grown) if _type(v_grown) is _list" in play  # assigned: no fact
    assert "v_scores[v_mixed] if v_mixed is not None and -1 < v_mixed" in play  # a list and a seat: no fact
    assert "v_scores[v_who] if v_who is not None and -1 < v_who" in award  # a parameter, bound again: no fact
    session = Session(game, 2, 0)
    points = session.state.player_vars
    assert points[0]["points"] == 2 * 100 + 20 + 3 * 1000 + 2 * 10000
    assert points[1]["points"] == 2 * (2 * 10 + 0) + 2 * 1000  # every seat is held: held[q] is never none


def test_a_seat_indexes_a_list_per_player_in_place_and_a_shorter_one_by_its_length(tmp_path):
    game = compiled(tmp_path, FACTS.replace("    for q in [players[1]]:\n        players[1].points = players[1].points + scores[q] * 1000\n", ""))
    play = game.python_source()[game.python_source().index("def p_play"):]
    assert "_mul(v_scores[v_q], 10)" in play and "(v_held[v_q] if v_q < _len(v_held) else _at(v_held, v_q, 'held'))" in play
    session = Session(game, 2, 0)
    assert session.state.player_vars[1]["points"] == 2 * (2 * 10 + 0)  # every seat is held
    # read past its end (nobody holds two cards: `held` is empty), the shortcut's list is a run error naming it
    empty = compiled(tmp_path / "empty", FACTS.replace("count(c in hand of q) >= 1", "count(c in hand of q) > 1"))
    with pytest.raises(DiagnosticError, match=r"held\[0\] reads past its end: held has 0 elements"):
        Session(empty, 2, 0)


def test_a_comprehension_variable_is_not_the_outer_local_of_its_name(tmp_path):
    rules = """
        procedure play():
            let scores = [1 for q in players]
            for q in players:
                q.points = scores[q] + count(q in [players[0], who] where scores[q] == 1)
        """
    game = load_compiled(str(tiny_game(tmp_path, rules=rules, variables="who: {scope: game, type: player}")))
    play = game.python_source()[game.python_source().index("def p_play"):]
    assert "(v_scores[v_q] + " in play and "v_scores[v_q] if v_q is not None and -1 < v_q" in play
    with pytest.raises(DiagnosticError, match="a list is indexed by a number, not none"):
        Session(game, 2, 0)  # `who` is none


MENU_WORDS = """
procedure play():
    let n = count(c in pile)
    choose by players[0] ask "Which?":
        take(c) for c in pile ask "Take {c} of {n}":
            move c to hand of players[0]
        keep if n > 0 ask "Keep all {n}":
            players[1].points = n
"""


@pytest.mark.parametrize("pick, points, hand", [(1, 0, ["coin_2"]), (3, 3, [])])
def test_a_menus_options_are_made_where_they_are_found_and_a_copy_takes_the_chosen_one(tmp_path, pick, points, hand):
    """Each option is a MenuChoice made as the options are enumerated (the decision's values), found again by its
    option when answered; an option's words that read a local of the procedure are made before the options, and
    a copy of the game maps them with the choices, so that the copy also takes the option chosen."""
    from interpreter.codegen.library import MenuChoice
    game = compiled(tmp_path, MENU_WORDS)
    session = Session(game, 2, 0)
    values = session.pending.values
    assert all(type(v) is MenuChoice for v in values)
    assert session.pending.labels == ["take coin_1", "take coin_2", "take gem", "keep"]
    assert values[3].option[3]()[1:] == ((3, "number"),)  # the words read `n` of the procedure
    for s in (session, session.copy()):
        s.answer(pick)
        state = s.state
        assert state.player_vars[1]["points"] == points and [e.id for e in state.player_zones["hand"][0].items] == hand


CONDITIONS = [  # (condition, its truth after setup: coin_1 in P1's hand, coin_2 in P2's, the gem (3) in the pile)
    ("any(c in pile where c.value > 2)", True),
    ("any(c in hand of players[0] where c.value > 2)", False),
    ("all(c in pile where c.value > 2) and not all(c in hand of players[1] where c.value > 2)", True),
    ("all(c in under of first(pile) where c.value > 2)", True),  # nothing there
    ("sum(c.value for c in pile) > max(1, count(c in pile where c.value > 0))", True),
    ("sum(c.value for c in hand of players[0] where c.value > 5) == 0", True),
    ("max(n, 2) == 2 and min(n, 2) == 2 and max(2, n) == 2 and min(3, 2) == 2", True),  # `n` is none
    ("(if count(c in pile) > 1 then true else any(c in pile where c.value == 3))", True),
    ("not (if count(c in pile) > 0 then any(c in pile where c.value == 1) else true)", True),
    ("false and sum(c.value for c in pile) / 0 > 1", False),  # never divided, as in the expression
    ("count(c in pile where c.value > 0) > 0 or 1 / 0 > 0", True),
    ("any(c in pile where strong(c)) and not strong(first(hand of players[0]))", True),
    ("count(c in pile where c.value == 3) == 1 and max(first(pile).value, sum(u.value for u in under of first(pile))) == 3",
     True),
]


@pytest.mark.parametrize("cond, truth", CONDITIONS)
def test_a_condition_a_statement_tests_is_written_as_statements_and_holds_as_the_expression(tmp_path, cond, truth):
    """codegen.conditions: `if`, `elif`, a `for`'s and a menu's `where`, a list's condition, written as statements,
    hold exactly when the same condition as an expression holds (short-circuits and none included), and count
    the same steps."""
    rules = f"""
procedure play():
    for p in players:
        move top(pile) to hand of p
    let e = if {cond} then 1 else 0
    let s = 0
    if count(c in pile) < 0:
        s = 100
    elif {cond}:
        s = 1
    let f = [q in players where {cond}]
    for q in players where {cond}:
        q.points = q.points + 10
    players[1].points = e * 1000 + s * 100 + len(f)
    choose by players[0] ask "Which?":
        one(q) for q in players if {cond} ask "{{q}}":
            pass
        other ask "none":
            pass
function strong(c: entity) = max(c.value, sum(u.value for u in under of c)) > 2
"""
    game = load_compiled(str(tiny_game(tmp_path, rules=rules, variables="n: {scope: game, type: number}")))
    session = Session(game, 2, 0)
    assert [pv["points"] for pv in session.state.player_vars] == [10 * truth, 1102 * truth]
    assert (session.pending.labels if truth else session.pending) == (["one P1", "one P2", "other"] if truth else None)


MANY = """
- id: coin
  kind: token
  name: Coin
  value: 1
  copies: 300
  source: designed
- id: gem
  kind: token
  name: Gem
  value: 3
  source: designed
"""


@pytest.mark.parametrize("cond", ["any(c in pile where c.value > 2)", "all(c in pile where c.value > 0)",
                                  "sum(c.value for c in pile where c.value > 0) > max(1, count(c in pile where c.value > 1))"])
def test_a_condition_written_as_statements_counts_the_steps_the_expression_counts(tmp_path, cond):
    """In a game of more than SMALL_ZONES components, what a comprehension goes through is counted: its loop in a
    condition's statements counts the same."""
    def steps(extra: str, name: str) -> int:
        rules = f"procedure play():\n    let x = 0\n{extra}"
        return Session(load_compiled(str(tiny_game(tmp_path, rules=rules, records=MANY, name=name))), 2, 0).rt.steps
    plain = steps("", "plain")
    expression = steps(f"    let e = if {cond} then 1 else 0\n", "expression") - plain
    statement = steps(f"    if {cond}:\n        x = 1\n", "statement") - plain
    assert expression == statement > 300


def test_a_condition_written_as_statements_fails_where_the_expression_fails(tmp_path):
    rules = """
procedure play():
    if any(c in pile where c.value / zero > 0) or true:
        players[0].points = 1
"""
    game = load_compiled(str(tiny_game(tmp_path, rules=rules, variables="zero: {scope: game, type: number, initial: 0}")))
    assert "any(" not in game.python_source()[game.python_source().index("def p_play"):]  # a loop, not a generator
    assert failure(game) == "RUN-ERROR: division by zero"
    # the left side of a comparison is evaluated before the right side's statements run, as in the expression
    rules = """
procedure play():
    if 1 / zero > sum(c.value for c in pile where next(who) == players[0]):
        players[0].points = 1
"""
    game = load_compiled(str(tiny_game(tmp_path, rules=rules, name="order", variables="zero: {scope: game, type: number, "
                                       "initial: 0}\nwho: {scope: game, type: player}")))
    assert failure(game) == "RUN-ERROR: division by zero"


def test_the_runtime_keeps_fewer_than_30_attributes(tmp_path):
    """Generated code reads `rt.x` everywhere: at 30 instance attributes CPython 3.11 stops sharing the instance
    dict's keys and every such read is slower (B'Twixt +2.5 % instructions a game). Put a new one elsewhere."""
    session = Session(compiled(tmp_path, "procedure play():\n    pass\n"), 2, 0)
    assert len(vars(session.rt)) < 30, sorted(vars(session.rt))
