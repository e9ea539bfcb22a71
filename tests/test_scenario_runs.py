"""Scenarios and how a game runs (issue 33 item 5): a game that ends during a scenario is said and fails unless
expected; the engine runs `setup`, then `start`, never the setup twice; a list read past its end is an error at
that line; a game's validation errors are printed once per `rules test`."""
from __future__ import annotations

import pytest

from dsl.diagnostics import DiagnosticError
from dsl.loader import load_game
from interpreter.codegen import compile_game
from interpreter.runtime.session import Session
from interpreter.scenarios.run import run_scenario
from cli_run import run
from tiny_game import scenario_file, tiny_game

RULES = """\
procedure set_table():
    setups += 1
    move top(pile) to hand of players[0]

procedure play():
    rounds += 1
    choose p in players by players[0] ask "Who wins?"
    win p
"""
VARIABLES = """\
setups: {scope: game, type: number, initial: 0}
rounds: {scope: game, type: number, initial: 0}
"""


def _game(tmp_path, rules=RULES):
    root = tiny_game(tmp_path, rules=rules, variables=VARIABLES)
    manifest = root / "game.yaml"
    manifest.write_text(manifest.read_text().replace("start: play\n", "start: play\nsetup: set_table\n"))
    return root


def test_the_engine_runs_setup_then_start_once_each(tmp_path):
    root = _game(tmp_path)
    s = Session(compile_game(load_game(root)), 2, seed=0)
    assert s.state.game_vars["setups"] == 1 and s.pending.player == 0
    # a scenario's default run is the game after its setup: the setup is not run twice
    path = scenario_file(tmp_path, f"""
        name: the whole game
        game: {root}
        decisions: [P2]
        expect_end: [P2]
        expect:
          - "setups == 1"
          - "rounds == 1"
    """)
    outcome = run_scenario(path)
    assert outcome.ok, outcome.render()


def test_a_start_that_calls_setup_is_refused(tmp_path):
    root = _game(tmp_path, RULES.replace("procedure play():\n", "procedure play():\n    set_table()\n"))
    found = [(d.code, d.span.line) for d in load_game(root).report.diagnostics]
    assert found == [("DSL-PLACE", 6)], found


@pytest.mark.parametrize("given, expect_end, wanted", [
    ("win players[1]", None, "the game ended in given at tiny/main.rules"),
    ("win players[1]", "true", None),
    ("win players[1]", "[P1]", "expected P1 to win; the game ended in given"),
    ("rounds = 5", "true", "expected the game to end, but it did not"),
])
def test_a_game_that_ends_during_a_scenario_is_said(tmp_path, given, expect_end, wanted):
    rules = RULES + "\nprocedure finish():\n    " + given + "\n"
    root = _game(tmp_path, rules)
    path = scenario_file(tmp_path, f"""
        name: ends early
        game: {root}
        given: finish()
        {'expect_end: ' + expect_end if expect_end else ''}
        run: rounds = 1
        decisions: {'[P2]' if expect_end is None else '[]'}
        expect:
          - "setups == 1"
    """)
    outcome = run_scenario(path)
    if wanted is None:
        assert outcome.ok, outcome.render()
        return
    text = outcome.render()
    assert not outcome.ok and wanted.format(root=root) in text, text
    if expect_end is None:
        assert "main.rules:11:5: P2 wins" in text and "never asked: 'P2'" in text  # where it ended, who won, what was left


def test_a_list_read_past_its_end_is_an_error_there(tmp_path):
    rules = RULES.replace("    rounds += 1\n", "    let dice = roll(2)\n    rounds = dice[0] + dice[2]\n")
    with pytest.raises(DiagnosticError) as err:
        Session(compile_game(load_game(_game(tmp_path, rules))), 2, seed=0)
    [d] = err.value.diagnostics
    assert d.code == "RUN-ERROR" and d.span.line == 7
    assert d.message == "dice[2] reads past its end: dice has 2 elements (0 to 1, or -2 to -1 from the end)"


def test_the_games_errors_are_printed_once_per_run(tmp_path, capsys):
    root = _game(tmp_path, RULES.replace("rounds += 1", "roundz += 1"))
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        scenario_file(tmp_path / "s", f"""
            name: {name}
            game: {root}
            expect: ["true"]
        """, name=name) if (tmp_path / "s").mkdir(exist_ok=True) is None else None
    code, out, _ = run(capsys, "test", tmp_path / "s")
    assert code == 1
    assert out.count("error[REF-UNDEF]") == 1 and out.count("roundz") == 2  # the message, the line under it
    assert out.count("(and the game's 1 error printed above)") == 2
