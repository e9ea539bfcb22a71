"""The scenario format's checked forms (who is asked, the exact options, secret waves), what a failing
scenario prints, labels of options bound to none, and logs of games that stop on an error (issue 6, 3 and 4).
"""
from __future__ import annotations

import json

from interpreter.core import decisions
from interpreter.cli import main
from interpreter.runtime.games import load_compiled
from interpreter.runtime import Session
from interpreter.scenarios.run import run_scenario
from tiny_game import KB_SCENARIO, scenario_file, tiny_game


# ---------------------------------------------------------------- expect_error and expect together

def test_expectations_are_checked_after_an_expected_error(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="false after an illegal answer") + """
    decisions:
      - play_unit humans_archer_1 elves_tower_1
    expect_error: DECISION-ILLEGAL
    expect:
      - "1 == 2"
    """)
    outcome = run_scenario(path)
    assert not outcome.ok
    assert "'1 == 2'" in outcome.render()


def test_an_expected_error_leaves_the_table_for_the_expectations(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="an illegal answer changes nothing") + """
    decisions:
      - play_unit humans_archer_1 elves_tower_1
    expect_error: DECISION-ILLEGAL
    expect:
      - "@elves_tower_1 in domains of players[0]"
      - "len(hand of players[1]) == 2"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()


# ---------------------------------------------------------------- failure messages

def test_copies_of_one_card_are_told_apart_in_failures(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="copies") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "[@dwarves_archer_1, @dwarves_archer_2] == [@dwarves_archer_2, @dwarves_archer_1]"
    """)
    text = run_scenario(path).render()
    assert "left side: dwarves_archer_1, dwarves_archer_2; right side: dwarves_archer_2, dwarves_archer_1" in text, text


def test_an_expectation_that_cannot_be_computed_speaks_the_language(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="top of an empty deck") + """
    decisions:
      - play_unit humans_warrior_1 elves_tower_1
    expect:
      - "top(deck).strength == 1"
    """)
    text = run_scenario(path).render()
    assert "cannot evaluate 'top(deck).strength == 1': a value it reads is none" in text, text
    assert "NoneType" not in text and "Error" not in text


# ---------------------------------------------------------------- who is asked, and the exact options

def test_a_decision_can_name_its_player_and_options(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="checked decision") + """
    decisions:
      - answer: play_unit humans_warrior_1 elves_tower_1
        by: P2
        options: [play_unit humans_warrior_1 elves_tower_1, return_cards]
    expect:
      - "@elves_tower_1 in domains of players[1]"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()


def test_a_decision_put_to_another_player_fails_at_its_entry(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="wrong player") + """
    decisions:
      - {answer: return_cards, by: P1}
    expect:
      - "true"
    """)
    outcome = run_scenario(path)
    assert [d.code for d in outcome.diagnostics] == ["DECISION-MISMATCH"]
    (d,) = outcome.diagnostics
    assert "put to P2, not P1" in d.message
    assert d.span.line == path.read_text().splitlines().index("  - {answer: return_cards, by: P1}") + 1


def test_other_options_than_listed_fail_and_show_the_real_ones(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="wrong options") + """
    decisions:
      - {answer: return_cards, options: [return_cards]}
    expect:
      - "true"
    """)
    outcome = run_scenario(path)
    assert [d.code for d in outcome.diagnostics] == ["DECISION-MISMATCH"]
    assert "play_unit humans_warrior_1 elves_tower_1, return_cards" in outcome.diagnostics[0].message


# ---------------------------------------------------------------- secret waves written per player

BIDS = """\
    procedure play():
        secretly for p in players:
            choose n in 1..3 by p
            p.points += n * (seat(p) + 1)
    """


def test_a_secret_wave_is_written_per_player_in_any_order(tmp_path):
    tiny_game(tmp_path, rules=BIDS)
    path = scenario_file(tmp_path, """
    name: bids
    game: tiny
    players: 3
    setup: skip
    decisions:
      - secretly: {P3: "1", P1: "3", P2: "2"}
    expect:
      - "players[0].points == 3"
      - "players[1].points == 4"
      - "players[2].points == 3"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()


def test_a_secret_wave_missing_a_player_fails(tmp_path):
    tiny_game(tmp_path, rules=BIDS)
    path = scenario_file(tmp_path, """
    name: short wave
    game: tiny
    players: 2
    setup: skip
    decisions:
      - secretly: {P1: "3"}
      - "2"
    expect:
      - "true"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, "a plain label may still answer the next secret decision: " + outcome.render()
    path = scenario_file(tmp_path, """
    name: two waves
    game: tiny
    players: 2
    setup: skip
    decisions:
      - secretly: {P1: "3", P3: "1"}
    expect:
      - "true"
    """, "wave.yaml")
    outcome = run_scenario(path)
    assert [d.code for d in outcome.diagnostics] == ["DECISION-MISMATCH"], outcome.render()
    assert "still waits for P3" in outcome.render()


def test_a_secret_wave_does_not_answer_a_decision_outside_secretly(tmp_path):
    path = scenario_file(tmp_path, KB_SCENARIO.format(name="not secret") + """
    decisions:
      - secretly: {P2: return_cards}
    expect:
      - "true"
    """)
    outcome = run_scenario(path)
    assert [d.code for d in outcome.diagnostics] == ["DECISION-MISMATCH"]
    assert "not secret" in outcome.render()


# ---------------------------------------------------------------- options bound to none

NONE_OPTIONS = """\
    procedure play():
        choose by players[0]:
            give(q) for q in players + [leader]:
                log "to {q}"
            take(c) for c in [top(pile), top(hand of players[1])]:
                log "took {c}"
    """


def test_options_bound_to_none_are_labelled_not_crashed(tmp_path):
    root = tiny_game(tmp_path, rules=NONE_OPTIONS, variables="leader: {scope: game, type: player}")
    session = Session(load_compiled(str(root)), 2, 0)
    assert session.pending.labels == ["give P1", "give P2", "give nobody", "take coin_1", "take none"]
    session.answer("give nobody")
    assert session.pending is None


def test_a_decision_among_players_labels_none_as_nobody():
    d = decisions.Decision(0, "who", [1, None], players=True)
    assert d.labels == ["P2", "nobody"]
    assert decisions.player_label(None) == "nobody"


def test_simulate_builds_labels_as_play_does(tmp_path, monkeypatch, capsys):
    root = tiny_game(tmp_path, rules=NONE_OPTIONS, variables="leader: {scope: game, type: player}")
    built = []
    original = decisions.Decision.labels.fget
    monkeypatch.setattr(decisions.Decision, "labels", property(lambda self: built.append(1) or original(self)))
    one = decisions.Decision.label  # the log records the chosen option's label alone
    monkeypatch.setattr(decisions.Decision, "label", lambda self, i: built.append(1) or one(self, i))
    made = Session.labels.fget  # the answers' labels, made when read (Session.labels)
    monkeypatch.setattr(Session, "labels", property(lambda self: built.extend(made(self)) or made(self), Session.labels.fset))
    assert main(["simulate", str(root), "--games", "3"]) == 0
    assert "errors: 0" in capsys.readouterr().out
    assert built, "simulate must build the labels that play, logs and scenarios use"


# ---------------------------------------------------------------- a log up to a runtime error

CRASH_LATER = """\
    procedure play():
        choose c in pile by players[0]
        move c to hand of players[0]
        log "{top(hand of players[1]).value + 1}"
    """


def test_play_writes_the_log_up_to_a_runtime_error(tmp_path, capsys):
    root = tiny_game(tmp_path, rules=CRASH_LATER, records="""\
        - {id: coin, kind: token, value: 1, source: designed}
        - {id: gem, kind: token, value: 3, source: designed}
        """)
    log = tmp_path / "game.json"
    assert main(["play", str(root), "--seed", "3", "--log", str(log)]) == 1
    err = capsys.readouterr().err
    assert "error[RUN-ERROR]" in err and "Traceback" not in err
    data = json.loads(log.read_text())
    assert len(data["decisions"]) == 1 and data["error"]["code"] == "RUN-ERROR"
    assert main(["replay", str(log), "--quiet"]) == 0
    assert "stops with the logged error after 1 decision" in capsys.readouterr().out
    assert main(["explain", str(log)]) == 0
