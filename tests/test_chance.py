"""The chance step (interpreter.codegen.chance): every draw recorded, checked on replay, shown by explain,
scripted by value in scenarios, and put to the chance seat on request."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from interpreter.core.decisions import CHANCE
from interpreter.runtime.gamelog import make_log, replay
from interpreter.runtime.games import load_compiled
from interpreter.runtime.session import Session
from interpreter.scenarios.run import run_scenario
from tiny_game import compiled, scenario_file, tiny_game

RULES = """\
procedure play():
    shuffle pile
    first = random(players)
    let d = roll(2)
    total = d[0] + d[1]
    picked = random(players, 2)
    for p in players:
        move top(pile) to hand of p
"""
VARIABLES = """\
first: {scope: game, type: player}
total: {scope: game, type: number, initial: 0}
picked: {scope: game, type: "list[player]"}
"""
RECORDS = "".join(f"- {{id: t{i}, kind: token, name: T{i}, value: {i}, source: designed}}\n" for i in range(8))


@pytest.fixture(scope="module")
def dice(tmp_path_factory):
    root = tiny_game(tmp_path_factory.mktemp("chance"), rules=RULES, records=RECORDS, variables=VARIABLES)
    return root, compiled(root)


def test_draws_are_the_plain_generator_s_and_recorded(dice):
    """The same generator calls as random.Random's own methods, in the same order; the record says what they gave."""
    _, game = dice
    session = Session(game, 3, seed=11)
    rng = random.Random(11)
    pile = [f"t{i}" for i in range(8)]
    rng.shuffle(pile)
    first = rng.choice(range(3))
    faces = [rng.randrange(6) + 1 for _ in range(2)]
    picked = rng.sample(range(3), 2)
    gv = session.state.game_vars
    assert [gv["first"], gv["total"], gv["picked"]] == [first, sum(faces), picked]
    assert [e.id for e in session.state.zone("hand", 0).items + session.state.zone("pile").items][:1] == pile[:1]
    texts = session.state.chance.texts()
    order = [int(x) for x in texts[0].split(": ")[1].split()]
    assert [f"t{i}" for i in order] == pile
    assert texts[1:] == [f"random 3: {first}", f"roll d6: {faces[0]} {faces[1]}", f"random 3: {picked[0]} {picked[1]}"]
    assert session.state.digest() == Session(game, 3, seed=11).state.digest()


def _log(game, seed=5, players=3):
    session = Session(game, players, seed=seed)
    return make_log(session, "tiny")


def test_replay_checks_every_draw(dice, monkeypatch):
    root, game = dice
    monkeypatch.setattr("interpreter.runtime.gamelog.load_compiled", lambda ref: game)
    log = _log(game)
    assert len(log["chance"]) == 4 and log["chance"][2].startswith("roll d6: ")
    assert replay(log).matches
    old = {k: v for k, v in log.items() if k != "chance"}  # a log written before draws were recorded
    assert replay(old).matches
    bad = json.loads(json.dumps(log))
    faces = bad["chance"][2].split(": ")[1].split()
    bad["chance"][2] = f"roll d6: {7 - int(faces[0])} {faces[1]}"
    outcome = replay(bad)
    assert not outcome.matches and "LOG-MISMATCH" in outcome.reason and "draw 3" in outcome.reason
    assert "the seed gives 'roll d6:" in outcome.reason
    extra = json.loads(json.dumps(log))
    extra["chance"].append("random 3: 1")
    assert not replay(extra).matches and "1 draw more" in replay(extra).reason


def test_a_given_outcome_in_a_log_is_replayed(dice, monkeypatch):
    _, game = dice
    monkeypatch.setattr("interpreter.runtime.gamelog.load_compiled", lambda ref: game)
    log = _log(game)
    seeded = int(log["chance"][1].split(": ")[1])
    other = (seeded + 1) % 3
    log["chance"][1] = f"random 3: {other} (given)"
    outcome = replay(log, allow_changed=True)
    assert outcome.session.state.game_vars["first"] == other
    assert outcome.session.state.chance.texts()[1] == f"random 3: {other} (given)"


def test_the_chance_seat_answers_draws_as_decisions(dice):
    _, game = dice
    session = Session(game, 3, seed=2, chance="seat")
    asked = []
    while session.pending is not None:
        d = session.pending
        assert d.player == CHANCE and d.kind == "chance"
        assert d.chances == [1 / len(d.values)] * len(d.values)
        asked.append(len(d.values))
        session.answer(len(d.values) - 1)  # always the last option
    # the shuffle one place at a time (8 components: 7 decisions), a pick of 3, two dice, two picks of 3 then 2
    assert asked == [8, 7, 6, 5, 4, 3, 2, 3, 6, 6, 3, 2]
    gv = session.state.game_vars
    assert gv["first"] == 2 and gv["total"] == 12 and gv["picked"] == [2, 1]
    assert [e.id for e in session.state.zone("hand", 0).items] == ["t7"]  # the last one each time: reversed
    assert all(d.how == "seat" for d in session.state.chance.record)


def test_a_copy_at_a_chance_decision_plays_on_alike(dice):
    _, game = dice
    session = Session(game, 3, seed=2, chance="seat")
    for _ in range(9):  # into the shuffle's decisions, and past the pick
        session.answer(0)
    copy = session.copy()
    for s in (session, copy):
        while s.pending is not None:
            s.answer(1 if len(s.pending.values) > 1 else 0)
    assert copy.state.digest() == session.state.digest()


def test_a_seat_game_s_log_replays(dice, monkeypatch):
    _, game = dice
    monkeypatch.setattr("interpreter.runtime.gamelog.load_compiled", lambda ref: game)
    session = Session(game, 3, seed=4, chance="seat")
    r = random.Random(0)
    while session.pending is not None:
        session.answer(r.randrange(len(session.pending.values)))
    log = make_log(session, "tiny")
    assert all(x.endswith(" (seat)") for x in log["chance"])
    assert replay(log).matches
    log["decisions"][0][0] = (log["decisions"][0][0] + 1) % 8
    log["decisions"][0][1] = ""
    assert not replay(log).matches


def test_a_whenever_body_draws_by_the_seed_even_with_the_seat(tmp_path):
    rules = """\
    procedure play():
        set_total()
        choose p in players by players[0]

    procedure set_total():
        total = 1

    whenever total == 1:
        shuffle pile
        total = 2
    """
    root = tiny_game(tmp_path, rules=rules, records=RECORDS, variables=VARIABLES)
    game = compiled(root)
    session = Session(game, 2, seed=1, chance="seat")
    assert session.pending.player == 0  # the shuffle asked nobody
    assert [d.how for d in session.state.chance.record] == ["seed"]


def test_roll_is_checked():
    from dsl.checker import Scope
    from dsl.diagnostics import Report, Source
    from dsl.parser import parse_expression
    checker = load_compiled("kings_bounty").content.checker
    report, saved = Report(), checker.report
    checker.report = report
    try:
        checker.expr(parse_expression(Source("x", 'roll("two")')), Scope({}))
        assert checker.expr(parse_expression(Source("y", "roll(2, 8)")), Scope({})) == "list[number]"
    finally:
        checker.report = saved
    assert [d.code for d in report.diagnostics] == ["TYPE-MISMATCH"]


# ---------------------------------------------------------------- scenarios
SCENARIO = """
    name: chance by value
    game: {game}
    players: 3
    setup: skip
    given: |
      move [@t0, @t4, @t5, @t6, @t7] to hand of players[2]
    run: play()
    chance:
{chance}
    expect:
{expect}
"""
EXPECT = """\
      - "first == players[2]"
      - "total == 7"
      - "top(hand of players[0]) == @t3"
      - "picked == [players[1], players[0]]"
"""
GOOD = """\
      - {top: [t3, t1], shuffle: pile}
      - P3
      - [2, 5]
      - [P2, P1]"""


def _scenario(tmp_path, root, chance: str, expect: str = EXPECT):
    return scenario_file(tmp_path, SCENARIO.format(game=root, chance=chance, expect=expect))


def test_a_scenario_scripts_draws_by_value(dice, tmp_path):
    root, _ = dice
    outcome = run_scenario(_scenario(tmp_path, root, GOOD))
    assert outcome.ok, outcome.render()


@pytest.mark.parametrize("bad, code, line, words", [
    ("[2, 5]", "CHANCE-ILLEGAL", 11, "7 is not a face of a die of 6"),
    ("P3", "CHANCE-ILLEGAL", 10, "'P4' cannot be drawn"),
    ("{top: [t3, t1], shuffle: pile}", "CHANCE-MISMATCH", 9, "the game shuffles pile here; the entry is a value"),
    ("[P2, P1]", "CHANCE-ILLEGAL", 12, "2 values, the entry gives 3"),
    ("{top: [t3, t1], shuffle: pile}", "CHANCE-ILLEGAL", 9, "'t7' is not in pile, which holds t1, t2, t3"),
])
def test_a_draw_that_could_not_happen_is_an_error_at_its_line(dice, tmp_path, bad, code, line, words):
    root, _ = dice
    replacement = {"[2, 5]": "[2, 7]", "P3": "P4", "[P2, P1]": "[P2, P1, P3]"}.get(bad)
    if code == "CHANCE-MISMATCH":
        replacement = "4"
    elif bad.startswith("{top"):
        replacement = "{top: [t7], shuffle: pile}"
    outcome = run_scenario(_scenario(tmp_path, root, GOOD.replace(bad, replacement)))
    [d] = outcome.diagnostics
    assert d.code == code and d.span.line == line and words in d.message, d.render()
    assert "main.rules:" in d.message  # where the rules draw


def test_unused_chance_entries_fail_and_seed_entries_pass_draws_on(dice, tmp_path):
    root, _ = dice
    outcome = run_scenario(_scenario(tmp_path, root, GOOD + "\n      - 4"))
    assert outcome.failures == ["1 chance entry was never drawn: 4"]
    seeded = run_scenario(_scenario(tmp_path, root, "      - {seed: 3}\n      - [P2, P1]", EXPECT.splitlines()[-1]))
    assert seeded.ok, seeded.render()  # three draws as the seed gives them, then the picks


def test_explain_tells_the_draws(tmp_path):
    log = tmp_path / "kb.json"
    run = [sys.executable, "-m", "interpreter.cli.main"]
    subprocess.run([*run, "play", "kings_bounty", "--players", "2", "--seed", "3", "--agents", "random,random",
                    "--log", str(log)], check=True, capture_output=True)
    out = subprocess.run([*run, "explain", str(log), "--event", "shuffle"], check=True, capture_output=True, text=True).stdout
    assert "chance, before the first decision: deck shuffled (48), on top: " in out
    first = json.loads(log.read_text())["chance"]
    assert any(x.startswith("shuffle deck: ") for x in first)
